#!/usr/bin/env python3
"""Draws the example campaigns' artwork (made for splashgen, no third-party images).

Run from anywhere: python3 campaigns/art/make-art.py  (needs numpy). The PNGs are committed;
this script documents where they came from and can regenerate them.
"""
import os, struct, zlib
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def write_png(name, rgba):
    h, w, _ = rgba.shape
    raw = b"".join(b"\x00" + rgba[y].astype(np.uint8).tobytes() for y in range(h))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
    png += chunk(b"sRGB", b"\x00") + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(png)


def gradient(w, h, top, bottom):
    t = np.linspace(0, 1, h)[:, None, None]
    img = np.array(top, float)[None, None, :] * (1 - t) + np.array(bottom, float)[None, None, :] * t
    img = np.repeat(img, w, axis=1)
    return np.concatenate([img, np.full((h, w, 1), 255.0)], axis=2)


def disc(img, cx, cy, r, color):
    h, w, _ = img.shape
    y, x = np.ogrid[:h, :w]
    d = np.sqrt((x - cx) ** 2 + (y - cy) ** 2)
    cover = np.clip(r - d + 0.5, 0, 1)[..., None]
    img[..., :3] = img[..., :3] * (1 - cover) + np.array(color, float) * cover
    img[..., 3:] = np.maximum(img[..., 3:], cover * 255)


def bar(img, x0, y0, x1, y1, color):
    img[y0:y1, x0:x1, :3] = color
    img[y0:y1, x0:x1, 3] = 255


def eleven_eleven(img, cx, cy, unit, color):
    """'11.11' as seven-segment style bars centred at (cx, cy)."""
    xs = [-5.5, -3.5, 2.5, 4.5]
    for x in xs:
        bar(img, int(cx + x * unit), int(cy - 3 * unit), int(cx + (x + 1) * unit), int(cy + 3 * unit), color)
    disc(img, cx - 0.0 * unit, cy + 2.5 * unit, 0.6 * unit, color)


def hero(w, h, top, bottom, gold, seed):
    img = gradient(w, h, top, bottom)
    rng = np.random.default_rng(seed)
    for _ in range(40):
        disc(img, rng.uniform(0, w), rng.uniform(0, h), rng.uniform(4, 14) * w / 1200, gold)
    eleven_eleven(img, w / 2, h * 0.42, min(w, h) / 16, gold)
    return img


def logo(color, w=600, h=240):
    img = np.zeros((h, w, 4), float)
    disc(img, h / 2, h / 2, h * 0.42, color)
    for i, length in enumerate([0.95, 0.75, 0.55]):
        bar(img, int(h * 1.05), int(h * (0.2 + 0.22 * i)), int(h * 1.05 + (w - h * 1.1) * length), int(h * (0.34 + 0.22 * i)), color)
    img[..., :3] = color  # straight alpha: the colour is solid, coverage lives in alpha alone
    return img


write_png("double11-hero.png", hero(1200, 2600, (200, 16, 46), (120, 6, 30), (255, 196, 60), 11))
write_png("double11-hero-dark.png", hero(1200, 2600, (70, 8, 20), (20, 2, 8), (214, 160, 40), 11))
write_png("double11-hero-landscape.png", hero(2600, 1200, (200, 16, 46), (120, 6, 30), (255, 196, 60), 12))
write_png("double11-hero-landscape-dark.png", hero(2600, 1200, (70, 8, 20), (20, 2, 8), (214, 160, 40), 12))
write_png("logo.png", logo((30, 30, 30)))
write_png("logo-dark.png", logo((240, 240, 240)))
write_png("logo-gold.png", logo((255, 214, 100)))
