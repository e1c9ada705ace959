#pragma once
// Typed settings of a scenario: the validated configuration (docs/config.md) read once into
// plain structs, one per section of the schema (config/scenario_schema.cpp), so that the scenario
// code reads members instead of looking keys up by string. Every value comes from the resolved
// YAML (defaults filled in by the schema); the structs restate no default (their members are
// zero until settings_of fills them). Material names are
// resolved to indices into `materials` here, once.
#include "granite/body/global_body.hpp"
#include "granite/body/prescribed_motion.hpp"
#include "granite/body/shape.hpp"
#include "granite/contact/single_contact.hpp"
#include "granite/core/names.hpp"
#include "granite/core/types.hpp"
#include "granite/solver/compatible_forces.hpp"
#include "granite/solver/relaxation.hpp"

#include <yaml-cpp/yaml.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace granite::config {

struct RunSettings {
  double dt = 0.0;        // s
  double end_time = 0.0;  // s
  int thermo_every = 0;   // steps
  std::uint64_t seed = 0;
};

/// What a run does with a lost particle (one that left through a non-periodic face that is
/// not an outflow face): stop, log and continue, or only count it.
enum class LostPolicy { error, warn, ignore };
inline constexpr std::array<Named<LostPolicy>, 3> kLostPolicyNames{{
    {LostPolicy::error, "error"},
    {LostPolicy::warn, "warn"},
    {LostPolicy::ignore, "ignore"},
}};

/// domain.balance: the decomposition's cuts equal (none), moved once before the first step to
/// balance the particles (static), or also during the run (dynamic); parallel/balance.hpp.
/// automatic ("auto", the default) is resolved by settings_of (automatic_balance) and never
/// reaches the run.
enum class BalanceMode { none, static_cuts, dynamic, automatic };
inline constexpr std::array<Named<BalanceMode>, 4> kBalanceModeNames{{
    {BalanceMode::none, "none"},
    {BalanceMode::static_cuts, "static"},
    {BalanceMode::dynamic, "dynamic"},
    {BalanceMode::automatic, "auto"},
}};
/// domain.balance auto keeps equal cuts beyond this many mesh-wall triangles: a mesh wall is
/// split among the ranks only under equal cuts (scenario/local_meshes.hpp); with moving cuts
/// every rank keeps the whole mesh, about 470 B per triangle.
inline constexpr std::size_t kAutoBalanceMeshTriangles = 100000;

/// domain.outflow's face names: face 2·axis is the lower, 2·axis + 1 the upper.
inline constexpr std::array<Named<int>, 6> kFaceNames{{
    {0, "x-"},
    {1, "x+"},
    {2, "y-"},
    {3, "y+"},
    {4, "z-"},
    {5, "z+"},
}};

/// Two-valued choices read into a flag: contact.locality_sort, contact.compatible_steps and a
/// size distribution's `by`.
inline constexpr std::array<Named<bool>, 2> kLocalitySortNames{{{true, "morton"}, {false, "none"}}};
inline constexpr std::array<Named<bool>, 2> kCompatibleStepsNames{{
    {false, "snapshots"},
    {true, "every_step"},
}};
/// solver.exchange: where a sweep's correction exchange goes (docs/solvers.md).
enum class ExchangeMode { automatic, overlapped, after_sweep };
inline constexpr std::array<Named<ExchangeMode>, 3> kExchangeNames{{
    {ExchangeMode::automatic, "auto"},
    {ExchangeMode::overlapped, "overlapped"},
    {ExchangeMode::after_sweep, "after_sweep"},
}};
/// Whether the sweep overlaps its exchange. `auto`: only when the ranks span more than one
/// node, where a message spends microseconds in the network for the interior contacts to
/// hide; on one node it arrives in under one, and the boundary-first order costs the sweep
/// 5-10 % (docs/solvers.md).
constexpr bool overlaps_exchange(ExchangeMode mode, bool one_node) {
  return mode == ExchangeMode::overlapped || (mode == ExchangeMode::automatic && !one_node);
}
inline constexpr std::array<Named<bool>, 2> kSizeByMassNames{{{false, "number"}, {true, "mass"}}};

struct DomainSettings {
  Vec3 min = Vec3::Zero(), max = Vec3::Zero();
  std::array<bool, 3> periodic{};
  std::array<bool, 6> outflow{};       // face 2·axis (lower) and 2·axis + 1 (upper)
  std::array<int, 3> decomposition{};  // subdomains per axis; 0: chosen by Granite
  LostPolicy on_lost{};
  BalanceMode balance{};
  bool balance_auto = false;         // balance was chosen by domain.balance auto
  int balance_every = 0;             // steps between load measurements (dynamic)
  bool balance_adaptive = true;      // the next measurement from the load's drift (dynamic)
  double imbalance_threshold = 0.0;  // rebalance when max/mean load exceeds it (dynamic)
};

struct ContactSettings {
  contact::ModelSettings model;  // model and golden_iterations
  double threshold = 0.0;        // m
  double skin = 0.0;             // m: neighbour-list skin (0: full search every step; < 0:
                                 // automatic, scenario::neighbour_skin)
  int rebuild_every = 0;         // steps; 0: rebuilt only when needed
  bool locality_sort = false;    // contact.locality_sort: morton (true) or none
  double error_reduction = 0.0;
  double max_initial_overlap = 0.0;              // fraction of the smaller radius of a pair
  std::optional<solver::ContactLaw> compatible;  // contact.compatible; none: off
  bool compatible_every_step = false;            // contact.compatible_steps: every_step
  double compatible_tolerance = 0.0;
  int compatible_max_iterations = 0;  // outer iterations
};

struct SolverSettings {
  int max_sweeps = 0;
  double tolerance = 0.0;
  double relaxation_weight = 0.0;
  int check_every = 0;                              // sweeps
  ExchangeMode exchange = ExchangeMode::automatic;  // solver.exchange
  solver::Convergence convergence{};
  solver::Ordering ordering{};
  double warm_start = 0.0;  // in [0, 1]
  solver::Method method{};
  int lemke_max_contacts = 0;  // solver.lemke.max_contacts
};

struct MaterialSettings {
  std::string name;
  double density = 0.0;  // kg/m^3
  double friction = 0.0;
  std::optional<double> youngs_modulus;  // Pa; absent: see build_simulation
  double rolling_friction = 0.0;         // μ_r
  double spinning_friction = 0.0;        // μ_s
};

/// One entry of a discrete mixture: a radius, its material and its fraction (by number or by
/// mass, as the mixture says; the fractions of a mixture sum to 1 after normalisation).
struct SizeComponent {
  double radius = 0.0;               // m (a shape's: its bounding radius)
  body::MaterialIndex material = 0;  // index in Settings::materials
  double fraction = 0.0;
  body::ShapeIndex shape = body::kSphere;  // a shaped component (issue 39's mixtures)
  double shape_volume = 0.0;               // m³, of `shape`
};

/// The radii (and, for a mixture, materials) a generator draws, one particle at a time
/// (docs/particle_sources.md; drawn by scenario/size_distribution.hpp).
struct SizeSettings {
  enum class Kind { fixed, uniform, normal, lognormal, mixture };
  Kind kind = Kind::fixed;
  double radius = 0.0;               // m, fixed
  double min = 0.0, max = 0.0;       // m: uniform's range, normal's and lognormal's truncation
  double mean = 0.0, std = 0.0;      // m: normal's (before truncation)
  double median = 0.0, sigma = 0.0;  // lognormal: exp(mu) in m and the deviation of ln r
  bool by_mass = false;  // the distribution is of mass, not of number (the fraction of mass)
  std::vector<SizeComponent> components;  // mixture
  // `shape`: every particle has this shape (kind fixed, radius its bounding radius), turned
  // uniformly at random (stream of its id) or not at all.
  body::ShapeIndex shape = body::kSphere;
  double shape_volume = 0.0;  // m³, of `shape`
  bool random_orientation = false;
  Vec3 orientation_axis = Vec3::Zero();  // unit; zero: uniform over all rotations
  /// The largest radius it can draw (the truncation for normal and lognormal).
  double largest() const;
  /// Whether it draws shaped particles (`shape`, or a mixture's shaped component).
  bool has_shapes() const;
};

/// A monodisperse size of radius r.
inline SizeSettings fixed_size(double r) {
  SizeSettings s;
  s.radius = r;
  return s;
}

/// Spheres on a lattice filling [min, max] (a `particles` entry or the inflow layer).
struct LatticeSettings {
  Vec3 min = Vec3::Zero(), max = Vec3::Zero();
  double spacing = 0.0;              // m
  SizeSettings size;                 // `radius` or `size`
  body::MaterialIndex material = 0;  // index in Settings::materials
  Vec3 velocity = Vec3::Zero(), perturbation = Vec3::Zero();
  int group = 0;       // tag of the particles of this source
  bool fixed = false;  // particles.fixed (never in the inflow layer)
};

struct SphereSettings {
  Vec3 position = Vec3::Zero();
  double radius = 0.0;
  body::MaterialIndex material = 0;  // index in Settings::materials
  Vec3 velocity = Vec3::Zero(), angular_velocity = Vec3::Zero();
  double mass = 0.0;  // kg; 0: from the material's density
  int group = 0;      // tag of the particle
  bool fixed = false;
};

/// One particle of a shape (`type: body`).
struct BodySettings {
  body::ShapeIndex shape = 0;  // index in Settings::shapes
  Vec3 position = Vec3::Zero();
  Quat orientation = Quat::Identity();
  body::MaterialIndex material = 0;  // index in Settings::materials
  Vec3 velocity = Vec3::Zero(), angular_velocity = Vec3::Zero();
  int group = 0;
  bool fixed = false;
};

/// Where a random fill or a pour puts centres: an axis-aligned box or a capped cylinder.
struct RegionSettings {
  bool cylinder = false;
  Vec3 min = Vec3::Zero(), max = Vec3::Zero();       // box
  Vec3 center = Vec3::Zero(), axis = Vec3::UnitZ();  // cylinder (axis unit)
  double radius = 0.0, half_length = 0.0;
  double volume() const;
};

/// Random sequential addition of non-overlapping spheres in a region (`type: random`).
struct RandomFillSettings {
  RegionSettings region;
  std::uint64_t count = 0;      // target count; 0: solid_fraction decides
  double solid_fraction = 0.0;  // target sum of sphere volumes / region volume
  SizeSettings size;
  body::MaterialIndex material = 0;
  Vec3 velocity = Vec3::Zero(), perturbation = Vec3::Zero();
  int attempts = 0;  // placements tried per sphere before the fill stops
  int group = 0;
};

/// Particles poured in at a rate over a time window (`type: pour`; the pour fix inserts them).
struct PourSettings {
  RegionSettings region;
  double rate = 0.0;              // particles/s; 0: mass_rate decides
  double mass_rate = 0.0;         // kg/s
  double start = 0.0, end = 0.0;  // s: the window [start, end]
  SizeSettings size;
  body::MaterialIndex material = 0;
  Vec3 velocity = Vec3::Zero(), perturbation = Vec3::Zero();
  int attempts = 0;  // placements tried per particle and step
  int group = 0;
};

/// Particles read from a CSV table or a Granite snapshot (`type: file`, io/particle_file.hpp).
struct FileSettings {
  std::string path;
  body::MaterialIndex material = 0;  // rows without a material
  int group = 0;                     // rows without a group
  /// What scenario::measure_particle_files found, reading the file in shares before the
  /// decomposition is chosen: its rows and their largest radius (a shaped row's: its shape's
  /// bounding radius). Not a key: a run's state, not the configuration's.
  struct Measured {
    std::int64_t rows = 0;
    double largest_radius = 0.0;
  };
  std::optional<Measured> measured;
};

using ParticleSource = std::variant<LatticeSettings, SphereSettings, RandomFillSettings,
                                    PourSettings, FileSettings, BodySettings>;

struct InflowSettings {
  std::size_t piston = 0;    // index in Settings::bodies
  double layer_every = 0.0;  // m of piston travel per layer
  LatticeSettings layer;     // at the piston's reset position
};

/// At most this many x-y columns in which the bed height is measured (statistics.column_width
/// is refused beyond it).
inline constexpr std::size_t kMaxStatisticsColumns = std::size_t(1) << 20;

struct StatisticsSettings {
  double interval = 0.0;                       // s
  std::optional<Vec3> region_min, region_max;  // absent: the domain's corners
  std::optional<double> column_width;          // absent: decided from the particles
  double average_from = 0.0;                   // s
};

/// measurements.body_forces: the mean force and torque on every global body over each interval.
struct BodyForceSettings {
  double interval = 0.0;             // s
  Vec3 torque_point = Vec3::Zero();  // m: torques are about this point
};

/// measurements.mass_flow: net crossings of planes over each interval.
struct FlowPlane {
  Vec3 point = Vec3::Zero();
  Vec3 normal = Vec3::UnitZ();  // unit: crossings in its direction count +1, against it -1
};
struct MassFlowSettings {
  double interval = 0.0;  // s
  std::vector<FlowPlane> planes;
};

/// measurements.grid: instantaneous averages over the cells of a box, at every interval.
struct GridSettings {
  double interval = 0.0;  // s
  Vec3 min = Vec3::Zero(), max = Vec3::Zero();
  std::array<int, 3> cells{1, 1, 1};
};

/// measurements.orientation: the order tensor of the elongated grains, at every interval.
struct OrientationSettings {
  double interval = 0.0;  // s
};

struct MeasurementSettings {
  std::optional<BodyForceSettings> body_forces;
  std::optional<MassFlowSettings> mass_flow;
  std::optional<GridSettings> grid;
  std::optional<OrientationSettings> orientation;
};

struct OutputSettings {
  std::string directory;
  bool thermo_file = false;
  double snapshot_interval = 0.0;  // s
  bool snapshot_initial = false;   // a snapshot of the state before the first step
  int compression = 0;
  bool contacts = false;  // /contacts in every snapshot
  std::vector<std::int64_t> export_fclib_steps;
  double checkpoint_interval = 0.0;  // s
};

struct Settings {
  RunSettings run;
  DomainSettings domain;
  Vec3 gravity = Vec3::Zero();
  ContactSettings contact;
  SolverSettings solver;
  std::vector<MaterialSettings> materials;
  std::vector<body::GlobalBody> bodies;         // material: index in `materials`
  std::vector<body::PrescribedMotion> motions;  // of each body (Kind::none: velocity constant)
  body::ShapeTable shapes;                      // `shapes`, in their order
  std::vector<ParticleSource> particles;
  std::optional<InflowSettings> inflow;
  std::optional<StatisticsSettings> statistics;
  MeasurementSettings measurements;
  OutputSettings output;
};

/// Reads a configuration resolved by config::resolve against the scenario schema and checked
/// by config::load_scenario (every material name refers to an entry of `materials`).
Settings settings_of(const YAML::Node& resolved);

/// What domain.balance auto means for these global bodies: dynamic, unless their mesh walls
/// hold more than kAutoBalanceMeshTriangles triangles in all (then none, so that each rank
/// keeps only its part of them). On one rank either is equal cuts.
BalanceMode automatic_balance(const std::vector<body::GlobalBody>& bodies);

}  // namespace granite::config
