"""A picture of a terminal: ``... | .venv/bin/python tools/terminal_picture.py OUT.png``.

Draws the text it reads (what ``make run`` printed) in a terminal's colours with
Debian's Chromium, for the README (docs/make-run.png).
"""

from __future__ import annotations

import html
import sys

from playwright.sync_api import sync_playwright


def main() -> None:
    text = sys.stdin.read().rstrip("\n")
    page_html = (
        "<style>body{margin:0;background:#1e1e1e}"
        "pre{margin:0;padding:16px 20px;color:#e6e6e6;font:15px/1.0 'DejaVu Sans Mono',"
        "monospace}</style><pre>" + html.escape(text) + "</pre>")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 760, "height": 100})
        page.set_content(page_html)
        page.locator("pre").screenshot(path=sys.argv[1])
        browser.close()


if __name__ == "__main__":
    main()
