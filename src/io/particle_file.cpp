// Particles from a CSV table or a Granite snapshot, read in shares (see particle_file.hpp).
#include "granite/io/particle_file.hpp"

#include "granite/comm/collectives.hpp"
#include "granite/core/error.hpp"
#include "granite/io/input_file.hpp"
#include "granite/parallel/unique_ids.hpp"

#include "hdf5_util.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace granite::io {

namespace {

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

std::vector<std::string> fields_of(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream ss(line);
  for (std::string field; std::getline(ss, field, ',');) fields.push_back(trimmed(field));
  if (!line.empty() && line.back() == ',') fields.push_back("");
  return fields;
}

bool ends_with_csv(std::string path) {
  std::transform(path.begin(), path.end(), path.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return path.size() >= 4 && path.compare(path.size() - 4, 4, ".csv") == 0;
}

const char* const kColumns[] = {"x",  "y",  "z",  "radius", "vx",       "vy",
                                "vz", "wx", "wy", "wz",     "material", "group"};

// A CSV file's columns, from its header line `fields`; `at` ("PATH:LINE: ") names the line.
class CsvColumns {
public:
  CsvColumns(const std::vector<std::string>& fields, const std::string& at) :
      width_(fields.size()) {
    for (std::size_t k = 0; k < fields.size(); ++k) {
      if (std::find(std::begin(kColumns), std::end(kColumns), fields[k]) == std::end(kColumns))
        throw InputError(at + "unknown column '" + shown(fields[k]) +
                         "' (expected x, y, z, radius and optionally vx, vy, vz, wx, wy, wz, "
                         "material, group)");
      if (!column_.emplace(fields[k], k).second)
        throw InputError(at + "column '" + fields[k] + "' appears twice");
    }
    for (const char* required : {"x", "y", "z", "radius"})
      if (!has(required)) throw InputError(at + "the header lacks the column '" + required + "'");
    for (const char* v : {"v", "w"}) {
      const int given = int(has((std::string(v) + "x").c_str())) +
                        int(has((std::string(v) + "y").c_str())) +
                        int(has((std::string(v) + "z").c_str()));
      if (given != 0 && given != 3)
        throw InputError(at + "give all of " + v + "x, " + v + "y, " + v + "z or none");
    }
  }

  /// The row of a data line's `fields`.
  ParticleRow row(const std::vector<std::string>& fields, const std::string& at,
                  const std::vector<std::string>& materials) const {
    if (fields.size() != width_)
      throw InputError(at + "expected " + std::to_string(width_) + " values, got " +
                       std::to_string(fields.size()));
    auto number_of = [&](const char* name) {
      const std::string& field = fields[column_.at(name)];
      char* end = nullptr;
      const double value = std::strtod(field.c_str(), &end);
      if (field.empty() || end != field.c_str() + field.size() || !std::isfinite(value))
        throw InputError(at + name + ": expected a finite number, got '" + shown(field) + "'");
      return value;
    };
    ParticleRow row;
    row.position = Vec3(number_of("x"), number_of("y"), number_of("z"));
    row.radius = number_of("radius");
    if (!(row.radius > 0.0)) throw InputError(at + "radius: expected > 0");
    if (has("vx")) row.velocity = Vec3(number_of("vx"), number_of("vy"), number_of("vz"));
    if (has("wx")) row.angular_velocity = Vec3(number_of("wx"), number_of("wy"), number_of("wz"));
    if (has("material")) {
      const std::string& name = fields[column_.at("material")];
      const auto found = std::find(materials.begin(), materials.end(), name);
      if (found == materials.end())
        throw InputError(at + "material: unknown material '" + shown(name) + "'");
      row.material = int(found - materials.begin());
    }
    if (has("group")) {
      const double g = number_of("group");
      if (g != std::floor(g) || std::abs(g) > 2147483647.0)
        throw InputError(at + "group: expected an integer");
      row.group = std::int32_t(g);
      row.has_group = true;
    }
    return row;
  }

private:
  bool has(const char* name) const { return column_.count(name) > 0; }
  std::map<std::string, std::size_t> column_;  // name -> index in a row
  std::size_t width_;
};

bool is_content(const std::string& content) { return !content.empty() && content[0] != '#'; }

// A CSV file read by byte ranges: the header, then the data lines that start in this rank's
// 1/P of the bytes after it.
class CsvFile {
public:
  explicit CsvFile(const std::string& path) :
      path_(path), in_(path, std::ios::binary), bytes_(size_of(path)) {
    // The header: the first line that is neither blank nor a comment (read by every rank).
    for (std::string line; std::getline(in_, line);) {
      ++header_line_;
      header_ = trimmed(line);
      if (!is_content(header_)) continue;
      data_begin_ = in_.eof() ? bytes_ : std::uint64_t(in_.tellg());
      return;
    }
    throw InputError(path + ": no header line (x, y, z, radius, ...)");
  }
  const std::string& header() const { return header_; }
  std::size_t header_line() const { return header_line_; }

  /// The lines starting in [data_begin + D k/P, data_begin + D (k+1)/P), D the data's bytes.
  std::string share(int k, int parts) {
    const std::uint64_t data = bytes_ - data_begin_;
    const std::uint64_t begin =
        line_start(data_begin_ + data * std::uint64_t(k) / std::uint64_t(parts));
    const std::uint64_t end =
        line_start(data_begin_ + data * std::uint64_t(k + 1) / std::uint64_t(parts));
    std::string text(end - begin, '\0');
    in_.clear();
    in_.seekg(std::streamoff(begin));
    if (!in_.read(text.data(), std::streamsize(text.size())))
      throw InputError(path_ + ": cannot read the particle file (a read error)");
    return text;
  }

private:
  static std::uint64_t size_of(const std::string& path) {
    std::error_code error;
    const std::uintmax_t bytes = std::filesystem::file_size(path, error);
    if (error)
      throw InputError(path + ": cannot read the particle file (" + error.message() +
                       "; a CSV particle file must be a regular file)");
    return bytes;
  }
  // The first line start at or after byte x of the data.
  std::uint64_t line_start(std::uint64_t x) {
    if (x <= data_begin_) return data_begin_;
    if (x >= bytes_) return bytes_;
    in_.clear();
    in_.seekg(std::streamoff(x - 1));
    if (in_.get() == '\n') return x;
    std::string rest;
    std::getline(in_, rest);
    return in_.eof() ? bytes_ : std::uint64_t(in_.tellg());
  }

  std::string path_;
  std::ifstream in_;
  std::uint64_t bytes_;
  std::string header_;
  std::size_t header_line_ = 0;
  std::uint64_t data_begin_ = 0;
};

ParticleShare read_csv(const std::string& path, const std::vector<std::string>& materials,
                       const comm::Communicator& comm) {
  check_input_file(path, "particle file");  // every rank alike, as the header's errors
  CsvFile file(path);
  const CsvColumns columns(fields_of(file.header()),
                           path + ":" + std::to_string(file.header_line()) + ": ");
  std::string message, text;
  try {
    text = file.share(comm.rank(), comm.size());
  } catch (const InputError& e) {
    message = e.what();
  }
  comm::throw_if_any_failed(message, comm);
  // The line numbers: the lines of the lower ranks' shares come first.
  const auto lines = std::int64_t(std::count(text.begin(), text.end(), '\n'));
  std::size_t number = file.header_line() + std::size_t(comm::exclusive_prefix_sum(lines, comm));
  ParticleShare share;
  std::istringstream in(text);
  try {
    for (std::string line; std::getline(in, line);) {
      ++number;
      const std::string content = trimmed(line);
      if (!is_content(content)) continue;
      share.rows.push_back(
          columns.row(fields_of(content), path + ":" + std::to_string(number) + ": ", materials));
    }
  } catch (const InputError& e) {
    message = e.what();
  }
  // The lowest failing rank's line is the file's first bad one.
  comm::throw_if_any_failed(message, comm);
  const auto count = std::int64_t(share.rows.size());
  const std::int64_t first = comm::exclusive_prefix_sum(count, comm);
  for (std::int64_t k = 0; k < count; ++k) share.index.push_back(first + k);
  share.total = comm::sum(count, comm);
  share.rows_read = count;
  return share;
}

// Rows [first, first + count) of /particles/NAME, an (N) or (N, columns) dataset; empty if it
// is absent and not `required`.
template <class T>
std::vector<T> dataset(hid_t file, const char* name, hid_t type, hsize_t rows, hsize_t columns,
                       bool required, hsize_t first, hsize_t count) {
  const std::string path = std::string("/particles/") + name;
  std::vector<T> values;
  if (!required && H5Lexists(file, path.c_str(), H5P_DEFAULT) <= 0) return values;
  detail::Handle set = detail::open_dataset(file, path);
  detail::expect_shape(set.get(), path, rows, columns);
  detail::read_rows(set.get(), path, type, columns, first, count, values);
  return values;
}

std::string cannot_read_snapshot(const std::string& path, const std::string& why) {
  return path + ": cannot read particles from this Granite snapshot or checkpoint (" + why + ")";
}

ParticleShare read_hdf5(const std::string& path, std::size_t material_count,
                        std::size_t shape_count, const comm::Communicator& comm) {
  detail::SilenceHdf5Errors silence;
  ParticleShare share;
  std::vector<std::int64_t> id;
  std::string message;
  try {
    detail::Handle file = detail::open_file(path);
    const hid_t f = file.get();
    detail::Handle ids = detail::open_dataset(f, "/particles/id");
    const std::vector<hsize_t> dims = detail::shape_of(ids.get(), "/particles/id");
    if (dims.size() != 1) throw InputError("dataset /particles/id is not one-dimensional");
    const hsize_t n = dims[0];
    const hsize_t first = n * hsize_t(comm.rank()) / hsize_t(comm.size());
    const hsize_t count = n * hsize_t(comm.rank() + 1) / hsize_t(comm.size()) - first;
    share.total = std::int64_t(n);
    share.rows_read = std::int64_t(count);
    auto read = [&]<class T>(const char* name, hid_t type, hsize_t columns, bool required, T) {
      return dataset<T>(f, name, type, n, columns, required, first, count);
    };
    id = read("id", H5T_NATIVE_INT64, 1, true, std::int64_t());
    const auto x = read("position", H5T_NATIVE_DOUBLE, 3, true, 0.0);
    const auto r = read("radius", H5T_NATIVE_DOUBLE, 1, true, 0.0);
    const auto v = read("velocity", H5T_NATIVE_DOUBLE, 3, false, 0.0);
    const auto w = read("angular_velocity", H5T_NATIVE_DOUBLE, 3, false, 0.0);
    const auto q = read("orientation", H5T_NATIVE_DOUBLE, 4, false, 0.0);
    const auto m = read("material", H5T_NATIVE_UINT32, 1, false, std::uint32_t());
    const auto g = read("group", H5T_NATIVE_INT32, 1, false, std::int32_t());
    const auto s = read("shape", H5T_NATIVE_INT32, 1, false, std::int32_t());
    for (std::size_t i = 0; i < std::size_t(count); ++i) {
      ParticleRow row;
      row.position = Vec3(x[3 * i], x[3 * i + 1], x[3 * i + 2]);
      row.radius = r[i];
      if (!v.empty()) row.velocity = Vec3(v[3 * i], v[3 * i + 1], v[3 * i + 2]);
      if (!w.empty()) row.angular_velocity = Vec3(w[3 * i], w[3 * i + 1], w[3 * i + 2]);
      if (!q.empty()) row.orientation = Quat(q[4 * i], q[4 * i + 1], q[4 * i + 2], q[4 * i + 3]);
      const std::string which = "particle id " + std::to_string(id[i]);
      if (!row.position.allFinite() || !row.velocity.allFinite() ||
          !row.angular_velocity.allFinite() || !row.orientation.coeffs().allFinite())
        throw InputError(which + " has a non-finite state");
      if (!(row.radius > 0.0))
        throw InputError(which + " has radius " + std::to_string(row.radius));
      if (!m.empty()) {
        if (m[i] >= material_count)
          throw InputError(which + " has material " + std::to_string(m[i]) +
                           " but the configuration defines " + std::to_string(material_count));
        row.material = int(m[i]);
      }
      if (!g.empty()) {
        row.group = g[i];
        row.has_group = true;
      }
      if (!s.empty() && s[i] != -1) {
        if (s[i] < 0 || std::size_t(s[i]) >= shape_count)
          throw InputError(which + " has shape " + std::to_string(s[i]) +
                           " but the configuration defines " + std::to_string(shape_count) +
                           " shapes (a shaped particle keeps its index into `shapes`)");
        row.shape = s[i];
      }
      share.rows.push_back(row);
    }
  } catch (const std::exception& e) {  // InputError, or an HDF5 failure (a wrong type, ...)
    message = cannot_read_snapshot(path, e.what());
    id.clear();
  }
  comm::throw_if_any_failed(message, comm);
  parallel::IdOrder order = parallel::id_order(id, comm);
  if (order.duplicate)
    throw InputError(cannot_read_snapshot(path, "particle id " + std::to_string(*order.duplicate) +
                                                    " appears twice"));
  share.index = std::move(order.place);
  return share;
}

}  // namespace

ParticleShare read_particle_file(const std::string& path, const std::vector<std::string>& materials,
                                 std::size_t shape_count, const comm::Communicator& comm) {
  if (ends_with_csv(path)) return read_csv(path, materials, comm);
  check_input_file(path, "particle file");
  return read_hdf5(path, materials.size(), shape_count, comm);
}

}  // namespace granite::io
