// The outflow fix: particles whose centre has left the domain on a non-periodic axis are
// deleted; through an outflow face they count as outflow, through any other face as lost
// (they went through a wall), which domain.on_lost turns into a stop, a logged warning or a
// count. It also counts the particle-steps in which a particle moved farther than its radius
// (x' = x + dt v', so the move is dt |v'|): the time step is too long for that speed, and
// contacts can be missed; the first is logged once per run.
#include "fix_factories.hpp"

#include "granite/comm/collectives.hpp"
#include "granite/core/error.hpp"
#include "granite/core/log.hpp"

#include <cstdio>

namespace granite::scenario::detail {
namespace {

// Steps with losses that domain.on_lost: warn logs; later ones are only counted.
constexpr std::uint64_t kLoggedLossSteps = 10;

std::string particle(const body::Particles& p, std::size_t i) {
  char text[160];
  std::snprintf(text, sizeof text, "particle %lld at (%.6g, %.6g, %.6g)",
                static_cast<long long>(p.id[i]), p.position[i][0], p.position[i][1],
                p.position[i][2]);
  return text;
}

class OutflowFix final : public Fix {
public:
  OutflowFix(const Domain& domain, config::LostPolicy on_lost) :
      domain_(domain), on_lost_(on_lost) {}

  const char* name() const override { return "outflow"; }
  // The balance weighs the step's contacts and the measurements see its particles; deletions
  // clear the one and change the other.
  std::vector<std::string> runs_after() const override {
    return {"balance", "body_forces", "mass_flow", "grid"};
  }
  std::string description() const override {
    std::string open;
    for (int f = 0; f < 6; ++f)
      if (domain_.outflow[f] && !domain_.periodic[f / 2])
        open += std::string(open.empty() ? "" : " ") + std::string(name_of(config::kFaceNames, f));
    return "particles leaving the domain are deleted; outflow faces: " +
           (open.empty() ? std::string("none") : open) + " (others: lost, on_lost " +
           std::string(name_of(config::kLostPolicyNames, on_lost_)) + ")";
  }
  Phase phase() const override { return Phase::other; }

  void end_of_step(RunContext& run, const timestep::StepStatistics&, const StepEnd&) override {
    const std::int64_t step = run.sim.steps();
    const double dt = run.sim.parameters().dt;
    std::string first_fast, first_lost;
    std::uint64_t fast = 0, lost = 0;
    // Between steps every particle of this rank is owned (the ghosts are dropped).
    const body::Particles& particles = run.sim.particles();
    for (std::size_t i = 0; i < particles.size(); ++i) {
      const double move = dt * particles.velocity[i].norm();
      if (move <= particles.radius[i]) continue;
      if (fast++ == 0) {
        char text[96];
        std::snprintf(text, sizeof text, " moved %.6g m, farther than its radius %.6g m,", move,
                      particles.radius[i]);
        first_fast = particle(particles, i) + text;
      }
    }
    run.sim.remove_particles([&](const body::Particles& p, std::size_t i) {
      const int face = domain_.exit_face(p.position[i]);
      if (face < 0) return false;
      if (domain_.outflow[face]) {
        ++run.counters.deleted;
      } else if (lost++ == 0) {
        first_lost = particle(p, i) + " left the domain through the " +
                     std::string(name_of(config::kFaceNames, face)) + " face";
      }
      return true;
    });
    run.counters.lost += lost;
    run.counters.moved_beyond_radius += fast;

    std::vector<std::uint64_t> counts{lost, fast};
    comm::sum_in_place(counts, run.comm);
    if (counts[1] > 0 && !warned_fast_) {
      warned_fast_ = true;
      log::info("warning: step " + std::to_string(step) + ": " +
                comm::first_failure(first_fast, run.comm) + " in one step (" +
                std::to_string(counts[1]) +
                " particles did): the time step is too long for that speed (warned once; "
                "run.json counts them in particles.moved_beyond_radius)");
    }
    if (counts[0] > 0 && on_lost_ != config::LostPolicy::ignore)
      report_lost(run, step, counts[0], first_lost);
  }

private:
  void report_lost(const RunContext& run, std::int64_t step, std::uint64_t lost,
                   const std::string& first_lost) {
    const std::string what = "step " + std::to_string(step) + ": " +
                             comm::first_failure(first_lost, run.comm) +
                             ", which is not an outflow face (domain.outflow)";
    if (on_lost_ == config::LostPolicy::error)
      throw InputError(what + "; " + std::to_string(lost) +
                       " particle(s) lost in this step (check the time step, contact threshold "
                       "and error reduction; domain.on_lost: warn or ignore lets the run go on)");
    ++loss_steps_;
    if (loss_steps_ > kLoggedLossSteps) return;
    log::info("warning: " + what + "; " + std::to_string(lost) + " particle(s) lost in this step" +
              (loss_steps_ == kLoggedLossSteps ? " (later losses are counted, not logged)" : ""));
  }

  Domain domain_;
  config::LostPolicy on_lost_;
  bool warned_fast_ = false;
  std::uint64_t loss_steps_ = 0;
};

}  // namespace

std::unique_ptr<Fix> make_outflow(const Domain& domain, config::LostPolicy on_lost) {
  return std::make_unique<OutflowFix>(domain, on_lost);
}

}  // namespace granite::scenario::detail
