// Triangle meshes from binary and ASCII STL and from OBJ: a unit cube in each format read back
// exactly, and one-line errors naming the file, its role and what is wrong.
#include "granite/io/mesh_file.hpp"

#include "granite/core/error.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

using granite::InputError;
using granite::Vec3;
using granite::io::merge_equal_vertices;
using granite::io::read_mesh_file;
using granite::io::TriangleMesh;

namespace {

const char* const kWhat = "convex shape 'grain'";

// The cube [0, edge]^3 as 6 outward quads (OBJ numbering, from 1) of these corners.
const int kQuads[6][4] = {{1, 4, 3, 2}, {5, 6, 7, 8}, {1, 2, 6, 5},
                          {4, 8, 7, 3}, {1, 5, 8, 4}, {2, 3, 7, 6}};
Vec3 corner(int number, double edge) {
  const int xy[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                        {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  const int* c = xy[number - 1];
  return Vec3(c[0] * edge, c[1] * edge, c[2] * edge);
}

// The cube's 12 facets, each quad split as (0 1 2), (0 2 3).
std::vector<std::array<Vec3, 3>> cube_facets(double edge) {
  std::vector<std::array<Vec3, 3>> facets;
  for (const auto& q : kQuads)
    for (int k = 1; k <= 2; ++k)
      facets.push_back({corner(q[0], edge), corner(q[k], edge), corner(q[k + 1], edge)});
  return facets;
}

void put_u32(std::string& out, std::uint32_t value) {
  for (int k = 0; k < 4; ++k) out.push_back(char((value >> (8 * k)) & 0xff));
}
void put_float(std::string& out, float value) { put_u32(out, std::bit_cast<std::uint32_t>(value)); }

// A binary STL of FACETS with an 80-byte HEADER; `declared` overrides the triangle count.
std::string binary_stl(const std::vector<std::array<Vec3, 3>>& facets,
                       const std::string& header = "granite test cube",
                       std::int64_t declared = -1) {
  std::string out = header;
  out.resize(80, ' ');
  put_u32(out, std::uint32_t(declared >= 0 ? declared : std::int64_t(facets.size())));
  for (const auto& f : facets) {
    for (int d = 0; d < 3; ++d) put_float(out, 0.0f);  // a zero normal, as many files have
    for (const Vec3& v : f)
      for (int d = 0; d < 3; ++d) put_float(out, float(v[d]));
    out += std::string(2, '\0');
  }
  return out;
}

// Sum of the signed tetrahedron volumes: the cube's volume if the triangles are its closed,
// outward surface.
double volume(const TriangleMesh& mesh) {
  double sum = 0.0;
  for (const auto& t : mesh.triangles)
    sum += mesh.vertices[t[0]].dot(mesh.vertices[t[1]].cross(mesh.vertices[t[2]])) / 6.0;
  return sum;
}

// Checks the cube read from an STL (3 vertices per facet in file order), then merged.
void expect_stl_cube(TriangleMesh mesh, double edge) {
  const auto facets = cube_facets(edge);
  ASSERT_EQ(mesh.vertices.size(), 36u);
  ASSERT_EQ(mesh.triangles.size(), 12u);
  for (std::size_t f = 0; f < 12; ++f)
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(mesh.triangles[f][k], std::int32_t(3 * f + k));
      EXPECT_EQ(mesh.vertices[3 * f + k], facets[f][k]) << "facet " << f << " vertex " << k;
    }
  merge_equal_vertices(mesh);
  ASSERT_EQ(mesh.vertices.size(), 8u);
  ASSERT_EQ(mesh.triangles.size(), 12u);
  for (std::size_t f = 0; f < 12; ++f)
    for (int k = 0; k < 3; ++k)
      EXPECT_EQ(mesh.vertices.at(std::size_t(mesh.triangles[f][k])), facets[f][k]);
  // The order of first appearance: facet 0 gives corners 1, 4, 3, facet 1 adds corner 2.
  EXPECT_EQ(mesh.vertices[0], corner(1, edge));
  EXPECT_EQ(mesh.vertices[1], corner(4, edge));
  EXPECT_EQ(mesh.vertices[2], corner(3, edge));
  EXPECT_EQ(mesh.vertices[3], corner(2, edge));
  EXPECT_NEAR(volume(mesh), edge * edge * edge, 1e-12 * edge * edge * edge);
}

class MeshFile : public ::testing::Test {
protected:
  void SetUp() override {
    // One directory per test: ctest runs the tests in parallel processes.
    dir_ = std::filesystem::path(::testing::TempDir()) /
           (std::string("granite_mesh_file_") +
            ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_" +
            std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& bytes) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  // The InputError of reading PATH; expects one line naming the file and its role.
  static std::string error_of(const std::string& path) {
    try {
      read_mesh_file(path, kWhat);
    } catch (const InputError& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find(path), std::string::npos) << message;
      EXPECT_NE(message.find(kWhat), std::string::npos) << message;
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
      return message;
    }
    return "(no error)";
  }
  // Expects reading a file NAME of BYTES to fail with a message containing REASON.
  void expect_error(const std::string& name, const std::string& bytes, const std::string& reason) {
    const std::string message = error_of(write(name, bytes));
    EXPECT_NE(message.find(reason), std::string::npos) << "expected '" << reason << "' in\n"
                                                       << message;
  }

  std::filesystem::path dir_;
};

// An ASCII STL cube with CRLF line ends, indentation, trailing blanks, mixed-case keywords and
// every coordinate written in one of several notations.
std::string ascii_cube(double edge) {
  const char* zero[] = {"0", "0.0", "+0e0", "0.000E+00"};
  const char* one[] = {"1.0e-3", "0.001", "1E-3", "+1.000e-03"};
  std::string text = "solid cube exported by hand  \r\n";
  int k = 0;
  for (const auto& f : cube_facets(edge)) {
    text += "  facet normal 0 0 0\r\n    OUTER LOOP\r\n";
    for (const Vec3& v : f) {
      text += "\tvertex";
      for (int d = 0; d < 3; ++d) text += std::string(" ") + (v[d] == 0 ? zero : one)[k++ % 4];
      text += " \r\n";
    }
    text += "    endloop\r\n  EndFacet\r\n";
  }
  return text + "endsolid cube\r\n\r\n";
}

const char* const kObjCube = "# a cube of quads\n"
                             "mtllib cube.mtl\n"
                             "o cube\n"
                             "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"
                             "v 0 0 1 1.0\nv 1 0 1\r\nv 1 1 1\nv 0 1 1 0.5 0.5 0.5\n"
                             "vt 0 0\nvn 0 0 1\ng sides\nusemtl stone\ns off\n"
                             "f 1 4 3 2\n"
                             "f 5/1 6/1 7/1 8/1\n"
                             "  f 1/1/1 2/1/1 6/1/1 5/1/1  \n"
                             "f 4//1 8//1 7//1 3//1\n"
                             "f 1 5 8 4 # left\n"
                             "f -7 -6 -2 -3\n";

}  // namespace

TEST_F(MeshFile, BinaryStlCubeReadsExactlyAndMergesToEightVertices) {
  expect_stl_cube(read_mesh_file(write("cube.stl", binary_stl(cube_facets(1.0))), kWhat), 1.0);
}

TEST_F(MeshFile, BinaryStlWhoseHeaderStartsWithSolidIsBinary) {
  const std::string bytes = binary_stl(cube_facets(1.0), "solid cube, binary");
  ASSERT_EQ(bytes.compare(0, 5, "solid"), 0);
  expect_stl_cube(read_mesh_file(write("cube.stl", bytes), kWhat), 1.0);
}

TEST_F(MeshFile, AsciiStlCubeWithCrlfAndScientificNotation) {
  expect_stl_cube(read_mesh_file(write("cube.STL", ascii_cube(1.0e-3)), kWhat), 1.0e-3);
}

TEST_F(MeshFile, AsciiStlMaySpanSeveralSolids) {
  const std::string text = ascii_cube(1.0e-3);
  const TriangleMesh mesh = read_mesh_file(write("twice.stl", text + text), kWhat);
  EXPECT_EQ(mesh.vertices.size(), 72u);
  EXPECT_EQ(mesh.triangles.size(), 24u);
  EXPECT_EQ(mesh.triangles[23], (std::array<std::int32_t, 3>{69, 70, 71}));
}

TEST_F(MeshFile, ObjCubeOfQuadsIsFanTriangulated) {
  TriangleMesh mesh = read_mesh_file(write("cube.obj", kObjCube), kWhat);
  ASSERT_EQ(mesh.vertices.size(), 8u);
  for (int k = 1; k <= 8; ++k) EXPECT_EQ(mesh.vertices[std::size_t(k - 1)], corner(k, 1.0));
  ASSERT_EQ(mesh.triangles.size(), 12u);
  using T = std::array<std::int32_t, 3>;
  EXPECT_EQ(mesh.triangles[0], (T{0, 3, 2}));
  EXPECT_EQ(mesh.triangles[1], (T{0, 2, 1}));
  EXPECT_EQ(mesh.triangles[6], (T{3, 7, 6}));   // 4//1 8//1 7//1
  EXPECT_EQ(mesh.triangles[10], (T{1, 2, 6}));  // -7 -6 -2 -3 with 8 vertices
  EXPECT_EQ(mesh.triangles[11], (T{1, 6, 5}));
  EXPECT_DOUBLE_EQ(volume(mesh), 1.0);
  merge_equal_vertices(mesh);  // nothing to merge
  EXPECT_EQ(mesh.vertices.size(), 8u);
  EXPECT_EQ(mesh.triangles[11], (T{1, 6, 5}));
}

TEST_F(MeshFile, ObjExtensionInAnyCase) {
  EXPECT_EQ(read_mesh_file(write("cube.OBJ", kObjCube), kWhat).triangles.size(), 12u);
}

TEST_F(MeshFile, ObjWithVerticesOnlyHasNoTriangles) {
  const TriangleMesh mesh = read_mesh_file(write("points.obj", "v 1 2 3\nv 4 5 6\n"), kWhat);
  ASSERT_EQ(mesh.vertices.size(), 2u);
  EXPECT_EQ(mesh.vertices[1], Vec3(4, 5, 6));
  EXPECT_TRUE(mesh.triangles.empty());
}

TEST_F(MeshFile, MergeKeepsSignedZerosApartAndFirstAppearanceOrder) {
  TriangleMesh mesh;
  mesh.vertices = {Vec3(1, 2, 3), Vec3(0.0, 0, 0), Vec3(-0.0, 0, 0), Vec3(1, 2, 3)};
  mesh.triangles = {{3, 2, 1}, {0, 1, 2}};
  merge_equal_vertices(mesh);
  ASSERT_EQ(mesh.vertices.size(), 3u);
  EXPECT_TRUE(std::signbit(mesh.vertices[2][0]));
  EXPECT_EQ(mesh.triangles[0], (std::array<std::int32_t, 3>{0, 2, 1}));
  EXPECT_EQ(mesh.triangles[1], (std::array<std::int32_t, 3>{0, 1, 2}));
}

// --- errors ------------------------------------------------------------------------------------

TEST_F(MeshFile, MissingDirectoryAndEmptyFiles) {
  const std::string missing = (dir_ / "missing.stl").string();
  EXPECT_NE(error_of(missing).find("no such file"), std::string::npos);
  std::filesystem::create_directory(dir_ / "folder.stl");
  EXPECT_NE(error_of((dir_ / "folder.stl").string()).find("it is a directory"), std::string::npos);
  expect_error("empty.stl", "", "is empty");
  expect_error("empty.obj", "", "is empty");
}

TEST_F(MeshFile, BinaryStlDeclaringMoreTrianglesThanItHoldsIsRefusedBeforeAllocating) {
  const auto ten = std::vector<std::array<Vec3, 3>>(10, cube_facets(1.0)[0]);
  expect_error("huge.stl", binary_stl(ten, "granite", 1000000000),
               "binary STL declares 1000000000 triangles but the file holds 10 (584 bytes");
}

TEST_F(MeshFile, BinaryStlErrors) {
  const std::string cube = binary_stl(cube_facets(1.0));
  expect_error("cut.stl", cube.substr(0, cube.size() - 1),
               "binary STL declares 12 triangles but the file holds 11");
  // A truncated binary file with "solid" in its header is still reported as binary.
  const std::string solid = binary_stl(cube_facets(1.0), "solid x");
  expect_error("cut_solid.stl", solid.substr(0, solid.size() - 50),
               "binary STL declares 12 triangles but the file holds 11");
  expect_error("short.stl", "hello", "fewer than its 84-byte header");
  expect_error("none.stl", binary_stl({}), "binary STL holds no triangle");
  auto facets = cube_facets(1.0);
  facets[1][2][1] = std::numeric_limits<double>::quiet_NaN();
  expect_error("nan.stl", binary_stl(facets), "facet 2 of 12: vertex 3 has a non-finite");
  facets = cube_facets(1.0);
  facets[11][0][2] = std::numeric_limits<double>::infinity();
  expect_error("inf.stl", binary_stl(facets), "facet 12 of 12: vertex 1 has a non-finite");
}

TEST_F(MeshFile, AsciiStlErrorsGiveTheLine) {
  const std::string head = "solid s\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n";
  const std::string tail = "endloop\nendfacet\nendsolid s\n";
  expect_error("ok_then_junk.stl", head + "vertex 0 1 0\n" + tail + "more\n",
               "line 10: expected 'solid' or the end of the file, got 'more'");
  expect_error("two.stl", head + tail, "line 6: facet 1 has 2 vertices, expected 3");
  expect_error("four.stl", head + "vertex 0 1 0\nvertex 1 1 0\n" + tail,
               "line 7: facet 1 has more than 3 vertices");
  expect_error("bad.stl", head + "vertex 0 1.0x 0\n" + tail,
               "line 6: facet 1: '1.0x' is not a number");
  expect_error("short_vertex.stl", head + "vertex 0 1\n" + tail,
               "line 6: facet 1: expected 'vertex x y z'");
  expect_error("nan.stl", head + "vertex 0 nan 0\n" + tail,
               "line 6: facet 1: coordinate 'nan' is not finite");
  expect_error("inf.stl", head + "vertex -inf 0 0\n" + tail,
               "line 6: facet 1: coordinate '-inf' is not finite");
  expect_error("range.stl", head + "vertex 0 0 1e999\n" + tail,
               "line 6: facet 1: coordinate '1e999' is out of the range of a double");
  expect_error("no_endloop.stl", head + "vertex 0 1 0\nendfacet\nendsolid\n",
               "line 7: expected 'vertex' or 'endloop', got 'endfacet'");
  expect_error("no_outer.stl", "solid s\nfacet normal 0 0 1\nvertex 0 0 0\n",
               "line 3: expected 'outer loop', got 'vertex'");
  expect_error("truncated.stl", head + "vertex 0 1 0\nendloop\nendfacet\n",
               "line 8: the ASCII STL ends without 'endsolid'");
  expect_error("no_facet.stl", "solid empty\nendsolid empty\n", "ASCII STL holds no facet");
  // Neither the size rule nor ASCII: reported as a binary STL.
  expect_error("text.stl", std::string(200, 'x'), "binary STL declares");
}

TEST_F(MeshFile, ObjErrorsGiveTheLine) {
  const std::string square = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n";
  expect_error("range.obj", square + "f 1 2 9\n",
               "line 5: vertex index 9 is out of range (4 vertices above this line)");
  expect_error("negative.obj", square + "f -1 -2 -5\n",
               "line 5: vertex index -5 is out of range (4 vertices above this line)");
  expect_error("forward.obj", "v 0 0 0\nf 1 2 3\nv 1 0 0\nv 1 1 0\n",
               "line 2: vertex index 2 is out of range (1 vertices above this line)");
  expect_error("zero.obj", square + "f 0 1 2\n", "line 5: vertex index 0");
  expect_error("word.obj", square + "f 1 2 x/1\n", "line 5: 'x/1' is not a vertex reference");
  expect_error("two.obj", square + "f 1 2\n", "line 5: a face needs at least 3 vertices");
  expect_error("short_v.obj", "v 1 2\n", "line 1: vertex 1: expected 'v x y z'");
  expect_error("nan_v.obj", square + "v 0 NaN 1\n",
               "line 5: vertex 5: coordinate 'NaN' is not finite");
  expect_error("bad_v.obj", "v 1 2 3,\n", "line 1: vertex 1: '3,' is not a number");
  expect_error("no_v.obj", "# nothing\ng x\n", "OBJ holds no vertex");
}
