"""A ParaView view of a Granite run: particles as spheres of their radius coloured by speed,
the global bodies (walls, piston, obstacle) semi-transparent, non-spherical particles (clumps)
as their surfaces, each body in a colour of its own, at every snapshot of the series.

usage: pvbatch scripts/paraview_view.py OUTPUT_DIR|SERIES.xdmf [--png DIR] [--state FILE]
                                        [--size WIDTH HEIGHT]
  --png DIR     render every time step offscreen to DIR/view_<step>.png
  --state FILE  write a ParaView state (open it in the GUI: File > Load State)
Runs under pvbatch or pvpython (Debian: python3-paraview); docs/output.md.
"""
import argparse
import math
import os
import re
import sys
import xml.etree.ElementTree as ElementTree

try:
    from paraview import simple as pv
except ImportError:
    sys.exit("error: ParaView's Python modules are missing: run this with pvbatch or pvpython "
             "(Debian package python3-paraview)")


def series_file(path):
    if os.path.isdir(path):
        path = os.path.join(path, "series.xdmf")
    if not os.path.isfile(path):
        sys.exit(f"error: {path}: no such file (expected a Granite output directory or its series.xdmf)")
    return os.path.abspath(path)


def steps_of(series):
    """The step of every snapshot in the series, in time order (from the XDMF text)."""
    return [int(s) for s in re.findall(r'<Information Name="step" Value="(\d+)"', open(series).read())]


def block_positions(series):
    """{grid name: its position (from 1) in a time step's spatial collection}, from the XDMF
    text; {} if the steps are single grids (no collection). A step's collection holds the
    particles, then the global bodies (if the run has any), then the shapes (if the step has
    shaped particles); the reader renames the blocks of later steps ("particles[1]", ...), so
    they are selected by position."""
    series_grid = ElementTree.parse(series).getroot().find("Domain").find("Grid")
    positions = {}
    for step in series_grid.findall("Grid"):
        if step.get("GridType") != "Collection":
            continue
        for k, grid in enumerate(step.findall("Grid"), start=1):
            positions.setdefault(grid.get("Name"), k)
    return positions


def block(reader, positions, name):
    if not positions:  # single grids: the particles alone
        return reader if name == "particles" else None
    if name not in positions:
        return None
    return pv.ExtractBlock(registrationName=name, Input=reader,
                           Selectors=[f"/Root/*[{positions[name]}]"])


def show_shapes(shapes, view):
    """The shaped particles' surfaces, each body in its own colour: the fractional part of
    id times the golden ratio spreads consecutive ids over the colour map."""
    hue = pv.Calculator(registrationName="body_colour", Input=shapes, AttributeType="Cell Data",
                        ResultArrayName="body_colour",
                        Function="id*0.6180339887498949-floor(id*0.6180339887498949)")
    shown = pv.Show(hue, view)
    pv.ColorBy(shown, ("CELLS", "body_colour"))
    lut = pv.GetColorTransferFunction("body_colour")
    lut.ApplyPreset("Rainbow Uniform", True)
    lut.RescaleTransferFunction(0.0, 1.0)
    lut.AutomaticRescaleRangeMode = "Never"
    shown.SetScalarBarVisibility(view, False)


def build(series, size):
    reader = pv.XDMFReader(registrationName="series", FileNames=[series])
    times = list(reader.TimestepValues) or [0.0]
    positions = block_positions(series)
    particles = block(reader, positions, "particles")
    bodies = block(reader, positions, "global_bodies")
    shapes = block(reader, positions, "shapes")
    if shapes is not None:
        # A shaped particle is drawn as its surface: the glyphs are for the plain spheres
        # (shape -1), not for the shaped particles' bounding spheres.
        particles = pv.Threshold(registrationName="plain_spheres", Input=particles,
                                 Scalars=["POINTS", "shape"], LowerThreshold=-1,
                                 UpperThreshold=-1, ThresholdMethod="Between")
    speed = pv.Calculator(registrationName="speed", Input=particles, ResultArrayName="speed",
                          Function="mag(velocity)")
    spheres = pv.Glyph(registrationName="spheres", Input=speed, GlyphType="Sphere")
    spheres.ScaleArray = ["POINTS", "radius"]
    spheres.ScaleFactor = 2.0  # the glyph sphere has radius 0.5
    spheres.GlyphMode = "All Points"
    spheres.GlyphType.ThetaResolution = 12
    spheres.GlyphType.PhiResolution = 8

    view = pv.GetActiveViewOrCreate("RenderView")
    view.ViewSize = list(size)
    view.OrientationAxesVisibility = 1
    view.Background = [1, 1, 1]
    try:  # ParaView >= 5.10 uses a palette unless told otherwise
        view.UseColorPaletteForBackground = 0
    except AttributeError:
        pass

    top = 0.0
    spheres_seen = False
    for t in times:
        speed.UpdatePipeline(t)
        rng = speed.PointData["speed"].GetRange() if "speed" in speed.PointData.keys() else (0, 0)
        top = max(top, rng[1])
        spheres_seen = spheres_seen or speed.GetDataInformation().GetNumberOfPoints() > 0
    shown = pv.Show(spheres, view)
    pv.ColorBy(shown, ("POINTS", "speed"))
    lut = pv.GetColorTransferFunction("speed")
    lut.ApplyPreset("Viridis (matplotlib)", True)
    lut.RescaleTransferFunction(0.0, top if top > 0 else 1.0)
    lut.AutomaticRescaleRangeMode = "Never"
    shown.SetScalarBarVisibility(view, True)
    bar = pv.GetScalarBar(lut, view)
    bar.Title = "speed [m/s]"
    bar.ComponentTitle = ""
    bar.TitleColor = bar.LabelColor = [0, 0, 0]
    bar.Visibility = 1 if spheres_seen else 0  # no speed bar for a run of shapes alone

    if bodies is not None:
        walls = pv.Show(bodies, view)
        pv.ColorBy(walls, None)
        walls.DiffuseColor = walls.AmbientColor = [0.55, 0.6, 0.7]
        walls.Opacity = 0.3
    if shapes is not None:
        show_shapes(shapes, view)

    # Look at the domain from the front (-y), above and a little from the inflow side; z is up
    # (gravity along -z in the channel) and the flow runs from left to right.
    view.ViewTime = times[0]
    view.CameraFocalPoint = [0, 0, 0]
    view.CameraPosition = [-0.3, -1.0, 0.75]
    view.CameraViewUp = [0, 0, 1]
    view.ResetCamera()
    view.GetActiveCamera().Dolly(1.5)
    return view, times


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("series", help="output directory of a run, or its series.xdmf")
    parser.add_argument("--png", metavar="DIR", help="render every time step to DIR/view_<step>.png")
    parser.add_argument("--state", metavar="FILE", help="write a ParaView state file")
    parser.add_argument("--size", nargs=2, type=int, default=(1600, 800), metavar=("W", "H"))
    args = parser.parse_args(argv[1:])
    if not args.png and not args.state:
        parser.error("nothing to do: give --png DIR and/or --state FILE")
    series = series_file(args.series)
    view, times = build(series, args.size)
    if args.state:
        pv.SaveState(args.state)
        print(f"paraview_view: state {args.state} (File > Load State in ParaView)")
    if args.png:
        os.makedirs(args.png, exist_ok=True)
        steps = steps_of(series)
        if len(steps) != len(times):
            steps = list(range(len(times)))
        for step, t in zip(steps, times):
            view.ViewTime = t
            pv.Render(view)
            pv.SaveScreenshot(os.path.join(args.png, f"view_{step:08d}.png"), view,
                              ImageResolution=list(args.size))
        print(f"paraview_view: {len(times)} images in {args.png} (t = {times[0]:g} .. {times[-1]:g} s)")
    return 0


if __name__ == "__main__":
    code = main(sys.argv)
    # Under xvfb-run, ParaView's teardown of the GLX context fails (X error GLXBadContext) and
    # turns a finished job into exit code 1: leave without the teardown, everything is written.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
