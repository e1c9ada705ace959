#!/usr/bin/python3
"""Coarse-grained (Love–Weber) stress tensor of a box region from a snapshot's /contacts group.

usage: contact_stress.py SNAPSHOT_H5 XMIN YMIN ZMIN XMAX YMAX ZMAX [--json]

    sigma = (1/V) sum_{particles p in V} sum_{contacts c of p} b_c^p (x) f_c^p

V is the region's volume; b_c^p = w_c^p - x_p is the branch vector from the centre of particle p
to its own witness point w_c^p of contact c (/contacts/point1 for body 1, point2 for body 2);
f_c^p is the force contact c exerts on p: +impulse/dt on body 1, -impulse/dt on body 2
(/contacts/force is impulse/dt, the mean force over the step). Global bodies (walls, id < 0)
are not particles and contribute no term of their own; their contacts enter through the
particle side. The centres are those at detection, x = point1 + r1 n for body 1 and
x = point2 - r2 n for body 2, so that b = -r1 n and +r2 n; a particle belongs to the region if
that centre lies in the box (min <= x < max).

Sign convention: tension positive (continuum mechanics). A pile under its own weight has
sigma_zz < 0; the pressure -trace(sigma)/3 is printed too. Written without --json: the tensor
as three rows; with --json: {"stress": [[...]], "pressure", "volume", "particles", "contacts"}.
"""
import json
import sys

import numpy as np

import granite_io


def region_stress(contacts, ids, radii, lower, upper):
    """(sigma 3x3, number of particle-contact terms, particles in the region)."""
    by_id = {int(i): float(r) for i, r in zip(ids, radii)}
    lower, upper = np.asarray(lower, float), np.asarray(upper, float)
    volume = float(np.prod(upper - lower))
    if not volume > 0:
        raise ValueError("the region is empty (every max must exceed its min)")
    n = contacts["normal"]
    force = contacts["force"]
    sigma = np.zeros((3, 3))
    terms = 0
    inside_ids = set()
    for side, sign in ((1, 1.0), (2, -1.0)):
        body = contacts[f"body{side}"]
        point = contacts[f"point{side}"]
        for j in range(len(body)):
            if body[j] < 0:  # a global body
                continue
            r = by_id.get(int(body[j]))
            if r is None:
                raise KeyError(int(body[j]))
            # centre at detection: body 1 lies on the +n side of its witness point
            centre = point[j] + (r if side == 1 else -r) * n[j]
            if not (np.all(centre >= lower) and np.all(centre < upper)):
                continue
            sigma += np.outer(point[j] - centre, sign * force[j])
            terms += 1
            inside_ids.add(int(body[j]))
    return sigma / volume, volume, terms, len(inside_ids)


def main(argv):
    args = [a for a in argv[1:] if a != "--json"]
    if len(args) != 7:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        bounds = [float(a) for a in args[1:]]
    except ValueError as e:
        return granite_io.print_error(f"region: {e}")
    try:
        contacts = granite_io.load_contacts(args[0])
        particles = granite_io.load_snapshot(args[0], fields={"id": 1, "radius": 1},
                                             required={"radius": 1})
        sigma, volume, terms, inside = region_stress(contacts, particles["id"],
                                                     particles["radius"], bounds[:3], bounds[3:])
    except granite_io.GraniteIOError as e:
        return granite_io.print_error(e)
    except KeyError as e:
        return granite_io.print_error(f"{args[0]}: contact with body {e} that is not in "
                                      "/particles")
    except ValueError as e:
        return granite_io.print_error(f"region: {e}")
    pressure = -float(np.trace(sigma)) / 3.0
    if "--json" in argv:
        print(json.dumps({"stress": sigma.tolist(), "pressure": pressure, "volume": volume,
                          "particles": inside, "contacts": terms}))
    else:
        print(f"# {args[0]}: t = {contacts.attrs.get('time', float('nan')):.6g} s, "
              f"{inside} particles and {terms} particle-contact terms in V = {volume:.6g} m^3")
        print("# stress tensor [Pa], tension positive:")
        for row in sigma:
            print(" ".join(f"{value: .9e}" for value in row))
        print(f"# pressure -tr(sigma)/3 = {pressure:.9e} Pa")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
