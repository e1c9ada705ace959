#include "commands.hpp"
#include "error_line.hpp"
#include "options.hpp"

#include "granite/contact/single_contact.hpp"
#include "granite/core/error.hpp"
#include "granite/solver/fc3d_error.hpp"
#include "granite/io/atomic_file.hpp"
#include "granite/io/fclib/fclib.hpp"
#include "granite/solver/matrix_relaxation.hpp"
#include "granite/solver/method.hpp"
#include "granite/solver/polyhedral_lcp.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>

namespace granite::app {

namespace {

std::string reached(int sweeps, double seconds) {
  if (sweeps < 0) return "-";
  char text[64];
  std::snprintf(text, sizeof text, "%d (%.3g ms)", sweeps, seconds * 1e3);
  return text;
}

// Lemke on the problem's polyhedral LCP (29), in the form of the other solvers' results:
// `sweeps` are the pivots, `error` the fc3d error of r (against the circular cone), and
// `converged` whether Lemke's answer passed its check. Prints Lemke's status line.
solver::MatrixRelaxationResult lemke_matrix(const io::FclibProblem& p, int directions,
                                            Eigen::VectorXd& r) {
  const solver::PolyhedralLcpResult lcp =
      solver::solve_polyhedral_lcp(p.W, p.q, p.mu, directions, r);
  solver::MatrixRelaxationResult result;
  result.sweeps = lcp.lemke.pivots;
  result.seconds = lcp.seconds;
  result.error = result.best_error = solver::fc3d_error(p.W, p.q, p.mu, r);
  result.converged = lcp.lemke.status == contact::LemkeStatus::solution;
  std::printf("# %s: Lemke, k = %d, LCP size %lld: %s after %d pivots in %.3g ms, LCP error "
              "%.2e (relative)\n",
              p.name.c_str(), directions, static_cast<long long>(lcp.size),
              std::string(contact::lemke_status_name(lcp.lemke.status)).c_str(), lcp.lemke.pivots,
              lcp.seconds * 1e3, lcp.lemke.error / std::max(lcp.lemke.scale, 1e-300));
  return result;
}

}  // namespace

int fclib_command(const Args& args) {
  const std::string models = contact::model_names(" | ");
  po::options_description options("fclib options");
  options.add_options()("action", po::value<std::string>(), "solve")(
      "files", po::value<std::vector<std::string>>()->composing(),
      "FCLIB HDF5 files")("model", po::value<std::string>()->default_value("coulomb"),
                          models.c_str())("golden-iterations", po::value<int>()->default_value(20),
                                          "golden-section iterations of mdp_golden")(
      "friction-directions", po::value<int>()->default_value(8),
      "polyhedral: even number k of directions of the friction cone (4 to 32)")(
      "tolerance", po::value<double>()->default_value(1e-8),
      "stop at this error (the model's: CCP error for ccp, fc3d otherwise)")(
      "solver", po::value<std::string>()->default_value("gs"),
      "gs (block Gauss-Seidel with --model) | apgd (accelerated projected gradient on the "
      "cone complementarity model, --model ccp) | lemke (Lemke's method on the polyhedral "
      "LCP (29) with --friction-directions, small problems)")(
      "max-contacts", po::value<int>()->default_value(200),
      "lemke: refuse problems with more contacts (the dense LCP has k + 2 unknowns each)")(
      "max-sweeps", po::value<int>()->default_value(100000),
      "sweep (gs) or iteration (apgd) limit per problem")(
      "output", po::value<std::string>(), "write one CSV row per problem to this file")(
      "reference", po::value<std::string>(),
      "directory of reference solutions <name>.h5 (datasets r, u): report ‖u − u_ref‖")(
      "solution", po::value<std::string>(),
      "directory (existing) to write each final solution to, as <name>.h5 (datasets r, u, "
      "error: the fc3d error), the form --reference reads");
  po::positional_options_description positional;
  positional.add("action", 1).add("files", -1);
  po::variables_map vm;
  if (auto exit = parse_options(
          "fclib",
          "solve FILE... [--solver gs|apgd|lemke] [--model coulomb] [--tolerance 1e-8]\n"
          "                    [--friction-directions 8] [--max-contacts 200]\n"
          "                    [--max-sweeps N]\n"
          "                    [--output results.csv] [--reference DIR] [--solution DIR]\n\n"
          "Solves FCLIB frictional contact problems (local, or global condensed to\n"
          "W = Hᵀ M⁻¹ H) by block Gauss–Seidel with a single-contact model (or by APGD on the\n"
          "cone complementarity model), from r = 0, and\n"
          "reports the sweeps and time to reach error 1e-4 and 1e-8 (Siconos fc3d error; the CCP\n"
          "error for --model ccp), and both errors of the final r. --solver lemke solves the\n"
          "problem with the polyhedral cone of k directions exactly (Stewart-Trinkle LCP (29))\n"
          "and reports Lemke's status and pivots and the fc3d error of its r against the\n"
          "circular cone (it shrinks with k but does not vanish).",
          args, options, positional, vm))
    return *exit;
  if (!vm.count("action") || vm["action"].as<std::string>() != "solve") {
    std::cerr << "granite fclib: expected the action 'solve' (see granite fclib --help)\n";
    return kInputErrorExit;
  }
  if (!vm.count("files")) {
    std::cerr << "granite fclib: missing FILE (see granite fclib --help)\n";
    return kInputErrorExit;
  }
  contact::ModelSettings settings;
  if (!contact::parse_model(vm["model"].as<std::string>(), settings.model)) {
    std::cerr << "granite fclib: unknown --model '" << vm["model"].as<std::string>() << "' (one of "
              << contact::model_names(", ") << ")\n";
    return kInputErrorExit;
  }
  const std::string solver_name = vm["solver"].as<std::string>();
  if (solver_name != "gs" && solver_name != "apgd" && solver_name != "lemke") {
    print_error_line("granite fclib: unknown --solver '",
                     solver_name + "' (one of gs, apgd, lemke)");
    return kInputErrorExit;
  }
  // --solver gs is solver.method gauss_seidel; apgd and lemke take their model.
  solver::Method method = solver::Method::gauss_seidel;
  solver::parse_method(solver_name, method);
  const bool use_lemke = method == solver::Method::lemke;
  const bool use_apgd = method == solver::Method::apgd;
  if (const std::optional<contact::Model> needed = solver::required_model(method)) {
    if (!vm["model"].defaulted() && settings.model != *needed) {
      print_error_line("granite fclib: --solver ",
                       solver::model_mismatch(method, settings.model) + " (--model " +
                           std::string(contact::model_name(*needed)) + ")");
      return kInputErrorExit;
    }
    settings.model = *needed;
  }
  const int max_contacts = vm["max-contacts"].as<int>();
  if (max_contacts < 1) {
    print_error_line("granite fclib: --max-contacts must be >= 1, got ",
                     std::to_string(max_contacts));
    return kInputErrorExit;
  }
  settings.golden_iterations = vm["golden-iterations"].as<int>();
  settings.friction_directions = vm["friction-directions"].as<int>();
  if (!contact::valid_friction_directions(settings.friction_directions)) {
    print_error_line("granite fclib: --friction-directions must be even, from 4 to ",
                     std::to_string(contact::kMaxFrictionDirections) + " (got " +
                         std::to_string(settings.friction_directions) + ")");
    return kInputErrorExit;
  }
  const double tolerance = vm["tolerance"].as<double>();
  const int max_sweeps = vm["max-sweeps"].as<int>();
  if (!(tolerance > 0) || max_sweeps < 1 || settings.golden_iterations < 1) {
    std::cerr
        << "granite fclib: --tolerance must be > 0, --max-sweeps and --golden-iterations >= 1\n";
    return kInputErrorExit;
  }
  const auto files = vm["files"].as<std::vector<std::string>>();
  const bool with_reference = vm.count("reference") > 0;

  // Read every file first: a bad file stops before any solving.
  std::vector<io::FclibProblem> problems;
  std::vector<io::FclibReference> references;
  try {
    for (const auto& file : files) {
      problems.push_back(io::read_fclib(file));
      if (with_reference) {
        const auto path = std::filesystem::path(vm["reference"].as<std::string>()) /
                          (problems.back().name + ".h5");
        references.push_back(io::read_fclib_reference(path.string()));
        if (references.back().u.size() != problems.back().q.size())
          throw InputError(path.string() + ": u has " + std::to_string(references.back().u.size()) +
                           " entries, the problem " + std::to_string(problems.back().q.size()));
      }
    }
  } catch (const InputError& e) {
    print_error_line("error: ", e.what());
    return kInputErrorExit;
  }
  if (use_lemke)
    for (std::size_t k = 0; k < problems.size(); ++k)
      if (problems[k].contacts() > std::size_t(max_contacts)) {
        print_error_line("granite fclib: --solver lemke: ",
                         files[k] + " has " + std::to_string(problems[k].contacts()) +
                             " contacts, more than --max-contacts " + std::to_string(max_contacts) +
                             " (Lemke's dense tableau is for small problems)");
        return kInputErrorExit;
      }

  if (vm.count("solution") && !std::filesystem::is_directory(vm["solution"].as<std::string>())) {
    print_error_line("granite fclib: --solution ",
                     vm["solution"].as<std::string>() + " is not a directory");
    return kInputErrorExit;
  }
  // One checked write per row; the file is created new (never through a planted link).
  io::AppendFile csv;
  if (vm.count("output")) {
    const std::string path = vm["output"].as<std::string>();
    try {
      csv = io::AppendFile(path,
                           "problem,form,contacts,model,sweeps,seconds,sweeps_to_1e-4,"
                           "seconds_to_1e-4,sweeps_to_1e-8,seconds_to_1e-8,final_error,"
                           "best_error,u_difference,fc3d_error,ccp_error,solver,products\n",
                           false);
    } catch (const IoFailure& e) {
      print_error_line("error: ", e.what());
      return kInputErrorExit;
    }
  }
  std::printf("# solver %s, model %s, tolerance %g, at most %d %s\n", solver_name.c_str(),
              std::string(contact::model_name(settings.model)).c_str(), tolerance, max_sweeps,
              use_apgd    ? "iterations"
              : use_lemke ? "(pivots)"
                          : "sweeps");
  std::printf("%-40s %6s %8s %18s %18s %10s %10s %10s %10s%s\n", "problem", "nc", "sweeps",
              "to 1e-4", "to 1e-8", "error", "best", "fc3d", "ccp",
              with_reference ? "  u_diff" : "");
  for (std::size_t k = 0; k < problems.size(); ++k) {
    const auto& p = problems[k];
    Eigen::VectorXd r;
    const auto result =
        use_apgd    ? solver::apgd_matrix(p.W, p.q, p.mu, tolerance, max_sweeps, r)
        : use_lemke ? lemke_matrix(p, settings.friction_directions, r)
                    : solver::relax_matrix(p.W, p.q, p.mu, settings, tolerance, max_sweeps, r);
    double u_difference = -1.0;
    if (with_reference) {
      const Eigen::VectorXd u = p.W * r + p.q;
      const double norm = std::max(references[k].u.norm(), p.q.norm());
      u_difference = (u - references[k].u).norm() / (norm > 0 ? norm : 1.0);
    }
    const double fc3d = solver::fc3d_error(p.W, p.q, p.mu, r);
    const double ccp = solver::ccp_error(p.W, p.q, p.mu, r);
    if (vm.count("solution")) {
      const auto path = std::filesystem::path(vm["solution"].as<std::string>()) / (p.name + ".h5");
      try {
        io::write_fclib_reference(path.string(), r, p.W * r + p.q, fc3d);
      } catch (const std::exception& e) {
        print_error_line("error: ", e.what());
        return kInputErrorExit;
      }
    }
    std::printf("%-40s %6zu %8d %18s %18s %10.2e %10.2e %10.2e %10.2e", p.name.c_str(),
                p.contacts(), result.sweeps,
                reached(result.sweeps_to_1e4, result.seconds_to_1e4).c_str(),
                reached(result.sweeps_to_1e8, result.seconds_to_1e8).c_str(), result.error,
                result.best_error, fc3d, ccp);
    if (with_reference) std::printf("  %.2e", u_difference);
    std::printf("\n");
    std::fflush(stdout);
    if (csv.is_open()) {
      std::ostringstream row;
      row << p.name << ',' << p.form << ',' << p.contacts() << ','
          << contact::model_name(settings.model) << ',' << result.sweeps << ',' << result.seconds
          << ',' << result.sweeps_to_1e4 << ',' << result.seconds_to_1e4 << ','
          << result.sweeps_to_1e8 << ',' << result.seconds_to_1e8 << ',' << result.error << ','
          << result.best_error << ',';
      if (with_reference) row << u_difference;
      row << ',' << fc3d << ',' << ccp << ',' << solver_name << ',' << result.products << '\n';
      csv.write(row.str());
    }
  }
  if (csv.is_open()) csv.close();
  return 0;
}

}  // namespace granite::app
