#!/usr/bin/env python3
"""Counts pixels near given colours in a PNG, with only the standard library.

usage: png_colors.py FILE NAME=R,G,B[:MIN_PIXELS] ...
Exits 1 (naming the colour) if any colour has fewer than MIN_PIXELS (default 20) pixels
within a small tolerance, so a test fails when the rope or the player is not on screen.
"""
import struct
import sys
import zlib

TOLERANCE = 24


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG")
    pos, idat, width, height, ctype = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", chunk[:10])
            if depth != 8 or ctype not in (2, 6):
                raise SystemExit(f"{path}: only 8-bit RGB/RGBA PNGs are supported")
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    bpp = 4 if ctype == 6 else 3
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def main():
    path, specs = sys.argv[1], sys.argv[2:]
    width, height, bpp, rows = read_png(path)
    wanted = []
    for spec in specs:
        name, rest = spec.split("=")
        rgb, _, minimum = rest.partition(":")
        wanted.append((name, tuple(int(v) for v in rgb.split(",")), int(minimum or 20)))
    counts = {name: 0 for name, _, _ in wanted}
    for row in rows:
        for x in range(0, width * bpp, bpp):
            px = row[x:x + 3]
            for name, rgb, _ in wanted:
                if all(abs(px[k] - rgb[k]) <= TOLERANCE for k in range(3)):
                    counts[name] += 1
    failed = False
    for name, rgb, minimum in wanted:
        ok = counts[name] >= minimum
        failed |= not ok
        print(f"{path}: {name} {rgb}: {counts[name]} pixels (need {minimum}) {'ok' if ok else 'MISSING'}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
