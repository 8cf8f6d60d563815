#!/usr/bin/env python3
"""Tether Online in the browser: headless Chromium plays the game that a real tether-server
serves, page and API on one origin (a free loopback port, a fresh data folder, the server
started and stopped here), through web/net_plugin.js's fetch and crypto.getRandomValues.

1. Two fresh players (fresh browser profiles) go online by name (`?online_name=`, the web's
   `--online-name`) and play level 1 from the title by its solution (`autoplay`): each key is
   made from crypto.getRandomValues and kept in localStorage (`tether.online`); the complete
   screen's online line reaches "rank 1 of 1" for Ada, then "rank 2 of 2" for Bob, and the
   server's board names Ada then Bob. Bob's "run just ahead" is Ada's and its replay downloads
   (read from the API here: the game has no ghost menu for it yet).
2. A reload of Ada's page keeps her key (no new randomness, the same seed).
3. A level only the server has (`tether-server seed`: level 1 renamed) opens from its link
   `#online=<hash>` (a third player online, after a click to start): fetched, checked against
   its hash, kept in localStorage and played.
4. Answers that must end as a message, not a hang or a crash: no server there, garbage, a
   10 MB answer and one that never ends (a small server here, on another loopback port, that
   allows the page's origin): the registration's line names each.

Standard library only. Run by `web_online_test` in scripts/web.sh after the browser test, which
builds dist/ (reused here).
"""

import argparse
import hashlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from web_test import Browser, TestFailure, find_chromium  # noqa: E402

# From the title: "Level select", open it, level 1 (as scripts/online_test.sh walks it).
MENU_TO_LEVEL_1 = "MenuDown,MenuConfirm,MenuConfirm"
# Seconds a page may take to reach a line (a level played through, a run verified).
PAGE_TIMEOUT_S = 180
# Counts the page's calls to crypto.getRandomValues (before any of the page's scripts run).
COUNT_RANDOMNESS = """
(() => {
    const original = crypto.getRandomValues.bind(crypto);
    window.tetherRandomCalls = 0;
    crypto.getRandomValues = function (array) {
        window.tetherRandomCalls += 1;
        return original(array);
    };
})();
"""
# The game's JSON timeout (src/online/client.rs JSON_TIMEOUT_MS) and byte limit (MAX_JSON_BYTES).
JSON_TIMEOUT_S = 10
HUGE_ANSWER_BYTES = 10 * 1024 * 1024


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class TetherServer:
    """tether-server on a free loopback port with a fresh data folder; stopped by `stop`."""

    def __init__(self, binary, dist, levels, work):
        self.data = tempfile.mkdtemp(prefix="tether-server-", dir=work)
        self.env = {**os.environ, "TETHER_PORT": "0", "TETHER_DATA_DIR": self.data,
                    "TETHER_LEVELS_DIR": levels, "TETHER_DIST_DIR": dist}
        self.binary = binary
        self.log = open(os.path.join(work, "server.log"), "wb")
        self.proc = None

    def seed_one_level(self):
        """A shared level only this server has (level 1 renamed, by `tether-server seed`)."""
        subprocess.run([self.binary, "seed", "1", "1", "0"], env=self.env, check=True,
                       stdout=self.log, stderr=self.log, timeout=120)

    def start(self):
        self.proc = subprocess.Popen([self.binary], env=self.env, stdout=subprocess.PIPE,
                                     stderr=self.log)
        first = self.proc.stdout.readline().decode("utf-8", "replace").strip()
        match = re.search(r"listening on (http://127\.0\.0\.1:\d+)", first)
        if not match:
            raise TestFailure(f"tether-server did not start: {first!r}")
        # Keep draining its output so it never blocks on a full pipe.
        threading.Thread(target=self.proc.stdout.read, daemon=True).start()
        self.url = match.group(1)
        return self.url

    def get(self, path):
        with urllib.request.urlopen(self.url + path, timeout=30) as answer:
            return answer.read()

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


class HostileHandler(BaseHTTPRequestHandler):
    """Answers by the first path segment: /garbage/, /huge/, /endless/. Every answer allows any
    origin, so the page can read it (a CORS refusal would be "unreachable" instead)."""

    def log_message(self, *args):
        pass

    def head(self, length=None):
        self.send_response(200)
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Content-Type", "application/json")
        if length is not None:
            self.send_header("Content-Length", str(length))
        self.end_headers()

    def answer(self):
        mode = self.path.strip("/").split("/")[0]
        try:
            if mode == "garbage":
                body = b"\xff\x00<html>not Tether Online</html>"
                self.head(len(body))
                self.wfile.write(body)
            elif mode == "huge":
                self.head(HUGE_ANSWER_BYTES)
                chunk = b"[" * 65536
                for _ in range(HUGE_ANSWER_BYTES // len(chunk)):
                    self.wfile.write(chunk)
            elif mode == "endless":
                self.head()
                # A byte now and then, forever: only the page's own timeout ends it.
                while True:
                    self.wfile.write(b" ")
                    self.wfile.flush()
                    time.sleep(0.5)
            else:
                self.send_error(404)
        except (BrokenPipeError, ConnectionResetError):
            pass

    do_GET = answer
    do_POST = answer


def start_hostile_server():
    server = ThreadingHTTPServer(("127.0.0.1", 0), HostileHandler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def online_profile(browser):
    """The page's `tether.online` (RON) as a dict of the fields the test reads."""
    text = browser.evaluate("localStorage.getItem('tether.online')") or ""
    seed = re.search(r'key_seed:\s*Some\("([0-9a-f]{64})"\)', text)
    name = re.search(r'name:\s*Some\("([^"]*)"\)', text)
    return {"text": text, "seed": seed and seed.group(1), "name": name and name.group(1),
            "enabled": "enabled: true" in text}


def console_lines(browser, prefix):
    lines, _ = browser.console()
    return [line for line in lines if line.startswith(prefix)]


def play_level_1_online(chromium, args, url, name, rank_line):
    """A fresh profile goes online as `name`, plays level 1 and must reach `rank_line`.
    Returns the profile (seed, name) and the page's randomness count."""
    browser = Browser(chromium, args.work, f"online-{name}")
    try:
        browser.open(f"{url}/?online_name={name}&menu={MENU_TO_LEVEL_1}&autoplay=1",
                     init_script=COUNT_RANDOMNESS)
        ranked = browser.wait_for_console(rank_line, timeout=PAGE_TIMEOUT_S)
        profile = online_profile(browser)
        randomness = browser.evaluate("window.tetherRandomCalls")
        online = console_lines(browser, "online")
        problems = browser.console_problems()
        _, errors = browser.console()
    finally:
        browser.close()
    for line in online:
        print(f"  {name}'s console: {line}")
    if errors:
        raise TestFailure(f"{name}'s page threw: {errors[0]}")
    if ranked is None:
        raise TestFailure(f"{name}'s run never reached `{rank_line}`: {' | '.join(online)}")
    if not profile["seed"] or profile["name"] != name or not profile["enabled"]:
        raise TestFailure(f"{name}'s key and name are not in localStorage: {profile['text']!r}")
    if not randomness:
        raise TestFailure(f"{name}'s key was not made from crypto.getRandomValues")
    if problems:
        raise TestFailure(f"{name}'s console is not clean: {' | '.join(problems[:5])}")
    print(f"ok: {name} went online (key from crypto.getRandomValues, kept in localStorage) "
          f"and reached `{ranked}`")
    return profile


def check_two_players(chromium, args, server, level_1_hash):
    ada = play_level_1_online(chromium, args, server.url, "Ada",
                              "online: on the board at rank 1 of 1")
    bob = play_level_1_online(chromium, args, server.url, "Bob",
                              "online: on the board at rank 2 of 2")
    if ada["seed"] == bob["seed"]:
        raise TestFailure("two fresh browsers made the same key")
    board = json.loads(server.get(f"/api/v1/levels/{level_1_hash}/board?limit=10"))
    names = [(entry["rank"], entry["name"]) for entry in board["entries"]]
    if names != [(1, "Ada"), (2, "Bob")]:
        raise TestFailure(f"the board is not Ada then Bob: {names}")
    bob_key = board["entries"][1]["player"]
    place = json.loads(server.get(f"/api/v1/levels/{level_1_hash}/board/{bob_key}?around=1"))
    ahead = [entry for entry in place["around"] if entry["rank"] == place["rank"] - 1]
    if not ahead or ahead[0]["name"] != "Ada":
        raise TestFailure(f"the run just ahead of Bob's is not Ada's: {place}")
    ghost = server.get(f"/api/v1/runs/{ahead[0]['run']}/replay").decode("utf-8")
    if "01_first_swing.ron" not in ghost:
        raise TestFailure(f"the run just ahead of Bob's is not a level 1 replay: {ghost[:200]!r}")
    print(f"ok: the board is {names}; the run just ahead of Bob's is Ada's (run "
          f"{ahead[0]['run']}, a {len(ghost)}-byte replay of level 1)")
    return ada


def check_key_kept(chromium, args, url, ada):
    """Ada's page again, with her localStorage: no new key, no new randomness."""
    browser = Browser(chromium, args.work, "online-Ada-again")
    try:
        # A page of the origin that is not the game, to put Ada's profile in its localStorage.
        browser.open(f"{url}/api/v1/health", init_script=COUNT_RANDOMNESS)
        browser.pump(1.0)
        browser.evaluate(f"localStorage.setItem('tether.online', {json.dumps(ada['text'])})")
        browser.events.clear()
        # (a menu script skips the "click to start" screen, as a person's click would)
        browser.call("Page.navigate", {"url": f"{url}/?online_name=Ada&menu=MenuDown"})
        said = browser.wait_for_console("online: as Ada", timeout=60)
        profile = online_profile(browser)
        randomness = browser.evaluate("window.tetherRandomCalls")
    finally:
        browser.close()
    if said is None or profile["seed"] != ada["seed"]:
        raise TestFailure(f"Ada's key was not kept across a reload: said {said!r}, seed "
                          f"{profile['seed']} (hers: {ada['seed']})")
    if randomness:
        raise TestFailure("a player with a key asked crypto.getRandomValues for another")
    print("ok: a reload keeps the key from localStorage (no new randomness): `online: as Ada`")


def check_online_link(chromium, args, server):
    """A level only the server has opens from `#online=<hash>`."""
    listed = json.loads(server.get("/api/v1/levels?q=Seeded&limit=5"))
    levels = listed.get("levels") or listed.get("entries") or []
    if not levels:
        raise TestFailure(f"the seeded level is not listed: {listed}")
    level_hash = levels[0]["hash"]
    browser = Browser(chromium, args.work, "online-link")
    try:
        # Online levels need online on (a name), as they do on the desktop.
        browser.open(f"{server.url}/?online_name=Cleo#online={level_hash}")
        # A person's click starts the game (and its sound), as on a first visit.
        played = browser.click_until_console(f"screen: playing online-{level_hash}", timeout=120)
        kept = browser.evaluate(f"localStorage.getItem('tether.online.{level_hash}')")
        online = console_lines(browser, "online")
        problems = browser.console_problems()
    finally:
        browser.close()
    if played is None:
        raise TestFailure(f"the link #online={level_hash} did not open its level: "
                          f"{' | '.join(online)}")
    if not kept or "Seeded Level" not in kept:
        raise TestFailure(f"the linked level was not kept in localStorage: {kept!r}"[:300])
    if problems:
        raise TestFailure(f"the linked level's console is not clean: {' | '.join(problems[:5])}")
    print(f"ok: #online={level_hash[:12]}… opened a level only the server has "
          f"(`{played}`), kept in localStorage ({len(kept)} bytes)")


def check_bad_answers(chromium, args, url):
    """Registration against answers that must end as a message: the line names each."""
    hostile, hostile_url = start_hostile_server()
    cases = [
        ("no server", f"http://127.0.0.1:{free_port()}", "the server cannot be reached"),
        ("garbage", f"{hostile_url}/garbage", "the server's answer makes no sense"),
        ("10 MB", f"{hostile_url}/huge", "the server's answer is larger than 256 KB"),
        ("never ends", f"{hostile_url}/endless",
         f"the server did not answer within {JSON_TIMEOUT_S} s"),
    ]
    try:
        for label, server, expected in cases:
            browser = Browser(chromium, args.work, f"online-bad-{label.replace(' ', '-')}")
            try:
                browser.open(f"{url}/?online_name=Eve&server={server}&menu=MenuDown")
                started = time.monotonic()
                refused = browser.wait_for_console("online: name refused", timeout=60)
                took = time.monotonic() - started
                lines, errors = browser.console()
            finally:
                browser.close()
            if errors:
                raise TestFailure(f"{label}: the page threw: {errors[0]}")
            if refused is None:
                raise TestFailure(f"{label}: no message within 60 s (a hang?)")
            if expected not in refused:
                raise TestFailure(f"{label}: the message is not `{expected}`: {refused}")
            if not any(line.startswith("screen: title") for line in lines):
                raise TestFailure(f"{label}: the game did not go on to its title screen")
            print(f"ok: {label}: `{refused}` after {took:.1f} s, on the title screen")
    finally:
        hostile.shutdown()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", required=True, help="the tether-server binary")
    parser.add_argument("--dist", default="dist", help="the browser build to serve")
    parser.add_argument("--levels", default="levels", help="the campaign's levels folder")
    parser.add_argument("--work", help="a scratch folder (default: a fresh temporary one)")
    parser.add_argument("--only", action="append", default=[],
                        help="run only these checks (players, link, bad-answers)")
    args = parser.parse_args()
    own_work = args.work is None
    args.work = args.work or tempfile.mkdtemp(prefix="tether-web-online-")
    os.makedirs(args.work, exist_ok=True)
    wanted = lambda name: not args.only or name in args.only  # noqa: E731
    server = TetherServer(args.server, os.path.abspath(args.dist), os.path.abspath(args.levels),
                          args.work)
    try:
        chromium = find_chromium()
        with open(os.path.join(args.levels, "01_first_swing.ron"), "rb") as level:
            level_1_hash = hashlib.sha256(level.read()).hexdigest()
        server.seed_one_level()
        url = server.start()
        print(f"ok: tether-server serves the page and the API at {url}")
        if wanted("players"):
            ada = check_two_players(chromium, args, server, level_1_hash)
            check_key_kept(chromium, args, url, ada)
        if wanted("link"):
            check_online_link(chromium, args, server)
        if wanted("bad-answers"):
            check_bad_answers(chromium, args, url)
    except (TestFailure, subprocess.SubprocessError, OSError) as err:
        print(f"browser online test FAILED: {err} (logs in {args.work})", file=sys.stderr)
        return 1
    finally:
        server.stop()
    if own_work:
        shutil.rmtree(args.work, ignore_errors=True)
    print("browser online test passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
