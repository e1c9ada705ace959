#include "granite/config/scenario_schema.hpp"

#include "granite/contact/single_contact.hpp"
#include "granite/config/settings.hpp"
#include "granite/solver/compatible_forces.hpp"
#include "granite/solver/relaxation.hpp"
#include "granite/solver/sweep_order.hpp"

namespace granite::config {

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

Field req(std::string key, SchemaPtr s, std::string unit, std::string doc) {
  return Field{std::move(key), std::move(s), true, "", std::move(unit), std::move(doc)};
}
Field opt(std::string key, SchemaPtr s, std::string def, std::string unit, std::string doc) {
  return Field{std::move(key), std::move(s),    false,
               std::move(def), std::move(unit), std::move(doc)};
}
SchemaPtr variant(std::string doc, std::vector<Field> fields) {
  auto s = std::make_shared<Schema>(*map(std::move(fields)));
  s->doc = std::move(doc);
  return s;
}

// Keys shared by every global body: its material and its prescribed motion.
std::vector<Field> with_motion(std::vector<Field> fields) {
  fields.push_back(req("material", text(), "", "name of an entry of `materials`"));
  fields.push_back(opt("velocity", vec3(), "[0, 0, 0]", "m/s",
                       "prescribed velocity; non-zero makes the body kinematic (e.g. a piston)"));
  fields.push_back(
      opt("motion",
          tagged({{"oscillation",
                   variant("d(t) = amplitude (sin(2 pi frequency t + phase) - sin(phase)): a "
                           "vibrated floor or wall",
                           {req("amplitude", vec3(), "m", "amplitude vector (direction and size)"),
                            req("frequency", real(0.0, inf, true), "Hz", "frequency"),
                            opt("phase", real(-inf), "0", "rad", "phase at t = 0")})},
                  {"table",
                   variant("velocity piecewise linear in time, constant before the first and after "
                           "the last entry",
                           {req("times", list(real(0.0), 1), "s", "increasing times"),
                            req("velocities", list(vec3(), 1), "m/s",
                                "the velocity at each time (as many as times)")})}}),
          kAbsent, "",
          "prescribed motion as a function of time (docs/global_bodies.md); excludes velocity"));
  fields.push_back(
      opt("rotation",
          map({req("center", vec3(), "m", "a point of the rotation axis (it moves with `motion`)"),
               req("angular_velocity", vec3(), "rad/s",
                   "angular velocity vector: the axis direction and the rate (right-hand rule)")}),
          kAbsent, "",
          "prescribed rotation at a constant angular velocity (a rotating drum); the wall moves "
          "with v + angular_velocity x (x - center); combines with motion, excludes velocity "
          "(docs/global_bodies.md)"));
  fields.push_back(opt("surface_velocity", vec3(), "[0, 0, 0]", "m/s",
                       "a conveyor belt: the surface moves along itself at this velocity's "
                       "tangential part at each contact, the body stays (docs/global_bodies.md)"));
  fields.push_back(opt("active_from", real(0.0), "0", "s",
                       "the body exists (takes part in contacts) from this time on"));
  fields.push_back(opt("active_until", real(0.0, inf, true), kAbsent, "s",
                       "and until this time (a gate that opens); absent: to the end"));
  return fields;
}

std::vector<Field> plane_fields() {
  return {req("point", vec3(), "m", "a point on the plane"),
          req("normal", vec3(), "", "outward normal (towards the particles); normalised on input")};
}
// A body's orientation {axis, angle} (global boxes and `type: body` particles).
SchemaPtr rotation() {
  return map({req("axis", vec3(), "", "rotation axis; normalised on input"),
              req("angle", real(-inf), "deg", "rotation angle (right-hand rule)")});
}

std::vector<Field> box_fields() {
  return {req("center", vec3(), "m", "centre of the box"),
          req("half_extents", vec3(0.0), "m", "half edge lengths along the box's own axes"),
          opt("orientation", rotation(), kAbsent, "",
              "the box's axes are x, y, z turned by this rotation; absent: axis-aligned")};
}
std::vector<Field> cylinder_fields() {
  return {req("center", vec3(), "m", "centre of the cylinder"),
          req("axis", vec3(), "", "axis direction; normalised on input"),
          req("radius", real(0.0, inf, true), "m", "radius"),
          req("half_length", real(0.0, inf, true), "m", "half length along the axis (flat caps)"),
          opt("inside", boolean(), "false", "",
              "true: a closed drum, the solid is everything outside the cylinder and particles "
              "live inside, touching the mantle and the caps from within")};
}

std::vector<Field> mesh_fields() {
  return {req("file", text(), "",
              "an STL (binary or ASCII) or Wavefront OBJ file of the wall's triangles; a relative "
              "path is relative to the configuration file's directory"),
          opt("scale", real(0.0, inf, true), "1", "",
              "factor applied to the file's coordinates (e.g. 0.001 for a file in millimetres)"),
          opt("position", vec3(), "[0, 0, 0]", "m",
              "where the file's origin goes (after scale and orientation)"),
          opt("orientation", rotation(), kAbsent, "",
              "the file's axes are x, y, z turned by this rotation about its origin; absent: as "
              "in the file"),
          opt("flat_angle", real(1e-12, 0.1), "1e-05", "rad",
              "edges bent by less than this are flat: a sphere crossing them sees one plane "
              "(docs/global_bodies.md)")};
}

// contact.compatible: off, or a law of solver::kContactLawNames.
SchemaPtr compatible_choice() {
  std::vector<std::string> names{"off"};
  for (const std::string& name : names_of(solver::kContactLawNames)) names.push_back(name);
  return choice(std::move(names));
}

// Even k from 4 to contact::kMaxFrictionDirections (the schema has no parity rule of its own).
SchemaPtr friction_directions_choice() {
  std::vector<std::string> values;
  for (int k = 4; k <= contact::kMaxFrictionDirections; k += 2) values.push_back(std::to_string(k));
  return choice(std::move(values));
}

SchemaPtr global_body() {
  // A union's parts are primitive shapes sharing the union's material and motion.
  SchemaPtr part =
      tagged({{"plane", variant("half-space", plane_fields())},
              {"box", variant("box", box_fields())},
              {"cylinder", variant("finite capped cylinder (or drum)", cylinder_fields())}});
  return tagged({
      {"plane",
       variant("half-space bounded by a plane (wall, floor, piston)", with_motion(plane_fields()))},
      {"box", variant("box (axis-aligned unless given an orientation)", with_motion(box_fields()))},
      {"cylinder", variant("finite capped cylinder, or a closed drum with inside: true",
                           with_motion(cylinder_fields()))},
      {"union", variant("union of planes, boxes and cylinders moving as one body",
                        with_motion({req("parts", list(part, 1), "", "the shapes of the union")}))},
      {"mesh", variant("a wall of triangles from a file, two-sided (hoppers, chutes; "
                       "docs/global_bodies.md); touches every shape",
                       with_motion(mesh_fields()))},
  });
}

Field group_field() {
  return opt("group", integer(0), "0", "",
             "tag written with every particle of this source (snapshots, checkpoints)");
}

// A size distribution (docs/particle_sources.md); drawn per particle id.
SchemaPtr size_distribution() {
  const Field by = opt("by", choice(names_of(kSizeByMassNames)), "number", "",
                       "number: the distribution of the particle count; mass: of their mass "
                       "(the fraction of the mass in each size: more small spheres by number)");
  const auto bounds = [](const char* what) {
    return std::vector<Field>{
        req("min", real(0.0, inf, true), "m", std::string("smallest radius") + what),
        req("max", real(0.0, inf, true), "m",
            std::string("largest radius") + what + " (> min; sets the ghost width and cells)")};
  };
  auto with = [&](std::vector<Field> fields, const char* what) {
    for (Field& f : bounds(what)) fields.push_back(std::move(f));
    fields.push_back(by);
    return fields;
  };
  SchemaPtr component =
      map({opt("radius", real(0.0, inf, true), "", "m",
               "radius of this component's spheres; give radius or shape"),
           opt("shape", text(), "", "",
               "name of an entry of `shapes`: this component's particles have that shape "
               "(docs/particle_sources.md, mixtures)"),
           req("fraction", real(0.0, inf, true), "",
               "its fraction (by number or by mass; the fractions are normalised to sum 1)"),
           opt("material", text(), "", "",
               "name of an entry of `materials` (default: the source's material)")});
  return tagged({
      {"uniform", variant("radius uniform in [min, max]", with({}, ""))},
      {"normal",
       variant("normal radius, truncated to [min, max]",
               with({req("mean", real(0.0, inf, true), "m", "mean before truncation"),
                     req("std", real(0.0, inf, true), "m", "standard deviation before truncation")},
                    " (the truncation)"))},
      {"lognormal",
       variant("log-normal radius: ln r normal with median exp(mu) and deviation sigma, "
               "truncated to [min, max]",
               with({req("median", real(0.0, inf, true), "m", "median exp(mu) before truncation"),
                     req("sigma", real(0.0, inf, true), "", "standard deviation of ln r")},
                    " (the truncation)"))},
      {"mixture", variant("discrete mixture of sizes, shapes and materials with given fractions",
                          {req("components", list(component, 1), "",
                               "the radii or shapes, materials and fractions"),
                           by})},
  });
}

// `radius` (monodisperse), `size` (a distribution) or `shape`: load_scenario wants exactly one.
std::vector<Field> size_fields() {
  return {opt("radius", real(0.0, inf, true), "", "m",
              "sphere radius (monodisperse); give radius, size or shape"),
          opt("size", size_distribution(), "", "",
              "size distribution instead of one radius (docs/particle_sources.md)"),
          opt("shape", text(), "", "",
              "name of an entry of `shapes`: particles of that shape instead of spheres "
              "(docs/shapes.md)"),
          opt("orientation", choice({"identity", "random"}), "identity", "",
              "a shaped particle's orientation: the shape's own frame, or uniform over "
              "rotations (drawn per particle id)"),
          opt("orientation_axis", vec3(), kAbsent, "",
              "with orientation: random, turn the shape's frame about this world axis only, "
              "by an angle uniform in [0, 2 pi) (e.g. rods lying in a plane); absent: uniform "
              "over all rotations")};
}

// The `shapes` list (docs/shapes.md): each entry's name, selected by `type`.
SchemaPtr shape_entry() {
  const SchemaPtr part = map({req("radius", real(0.0, inf, true), "m", "radius of this sphere"),
                              req("position", vec3(), "m", "its centre in the shape's frame")});
  return tagged({
      {"clump",
       variant("a rigid union of spheres; parts may overlap (the overlap counts once in the mass)",
               {req("name", text(), "", "name referenced by particle sources' `shape`"),
                req("parts", list(part, 1), "",
                    "the spheres; the frame is moved to the union's centre of mass")})},
      {"capsule",
       variant("the points within `radius` of a segment along the shape's x axis (a rod, a pill)",
               {req("name", text(), "", "name referenced by particle sources' `shape`"),
                req("radius", real(0.0, inf, true), "m", "radius"),
                req("half_length", real(0.0), "m",
                    "half the length of the segment (0: a sphere); the whole capsule is "
                    "2 (half_length + radius) long")})},
      {"box", variant("a rectangular box centred on its centre of mass, faces normal to its axes",
                      {req("name", text(), "", "name referenced by particle sources' `shape`"),
                       req("half_extents", vec3(0.0), "m",
                           "half edge lengths along x, y, z (each > 0)")})},
      {"ellipsoid",
       variant("an ellipsoid centred on its centre of mass, its semi-axes along x, y, z",
               {req("name", text(), "", "name referenced by particle sources' `shape`"),
                req("semi_axes", vec3(0.0), "m", "the semi-axes along x, y, z (each > 0)")})},
      {"convex",
       variant("the convex hull of the given vertices (Qhull), a grain or a crystal",
               {req("name", text(), "", "name referenced by particle sources' `shape`"),
                opt("vertices", list(vec3(), 4), kAbsent, "m",
                    "points in the shape's frame; the frame is moved to the hull's centre of "
                    "mass, points inside the hull are dropped (give `vertices` or `file`)"),
                opt("file", text(), kAbsent, "",
                    "an STL (binary or ASCII) or Wavefront OBJ file whose vertices' hull is the "
                    "shape (its triangles are not used); a relative path is relative to the "
                    "configuration file's directory"),
                opt("scale", real(0.0, inf, true), "1", "",
                    "factor applied to the vertices (e.g. 0.001 for a file in millimetres)")})},
  });
}

std::vector<Field> lattice_fields() {
  std::vector<Field> fields = {
      req("min", vec3(), "m", "lower corner of the region"),
      req("max", vec3(), "m", "upper corner of the region"),
      req("spacing", real(0.0, inf, true), "m",
          "lattice spacing (same on all axes; at least twice the largest radius)")};
  for (Field& f : size_fields()) fields.push_back(std::move(f));
  fields.push_back(req("material", text(), "", "name of an entry of `materials`"));
  fields.push_back(opt("velocity", vec3(), "[0, 0, 0]", "m/s", "initial velocity"));
  fields.push_back(opt("perturbation", vec3(0.0), "[0, 0, 0]", "m/s",
                       "each velocity component gets a uniform random offset in [-p, p]"));
  fields.push_back(group_field());
  return fields;
}

SchemaPtr region() {
  return tagged(
      {{"box", variant("axis-aligned box", {req("min", vec3(), "m", "lower corner"),
                                            req("max", vec3(), "m", "upper corner (> min)")})},
       {"cylinder", variant("finite capped cylinder", cylinder_fields())}});
}

// A random fill's and a pour's keys: `fields`, then the size, material, velocity, its spread,
// the attempts and the group.
std::vector<Field> insertion_fields(std::vector<Field> fields, const char* spread,
                                    const char* attempts, const char* attempts_doc) {
  for (Field& f : size_fields()) fields.push_back(std::move(f));
  fields.push_back(req("material", text(), "", "name of an entry of `materials`"));
  fields.push_back(opt("velocity", vec3(), "[0, 0, 0]", "m/s", "initial velocity"));
  fields.push_back(opt("perturbation", vec3(0.0), "[0, 0, 0]", "m/s", spread));
  fields.push_back(opt("attempts", integer(1), attempts, "", attempts_doc));
  fields.push_back(group_field());
  return fields;
}

std::vector<Field> random_fields() {
  return insertion_fields(
      {req("region", region(), "", "where the spheres go (each lies wholly inside)"),
       opt("count", wide_integer(1), "", "",
           "target number of spheres; give count or solid_fraction"),
       opt("solid_fraction", real(0.0, 1.0, true, true), "", "",
           "target solid fraction of the region (sphere volume / region volume; random "
           "sequential addition stops short of 0.38 for one size, docs/particle_sources.md)")},
      "each velocity component gets a uniform random offset in [-p, p]", "1000",
      "random positions tried for each sphere; the fill stops at the first sphere that finds no "
      "place (the shortfall is reported, a warning)");
}

std::vector<Field> pour_fields() {
  return insertion_fields(
      {req("region", region(), "", "where new particles go (each lies wholly inside)"),
       opt("rate", real(0.0, inf, true), "", "1/s", "particles per second; give rate or mass_rate"),
       opt("mass_rate", real(0.0, inf, true), "", "kg/s", "mass per second"),
       opt("start", real(0.0), "0", "s", "the pour begins at this time"),
       req("end", real(0.0, inf, true), "s", "and ends at this time (> start)")},
      "its spread: each component gets a uniform random offset in [-p, p]", "100",
      "random positions tried per particle and step; a particle that finds no place waits for "
      "the next step (the shortfall at the end is reported)");
}

// `fixed` of a particle source (not of the inflow's layer).
Field fixed_field() {
  return opt("fixed", boolean(), "false", "",
             "the particles never move: zero inverse mass and inertia, no gravity (a pile's "
             "base, a rough wall of spheres); they take no velocity. Contacts between two fixed "
             "particles are not detected");
}

std::vector<Field> with_fixed(std::vector<Field> fields) {
  fields.push_back(fixed_field());
  return fields;
}

SchemaPtr particle_source() {
  return tagged({
      {"lattice", variant("spheres on a rectangular lattice filling a region (points whose sphere "
                          "would overlap a global body stay empty)",
                          with_fixed(lattice_fields()))},
      {"sphere",
       variant("a single sphere",
               {req("position", vec3(), "m", "centre"),
                req("radius", real(0.0, inf, true), "m", "radius"),
                req("material", text(), "", "name of an entry of `materials`"),
                opt("velocity", vec3(), "[0, 0, 0]", "m/s", "initial velocity"),
                opt("angular_velocity", vec3(), "[0, 0, 0]", "rad/s", "initial angular velocity"),
                opt("mass", real(0.0, inf, true), "", "kg",
                    "mass of this sphere, overriding the material's density (its inertia is a "
                    "solid sphere's, 2/5 m r²; friction still from the material); default "
                    "density × 4/3 π r³"),
                group_field(), fixed_field()})},
      {"body",
       variant("a single particle of a shape (docs/shapes.md)",
               {req("shape", text(), "", "name of an entry of `shapes`"),
                req("position", vec3(), "m", "centre of mass"),
                opt("orientation", rotation(), kAbsent, "",
                    "the shape's frame turned by this rotation; absent: the shape's own frame"),
                req("material", text(), "", "name of an entry of `materials`"),
                opt("velocity", vec3(), "[0, 0, 0]", "m/s", "initial velocity"),
                opt("angular_velocity", vec3(), "[0, 0, 0]", "rad/s", "initial angular velocity"),
                group_field(), fixed_field()})},
      {"random", variant("non-overlapping spheres at random positions in a box or a cylinder "
                         "(random sequential addition), avoiding global bodies and the "
                         "particles of earlier sources",
                         random_fields())},
      {"file",
       variant("particles made elsewhere: the rows of a CSV table or of a Granite snapshot or "
               "checkpoint (docs/particle_sources.md)",
               {req("path", text(), "",
                    "a .csv file (header x, y, z, radius[, vx, vy, vz][, wx, wy, wz][, material]"
                    "[, group]) or a Granite snapshot/checkpoint (.h5; its shaped particles keep "
                    "their index into `shapes`); relative to the working directory"),
                req("material", text(), "",
                    "name of an entry of `materials` for rows without a material"),
                opt("group", integer(0), "0", "",
                    "tag of the rows without a group (snapshots, checkpoints)")})},
      {"pour", variant("particles inserted at a rate into a box or a cylinder over a time window, "
                       "never overlapping a particle or a global body (the pour fix)",
                       pour_fields())},
  });
}

SchemaPtr build() {
  return map({
      req("run",
          map({
              req("dt", real(0.0, inf, true), "s", "time-step length"),
              req("end_time", real(0.0, inf, true), "s",
                  "simulated time at which the run stops (at most 2^53 steps of dt: more is "
                  "refused)"),
              opt("thermo_every", integer(1), "100", "steps", "print a thermo line every N steps"),
              opt("seed", wide_integer(0), "1", "",
                  "seed of the random-number generator (same seed, same run)"),
          }),
          "", "time stepping"),
      req("domain",
          map({
              req("min", vec3(), "m", "lower corner of the simulation domain"),
              req("max", vec3(), "m",
                  "upper corner; bodies whose centre leaves the domain on a non-periodic axis are "
                  "deleted"),
              opt("periodic", bool3(), "[false, false, false]", "",
                  "periodicity per axis: bodies leaving through one face re-enter through the "
                  "other"),
              opt("outflow", list(choice(names_of(kFaceNames))), "[x-, x+, y-, y+, z-, z+]", "",
                  "faces through which leaving particles are deleted and counted as outflow; a "
                  "particle leaving through another non-periodic face is lost (it went through "
                  "a wall): see on_lost"),
              opt("on_lost", choice(names_of(kLostPolicyNames)), "error", "",
                  "a lost particle (left through a non-periodic face that is not an outflow "
                  "face): error stops the run at that step naming it (exit 2), warn logs the "
                  "losses and continues, ignore only counts them (run.json particles.lost)"),
              opt("decomposition", int3(0), "[0, 0, 0]", "",
                  "MPI subdomains per axis; 0 on an axis lets Granite choose (the least cut "
                  "area of the load: under gravity, of the bed the particles settle into; "
                  "docs/load_balance.md); the product must equal the rank count. Ghosts "
                  "come from the nearest subdomains only, so along every cut or periodic axis a "
                  "subdomain "
                  "must be at least the ghost width 2 × largest radius + contact.threshold "
                  "wide: Granite chooses no thinner one, and refuses a run whose decomposition "
                  "is thinner (exit 2), or stops it if the largest radius grows past it"),
              opt("balance", choice(names_of(kBalanceModeNames)), "auto", "",
                  "load balance (docs/load_balance.md): auto is dynamic, or none when mesh walls "
                  "hold more than " +
                      std::to_string(kAutoBalanceMeshTriangles) +
                      " triangles (equal cuts split them among the ranks); none keeps equally "
                      "spaced cuts; static "
                      "moves the cuts of every cut axis once, before the first step, so that each "
                      "slab holds an equal share of the particles; dynamic also measures the load "
                      "as often as it changes (balance_every, balance_adaptive; each particle's "
                      "work "
                      "in the step, predicted from "
                      "its contacts' visits and updates) and moves the cuts when "
                      "max/mean exceeds imbalance_threshold. Every subdomain stays at least the "
                      "ghost width wide"),
              opt("balance_every", integer(1), "100", "steps",
                  "dynamic balance: steps before the first load measurement, and between "
                  "measurements without balance_adaptive"),
              opt("balance_adaptive", boolean(), "true", "",
                  "dynamic balance: the next measurement when the load's drift since the last "
                  "one predicts max/mean to reach imbalance_threshold, from balance_every/4 to "
                  "4 x balance_every steps later (docs/load_balance.md); false: every "
                  "balance_every steps"),
              opt("imbalance_threshold", real(1.0), "1.1", "",
                  "dynamic balance: new cuts when the largest rank load over the mean exceeds "
                  "this (and the new cuts lower it)"),
          }),
          "", "simulation domain"),
      opt("gravity", vec3(), "[0, 0, -9.81]", "m/s^2", "gravitational acceleration"),
      opt("contact",
          map({
              opt("model", choice(names_of(contact::kModelNames)), "mdp", "",
                  "single-contact model: mdp is the paper's analytic maximum-dissipation solver"),
              opt("golden_iterations", integer(1, 1000), "20", "",
                  "golden-section iterations of mdp_golden"),
              opt("friction_directions", friction_directions_choice(), "8", "",
                  "polyhedral model: k, the even number of directions of the polyhedral "
                  "friction cone (Stewart-Trinkle); the single-contact LCP has size k + 2"),
              opt("threshold", real(0.0), "0", "m",
                  "contacts are detected up to this positive gap (closing contacts)"),
              opt("skin", real(0.0), "", "m",
                  "neighbour-list skin (docs/performance.md); absent: 0.8 x the largest radius "
                  "of the configuration's particle sources and inflow layer (none without "
                  "them), reduced as far as needed (down to 0) for the subdomains to hold the "
                  "ghost width with it. > 0 finds each step's contacts "
                  "among candidate pairs within threshold + skin, searched and exchanged "
                  "between processes only when some particle has moved more than skin/2, "
                  "particles were inserted or deleted, a checkpoint was written, or a particle "
                  "crossed a periodic face; between those steps a body stays with its process "
                  "and the ghosts are refreshed in place. The ghost width grows by the skin. "
                  "0 searches and migrates every step"),
              opt("rebuild_every", integer(0), "0", "steps",
                  "with a skin: rebuild the neighbour lists at least every this many steps "
                  "(0: only when needed)"),
              opt("locality_sort", choice(names_of(kLocalitySortNames)), "morton", "",
                  "morton: at every rebuild of the neighbour lists and ghosts (every step with "
                  "skin 0), each process sorts its particles along the Z-order curve over cells "
                  "of 2 x the largest radius + threshold + skin, ties by id, so that bodies near "
                  "in space are near in memory and the contacts come in that order "
                  "(docs/performance.md); none keeps the order of insertion and migration"),
              opt("error_reduction", real(0.0, 1.0), "0.2", "",
                  "epsilon of the paper's error reduction: penetration is resolved at "
                  "epsilon*xi/dt"),
              opt("max_initial_overlap", real(0.0), "0.01", "",
                  "largest overlap allowed in the initial state (after building, taking particles "
                  "--from a checkpoint, or creating an inflow layer; a --restart and granite "
                  "forces take a stored run's own overlaps), as a fraction of the smaller radius "
                  "of the "
                  "pair; a larger overlap stops the run, since the error reduction would blast "
                  "the bodies apart"),
              opt("compatible", compatible_choice(), "off", "",
                  "compatible contact forces (Olsen & Kamrin; docs/compatible_forces.md): after "
                  "the relaxation, the unique non-negative contact forces with the same net "
                  "force on every body that an elastic no-tension contact network (hooke: f = k "
                  "c, hertz: f = k c^{3/2}) carries, written beside the plain ones in the "
                  "snapshots' /contacts; velocities and positions do not change. Frictionless "
                  "contacts only: needs contact.model frictionless or friction 0 for every "
                  "material; stiffness ratios from materials[].youngs_modulus"),
              opt("compatible_steps", choice(names_of(kCompatibleStepsNames)), "snapshots", "",
                  "steps with a compatible pass: snapshots = the steps whose state a snapshot "
                  "writes (every output.snapshot_interval and the run's last step: the forces "
                  "are only output there), every_step = all steps (costs a pass per step; its "
                  "figures in run.json then cover every step)"),
              opt("compatible_tolerance", real(0.0, inf, true), "1e-8", "",
                  "the pass stops when max |B^T f - F| <= tolerance max |F| (net body forces) "
                  "and the projected gradient of its scaled problem is <= tolerance"),
              opt("compatible_max_iterations", integer(1), "60", "",
                  "outer (augmented Lagrangian) iterations of a pass; a pass that stops there "
                  "unconverged is reported in the log and run.json"),
          }),
          "", "", "contact model"),
      opt("solver",
          map({
              opt("method", choice(names_of(solver::kMethodNames)), "gauss_seidel", "",
                  "whole-step solver: gauss_seidel (block Gauss-Seidel in a rank, weighted "
                  "Jacobi between ranks, any contact.model), apgd (accelerated projected "
                  "gradient on the cone complementarity problem: needs contact.model ccp; "
                  "max_sweeps then counts iterations and tolerance bounds the CCP error) or "
                  "lemke (Stewart-Trinkle's LCP (29) of the whole step solved exactly by "
                  "Lemke's method: needs contact.model polyhedral, one rank, no periodic axis, "
                  "at most solver.lemke.max_contacts contacts; max_sweeps and tolerance are "
                  "not used; docs/solvers.md)"),
              opt("max_sweeps", integer(1), "100", "", "maximum relaxation sweeps per step"),
              opt("tolerance", real(0.0, inf, true), "1e-4", "",
                  "stop when the convergence measure (solver.convergence) is below this"),
              opt("convergence", choice(names_of(solver::kConvergenceNames)), "fc3d", "",
                  "what solver.tolerance bounds: fc3d = Siconos' normalised error of the step's "
                  "contact problem (feasibility and complementarity, the FCLIB measure); "
                  "impulse_change = the largest relative impulse change of a sweep (cheaper, "
                  "but small also when the relaxation is merely slow)"),
              opt("ordering", choice(names_of(solver::kOrderingNames)), "detection", "",
                  "order of the contacts in a sweep: detection; symmetric (forwards, then "
                  "backwards, alternating); gravity (by height along -g, lowest first); random "
                  "(shuffled each step from run.seed and the step number)"),
              opt("warm_start", real(0.0, 1.0), "1", "",
                  "fraction of the previous step's impulse of the same contact (same two "
                  "bodies) that starts the relaxation, rotated into the new contact frame and "
                  "projected onto the friction cone; 0 starts from zero impulses (default 1: "
                  "on a resting pile it cuts the sweeps to fc3d 1e-4 from 145-301 to 1-3, "
                  "docs/accuracy.md)"),
              opt("relaxation_weight", real(0.0, 1.0, true, false), "1", "",
                  "omega: under-relaxation of impulse updates of contacts with a body owned by "
                  "another rank (weighted Jacobi between ranks); lower it if the residual "
                  "oscillates on many ranks"),
              opt("check_every", integer(0), "0", "sweeps",
                  "sweeps between global convergence tests (each costs one allreduce; with "
                  "fc3d also a pass over the contacts, as costly as a sweep); 0: at the "
                  "sweep where the measure's decay between the last two tests (for a "
                  "step's second test, the previous step's decay) reaches the tolerance, or "
                  "at the last sweep if it does not reach it before (docs/accuracy.md), for "
                  "fc3d and for impulse_change on several ranks; impulse_change on one rank "
                  "every sweep (a test there costs nothing)"),
              opt("exchange", choice(names_of(kExchangeNames)), "auto", "",
                  "across ranks, when a Gauss-Seidel sweep exchanges the corrections of bodies "
                  "shared with other ranks: overlapped (the contacts touching such bodies "
                  "first, then the others while the messages travel), after_sweep (the "
                  "whole sweep, then the exchange), or auto: overlapped when the ranks span "
                  "more than one node, after_sweep on one node (the log says which); the same "
                  "Jacobi coupling in another sweep order, identical on one rank "
                  "(docs/solvers.md)"),
              opt("lemke",
                  map({
                      opt("max_contacts", integer(1), "200", "",
                          "solver.method lemke: the most contacts a step may have (the dense "
                          "LCP has friction_directions + 2 unknowns per contact); a step with "
                          "more stops the run (exit 1)"),
                  }),
                  "", "", "Lemke's method (solver.method: lemke)"),
          }),
          "", "", "multi-contact relaxation"),
      req("materials",
          list(map({
                   req("name", text(), "", "name referenced by bodies and particles"),
                   req("density", real(0.0, inf, true), "kg/m^3", "mass density"),
                   opt("friction", real(0.0), "0.4", "", "Coulomb friction coefficient mu"),
                   opt("rolling_friction", real(0.0), "0", "",
                       "rolling resistance mu_r: the rolling torque impulse is bounded by "
                       "mu_r R* lambda_n, R* the contact's effective radius (docs/solvers.md); "
                       "a contact uses the smaller of its two bodies'"),
                   opt("spinning_friction", real(0.0), "0", "",
                       "spinning resistance mu_s: the torque impulse about the normal is "
                       "bounded by mu_s R* lambda_n; a contact uses the smaller of its two "
                       "bodies'"),
                   opt("youngs_modulus", real(0.0, inf, true), kAbsent, "Pa",
                       "Young's modulus, for the relative contact stiffness of "
                       "contact.compatible (only ratios matter); absent on every material: "
                       "all equal; with contact.compatible on, given on one material it is "
                       "required on all"),
               }),
               1),
          "", "materials; a contact uses the smaller friction coefficient of its two bodies"),
      opt("bodies", list(global_body()), "", "",
          "global bodies (infinite mass) known to every process"),
      opt("shapes", list(shape_entry()), "", "",
          "shapes of non-spherical particles, referenced by name (docs/shapes.md)"),
      opt("particles", list(particle_source()), "", "", "initial particles"),
      opt("inflow",
          map({
              req("piston", integer(0), "",
                  "index (from 0) in `bodies` of the kinematic plane that pushes particles in"),
              req("layer_every", real(0.0, inf, true), "m",
                  "piston travel after which the piston moves back by this distance and a new "
                  "layer is generated (the paper's run: 1 mm, see configs/channel_paper.yaml)"),
              req("layer", map(lattice_fields()), "",
                  "the lattice of each new layer (in the region the piston has just freed)"),
          }),
          kAbsent, "", "particle inflow by a resetting piston (§4.3)"),
      opt("statistics",
          map({
              opt("interval", real(0.0, inf, true), "0.01", "s",
                  "simulated time between samples written to statistics.csv (more than 2^53 steps "
                  "of run.dt is refused)"),
              opt("region_min", vec3(), "", "m",
                  "lower corner of the region sampled for the solid fraction (default: "
                  "domain.min)"),
              opt("region_max", vec3(), "", "m",
                  "upper corner of that region (default: domain.max)"),
              opt("column_width", real(0.0, inf, true), "", "m",
                  "width of the x-y columns in which the bed height is measured "
                  "(default: 4 x the largest particle diameter)"),
              opt("average_from", real(0.0), "0", "s",
                  "the summary averages the samples from this time on (the steady part of the run; "
                  "the paper averages over its whole 10 s)"),
          }),
          kAbsent, "", "flow statistics (Table 2 of the paper); absent: off"),
      opt("measurements",
          map({
              opt("body_forces",
                  map({
                      req("interval", real(0.0, inf, true), "s",
                          "simulated time each row averages over (the contact impulses on the "
                          "body summed over the interval, divided by it)"),
                      opt("torque_point", vec3(), "[0, 0, 0]", "m", "torques are about this point"),
                  }),
                  kAbsent, "",
                  "mean force and torque of the particles on every global body (wall loads, "
                  "an obstacle's drag) in body_forces.csv; absent: off"),
              opt("mass_flow",
                  map({
                      req("interval", real(0.0, inf, true), "s",
                          "simulated time each row counts over"),
                      req("planes",
                          list(map({
                                   req("point", vec3(), "m", "a point on the plane"),
                                   req("normal", vec3(), "",
                                       "direction counted as positive; normalised on input"),
                               }),
                               1),
                          "", "planes (unbounded) whose crossings by particle centres are counted"),
                  }),
                  kAbsent, "",
                  "net particle count and mass through planes (discharge rate) in "
                  "mass_flow.csv; absent: off"),
              opt("grid",
                  map({
                      req("interval", real(0.0, inf, true), "s", "simulated time between samples"),
                      req("min", vec3(), "m", "lower corner of the gridded box"),
                      req("max", vec3(), "m", "upper corner (> min on every axis)"),
                      req("cells", int3(1, 1000), "",
                          "cells per axis (at most 10^6 in all; a cell should be several "
                          "particle diameters wide, see docs/measurements.md)"),
                  }),
                  kAbsent, "",
                  "solid fraction, mean velocity, granular temperature, coordination "
                  "number and the elongated grains' order per cell in grid.csv; absent: off"),
              opt("orientation",
                  map({
                      req("interval", real(0.0, inf, true), "s", "simulated time between samples"),
                  }),
                  kAbsent, "",
                  "the order tensor of the elongated grains (nematic order S, director) in "
                  "orientation.csv; absent: off"),
          }),
          kAbsent, "", "end-of-step measurements, each with its own interval and CSV file"),
      opt("output",
          map({
              opt("directory", text(), "output", "",
                  "where run output goes (overridden by --output)"),
              opt("thermo_file", boolean(), "true", "",
                  "also write the thermo table to thermo.csv"),
              opt("snapshot_interval", real(0.0), "0", "s",
                  "simulated time between HDF5 snapshots (OUTPUT/snapshot_<step>.h5 + .xdmf, "
                  "series.xdmf); 0 writes only the final state; more than 2^53 steps of run.dt "
                  "is refused (use 0)"),
              opt("snapshot_initial", boolean(), "true", "",
                  "also write a snapshot of the initial state (t = 0) before the first step "
                  "(not on a restart)"),
              opt("compression", integer(0, 9), "0", "",
                  "gzip level of the snapshot datasets (0: off)"),
              opt("contacts", boolean(), "false", "",
                  "also write the last step's contacts into every snapshot (/contacts: body ids, "
                  "witness points, normal, impulse, force, gap; "
                  "OUTPUT/snapshot_<step>_contacts.xdmf "
                  "for ParaView; see docs/output.md)"),
              opt("export_fclib_steps", list(wide_integer(1)), "[]", "",
                  "steps whose contact problem is written as an FCLIB local problem "
                  "(OUTPUT/contact_problem_<step>.hdf5; single-rank runs only)"),
              opt("checkpoint_interval", real(0.0), "0", "s",
                  "simulated time between checkpoints (OUTPUT/checkpoint.h5, replaced atomically); "
                  "0: only at the end and on SIGTERM/SIGUSR1; more than 2^53 steps of run.dt is "
                  "refused (use 0)"),
          }),
          "", "", "output"),
  });
}

}  // namespace

const Schema& scenario_schema() {
  static const SchemaPtr schema = build();
  return *schema;
}

}  // namespace granite::config
