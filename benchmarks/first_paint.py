"""First paint of the scoreboard on a slow phone network, cold and warm.

    .venv/bin/python benchmarks/first_paint.py [--runs 5] [--down-kbps 400] [--up-kbps 400]
                                               [--rtt-ms 400] [--session joined|plain]

A 500 Rum game of six players with 40 recorded hands (the game of
``benchmarks/scorebook.py``) is served on 127.0.0.1 (Werkzeug's threaded server, as
the browser tests do; the app is the same with gunicorn) from a SQLite file in a
temporary folder. Debian's Chromium (headless, through Playwright; never a
downloaded browser) opens the scoreboard at 390×844 with the network throttled by
the DevTools protocol (``Network.emulateNetworkConditions``: by default 400 kbit/s
down and up and 400 ms of latency on every request, "slow 3G"), and reads First
Contentful Paint from the Performance API (``first-contentful-paint``, from the
start of the navigation).  The browser holds a member's cookie: by default
(``--session joined``) the one a phone gets from the league's scorer invite link, a
permanent session as every real member's; ``--session plain`` an owner's session that
is not permanent, which Flask never sent again (what the script used before).

- **cold** — a new browser profile: nothing cached, no service worker;
- **warm, HTTP cache** — the same profile opening the scoreboard again in a new
  tab, with service workers blocked, so only the HTTP cache helps (the page itself
  always comes from the network: it changes whenever a hand is saved);
- **warm, service worker** — as a phone that has the site installed: the service
  worker registered on the first visit and had time to keep its files, then the
  scoreboard opened again. The worker's own fetches (it asks the network for every
  page first) are throttled alike: the script attaches to the worker's target and
  sends it the same ``Network.emulateNetworkConditions``.

Each figure is the median of ``--runs`` runs, each in a new profile. The script also
prints the bytes that crossed the network (the Resource Timing transfer sizes: what
the throttle had to carry) and the requests made, and exits 1 when a median misses
its target: cold < 2 s, warm < 1 s (both warm figures).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import logging
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from werkzeug.serving import make_server  # noqa: E402

from app import create_app  # noqa: E402
from scorebook.extensions import db  # noqa: E402
from scorebook.models import Game  # noqa: E402
from scorebook.services import access, games, hands  # noqa: E402
from scorebook.services.entry import entry_from_text  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
PHONE = {"width": 390, "height": 844}
COLD_TARGET_MS = 2000
WARM_TARGET_MS = 1000


def _scoreboard_game() -> tuple[list[str], list[dict[str, dict[str, str]]]]:
    """The six players and the two alternating hands of ``benchmarks/scorebook.py``."""
    spec = importlib.util.spec_from_file_location("bench_scorebook", ROOT / "benchmarks" /
                                                  "scorebook.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.NAMES, module.HANDS


def seeded_app(folder: Path, session: str = "joined") -> tuple[Any, int, str]:
    """The app on a SQLite file in ``folder`` with the 40-hand game; returns the app,
    the game's id and a session cookie: with ``session="joined"`` a phone's that joined
    the league through its scorer invite link (a permanent session, as every member's
    and every owner's who logged in), with ``"plain"`` the game's owner's as the script
    made it before (not permanent: Flask never sent it again)."""
    names, texts = _scoreboard_game()
    app = create_app({"SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'bench.sqlite3'}"},
                     instance_path=folder)
    with app.app_context():
        db.create_all()
    with app.test_request_context():
        rules = games.build_rules("pagat-500", {"target": 100000})
        game = games.create_game(games.default_league(), names, 0, rules)
        game_id = game.id
        for number in range(1, 41):
            went_out = "Eve" if number % 2 else "Ben"
            hands.record_hand(game, entry_from_text(names, texts[number % 2], went_out, None,
                                                    False, False), number)
    client = app.test_client()
    if session == "joined":
        token = access.new_token()
        with app.app_context():
            league = db.session.get(Game, game_id).league
            league.scorer_token_hash = access.token_hash(token)
            db.session.commit()
        assert client.get(f"/join/{token}").status_code == 303
        assert client.post("/join", data={"player": "Ann"}).status_code == 302
        with client.session_transaction() as held:
            assert held.permanent
    else:
        with app.app_context(), client.session_transaction() as held:
            access.remember(held, db.session.get(Game, game_id).league, access.OWNER)
    cookie = client.get_cookie("session")
    assert cookie is not None
    assert client.get(f"/games/{game_id}").status_code == 200
    return app, game_id, cookie.value


FCP_SCRIPT = """() => new Promise(resolve => {
  const read = () => {
    const entry = performance.getEntriesByName("first-contentful-paint")[0];
    if (entry) return resolve(entry.startTime);
    setTimeout(read, 50);
  };
  read();
})"""

TRANSFER_SCRIPT = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const resources = performance.getEntriesByType("resource");
  const fetched = resources.filter(r => r.transferSize > 0);
  return {
    bytes: nav.transferSize + fetched.reduce((sum, r) => sum + r.transferSize, 0),
    html: nav.transferSize,
    requests: 1 + fetched.length,
    resources: resources.length,
  };
}"""


def conditions(args: argparse.Namespace) -> dict[str, Any]:
    return {"offline": False, "latency": args.rtt_ms,
            "downloadThroughput": args.down_kbps * 1000 / 8,
            "uploadThroughput": args.up_kbps * 1000 / 8}


def throttle(context: Any, page: Any, args: argparse.Namespace) -> None:
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", conditions(args))


def throttle_service_workers(browser: Any, base: str, args: argparse.Namespace) -> int:
    """Throttle the site's service workers too: a page's emulated network does not
    cover the fetches its worker makes. Playwright opens CDP sessions on pages only, so
    the browser's session attaches to each worker and sends it the same commands."""
    cdp = browser.new_browser_cdp_session()
    answers: list[dict[str, Any]] = []
    cdp.on("Target.receivedMessageFromTarget",
           lambda event: answers.append(json.loads(event["message"])))
    workers = [t for t in cdp.send("Target.getTargets")["targetInfos"]
               if t["type"] == "service_worker" and t["url"].startswith(base)]
    for worker in workers:
        session = cdp.send("Target.attachToTarget",
                           {"targetId": worker["targetId"], "flatten": False})["sessionId"]
        for number, (method, params) in enumerate(
                [("Network.enable", {}),
                 ("Network.emulateNetworkConditions", conditions(args))], start=1):
            cdp.send("Target.sendMessageToTarget", {"sessionId": session, "message": json.dumps(
                {"id": number, "method": method, "params": params})})
        deadline = time.monotonic() + 10
        while not any(a.get("id") == 2 for a in answers) and time.monotonic() < deadline:
            cdp.send("Browser.getVersion")  # the sync API delivers events during calls
            time.sleep(0.05)
        if not any(a.get("id") == 2 and "result" in a for a in answers):
            raise RuntimeError(f"the service worker was not throttled: {answers}")
        answers.clear()
    return len(workers)


def visit(context: Any, url: str, args: argparse.Namespace) -> dict[str, Any]:
    """Open ``url`` in a new tab of ``context`` on the throttled network."""
    page = context.new_page()
    throttle(context, page, args)
    page.goto(url, wait_until="load", timeout=120_000)
    fcp = page.evaluate(FCP_SCRIPT)
    figures: dict[str, Any] = page.evaluate(TRANSFER_SCRIPT)
    figures["fcp"] = fcp
    page.close()
    return figures


def new_profile(browser: Any, base: str, cookie: str, service_workers: str) -> Any:
    context = browser.new_context(viewport=PHONE, device_scale_factor=1,
                                  service_workers=service_workers)
    context.add_cookies([{"name": "session", "value": cookie, "url": base}])
    return context


def wait_for_service_worker(context: Any, base: str) -> None:
    """Let the worker the first visit registered install and keep its files (on an
    open network: what it keeps is what the phone has the next time)."""
    page = context.new_page()
    page.goto(base + "/offline", wait_until="load")
    page.evaluate("""() => navigator.serviceWorker.ready.then(() => new Promise(done => {
      const check = () => caches.keys().then(names =>
        names.some(n => n.indexOf("scorebook-static-") === 0) ? done() : setTimeout(check, 100));
      check();
    }))""")
    page.close()


def run(args: argparse.Namespace) -> int:
    from playwright.sync_api import sync_playwright

    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # no line per request
    folder = Path(tempfile.mkdtemp(prefix="scorebook-paint-"))
    app, game_id, cookie = seeded_app(folder, args.session)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    url = f"{base}/games/{game_id}"
    results: dict[str, list[dict[str, Any]]] = {"cold": [], "warm, HTTP cache": [],
                                                "warm, service worker": []}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=[
                "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--disable-quic"])
            for _ in range(args.runs):
                context = new_profile(browser, base, cookie, "block")
                results["cold"].append(visit(context, url, args))
                results["warm, HTTP cache"].append(visit(context, url, args))
                context.close()

                context = new_profile(browser, base, cookie, "allow")
                visit(context, url, args)  # the first visit registers the worker
                wait_for_service_worker(context, base)
                if throttle_service_workers(browser, base, args) != 1:
                    raise RuntimeError("expected one service worker")
                results["warm, service worker"].append(visit(context, url, args))
                context.close()
            browser.close()
    finally:
        server.shutdown()

    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"scoreboard, 6 players x 40 hands, {PHONE['width']}x{PHONE['height']}, "
          f"{args.down_kbps} kbit/s down, {args.up_kbps} kbit/s up, {args.rtt_ms} ms latency; "
          f"{args.session} session; median of {args.runs} runs; load average {load}")
    print(f"{'':22} | {'FCP median':>10} | {'FCP range':>13} | {'bytes':>8} | "
          f"{'page':>8} | {'requests':>8} | target")
    ok = True
    for name, samples in results.items():
        fcps = [s["fcp"] for s in samples]
        median = statistics.median(fcps)
        target = COLD_TARGET_MS if name == "cold" else WARM_TARGET_MS
        met = median < target
        ok = ok and met
        print(f"{name:22} | {median:8.0f} ms | {min(fcps):5.0f}-{max(fcps):5.0f} ms | "
              f"{statistics.median(s['bytes'] for s in samples):8.0f} | "
              f"{statistics.median(s['html'] for s in samples):8.0f} | "
              f"{statistics.median(s['requests'] for s in samples):8.0f} | "
              f"< {target} ms {'PASS' if met else 'FAIL'}")
    print("targets met" if ok else "TARGETS MISSED")
    return 0 if ok else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (median)")
    parser.add_argument("--down-kbps", type=int, default=400, help="download, kbit/s")
    parser.add_argument("--up-kbps", type=int, default=400, help="upload, kbit/s")
    parser.add_argument("--rtt-ms", type=int, default=400, help="latency per request, ms")
    parser.add_argument("--session", choices=("joined", "plain"), default="joined",
                        help="joined: a member's cookie from the invite link (permanent); "
                        "plain: an owner's session that is not permanent")
    return run(parser.parse_args())


if __name__ == "__main__":
    raise SystemExit(main())
