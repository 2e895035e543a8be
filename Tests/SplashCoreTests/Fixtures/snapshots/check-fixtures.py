#!/usr/bin/env python3
"""Independent check of the launch-layout fixtures written by make-fixtures.py (Python + astcenc only,
no splashgen code, and none of make-fixtures.py's helpers):

- walks each file's ATX chunks generically and checks the launch layout of docs/ios-launch-cache.md §3
  (HEAD 84 bytes with the expected words, FILL 136 zeros, payload chunk header at 244, blocks at 256,
  END last, nothing after it);
- inflates LZFS payloads with liblzfse; un-twiddles the Morton files by *de*-interleaving each
  payload index (the inverse of what the maker does) with the interleaving the name says, and checks
  the result equals the row-order blocks astcenc makes afresh from the source PNG, that the other
  interleaving does not, and that padding blocks are zero;
- decodes the row-order blocks with `astcenc -dl` (its own .astc header, size from HEAD) and compares
  them with the source PNG (PSNR > 35 dB; the white/black screens must decode exactly).

Run: python3 check-fixtures.py (after make-fixtures.py). Exits non-zero on the first failure.
"""
import math, os, struct, subprocess, sys, tempfile, zlib

import liblzfse

HERE = os.path.dirname(os.path.abspath(__file__))
POSTER = {13: 0, 19: 4, 20: 1}


def read_png(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and interlace == 0
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    bpp = 4 if ctype == 6 else 3
    raw, stride, out, prev = zlib.decompress(idat), w * bpp, bytearray(), bytearray(w * bpp)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out += line if bpp == 4 else b"".join(bytes(line[i:i + 3]) + b"\xff" for i in range(0, stride, 3))
        prev = line
    return w, h, bytes(out)


def chunks(data):
    assert data[:8] == b"AAPL\r\n\x1a\n", "no ATX magic"
    pos, out = 8, []
    while True:
        n, tag = struct.unpack("<I4s", data[pos:pos + 8])
        out.append((pos, tag, data[pos + 8:pos + 8 + n]))
        pos += 8 + n
        if tag == b"END ":
            assert pos == len(data), "bytes after END"
            return out


def encode(png_path, quality):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "x.astc")
        subprocess.run(["astcenc", "-cl", png_path, out, "4x4", quality, "-silent"], check=True)
        data = open(out, "rb").read()
    assert data[:4] == b"\x13\xab\xa1\x5c"
    return data[16:]


def decode(blocks, w, h):
    # astcenc -dl into an uncompressed KTX (no PNG filters to undo); returns w*h RGBA bytes.
    header = b"\x13\xab\xa1\x5c" + bytes([4, 4, 1]) + w.to_bytes(3, "little") + h.to_bytes(3, "little") + (1).to_bytes(3, "little")
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = os.path.join(tmp, "in.astc"), os.path.join(tmp, "out.ktx")
        open(src, "wb").write(header + blocks)
        subprocess.run(["astcenc", "-dl", src, dst, "-silent"], check=True)
        k = open(dst, "rb").read()
    assert k[:12] == b"\xabKTX 11\xbb\r\n\x1a\n"
    words = struct.unpack("<13I", k[12:64])
    # GL_UNSIGNED_BYTE. astcenc drops channels it finds constant: it writes RED (0x1903, grey), RG
    # (0x8227, grey + alpha), RGB (0x1907, opaque) or RGBA (0x1908); spread them back to RGBA.
    channels = {0x1903: 1, 0x8227: 2, 0x1907: 3, 0x1908: 4}.get(words[3])
    assert words[1] == 0x1401 and channels and words[6:8] == (w, h), words
    start = 64 + words[12]
    size = struct.unpack("<I", k[start:start + 4])[0]
    assert size == w * h * channels and words[8] in (0, 1)
    level = k[start + 4:start + 4 + size]
    if channels == 4:
        return level
    out = bytearray(w * h * 4)
    grey = level[0::channels]
    out[0::4] = grey if channels < 3 else level[0::3]
    out[1::4] = grey if channels < 3 else level[1::3]
    out[2::4] = grey if channels < 3 else level[2::3]
    out[3::4] = level[1::2] if channels == 2 else b"\xff" * (w * h)
    return bytes(out)


def psnr(a, b, w_a, w_b, w, h):
    # RGB PSNR over the w x h top-left pixels of two RGBA images of row widths w_a and w_b.
    se = 0
    for y in range(h):
        ra, rb = a[y * w_a * 4:(y * w_a + w) * 4], b[y * w_b * 4:(y * w_b + w) * 4]
        se += sum((ra[i] - rb[i]) ** 2 for i in range(len(ra)) if i % 4 != 3)
        assert all(ra[i] == 255 for i in range(3, len(ra), 4)), "alpha not opaque"
    return math.inf if se == 0 else 10 * math.log10(255 ** 2 * w * h * 3 / se)


def untwiddle(payload, bw, bh, even, strict=True):
    tiles_x, tiles_y = -(-bw // 32), -(-bh // 32)
    assert len(payload) == tiles_x * tiles_y * 1024 * 16, "twiddled payload is not whole tiles"
    rows, pad = bytearray(bw * bh * 16), 0
    for i in range(tiles_x * tiles_y * 1024):
        t, m = divmod(i, 1024)
        even_bits = sum(((m >> (2 * k)) & 1) << k for k in range(5))
        odd_bits = sum(((m >> (2 * k + 1)) & 1) << k for k in range(5))
        lx, ly = (even_bits, odd_bits) if even == "x" else (odd_bits, even_bits)
        x, y = (t % tiles_x) * 32 + lx, (t // tiles_x) * 32 + ly
        block = payload[i * 16:i * 16 + 16]
        if x < bw and y < bh:
            rows[(y * bw + x) * 16:(y * bw + x) * 16 + 16] = block
        else:
            if block != b"\x00" * 16:
                assert not strict, f"padding block {i} not zero"
                return None, None
            pad += 1
    return bytes(rows), pad


def check(name, source, layout, posterboard=False, width=None):
    data = open(os.path.join(HERE, name), "rb").read()
    cs = chunks(data)
    assert [c[1] for c in cs][:2] == [b"HEAD", b"FILL"] and cs[3][1] == b"END " and len(cs) == 4, [c[1] for c in cs]
    assert cs[0][0] == 8 and len(cs[0][2]) == 84 and cs[1][2] == b"\x00" * 136
    pos, tag, body = cs[2]
    assert pos == 244 and tag == (b"LZFS" if layout == "lzfs" else b"ASTC") and len(cs[3][2]) == 0
    words = list(struct.unpack("<21I", cs[0][2]))
    if source == "white" or source == "black":
        w, h = 1179, 2556
        pixels = (b"\xff\xff\xff\xff" if source == "white" else b"\x00\x00\x00\xff") * (w * h)
        fresh = None
    else:
        w, h, pixels = read_png(os.path.join(HERE, source))
        fresh = encode(os.path.join(HERE, source), "-thorough")
    rw = width or w
    expect = [1, 0, 0, 0, 0x93B0, 0x1908, rw, h, 1, 0, 1, 1, 0, 1, 1] + [0x55555555] * 4 + [1, 5]
    for k, v in (POSTER.items() if posterboard else ()):
        expect[k] = v
    assert words == expect, f"HEAD {words}"
    bw, bh = -(-rw // 4), -(-h // 4)
    assert (bw, bh) == (-(-w // 4), -(-h // 4)), "recorded width changes the block count"
    count = struct.unpack("<I", body[:4])[0]
    payload = body[4:]
    assert count == len(payload) and 244 + 8 + 4 == 256
    note = ""
    if layout == "lzfs":
        assert payload[:3] == b"bvx" and payload[-4:] == b"bvx$"
        blocks = liblzfse.decompress(payload)
        note = f"LZFSE {len(payload)} B -> {len(blocks)} B, first block {blocks[:16].hex(' ')}"
    elif layout == "rows":
        blocks = payload
    else:
        even = layout[-1]
        blocks, pad = untwiddle(payload, bw, bh, even)
        assert fresh is None or blocks == fresh, f"un-twiddled ({even} in even bits) blocks differ from astcenc's"
        other, _ = untwiddle(payload, bw, bh, "y" if even == "x" else "x", strict=False)
        if other is None:
            note += "other interleaving puts image blocks in padding; "
        assert other != blocks, "the other interleaving reads the same blocks"
        if fresh is not None:
            assert other != fresh, "the other interleaving also matches astcenc"
        note += f"{pad} zero padding blocks; payload {len(payload)} B vs plain {bw * bh * 16} B"
    assert len(blocks) == bw * bh * 16, "block count"
    if fresh is not None:
        assert blocks == fresh, "blocks differ from astcenc's row-order blocks"
    decoded = decode(blocks, rw, h)
    if fresh is None:
        assert decoded == pixels, "flat screen does not decode exactly"
        q = math.inf
        assert blocks[:8] == b"\xfc\xfd\xff\xff\xff\xff\xff\xff", "first block is not void-extent"
    else:
        q = psnr(decoded, pixels, rw, w, w, h)
        assert q > 35, f"PSNR {q:.1f} dB"
    print(f"ok {name}: {len(data)} B, {tag.decode()} {layout}, {rw}x{h} recorded, PSNR {q:.1f} dB. {note}")


def main():
    check("launch-lzfs.ktx", "scene.png", "lzfs")
    check("launch-astc-rows.ktx", "scene.png", "rows")
    check("launch-astc-wide.ktx", "scene.png", "rows", posterboard=True, width=62)
    check("tiles-rows.ktx", "tiles.png", "rows")
    check("tiles-morton-x.ktx", "tiles.png", "morton-x")
    check("tiles-morton-y.ktx", "tiles.png", "morton-y")
    check("pad-morton-x.ktx", "pad.png", "morton-x")
    check("pad-morton-y.ktx", "pad.png", "morton-y")
    check("launch-white-1179x2556.ktx", "white", "lzfs")
    check("launch-black-1179x2556.ktx", "black", "lzfs")
    # The pictures must not be symmetric under transposition, or the two interleavings could agree.
    for png in ("tiles.png", "pad.png"):
        w, h, px = read_png(os.path.join(HERE, png))
        if w == h:
            assert any(px[(y * w + x) * 4:(y * w + x) * 4 + 4] != px[(x * w + y) * 4:(x * w + y) * 4 + 4]
                       for y in range(h) for x in range(w)), f"{png} is symmetric"
    print("all launch-layout fixtures check out")


try:
    main()
except AssertionError as e:
    sys.exit(f"FAIL: {e}")
