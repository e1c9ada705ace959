// The pour fix (scenario/pour.hpp): after each step within the pour's window, every rank
// gathers the particles near the region (each rank's owned ones: the ghosts are gone between
// steps), runs the same insertion and creates the new particles it owns. At the end a
// shortfall (fewer inserted than the rate asked for) is one warning line and run.json
// "particle_sources"; it does not stop the run.
#include "fix_factories.hpp"

#include "granite/comm/collectives.hpp"
#include "granite/core/log.hpp"
#include "granite/scenario/sources/pour.hpp"
#include "granite/scenario/sources/random_fill.hpp"
#include "granite/scenario/sources/source_particle.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <optional>
#include <cstring>

namespace granite::scenario::detail {
namespace {

// Every rank's particles that could touch a sphere of radius `reach` in the region, on every
// rank: centre, bounding radius, shape and orientation.
std::vector<Sphere> gather_near(const RunContext& run, const config::RegionSettings& region,
                                double reach) {
  const body::Particles& p = run.sim.particles();
  std::vector<Sphere> mine;
  for (std::size_t i = 0; i < p.size(); ++i)
    mine.push_back(
        {p.position[i], p.radius[i], p.material[i], p.id[i], p.shape[i], p.orientation[i]});
  constexpr std::size_t kRow = 9;
  std::string bytes;
  for (const Sphere* s : spheres_near(region, reach, mine)) {
    const Quat& q = s->orientation;
    const double row[kRow] = {s->centre[0], s->centre[1], s->centre[2], s->radius, double(s->shape),
                              q.w(),        q.x(),        q.y(),        q.z()};
    bytes.append(reinterpret_cast<const char*>(row), sizeof row);
  }
  std::vector<Sphere> all;
  for (const std::string& part : comm::all_gather_text(bytes, run.comm))
    for (std::size_t k = 0; k + kRow * sizeof(double) <= part.size(); k += kRow * sizeof(double)) {
      double row[kRow];
      std::memcpy(row, part.data() + k, sizeof row);
      all.push_back({Vec3(row[0], row[1], row[2]), row[3], 0, -1, body::ShapeIndex(row[4]),
                     Quat(row[5], row[6], row[7], row[8])});
    }
  return all;
}

class PourFix final : public Fix {
public:
  PourFix(const config::PourSettings& settings, std::size_t source, BodyId first_id,
          std::uint64_t seed, double dt) :
      pour_(settings, first_id, seed),
      source_(source), seed_(seed), dt_(dt), name_("pour_" + std::to_string(source)) {}

  const char* name() const override { return name_.c_str(); }
  // The measurements see the step's particles, not the poured ones.
  std::vector<std::string> runs_after() const override {
    return {"body_forces", "mass_flow", "grid"};
  }
  std::string description() const override {
    const config::PourSettings& s = pour_.settings();
    char text[160];
    if (s.rate > 0.0)
      std::snprintf(text, sizeof text, "%.6g particles/s", s.rate);
    else
      std::snprintf(text, sizeof text, "%.6g kg/s", s.mass_rate);
    char window[96];
    std::snprintf(window, sizeof window, " from t = %.6g s to %.6g s", s.start, s.end);
    return "pour particles[" + std::to_string(source_) + "]: " + text + window;
  }
  Phase phase() const override { return Phase::other; }

  void start(RunContext& run) override { time_ = run.sim.time(); }

  void end_of_step(RunContext& run, const timestep::StepStatistics&, const StepEnd&) override {
    const double t = time_ = run.sim.time();
    if (t - dt_ > pour_.settings().end || !pour_.due(t)) return;  // the same on every rank
    const SizeSampler sizes(pour_.settings().size, pour_.settings().material, run.sim.materials());
    const std::vector<Sphere> existing = gather_near(run, pour_.settings().region, sizes.largest());
    // With shapes, by their true geometry (shape_overlap.hpp).
    if (!overlap_ && !run.sim.shapes().empty())
      overlap_.emplace(run.sim.shapes(), run.sim.materials());
    const std::vector<Sphere> placed =
        pour_.insert(t, run.sim.steps(), run.sim.materials(), run.sim.globals(), existing,
                     overlap_ ? &*overlap_ : nullptr);
    for (const Sphere& s : placed)
      if (run.owns(s.centre))
        add_source_particle(run.sim, pour_.settings().size, seed_, s, pour_.velocity(s.id),
                            pour_.settings().group);
    run.counters.generated += placed.size();
  }

  void finish(RunContext&) override {
    const double requested = pour_.target(time_);
    const bool short_of = pour_.inserted_amount() < requested;
    const bool by_count = pour_.settings().rate > 0.0;
    char text[200];
    std::snprintf(text, sizeof text,
                  "%spour particles[%zu]: inserted %llu particles (%.6g kg) of %.6g %s requested",
                  short_of ? "warning: " : "", source_, (unsigned long long)pour_.inserted(),
                  pour_.inserted_mass(), requested, by_count ? "particles" : "kg");
    log::info(std::string(text) + (short_of ? " (the region had no room: lower the rate, "
                                              "enlarge the region or raise attempts)"
                                            : ""));
  }

  std::vector<RecordSection> record_sections() const override {
    const double requested = pour_.target(time_);
    return {{"particle_sources",
             {{"source", source_},
              {"type", "pour"},
              {"requested", requested},
              {"unit", pour_.settings().rate > 0.0 ? "particles" : "kg"},
              {"inserted", pour_.inserted()},
              {"inserted_mass_kg", pour_.inserted_mass()},
              {"shortfall", pour_.inserted_amount() < requested}},
             true}};
  }

  bool has_state() const override { return true; }
  std::string state() const override { return pour_.state(); }
  void restore(const std::string& text) override { pour_.restore(text); }

private:
  Pour pour_;
  std::size_t source_;
  std::uint64_t seed_;  // of the orientations
  double dt_;
  std::string name_;
  double time_ = 0.0;                    // after the last step
  std::optional<ShapeOverlap> overlap_;  // with shapes: placement by true geometry
};

}  // namespace

std::unique_ptr<Fix> make_pour(const config::PourSettings& settings, std::size_t source,
                               BodyId first_id, std::uint64_t seed, double dt) {
  return std::make_unique<PourFix>(settings, source, first_id, seed, dt);
}

}  // namespace granite::scenario::detail
