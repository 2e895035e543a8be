#!/usr/bin/env python3
"""Compares a simulator screenshot of the launch screen with the images it might be showing.

    compare-screenshot.py SHOT.png --reference NAME=IMAGE.png [--reference NAME=IMAGE.png ...]
                          --top PX --bottom PX [--min-psnr DB] [--json OUT.json] [--diff OUT.png]

Each reference is a PNG of the same pixel size as the screenshot: the campaign's object decoded by
`splashgen decode`, and the OS's own renders recorded before the applier ran. Only the rows between
the top `--top` pixels (the status bar over the launch screen) and the bottom `--bottom` pixels (the
home indicator) are compared, over the full width. For each reference it reports the PSNR over RGB,
the mean absolute and mean signed difference per channel (a constant signed shift points to colour
management rather than other pixels), and the share of pixels whose channels all lie within 24 levels.
The verdict is the name of the reference with the highest PSNR if that is at least `--min-psnr`
(default 30 dB: ASTC 4x4 at splashgen's qualities stays above it against its own decode), else
"neither". Alpha is ignored.

It exits 0 whatever the verdict (the workflow judges it after uploading everything), 2 when an input
cannot be read. Python's standard library only (zlib for PNG): no third-party package.
"""

import argparse
import json
import math
import struct
import sys
import zlib

WITHIN = 24


class PNGError(Exception):
    pass


def read_png(path):
    """Returns (width, height, rows) with rows a list of bytes, 3 bytes (RGB, 8-bit) per pixel."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise PNGError(f"{path}: not a PNG")
    pos, idat, palette, header = 8, [], None, None
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"PLTE":
            palette = body
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    if header is None:
        raise PNGError(f"{path}: no IHDR")
    width, height, depth, colour, _, _, interlace = header
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}.get(colour)
    if channels is None or depth not in (8, 16) or (colour == 3 and depth != 8):
        raise PNGError(f"{path}: colour type {colour} at {depth} bits is not read here")
    if interlace:
        raise PNGError(f"{path}: interlaced PNG is not read here")
    raw = zlib.decompress(b"".join(idat))
    bpp = channels * depth // 8
    stride = width * bpp
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        unfilter(kind, line, previous, bpp)
        rows.append(to_rgb(line, width, colour, depth, palette))
        previous = line
    return width, height, rows


def unfilter(kind, line, previous, bpp):
    if kind == 0:
        return
    for i in range(len(line)):
        a = line[i - bpp] if i >= bpp else 0
        b = previous[i]
        if kind == 1:
            line[i] = (line[i] + a) & 255
        elif kind == 2:
            line[i] = (line[i] + b) & 255
        elif kind == 3:
            line[i] = (line[i] + ((a + b) >> 1)) & 255
        elif kind == 4:
            c = previous[i - bpp] if i >= bpp else 0
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        else:
            raise PNGError(f"filter type {kind}")


def to_rgb(line, width, colour, depth, palette):
    if depth == 16:
        line = line[0::2]  # the high byte of each sample
    if colour == 2:
        return bytes(line)
    if colour == 6:
        out = bytearray(width * 3)
        out[0::3], out[1::3], out[2::3] = line[0::4], line[1::4], line[2::4]
        return bytes(out)
    if colour == 3:
        return b"".join(palette[i * 3 : i * 3 + 3] for i in line)
    grey = line[0::2] if colour == 4 else line
    out = bytearray(width * 3)
    out[0::3] = out[1::3] = out[2::3] = grey
    return bytes(out)


def write_grey_png(path, width, height, rows):
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    raw = b"".join(b"\x00" + row for row in rows)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 9)))
        f.write(chunk(b"IEND", b""))


def compare(shot, reference, top, bottom, want_diff):
    width, height, rows = shot
    rwidth, rheight, rrows = reference
    if (rwidth, rheight) != (width, height):
        return {"size": f"{rwidth}x{rheight}", "comparable": False}, None
    squared, absolute, signed, within, count = 0, [0, 0, 0], [0, 0, 0], 0, 0
    diff_rows = [bytes(width)] * height if want_diff else None
    for y in range(top, height - bottom):
        a, b = rows[y], rrows[y]
        diff = bytearray(width) if want_diff else None
        for x in range(width):
            i = 3 * x
            worst = 0
            for c in range(3):
                d = a[i + c] - b[i + c]
                squared += d * d
                absolute[c] += abs(d)
                signed[c] += d
                worst = max(worst, abs(d))
            within += worst <= WITHIN
            if diff is not None:
                diff[x] = min(255, worst * 4)
        count += width
        if want_diff:
            diff_rows[y] = bytes(diff)
    if count == 0:
        return {"size": f"{rwidth}x{rheight}", "comparable": False}, None
    mse = squared / (3 * count)
    psnr = 99.0 if mse == 0 else 10 * math.log10(255 * 255 / mse)
    result = {
        "size": f"{rwidth}x{rheight}",
        "comparable": True,
        "psnr_db": round(psnr, 2),
        "mean_abs_rgb": [round(v / count, 2) for v in absolute],
        "mean_signed_rgb": [round(v / count, 2) for v in signed],
        f"share_within_{WITHIN}": round(within / count, 4),
    }
    return result, diff_rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("screenshot")
    parser.add_argument("--reference", action="append", required=True, metavar="NAME=IMAGE.png")
    parser.add_argument("--top", type=int, required=True, help="pixels left out at the top (status bar)")
    parser.add_argument("--bottom", type=int, required=True, help="pixels left out at the bottom (home indicator)")
    parser.add_argument("--min-psnr", type=float, default=30.0)
    parser.add_argument("--json", help="write the result here")
    parser.add_argument("--diff", help="write the best reference's difference here (grey PNG, 4x amplified)")
    args = parser.parse_args()
    try:
        shot = read_png(args.screenshot)
        references = {}
        for item in args.reference:
            name, sep, path = item.partition("=")
            if not sep or not name or not path:
                raise PNGError(f"--reference {item}: expected NAME=IMAGE.png")
            references[name] = read_png(path)
    except (OSError, PNGError, zlib.error) as error:
        print(f"compare-screenshot: {error}", file=sys.stderr)
        return 2
    width, height, _ = shot
    top, bottom = max(args.top, 0), max(args.bottom, 0)
    results, diffs = {}, {}
    for name, image in references.items():
        results[name], diffs[name] = compare(shot, image, top, bottom, args.diff is not None)
    comparable = [n for n, r in results.items() if r["comparable"]]
    best = max(comparable, key=lambda n: results[n]["psnr_db"], default=None)
    verdict = best if best is not None and results[best]["psnr_db"] >= args.min_psnr else "neither"
    summary = {
        "screenshot": f"{width}x{height}",
        "rows_compared": [top, height - bottom],
        "min_psnr_db": args.min_psnr,
        "references": results,
        "nearest": best,
        "verdict": verdict,
    }
    if args.json:
        with open(args.json, "w") as f:
            json.dump(summary, f, indent=2, sort_keys=True)
            f.write("\n")
    if args.diff and best is not None:
        write_grey_png(args.diff, width, height, diffs[best])
    for name, result in results.items():
        if result["comparable"]:
            print(f"{name}: PSNR {result['psnr_db']} dB, mean |d| {result['mean_abs_rgb']}, "
                  f"mean d {result['mean_signed_rgb']}, within {WITHIN}: {result[f'share_within_{WITHIN}']:.1%}")
        else:
            print(f"{name}: {result['size']}, not the screenshot's {width}x{height}: not compared")
    print(f"verdict: {verdict} (rows {top} to {height - bottom} of {height})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
