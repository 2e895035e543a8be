#!/usr/bin/env python3
"""Writes launch-snapshot files the way iOS stores them, made by reference tools only, so the tests
of splashgen's readers have an oracle that is not splashgen:

- scene.png       a 61x45 picture (odd sizes: partial ASTC blocks), the expected pixels;
- ASTC 4x4 blocks from ARM's `astcenc` command line (Debian's astcenc package), -thorough;
- LZFSE streams from Apple's reference implementation (PyPI's pyliblzfse);
- the containers laid out as public forensic readers parse them (reference section 3):
  atx-lzfs.ktx    ATX: AAPL magic, HEAD (eleven UInt32), LZFS (UInt32 + LZFSE stream), END
  atx-raw.ktx     ATX with an `astc` chunk (UInt32 + raw blocks) and a FILL chunk
  ktx-apple.ktx   KTX 1.1 with Compression_APPLE: level = 8 bytes, then the LZFSE stream
  ktx-plain.ktx   KTX 1.1, level = the raw blocks

Run from anywhere: python3 make-fixtures.py (needs astcenc and pyliblzfse).
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


def png(path):
    rows = b"".join(b"\x00" + bytes(c for x in range(W) for c in pixel(x, y)) for y in range(H))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 6, 0, 0, 0))
    data += chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")
    open(path, "wb").write(data)


def astc_blocks(png_path):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.astc")
        subprocess.run(["astcenc", "-cl", png_path, out, "4x4", "-thorough", "-silent"], check=True)
        data = open(out, "rb").read()
    assert data[:4] == bytes([0x13, 0xAB, 0xA1, 0x5C]), "not an .astc file"
    blocks = data[16:]
    assert len(blocks) == ((W + 3) // 4) * ((H + 3) // 4) * 16
    return blocks


def ktx(level, key_values=b""):
    header = b"\xabKTX 11\xbb\r\n\x1a\n" + struct.pack("<13I", 0x04030201, 0, 1, 0, 0x93B0, 0x1908, W, H, 0, 0, 1, 1, len(key_values))
    return header + key_values + struct.pack("<I", len(level)) + level + b"\x00" * ((4 - len(level) % 4) % 4)


def atx(chunks):
    out = b"AAPL\r\n\x1a\n"
    for tag, body in chunks:
        out += struct.pack("<I", len(body)) + tag + body
    return out


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


main()
