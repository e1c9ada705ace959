// Triangle meshes from STL and OBJ files (see include/granite/io/mesh_file.hpp).
#include "granite/io/mesh_file.hpp"

#include "granite/core/error.hpp"
#include "granite/io/input_file.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <string_view>
#include <unordered_map>

namespace granite::io {

namespace {

constexpr std::size_t kMaxVertices = std::numeric_limits<std::int32_t>::max();

// Error messages "PATH (WHAT): reason", "PATH (WHAT): line N: reason".
struct Context {
  std::string prefix;
  [[noreturn]] void fail(const std::string& reason) const { throw InputError(prefix + reason); }
  [[noreturn]] void fail_at(std::size_t line, const std::string& reason) const {
    fail("line " + std::to_string(line) + ": " + reason);
  }
};

// A token of the file as messages quote it: short, without control characters.
std::string quoted(std::string_view token) {
  std::string out(1, '\'');  // not "'" + ...: GCC 12 warns falsely (-Wrestrict) on that
  out += printable(shown(token, 40));
  return out += '\'';
}

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char ch) { return char(std::tolower(ch)); });
  return out;
}

// The lines of a text (LF or CRLF), each split into whitespace-separated tokens.
class Lines {
public:
  explicit Lines(std::string_view text) : rest_(text) {}
  // The next line's tokens; false after the last line.
  bool next(std::vector<std::string_view>& tokens) {
    if (rest_.empty()) return false;
    const std::size_t end = rest_.find('\n');
    const std::string_view line = rest_.substr(0, end);
    rest_ = end == std::string_view::npos ? std::string_view() : rest_.substr(end + 1);
    ++number_;
    tokens.clear();
    constexpr std::string_view space = " \t\r\v\f";
    for (std::size_t at = line.find_first_not_of(space); at != std::string_view::npos;
         at = line.find_first_not_of(space, at)) {
      const std::size_t stop = line.find_first_of(space, at);
      tokens.push_back(line.substr(at, stop - at));
      at = stop;
    }
    return true;
  }
  std::size_t number() const { return number_; }

private:
  std::string_view rest_;
  std::size_t number_ = 0;
};

// A finite coordinate of `owner` ("facet 3", "vertex 7") at line LINE; from_chars reads the
// same in every locale; a leading '+' is allowed.
double coordinate(std::string_view token, std::size_t line, const std::string& owner,
                  const Context& c) {
  std::string_view digits = token;
  if (digits.size() > 1 && digits[0] == '+' && digits[1] != '-' && digits[1] != '+')
    digits.remove_prefix(1);
  double value = 0.0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error == std::errc::result_out_of_range)
    c.fail_at(line, owner + ": coordinate " + quoted(token) + " is out of the range of a double");
  if (error != std::errc() || end != digits.data() + digits.size())
    c.fail_at(line, owner + ": " + quoted(token) + " is not a number");
  if (!std::isfinite(value))
    c.fail_at(line, owner + ": coordinate " + quoted(token) + " is not finite");
  return value;
}

void add_vertex(TriangleMesh& mesh, const Vec3& v, const Context& c) {
  if (mesh.vertices.size() == kMaxVertices)
    c.fail("more than " + std::to_string(kMaxVertices) + " vertices");
  mesh.vertices.push_back(v);
}

// --- binary STL: an 80-byte header, a uint32 n, then n facets of 50 bytes (normal, 3 vertices
// as little-endian floats, a 2-byte attribute) -----------------------------------------------

std::uint32_t u32_at(std::string_view data, std::size_t at) {
  const auto* b = reinterpret_cast<const unsigned char*>(data.data() + at);
  return std::uint32_t(b[0]) | std::uint32_t(b[1]) << 8 | std::uint32_t(b[2]) << 16 |
         std::uint32_t(b[3]) << 24;
}

// An ASCII file cannot pass this: its bytes 80-83 make n >= 0x09090909, i.e. gigabytes.
bool binary_stl_size_matches(std::string_view data) {
  return data.size() >= 84 && 84 + 50 * std::uint64_t(u32_at(data, 80)) == data.size();
}

TriangleMesh read_binary_stl(std::string_view data, const Context& c) {
  if (data.size() < 84)
    c.fail("neither a binary STL (" + std::to_string(data.size()) +
           " bytes, fewer than its 84-byte header) nor an ASCII STL (no 'solid' at the start)");
  // Checked before anything of size n is allocated.
  const std::uint64_t n = u32_at(data, 80);
  if (!binary_stl_size_matches(data))
    c.fail("binary STL declares " + std::to_string(n) + " triangles but the file holds " +
           std::to_string((data.size() - 84) / 50) + " (" + std::to_string(data.size()) +
           " bytes, expected 84 + 50 per triangle)");
  if (n == 0) c.fail("binary STL holds no triangle");
  if (3 * n > kMaxVertices) c.fail("binary STL has too many triangles (" + std::to_string(n) + ")");
  TriangleMesh mesh;
  mesh.vertices.reserve(3 * n);
  mesh.triangles.reserve(n);
  for (std::size_t f = 0; f < n; ++f) {
    const std::size_t at = 84 + 50 * f + 12;  // the normal is ignored
    for (std::size_t k = 0; k < 3; ++k) {
      Vec3 v;
      for (std::size_t d = 0; d < 3; ++d)
        v[d] = std::bit_cast<float>(u32_at(data, at + 12 * k + 4 * d));
      if (!v.allFinite())
        c.fail("facet " + std::to_string(f + 1) + " of " + std::to_string(n) + ": vertex " +
               std::to_string(k + 1) + " has a non-finite coordinate (" + std::to_string(v[0]) +
               " " + std::to_string(v[1]) + " " + std::to_string(v[2]) + ")");
      mesh.vertices.push_back(v);
    }
    const auto i = std::int32_t(3 * f);
    mesh.triangles.push_back({i, i + 1, i + 2});
  }
  return mesh;
}

// --- ASCII STL: solid / facet normal ... / outer loop / vertex x y z (3 times) / endloop /
// endfacet / ... / endsolid, possibly several solids --------------------------------------

TriangleMesh read_ascii_stl(std::string_view text, const Context& c) {
  enum class State { outside, solid, facet, loop, after_loop };
  TriangleMesh mesh;
  State state = State::outside;
  std::size_t corners = 0;  // vertices of the current facet
  Lines lines(text);
  std::vector<std::string_view> t;
  while (lines.next(t)) {
    if (t.empty()) continue;
    const std::size_t line = lines.number();
    const std::string keyword = lower(t[0]);
    const auto facet = [&] { return "facet " + std::to_string(mesh.triangles.size() + 1); };
    auto expected = [&](const char* wanted) {
      c.fail_at(line, std::string("expected ") + wanted + ", got " + quoted(t[0]));
    };
    switch (state) {
    case State::outside:
      if (keyword != "solid") expected("'solid' or the end of the file");
      state = State::solid;
      break;
    case State::solid:
      if (keyword == "endsolid") {
        state = State::outside;
      } else if (keyword == "facet") {  // its normal is ignored
        state = State::facet;
        corners = 0;
      } else {
        expected("'facet' or 'endsolid'");
      }
      break;
    case State::facet:
      if (keyword != "outer" || t.size() < 2 || lower(t[1]) != "loop") expected("'outer loop'");
      state = State::loop;
      break;
    case State::loop:
      if (keyword == "vertex") {
        if (corners == 3) c.fail_at(line, facet() + " has more than 3 vertices");
        if (t.size() != 4) c.fail_at(line, facet() + ": expected 'vertex x y z'");
        add_vertex(mesh,
                   {coordinate(t[1], line, facet(), c), coordinate(t[2], line, facet(), c),
                    coordinate(t[3], line, facet(), c)},
                   c);
        ++corners;
      } else if (keyword == "endloop") {
        if (corners != 3)
          c.fail_at(line, facet() + " has " + std::to_string(corners) + " vertices, expected 3");
        const auto i = std::int32_t(mesh.vertices.size() - 3);
        mesh.triangles.push_back({i, i + 1, i + 2});
        state = State::after_loop;
      } else {
        expected("'vertex' or 'endloop'");
      }
      break;
    case State::after_loop:
      if (keyword != "endfacet") expected("'endfacet'");
      state = State::solid;
      break;
    }
  }
  if (state != State::outside)
    c.fail_at(lines.number(), "the ASCII STL ends without 'endsolid' (a truncated file?)");
  if (mesh.triangles.empty()) c.fail("ASCII STL holds no facet");
  return mesh;
}

// --- Wavefront OBJ ------------------------------------------------------------------------------

TriangleMesh read_obj(std::string_view text, const Context& c) {
  TriangleMesh mesh;
  Lines lines(text);
  std::vector<std::string_view> t;
  std::vector<std::int32_t> face;
  while (lines.next(t)) {
    const auto comment = std::find_if(t.begin(), t.end(), [](auto s) { return s[0] == '#'; });
    t.erase(comment, t.end());
    if (t.empty()) continue;
    const std::size_t line = lines.number();
    if (t[0] == "v") {  // v x y z, then maybe w or a colour r g b (ignored)
      const std::string vertex = "vertex " + std::to_string(mesh.vertices.size() + 1);
      if (t.size() < 4 || t.size() > 8) c.fail_at(line, vertex + ": expected 'v x y z'");
      for (std::size_t k = 4; k < t.size(); ++k) coordinate(t[k], line, vertex, c);
      add_vertex(mesh,
                 {coordinate(t[1], line, vertex, c), coordinate(t[2], line, vertex, c),
                  coordinate(t[3], line, vertex, c)},
                 c);
    } else if (t[0] == "f") {  // f a b c ..., each a, a/b, a/b/c or a//c
      if (t.size() < 4) c.fail_at(line, "a face needs at least 3 vertices");
      face.clear();
      const auto count = std::int64_t(mesh.vertices.size());
      for (std::size_t k = 1; k < t.size(); ++k) {
        const std::string_view ref = t[k].substr(0, t[k].find('/'));
        std::int64_t index = 0;
        const auto [end, error] = std::from_chars(ref.data(), ref.data() + ref.size(), index);
        if (error != std::errc() || end != ref.data() + ref.size() || ref.empty())
          c.fail_at(line, quoted(t[k]) + " is not a vertex reference");
        if (index == 0) c.fail_at(line, "vertex index 0 (OBJ indices start at 1)");
        const std::int64_t resolved = index > 0 ? index - 1 : count + index;
        if (resolved < 0 || resolved >= count)
          c.fail_at(line, "vertex index " + std::to_string(index) + " is out of range (" +
                              std::to_string(count) + " vertices above this line)");
        face.push_back(std::int32_t(resolved));
      }
      for (std::size_t k = 1; k + 1 < face.size(); ++k)  // a fan around the first vertex
        mesh.triangles.push_back({face[0], face[k], face[k + 1]});
    }  // vn, vt, o, g, s, usemtl, mtllib, l, ... are ignored
  }
  if (mesh.vertices.empty()) c.fail("OBJ holds no vertex ('v' line)");
  return mesh;
}

bool starts_with_solid(std::string_view data) {
  const std::size_t first = data.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && lower(data.substr(first, 5)) == "solid";
}

}  // namespace

TriangleMesh read_mesh_file(const std::string& path, const std::string& what) {
  const std::string data = read_input_file(path, "mesh file of " + what);
  const Context c{path + " (" + what + "): "};
  if (lower(std::string_view(path).substr(std::max<std::size_t>(path.size(), 4) - 4)) == ".obj")
    return read_obj(data, c);
  // Some binary STLs start with "solid" in their header: the size rule decides first.
  if (!binary_stl_size_matches(data) && starts_with_solid(data) &&
      data.find('\0') == std::string::npos)
    return read_ascii_stl(data, c);
  return read_binary_stl(data, c);
}

void merge_equal_vertices(TriangleMesh& mesh) {
  using Key = std::array<std::uint64_t, 3>;  // the bit patterns of x, y, z
  struct Hash {
    static std::uint64_t mix(std::uint64_t x) {  // splitmix64's finalizer
      x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
      x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
      return x ^ (x >> 31);
    }
    std::size_t operator()(const Key& k) const { return mix(k[0] ^ mix(k[1] ^ mix(k[2]))); }
  };
  std::unordered_map<Key, std::int32_t, Hash> first;  // key -> merged index
  first.reserve(mesh.vertices.size());
  std::vector<std::int32_t> merged_index(mesh.vertices.size());
  std::vector<Vec3> merged;
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i) {
    const Vec3& v = mesh.vertices[i];
    const Key key{std::bit_cast<std::uint64_t>(v[0]), std::bit_cast<std::uint64_t>(v[1]),
                  std::bit_cast<std::uint64_t>(v[2])};
    const auto [at, inserted] = first.emplace(key, std::int32_t(merged.size()));
    if (inserted) merged.push_back(v);
    merged_index[i] = at->second;
  }
  for (auto& triangle : mesh.triangles)
    for (auto& corner : triangle) corner = merged_index[std::size_t(corner)];
  mesh.vertices = std::move(merged);
}

}  // namespace granite::io
