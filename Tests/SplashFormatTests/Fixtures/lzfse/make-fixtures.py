#!/usr/bin/env python3
"""Writes the LZFSE test fixtures with Apple's reference codec (pyliblzfse).

For every NAME it writes NAME.bin (raw bytes) and NAME.lzfse (the stream the
reference encoder produced, or for `v1-text` a bvx2 stream transcoded to the
uncompressed-header bvx1 layout and verified with the reference decoder).
manifest.json records, per fixture, the raw size and the block kinds the
stream contains (walked here in Python, independently of the Swift code).

Deterministic: all pseudo-random data comes from seeded generators.
Run from any directory:  python3 make-fixtures.py
"""
import json
import os
import random
import struct
import sys

import liblzfse

HERE = os.path.dirname(os.path.abspath(__file__))

MAGICS = {b"bvx$": "bvx$", b"bvx-": "bvx-", b"bvx1": "bvx1", b"bvx2": "bvx2", b"bvxn": "bvxn"}

WORDS = (
    "launch screen storyboard image view color asset catalog scale layout anchor "
    "constraint safe area texture block pixel width height format cache snapshot "
    "splash generator device orientation portrait landscape display gamut render "
    "compress decompress stream header payload literal match distance symbol state "
    "table frequency entropy finite window buffer offset length block magic version"
).split()


def walk(stream):
    """Returns the list of block kinds in `stream` (stops at bvx$)."""
    kinds = []
    pos = 0
    while True:
        magic = stream[pos:pos + 4]
        kind = MAGICS[bytes(magic)]
        kinds.append(kind)
        if kind == "bvx$":
            return kinds
        if kind == "bvx-":
            (n,) = struct.unpack_from("<I", stream, pos + 4)
            pos += 8 + n
        elif kind == "bvxn":
            _, payload = struct.unpack_from("<II", stream, pos + 4)
            pos += 12 + payload
        elif kind == "bvx1":
            (_, _, _, _, _, lit, lmd) = struct.unpack_from("<7I", stream, pos)
            pos += 772 + lit + lmd
        else:  # bvx2
            v0, v1, v2 = struct.unpack_from("<QQQ", stream, pos + 8)
            lit = (v0 >> 20) & 0xFFFFF
            lmd = (v1 >> 40) & 0xFFFFF
            pos += (v2 & 0xFFFFFFFF) + lit + lmd


def decode_freq_tables(data):
    """Decodes the 360 bvx2 frequency values (fixed prefix code, LSB first)."""
    values = []
    accum = 0
    nbits = 0
    src = 0
    for _ in range(360):
        while src < len(data) and nbits + 8 <= 32:
            accum |= data[src] << nbits
            nbits += 8
            src += 1
        b = accum & 31
        if b in (7, 23):
            n, v = 8, 8 + ((accum >> 4) & 0xF)
        elif b in (15, 31):
            n, v = 14, 24 + ((accum >> 4) & 0x3FF)
        else:
            n = [2, 3, 2, 5, 2, 3, 2, 8, 2, 3, 2, 5, 2, 3, 2, 14][b & 15]
            v = [0, 2, 1, 4, 0, 3, 1, -1, 0, 2, 1, 5, 0, 3, 1, -1,
                 0, 2, 1, 6, 0, 3, 1, -1, 0, 2, 1, 7, 0, 3, 1, -1][b]
        assert n <= nbits
        values.append(v)
        accum >>= n
        nbits -= n
    assert nbits < 8 and src == len(data)
    return values


def transcode_v2_to_v1(stream):
    """Rewrites every bvx2 block header of `stream` as a 772-byte bvx1 header."""
    out = bytearray()
    pos = 0
    while True:
        magic = bytes(stream[pos:pos + 4])
        if magic == b"bvx$":
            out += magic
            return bytes(out)
        if magic != b"bvx2":
            raise ValueError("transcoder expects only bvx2 blocks, got %r" % magic)
        (n_raw,) = struct.unpack_from("<I", stream, pos + 4)
        v0, v1, v2 = struct.unpack_from("<QQQ", stream, pos + 8)
        f = lambda v, off, bits: (v >> off) & ((1 << bits) - 1)
        n_literals, n_lit_payload, n_matches = f(v0, 0, 20), f(v0, 20, 20), f(v0, 40, 20)
        literal_bits = f(v0, 60, 3) - 7
        lit_states = [f(v1, 0, 10), f(v1, 10, 10), f(v1, 20, 10), f(v1, 30, 10)]
        n_lmd_payload = f(v1, 40, 20)
        lmd_bits = f(v1, 60, 3) - 7
        header_size = f(v2, 0, 32)
        l_state, m_state, d_state = f(v2, 32, 10), f(v2, 42, 10), f(v2, 52, 10)
        tables = stream[pos + 32:pos + header_size]
        freqs = decode_freq_tables(tables) if tables else [0] * 360
        header = struct.pack(
            "<4sIIIIIIi4HiHHH360Hxx",
            b"bvx1", n_raw, n_lit_payload + n_lmd_payload, n_literals, n_matches,
            n_lit_payload, n_lmd_payload, literal_bits, *lit_states, lmd_bits,
            l_state, m_state, d_state, *freqs)
        assert len(header) == 772
        out += header
        start = pos + header_size
        end = start + n_lit_payload + n_lmd_payload
        out += stream[start:end]
        pos = end


def words_text(rng, size):
    parts = []
    total = 0
    while total < size:
        line = " ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 12)))
        line = line.capitalize() + (". " if rng.random() < 0.8 else ".\n")
        parts.append(line)
        total += len(line)
    return "".join(parts).encode()[:size]


def astc_like(rng, size):
    """Repeated 16-byte blocks (solid-colour ASTC) with occasional detail blocks."""
    solid = [bytes([0xFC, 0xFD, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]) + bytes(rng.randrange(256) for _ in range(8))
             for _ in range(3)]
    out = bytearray()
    current = solid[0]
    while len(out) < size:
        r = rng.random()
        if r < 0.004:
            current = rng.choice(solid)
        if r > 0.985:
            out += bytes(rng.randrange(256) for _ in range(16))  # an "edge" block
        else:
            out += current
    return bytes(out[:size])


def main():
    rng = random.Random(0x5EED)
    fixtures = {
        "empty": b"",
        "tiny": b"splash",  # 6 bytes: below the LZVN minimum, gives bvx-
        "small-text": words_text(rng, 3000),  # < 4096: the reference emits bvxn
        "random": bytes(rng.randrange(256) for _ in range(5000)),  # incompressible
        "large-text": words_text(rng, 160 * 1024),  # > 10000 matches: several bvx2 blocks
        "astc-like": astc_like(rng, 256 * 1024),
        "v2-text": words_text(rng, 9000),  # single bvx2 block, also transcoded to bvx1
    }
    manifest = {}
    for name, raw in fixtures.items():
        stream = liblzfse.compress(raw)
        # pyliblzfse reports a 0-byte result as an error, so the empty stream
        # (bvx- of length 0, then bvx$) cannot be round-tripped through it.
        if raw:
            assert liblzfse.decompress(stream) == raw
        write(name, raw, stream, manifest)

    # bvx1: the reference encoder never writes v1 headers; transcode v2-text.
    raw = fixtures["v2-text"]
    v1 = transcode_v2_to_v1(liblzfse.compress(raw))
    assert liblzfse.decompress(v1) == raw, "reference decoder rejected the transcoded bvx1 stream"
    write("v1-text", raw, v1, manifest)

    with open(os.path.join(HERE, "manifest.json"), "w") as fh:
        json.dump(manifest, fh, indent=2, sort_keys=True)
        fh.write("\n")
    total = sum(os.path.getsize(os.path.join(HERE, f)) for f in os.listdir(HERE))
    print("fixture folder: %d bytes" % total)


def write(name, raw, stream, manifest):
    with open(os.path.join(HERE, name + ".bin"), "wb") as fh:
        fh.write(raw)
    with open(os.path.join(HERE, name + ".lzfse"), "wb") as fh:
        fh.write(stream)
    kinds = walk(stream)
    manifest[name] = {"rawSize": len(raw), "streamSize": len(stream), "blocks": kinds}
    print("%-11s raw %7d -> %7d bytes  blocks: %s" % (name, len(raw), len(stream), " ".join(kinds)))


if __name__ == "__main__":
    sys.exit(main())
