#!/usr/bin/env python3
"""Tether Online in the browser: headless Chromium plays the game that a real tether-server
serves, page and API on one origin (a free loopback port, a fresh data folder, the server
started and stopped here), through web/net_plugin.js's fetch and crypto.getRandomValues.

1. Two fresh players (fresh browser profiles) turn online on in the title's Online settings and
   type their names on the name-entry screen (`?menu=...,Type:NAME`); Bob first types the taken
   "Ada" and must be refused with the server's reason and asked again. Each key is made from
   crypto.getRandomValues and kept in localStorage (`tether.online`). They play level 1 from
   the title by its solution (`autoplay`), Bob after 60 idle ticks, so slower: "rank 1 of 1" for
   Ada, "rank 2 of 2" for Bob, the board Ada then Bob with their times in that order. Bob's
   ghost menu is on "the run just ahead of mine": his retry downloads, checks and races Ada's
   run (the game's `ghost: racing ahead` line, with her run and board time).
2. A reload of Ada's page keeps her key (no new randomness, the same seed).
3. "Show my recovery code" on Ada's device: with the clipboard permission granted the code
   shown goes to navigator.clipboard.writeText; denied, the game says so and goes back.
4. The server stopped once a run session is answered: the run finishes, waits in localStorage
   and reaches the board once the server is back on the same port and data folder, without a
   reload and (a second player) with the page left and loaded again.
5. A level only the server has (`tether-server seed`: level 1 renamed) opens from its link
   `#online=<hash>` on Ada's device (after a click to start): fetched, checked against its
   hash, kept in localStorage and played.
6. Answers that must end as a message, not a hang or a crash: no server there, garbage, a
   10 MB answer and one that never ends (a small server here, on another loopback port, that
   allows the page's origin): the registration's line names each (`?online_name=&server=`).

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

# Menu scripts (as scripts/online_test.sh walks the desktop's; the browser's title has no Quit,
# so its last item, Online, is one up from Play). The title's Online settings: the first item
# turns online on and opens the name entry for a player without a name.
NAME_ONLINE = "MenuUp,MenuConfirm,MenuConfirm"
# From the Online settings back to the title (at Online), one down to Play (level 1 when fresh).
ONLINE_TO_PLAY = "MenuBack,MenuDown,MenuConfirm"
# From the title at Online: the Ghost item is five up; three presses from "your best run" reach
# "the run just ahead of mine"; two up again is Play.
GHOST_AHEAD = ("MenuUp,MenuUp,MenuUp,MenuUp,MenuUp,MenuConfirm,MenuConfirm,MenuConfirm,"
               "MenuUp,MenuUp")
# On the complete screen (Next, Retry, Level select, Board): up to Board, open it, back; then
# two up to Retry.
BOARD = "MenuUp,MenuConfirm,MenuBack"
BOARD_TO_RETRY = "MenuUp,MenuUp,MenuConfirm"
# Bob's autoplay waits this many ticks before level 1's solution: the same path, slower.
BOB_IDLE_TICKS = 60
# The queue check's idle start: time (10 s at 120 ticks a second) to stop the server after the
# run session is answered, before the run reaches the goal.
QUEUE_IDLE_TICKS = 1200
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
# Records what the page hands to navigator.clipboard.writeText, then writes it for real.
HOOK_CLIPBOARD = """
(() => {
    window.tetherClipboardWrites = [];
    const clipboard = navigator.clipboard;
    const original = clipboard.writeText.bind(clipboard);
    clipboard.writeText = function (text) {
        window.tetherClipboardWrites.push(text);
        return original(text);
    };
})();
"""
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
# The game's lines once a clipboard write has settled (online_recovery.rs `Clipboard`).
CLIPBOARD_LINES = ("online: recovery code copied to the clipboard",
                   "online: the clipboard refused the recovery code")
# From the title (at Play): Online (one up), its settings, three down to "Show my recovery code".
TITLE_TO_SHOW_CODE = "MenuUp,MenuConfirm,MenuDown,MenuDown,MenuDown,MenuConfirm"
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

    def start(self, port=0):
        """Starts it on `port` (0: a free one); the same port and data folder bring it back."""
        env = {**self.env, "TETHER_PORT": str(port)}
        self.proc = subprocess.Popen([self.binary], env=env, stdout=subprocess.PIPE,
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

    def port(self):
        return int(self.url.rsplit(":", 1)[1])

    def halt(self):
        """Stops the process (SIGTERM); `start(self.port())` brings it back."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def stop(self):
        self.halt()
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
    """The page's `tether.online` (JSON) as a dict of the fields the test reads."""
    text = browser.evaluate("localStorage.getItem('tether.online')") or ""
    try:
        kept = json.loads(text) if text else {}
    except ValueError as err:
        raise TestFailure(f"localStorage tether.online is not JSON ({err}): {text[:200]!r}")
    seed = kept.get("key_seed")
    return {"text": text, "seed": seed if re.fullmatch(r"[0-9a-f]{64}", seed or "") else None,
            "name": kept.get("name"), "enabled": kept.get("enabled") is True}


def console_lines(browser, prefix):
    lines, _ = browser.console()
    return [line for line in lines if line.startswith(prefix)]


def unexpected_problems(browser, expected=()):
    """The page's console problems but the browser's own notes of refusals the test asks for:
    `expected` holds (text, URL part) pairs, e.g. ("status of 409", "/api/v1/players")."""
    return [problem for problem in browser.console_problems()
            if not (problem.startswith("browser error (network)")
                    and any(text in problem and part in problem for text, part in expected))]


def play_level_1_online(chromium, args, url, name, menu, wanted, idle_ticks=0, refusals=()):
    """A fresh profile opens the title with menu script `menu` (which names `name` on the
    name-entry screen and plays level 1 by autoplay, after `idle_ticks` of no input) and must
    log every line of `wanted` (prefixes, in any order), its console clean but for the browser's
    notes of `refusals` (see `unexpected_problems`). Returns the profile (seed, name) and the
    lines found."""
    browser = Browser(chromium, args.work, f"online-{name}")
    try:
        browser.open(f"{url}/?menu={menu}&autoplay=1&autoplay_idle={idle_ticks}",
                     init_script=COUNT_RANDOMNESS)
        found = {}
        for prefix in wanted:
            found[prefix] = browser.wait_for_console(prefix, timeout=PAGE_TIMEOUT_S)
            if found[prefix] is None:
                break
        profile = online_profile(browser)
        randomness = browser.evaluate("window.tetherRandomCalls")
        online = console_lines(browser, "online") + console_lines(browser, "ghost")
        problems = unexpected_problems(browser, refusals)
        _, errors = browser.console()
    finally:
        browser.close()
    for line in online:
        print(f"  {name}'s console: {line}")
    if errors:
        raise TestFailure(f"{name}'s page threw: {errors[0]}")
    for prefix, line in found.items():
        if line is None:
            raise TestFailure(f"{name}'s page never logged `{prefix}`: {' | '.join(online)}")
    if not profile["seed"] or profile["name"] != name or not profile["enabled"]:
        raise TestFailure(f"{name}'s key and name are not in localStorage: {profile['text']!r}")
    if not randomness:
        raise TestFailure(f"{name}'s key was not made from crypto.getRandomValues")
    if problems:
        raise TestFailure(f"{name}'s console is not clean: {' | '.join(problems[:5])}")
    return profile, found


def check_two_players(chromium, args, server, level_1_hash):
    """Ada and Bob name themselves on the name-entry screen (Bob first tries the taken "Ada"
    and is asked again with the server's reason); Bob plays the same solution after idle ticks,
    so he is slower; his ghost menu is on "the run just ahead of mine", and his retry races
    Ada's run, downloaded and checked by the game."""
    ada, _ = play_level_1_online(
        chromium, args, server.url, "Ada",
        f"{NAME_ONLINE},Type:Ada,{ONLINE_TO_PLAY}",
        ["online: as Ada", "online: on the board at rank 1 of 1"])
    print("ok: Ada named herself on the name-entry screen (key from crypto.getRandomValues, "
          "kept in localStorage) and reached `online: on the board at rank 1 of 1`")
    refused_prefix = 'online: name "Ada" refused: '
    raced_prefix = "ghost: racing ahead (01_first_swing.ron): Ada's run "
    bob, found = play_level_1_online(
        chromium, args, server.url, "Bob",
        f"{NAME_ONLINE},Type:Ada,Type:Bob,MenuBack,{GHOST_AHEAD},MenuConfirm,{BOARD},"
        f"{BOARD_TO_RETRY}",
        [refused_prefix, "online: as Bob", "online: on the board at rank 2 of 2", raced_prefix],
        idle_ticks=BOB_IDLE_TICKS,
        # The taken name (409) and, on his first try, no run of his to be just ahead of (404).
        refusals=[("status of 409", "/api/v1/players"), ("status of 404", "/board/")])
    print(f"ok: Bob was refused the taken name (`{found[refused_prefix]}`), "
          "named himself when asked again and reached `online: on the board at rank 2 of 2`")
    if ada["seed"] == bob["seed"]:
        raise TestFailure("two fresh browsers made the same key")
    board = json.loads(server.get(f"/api/v1/levels/{level_1_hash}/board?limit=10"))
    names = [(entry["rank"], entry["name"]) for entry in board["entries"]]
    if names != [(1, "Ada"), (2, "Bob")]:
        raise TestFailure(f"the board is not Ada then Bob: {names}")
    ada_ticks, bob_ticks = (entry["ticks"] for entry in board["entries"])
    if not ada_ticks < bob_ticks:
        raise TestFailure(f"Bob's rank 2 is not earned by time: Ada {ada_ticks} ticks, "
                          f"Bob {bob_ticks}")
    raced = found[raced_prefix]
    ada_run = board["entries"][0]["run"]
    if not raced.startswith(f"ghost: racing ahead (01_first_swing.ron): Ada's run {ada_run}, "
                            f"{ada_ticks} ticks"):
        raise TestFailure(f"Bob's page did not race Ada's run {ada_run} of {ada_ticks} ticks: "
                          f"{raced}")
    print(f"ok: the board is {names}, Ada {ada_ticks} ticks, Bob {bob_ticks}; Bob's retry "
          f"races the run just ahead of his through the ghost menu: `{raced}`")
    return ada


def wait_for_response(browser, path, timeout):
    """The status of the page's first answered request whose URL ends with `path` (the page's
    Network events must be on), or None."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for _, method, params in browser.events:
            if method == "Network.responseReceived" and \
                    params["response"]["url"].endswith(path):
                return params["response"]["status"]
        browser.pump(0.2)
    return None


def queued_runs(browser):
    """The page's run queue as kept in localStorage (JSON), or ''."""
    return browser.evaluate("localStorage.getItem('tether.online_queue')") or ""


def play_into_a_stopped_server(browser, server, url, name):
    """`name` goes online on the name-entry screen and plays level 1 (a long idle start, so
    there is time to stop the server after the run session is opened and before the goal);
    the server is stopped once the session is answered. Returns the complete screen's line
    saying the run waits."""
    browser.open(f"{url}/?menu={NAME_ONLINE},Type:{name},{ONLINE_TO_PLAY}&autoplay=1"
                 f"&autoplay_idle={QUEUE_IDLE_TICKS}")
    browser.call("Network.enable")
    if browser.wait_for_console(f"online: as {name}", timeout=PAGE_TIMEOUT_S) is None:
        raise TestFailure(f"{name} did not go online: "
                          f"{' | '.join(console_lines(browser, 'online'))}")
    status = wait_for_response(browser, "/api/v1/sessions", timeout=PAGE_TIMEOUT_S)
    if status != 200:
        raise TestFailure(f"{name}'s attempt got no run session (status {status})")
    server.halt()
    waiting = browser.wait_for_console("online: queued: the server is not answering",
                                       timeout=PAGE_TIMEOUT_S)
    if waiting is None:
        raise TestFailure(f"{name}'s complete screen does not say the run waits: "
                          f"{' | '.join(console_lines(browser, 'online'))}")
    if "Queued" not in queued_runs(browser):
        raise TestFailure(f"{name}'s waiting run is not in localStorage: "
                          f"{queued_runs(browser)[:300]!r}")
    return waiting


def check_queue_recovery(chromium, args, server, level_1_hash):
    """The server stops after a run session is opened; the run finishes, waits in the page's
    queue (localStorage) and reaches the board once the server is back on the same port and
    data folder: without a reload (the complete screen's rank line), and across a reload (the
    reloaded page sends the kept run: the board names the player, the queue says so)."""
    port = server.port()
    browser = Browser(chromium, args.work, "online-queue-Dana")
    try:
        waiting = play_into_a_stopped_server(browser, server, server.url, "Dana")
        server.start(port)
        ranked = browser.wait_for_console("online: on the board at rank", timeout=PAGE_TIMEOUT_S)
        problems = unexpected_problems(browser, [("ERR_CONNECTION_REFUSED", "/api/v1/")])
    finally:
        browser.close()
    if ranked is None:
        raise TestFailure("Dana's waiting run never reached the board after the restart")
    if problems:
        raise TestFailure(f"Dana's console is not clean: {' | '.join(problems[:5])}")
    print(f"ok: server stopped mid-run: `{waiting}`; back on port {port}: `{ranked}`, "
          "without a reload")

    browser = Browser(chromium, args.work, "online-queue-Eli")
    try:
        waiting = play_into_a_stopped_server(browser, server, server.url, "Eli")
        # The game leaves (the page that played is gone; the server that serves it is down, so
        # the game comes back once the server does), then the same page is loaded again.
        browser.call("Page.navigate", {"url": "about:blank"})
        browser.pump(1.0)
        browser.events.clear()
        server.start(port)
        # A menu script skips the "click to start" screen.
        browser.call("Page.navigate", {"url": f"{server.url}/?menu=MenuDown"})
        if browser.wait_for_console("online: as Eli", timeout=60) is None:
            raise TestFailure("Eli's reloaded page did not come back online")
        deadline = time.monotonic() + PAGE_TIMEOUT_S
        names, settled = [], ""
        # The board lists the run once verified; the page's queue says so once it has asked.
        while time.monotonic() < deadline and not ("Eli" in names and "OnBoard" in settled):
            browser.pump(1.0)
            board = json.loads(server.get(f"/api/v1/levels/{level_1_hash}/board?limit=10"))
            names = [entry["name"] for entry in board["entries"]]
            settled = queued_runs(browser)
    finally:
        browser.close()
    if "Eli" not in names:
        raise TestFailure(f"Eli's run kept across the reload never reached the board: {names}")
    if "OnBoard" not in settled:
        state = re.findall(r'"state":"(\w+)"', settled)
        raise TestFailure(f"Eli's queue does not say the run is on the board: {state}")
    print(f"ok: server stopped mid-run: `{waiting}`; the page reloaded with the run in "
          f"localStorage; back on port {port}, the run reached the board: {names}")


def wait_for_any_console(browser, prefixes, timeout):
    """The first console line that starts with any of `prefixes`, or None."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        lines, _ = browser.console()
        found = [line for line in lines if line.startswith(tuple(prefixes))]
        if found:
            return found[0]
        browser.pump(0.2)
    return None


def recovery_code(seed_hex):
    """proto/src/recovery.rs `encode`: the seed and the first two bytes of its SHA-256 in
    Crockford base32, dash-separated groups of five."""
    seed = bytes.fromhex(seed_hex)
    payload = seed + hashlib.sha256(seed).digest()[:2]
    bits = "".join(f"{byte:08b}" for byte in payload)
    bits += "0" * (-len(bits) % 5)
    chars = [CROCKFORD[int(bits[i:i + 5], 2)] for i in range(0, len(bits), 5)]
    return "-".join("".join(chars[i:i + 5]) for i in range(0, len(chars), 5))


def show_recovery_code(chromium, args, url, ada, label, permission):
    """Ada's device opens Online settings → "Show my recovery code" with the page's clipboard
    permission set to `permission` ("granted" or "denied"). Returns the game's clipboard line,
    what the page handed to navigator.clipboard.writeText, and whether the screen went on."""
    browser = Browser(chromium, args.work, f"online-clipboard-{label}")
    try:
        browser.open(f"{url}/api/v1/health", init_script=HOOK_CLIPBOARD)
        browser.pump(1.0)
        browser.evaluate(f"localStorage.setItem('tether.online', {json.dumps(ada['text'])})")
        browser.call("Browser.setPermission", {
            "permission": {"name": "clipboard-write", "allowWithoutSanitization": True},
            "setting": permission, "origin": url}, session=False)
        browser.call("Emulation.setFocusEmulationEnabled", {"enabled": True})
        browser.events.clear()
        # Title → Online (one up) → settings; three down to "Show my recovery code"; then back.
        browser.call("Page.navigate", {"url": f"{url}/?menu={TITLE_TO_SHOW_CODE},MenuBack"})
        said = wait_for_any_console(browser, CLIPBOARD_LINES, timeout=60)
        written = browser.evaluate("window.tetherClipboardWrites")
        # The settings were named once on the way in; a second time when the screen went back.
        went_on = False
        deadline = time.monotonic() + 30
        while not went_on and time.monotonic() < deadline:
            browser.pump(0.2)
            went_on = len(console_lines(browser, "screen: online settings")) >= 2
        _, errors = browser.console()
    finally:
        browser.close()
    if errors:
        raise TestFailure(f"clipboard {label}: the page threw: {errors[0]}")
    return said, written, went_on


def check_clipboard(chromium, args, url, ada):
    """"Show my recovery code" copies the code shown through the page's plugin when the page
    may write the clipboard, and says so on screen (never waits) when it may not."""
    expected = recovery_code(ada["seed"])
    said, written, went_on = show_recovery_code(chromium, args, url, ada, "granted", "granted")
    if said != "online: recovery code copied to the clipboard":
        raise TestFailure(f"with the clipboard allowed the code was not copied: {said!r}")
    if written != [expected]:
        raise TestFailure(f"the clipboard got {written!r}, not the code shown ({expected})")
    print(f"ok: clipboard allowed: `{said}`, the text written is the code shown "
          f"({expected[:5]}-…, {len(expected)} characters)")
    said, written, went_on = show_recovery_code(chromium, args, url, ada, "denied", "denied")
    if said != "online: the clipboard refused the recovery code":
        raise TestFailure(f"with the clipboard refused the game did not say so: {said!r}")
    if not went_on:
        raise TestFailure("after a refused clipboard the recovery screen did not go back")
    print(f"ok: clipboard refused: `{said}`, and the screen goes back to the settings")


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
        browser.call("Page.navigate", {"url": f"{url}/?menu=MenuDown"})
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


def check_online_link(chromium, args, server, ada):
    """A level only the server has opens from `#online=<hash>`, on Ada's device (online levels
    need online on, as on the desktop)."""
    listed = json.loads(server.get("/api/v1/levels?q=Seeded&limit=5"))
    levels = listed.get("levels") or listed.get("entries") or []
    if not levels:
        raise TestFailure(f"the seeded level is not listed: {listed}")
    level_hash = levels[0]["hash"]
    browser = Browser(chromium, args.work, "online-link")
    try:
        browser.open(f"{server.url}/api/v1/health")
        browser.pump(1.0)
        browser.evaluate(f"localStorage.setItem('tether.online', {json.dumps(ada['text'])})")
        browser.events.clear()
        browser.call("Page.navigate", {"url": f"{server.url}/#online={level_hash}"})
        # A person's click starts the game (and its sound), as on a first visit.
        played = browser.click_until_console(f"screen: playing online-{level_hash}", timeout=120)
        kept = browser.evaluate(f"localStorage.getItem('tether.online.{level_hash}')")
        online = console_lines(browser, "online")
        # The API page that put Ada's profile in place has no favicon.
        problems = unexpected_problems(browser, [("status of 404", "/favicon.ico")])
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
                        help="run only these checks (players, clipboard, queue, link, bad-answers)")
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
        # The link and the clipboard are checked on Ada's device: they need the players' check.
        if wanted("players") or wanted("link") or wanted("clipboard"):
            ada = check_two_players(chromium, args, server, level_1_hash)
            check_key_kept(chromium, args, url, ada)
        if wanted("clipboard"):
            check_clipboard(chromium, args, url, ada)
        if wanted("queue"):
            check_queue_recovery(chromium, args, server, level_1_hash)
        if wanted("link"):
            check_online_link(chromium, args, server, ada)
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
