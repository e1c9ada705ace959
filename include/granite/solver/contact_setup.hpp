#pragma once
// Contact setup (paper §3.1): per contact the frame Q = [n t o], lever arms, the Delassus
// diagonal block A_jj (Eq. 2), the Signorini gap term and μ, packed for the relaxation sweep.
#include "granite/body/material.hpp"
#include "granite/collision/contact.hpp"
#include "granite/contact/single_contact.hpp"
#include "granite/solver/body_state.hpp"

#include <cstdint>
#include <vector>

namespace granite::solver {

/// A symmetric 3 × 3 block kept as its upper triangle: 48 bytes instead of a Mat3's 72. Eq. (2)'s
/// A_jj is symmetric; for a shaped body the rounding of JᵀI⁻¹J can leave its two triangles
/// a unit in the last place apart, and the upper one is kept (a sphere's block is diagonal).
class SymmetricBlock {
public:
  SymmetricBlock() = default;
  /// From a matrix's upper triangle (implicit: a block is assigned from a Mat3).
  template <class Derived>
  SymmetricBlock(const Eigen::MatrixBase<Derived>& m) :
      a_{m(0, 0), m(0, 1), m(0, 2), m(1, 1), m(1, 2), m(2, 2)} {}
  double operator()(int i, int j) const { return a_[kIndex[i][j]]; }
  Mat3 full() const {
    Mat3 m;
    double* d = m.data();  // column-major
    d[0] = a_[0], d[1] = a_[1], d[2] = a_[2];
    d[3] = a_[1], d[4] = a_[3], d[5] = a_[4];
    d[6] = a_[2], d[7] = a_[4], d[8] = a_[5];
    return m;
  }
  operator Mat3() const { return full(); }  // NOLINT: the solvers take the block as a Mat3
  /// A x, each entry as (a_i0 x0 + a_i1 x1) + a_i2 x2 (for a sphere's diagonal block the bits
  /// of the Mat3 product).
  Vec3 operator*(const Vec3& x) const {
    return Vec3(a_[0] * x[0] + a_[1] * x[1] + a_[2] * x[2],
                a_[1] * x[0] + a_[3] * x[1] + a_[4] * x[2],
                a_[2] * x[0] + a_[4] * x[1] + a_[5] * x[2]);
  }

private:
  static constexpr int kIndex[3][3] = {{0, 1, 2}, {1, 3, 4}, {2, 4, 5}};
  double a_[6];
};

struct SolverContact {
  // The frame Q = [n t o] (world frame) as n and the coefficient that gives t and o
  // (collision::tangent_frame): 32 bytes instead of 72, and Q bit for bit the detection's.
  Vec3 normal;
  double tangent_coefficient;
  SymmetricBlock A;  // Delassus diagonal block in the contact frame (Eq. 2)
  // A's reduction to the plane of maximum compression (§3.2), reused by every sweep.
  contact::BlockReduction reduction;
  Vec3 r1;          // body 1's witness point − centre of body 1
  Vec3 r2;          // body 2's witness point − centre (global body: its rotation centre)
  double gap_term;  // ε min(0, ξ/dt) + max(0, ξ/dt)
  double mu;
  // Under-relaxation of this contact's impulse update, λ ← λ + w (λ_solved − λ). 1 for
  // contacts whose bodies this process owns; the weighted-Jacobi ω for contacts with a ghost
  // body, whose other contacts other processes relax at the same time.
  double weight = 1.0;
  std::uint32_t body1;  // index into the BodyState array
  std::uint32_t body2;  // index into the BodyState array (particles first, then global bodies)

  /// Q = [n t o].
  Mat3 frame() const { return collision::contact_frame(normal, tangent_coefficient); }
  /// Sets Q from its unit normal (t and o as collision::tangent_frame forms them).
  void set_frame(const Vec3& n) {
    normal = n;
    tangent_coefficient = collision::tangent_coefficient(n);
  }
};

/// The material of body b in the contacts' body indices (particles first, then global bodies).
inline body::MaterialIndex material_of(const body::Particles& particles,
                                       const body::GlobalBodies& globals, std::uint32_t b) {
  const std::size_t n = particles.size();
  return b < n ? particles.material[b] : globals[b - n].material;
}

/// Builds one SolverContact per detected contact, μ its bodies' materials' (pair_friction). A
/// global body's lever arm r2 runs from its rotation centre, and its BodyState carries its
/// angular velocity, so the contact sees the wall velocity v + ω × r2 (its infinite mass makes
/// r2 irrelevant to A_jj).
void setup_contacts(const collision::ContactList& contacts, const body::Particles& particles,
                    const body::GlobalBodies& globals, const body::MaterialTable& materials,
                    const std::vector<BodyState>& states, double dt, double epsilon,
                    std::vector<SolverContact>& out);

}  // namespace granite::solver
