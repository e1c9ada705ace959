#pragma once
// FCLIB 3D frictional contact problems (Acary et al., INRIA RT-0444, 2014): reading the local
// (`/fclib_local`) and global (`/fclib_global`) HDF5 forms, the condensed local problem
// u = W r + q, and writing a local problem. Siconos' error measure is solver::fc3d_error.
// tests/data/fclib/README.md describes the test problems and the format's pitfalls.
#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <cstddef>
#include <string>

namespace granite::io {

using FclibMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor>;

/// A local (or condensed global) problem: u = W r + q, contact frames ordered (n, t1, t2).
struct FclibProblem {
  std::string name;      // file name without directory and extension
  std::string form;      // "local" or "global"
  FclibMatrix W;         // 3nc x 3nc (for global problems Hᵀ M⁻¹ H)
  Eigen::VectorXd q;     // 3nc (for global problems Hᵀ M⁻¹ f + w)
  Eigen::VectorXd mu;    // nc
  std::size_t ndof = 0;  // global problems: size of M; 0 for local problems
  std::size_t contacts() const { return static_cast<std::size_t>(mu.size()); }
};

/// Reads an FCLIB file. A global problem is condensed with a sparse factorisation of M; an M
/// stored as one triangle only is symmetrised. Throws InputError "PATH: problem" (one line) for
/// a file that is not HDF5, a missing group or dataset, inconsistent sizes, non-finite values,
/// out-of-range indices or a singular M.
FclibProblem read_fclib(const std::string& path);

/// A reference solution (e.g. tests/data/fclib/references/<name>.h5): datasets r, u, error.
struct FclibReference {
  Eigen::VectorXd r;
  Eigen::VectorXd u;
  double error = 0.0;
};
/// Throws InputError "PATH: problem" as read_fclib does.
FclibReference read_fclib_reference(const std::string& path);
/// Writes a solution in that form (datasets r, u, error), atomically as write_fclib_local.
void write_fclib_reference(const std::string& path, const Eigen::VectorXd& r,
                           const Eigen::VectorXd& u, double error);

/// Writes `/fclib_local` (W as a CSR CSparse structure, vectors/q, vectors/mu, spacedim = 3)
/// under `group` (default "fclib_local"). The data are written as given, unchecked, so that
/// tests can produce malformed files. Throws InputError if the file cannot be written.
void write_fclib_local(const std::string& path, const FclibMatrix& W, const Eigen::VectorXd& q,
                       const Eigen::VectorXd& mu, const std::string& group = "fclib_local");

}  // namespace granite::io
