// FCLIB reader (see include/granite/io/fclib/fclib.hpp).
#include "granite/io/fclib/fclib.hpp"

#include "granite/core/error.hpp"
#include "granite/io/input_file.hpp"
#include "../hdf5_util.hpp"

#include <Eigen/SparseCholesky>
#include <Eigen/SparseLU>

#include <hdf5.h>

#include <cmath>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

namespace granite::io {

namespace {

using detail::Handle;

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw InputError(path + ": " + what);
}

bool link_exists(hid_t file, const std::string& name) {
  // Checks every component, since H5Lexists fails on a missing intermediate group.
  std::size_t pos = 0;
  while (true) {
    pos = name.find('/', pos + 1);
    const std::string prefix = name.substr(0, pos);
    if (H5Lexists(file, prefix.c_str(), H5P_DEFAULT) <= 0) return false;
    if (pos == std::string::npos) return true;
  }
}

template <class T>
std::vector<T> read_array(const std::string& path, hid_t file, const std::string& name) {
  if (!link_exists(file, name)) fail(path, "missing dataset " + name);
  Handle dataset(H5Dopen2(file, name.c_str(), H5P_DEFAULT), H5Dclose);
  if (dataset.get() < 0) fail(path, name + " is not a dataset");
  Handle type(H5Dget_type(dataset.get()), H5Tclose);
  const H5T_class_t type_class = H5Tget_class(type.get());
  constexpr bool integral = std::is_integral_v<T>;
  if (integral ? type_class != H5T_INTEGER : (type_class != H5T_FLOAT && type_class != H5T_INTEGER))
    fail(path, name + ": expected " + (integral ? "integer" : "floating-point") + " data");
  Handle space(H5Dget_space(dataset.get()), H5Sclose);
  const hssize_t count = H5Sget_simple_extent_npoints(space.get());
  if (count < 0) fail(path, name + ": unreadable dataspace");
  // A dataspace can declare far more values than the file stores (an unwritten chunked
  // dataset of 2^30 values takes a few bytes): checked before anything is allocated. gzip
  // compresses at most about 1032:1, so a larger ratio is not data.
  const double declared = double(count) * double(sizeof(T));
  const double stored = double(H5Dget_storage_size(dataset.get()));
  if (declared > 1100.0 * stored + 4096.0)
    fail(path, name + ": declares " + std::to_string(count) + " values but the file stores only " +
                   std::to_string(std::uint64_t(stored)) + " bytes of them");
  std::vector<T> values;
  try {  // a damaged dataspace can claim more values than memory holds
    values.resize(static_cast<std::size_t>(count));
  } catch (const std::exception&) {
    fail(path, name + ": " + std::to_string(count) + " values do not fit in memory");
  }
  if (count > 0 && H5Dread(dataset.get(), integral ? H5T_NATIVE_INT : H5T_NATIVE_DOUBLE, H5S_ALL,
                           H5S_ALL, H5P_DEFAULT, values.data()) < 0)
    fail(path, name + ": read failed");
  if constexpr (!integral) {
    for (std::size_t k = 0; k < values.size(); ++k)
      if (!std::isfinite(values[k]))
        fail(path, name + ": non-finite value at index " + std::to_string(k));
  }
  return values;
}

int read_int(const std::string& path, hid_t file, const std::string& name) {
  const auto values = read_array<int>(path, file, name);
  if (values.size() != 1)
    fail(path, name + ": expected one value, got " + std::to_string(values.size()));
  return values[0];
}

Eigen::VectorXd to_vector(const std::string& path, const std::string& name,
                          const std::vector<double>& values, std::size_t expected) {
  if (values.size() != expected)
    fail(path, name + ": expected " + std::to_string(expected) + " values, got " +
                   std::to_string(values.size()));
  return Eigen::Map<const Eigen::VectorXd>(values.data(), static_cast<Eigen::Index>(values.size()));
}

Eigen::VectorXd read_vector(const std::string& path, hid_t file, const std::string& name,
                            std::size_t expected) {
  return to_vector(path, name, read_array<double>(path, file, name), expected);
}

// The largest size a matrix can have: that of the problem's vectors (`from`). A damaged m or n
// would otherwise allocate gigabytes before any consistency check.
struct SizeLimit {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::string from;
};

// A CSparse matrix (CSC nz = -1, CSR nz = -2, triplet nz >= 0 with i = rows, p = columns).
Eigen::SparseMatrix<double> read_csparse(const std::string& path, hid_t file,
                                         const std::string& name, const SizeLimit& limit) {
  const int m = read_int(path, file, name + "/m");
  const int n = read_int(path, file, name + "/n");
  const int nz = read_int(path, file, name + "/nz");
  if (m < 0 || n < 0)
    fail(path, name + ": negative size " + std::to_string(m) + " x " + std::to_string(n));
  if (static_cast<std::size_t>(m) > limit.rows || static_cast<std::size_t>(n) > limit.cols)
    fail(path, name + ": size " + std::to_string(m) + " x " + std::to_string(n) + " larger than " +
                   limit.from);
  if (nz < -2) fail(path, name + ": unknown storage nz = " + std::to_string(nz));
  const auto p = read_array<int>(path, file, name + "/p");
  const auto i = read_array<int>(path, file, name + "/i");
  const auto x = read_array<double>(path, file, name + "/x");
  std::vector<Eigen::Triplet<double>> triplets;
  auto check_index = [&](int value, int limit, const char* what, std::size_t k) {
    if (value < 0 || value >= limit)
      fail(path, name + ": " + what + " index " + std::to_string(value) + " at entry " +
                     std::to_string(k) + " out of range [0, " + std::to_string(limit) + ")");
  };
  if (nz >= 0) {
    const auto count = static_cast<std::size_t>(nz);
    if (p.size() < count || i.size() < count || x.size() < count)
      fail(path, name + ": triplet arrays shorter than nz = " + std::to_string(nz));
    triplets.reserve(count);
    for (std::size_t k = 0; k < count; ++k) {
      check_index(i[k], m, "row", k);
      check_index(p[k], n, "column", k);
      triplets.emplace_back(i[k], p[k], x[k]);
    }
  } else {
    const bool csc = nz == -1;
    const int outer = csc ? n : m;
    const int inner = csc ? m : n;
    if (p.size() < static_cast<std::size_t>(outer) + 1)
      fail(path, name + ": p has " + std::to_string(p.size()) + " pointers, expected " +
                     std::to_string(outer + 1));
    if (p[0] != 0) fail(path, name + ": p[0] is not 0");
    for (int k = 0; k < outer; ++k)
      if (p[k + 1] < p[k]) fail(path, name + ": p is decreasing at " + std::to_string(k));
    const auto count = static_cast<std::size_t>(p[outer]);
    if (i.size() < count || x.size() < count)
      fail(path, name + ": i/x shorter than p[end] = " + std::to_string(count));
    triplets.reserve(count);
    for (int o = 0; o < outer; ++o)
      for (int k = p[o]; k < p[o + 1]; ++k) {
        check_index(i[k], inner, csc ? "row" : "column", static_cast<std::size_t>(k));
        if (csc)
          triplets.emplace_back(i[k], o, x[k]);
        else
          triplets.emplace_back(o, i[k], x[k]);
      }
  }
  Eigen::SparseMatrix<double> matrix(m, n);
  matrix.setFromTriplets(triplets.begin(), triplets.end());
  return matrix;
}

// M = U + Uᵀ − diag U when M has entries strictly on one side of the diagonal only.
Eigen::SparseMatrix<double> symmetrise_one_sided(const Eigen::SparseMatrix<double>& M) {
  std::size_t upper = 0, lower = 0;
  for (int c = 0; c < M.outerSize(); ++c)
    for (Eigen::SparseMatrix<double>::InnerIterator it(M, c); it; ++it) {
      if (it.row() < it.col()) ++upper;
      if (it.row() > it.col()) ++lower;
    }
  if ((upper == 0) == (lower == 0)) return M;
  Eigen::SparseMatrix<double> transposed = M.transpose();
  Eigen::SparseMatrix<double> diagonal(M.rows(), M.cols());
  diagonal.setIdentity();
  diagonal = M.cwiseProduct(diagonal);
  Eigen::SparseMatrix<double> result = M + transposed - diagonal;
  return result;
}

std::string stem_of(const std::string& path) { return std::filesystem::path(path).stem().string(); }

hid_t open_file(const std::string& path, const std::string& kind) {
  check_input_file(path, kind);
  if (H5Fis_hdf5(path.c_str()) <= 0) fail(path, "not an HDF5 file");
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) fail(path, "cannot open as HDF5");
  return file;
}

void check_mu(const std::string& path, const Eigen::VectorXd& mu, const std::string& name) {
  for (Eigen::Index k = 0; k < mu.size(); ++k)
    if (mu[k] < 0)
      fail(path, name + ": negative friction coefficient at contact " + std::to_string(k));
}

FclibProblem read_local(const std::string& path, hid_t file) {
  FclibProblem problem;
  problem.form = "local";
  const auto q = read_array<double>(path, file, "/fclib_local/vectors/q");
  const Eigen::SparseMatrix<double> W = read_csparse(
      path, file, "/fclib_local/W",
      {q.size(), q.size(), "/fclib_local/vectors/q (" + std::to_string(q.size()) + " entries)"});
  if (W.rows() != W.cols() || W.rows() % 3 != 0)
    fail(path, "/fclib_local/W: expected a square 3nc x 3nc matrix, got " +
                   std::to_string(W.rows()) + " x " + std::to_string(W.cols()));
  const auto n = static_cast<std::size_t>(W.rows());
  problem.W = W;
  problem.q = to_vector(path, "/fclib_local/vectors/q", q, n);
  problem.mu = read_vector(path, file, "/fclib_local/vectors/mu", n / 3);
  check_mu(path, problem.mu, "/fclib_local/vectors/mu");
  return problem;
}

FclibProblem read_global(const std::string& path, hid_t file) {
  FclibProblem problem;
  problem.form = "global";
  if (link_exists(file, "/fclib_global/G"))
    fail(path, "/fclib_global/G: equality constraints are not supported");
  const auto f_values = read_array<double>(path, file, "/fclib_global/vectors/f");
  const auto w_values = read_array<double>(path, file, "/fclib_global/vectors/w");
  const std::string sizes = "/fclib_global/vectors/f and w (" + std::to_string(f_values.size()) +
                            " and " + std::to_string(w_values.size()) + " entries)";
  const Eigen::SparseMatrix<double> M = symmetrise_one_sided(
      read_csparse(path, file, "/fclib_global/M", {f_values.size(), f_values.size(), sizes}));
  const Eigen::SparseMatrix<double> H =
      read_csparse(path, file, "/fclib_global/H", {f_values.size(), w_values.size(), sizes});
  if (M.rows() != M.cols())
    fail(path, "/fclib_global/M: not square (" + std::to_string(M.rows()) + " x " +
                   std::to_string(M.cols()) + ")");
  if (H.rows() != M.rows() || H.cols() % 3 != 0)
    fail(path, "/fclib_global/H: expected " + std::to_string(M.rows()) + " x 3nc, got " +
                   std::to_string(H.rows()) + " x " + std::to_string(H.cols()));
  const auto ndof = static_cast<std::size_t>(M.rows());
  const auto n = static_cast<std::size_t>(H.cols());
  const Eigen::VectorXd f = to_vector(path, "/fclib_global/vectors/f", f_values, ndof);
  const Eigen::VectorXd w = to_vector(path, "/fclib_global/vectors/w", w_values, n);
  problem.mu = read_vector(path, file, "/fclib_global/vectors/mu", n / 3);
  check_mu(path, problem.mu, "/fclib_global/vectors/mu");
  // A column without a stored entry makes M structurally singular; Eigen's SparseLU does not
  // return on such a matrix (an all-empty M never finished), so it is refused first.
  for (Eigen::Index k = 0; k < M.cols(); ++k)
    if (M.col(k).nonZeros() == 0)
      fail(path, "/fclib_global/M: singular (column " + std::to_string(k) + " has no entry)");
  Eigen::SparseLU<Eigen::SparseMatrix<double>> lu;
  lu.analyzePattern(M);
  lu.factorize(M);
  if (lu.info() != Eigen::Success) fail(path, "/fclib_global/M: singular (factorisation failed)");
  const Eigen::SparseMatrix<double> MinvH = lu.solve(H);
  const Eigen::VectorXd Minvf = lu.solve(f);
  if (lu.info() != Eigen::Success) fail(path, "/fclib_global/M: solve failed");
  Eigen::SparseMatrix<double> W = (H.transpose() * MinvH).pruned();
  problem.W = W;
  problem.q = H.transpose() * Minvf + w;
  problem.ndof = ndof;
  for (Eigen::Index k = 0; k < problem.q.size(); ++k)
    if (!std::isfinite(problem.q[k])) fail(path, "condensed q is not finite (singular M?)");
  return problem;
}

}  // namespace

FclibProblem read_fclib(const std::string& path) {
  detail::SilenceHdf5Errors silence;
  Handle file(open_file(path, "FCLIB file"), H5Fclose);
  FclibProblem problem;
  if (link_exists(file.get(), "/fclib_local"))
    problem = read_local(path, file.get());
  else if (link_exists(file.get(), "/fclib_global"))
    problem = read_global(path, file.get());
  else
    fail(path, "neither /fclib_local nor /fclib_global found (not an FCLIB file)");
  problem.name = stem_of(path);
  return problem;
}

FclibReference read_fclib_reference(const std::string& path) {
  detail::SilenceHdf5Errors silence;
  Handle file(open_file(path, "reference solution"), H5Fclose);
  FclibReference reference;
  const auto r = read_array<double>(path, file.get(), "/r");
  reference.r = Eigen::Map<const Eigen::VectorXd>(r.data(), static_cast<Eigen::Index>(r.size()));
  reference.u = read_vector(path, file.get(), "/u", r.size());
  const auto error = read_array<double>(path, file.get(), "/error");
  if (error.size() != 1) fail(path, "/error: expected one value");
  reference.error = error[0];
  return reference;
}

}  // namespace granite::io
