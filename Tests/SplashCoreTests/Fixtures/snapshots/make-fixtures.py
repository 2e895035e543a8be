#!/usr/bin/env python3
"""Writes launch-snapshot files the way iOS stores them, made by reference tools only, so the tests
of splashgen's readers have an oracle that is not splashgen:

- ASTC 4x4 blocks from ARM's `astcenc` command line (Debian's astcenc package), -thorough unless said;
- LZFSE streams from Apple's reference implementation (PyPI's pyliblzfse);
- PNGs from the tiny zlib + struct writer below; no splashgen code is used anywhere.

Pictures (the expected pixels):
  scene.png       61x45 (odd sizes: partial ASTC blocks): soft gradient, dark disc, white 2x2 corner
  tiles.png       256x256 = exactly 2x2 tiles of 32x32 blocks, so plain and twiddled payloads have the
                  same length (65536 bytes): flat horizontal bands 42 px high (edges not on 128),
                  a flat off-centre disc crossing both tile seams, a white 2x2 corner at bottom-right
  pad.png         300x280 = 75x70 blocks, padded to 3x3 tiles when twiddled; same style as tiles.png

Containers laid out as public forensic readers parse them (docs/ios-launch-cache.md §3, older layouts):
  atx-lzfs.ktx    ATX: AAPL magic, HEAD (eleven UInt32), LZFS (UInt32 = block bytes + LZFSE stream), END
  atx-raw.ktx     ATX with a FILL chunk (12 bytes) and an `astc` chunk (UInt32 + raw blocks)
  ktx-apple.ktx   KTX 1.1 with Compression_APPLE: level = 8 bytes, then the LZFSE stream
  ktx-plain.ktx   KTX 1.1, level = the raw blocks

Containers in the launch layout real devices write (docs/ios-launch-cache.md §3, the files devices write):
magic, HEAD (84 bytes = 21 UInt32), FILL (136 zero bytes), the payload chunk (header at byte 244,
data at 252: a UInt32, then the blocks at byte 256), END (0 bytes), end of file.
HEAD = 1,0,0,0,0x93B0,0x1908,width,height,1,0,1,1,0,1,1,0x55555555 x4,1,5 (PosterBoard: word 13 = 0,
words 19-20 = 4,1; words counted from 0).
  launch-lzfs.ktx           scene.png; LZFS chunk: UInt32 = LZFSE stream bytes, stream -> row-order blocks
  launch-astc-rows.ktx      scene.png; ASTC chunk: UInt32 = payload bytes, blocks in row order
  launch-astc-wide.ktx      as launch-astc-rows.ktx, but HEAD records width 62 (one more pixel, same
                            block count) and the PosterBoard words (13 = 0, 19-20 = 4, 1)
  tiles-rows.ktx            tiles.png; ASTC chunk, row order (65536 bytes)
  tiles-morton-x.ktx        tiles.png; ASTC chunk, twiddled, x in the even Morton bits (65536 bytes)
  tiles-morton-y.ktx        tiles.png; ASTC chunk, twiddled, y in the even Morton bits (65536 bytes)
  pad-morton-x.ktx          pad.png; ASTC chunk, twiddled, x in the even bits (9 tiles = 147456 bytes;
                            blocks outside the image are 16 zero bytes)
  pad-morton-y.ktx          pad.png; ASTC chunk, twiddled, y in the even bits (147456 bytes)
  launch-white-1179x2556.ktx  empty light launch screen (opaque white), LZFS, astcenc -fast
  launch-black-1179x2556.ktx  empty dark launch screen (opaque black), LZFS, astcenc -fast

Twiddled order: tiles of 32x32 blocks in row order (tile t = tileY * tilesAcross + tileX); inside a
tile, block (x, y) (0..31 each, relative to the tile) sits at Morton index
  x in even bits: m = sum_i bit_i(x) << 2i  |  bit_i(y) << (2i + 1)
  y in even bits: m = sum_i bit_i(y) << 2i  |  bit_i(x) << (2i + 1)
and its 16 bytes start at (t * 1024 + m) * 16.

Run from anywhere: python3 make-fixtures.py (needs astcenc and pyliblzfse); check-fixtures.py beside
it re-reads the launch-layout files independently and decodes them with astcenc.
"""
import os, struct, subprocess, tempfile, zlib

import liblzfse

HERE = os.path.dirname(os.path.abspath(__file__))
W, H = 61, 45


def pixel(x, y):
    # A soft gradient with a dark disc and a white 2x2 corner: easy for ASTC, every pixel known.
    if x >= W - 2 and y >= H - 2:
        return (255, 255, 255, 255)
    if (x - 20) ** 2 + (y - 22) ** 2 < 100:
        return (24, 30, 48, 255)
    return (200 + x // 2, 120 + y, 60 + (x + y) // 4, 255)


def write_png(path, w, h, rows):
    # rows: h scanlines, each filter byte 0 then w RGBA pixels.
    assert len(rows) == h * (1 + 4 * w)
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
    data += chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")
    open(path, "wb").write(data)


def rows_of(w, h, pixel_at):
    return b"".join(b"\x00" + bytes(c for x in range(w) for c in pixel_at(x, y)) for y in range(h))


def png(path):
    write_png(path, W, H, rows_of(W, H, pixel))


def astc_blocks(png_path, w=W, h=H, quality="-thorough"):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.astc")
        subprocess.run(["astcenc", "-cl", png_path, out, "4x4", quality, "-silent"], check=True)
        data = open(out, "rb").read()
    assert data[:4] == bytes([0x13, 0xAB, 0xA1, 0x5C]), "not an .astc file"
    assert data[4:7] == b"\x04\x04\x01"
    assert [int.from_bytes(data[i:i + 3], "little") for i in (7, 10, 13)] == [w, h, 1]
    blocks = data[16:]
    assert len(blocks) == ((w + 3) // 4) * ((h + 3) // 4) * 16
    return blocks


def ktx(level, key_values=b""):
    header = b"\xabKTX 11\xbb\r\n\x1a\n" + struct.pack("<13I", 0x04030201, 0, 1, 0, 0x93B0, 0x1908, W, H, 0, 0, 1, 1, len(key_values))
    return header + key_values + struct.pack("<I", len(level)) + level + b"\x00" * ((4 - len(level) % 4) % 4)


def atx(chunks):
    out = b"AAPL\r\n\x1a\n"
    for tag, body in chunks:
        out += struct.pack("<I", len(body)) + tag + body
    return out


# --- the launch layout of section 3 ------------------------------------------------------------

def launch_head(w, h, posterboard=False):
    words = [1, 0, 0, 0, 0x93B0, 0x1908, w, h, 1, 0, 1, 1, 0, 1, 1,
             0x55555555, 0x55555555, 0x55555555, 0x55555555, 1, 5]
    if posterboard:
        words[13] = 0
        words[19:21] = [4, 1]
    head = struct.pack("<21I", *words)
    assert len(head) == 84
    return head


def launch_atx(w, h, tag, payload, posterboard=False):
    # payload = what follows the chunk's UInt32 (LZFSE stream or raw blocks); the UInt32 is its length.
    data = atx([(b"HEAD", launch_head(w, h, posterboard)), (b"FILL", b"\x00" * 136),
                (tag, struct.pack("<I", len(payload)) + payload), (b"END ", b"")])
    assert data[:8] == b"AAPL\r\n\x1a\n"
    assert data[8:16] == struct.pack("<I", 84) + b"HEAD" and data[100:108] == struct.pack("<I", 136) + b"FILL"
    assert data[108:244] == b"\x00" * 136
    assert data[244:252] == struct.pack("<I", 4 + len(payload)) + tag, "payload chunk header not at 244"
    assert data[252:256] == struct.pack("<I", len(payload))
    assert data[256:256 + len(payload)] == payload, "blocks do not start at 256"
    assert data[256 + len(payload):] == b"\x00\x00\x00\x00END ", "file does not end at END"
    return data


def lzfs(blocks):
    stream = liblzfse.compress(blocks)
    assert stream[:3] == b"bvx" and stream[-4:] == b"bvx$"
    assert liblzfse.decompress(stream) == blocks, "liblzfse does not round-trip"
    return stream


def morton(x, y, even):
    # Index of block (x, y) inside a 32x32 tile; `even` names the coordinate in the even bits.
    a, b = (x, y) if even == "x" else (y, x)
    m = 0
    for i in range(5):
        m |= ((a >> i) & 1) << (2 * i) | ((b >> i) & 1) << (2 * i + 1)
    return m


def twiddle(blocks, w, h, even):
    bw, bh = (w + 3) // 4, (h + 3) // 4
    tiles_x, tiles_y = (bw + 31) // 32, (bh + 31) // 32
    out = bytearray(tiles_x * tiles_y * 1024 * 16)  # padding blocks stay 16 zero bytes
    seen = set()
    for by in range(bh):
        for bx in range(bw):
            i = ((by // 32) * tiles_x + bx // 32) * 1024 + morton(bx % 32, by % 32, even)
            assert i not in seen
            seen.add(i)
            out[i * 16:i * 16 + 16] = blocks[(by * bw + bx) * 16:(by * bw + bx) * 16 + 16]
    return bytes(out)


BANDS = [(244, 239, 230), (43, 76, 126), (224, 122, 95), (61, 139, 110),
         (242, 193, 78), (106, 76, 147), (31, 31, 36), (156, 197, 217)]
DISC = (214, 58, 140)


def poster(w, h, cx, cy, r):
    # Launch-screen-like: flat bands 42 px high, a flat disc, a white 2x2 corner at bottom-right.
    def at(x, y):
        if x >= w - 2 and y >= h - 2:
            return (255, 255, 255, 255)
        if (x - cx) ** 2 + (y - cy) ** 2 < r * r:
            return DISC + (255,)
        return BANDS[(y // 42) % len(BANDS)] + (255,)
    return at


def flat_blocks(w, h, rgba):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "flat.png")
        write_png(path, w, h, (b"\x00" + bytes(rgba) * w) * h)
        return astc_blocks(path, w, h, "-fast")


def main():
    png(os.path.join(HERE, "scene.png"))
    blocks = astc_blocks(os.path.join(HERE, "scene.png"))
    stream = liblzfse.compress(blocks)
    assert liblzfse.decompress(stream) == blocks
    head = struct.pack("<11I", 1, 0, 0, 0, 0x93B0, 0x1908, W, H, 0, 0, 1)
    files = {
        "atx-lzfs.ktx": atx([(b"HEAD", head), (b"LZFS", struct.pack("<I", len(blocks)) + stream), (b"END ", b"")]),
        "atx-raw.ktx": atx([(b"HEAD", head), (b"FILL", b"\x00" * 12), (b"astc", struct.pack("<I", len(blocks)) + blocks), (b"END ", b"")]),
        "ktx-apple.ktx": ktx(struct.pack("<II", len(blocks), len(stream)) + stream,
                             struct.pack("<I", 18) + b"Compression_APPLE\x00" + b"\x00\x00"),
        "ktx-plain.ktx": ktx(blocks),
    }
    for name, data in files.items():
        open(os.path.join(HERE, name), "wb").write(data)
        print(f"{name}: {len(data)} bytes (LZFSE stream starts {stream[:4]!r})")

    # Section 3's launch layout.
    new = {}
    stream = lzfs(blocks)
    new["launch-lzfs.ktx"] = launch_atx(W, H, b"LZFS", stream)
    print(f"launch-lzfs.ktx: LZFSE stream {len(stream)} bytes for {len(blocks)} block bytes, starts {stream[:4]!r}")
    new["launch-astc-rows.ktx"] = launch_atx(W, H, b"ASTC", blocks)
    assert (W + 4) // 4 == (W + 3) // 4, "the recorded width + 1 must keep the block count"
    new["launch-astc-wide.ktx"] = launch_atx(W + 1, H, b"ASTC", blocks, posterboard=True)

    for name, (w, h, cx, cy, r) in {"tiles": (256, 256, 168, 86, 44), "pad": (300, 280, 206, 118, 52)}.items():
        path = os.path.join(HERE, name + ".png")
        write_png(path, w, h, rows_of(w, h, poster(w, h, cx, cy, r)))
        rows = astc_blocks(path, w, h)
        x_even, y_even = twiddle(rows, w, h, "x"), twiddle(rows, w, h, "y")
        assert x_even != y_even
        if name == "tiles":
            assert len(rows) == len(x_even) == len(y_even) == 65536
            new["tiles-rows.ktx"] = launch_atx(w, h, b"ASTC", rows)
        else:
            assert len(rows) == 75 * 70 * 16 and len(x_even) == len(y_even) == 9 * 1024 * 16 == 147456
        new[f"{name}-morton-x.ktx"] = launch_atx(w, h, b"ASTC", x_even)
        new[f"{name}-morton-y.ktx"] = launch_atx(w, h, b"ASTC", y_even)

    for name, rgba in (("white", (255, 255, 255, 255)), ("black", (0, 0, 0, 255))):
        flat = flat_blocks(1179, 2556, rgba)
        assert len(flat) == 295 * 639 * 16
        stream = lzfs(flat)
        new[f"launch-{name}-1179x2556.ktx"] = launch_atx(1179, 2556, b"LZFS", stream)
        print(f"launch-{name}-1179x2556.ktx: LZFSE stream {len(stream)} bytes for {len(flat)} block bytes "
              f"({len(flat) / len(stream):.0f}x), first block {flat[:16].hex(' ')}")

    for name, data in new.items():
        open(os.path.join(HERE, name), "wb").write(data)
        print(f"{name}: {len(data)} bytes")


main()
