#pragma once
// Memory of a run per rank: an estimate from the particle count before the first step (the
// run banner), and the measured high-water mark at the end (getrusage ru_maxrss; the closing
// report and run.json).
//
// The estimate counts the arrays that grow with the problem: the particle storage (every field
// of body/particle_fields.hpp plus the solver's body state), the contacts (the contact list,
// the solver's contact blocks and impulses) at `contacts_per_particle`, and the ghosts (the
// same per-particle storage for the copies of neighbours' bodies within the halo width of the
// subdomain's faces, at the subdomain's mean particle density). Allocator slack, vector growth
// (up to 2x), MPI and HDF5 buffers and the code are not in it, so the high-water mark is
// larger — the estimate says how the memory scales with the particles, not the process size.
#include "granite/comm/communicator.hpp"
#include "granite/core/types.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace granite::scenario {

/// Bytes one particle takes in the particle storage and the solver's body state (a body whose
/// inertia is not isotropic adds its world-frame tensor, 72 B, which is not counted).
std::size_t bytes_per_particle();
/// Bytes one contact takes in the contact list, the solver's contact block and the impulse,
/// and with `warm_start` its entry in the warm-start history.
std::size_t bytes_per_contact(bool warm_start = true);

struct MemoryEstimate {
  double particles = 0, contacts = 0, ghosts = 0;  // bytes on this rank
  double meshes = 0;  // this rank's parts of the mesh walls (body::TriangleMesh::bytes)
  // What the process held before it made its particles (code, libraries, MPI's buffers, the
  // configuration), mesh walls aside: resident then.
  double process = 0;
  std::size_t bytes_per_contact = 0;  // the figure `contacts` was counted with
  double total() const { return particles + contacts + ghosts + meshes + process; }
};

/// `owned` particles in the subdomain [lo, hi], ghosts within `halo` of its faces (faces on
/// the domain's boundary included: an upper bound for the outer subdomains).
/// `warm_start`: the contacts are remembered (solver.warm_start > 0).
MemoryEstimate estimate_memory(std::size_t owned, const Vec3& lo, const Vec3& hi, double halo,
                               bool warm_start, double contacts_per_particle = 6.0);

/// The memory this rank may use, and where that figure comes from: the least of the
/// GRANITE_MEMORY_LIMIT environment variable (bytes per rank), the address-space limit
/// (RLIMIT_AS, `ulimit -v`), the cgroup's limit (v2 memory.max, v1 memory.limit_in_bytes)
/// divided by the ranks on the node, and MemAvailable (/proc/meminfo) divided by the ranks
/// on the node. Infinity if none is known. Collective (counts the ranks on the node).
struct MemoryLimit {
  double bytes = 0.0;
  std::string source;  // e.g. "MemAvailable / 2 ranks on the node"
};
MemoryLimit memory_limit(const comm::Communicator& comm);

/// The ranks on which `data` bytes in all (divided among them) and `process` bytes on each
/// rank (what a rank holds before its particles) fit under `limit` bytes per rank:
/// ceil(data / (limit - process)); none if the process alone does not fit.
std::optional<std::int64_t> ranks_that_fit(double data, double process, double limit);

/// Throws InputError on every rank if some rank's estimate exceeds its limit: "the run needs
/// an estimated X on rank R but a rank may use Y (SOURCE); about N ranks would fit" (or "the
/// process alone holds P before its particles"). Collective.
void check_memory_fits(const MemoryEstimate& local, const comm::Communicator& comm);

/// This process's peak resident set size in bytes (getrusage ru_maxrss).
double peak_resident_bytes();
/// Its resident set size now in bytes (/proc/self/statm; 0 where unknown).
double resident_bytes();
/// Returns the heap's free memory to the system (glibc's malloc_trim; nothing elsewhere): after
/// a large structure is freed (the whole mesh walls), so the resident size shows what the run
/// holds.
void release_free_memory();

/// Test hook: throws std::bad_alloc, as a failed allocation would, at the start of step `step`
/// (1-based) on the rank that GRANITE_FAIL_ALLOCATION=RANK:STEP names (its launcher rank).
/// A malformed value is ignored with a warning, as GRANITE_FAIL_WRITE's.
void inject_allocation_failure(std::int64_t step);

/// "12.3 MB"
std::string format_bytes(double bytes);

/// The banner line: the largest estimate over the ranks, split into its parts. Collective.
std::string memory_estimate_line(const MemoryEstimate& local, const comm::Communicator& comm);

/// The high-water mark per rank: {"min", "avg", "max", "per_rank": [...], "resident_now_max"}
/// in bytes (the last: the largest rank's resident size at the call), and a log line.
/// Collective; the JSON is complete on every rank.
nlohmann::ordered_json peak_memory_record(const comm::Communicator& comm, std::string& line);

}  // namespace granite::scenario
