// Memory per rank: the estimate and the measured high-water mark (granite/scenario/memory.hpp).
#include "granite/scenario/memory.hpp"

#include "granite/body/particle_fields.hpp"
#include "granite/collision/contact.hpp"
#include "granite/comm/collectives.hpp"
#include "granite/comm/environment.hpp"
#include "granite/core/error.hpp"
#include "granite/solver/body_state.hpp"
#include "granite/solver/contact_history.hpp"
#include "granite/solver/contact_setup.hpp"

#include <sys/resource.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <new>
#include <sstream>

namespace granite::scenario {

std::size_t bytes_per_particle() {
  std::size_t bytes = sizeof(solver::BodyState);
  body::for_each_particle_field([&](const auto& field) {
    using Field = std::decay_t<decltype(field)>;
    bytes += sizeof(typename Field::Element);
  });
  return bytes;
}

std::size_t bytes_per_contact(bool warm_start) {
  // collision::ContactList: two body indices, point, normal, gap (the tangents are formed from
  // the normal, μ from the materials by the setup: not stored).
  const std::size_t list = 2 * sizeof(collision::BodyIndex) + 2 * sizeof(Vec3) + sizeof(double);
  return list + sizeof(solver::SolverContact) + sizeof(Vec3) +  // + the impulse
         (warm_start ? solver::ContactHistory::bytes_per_entry() : 0);
}

MemoryEstimate estimate_memory(std::size_t owned, const Vec3& lo, const Vec3& hi, double halo,
                               bool warm_start, double contacts_per_particle) {
  MemoryEstimate m;
  const Vec3 extent = (hi - lo).cwiseMax(0.0);
  const double volume = extent.prod();
  const double with_halo = (extent.array() + 2.0 * halo).prod();
  const double ghosts = volume > 0 ? double(owned) * (with_halo - volume) / volume : 0.0;
  m.particles = double(owned) * double(bytes_per_particle());
  m.ghosts = ghosts * double(bytes_per_particle());
  // Contacts with ghosts are in the list of one of the two ranks: count the owned particles'.
  m.contacts = double(owned) * contacts_per_particle / 2.0 * double(bytes_per_contact(warm_start));
  m.bytes_per_contact = bytes_per_contact(warm_start);
  return m;
}

double peak_resident_bytes() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0.0;
  return double(usage.ru_maxrss) * 1024.0;  // Linux: kilobytes
}

double resident_bytes() {
  std::ifstream in("/proc/self/statm");
  double pages = 0.0, resident = 0.0;
  if (!(in >> pages >> resident)) return 0.0;
  return resident * double(sysconf(_SC_PAGESIZE));
}

void release_free_memory() {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

void inject_allocation_failure(std::int64_t step) {
  static const std::int64_t failing_step = [] {
    const char* text = std::getenv("GRANITE_FAIL_ALLOCATION");
    if (text == nullptr || *text == '\0') return std::int64_t(-1);
    long long rank = 0, at = 0;
    char tail = 0;
    if (std::sscanf(text, "%lld:%lld%c", &rank, &at, &tail) != 2 || at < 1) {
      std::fprintf(stderr, "warning: GRANITE_FAIL_ALLOCATION='%s' ignored (expected RANK:STEP)\n",
                   text);
      return std::int64_t(-1);
    }
    return rank == comm::launcher_rank() ? std::int64_t(at) : std::int64_t(-1);
  }();
  if (step == failing_step) throw std::bad_alloc();
}

namespace {

constexpr double kUnlimited = std::numeric_limits<double>::infinity();

// The first number of a one-line file, or infinity ("max", absent, or above 2^60: unlimited).
double limit_file(const char* path) {
  std::ifstream in(path);
  std::string word;
  if (!(in >> word) || word == "max") return kUnlimited;
  char* end = nullptr;
  const double value = std::strtod(word.c_str(), &end);
  return end != word.c_str() && value > 0.0 && value < 0x1p60 ? value : kUnlimited;
}

// MemAvailable of /proc/meminfo in bytes (infinity if unknown).
double memory_available() {
  std::ifstream in("/proc/meminfo");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string key;
    double kilobytes = 0.0;
    if (fields >> key >> kilobytes && key == "MemAvailable:") return kilobytes * 1024.0;
  }
  return kUnlimited;
}

}  // namespace

MemoryLimit memory_limit(const comm::Communicator& comm) {
  const int node = comm::ranks_on_node(comm);
  const std::string shared = " / " + std::to_string(node) + " ranks on the node";
  MemoryLimit best{kUnlimited, "unknown"};
  const auto consider = [&](double bytes, const std::string& source) {
    if (bytes < best.bytes) best = {bytes, source};
  };
  if (const char* text = std::getenv("GRANITE_MEMORY_LIMIT")) {
    char* end = nullptr;
    const double value = std::strtod(text, &end);
    if (end != text && *end == '\0' && value > 0.0)
      consider(value, "GRANITE_MEMORY_LIMIT");
    else
      throw InputError(std::string("GRANITE_MEMORY_LIMIT: expected bytes > 0, got '") +
                       printable(shown(text)) + "'");
  }
  rlimit address{};
  if (getrlimit(RLIMIT_AS, &address) == 0 && address.rlim_cur != RLIM_INFINITY)
    consider(double(address.rlim_cur), "the address-space limit (ulimit -v)");
  const double cgroup = std::min(limit_file("/sys/fs/cgroup/memory.max"),
                                 limit_file("/sys/fs/cgroup/memory/memory.limit_in_bytes"));
  consider(cgroup / node, "the cgroup's memory limit" + shared);
  consider(memory_available() / node, "MemAvailable" + shared);
  return best;
}

std::optional<std::int64_t> ranks_that_fit(double data, double process, double limit) {
  if (!(limit > process)) return std::nullopt;
  return std::max<std::int64_t>(1, std::int64_t(std::ceil(data / (limit - process))));
}

void check_memory_fits(const MemoryEstimate& local, const comm::Communicator& comm) {
  const MemoryLimit limit = memory_limit(comm);
  // The run's data divides among the ranks; each rank's process before its particles does not.
  const double data = comm::sum(local.total() - local.process, comm);
  const double process = comm::max(local.process, comm);
  std::string failure;
  if (local.total() > limit.bytes) {
    const std::optional<std::int64_t> ranks = ranks_that_fit(data, process, limit.bytes);
    const std::string fit =
        ranks ? "about " + std::to_string(*ranks) + " ranks would fit"
              : "the process alone holds " + format_bytes(process) + " before its particles";
    failure = "the run needs an estimated " + format_bytes(local.total()) + " on rank " +
              std::to_string(comm.rank()) + " but a rank may use " + format_bytes(limit.bytes) +
              " (" + limit.source + "); " + fit + " (docs/performance.md, memory)";
  }
  comm::throw_if_any_failed(failure, comm);
}

std::string format_bytes(double bytes) {
  char text[32];
  if (bytes >= 1e9)
    std::snprintf(text, sizeof text, "%.2f GB", bytes / 1e9);
  else if (bytes >= 1e6)
    std::snprintf(text, sizeof text, "%.1f MB", bytes / 1e6);
  else
    std::snprintf(text, sizeof text, "%.0f kB", bytes / 1e3);
  return text;
}

std::string memory_estimate_line(const MemoryEstimate& local, const comm::Communicator& comm) {
  std::vector<double> parts{local.particles, local.contacts, local.ghosts,
                            local.total(),   local.meshes,   local.process};
  comm::max_in_place(parts, comm);
  return "estimated memory per rank (largest rank): " + format_bytes(parts[3]) + " = particles " +
         format_bytes(parts[0]) + " + contacts " + format_bytes(parts[1]) +
         " (6 per particle) + ghosts " + format_bytes(parts[2]) +
         (parts[4] > 0.0 ? " + mesh walls " + format_bytes(parts[4]) : std::string()) +
         (parts[5] > 0.0 ? " + the process before its particles " + format_bytes(parts[5])
                         : std::string()) +
         " (" + std::to_string(bytes_per_particle()) + " B per particle, " +
         std::to_string(local.bytes_per_contact) + " B per contact)";
}

nlohmann::ordered_json peak_memory_record(const comm::Communicator& comm, std::string& line) {
  const double mine = peak_resident_bytes();
  std::vector<double> every(std::size_t(comm.size()), 0.0);
  every[std::size_t(comm.rank())] = mine;
  comm::sum_in_place(every, comm);  // each rank fills its own slot
  const double low = *std::min_element(every.begin(), every.end());
  const double high = *std::max_element(every.begin(), every.end());
  double sum = 0.0;
  for (double b : every) sum += b;
  const double avg = sum / double(every.size());
  const double now = comm::max(resident_bytes(), comm);
  line = "memory high-water mark per rank (ru_maxrss): min " + format_bytes(low) + ", avg " +
         format_bytes(avg) + ", max " + format_bytes(high) + "; resident at the end: max " +
         format_bytes(now);
  return {
      {"min", low}, {"avg", avg}, {"max", high}, {"per_rank", every}, {"resident_now_max", now}};
}

}  // namespace granite::scenario
