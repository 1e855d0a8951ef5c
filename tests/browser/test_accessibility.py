"""Accessibility, checked the way an auditor would, on every kind of page at phone
size with a game, a hand and a league in it, in the light colour scheme and in the
dark one (the phone's setting, emulated: ``prefers-color-scheme``):

- axe-core (bundled by the PyPI package axe-playwright-python; nothing is
  downloaded) runs its WCAG 2.1 A and AA rules: colour contrast, labelled
  controls, names of buttons and links, landmarks, the page's language, ids that
  labels and ARIA point to. Any violation fails, and so does any check axe could
  not finish, except a contrast it could not measure (text under the fixed card
  picker, which it cannot see behind);
- with the text twice as large, every page still fits the phone's width: it
  reflows instead of scrolling sideways.
"""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.browser.test_live_scoreboard import record, share
from tests.browser.test_scorebook_game import start_game

pytestmark = pytest.mark.browser

WCAG_AA = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
           "resultTypes": ["violations", "incomplete"]}

#: Twice the text size (every size in the style sheets is in rem), then: does the page
#: scroll sideways?
DOUBLE_TEXT = """() => {
  document.documentElement.style.fontSize = "200%";
  return document.documentElement.scrollWidth - window.innerWidth;
}"""


@pytest.fixture
def pages(page, writer, live_server):  # type: ignore[no-untyped-def]
    """The checking phone owns a game; a second phone (a scorer) records its first hand."""
    game = start_game(page, live_server, ["Ann", "Ben"], "rummy-500")[len(live_server):]
    share(page, writer, live_server, role="scorer")
    record(writer, live_server + game, "7s 8s 9s", "kd")
    page.goto(f"{live_server}/league/players")
    player = page.locator("a[href*='/league/players/']").first.get_attribute("href")
    page.goto(f"{live_server}/leagues")
    settings = page.get_by_role("link", name="Settings").first.get_attribute("href")
    return [
        "/", "/games/new", game, f"{game}/hands/new", f"{game}/hands/new?points=1",
        f"{game}/hands/1",
        f"{game}/hands/1/edit", f"{game}/hands/live", f"{game}/history",
        "/referee/", "/referee/meld?cards=7s+8s+9s", "/referee/meld?cards=9s+jk+jk",
        "/referee/layoff?table=A%3A+5h+6h+7h&card=8h", "/referee/draw",
        "/referee/rummy-call", "/referee/going-out", "/referee/meld?cards=zz",
        "/rules/", "/rules/pagat-500",
        "/league/", "/league/players", player, "/league/history", "/league/seasons",
        "/league/export", "/league/records", "/league/head-to-head", "/leagues", settings,
        "/leagues/new", "/leagues/login",
        "/no-such-page", f"{game}/phones", "/league/phones", "/offline",
    ]


#: The relative luminance (WCAG) of the page's background: near 0 is dark, 1 white.
BACKGROUND_LUMINANCE = """() => {
  const [r, g, b] = getComputedStyle(document.body).backgroundColor.match(/[\\d.]+/g)
    .slice(0, 3).map(v => { v = v / 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}"""

KINDS = {"violations": "violation", "incomplete": "unfinished check"}


def problems(result: dict) -> list[str]:  # type: ignore[type-arg]
    found = []
    for kind in ("violations", "incomplete"):
        for rule in result[kind]:
            if kind == "incomplete" and rule["id"] == "color-contrast":
                continue
            for node in rule["nodes"][:3]:
                found.append(f"{KINDS[kind]} {rule['id']}: {rule['help']} at {node['target']}")
    return found


def in_scheme(page, scheme: str) -> None:  # type: ignore[no-untyped-def]
    """The phone set to ``scheme``: the page follows it (its dark colours are on)."""
    page.emulate_media(color_scheme=scheme)
    dark = page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    assert dark == (scheme == "dark")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_passes_wcag_aa_and_takes_double_text(page, pages, live_server, scheme):  # type: ignore[no-untyped-def]
    in_scheme(page, scheme)
    axe = Axe()
    failures = []
    for path in pages:
        page.goto(live_server + path)
        page.wait_for_load_state()
        if scheme == "dark" and page.evaluate(BACKGROUND_LUMINANCE) > 0.05:
            failures.append(f"{path}: the phone is set to dark, the page is not")
        failures += [f"{path}: {p}" for p in problems(axe.run(page, options=WCAG_AA).response)]
        overflow = page.evaluate(DOUBLE_TEXT)
        if overflow > 0:
            failures.append(f"{path}: with the text twice as large it scrolls sideways "
                            f"by {overflow}px")
    assert not failures, "\n".join(failures)
