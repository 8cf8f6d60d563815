#!/usr/bin/env python3
"""Shrinks a PNG screenshot by a whole factor (box filter), with only the standard library.

usage: thumbnail.py IN.png OUT.png FACTOR
"""
import struct
import sys
import zlib

sys.path.insert(0, __import__("os").path.dirname(__file__))
from png_colors import read_png  # noqa: E402


def write_png(path, width, height, rows):
    raw = b"".join(b"\x00" + bytes(row) for row in rows)
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 9)))
        f.write(chunk(b"IEND", b""))


def main():
    src, dst, factor = sys.argv[1], sys.argv[2], int(sys.argv[3])
    width, height, bpp, src_rows = read_png(src)
    out_w, out_h = width // factor, height // factor
    n = factor * factor
    rows = []
    for oy in range(out_h):
        row = []
        for ox in range(out_w):
            acc = [0, 0, 0]
            for dy in range(factor):
                line = src_rows[oy * factor + dy]
                for dx in range(factor):
                    at = (ox * factor + dx) * bpp
                    acc[0] += line[at]
                    acc[1] += line[at + 1]
                    acc[2] += line[at + 2]
            row.extend((acc[0] // n, acc[1] // n, acc[2] // n))
        rows.append(row)
    write_png(dst, out_w, out_h, rows)


if __name__ == "__main__":
    main()
