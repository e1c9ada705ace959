// `granite status OUTPUT_DIR`: how far a running or finished run is, when it will end, its
// last checkpoint, and whether it is alive — read from OUTPUT_DIR/run.json, which the run
// rewrites at every thermo line (the heartbeat; docs/output.md). Exit code 0: running or
// finished; 1: stalled (no heartbeat for longer than the stall limit) or failed; 2: not a
// Granite output directory (one line).
#include "commands.hpp"
#include "error_line.hpp"
#include "options.hpp"

#include "granite/core/error.hpp"
#include "granite/io/run_record.hpp"
#include "granite/scenario/progress.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

namespace granite::app {

namespace {

using Json = nlohmann::ordered_json;

// run.json, or nullopt when `dir` holds no Granite run record.
std::optional<Json> read_record(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) return std::nullopt;
  try {
    Json record = Json::parse(in);
    if (!record.is_object() || record.value("format", "") != io::kRunRecordFormat)
      return std::nullopt;
    return record;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

double number(const Json& object, const char* key, double fallback = 0.0) {
  const auto it = object.find(key);
  return it != object.end() && it->is_number() ? it->get<double>() : fallback;
}

// The heartbeat: when the run last wrote run.json (its own clock; the file's time if older
// records have none).
double heartbeat_of(const Json& progress, const std::filesystem::path& file) {
  if (progress.is_object() && progress.contains("heartbeat_unix"))
    return number(progress, "heartbeat_unix");
  return scenario::file_written_unix(file.string());
}

// Without --stall-after: stalled when no thermo line came for 5 thermo intervals, and at least
// a minute (an interval's wall time varies with the flow and the machine's load).
double stall_limit(const Json& progress, std::optional<double> stall_after) {
  if (stall_after) return *stall_after;
  const double interval = progress.is_object() ? number(progress, "thermo_interval_seconds") : 0;
  return std::max(60.0, 5.0 * interval);
}

int print_status(const Json& record, const std::filesystem::path& file,
                 std::optional<double> stall_after) {
  const std::string state = record.value("status", "unknown");
  const Json progress = record.value("progress", Json());
  const double now = scenario::unix_seconds_now();
  const double age = now - heartbeat_of(progress, file);
  const double limit = stall_limit(progress, stall_after);
  const bool running = state == "running";
  const bool stalled = running && age > limit;
  const bool failed = state == "failed";

  std::printf("run         %s -> %s (%d ranks)\n", record.value("config_file", "?").c_str(),
              record.value("output_directory", "?").c_str(), record.value("ranks", 0));
  if (running)
    std::printf("status      %s: last heartbeat %s ago (stalled after %s)\n",
                stalled ? "STALLED" : "running, alive", scenario::format_duration(age).c_str(),
                scenario::format_duration(limit).c_str());
  else
    std::printf("status      %s%s\n", state.c_str(),
                failed ? (": " + record.value("failure", std::string("?"))).c_str() : "");
  if (progress.is_object()) {
    std::printf("progress    step %lld of %lld (%.1f%%), t = %.9g s, %.3g particle-steps/s\n",
                static_cast<long long>(number(progress, "step")),
                static_cast<long long>(number(progress, "planned_steps")),
                number(progress, "percent"), number(progress, "time"),
                number(progress, "particle_steps_per_second"));
    const Json left = progress.value("seconds_left", Json());
    std::printf("wall time   %s elapsed",
                scenario::format_duration(number(progress, "elapsed_seconds")).c_str());
    if (running && left.is_number())
      std::printf(", estimated end %s (%s left at the last heartbeat)",
                  progress.value("estimated_end", "?").c_str(),
                  scenario::format_duration(left.get<double>()).c_str());
    std::printf("\n");
  } else {
    std::printf("progress    no thermo line yet\n");
  }
  const Json checkpoint = record.value("last_checkpoint", Json());
  if (checkpoint.is_object())
    std::printf("checkpoint  step %lld, t = %.9g s, written %s ago (%s)\n",
                static_cast<long long>(number(checkpoint, "step")), number(checkpoint, "time"),
                scenario::format_duration(now - number(checkpoint, "written_unix")).c_str(),
                checkpoint.value("path", "?").c_str());
  else
    std::printf("checkpoint  none yet\n");
  return stalled || failed ? 1 : 0;
}

}  // namespace

int status_command(const Args& args) {
  po::options_description options("status options");
  options.add_options()("dir", po::value<std::string>(), "output directory of a run")(
      "stall-after", po::value<double>(),
      "seconds without a heartbeat after which a running run counts as stalled (default: 5 "
      "thermo intervals, at least 60)");
  po::positional_options_description positional;
  positional.add("dir", 1);
  po::variables_map vm;
  if (auto exit = parse_options("status", "OUTPUT_DIR [--stall-after SECONDS]", args, options,
                                positional, vm))
    return *exit;
  if (!vm.count("dir")) {
    std::cerr << "granite status: missing OUTPUT_DIR (see granite status --help)\n";
    return kInputErrorExit;
  }
  std::optional<double> stall_after;
  if (vm.count("stall-after")) {
    stall_after = vm["stall-after"].as<double>();
    if (!(*stall_after >= 0.0)) {
      std::cerr << "granite status: --stall-after must be >= 0 seconds\n";
      return kInputErrorExit;
    }
  }
  const std::string dir = vm["dir"].as<std::string>();
  const std::filesystem::path file = std::filesystem::path(dir) / "run.json";
  const std::optional<Json> record = read_record(file);
  if (!record) {
    print_error_line("granite status: ",
                     dir + " is not a Granite output directory (no readable run.json)");
    return kInputErrorExit;
  }
  return print_status(*record, file, stall_after);
}

}  // namespace granite::app
