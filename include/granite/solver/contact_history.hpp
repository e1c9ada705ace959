#pragma once
// Warm starting (solver.warm_start): the impulses of the last relaxation, kept per contact
// identity, start the next step's relaxation.
//
// A contact's identity is the pair of its bodies: the two particles' global ids (lower first),
// or the particle's id and the global body's index, plus an ordinal that tells apart several
// contacts of the same pair (the parts of a union, a manifold's points, the pairs of parts of
// two clumps), in detection order. The impulse is kept in
// the world frame as the impulse on the first body of the key, so that it survives the pair
// being detected the other way round and the contact frame turning; the next step rotates it
// into the new frame and projects it onto the new friction cone (contact::project_onto_friction_cone).
// A contact with rolling or spinning resistance keeps its torque impulse the same way (world
// frame, on the key's first body); the next step clamps it to the bounds of its warm λ_n.
#include "granite/body/particles.hpp"
#include "granite/collision/contact.hpp"
#include "granite/solver/contact_setup.hpp"
#include "granite/solver/rolling.hpp"

#include <cstdint>
#include <vector>

namespace granite::solver {

struct ContactKey {
  BodyId first = 0;           // particle id
  BodyId second = 0;          // particle id (> first), or −1 − global body index
  std::uint32_t ordinal = 0;  // among contacts of the same pair, in detection order
  bool operator==(const ContactKey& o) const {
    return first == o.first && second == o.second && ordinal == o.ordinal;
  }
  bool operator<(const ContactKey& o) const;
};

struct ContactKeyHash {
  std::size_t operator()(const ContactKey& k) const;
};

struct HistoryEntry {
  ContactKey key;
  Vec3 impulse;                // world frame, on body `first`
  Vec3 torque = Vec3::Zero();  // world frame, on body `first` (rolling/spinning resistance)
};

/// Entries in key order (first, second, ordinal): how they are handed over and restored.
inline bool by_key(const HistoryEntry& a, const HistoryEntry& b) { return a.key < b.key; }

/// A history entry as plain data (Eigen vectors are not trivially copyable): how it travels
/// between ranks and how a checkpoint stores it (io::HistoryRow).
struct HistoryRecord {
  std::int64_t first = 0, second = 0;
  std::uint32_t ordinal = 0;
  double impulse[3] = {0, 0, 0};
  double torque[3] = {0, 0, 0};
};
HistoryRecord record_of(const HistoryEntry& e);
HistoryEntry entry_of(const HistoryRecord& r);
/// Records in key order, as by_key.
bool by_key(const HistoryRecord& a, const HistoryRecord& b);

/// The identities of a contact list's contacts, formed when asked for (24 bytes per contact
/// are not stored; the step's hand-over, warm start and record each ask once per contact). A
/// contact of two particles takes its ordinal from the contacts before it of the same pair,
/// which are adjacent (a manifold, pairs of parts); a particle and a global body can touch more
/// than once in any order (a union's parts), and those ordinals, by a stable sort of their
/// pairs, are the only ones kept (the nonzero ones). The list and the particles' ids must not
/// change while the keys are in use. Tests may give the keys explicitly instead.
class ContactKeys {
public:
  ContactKeys() = default;
  /// The keys of `contacts` (both must outlive this view).
  ContactKeys(const collision::ContactList& contacts, const body::Particles& particles);
  /// Explicit keys and order bits (tests).
  ContactKeys(std::vector<ContactKey> keys, std::vector<bool> swapped);

  std::size_t size() const { return contacts_ != nullptr ? contacts_->size() : keys_.size(); }
  /// Contact j's identity.
  ContactKey key(std::size_t j) const;
  /// The list's body order is the key's reversed (the impulse on the key's first body is −p).
  bool swapped(std::size_t j) const;

private:
  const collision::ContactList* contacts_ = nullptr;
  const body::Particles* particles_ = nullptr;
  // (j, ordinal) of the particle–global-body contacts with a nonzero ordinal, by j.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> global_ordinals_;
  std::vector<ContactKey> keys_;  // explicit keys
  std::vector<bool> swapped_;
};

/// The history is a flat table: the entries in one array, in the order they were recorded
/// (the last step's detection order, which the next step's lookups mostly follow), and an
/// open-addressing index over them (linear probing, at most half full). No node is allocated
/// per contact, and recording a step reuses the arrays. The torques are a parallel array that
/// exists only while some entry has one (rolling or spinning resistance): 24 bytes per entry
/// less without.
class ContactHistory {
public:
  /// Replaces the history by the given contacts' impulses (contact frame, as relaxed) and, with
  /// `rolling`, their torque impulses.
  void record(const ContactKeys& keys, const std::vector<SolverContact>& solver_contacts,
              const std::vector<Vec3>& impulses, const RollingBlocks* rolling = nullptr);
  /// Sets impulses[j] = scale · P_K(Q_jᵀ p) for every contact j found in the history (zero
  /// otherwise) and, with `rolling`, each torque block's torque to scale · Q_jᵀ t clamped to the
  /// bounds of that λ_n; returns how many contacts were found. With `bodies`, each impulse is
  /// applied to them as it is set (bit for bit apply_impulses after, without a second pass
  /// over the contacts); the torques are not.
  std::size_t warm_start(const ContactKeys& keys, const std::vector<SolverContact>& solver_contacts,
                         double scale, std::vector<Vec3>& impulses,
                         RollingBlocks* rolling = nullptr,
                         std::vector<BodyState>* bodies = nullptr) const;
  /// The same, forming the list's keys first.
  void record(const collision::ContactList& contacts, const body::Particles& particles,
              const std::vector<SolverContact>& solver_contacts, const std::vector<Vec3>& impulses,
              const RollingBlocks* rolling = nullptr);
  std::size_t warm_start(const collision::ContactList& contacts, const body::Particles& particles,
                         const std::vector<SolverContact>& solver_contacts, double scale,
                         std::vector<Vec3>& impulses, RollingBlocks* rolling = nullptr) const;

  std::size_t size() const { return rows_.size(); }
  /// Bytes one remembered contact takes (the memory estimate): its key and impulse and its
  /// index slots (2 to 4: the index is a power of two at most half full); a torque, with
  /// rolling resistance, adds 24 B: not counted.
  static constexpr std::size_t bytes_per_entry() { return sizeof(Row) + 4 * sizeof(std::uint32_t); }
  void clear();
  /// The entries sorted by key (checkpoints, exchange between processes).
  std::vector<HistoryEntry> entries() const;
  /// Entry e (0 <= e < size()) as stored, in the order they were recorded.
  HistoryEntry entry(std::size_t e) const {
    return {rows_[e].key, rows_[e].impulse, torques_.empty() ? Vec3::Zero() : torques_[e]};
  }
  const ContactKey& key(std::size_t e) const { return rows_[e].key; }
  /// Adds entries (an existing key is overwritten).
  void insert(const std::vector<HistoryEntry>& entries);
  /// The entries, sorted by key, that no contact of the list claims and that another process
  /// may now relax: one of the key's particles is not among particles [0, owned) (it migrated,
  /// or was only a ghost here). A contact whose particles both stay owned here and that is no
  /// longer detected has ended and is not offered.
  std::vector<HistoryEntry> unclaimed(const ContactKeys& keys, const body::Particles& particles,
                                      std::size_t owned) const;

private:
  static constexpr std::uint32_t kEmpty = 0;  // index_ holds entry + 1
  // The entry's index, or size() if absent; entry `hint` is tried before the index (the entry
  // after the last one found: the contacts come mostly in the order they were recorded).
  std::size_t find(const ContactKey& key, std::size_t hint = 0) const;
  std::size_t put(const ContactKey& key);  // the key's entry, appended if absent
  void reserve(std::size_t entries);       // an index for that many, rebuilt
  struct Row {
    ContactKey key;
    Vec3 impulse;  // world frame, on body `first`
  };
  std::vector<Row> rows_;
  std::vector<Vec3> torques_;  // empty, or one per row (world frame, on body `first`)
  std::vector<std::uint32_t> index_;
  int shift_ = 64;  // the index has 2^(64 − shift_) slots: a hash's top bits pick one
};

}  // namespace granite::solver
