// Particles from a CSV table or a Granite snapshot (see particle_file.hpp).
#include "granite/io/particle_file.hpp"

#include "granite/core/error.hpp"
#include "granite/io/input_file.hpp"

#include "hdf5_util.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <numeric>
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

std::vector<ParticleRow> read_csv(const std::string& path,
                                  const std::vector<std::string>& materials) {
  const std::string text = read_input_file(path, "particle file");
  std::istringstream in(text);
  std::map<std::string, std::size_t> column;  // name -> index in a row
  std::size_t width = 0;
  std::vector<ParticleRow> rows;
  std::size_t number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    const std::string content = trimmed(line);
    if (content.empty() || content[0] == '#') continue;
    const std::string at = path + ":" + std::to_string(number) + ": ";
    const std::vector<std::string> fields = fields_of(content);
    if (column.empty()) {  // the header
      for (std::size_t k = 0; k < fields.size(); ++k) {
        if (std::find(std::begin(kColumns), std::end(kColumns), fields[k]) == std::end(kColumns))
          throw InputError(at + "unknown column '" + shown(fields[k]) +
                           "' (expected x, y, z, radius and optionally vx, vy, vz, wx, wy, wz, "
                           "material, group)");
        if (!column.emplace(fields[k], k).second)
          throw InputError(at + "column '" + fields[k] + "' appears twice");
      }
      for (const char* required : {"x", "y", "z", "radius"})
        if (!column.count(required))
          throw InputError(at + "the header lacks the column '" + required + "'");
      for (const char* v : {"v", "w"}) {
        const int given = int(column.count(std::string(v) + "x")) +
                          int(column.count(std::string(v) + "y")) +
                          int(column.count(std::string(v) + "z"));
        if (given != 0 && given != 3)
          throw InputError(at + "give all of " + v + "x, " + v + "y, " + v + "z or none");
      }
      width = fields.size();
      continue;
    }
    if (fields.size() != width)
      throw InputError(at + "expected " + std::to_string(width) + " values, got " +
                       std::to_string(fields.size()));
    auto number_of = [&](const char* name) {
      const std::string& field = fields[column.at(name)];
      char* end = nullptr;
      const double value = std::strtod(field.c_str(), &end);
      if (field.empty() || end != field.c_str() + field.size() || !std::isfinite(value))
        throw InputError(at + name + ": expected a finite number, got '" + shown(field) + "'");
      return value;
    };
    auto has = [&](const char* name) { return column.count(name) > 0; };
    ParticleRow row;
    row.position = Vec3(number_of("x"), number_of("y"), number_of("z"));
    row.radius = number_of("radius");
    if (!(row.radius > 0.0)) throw InputError(at + "radius: expected > 0");
    if (has("vx")) row.velocity = Vec3(number_of("vx"), number_of("vy"), number_of("vz"));
    if (has("wx")) row.angular_velocity = Vec3(number_of("wx"), number_of("wy"), number_of("wz"));
    if (has("material")) {
      const std::string& name = fields[column.at("material")];
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
    rows.push_back(row);
  }
  if (column.empty()) throw InputError(path + ": no header line (x, y, z, radius, ...)");
  return rows;
}

template <class T>
std::vector<T> dataset(hid_t file, const char* name, hid_t type, hsize_t rows, hsize_t columns,
                       bool required) {
  const std::string path = std::string("/particles/") + name;
  std::vector<T> values;
  if (!required && H5Lexists(file, path.c_str(), H5P_DEFAULT) <= 0) return values;
  detail::Handle set = detail::open_dataset(file, path);
  detail::expect_shape(set.get(), path, rows, columns);
  detail::read_rows(set.get(), path, type, columns, 0, rows, values);
  return values;
}

std::vector<ParticleRow> read_hdf5(const std::string& path, std::size_t material_count,
                                   std::size_t shape_count) {
  detail::SilenceHdf5Errors silence;
  try {
    detail::Handle file = detail::open_file(path);
    const hid_t f = file.get();
    detail::Handle ids = detail::open_dataset(f, "/particles/id");
    const std::vector<hsize_t> dims = detail::shape_of(ids.get(), "/particles/id");
    if (dims.size() != 1) throw InputError("dataset /particles/id is not one-dimensional");
    const hsize_t n = dims[0];
    const auto id = dataset<std::int64_t>(f, "id", H5T_NATIVE_INT64, n, 1, true);
    const auto x = dataset<double>(f, "position", H5T_NATIVE_DOUBLE, n, 3, true);
    const auto r = dataset<double>(f, "radius", H5T_NATIVE_DOUBLE, n, 1, true);
    const auto v = dataset<double>(f, "velocity", H5T_NATIVE_DOUBLE, n, 3, false);
    const auto w = dataset<double>(f, "angular_velocity", H5T_NATIVE_DOUBLE, n, 3, false);
    const auto q = dataset<double>(f, "orientation", H5T_NATIVE_DOUBLE, n, 4, false);
    const auto m = dataset<std::uint32_t>(f, "material", H5T_NATIVE_UINT32, n, 1, false);
    const auto g = dataset<std::int32_t>(f, "group", H5T_NATIVE_INT32, n, 1, false);
    const auto s = dataset<std::int32_t>(f, "shape", H5T_NATIVE_INT32, n, 1, false);
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return id[a] < id[b]; });
    std::vector<ParticleRow> rows;
    for (const std::size_t i : order) {
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
                           " but the "
                           "configuration defines " +
                           std::to_string(material_count));
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
      rows.push_back(row);
    }
    return rows;
  } catch (const std::exception& e) {  // InputError, or an HDF5 failure (a wrong type, ...)
    throw InputError(path + ": cannot read particles from this Granite snapshot or checkpoint (" +
                     e.what() + ")");
  }
}

}  // namespace

std::vector<ParticleRow> read_particle_file(const std::string& path,
                                            const std::vector<std::string>& materials,
                                            std::size_t shape_count) {
  if (ends_with_csv(path)) return read_csv(path, materials);
  check_input_file(path, "particle file");
  return read_hdf5(path, materials.size(), shape_count);
}

}  // namespace granite::io
