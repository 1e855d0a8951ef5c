"""The history by page number (a link typed or kept) shows the same games, in the same
order, as walking it page by page with "Older" (its keyset cursors), for everyone and
for one player: the pages past the middle are read from the oldest end, and a player's
count is their seats.  On the five games of tests/web/test_league.py, two a page."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask

from scorebook.models import Game
from scorebook.services import league
from tests.reading import page as read
from tests.web import test_league as base
from tests.web.test_league import play, player

ctx = base.ctx  # the fixtures: an owned league, and its five games
made = base.made


def shown(client: Any, path: str) -> tuple[list[str], str]:
    response = client.get(path)
    assert response.status_code == 200, path
    html = response.get_data(as_text=True)
    older = re.search(r'rel="next" href="([^"]+)"', html)
    return (re.findall(r'<strong>(Game \d+) ·', html),
            older.group(1).replace("&amp;", "&") if older else "")


@pytest.mark.parametrize("size", [1, 2, 3])
def test_every_page_number_shows_what_the_older_links_show(
        app: Flask, client: Any, made: dict[str, Game], monkeypatch: pytest.MonkeyPatch,
        size: int) -> None:
    monkeypatch.setattr(league, "HISTORY_PAGE", size)
    play(["Cy", "Dee"], [({"Cy": {"melds": "as ah ad"}, "Dee": {"hand": "kh"}}, "Cy")])
    # everyone's 6 games; Ann's G1 G2 G3 G5; Cy's G1 G2 G4 and the new one
    for query, expected in (("", 6), (f"player={player('Ann').id}", 4),
                            (f"player={player('Cy').id}", 4)):
        walked: list[list[str]] = []
        path = f"/league/history?{query}"
        while path:
            games, path = shown(client, path)
            walked.append(games)
        total = sum(len(g) for g in walked)
        assert total == expected
        numbered = [shown(client, f"/league/history?{query}&page={n}")[0]
                    for n in range(1, len(walked) + 1)]
        assert numbered == walked, query
        heading = read(client.get(f"/league/history?{query}"))
        assert f"{total} games" in heading
        # past the last page: the last page
        assert shown(client, f"/league/history?{query}&page={len(walked) + 5}")[0] == walked[-1]
