// The FCLIB export fix: the contact problem of chosen steps (output.export_fclib_steps) as an
// FCLIB local problem, OUTPUT/contact_problem_<step>.hdf5. The Delassus matrix W couples every
// contact, so the export needs a single-rank run.
#include "fix_factories.hpp"

#include "granite/core/error.hpp"
#include "granite/io/fclib/fclib.hpp"
#include "granite/solver/contact_problem_export.hpp"

namespace granite::scenario::detail {
namespace {

class FclibExportFix final : public Fix {
public:
  explicit FclibExportFix(std::set<std::int64_t> steps) : steps_(std::move(steps)) {}

  const char* name() const override { return "fclib_export"; }
  std::string description() const override {
    return "contact problems of " + std::to_string(steps_.size()) +
           " chosen steps as FCLIB files (contact_problem_<step>.hdf5)";
  }

  // The problem is taken between contact setup and relaxation, so the fix observes the step
  // instead of acting after it.
  void start(RunContext& run) override {
    timestep::Simulation& sim = run.sim;
    const std::string dir = run.output_dir;
    sim.set_contact_problem_observer(
        [this, &sim, dir](const std::vector<solver::SolverContact>& contacts,
                          const std::vector<solver::BodyState>& states) {
          const std::int64_t step = sim.steps() + 1;  // the step being computed
          if (!steps_.count(step)) return;
          io::FclibMatrix W;
          Eigen::VectorXd q, mu;
          solver::export_contact_problem(contacts, states, W, q, mu);
          io::write_fclib_local(
              (std::filesystem::path(dir) / ("contact_problem_" + std::to_string(step) + ".hdf5"))
                  .string(),
              W, q, mu);
        });
  }

  void end_of_step(RunContext&, const timestep::StepStatistics&, const StepEnd&) override {}

private:
  std::set<std::int64_t> steps_;
};

}  // namespace

std::unique_ptr<Fix> make_fclib_export(std::set<std::int64_t> steps, const RunContext& run) {
  if (run.comm.size() > 1)
    throw InputError("output.export_fclib_steps: the FCLIB export needs a single-rank run");
  return std::make_unique<FclibExportFix>(std::move(steps));
}

}  // namespace granite::scenario::detail
