// The outflow fix: particles whose centre has left the domain on a non-periodic axis are
// deleted; through an outflow face they count as outflow, through any other face as escaped
// (they went through a wall; the run warns at its end).
#include "fix_factories.hpp"

namespace granite::scenario::detail {
namespace {

class OutflowFix final : public Fix {
public:
  explicit OutflowFix(const Domain& domain) : domain_(domain) {}

  const char* name() const override { return "outflow"; }
  std::string description() const override {
    static const char* const faces[6] = {"x-", "x+", "y-", "y+", "z-", "z+"};
    std::string open;
    for (int f = 0; f < 6; ++f)
      if (domain_.outflow[f] && !domain_.periodic[f / 2])
        open += std::string(open.empty() ? "" : " ") + faces[f];
    return "particles leaving the domain are deleted; outflow faces: " +
           (open.empty() ? std::string("none") : open) + " (others count as escaped)";
  }
  Phase phase() const override { return Phase::other; }

  void end_of_step(RunContext& run, const timestep::StepStatistics&, const StepEnd&) override {
    run.sim.remove_particles([&](const body::Particles& p, std::size_t i) {
      const int face = domain_.exit_face(p.position[i]);
      if (face < 0) return false;
      ++(domain_.outflow[face] ? run.counters.deleted : run.counters.escaped);
      return true;
    });
  }

private:
  Domain domain_;
};

}  // namespace

std::unique_ptr<Fix> make_outflow(const Domain& domain) {
  return std::make_unique<OutflowFix>(domain);
}

}  // namespace granite::scenario::detail
