"""Opens an .xmf file in ParaView, with the reader ParaView picks for it and
with the legacy XDMF reader, and checks what each one reads against the HDF5
files it names.

usage: pvpython validation/xdmf_readers.py FILE.xmf --cells N
        [--cell-arrays a,b,...] [--point-arrays c,...] [--steps K]
        [--bounds X0 X1 Y0 Y1 | --bounds geometry] [--cell-type quad|triangle]

For every reader, and at every time value of a series:
  - the reader OpenDataFile picks is ParaView's default for .xmf (Xdmf3ReaderS);
  - the time values are the "time" datasets of the step files, in order (K of them);
  - one grid with N cells, lying in the X-Y plane: its X and Y bounds are the
    given ones (or the coordinates' own range), and its Z extent is no more
    than a layer centred on z = 0;
  - with --cell-type, every cell is of that 2D type (VTK_QUAD, VTK_TRIANGLE)
    and the grid is flat, z = 0 (what ParaView shows as a coloured surface:
    a layer of 3D cells opens as an outline);
  - exactly the named cell and point arrays, each equal, element by element, to
    the HDF5 dataset of the same name (or "<name>_<k>" per component), and
    its range the dataset's range.
Exit 0 when all holds, 1 with the failures listed, 77 when h5py is missing.
"""
import argparse
import os
import sys
import xml.etree.ElementTree as ET


# VTK's cell type numbers (vtkCellType.h).
CELL_TYPES = {"triangle": 5, "quad": 9}


def parse_args():
    """Before ParaView and h5py are imported, so that --help answers anywhere."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                usage="pvpython validation/xdmf_readers.py FILE.xmf --cells N [options]")
    p.add_argument("xmf")
    p.add_argument("--cells", type=int, required=True)
    p.add_argument("--cell-arrays", default="")
    p.add_argument("--point-arrays", default="")
    p.add_argument("--steps", type=int, default=0, help="a time series of this many steps")
    p.add_argument("--bounds", nargs="+", required=True)
    p.add_argument("--cell-type", choices=sorted(CELL_TYPES),
                   help="every cell of this 2D type, in the plane z = 0")
    return p.parse_args()


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "lib"))
import suite_version  # noqa: E402  (the --version of every script)

suite_version.answer(sys.argv)
ARGS = parse_args()

try:
    import h5py
    import numpy as np
except ImportError as e:  # the test is skipped, not passed
    print("SKIP: %s (install python3-h5py)" % e)
    sys.exit(77)

from paraview import servermanager as sm
from paraview.simple import Delete, OpenDataFile, XDMFReader
from vtkmodules.util.numpy_support import vtk_to_numpy

DEFAULT_READER = "Xdmf3ReaderS"
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def step_files(xmf):
    """The HDF5 file of each uniform grid, in document order (for a temporal
    collection: one per step); the first HDF DataItem of an Attribute decides."""
    root = ET.parse(xmf).getroot()
    base = os.path.dirname(os.path.abspath(xmf))
    files = []
    for grid in root.iter("Grid"):
        if grid.get("GridType", "Uniform") != "Uniform":
            continue
        for item in grid.iter("DataItem"):
            parent_attr = any(item in list(a.iter("DataItem")) for a in grid.iter("Attribute"))
            if parent_attr and item.get("Format") == "HDF":
                files.append(os.path.join(base, item.text.strip().split(":")[0]))
                break
    return files


def geometry_bounds(xmf):
    """X and Y range of the coordinates dataset of an unstructured grid."""
    root = ET.parse(xmf).getroot()
    base = os.path.dirname(os.path.abspath(xmf))
    item = next(root.iter("Geometry")).find("DataItem")
    fname, path = item.text.strip().split(":")
    with h5py.File(os.path.join(base, fname), "r") as f:
        xy = np.asarray(f[path])
    return [xy[:, 0].min(), xy[:, 0].max(), xy[:, 1].min(), xy[:, 1].max()]


def leaf(data):
    if data.IsA("vtkCompositeDataSet"):
        it = data.NewIterator()
        it.InitTraversal()
        leaves = []
        while not it.IsDoneWithTraversal():
            leaves.append(it.GetCurrentDataObject())
            it.GoToNextItem()
        if len(leaves) != 1:
            fail("%d grids read, expected 1" % len(leaves))
            return None
        return leaves[0]
    return data


def reference(h5, name):
    """The dataset `name` as [rows, components], or its per-component datasets."""
    if name in h5:
        a = np.asarray(h5[name], dtype=np.float64)
        return a.reshape(a.shape[0], -1)
    cols = []
    k = 0
    while "%s_%d" % (name, k) in h5:
        cols.append(np.asarray(h5["%s_%d" % (name, k)], dtype=np.float64).reshape(-1))
        k += 1
    return np.stack(cols, axis=1) if cols else None


def check_arrays(tag, fields, names, h5):
    got = sorted(fields.GetArrayName(i) for i in range(fields.GetNumberOfArrays()))
    if got != sorted(names):
        fail("%s: arrays %s, expected %s" % (tag, got, sorted(names)))
    for name in names:
        arr = fields.GetArray(name)
        ref = reference(h5, name)
        if arr is None or ref is None:
            fail("%s: array '%s' %s" % (tag, name, "not read" if arr is None else "has no dataset"))
            continue
        val = vtk_to_numpy(arr).astype(np.float64).reshape(arr.GetNumberOfTuples(), -1)
        ncomp = ref.shape[1]
        if val.shape[0] != ref.shape[0] or val.shape[1] < ncomp:
            fail("%s: '%s' is %s, the dataset %s" % (tag, name, val.shape, ref.shape))
            continue
        # The legacy reader makes every 2-component Vector 3 components: the third is 0.
        if val.shape[1] > ncomp and np.any(val[:, ncomp:] != 0.0):
            fail("%s: '%s' has non-zero padding components" % (tag, name))
        for c in range(ncomp):
            lo, hi = arr.GetRange(c)
            rlo, rhi = ref[:, c].min(), ref[:, c].max()
            if (lo, hi) != (rlo, rhi):
                fail("%s: '%s' component %d range [%r, %r], dataset [%r, %r]" % (tag, name, c, lo, hi, rlo, rhi))
        differ = np.count_nonzero(val[:, :ncomp] != ref)
        if differ:
            fail("%s: '%s': %d of %d values differ from the dataset" % (tag, name, differ, ref.size))
    return got


def check_grid(tag, ds, args, bounds, h5):
    if ds is None:
        return
    if ds.GetNumberOfCells() != args.cells or ds.GetNumberOfPoints() == 0:
        fail("%s: %d cells and %d points, expected %d cells" % (tag, ds.GetNumberOfCells(), ds.GetNumberOfPoints(), args.cells))
    b = ds.GetBounds()
    span = max(bounds[1] - bounds[0], bounds[3] - bounds[2])
    for got, want, axis in ((b[0], bounds[0], "x min"), (b[1], bounds[1], "x max"), (b[2], bounds[2], "y min"), (b[3], bounds[3], "y max")):
        if abs(got - want) > 1e-9 * span:
            fail("%s: %s %r, expected %r (bounds %s)" % (tag, axis, got, want, b))
    zspan = b[5] - b[4]
    if zspan > 0.5 * min(b[1] - b[0], b[3] - b[2]) or abs(b[4] + b[5]) > 1e-9 * span:
        fail("%s: not a layer in the X-Y plane: z from %r to %r" % (tag, b[4], b[5]))
    if args.cell_type:
        want = CELL_TYPES[args.cell_type]
        types = {ds.GetCellType(i) for i in range(ds.GetNumberOfCells())}
        if types != {want}:
            fail("%s: cell types %s, expected only %d (%s)" % (tag, sorted(types), want, args.cell_type))
        if b[4] != 0.0 or b[5] != 0.0:
            fail("%s: not flat in the X-Y plane: z from %r to %r" % (tag, b[4], b[5]))
    cells = check_arrays(tag + " cell data", ds.GetCellData(), args.cell_arrays, h5)
    points = check_arrays(tag + " point data", ds.GetPointData(), args.point_arrays, h5)
    print("%s: %d cells, %d points, bounds %s, cell arrays %s, point arrays %s"
          % (tag, ds.GetNumberOfCells(), ds.GetNumberOfPoints(), ["%.6g" % v for v in b], cells, points))


def main():
    args = ARGS
    args.cell_arrays = [a for a in args.cell_arrays.split(",") if a]
    args.point_arrays = [a for a in args.point_arrays.split(",") if a]
    bounds = geometry_bounds(args.xmf) if args.bounds == ["geometry"] else [float(v) for v in args.bounds]
    files = step_files(args.xmf)
    if len(files) != max(args.steps, 1):
        fail("%d grids in %s, expected %d" % (len(files), args.xmf, max(args.steps, 1)))
    times = []
    for fname in files if args.steps else []:
        with h5py.File(fname, "r") as f:
            times.append(float(np.asarray(f["time"]).reshape(-1)[0]))

    for which in ("default", "legacy"):
        reader = OpenDataFile(args.xmf) if which == "default" else XDMFReader(FileNames=[args.xmf])
        name = reader.GetXMLName()
        if which == "default" and name != DEFAULT_READER:
            fail("ParaView opens %s with %s, expected %s" % (args.xmf, name, DEFAULT_READER))
        tvals = list(reader.TimestepValues) if args.steps else []
        if tvals != times:
            fail("%s: time values %s, the step files say %s" % (name, tvals, times))
        for k, fname in enumerate(files):
            if args.steps:
                if k >= len(tvals):
                    break
                reader.UpdatePipeline(tvals[k])
            else:
                reader.UpdatePipeline()
            tag = "%s %s" % (name, os.path.basename(fname))
            with h5py.File(fname, "r") as h5:
                check_grid(tag, leaf(sm.Fetch(reader)), args, bounds, h5)
        Delete(reader)
    if failures:
        print("%d failure(s) reading %s" % (len(failures), args.xmf))
        sys.exit(1)
    print("OK: %s reads the same in %s and the legacy XDMF reader" % (args.xmf, DEFAULT_READER))


main()
