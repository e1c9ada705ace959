#include "granite/solver/contact_problem_export.hpp"

#include "granite/solver/delassus.hpp"

#include <Eigen/SparseCore>

#include <cstddef>
#include <cstdint>

namespace granite::solver {

namespace {

bool is_immovable(const BodyState& s) {
  return s.inverse_mass == 0.0 && s.inverse_inertia().isZero(0.0);
}

}  // namespace

void export_contact_problem(const std::vector<SolverContact>& contacts,
                            const std::vector<BodyState>& states,
                            Eigen::SparseMatrix<double, Eigen::RowMajor>& W, Eigen::VectorXd& q,
                            Eigen::VectorXd& mu) {
  const std::size_t m = contacts.size();
  const auto n3 = static_cast<Eigen::Index>(3 * m);
  q.resize(n3);
  mu.resize(static_cast<Eigen::Index>(m));
  W.resize(n3, n3);
  W.setZero();
  if (m == 0) return;

  // Contacts per body (CSR): for body b, the contacts j in which it takes part, with its side.
  const std::size_t nb = states.size();
  std::vector<std::size_t> start(nb + 1, 0);
  for (const auto& c : contacts) {
    ++start[c.body1 + 1];
    ++start[c.body2 + 1];
  }
  for (std::size_t b = 0; b < nb; ++b) start[b + 1] += start[b];
  std::vector<std::uint32_t> entries(start[nb]);
  {
    std::vector<std::size_t> fill(start.begin(), start.end() - 1);
    for (std::size_t j = 0; j < m; ++j) {
      entries[fill[contacts[j].body1]++] = static_cast<std::uint32_t>(j);
      entries[fill[contacts[j].body2]++] = static_cast<std::uint32_t>(j);
    }
  }

  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(9 * m * 8);
  // Per row: world-frame coupling matrices accumulated for each neighbour k.
  std::vector<std::ptrdiff_t> slot(m, -1);
  std::vector<std::size_t> neighbours;
  std::vector<Mat3> blocks;

  for (std::size_t j = 0; j < m; ++j) {
    const SolverContact& cj = contacts[j];
    neighbours.clear();
    blocks.clear();
    for (int side_j = 0; side_j < 2; ++side_j) {
      const std::uint32_t b = side_j == 0 ? cj.body1 : cj.body2;
      const BodyState& s = states[b];
      if (is_immovable(s)) continue;
      const Vec3& rj = side_j == 0 ? cj.r1 : cj.r2;
      const Mat3 rjx = cross_matrix(rj);
      for (std::size_t e = start[b]; e < start[b + 1]; ++e) {
        const std::size_t k = entries[e];
        // A contact appears once per side in the list; take the side matching b.
        const SolverContact& ck = contacts[k];
        if (e > start[b] && entries[e - 1] == k) continue;  // (both sides are the same body)
        for (int side_k = 0; side_k < 2; ++side_k) {
          const std::uint32_t bk = side_k == 0 ? ck.body1 : ck.body2;
          if (bk != b) continue;
          const Vec3& rk = side_k == 0 ? ck.r1 : ck.r2;
          Mat3 block = (k == j && side_k == side_j)
                           ? body_delassus(s.inverse_mass, s.inverse_inertia(), rj)
                           : Mat3(s.inverse_mass * Mat3::Identity() -
                                  rjx * s.inverse_inertia() * cross_matrix(rk));
          if (side_j != side_k) block = -block;
          if (slot[k] < 0) {
            slot[k] = static_cast<std::ptrdiff_t>(neighbours.size());
            neighbours.push_back(k);
            blocks.push_back(block);
          } else {
            blocks[static_cast<std::size_t>(slot[k])] += block;
          }
        }
      }
    }
    for (std::size_t i = 0; i < neighbours.size(); ++i) {
      const std::size_t k = neighbours[i];
      slot[k] = -1;
      const Mat3 wjk = cj.frame().transpose() * blocks[i] * contacts[k].frame();
      for (int a = 0; a < 3; ++a)
        for (int c = 0; c < 3; ++c)
          triplets.emplace_back(static_cast<int>(3 * j) + a, static_cast<int>(3 * k) + c,
                                wjk(a, c));
    }

    const BodyState& s1 = states[cj.body1];
    const BodyState& s2 = states[cj.body2];
    const Vec3 u = s1.v + s1.w.cross(cj.r1) - s2.v - s2.w.cross(cj.r2);
    Vec3 qj = cj.frame().transpose() * u;
    qj[0] += cj.gap_term;
    q.segment<3>(static_cast<Eigen::Index>(3 * j)) = qj;
    mu[static_cast<Eigen::Index>(j)] = cj.mu;
  }
  W.setFromTriplets(triplets.begin(), triplets.end());
  W.makeCompressed();
}

}  // namespace granite::solver
