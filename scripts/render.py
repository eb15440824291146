"""Renders a result's .xmf as a picture with ParaView, from a script: the
field coloured on the grid as ParaView's default reader and representation
show it, with a colour bar, seen from above the X-Y plane.

usage: xvfb-run -a -s -noreset pvpython scripts/render.py FILE.xmf FIELD OUT.png
           [--size W H] [--time T] [--require-surface]

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
    return p.parse_args()


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import suite_version  # noqa: E402  (the --version of every script)

suite_version.answer(sys.argv)
ARGS = parse_args()
if not os.path.isfile(ARGS.xmf):
    sys.exit("render.py: %s: no such file" % ARGS.xmf)

from paraview import simple as pv  # noqa: E402  (after the arguments: --help without ParaView)


def main():
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
    disp = pv.Show(src, view)
    representation = str(disp.GetPropertyValue("Representation")).strip("'")
    pv.ColorBy(disp, (where, ARGS.field))
    disp.RescaleTransferFunctionToDataRange(True, False)
    disp.SetScalarBarVisibility(view, True)
    view.CameraPosition = [0, 0, 1]
    view.CameraFocalPoint = [0, 0, 0]
    view.CameraViewUp = [0, 1, 0]
    view.ResetCamera()
    pv.Render(view)
    tmp = ARGS.png + ".tmp.png"  # ParaView picks the format by the extension
    pv.SaveScreenshot(tmp, view, ImageResolution=ARGS.size)
    share = covered(tmp)
    os.replace(tmp, ARGS.png)
    print("render.py: %s: %d cells, %s shown as %s%s, covering %.0f%% of the picture -> %s"
          % (ARGS.xmf, info.GetNumberOfCells(), ARGS.field, representation,
             " at t = %g" % t if t is not None else "", 100 * share, ARGS.png))
    if ARGS.require_surface and (representation != "Surface" or share < 0.05):
        print("render.py: FAIL: shown as %s covering %.1f%% of the picture, expected a coloured "
              "surface" % (representation, 100 * share), file=sys.stderr)
        return 1
    return 0


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
