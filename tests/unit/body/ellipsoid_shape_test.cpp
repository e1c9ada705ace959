// The ellipsoid shape's mass properties (body/shape.hpp) against an independent computation:
// the image under D = diag(a, b, c) of a polytope inscribed in the unit sphere (the
// 4-times-subdivided icosphere, 2562 vertices), integrated by the divergence theorem
// (polyhedron_mass_properties). The map scales volumes by abc and turns second moments C into
// abc D C D; the icosphere's C is isotropic (icosahedral symmetry) to rounding, so each of the
// polytope image's moments is the closed form times one common factor, the polytope's own
// deficit against the ball (a few 1e-3). The test asserts that common factor on every axis to
// 1e-12, which fails for any wrong pairing of the semi-axes in the closed form.
#include "granite/body/polyhedron.hpp"
#include "granite/body/shape.hpp"
#include "granite/core/error.hpp"
#include "granite/io/shape_surface.hpp"

#include <gtest/gtest.h>

#include <numbers>

using namespace granite;

TEST(EllipsoidShape, MassPropertiesAreTheLinearImageOfTheBall) {
  const Vec3 axes(2.0e-3, 1.5e-3, 0.6e-3);
  body::ShapeTable shapes;
  const body::ShapeIndex k = shapes.add_ellipsoid("pebble", axes);
  const body::Shape& s = shapes[k];
  EXPECT_NEAR(s.unit_mass.volume / (4.0 / 3.0 * std::numbers::pi * axes.prod()), 1.0, 1e-15);
  EXPECT_DOUBLE_EQ(s.bounding_radius, 2.0e-3);
  EXPECT_TRUE(s.shift.isZero(0.0));

  const io::UnitSphereMesh sphere = io::icosphere(4);
  std::vector<Vec3> image;
  for (const Vec3& u : sphere.vertices) image.push_back(axes.cwiseProduct(u));
  const body::MassProperties poly =
      body::polyhedron_mass_properties(body::convex_hull(image, "image"));
  const double volume_factor = poly.volume / s.unit_mass.volume;
  EXPECT_GT(volume_factor, 0.99);  // the inscribed polytope: a little less than the ball
  EXPECT_LT(volume_factor, 1.0);
  const double factor = poly.inertia(0, 0) / s.unit_mass.inertia(0, 0);
  for (int d = 0; d < 3; ++d) {
    EXPECT_NEAR(poly.inertia(d, d) / s.unit_mass.inertia(d, d), factor, 1e-12);
    for (int e = 0; e < 3; ++e)
      if (e != d) {
        EXPECT_EQ(s.unit_mass.inertia(d, e), 0.0);
      }
  }
  EXPECT_GT(factor, 0.98);
  EXPECT_LT(factor, 1.0);
}

TEST(EllipsoidShape, BadSemiAxesAndDuplicateNamesAreRefused) {
  body::ShapeTable shapes;
  EXPECT_THROW(shapes.add_ellipsoid("flat", Vec3(1e-3, 0.0, 1e-3)), InputError);
  EXPECT_THROW(shapes.add_ellipsoid("nan", Vec3(1e-3, std::nan(""), 1e-3)), InputError);
  shapes.add_ellipsoid("pebble", Vec3(1e-3, 1e-3, 1e-3));
  EXPECT_THROW(shapes.add_box("pebble", Vec3(1e-3, 1e-3, 1e-3)), InputError);
  // A ball-shaped ellipsoid has the sphere's inertia 2/5 m r².
  const body::Shape& ball = shapes[0];
  EXPECT_NEAR(ball.unit_mass.inertia(0, 0), 0.4 * ball.unit_mass.volume * 1e-6, 1e-30);
}
