#!/usr/bin/python3
"""Writes the conical hopper of configs/hopper_stl.yaml as a binary STL (a mesh wall, issue 40).

usage: make_hopper.py [--orifice 12] [--top 60] [--half-angle 30] [--bin-height 40]
                      [--segments 64] [--band-length MM] [--output PATH]

The surface is one of revolution about the z axis, open at both ends (a surface without
thickness: Granite's mesh walls are two-sided):
- the cone: a frustum from the orifice (diameter --orifice, at z = 0) up to --top, its wall
  inclined --half-angle degrees from the vertical, so it is (top - orifice) / (2 tan(angle))
  high;
- the bin: a vertical cylinder of diameter --top, --bin-height high, on top of the cone
  (0: none).
Lengths are millimetres, as CAD programs write them: a configuration reads the file with
`scale: 0.001`. With the defaults (12 mm orifice, 60 mm top, 30 degrees, 40 mm bin, for spheres
of radius 1 mm) the cone is 41.57 mm high and the hopper 81.57 mm.

Around the axis the circles are cut into --segments equal segments (their vertices lie on the
circles); along it the cone and the bin are cut into bands about --band-length long (default:
the width of one segment of the top rim, 2.95 mm with the defaults), so that the triangles are
not slivers. A band's segment is a planar quad (two generators of one cone or cylinder), split
into two triangles, counter-clockwise seen from outside (normals away from the axis). Every
ring of vertices is computed once and every vertex converted to float32 once, so triangles
that share a corner carry bit for bit the same coordinates (+0.0, never -0.0): the surface has
no gaps, and only its two rims are boundary edges.

Binary STL: an 80-byte header (not starting with "solid"), a uint32 triangle count, then per
triangle 12 little-endian float32 (unit normal, 3 vertices) and a uint16 attribute 0.
Prints one line: the file, the number of triangles and the z range.
"""
import argparse
import math
import os
import sys

import numpy as np

FACET = np.dtype([("normal", "<f4", (3,)), ("vertices", "<f4", (3, 3)), ("attribute", "<u2")])
assert FACET.itemsize == 50


def rings(orifice, top, half_angle, bin_height, band):
    """The (radius, z) of every ring of vertices, from the orifice up, and the cone's height."""
    r0, r1 = 0.5 * orifice, 0.5 * top
    alpha = math.radians(half_angle)
    cone_height = (r1 - r0) / math.tan(alpha)
    slant = (r1 - r0) / math.sin(alpha)
    cone_bands = max(1, round(slant / band))
    radius = list(np.linspace(r0, r1, cone_bands + 1))  # endpoints exact: the rims are r0, r1
    z = list(np.linspace(0.0, cone_height, cone_bands + 1))
    if bin_height > 0:
        bin_bands = max(1, round(bin_height / band))
        radius += [r1] * bin_bands
        z += list(np.linspace(cone_height, cone_height + bin_height, bin_bands + 1)[1:])
    return np.array(radius), np.array(z), cone_height


def hopper(orifice, top, half_angle, bin_height, segments, band):
    """Vertices (float32, n x 3) and triangles (m x 3 indices) of the hopper surface."""
    radius, z, cone_height = rings(orifice, top, half_angle, bin_height, band)
    phi = 2.0 * math.pi * np.arange(segments) / segments
    cos, sin = np.cos(phi), np.sin(phi)
    cos[np.abs(cos) < 1e-12] = 0.0  # cos(pi/2) is 6e-17: the quarter turns lie on the axes
    sin[np.abs(sin) < 1e-12] = 0.0
    # Vertex (ring k, segment j) has the index k * segments + j.
    x = radius[:, None] * cos[None, :]
    y = radius[:, None] * sin[None, :]
    zz = np.broadcast_to(z[:, None], x.shape)
    vertices = np.stack([x, y, zz], axis=-1).reshape(-1, 3).astype(np.float32) + np.float32(0.0)
    triangles = []
    for k in range(len(radius) - 1):
        for j in range(segments):
            a = k * segments + j  # lower ring, this generator
            b = k * segments + (j + 1) % segments  # lower ring, next generator (counter-clockwise)
            c = b + segments  # upper ring
            d = a + segments
            # Seen from outside, phi grows to the right: a b c d run counter-clockwise.
            triangles += [(a, b, c), (a, c, d)]
    return vertices, np.array(triangles, dtype=np.int64), cone_height


def write_binary_stl(path, vertices, triangles, header):
    corners = vertices[triangles].astype(np.float64)  # m x 3 x 3
    normal = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    normal /= np.linalg.norm(normal, axis=1)[:, None]
    facets = np.zeros(len(triangles), dtype=FACET)
    facets["normal"] = normal
    facets["vertices"] = vertices[triangles]
    with open(path, "wb") as out:
        out.write(header.encode("ascii")[:80].ljust(80, b" "))
        out.write(np.uint32(len(triangles)).astype("<u4").tobytes())
        out.write(facets.tobytes())


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--orifice", type=float, default=12.0, help="orifice diameter (mm)")
    parser.add_argument("--top", type=float, default=60.0,
                        help="diameter of the cone's top and of the bin (mm)")
    parser.add_argument("--half-angle", type=float, default=30.0,
                        help="cone wall's angle from the vertical (degrees)")
    parser.add_argument("--bin-height", type=float, default=40.0,
                        help="height of the cylindrical bin above the cone (mm; 0: none)")
    parser.add_argument("--segments", type=int, default=64, help="segments around the axis")
    parser.add_argument("--band-length", type=float, default=None,
                        help="length of the bands along the wall (mm; default: the width of a "
                             "segment of the top rim)")
    parser.add_argument("--output", default=os.path.join(here, "hopper.stl"),
                        help="the STL file to write (default: hopper.stl beside this script)")
    args = parser.parse_args(argv[1:])
    if not 0 < args.orifice < args.top:
        parser.error("need 0 < --orifice < --top")
    if not 0 < args.half_angle < 90:
        parser.error("--half-angle must lie in (0, 90) degrees")
    if args.bin_height < 0:
        parser.error("--bin-height must be >= 0")
    if args.segments < 3:
        parser.error("--segments must be >= 3")
    band = args.band_length
    if band is None:
        band = args.top * math.sin(math.pi / args.segments)  # chord of a segment of the top rim
    if not band > 0:
        parser.error("--band-length must be > 0")

    vertices, triangles, cone_height = hopper(args.orifice, args.top, args.half_angle,
                                              args.bin_height, args.segments, band)
    header = (f"hopper (mm) orifice {args.orifice:g} top {args.top:g} half-angle "
              f"{args.half_angle:g} bin {args.bin_height:g} segments {args.segments} "
              f"make_hopper.py")
    write_binary_stl(args.output, vertices, triangles, header)
    z = vertices[:, 2]
    print(f"{args.output}: {len(triangles)} triangles, z {z.min():g} to {z.max():.2f} mm "
          f"(orifice {args.orifice:g} mm, top {args.top:g} mm, cone {args.half_angle:g} deg "
          f"from the vertical and {cone_height:.2f} mm high, bin {args.bin_height:g} mm)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
