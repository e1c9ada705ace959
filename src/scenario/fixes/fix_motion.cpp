// The motion fix: global bodies with a prescribed motion or an active window
// (body/prescribed_motion.hpp). Before each step, starting at t: a moving body is placed
// exactly at its configured pose moved by d(t) and turned by R(t) (the integrator moved it by
// one step of its velocities, equal up to rounding), and gets the mean velocity of the coming
// step, v = (d(t + Δt) − d(t)) / Δt, its angular velocity ω and rotation centre c + d(t), which
// the contacts use (wall velocity v + ω × (x − c)) and the integrator moves it by; a body with
// a window takes part in the step's contacts iff active_from <= t < active_until. Everything
// follows from the clock, so a restart needs no state of it.
#include "fix_factories.hpp"

namespace granite::scenario::detail {
namespace {

class MotionFix final : public Fix {
public:
  MotionFix(const body::GlobalBodies& configured,
            const std::vector<body::PrescribedMotion>& motions, double dt) :
      dt_(dt) {
    for (std::size_t k = 0; k < motions.size(); ++k)
      if (motions[k].moves() || motions[k].has_window())
        bodies_.push_back({k, configured[k].parts, motions[k]});
  }

  const char* name() const override { return "motion"; }
  std::string description() const override {
    return std::to_string(bodies_.size()) +
           " global bodies with prescribed motion or an active window";
  }

  void start(RunContext& run) override { prepare(run, run.sim.time()); }
  void end_of_step(RunContext& run, const timestep::StepStatistics& stats,
                   const StepEnd&) override {
    prepare(run, stats.time);
  }

private:
  struct Moving {
    std::size_t index;                   // in the global bodies
    std::vector<body::Primitive> parts;  // as configured
    body::PrescribedMotion motion;
  };

  // The bodies as the step starting at t needs them.
  void prepare(RunContext& run, double t) {
    body::GlobalBodies& globals = run.sim.globals();
    for (const Moving& b : bodies_) {
      body::GlobalBody& body = globals[b.index];
      body.active = b.motion.active_at(t);
      if (!b.motion.moves()) continue;
      const Vec3 now = b.motion.displacement(t);
      b.motion.place(b.parts, t, body.parts);
      body.velocity = (b.motion.displacement(t + dt_) - now) / dt_;
      body.angular_velocity = b.motion.angular_velocity;
      body.rotation_center = b.motion.center + now;
    }
  }

  double dt_;
  std::vector<Moving> bodies_;
};

}  // namespace

std::unique_ptr<Fix> make_motion(const body::GlobalBodies& configured,
                                 const std::vector<body::PrescribedMotion>& motions, double dt) {
  return std::make_unique<MotionFix>(configured, motions, dt);
}

}  // namespace granite::scenario::detail
