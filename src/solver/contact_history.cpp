// Contact identities and the warm-start history (see include/granite/solver/contact_history.hpp).
#include "granite/solver/contact_history.hpp"

#include "granite/core/capacity.hpp"
#include "granite/contact/friction_cone.hpp"
#include "granite/solver/contact_kinematics.hpp"
#include "granite/solver/fc3d_error.hpp"

#include <algorithm>
#include <unordered_set>
#include <tuple>
#include <utility>

namespace granite::solver {

bool ContactKey::operator<(const ContactKey& o) const {
  return std::tie(first, second, ordinal) < std::tie(o.first, o.second, o.ordinal);
}

HistoryRecord record_of(const HistoryEntry& e) {
  HistoryRecord r;
  r.first = e.key.first;
  r.second = e.key.second;
  r.ordinal = e.key.ordinal;
  for (int k = 0; k < 3; ++k) {
    r.impulse[k] = e.impulse[k];
    r.torque[k] = e.torque[k];
  }
  return r;
}

HistoryEntry entry_of(const HistoryRecord& r) {
  return {{r.first, r.second, r.ordinal},
          Vec3(r.impulse[0], r.impulse[1], r.impulse[2]),
          Vec3(r.torque[0], r.torque[1], r.torque[2])};
}

bool by_key(const HistoryRecord& a, const HistoryRecord& b) {
  return std::tie(a.first, a.second, a.ordinal) < std::tie(b.first, b.second, b.ordinal);
}

std::size_t ContactKeyHash::operator()(const ContactKey& k) const {
  // splitmix64-style mixing of the three fields.
  std::uint64_t h = std::uint64_t(k.first) * 0x9e3779b97f4a7c15ULL;
  h ^= std::uint64_t(k.second) + 0x632be59bd9b4e019ULL + (h << 6) + (h >> 2);
  h ^= std::uint64_t(k.ordinal) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  h ^= h >> 31;
  return static_cast<std::size_t>(h * 0xbf58476d1ce4e5b9ULL);
}

ContactKeys::ContactKeys(const collision::ContactList& contacts, const body::Particles& particles) :
    contacts_(&contacts), particles_(&particles) {
  // A particle and a global body can touch more than once, in any order: those contacts are
  // numbered by a sort of their pairs (stable: in detection order).
  std::vector<std::uint32_t> with_global;
  for (std::size_t j = 0; j < contacts.size(); ++j)
    if (contacts.involves_global(j)) with_global.push_back(std::uint32_t(j));
  const auto pair_of = [&](std::uint32_t j) {
    return std::make_pair(particles.id[contacts.body1[j]], contacts.body2[j]);
  };
  const auto pair_less = [&](std::uint32_t a, std::uint32_t b) { return pair_of(a) < pair_of(b); };
  std::stable_sort(with_global.begin(), with_global.end(), pair_less);
  std::uint32_t ordinal = 0;
  for (std::size_t i = 1; i < with_global.size(); ++i) {
    ordinal = pair_less(with_global[i - 1], with_global[i]) ? 0 : ordinal + 1;
    if (ordinal > 0) global_ordinals_.emplace_back(with_global[i], ordinal);
  }
  std::sort(global_ordinals_.begin(), global_ordinals_.end());
}

ContactKeys::ContactKeys(std::vector<ContactKey> keys, std::vector<bool> swapped) :
    keys_(std::move(keys)), swapped_(std::move(swapped)) {}

ContactKey ContactKeys::key(std::size_t j) const {
  if (contacts_ == nullptr) return keys_[j];
  const collision::ContactList& c = *contacts_;
  const std::vector<BodyId>& id = particles_->id;
  ContactKey k;
  k.first = id[c.body1[j]];
  if (c.involves_global(j)) {
    k.second = -1 - static_cast<BodyId>(c.global_index(j));
    const auto at = std::lower_bound(global_ordinals_.begin(), global_ordinals_.end(),
                                     std::make_pair(std::uint32_t(j), std::uint32_t(0)));
    k.ordinal = at != global_ordinals_.end() && at->first == j ? at->second : 0;
    return k;
  }
  k.second = id[c.body2[j]];
  if (k.second < k.first) std::swap(k.first, k.second);
  // Two particles' contacts of the same pair are adjacent: the ordinal counts those before.
  const auto same_pair = [&](std::size_t i) {
    if (c.involves_global(i)) return false;
    const BodyId a = id[c.body1[i]], b = id[c.body2[i]];
    return std::min(a, b) == k.first && std::max(a, b) == k.second;
  };
  for (std::size_t i = j; i > 0 && same_pair(i - 1); --i) ++k.ordinal;
  return k;
}

bool ContactKeys::swapped(std::size_t j) const {
  if (contacts_ == nullptr) return swapped_[j];
  const collision::ContactList& c = *contacts_;
  return !c.involves_global(j) && particles_->id[c.body2[j]] < particles_->id[c.body1[j]];
}

void ContactHistory::clear() {
  rows_.clear();
  torques_.clear();
  std::fill(index_.begin(), index_.end(), kEmpty);
}

void ContactHistory::reserve(std::size_t entries) {
  reserve_with_margin(rows_, entries);
  int bits = 4;
  while ((std::size_t(1) << bits) < 2 * entries) ++bits;
  if (index_.size() == (std::size_t(1) << bits)) return;
  shift_ = 64 - bits;
  index_.assign(std::size_t(1) << bits, kEmpty);
  for (std::size_t e = 0; e < rows_.size(); ++e) {
    std::size_t s = ContactKeyHash{}(rows_[e].key) >> shift_;
    while (index_[s] != kEmpty) s = (s + 1) & (index_.size() - 1);
    index_[s] = std::uint32_t(e + 1);
  }
}

std::size_t ContactHistory::find(const ContactKey& key, std::size_t hint) const {
  if (hint < rows_.size() && rows_[hint].key == key) return hint;
  if (rows_.empty()) return 0;
  for (std::size_t s = ContactKeyHash{}(key) >> shift_;; s = (s + 1) & (index_.size() - 1)) {
    const std::uint32_t e = index_[s];
    if (e == kEmpty) return rows_.size();
    if (rows_[e - 1].key == key) return e - 1;
  }
}

std::size_t ContactHistory::put(const ContactKey& key) {
  if (2 * (rows_.size() + 1) > index_.size()) reserve(rows_.size() + 1);
  std::size_t s = ContactKeyHash{}(key) >> shift_;
  for (; index_[s] != kEmpty; s = (s + 1) & (index_.size() - 1))
    if (rows_[index_[s] - 1].key == key) return index_[s] - 1;
  rows_.push_back({key, Vec3::Zero()});
  if (!torques_.empty()) torques_.push_back(Vec3::Zero());
  index_[s] = std::uint32_t(rows_.size());
  return rows_.size() - 1;
}

void ContactHistory::record(const ContactKeys& keys,
                            const std::vector<SolverContact>& solver_contacts,
                            const std::vector<Vec3>& impulses, const RollingBlocks* rolling) {
  // The same contacts in the same order as the entries (a step that changed no contact): the
  // index stays as it is and entry j is contact j's.
  const std::size_t m = keys.size();
  bool same = m == rows_.size();
  for (std::size_t j = 0; same && j < m; ++j) same = keys.key(j) == rows_[j].key;
  if (!same) {
    clear();
    reserve(m);
  }
  torques_.clear();  // no torque unless `rolling` sets one below
  // Each contact's entry, kept only for the torques of rolling resistance (4 B per contact).
  const bool torques = rolling != nullptr && !rolling->contacts.empty();
  std::vector<std::uint32_t> entry(torques ? m : 0);
  for (std::size_t j = 0; j < m; ++j) {
    const std::size_t e = same ? j : put(keys.key(j));
    if (torques) entry[j] = std::uint32_t(e);
    const Vec3 world = solver_contacts[j].frame() * impulses[j];  // on body 1
    rows_[e].impulse = keys.swapped(j) ? Vec3(-world) : world;
  }
  if (!torques) return;
  torques_.assign(rows_.size(), Vec3::Zero());
  for (std::size_t k = 0; k < rolling->contacts.size(); ++k) {
    const std::size_t j = rolling->contacts[k].contact;
    const Vec3 world = solver_contacts[j].frame() * rolling->torques[k];  // on body 1
    torques_[entry[j]] = keys.swapped(j) ? Vec3(-world) : world;
  }
}

void ContactHistory::record(const collision::ContactList& contacts,
                            const body::Particles& particles,
                            const std::vector<SolverContact>& solver_contacts,
                            const std::vector<Vec3>& impulses, const RollingBlocks* rolling) {
  record(ContactKeys(contacts, particles), solver_contacts, impulses, rolling);
}

std::size_t ContactHistory::warm_start(const ContactKeys& keys,
                                       const std::vector<SolverContact>& solver_contacts,
                                       double scale, std::vector<Vec3>& impulses,
                                       RollingBlocks* rolling,
                                       std::vector<BodyState>* bodies) const {
  const std::size_t m = keys.size();
  impulses.assign(m, Vec3::Zero());
  // Each contact's entry, kept only for the torques of rolling resistance (4 B per contact).
  std::vector<std::uint32_t> entry(rolling != nullptr ? m : 0);
  std::size_t found = 0, hint = 0;
  for (std::size_t j = 0; j < m; ++j) {
    const std::size_t e = find(keys.key(j), hint);
    if (rolling != nullptr) entry[j] = std::uint32_t(e);
    if (e == rows_.size()) continue;
    hint = e + 1;
    ++found;
    const Vec3& p = rows_[e].impulse;
    const Vec3 world = keys.swapped(j) ? Vec3(-p) : p;
    const SolverContact& c = solver_contacts[j];
    const Mat3 q = c.frame();
    impulses[j] = scale * contact::project_onto_friction_cone(q.transpose() * world, c.mu);
    // In contact order, as apply_impulses would (a contact not found adds nothing: zero).
    if (bodies != nullptr)
      apply_impulse(c, q * impulses[j], (*bodies)[c.body1], (*bodies)[c.body2]);
  }
  if (rolling == nullptr) return found;
  for (std::size_t k = 0; k < rolling->contacts.size(); ++k) {
    const RollingContact& r = rolling->contacts[k];
    if (entry[r.contact] == rows_.size()) continue;
    const Vec3 t = torques_.empty() ? Vec3::Zero() : torques_[entry[r.contact]];
    const Vec3 world = keys.swapped(r.contact) ? Vec3(-t) : t;
    const SolverContact& c = solver_contacts[r.contact];
    const double normal = std::max(impulses[r.contact][0], 0.0);
    rolling->torques[k] = clamp_torque(scale * (c.frame().transpose() * world),
                                       r.spinning_arm * normal, r.rolling_arm * normal);
  }
  return found;
}

std::size_t ContactHistory::warm_start(const collision::ContactList& contacts,
                                       const body::Particles& particles,
                                       const std::vector<SolverContact>& solver_contacts,
                                       double scale, std::vector<Vec3>& impulses,
                                       RollingBlocks* rolling) const {
  return warm_start(ContactKeys(contacts, particles), solver_contacts, scale, impulses, rolling);
}

std::vector<HistoryEntry> ContactHistory::entries() const {
  std::vector<HistoryEntry> out;
  out.reserve(rows_.size());
  for (std::size_t e = 0; e < rows_.size(); ++e) out.push_back(entry(e));
  std::sort(out.begin(), out.end(),
            [](const HistoryEntry& a, const HistoryEntry& b) { return by_key(a, b); });
  return out;
}

void ContactHistory::insert(const std::vector<HistoryEntry>& entries) {
  reserve(rows_.size() + entries.size());
  for (const HistoryEntry& e : entries) {
    const std::size_t i = put(e.key);
    rows_[i].impulse = e.impulse;
    if (torques_.empty() && !e.torque.isZero(0.0)) torques_.assign(rows_.size(), Vec3::Zero());
    if (!torques_.empty()) torques_[i] = e.torque;
  }
}

std::vector<HistoryEntry> ContactHistory::unclaimed(const ContactKeys& keys,
                                                    const body::Particles& particles,
                                                    std::size_t owned) const {
  std::vector<HistoryEntry> out;
  if (rows_.empty()) return out;
  std::vector<bool> claimed(rows_.size(), false);
  std::size_t hint = 0;
  for (std::size_t j = 0; j < keys.size(); ++j) {
    const std::size_t e = find(keys.key(j), hint);
    if (e == rows_.size()) continue;
    claimed[e] = true;
    hint = e + 1;
  }
  if (std::find(claimed.begin(), claimed.end(), false) == claimed.end()) return out;
  const std::unordered_set<BodyId> mine(particles.id.begin(),
                                        particles.id.begin() + std::ptrdiff_t(owned));
  for (std::size_t e = 0; e < rows_.size(); ++e) {
    if (claimed[e]) continue;
    const ContactKey& key = rows_[e].key;
    const bool stays = mine.count(key.first) && (key.second < 0 || mine.count(key.second));
    if (!stays) out.push_back(entry(e));
  }
  std::sort(out.begin(), out.end(),
            [](const HistoryEntry& a, const HistoryEntry& b) { return by_key(a, b); });
  return out;
}

}  // namespace granite::solver
