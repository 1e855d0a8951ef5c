"""Render the app's icons from their SVG sources: ``.venv/bin/python tools/render_icons.py``.

static/icons/icon.svg (rounded, transparent corners) and icon-maskable.svg (full bleed,
the cards inside the safe circle) are drawn by Debian's Chromium at each size the
manifest, iOS and the favicon need; favicon.ico holds the 16, 32 and 48 px PNGs.
The PNGs are committed: the site needs no imaging library and no build step.
"""

from __future__ import annotations

import struct
from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parents[1] / "static" / "icons"
SIZES = {
    "icon.svg": {"icon-192.png": 192, "icon-512.png": 512, "favicon-16.png": 16,
                 "favicon-32.png": 32, "favicon-48.png": 48},
    "icon-maskable.svg": {"icon-maskable-192.png": 192, "icon-maskable-512.png": 512,
                          "apple-touch-icon.png": 180},
}


def ico(pngs: list[bytes], sizes: list[int]) -> bytes:
    """An .ico file whose images are PNGs (every browser reads them)."""
    head = struct.pack("<HHH", 0, 1, len(pngs))
    offset = 6 + 16 * len(pngs)
    entries, body = b"", b""
    for png, size in zip(pngs, sizes):
        entries += struct.pack("<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(png),
                               offset + len(body))
        body += png
    return head + entries + body


def main() -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for source, outputs in SIZES.items():
            svg = (ICONS / source).read_text()
            for name, size in outputs.items():
                page = browser.new_page(viewport={"width": size, "height": size},
                                        device_scale_factor=1)
                page.set_content(
                    "<style>html,body{margin:0;background:transparent}"
                    f"svg{{display:block;width:{size}px;height:{size}px}}</style>" + svg)
                (ICONS / name).write_bytes(page.screenshot(omit_background=True))
                page.close()
        browser.close()
    favicons = [16, 32, 48]
    pngs = [(ICONS / f"favicon-{s}.png").read_bytes() for s in favicons]
    (ICONS / "favicon.ico").write_bytes(ico(pngs, favicons))
    for s in favicons:
        (ICONS / f"favicon-{s}.png").unlink()
    print("icons written to", ICONS)


if __name__ == "__main__":
    main()
