"""Renders a result's .xmf as a picture with ParaView, from a script: the
field coloured on the grid as ParaView's default reader and representation
show it, with a colour bar and axes in the data's coordinates, seen from above
the X-Y plane.

usage: xvfb-run -a -s -noreset pvpython scripts/render.py FILE.xmf FIELD OUT.png
           [--size W H] [--time T] [--require-surface]
           [--far-field | --window X0 X1 Y0 Y1]

What is framed: a mesh with a body in it (a hole that the cells surround,
such as airfoil's aerofoil in its far field 18 chords across) is drawn around
the body, padded by 40% of its length each way (the aerofoil: about x = -0.4
to 1.4); --far-field draws the whole mesh instead, --window the rectangle
given. A grid without a hole (euler, heat, jacobi) is drawn whole.

pvpython needs an X display to render; xvfb-run (Debian: xvfb) gives it one
off-screen (pvpython alone, without a display, can crash in XSync). -noreset:
ParaView connects twice, and a server that resets in between may refuse the
second (VTK's "bad X server connection"). FIELD is
a cell or point array of the file (euler: rho, p, mach, ...; heat and
jacobi: u; airfoil: density, pressure, mach, ...). A series (dumps.xmf,
u_series.xmf) is drawn at its last time, or at --time T. The picture is
written to OUT.png.tmp and renamed. --require-surface fails (exit 1) when
ParaView would show the data as anything but a surface (an outline: a grid
of 3D cells), or when the data covers less than 5% of the picture.

Exit 0 when the picture is written, 1 when it is not what was asked, 2 on
bad usage (a missing file or field).
"""
import argparse
import os
import sys


def parse_args():
    """Before ParaView is imported, so that --help answers anywhere."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                usage="xvfb-run -a -s -noreset pvpython scripts/render.py FILE.xmf FIELD OUT.png [options]")
    p.add_argument("xmf")
    p.add_argument("field")
    p.add_argument("png")
    p.add_argument("--size", nargs=2, type=int, default=[1000, 800], metavar=("W", "H"))
    p.add_argument("--time", type=float, default=None, help="the time of a series to draw (default: its last)")
    p.add_argument("--require-surface", action="store_true",
                   help="exit 1 unless ParaView shows a coloured surface")
    frame = p.add_mutually_exclusive_group()
    frame.add_argument("--far-field", action="store_true",
                       help="draw the whole mesh, not a zoom around the body in it")
    frame.add_argument("--window", nargs=4, type=float, metavar=("X0", "X1", "Y0", "Y1"),
                       help="draw this rectangle of the X-Y plane")
    args = p.parse_args()
    if args.window and not (args.window[0] < args.window[1] and args.window[2] < args.window[3]):
        p.error("--window X0 X1 Y0 Y1 needs X0 < X1 and Y0 < Y1")
    return args


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import suite_version  # noqa: E402  (the --version of every script)

suite_version.answer(sys.argv)
ARGS = parse_args()
if not os.path.isfile(ARGS.xmf):
    sys.exit("render.py: %s: no such file" % ARGS.xmf)

from paraview import simple as pv  # noqa: E402  (after the arguments: --help without ParaView)


def main():
    pv.LoadPalette("WhiteBackground")  # black text and axes on white
    src = pv.OpenDataFile(ARGS.xmf)
    if src is None:
        print("render.py: ParaView cannot open %s" % ARGS.xmf, file=sys.stderr)
        return 2
    times = list(getattr(src, "TimestepValues", []) or [])
    t = ARGS.time if ARGS.time is not None else (times[-1] if times else None)
    view = pv.GetActiveViewOrCreate("RenderView")
    view.ViewSize = ARGS.size
    if t is not None:
        view.ViewTime = t
    src.UpdatePipeline(t if t is not None else 0.0)
    info = src.GetDataInformation()
    where = None
    if ARGS.field in src.CellData.keys():
        where = "CELLS"
    elif ARGS.field in src.PointData.keys():
        where = "POINTS"
    if where is None:
        print("render.py: %s has no array '%s' (cells: %s; points: %s)"
              % (ARGS.xmf, ARGS.field, ", ".join(src.CellData.keys()), ", ".join(src.PointData.keys())),
              file=sys.stderr)
        return 2
    bounds = info.GetBounds()
    window = ARGS.window or (None if ARGS.far_field else body_window(src, bounds))
    shown = src
    if window:
        # Only the cells in the window, cut at its edges: the axes then span
        # the window, not the far field around it.
        shown = pv.Clip(Input=src)
        shown.ClipType = "Box"
        shown.ClipType.Position = [window[0], window[2], bounds[4] - 1.0]
        shown.ClipType.Length = [window[1] - window[0], window[3] - window[2],
                                 bounds[5] - bounds[4] + 2.0]
        shown.Invert = 1
        shown.UpdatePipeline(t if t is not None else 0.0)
    disp = pv.Show(shown, view)
    representation = str(disp.GetPropertyValue("Representation")).strip("'")
    pv.ColorBy(disp, (where, ARGS.field))
    disp.RescaleTransferFunctionToDataRange(True, False)
    disp.SetScalarBarVisibility(view, True)
    view.CameraPosition = [0, 0, 1]
    view.CameraFocalPoint = [0, 0, 0]
    view.CameraViewUp = [0, 1, 0]
    view.ResetCamera()
    pv.Render(view)  # the first render resets the camera: set it after
    # Seen straight from above, the framed rectangle filling the picture
    # (with room for the axes' numbers).
    # The rectangle takes the left 80% of the width, the colour bar the rest.
    b = window or bounds
    aspect = ARGS.size[1] / ARGS.size[0]
    half_h = 0.6 * max(b[3] - b[2], (b[1] - b[0]) * aspect / 0.8)  # half the height seen
    cx, cy = 0.5 * (b[0] + b[1]) + 0.1 * 2 * half_h / aspect, 0.5 * (b[2] + b[3])
    view.CameraParallelProjection = 1
    view.CameraFocalPoint = [cx, cy, 0]
    view.CameraPosition = [cx, cy, 1 + max(b[1] - b[0], b[3] - b[2])]
    view.CameraParallelScale = half_h
    # Axes in the data's coordinates along the bottom and left edges.
    view.OrientationAxesVisibility = 0
    view.AxesGrid.Visibility = 1
    view.AxesGrid.XTitle = "x"
    view.AxesGrid.YTitle = "y"
    view.AxesGrid.FacesToRender = 0x04  # the face in the X-Y plane (vtkGridAxes3DActor's MIN_XY)
    view.AxesGrid.AxesToLabel = 0x01 | 0x02  # numbers on its bottom and left edges (MIN_X, MIN_Y)
    view.AxesGrid.GridColor = [0.5, 0.5, 0.5]
    pv.Render(view)
    tmp = ARGS.png + ".tmp.png"  # ParaView picks the format by the extension
    pv.SaveScreenshot(tmp, view, ImageResolution=ARGS.size)
    share = covered(tmp)
    os.replace(tmp, ARGS.png)
    print("render.py: %s: %d cells, %s shown as %s%s, %s, covering %.0f%% of the picture -> %s"
          % (ARGS.xmf, info.GetNumberOfCells(), ARGS.field, representation,
             " at t = %g" % t if t is not None else "",
             "x = %g to %g, y = %g to %g" % tuple(window) if window else "the whole mesh",
             100 * share, ARGS.png))
    if ARGS.require_surface and (representation != "Surface" or share < 0.05):
        print("render.py: FAIL: shown as %s covering %.1f%% of the picture, expected a coloured "
              "surface" % (representation, 100 * share), file=sys.stderr)
        return 1
    return 0


def holes_bbox(src, box, z, samples=512):
    """The bounding box [x0, x1, y0, y1] of the largest hole of the mesh seen
    in box (x0, x1, y0, y1), or None: the mesh sampled on samples x samples
    points over box (ParaView's ResampleToImage marks the points no cell
    covers); the uncovered points that cannot reach the edge of the box
    through other uncovered points are holes. The box grows by one sample
    spacing each way (a point lies within a spacing of the surface)."""
    from paraview import servermanager
    from vtkmodules.numpy_interface import dataset_adapter as dsa
    import numpy as np
    img = pv.ResampleToImage(Input=src)
    img.UseInputBounds = 0
    img.SamplingBounds = [box[0], box[1], box[2], box[3], z, z]
    img.SamplingDimensions = [samples, samples, 1]
    data = dsa.WrapDataObject(servermanager.Fetch(img))
    free = (np.asarray(data.PointData["vtkValidPointMask"]) == 0).reshape(samples, samples)
    pv.Delete(img)
    # Walk from the uncovered points on the edge: what they reach is outside.
    label = np.zeros(free.shape, dtype=np.int32)  # -1 outside, k > 0 hole k
    edge = [(a, b) for a in range(samples) for b in (0, samples - 1)]
    edge += [(b, a) for a, b in edge]
    walk(free, label, [p for p in edge if free[p]], -1)
    sizes = {}
    for a, b in zip(*np.nonzero(free & (label == 0))):
        if label[a, b] == 0:
            k = len(sizes) + 1
            sizes[k] = walk(free, label, [(a, b)], k)
    if not sizes:
        return None
    j, i = np.nonzero(label == max(sizes, key=sizes.get))
    dx, dy = (box[1] - box[0]) / (samples - 1), (box[3] - box[2]) / (samples - 1)
    return [box[0] + (i.min() - 1) * dx, box[0] + (i.max() + 1) * dx,
            box[2] + (j.min() - 1) * dy, box[2] + (j.max() + 1) * dy]


def walk(free, label, start, k):
    """Labels k every free point reachable from start through free points
    (4-neighbours) not yet labelled; returns how many."""
    from collections import deque
    n, m = free.shape
    todo = deque()
    for p in start:
        if label[p] == 0:
            label[p] = k
            todo.append(p)
    count = 0
    while todo:
        a, b = todo.popleft()
        count += 1
        for c, d in ((a + 1, b), (a - 1, b), (a, b + 1), (a, b - 1)):
            if 0 <= c < n and 0 <= d < m and free[c, d] and label[c, d] == 0:
                label[c, d] = k
                todo.append((c, d))
    return count


def body_window(src, bounds):
    """The window around a body in the mesh (its largest hole), or None when
    there is none. Found on the whole mesh, then sampled again around it (a
    tenth of the far field's width was one sample: the aerofoil's thin
    trailing edge fell between samples), and padded by 40% of the body's
    longer side, within the mesh's bounds."""
    whole = [bounds[0], bounds[1], bounds[2], bounds[3]]
    if not (whole[1] > whole[0] and whole[3] > whole[2]):
        return None
    z = 0.5 * (bounds[4] + bounds[5])
    body = holes_bbox(src, whole, z)
    if body is None:
        return None
    w, h = body[1] - body[0], body[3] - body[2]
    around = [max(whole[0], body[0] - w), min(whole[1], body[1] + w),
              max(whole[2], body[2] - h), min(whole[3], body[3] + h)]
    body = holes_bbox(src, around, z) or body
    pad = 0.4 * max(body[1] - body[0], body[3] - body[2])
    return [max(whole[0], body[0] - pad), min(whole[1], body[1] + pad),
            max(whole[2], body[2] - pad), min(whole[3], body[3] + pad)]


def covered(png):
    """The share of the picture's pixels not of the background's colour (its
    lower-left corner's): a surface covers a good part of it, an outline a
    few lines."""
    from vtkmodules.vtkIOImage import vtkPNGReader
    from vtkmodules.util.numpy_support import vtk_to_numpy
    r = vtkPNGReader()
    r.SetFileName(png)
    r.Update()
    px = vtk_to_numpy(r.GetOutput().GetPointData().GetScalars())[:, :3]
    return float((px != px[0]).any(axis=1).mean())


status = main()
# Out without ParaView's teardown: on an X server without a GPU (Xvfb) it
# fails in glXMakeCurrent, and Xlib's error handler then exits 1, whatever
# the status.
sys.stdout.flush()
sys.stderr.flush()
os._exit(status)
