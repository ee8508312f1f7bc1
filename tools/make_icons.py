"""Draws rowflow's app icons (assets/icon-192.png, assets/icon-512.png), with no image library:
a 4 × 4 table on rowflow's accent blue, one row lit as a lookup lights it. Run by hand when the
icon changes; the PNGs are committed.

    python3 tools/make_icons.py
"""
import struct
import zlib
from pathlib import Path

ACCENT = (0x08, 0x44, 0x7F)
CELL = (0xFF, 0xFF, 0xFF)
LIT = (0xFF, 0xF1, 0xC2)
LIT_LINE = (0xA8, 0x65, 0x0C)


def pixel(x, y, n):
    """The colour at (x, y) of an n × n icon: the table fills the middle 60% (a maskable safe zone)."""
    u, v = x / n, y / n
    lo, hi = 0.2, 0.8
    if not (lo <= u < hi and lo <= v < hi):
        return ACCENT
    cell = (hi - lo) / 4
    i, j = int((v - lo) / cell), int((u - lo) / cell)
    fu, fv = (u - lo) / cell - j, (v - lo) / cell - i
    gap = 0.08
    if fu < gap or fv < gap or fu > 1 - gap or fv > 1 - gap:
        return LIT_LINE if i == 1 else ACCENT
    return LIT if i == 1 else CELL


def png(n):
    rows = b"".join(b"\0" + bytes(c for x in range(n) for c in pixel(x, y, n)) for y in range(n))
    chunk = lambda kind, data: struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", n, n, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


if __name__ == "__main__":
    for n in (192, 512):
        Path(f"assets/icon-{n}.png").write_bytes(png(n))
        print(f"wrote assets/icon-{n}.png")
