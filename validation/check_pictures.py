"""Checks the pictures a run wrote.

usage:
    check_pictures.py png FILE.png...
        each file is a PNG (signature, IHDR) of a sensible size; when FILE.ppm
        exists beside it, the PPM (binary P6) has the same size and pixels
    check_pictures.py same-range DIR FIELD
        the annotated frames DIR/FIELD_NNNN.ppm (at least two) were drawn with
        one colour range: the same size, and the same pixels in the column of
        colour-bar labels at their right edge (the title, with the time,
        differs from frame to frame, the labels only with the range)
    check_pictures.py axes FILE.png...
        an annotated picture of a field with axes: below the field's frame
        (the longest black line of the picture, and the rows and column it
        bounds) tick marks hang from its bottom edge with numbers under them,
        and tick marks stand left of its left edge with numbers beside them
    check_pictures.py key-outside FILE.png...
        a gnuplot plot whose key (legend) lies below the plot's frame, where
        it cannot cover a curve: coloured pixels (the key's line samples)
        below the frame's bottom edge (the lowest dark line across most of
        the picture)

Exit 0 when all holds, 1 otherwise (each problem printed).
"""
import glob
import os
import struct
import sys
import zlib

LABEL_COLUMNS = 50  # the labels end 10 pixels from the right edge and are narrower than 40
TITLE_ROWS = 40     # margin, title line and margin above the field (text scale 1)


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    fields, pos = [], 2
    if data[:2] != b"P6":
        raise ValueError("%s: not a binary PPM" % path)
    while len(fields) < 3:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos)
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(int(data[pos:end]))
        pos = end
    w, h, maxval = fields
    pixels = data[pos + 1:pos + 1 + 3 * w * h]
    if maxval != 255 or len(pixels) != 3 * w * h:
        raise ValueError("%s: truncated or not 8-bit" % path)
    return w, h, pixels


def read_png(path):
    """Width, height and RGB pixels of an 8-bit RGB PNG (as op_image writes)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("%s: no PNG signature" % path)
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            if depth != 8 or ctype != 2:
                raise ValueError("%s: not 8-bit RGB" % path)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, rows, stride, prev = zlib.decompress(idat), [], 3 * w, bytearray(3 * w)
    for r in range(h):
        ftype, line = raw[r * (stride + 1)], bytearray(raw[r * (stride + 1) + 1:(r + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - 3] if i >= 3 else 0
            b, c = prev[i], prev[i - 3] if i >= 3 else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, b"".join(rows)


def check_png(files):
    bad = 0
    for png in files:
        try:
            w, h, pixels = read_png(png)
            if not (16 <= w <= 32768 and 16 <= h <= 32768):
                raise ValueError("%s: %d x %d pixels" % (png, w, h))
            ppm = png[:-4] + ".ppm"
            if os.path.exists(ppm):
                pw, ph, ppix = read_ppm(ppm)
                if (pw, ph) != (w, h) or ppix != pixels:
                    raise ValueError("%s: differs from %s" % (png, ppm))
            print("%s: PNG %d x %d%s" % (png, w, h, ", the same picture as the PPM" if os.path.exists(ppm) else ""))
        except (OSError, ValueError, zlib.error, struct.error) as e:
            print("FAIL: %s" % e)
            bad += 1
    return bad


def check_same_range(directory, field):
    frames = sorted(glob.glob(os.path.join(directory, "%s_[0-9][0-9][0-9][0-9].ppm" % field)))
    if len(frames) < 2:
        print("FAIL: %d frames of %s in %s, expected at least 2" % (len(frames), field, directory))
        return 1
    first = None
    bad = 0
    for path in frames:
        w, h, pixels = read_ppm(path)
        labels = [pixels[3 * (y * w + w - LABEL_COLUMNS):3 * (y + 1) * w] for y in range(TITLE_ROWS, h)]
        if first is None:
            first = (w, h, labels, path)
        elif (w, h) != first[:2] or labels != first[2]:
            print("FAIL: %s and %s do not share the colour range (size %dx%d and %dx%d, labels %s)"
                  % (first[3], path, first[0], first[1], w, h, "differ" if (w, h) == first[:2] else "-"))
            bad += 1
    if not bad:
        print("%d frames of %s share one colour range" % (len(frames), field))
    return bad


def find_frame(w, h, pixels):
    """The field's frame: (left, top, right, bottom) of the rectangle whose
    top and bottom edges are the longest black runs of any row (the colour
    bar is narrower than the field), or None."""
    def black(x, y):
        p = pixels[3 * (y * w + x):3 * (y * w + x) + 3]
        return max(p) < 60
    best, rows = (0, 0), []
    for y in range(h):
        x = 0
        while x < w:
            if black(x, y):
                x0 = x
                while x < w and black(x, y):
                    x += 1
                run = (x - x0, -x0)
                if run > best:
                    best, rows = run, [y]
                elif run == best:
                    rows.append(y)
            x += 1
    length, left = best[0], -best[1]
    if length < 8 or len(rows) < 2:
        return None
    return left, min(rows), left + length - 1, max(rows)


def check_axes(files):
    bad = 0
    for png in files:
        try:
            w, h, pixels = read_png(png)
        except (OSError, ValueError, zlib.error, struct.error) as e:
            print("FAIL: %s" % e)
            bad += 1
            continue

        def dark(x, y):
            if not (0 <= x < w and 0 <= y < h):
                return False
            p = pixels[3 * (y * w + x):3 * (y * w + x) + 3]
            return max(p) < 100

        def runs(flags):
            """How many groups of consecutive True."""
            return sum(1 for i, f in enumerate(flags) if f and (i == 0 or not flags[i - 1]))
        frame = find_frame(w, h, pixels)
        if frame is None:
            print("FAIL: %s: no frame around a field found" % png)
            bad += 1
            continue
        left, top, right, bottom = frame
        # x axis: ticks 3 pixels down from the bottom edge, numbers within 30 rows below them.
        x_ticks = runs([all(dark(x, bottom + d) for d in (1, 2, 3)) for x in range(left, right + 1)])
        x_numbers = sum(dark(x, y) for y in range(bottom + 5, bottom + 35)
                        for x in range(max(0, left - 40), min(w, right + 40)))
        # y axis: ticks 3 pixels left of the left edge, numbers left of them.
        y_ticks = runs([all(dark(left - d, y) for d in (1, 2, 3)) for y in range(top, bottom + 1)])
        y_numbers = sum(dark(x, y) for y in range(max(0, top - 10), min(h, bottom + 10))
                        for x in range(0, max(0, left - 5)))
        what = "x ticks %d, x number pixels %d, y ticks %d, y number pixels %d" % (
            x_ticks, x_numbers, y_ticks, y_numbers)
        if x_ticks < 1 or y_ticks < 1 or x_numbers < 10 or y_numbers < 10:
            print("FAIL: %s: no axes around the field (frame %d,%d to %d,%d: %s)"
                  % (png, left, top, right, bottom, what))
            bad += 1
        else:
            print("%s: axes around the field (frame %d,%d to %d,%d: %s)"
                  % (png, left, top, right, bottom, what))
    return bad


def check_key_outside(files):
    bad = 0
    for png in files:
        try:
            w, h, pixels = read_png(png)
        except (OSError, ValueError, zlib.error, struct.error) as e:
            print("FAIL: %s" % e)
            bad += 1
            continue

        def dark(x, y):
            r, g, b = pixels[3 * (y * w + x):3 * (y * w + x) + 3]
            return r < 80 and g < 80 and b < 80

        def coloured(x, y):
            p = pixels[3 * (y * w + x):3 * (y * w + x) + 3]
            return max(p) - min(p) > 80
        frame = [y for y in range(h) if sum(dark(x, y) for x in range(0, w, 2)) > 0.4 * w / 2]
        if not frame:
            print("FAIL: %s: no frame found (no dark line across the plot)" % png)
            bad += 1
            continue
        bottom = max(frame)
        below = sum(coloured(x, y) for y in range(bottom + 2, h) for x in range(w))
        inside = sum(coloured(x, y) for y in range(min(frame), bottom) for x in range(w))
        if below < 20:
            print("FAIL: %s: no key below the frame (row %d; %d coloured pixels below it, %d "
                  "inside): it lies over the curves" % (png, bottom, below, inside))
            bad += 1
        else:
            print("%s: the key lies below the frame (row %d of %d: %d coloured pixels)"
                  % (png, bottom, h, below))
    return bad


def main():
    if sys.argv[1:2] in (["-h"], ["--help"]):
        print(__doc__.strip())
        sys.exit(0)
    if len(sys.argv) >= 3 and sys.argv[1] == "png":
        sys.exit(1 if check_png(sys.argv[2:]) else 0)
    if len(sys.argv) >= 3 and sys.argv[1] == "axes":
        sys.exit(1 if check_axes(sys.argv[2:]) else 0)
    if len(sys.argv) >= 3 and sys.argv[1] == "key-outside":
        sys.exit(1 if check_key_outside(sys.argv[2:]) else 0)
    if len(sys.argv) == 4 and sys.argv[1] == "same-range":
        sys.exit(1 if check_same_range(sys.argv[2], sys.argv[3]) else 0)
    print(__doc__)
    sys.exit(2)


# Also imported (result_compare.py reads pictures with it).
if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "lib"))
    import suite_version  # the --version of every script
    suite_version.answer(sys.argv)
    main()
