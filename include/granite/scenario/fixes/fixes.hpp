#pragma once
// The end-of-step objects of a run, in the order run_scenario() calls them:
//   balance      load imbalance on thermo lines; moves the cuts (domain.balance) [always]
//   inflow       resetting piston that creates lattice layers (§4.3)       [inflow section]
//   outflow      deletes particles whose centre left the domain            [always]
//   statistics   flow statistics, statistics.csv, Table-2 summary          [statistics section]
//   progress     % done, rate, time left: thermo line, run.json, status   [always]
//   thermo       thermo line in the log and thermo.csv                     [always]
//   snapshots    HDF5 snapshots + XDMF                                     [always]
//   contact_history  the warm-start impulses in checkpoints               [solver.warm_start > 0]
//   checkpoints  OUTPUT/checkpoint.h5, also when a stop is requested       [always]
//   fclib_export the contact problem of chosen steps as FCLIB files        [export_fclib_steps]
#include "granite/config/config.hpp"
#include "granite/scenario/fixes/fix.hpp"

#include <functional>
#include <map>
#include <memory>
#include <vector>

namespace granite::scenario {

using Fixes = std::vector<std::unique_ptr<Fix>>;

/// The fixes a configuration asks for. Collective (fixes that write files check on every rank
/// that rank 0 can). `next_id`: the first id the inflow may use. `restarting`: tables are
/// continued, not truncated.
Fixes make_fixes(const config::ScenarioConfig& cfg, RunContext& run, BodyId next_id,
                 bool restarting);

/// Every fix's restart state, by name (fixes without state are left out).
std::map<std::string, std::string> fix_states(const Fixes& fixes);

/// Throws std::logic_error (a programming error, not an input one) if a fix comes before one
/// that its runs_after() names; make_fixes() checks its list with it.
void check_fix_order(const Fixes& fixes);

/// Puts every fix's record_sections() into `record`, in the order of the fixes. Throws
/// std::logic_error if two fixes provide the same section (appending to an array excepted).
void add_record_sections(const Fixes& fixes, nlohmann::ordered_json& record);

/// The fix called `name`, or nullptr.
Fix* find_fix(const Fixes& fixes, const std::string& name);

}  // namespace granite::scenario
