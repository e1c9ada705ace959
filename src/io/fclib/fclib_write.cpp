// Writing an FCLIB local problem (see include/granite/io/fclib/fclib.hpp).
#include "granite/io/fclib/fclib.hpp"

#include "granite/core/error.hpp"
#include "../hdf5_util.hpp"

#include <hdf5.h>

#include <cerrno>
#include <cstdio>
#include <string>
#include <vector>

namespace granite::io {

namespace {

using detail::Handle;

void write_array(const std::string& path, hid_t group, const char* name, hid_t file_type,
                 hid_t memory_type, const void* data, hsize_t count) {
  Handle space(H5Screate_simple(1, &count, nullptr), H5Sclose);
  Handle dataset(
      H5Dcreate2(group, name, file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
      H5Dclose);
  if (space.get() < 0 || dataset.get() < 0 ||
      (count > 0 && H5Dwrite(dataset.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0))
    throw InputError(path + ": cannot write dataset " + name);
}

void write_ints(const std::string& path, hid_t group, const char* name, const std::vector<int>& v) {
  write_array(path, group, name, H5T_STD_I32LE, H5T_NATIVE_INT, v.data(), v.size());
}

void write_doubles(const std::string& path, hid_t group, const char* name, const double* v,
                   std::size_t n) {
  write_array(path, group, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, v, n);
}

hid_t make_group(const std::string& path, hid_t parent, const std::string& name) {
  const hid_t group = H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (group < 0) throw InputError(path + ": cannot create group " + name);
  return group;
}

void write_fclib_file(const std::string& path, const std::string& final_path, const FclibMatrix& W,
                      const Eigen::VectorXd& q, const Eigen::VectorXd& mu,
                      const std::string& group_name) {
  detail::SilenceHdf5Errors silence;
  FclibMatrix compressed = W;
  compressed.makeCompressed();
  Handle file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
  if (file.get() < 0) throw InputError(path + ": cannot create file");
  {
    Handle root(make_group(path, file.get(), group_name), H5Gclose);
    {
      Handle matrix(make_group(path, root.get(), "W"), H5Gclose);
      const int nnz = static_cast<int>(compressed.nonZeros());
      write_ints(path, matrix.get(), "m", {static_cast<int>(compressed.rows())});
      write_ints(path, matrix.get(), "n", {static_cast<int>(compressed.cols())});
      write_ints(path, matrix.get(), "nz", {-2});
      write_ints(path, matrix.get(), "nzmax", {nnz});
      const std::vector<int> p(compressed.outerIndexPtr(),
                               compressed.outerIndexPtr() + compressed.rows() + 1);
      const std::vector<int> i(compressed.innerIndexPtr(), compressed.innerIndexPtr() + nnz);
      write_ints(path, matrix.get(), "p", p);
      write_ints(path, matrix.get(), "i", i);
      write_doubles(path, matrix.get(), "x", compressed.valuePtr(), static_cast<std::size_t>(nnz));
    }
    Handle vectors(make_group(path, root.get(), "vectors"), H5Gclose);
    write_doubles(path, vectors.get(), "q", q.data(), static_cast<std::size_t>(q.size()));
    write_doubles(path, vectors.get(), "mu", mu.data(), static_cast<std::size_t>(mu.size()));
    write_ints(path, root.get(), "spacedim", {3});
  }
  const std::string injected = injected_failure(final_path);
  if (!injected.empty()) throw IoFailure(injected);
  if (file.close() < 0) throw IoFailure(write_error(final_path, EIO) + " (H5Fclose)");
}

void write_reference_file(const std::string& path, const std::string& final_path,
                          const Eigen::VectorXd& r, const Eigen::VectorXd& u, double error) {
  detail::SilenceHdf5Errors silence;
  Handle file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
  if (file.get() < 0) throw InputError(path + ": cannot create file");
  write_doubles(path, file.get(), "r", r.data(), static_cast<std::size_t>(r.size()));
  write_doubles(path, file.get(), "u", u.data(), static_cast<std::size_t>(u.size()));
  write_doubles(path, file.get(), "error", &error, 1);
  const std::string injected = injected_failure(final_path);
  if (!injected.empty()) throw IoFailure(injected);
  if (file.close() < 0) throw IoFailure(write_error(final_path, EIO) + " (H5Fclose)");
}

// Writes under PATH.tmp, created new (a link planted there or at PATH is never followed), and
// renames it over PATH when complete.
template <class Write>
void write_atomically(const std::string& path, Write write) {
  const std::string tmp = path + ".tmp";
  create_new_empty(tmp);
  try {
    write(tmp);
  } catch (...) {
    std::remove(tmp.c_str());
    throw;
  }
  rename_into_place(tmp, path);
}

}  // namespace

void write_fclib_local(const std::string& path, const FclibMatrix& W, const Eigen::VectorXd& q,
                       const Eigen::VectorXd& mu, const std::string& group_name) {
  write_atomically(
      path, [&](const std::string& tmp) { write_fclib_file(tmp, path, W, q, mu, group_name); });
}

void write_fclib_reference(const std::string& path, const Eigen::VectorXd& r,
                           const Eigen::VectorXd& u, double error) {
  write_atomically(path,
                   [&](const std::string& tmp) { write_reference_file(tmp, path, r, u, error); });
}

}  // namespace granite::io
