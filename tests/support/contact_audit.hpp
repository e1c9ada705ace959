#pragma once
// Test support for MPI runs: ContactAudit, an observer of a simulation's contact problems that
// compares each step's contacts over all ranks with a full search of all ranks' owned particles
// gathered on every rank.
#include "granite/collision/detection.hpp"
#include "granite/parallel/body_record.hpp"
#include "granite/parallel/distributed_domain.hpp"
#include "granite/timestep/simulation.hpp"
#include "gather_all.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <vector>

namespace granite::test_support {

// A contact as (lower body id, other id or -1 - global body index, ordinal of a repeated
// pair) -> gap: independent of the ranks and of the local indices once sorted by gap within a
// pair (a clump pair's contacts come in the order of the parts of its lower local index).
struct KeyedContact {
  BodyId a, b;
  std::int32_t ordinal;
  double gap;
};
inline std::vector<KeyedContact> keyed(const collision::ContactList& c, const body::Particles& p) {
  std::vector<KeyedContact> out;
  std::map<std::pair<BodyId, BodyId>, std::int32_t> seen;
  for (std::size_t j = 0; j < c.size(); ++j) {
    BodyId a = p.id[c.body1[j]];
    BodyId b = c.involves_global(j) ? -1 - BodyId(c.global_index(j)) : p.id[c.body2[j]];
    if (b >= 0 && b < a) std::swap(a, b);
    out.push_back({a, b, seen[{a, b}]++, c.gap[j]});
  }
  return out;
}

// Watches `sim`'s steps (as its contact-problem observer, after the step's contact
// responsibility and setup): the contacts kept on all ranks are compared with a full search
// (linked cells, no skin) of all ranks' owned particles gathered on every rank: same keys, gaps
// within 1e-15 m. Collective: every rank audits every step.
class ContactAudit final {
public:
  ContactAudit(MPI_Comm comm, timestep::Simulation& sim) : comm_(comm), sim_(sim) {
    sim.set_contact_problem_observer([this](const auto&, const auto&) { audit(); });
  }
  void audit() {
    const body::Particles& p = sim_.particles();
    const collision::ContactList& contacts = sim_.contacts();
    const std::size_t owned = sim_.owned_count();
    std::vector<parallel::BodyRecord> mine;
    for (std::size_t i = 0; i < owned; ++i) mine.push_back(parallel::pack(p, i));
    body::Particles everyone;
    for (const auto& r : gather_all(mine, comm_)) parallel::unpack(r, everyone);
    collision::ContactDetection full;
    collision::ContactList all;
    full.detect(everyone, sim_.globals(), sim_.shapes(), sim_.parameters().contact_threshold, all);
    const auto expected = sorted(keyed(all, everyone));
    const auto found = sorted(gather_all(keyed(contacts, p), comm_));
    ++steps_;
    contacts_ += found.size();
    for (const KeyedContact& k : found) global_contacts_ += k.b < 0 ? 1 : 0;
    bool same = expected.size() == found.size();
    for (std::size_t k = 0; same && k < found.size(); ++k)
      same = std::tie(found[k].a, found[k].b, found[k].ordinal) ==
                 std::tie(expected[k].a, expected[k].b, expected[k].ordinal) &&
             std::abs(found[k].gap - expected[k].gap) <= 1e-15;
    mismatches_ += same ? 0 : 1;
  }
  std::uint64_t steps_ = 0, contacts_ = 0, global_contacts_ = 0, mismatches_ = 0;

private:
  static std::vector<KeyedContact> sorted(std::vector<KeyedContact> v) {
    std::sort(v.begin(), v.end(), [](const KeyedContact& x, const KeyedContact& y) {
      return std::tie(x.a, x.b, x.gap) < std::tie(y.a, y.b, y.gap);
    });
    for (std::size_t k = 0; k < v.size(); ++k)
      v[k].ordinal =
          k > 0 && v[k].a == v[k - 1].a && v[k].b == v[k - 1].b ? v[k - 1].ordinal + 1 : 0;
    return v;
  }
  MPI_Comm comm_;
  const timestep::Simulation& sim_;
};

}  // namespace granite::test_support
