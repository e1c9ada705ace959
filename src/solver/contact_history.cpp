// Contact identities and the warm-start history (see include/granite/solver/contact_history.hpp).
#include "granite/solver/contact_history.hpp"

#include "granite/contact/friction_cone.hpp"
#include "granite/solver/fc3d_error.hpp"

#include <algorithm>
#include <map>
#include <unordered_set>
#include <tuple>
#include <utility>

namespace granite::solver {

bool ContactKey::operator<(const ContactKey& o) const {
  return std::tie(first, second, ordinal) < std::tie(o.first, o.second, o.ordinal);
}

std::size_t ContactKeyHash::operator()(const ContactKey& k) const {
  // splitmix64-style mixing of the three fields.
  std::uint64_t h = std::uint64_t(k.first) * 0x9e3779b97f4a7c15ULL;
  h ^= std::uint64_t(k.second) + 0x632be59bd9b4e019ULL + (h << 6) + (h >> 2);
  h ^= std::uint64_t(k.ordinal) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  h ^= h >> 31;
  return static_cast<std::size_t>(h * 0xbf58476d1ce4e5b9ULL);
}

void contact_keys(const collision::ContactList& contacts, const body::Particles& particles,
                  std::vector<ContactKey>& keys, std::vector<bool>& swapped) {
  const std::size_t m = contacts.size();
  keys.resize(m);
  swapped.assign(m, false);
  // A particle and a global body (a union's parts) can touch more than once, in any order;
  // two shaped particles too (a manifold, pairs of parts), their contacts adjacent in the list.
  std::map<std::pair<BodyId, BodyId>, std::uint32_t> seen;
  for (std::size_t j = 0; j < m; ++j) {
    ContactKey& k = keys[j];
    k.first = particles.id[contacts.body1[j]];
    k.ordinal = 0;
    if (contacts.involves_global(j)) {
      k.second = -1 - static_cast<BodyId>(contacts.global_index(j));
      k.ordinal = seen[{k.first, k.second}]++;
      continue;
    }
    k.second = particles.id[contacts.body2[j]];
    if (k.second < k.first) {
      std::swap(k.first, k.second);
      swapped[j] = true;
    }
    if (j > 0 && !contacts.involves_global(j - 1) && keys[j - 1].first == k.first &&
        keys[j - 1].second == k.second)
      k.ordinal = keys[j - 1].ordinal + 1;
  }
}

void ContactHistory::record(const collision::ContactList& contacts,
                            const body::Particles& particles,
                            const std::vector<SolverContact>& solver_contacts,
                            const std::vector<Vec3>& impulses, const RollingBlocks* rolling) {
  std::vector<ContactKey> keys;
  std::vector<bool> swapped;
  contact_keys(contacts, particles, keys, swapped);
  map_.clear();
  map_.reserve(keys.size());
  for (std::size_t j = 0; j < keys.size(); ++j) {
    const Vec3 world = solver_contacts[j].frame * impulses[j];  // on body 1
    map_[keys[j]].impulse = swapped[j] ? Vec3(-world) : world;
  }
  if (rolling == nullptr) return;
  for (std::size_t k = 0; k < rolling->contacts.size(); ++k) {
    const std::size_t j = rolling->contacts[k].contact;
    const Vec3 world = solver_contacts[j].frame * rolling->torques[k];  // on body 1
    map_[keys[j]].torque = swapped[j] ? Vec3(-world) : world;
  }
}

std::size_t ContactHistory::warm_start(const collision::ContactList& contacts,
                                       const body::Particles& particles,
                                       const std::vector<SolverContact>& solver_contacts,
                                       double scale, std::vector<Vec3>& impulses,
                                       RollingBlocks* rolling) const {
  std::vector<ContactKey> keys;
  std::vector<bool> swapped;
  contact_keys(contacts, particles, keys, swapped);
  impulses.assign(keys.size(), Vec3::Zero());
  std::size_t found = 0;
  for (std::size_t j = 0; j < keys.size(); ++j) {
    const auto it = map_.find(keys[j]);
    if (it == map_.end()) continue;
    ++found;
    const Vec3 world = swapped[j] ? Vec3(-it->second.impulse) : it->second.impulse;
    const SolverContact& c = solver_contacts[j];
    impulses[j] = scale * contact::project_onto_friction_cone(c.frame.transpose() * world, c.mu);
  }
  if (rolling == nullptr) return found;
  for (std::size_t k = 0; k < rolling->contacts.size(); ++k) {
    const RollingContact& r = rolling->contacts[k];
    const auto it = map_.find(keys[r.contact]);
    if (it == map_.end()) continue;
    const Vec3 world = swapped[r.contact] ? Vec3(-it->second.torque) : it->second.torque;
    const SolverContact& c = solver_contacts[r.contact];
    const double normal = std::max(impulses[r.contact][0], 0.0);
    rolling->torques[k] = clamp_torque(scale * (c.frame.transpose() * world),
                                       r.spinning_arm * normal, r.rolling_arm * normal);
  }
  return found;
}

std::vector<HistoryEntry> ContactHistory::entries() const {
  std::vector<HistoryEntry> out;
  out.reserve(map_.size());
  for (const auto& [key, value] : map_) out.push_back({key, value.impulse, value.torque});
  std::sort(out.begin(), out.end(),
            [](const HistoryEntry& a, const HistoryEntry& b) { return a.key < b.key; });
  return out;
}

void ContactHistory::insert(const std::vector<HistoryEntry>& entries) {
  for (const HistoryEntry& e : entries) map_[e.key] = {e.impulse, e.torque};
}

std::vector<HistoryEntry> ContactHistory::unclaimed(const collision::ContactList& contacts,
                                                    const body::Particles& particles,
                                                    std::size_t owned) const {
  std::vector<HistoryEntry> out;
  if (map_.empty()) return out;
  std::vector<ContactKey> keys;
  std::vector<bool> swapped;
  contact_keys(contacts, particles, keys, swapped);
  const std::unordered_set<ContactKey, ContactKeyHash> claimed(keys.begin(), keys.end());
  const std::unordered_set<BodyId> mine(particles.id.begin(),
                                        particles.id.begin() + std::ptrdiff_t(owned));
  for (const auto& [key, value] : map_) {
    if (claimed.count(key)) continue;
    const bool stays = mine.count(key.first) && (key.second < 0 || mine.count(key.second));
    if (!stays) out.push_back({key, value.impulse, value.torque});
  }
  std::sort(out.begin(), out.end(),
            [](const HistoryEntry& a, const HistoryEntry& b) { return a.key < b.key; });
  return out;
}

}  // namespace granite::solver
