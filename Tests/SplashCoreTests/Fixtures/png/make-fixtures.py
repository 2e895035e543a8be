#!/usr/bin/env python3
"""Writes one small PNG of every kind PNGCodecTests decodes (Python standard library only).

Every image is the same 5x3 pattern, so the test knows each pixel's value:
  red = 40x + 10, green = 60y + 20, blue = 30xy, alpha = 255 - 50x (alpha kinds only).
Grey kinds store the red value as grey. Palette kinds index a table of those colours.
"""
import os, struct, zlib

W, H = 5, 3
HERE = os.path.dirname(os.path.abspath(__file__))


def rgba(x, y):
    return (40 * x + 10, 60 * y + 20, 30 * x * y, 255 - 50 * x)


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def sample_bytes(values, depth):
    return b"".join(struct.pack(">H", v * 257) if depth == 16 else bytes([v]) for v in values)


def pixel(x, y, color_type, depth):
    r, g, b, a = rgba(x, y)
    if color_type == 0: return sample_bytes([r], depth)
    if color_type == 2: return sample_bytes([r, g, b], depth)
    if color_type == 3: return bytes([y * W + x])
    if color_type == 4: return sample_bytes([r, a], depth)
    if color_type == 6: return sample_bytes([r, g, b, a], depth)


ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def image_data(color_type, depth, interlaced):
    passes = ADAM7 if interlaced else [(0, 0, 1, 1)]
    raw = b""
    for x0, y0, dx, dy in passes:
        for y in range(y0, H, dy):
            row = b"".join(pixel(x, y, color_type, depth) for x in range(x0, W, dx))
            if row:
                raw += b"\x00" + row
    return raw


def write(name, color_type, depth=8, interlaced=False, extra=b""):
    ihdr = struct.pack(">IIBBBBB", W, H, depth, color_type, 0, 0, 1 if interlaced else 0)
    body = chunk(b"IHDR", ihdr) + extra
    if color_type == 3:
        colors = [rgba(x, y) for y in range(H) for x in range(W)]
        body += chunk(b"PLTE", b"".join(bytes(c[:3]) for c in colors))
        body += chunk(b"tRNS", bytes(c[3] for c in colors))
    body += chunk(b"IDAT", zlib.compress(image_data(color_type, depth, interlaced)))
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + body + chunk(b"IEND", b""))


SRGB = chunk(b"sRGB", b"\x00")
GAMA_SRGB = chunk(b"gAMA", struct.pack(">I", 45455))
GAMA_LINEAR = chunk(b"gAMA", struct.pack(">I", 100000))

write("rgb8.png", 2)
write("rgba8.png", 6)
write("rgba8-srgb.png", 6, extra=SRGB)
write("rgb16.png", 2, 16)
write("rgba16.png", 6, 16)
write("rgb16-gama-srgb.png", 2, 16, extra=GAMA_SRGB)
write("rgb16-gama-linear.png", 2, 16, extra=GAMA_LINEAR)
write("palette.png", 3)
write("grey8.png", 0)
write("grey16.png", 0, 16)
write("grey-alpha8.png", 4)
write("rgb8-interlaced.png", 2, interlaced=True)
write("rgba16-interlaced.png", 6, 16, interlaced=True)
write("palette-interlaced.png", 3, interlaced=True)

# A truncated file: the first half of a valid one.
data = open(os.path.join(HERE, "rgb8.png"), "rb").read()
open(os.path.join(HERE, "truncated.png"), "wb").write(data[: len(data) // 2])
# A header that claims 30000 x 30000 pixels (a decompression bomb), with almost no data.
bomb = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 30000, 30000, 8, 6, 0, 0, 0))
bomb += chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + chunk(b"IEND", b"")
open(os.path.join(HERE, "bomb.png"), "wb").write(bomb)
# Not a PNG at all.
open(os.path.join(HERE, "not-a-png.png"), "wb").write(b"GIF89a this is not a PNG file\n")
