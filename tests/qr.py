"""Reading QR codes back in the tests, with zxing-cpp: from a grid of modules (the
terminal's block characters), and from a PNG screenshot (decoded here, so the tests
need no imaging library)."""

from __future__ import annotations

import struct
import zlib

import zxingcpp

BLOCKS = {"█": (False, False), "▀": (False, True), "▄": (True, False), " ": (True, True)}


def decode_gray(pixels: bytes, width: int, height: int) -> str | None:
    """The text of the QR code in a grayscale image (one byte a pixel), or None."""
    view = memoryview(pixels).cast("B", (height, width))
    found = zxingcpp.read_barcode(view, formats=zxingcpp.BarcodeFormat.QRCode)
    return found.text if found is not None else None


def decode_modules(rows: list[list[bool]], scale: int = 8) -> str | None:
    """Decode a grid of modules (True: dark), drawn ``scale`` pixels a module."""
    height, width = len(rows) * scale, len(rows[0]) * scale
    out = bytearray()
    for row in rows:
        line = b"".join(b"\x00" * scale if dark else b"\xff" * scale for dark in row)
        out += line * scale
    return decode_gray(bytes(out), width, height)


def decode_terminal(lines: list[str]) -> str | None:
    """Decode a QR code printed in block characters, two rows of modules a line."""
    rows: list[list[bool]] = []
    for line in lines:
        cells = [BLOCKS[c] for c in line.strip("\n") if c in BLOCKS]
        if not cells:
            continue
        rows.append([top for top, _bottom in cells])
        rows.append([bottom for _top, bottom in cells])
    width = max(len(r) for r in rows)
    rows = [r + [False] * (width - len(r)) for r in rows]
    return decode_modules(rows)


def png_gray(data: bytes) -> tuple[bytes, int, int]:
    """A non-interlaced 8-bit RGB or RGBA PNG (what Chromium's screenshots are) as
    grayscale pixels."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    width = height = channels = 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, color, _c, _f, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and interlace == 0 and color in (2, 6), (depth, color, interlace)
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    raw = zlib.decompress(idat)
    stride = width * channels
    previous = bytearray(stride)
    gray = bytearray()
    at = 0
    for _ in range(height):
        kind, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                pred = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + pred) & 0xFF
        gray += bytes((line[i] * 30 + line[i + 1] * 59 + line[i + 2] * 11) // 100
                      for i in range(0, stride, channels))
        previous = line
    return bytes(gray), width, height


def decode_png(data: bytes) -> str | None:
    return decode_gray(*png_gray(data))
