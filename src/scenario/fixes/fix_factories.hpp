#pragma once
// Private to scenario/: one factory per end-of-step object (each in its fix_<name>.cpp);
// make_fixes() (fixes.cpp) decides from the configuration which ones a run gets.
#include "granite/io/atomic_file.hpp"
#include "granite/io/snapshot.hpp"
#include "granite/scenario/cadence.hpp"
#include "granite/scenario/fixes/fix.hpp"
#include "granite/config/settings.hpp"
#include "granite/scenario/sources/inflow.hpp"

#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <string>

namespace granite::scenario::detail {

/// A CSV table on rank 0: a new file with its header, or (continuing a restarted run) the
/// existing one (io::AppendFile: never through a symbolic link). Collective: InputError on
/// every rank if rank 0 cannot open it.
io::AppendFile open_table(const RunContext& run, const std::string& file_name,
                          const std::string& header, bool append);

/// Appends `row` to rank 0's `table`. Collective: a failed write is an IoFailure on every rank.
void append_row(const RunContext& run, io::AppendFile& table, const std::string& row);

/// Restart state of a fix that keeps running sums: the values as hexfloats (exact), and back.
/// restore_doubles() throws InputError naming `fix` unless `text` holds exactly
/// values.size() numbers.
std::string doubles_state(const std::vector<double>& values);
void restore_doubles(const std::string& text, std::vector<double>& values, const char* fix);

/// Always (reports the load imbalance with more than one rank); moves the cuts with
/// domain.balance static or dynamic. Needs run.distributed.
std::unique_ptr<Fix> make_balance(const config::DomainSettings& domain, Cadence thermo,
                                  RunContext& run);
std::unique_ptr<Fix> make_inflow(const config::InflowSettings& settings, BodyId first_id,
                                 std::uint64_t seed, double dt, double max_overlap);
/// The pour of particles[source]: ids first_id, first_id + 1, ...
std::unique_ptr<Fix> make_pour(const config::PourSettings& settings, std::size_t source,
                               BodyId first_id, std::uint64_t seed, double dt);
std::unique_ptr<Fix> make_body_forces(const config::BodyForceSettings& settings, double dt,
                                      RunContext& run, bool restarting);
std::unique_ptr<Fix> make_mass_flow(const config::MassFlowSettings& settings, double dt,
                                    RunContext& run, bool restarting);
std::unique_ptr<Fix> make_grid(const config::GridSettings& settings, double dt, RunContext& run,
                               bool restarting);
std::unique_ptr<Fix> make_orientation(const config::OrientationSettings& settings, double dt,
                                      RunContext& run, bool restarting);
/// Only when some global body has a prescribed motion or an active window.
/// `configured`: the global bodies as built (normalised), before the first step.
std::unique_ptr<Fix> make_motion(const body::GlobalBodies& configured,
                                 const std::vector<body::PrescribedMotion>& motions, double dt);
std::unique_ptr<Fix> make_outflow(const Domain& domain, config::LostPolicy on_lost);
std::unique_ptr<Fix> make_statistics(const config::StatisticsSettings& settings,
                                     const config::DomainSettings& domain, const std::string& model,
                                     RunContext& run, double dt, bool restarting);
/// Only with contact.compatible on: selects the steps with a compatible pass (the snapshot
/// cadence and `last_step`, or every step) and reports the passes.
std::unique_ptr<Fix> make_compatible(const config::ContactSettings& contact, Cadence snapshots,
                                     std::int64_t last_step, RunContext& run);
/// `planned_steps`: the run's last step (counted from 0).
std::unique_ptr<Fix> make_progress(Cadence cadence, std::int64_t planned_steps);
std::unique_ptr<Fix> make_thermo(Cadence cadence, bool write_csv, RunContext& run, bool restarting);
/// `initial`: also write the state before the first step (in start()); `domain`: the box the
/// half-spaces are clipped to in the global bodies' grid.
std::unique_ptr<Fix> make_snapshots(Cadence cadence, const io::SnapshotInfo& info, bool initial,
                                    const Domain& domain, RunContext& run);
std::unique_ptr<Fix> make_checkpoints(Cadence cadence, std::string config_text);
std::unique_ptr<Fix> make_fclib_export(std::set<std::int64_t> steps, const RunContext& run);

}  // namespace granite::scenario::detail
