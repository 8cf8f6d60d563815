#!/usr/bin/env python3
"""The browser zip on a static host: unpacked, served from a subfolder URL, played.

What `./build.sh dist web` gives players (itch.io, GitHub Pages, any static host) must work where
it is unpacked and from whatever URL it is served. This takes the zip, and:
  - checks its layout: index.html at its root, no absolute or parent paths, nothing a server
    would run (only the static file types the game uses);
  - unpacks it into a folder whose path has a space, two folders down (games/tether/), and
    serves the parent with Python's plain `http.server` (no project code on the server side);
  - opens http://127.0.0.1:PORT/games/tether/ in headless Chromium: a first visit reaches the
    title screen, every sound decodes, the console stays clean (scripts/web_test.py's check);
  - opens ?level=1&replay=1 there: level 1's solution plays to the native outcome and hash, the
    console stays clean;
  - checks every request the server saw stayed under /games/tether/ and was found (relative
    paths only, nothing missing from the zip).
Prints the zip's size and the first frame's time from the page request (reported, not asserted).
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import web_test  # noqa: E402  (scripts/web_test.py: the Chromium driver and the first-visit check)
from web_test import Browser, TestFailure  # noqa: E402

SUBFOLDER = "games/tether"
# What the page is made of; anything else in the zip (a .php, .py, .cgi, .htaccess...) would be
# server logic or a stray file.
STATIC_SUFFIXES = (".html", ".js", ".wasm", ".ron", ".mp3", ".png", ".txt", ".md", ".json")
# References in index.html that would break under a subfolder URL or another host.
NON_RELATIVE = re.compile(r"""(?:src|href)\s*=\s*["'](?:/|[a-z]+://)""", re.IGNORECASE)


def check_zip_layout(path):
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        if "index.html" not in names:
            raise TestFailure(f"{path}: no index.html at the zip's root (first entries: {names[:5]})")
        for name in names:
            if name.startswith("/") or ".." in name.split("/") or "\\" in name:
                raise TestFailure(f"{path}: entry {name!r} is not a plain relative path")
            if not name.endswith("/") and not name.lower().endswith(STATIC_SUFFIXES):
                raise TestFailure(f"{path}: {name} is not one of the page's static file types")
        html = archive.read("index.html").decode("utf-8")
    bad = NON_RELATIVE.findall(html)
    if bad:
        raise TestFailure(f"{path}: index.html has non-relative references: {bad[:3]}")
    files = [n for n in names if not n.endswith("/")]
    print(f"ok: {os.path.basename(path)}: {os.path.getsize(path):,} bytes, {len(files)} files, "
          "index.html at the root, relative paths only, static files only")


def start_static_server(root, work):
    """`python3 -m http.server` on a free port, serving `root`; returns (process, port, log)."""
    log_path = os.path.join(work, "http.server.log")
    log = open(log_path, "w", encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", root],
        stdout=subprocess.PIPE, stderr=log, text=True)
    line = proc.stdout.readline()
    match = re.search(r"port (\d+)", line)
    if not match:
        proc.kill()
        raise TestFailure(f"http.server did not start: {line!r}")
    return proc, int(match.group(1)), log_path


def check_requests(log_path):
    """Every request under /SUBFOLDER/ and found (200, or 304 from the cache)."""
    requests = re.findall(r'"GET (\S+) HTTP/[\d.]+" (\d{3})', open(log_path, encoding="utf-8").read())
    if not requests:
        raise TestFailure(f"the static server logged no requests ({log_path})")
    outside = [path for path, _ in requests if not path.startswith(f"/{SUBFOLDER}/")]
    missing = [f"{path} ({code})" for path, code in requests if code not in ("200", "304")]
    if outside:
        raise TestFailure(f"the page asked for files outside /{SUBFOLDER}/: {outside[:5]}")
    if missing:
        raise TestFailure(f"requests that failed on the static host: {missing[:5]}")
    print(f"ok: all {len(requests)} requests stayed under /{SUBFOLDER}/ and were found")


def check_replay(chromium, work, url, expected):
    browser = Browser(chromium, work, "zip-replay")
    try:
        browser.open(url)
        outcome = browser.wait_for_console("replay outcome: ", timeout=120)
        problems = browser.console_problems()
    finally:
        browser.close()
    if outcome is None:
        raise TestFailure(f"{url}: no `replay outcome:` line within 120 s")
    got = web_test.outcome_fields(outcome)
    if got != web_test.outcome_fields(expected):
        raise TestFailure(f"{url}: level 1's solution gave {got}, natively {expected}")
    if problems:
        raise TestFailure(f"{url}: the console in play is not clean: " + " | ".join(problems[:5]))
    print(f"ok: level 1's solution from the unpacked zip: {got} (the native outcome and hash); "
          "console clean")


def first_frame_ms(chromium, work, url):
    """Milliseconds from navigating to the page to its `first frame drawn` console line."""
    browser = Browser(chromium, work, "zip-first-frame")
    try:
        browser.open(url)
        line = browser.wait_for_console("first frame drawn", timeout=60)
        at = next((at for at, method, params in browser.events
                   if method == "Runtime.consoleAPICalled"
                   and str(params["args"][0].get("value", "")).startswith("first frame drawn")),
                  None)
    finally:
        browser.close()
    if line is None or at is None:
        raise TestFailure(f"{url}: no first frame within 60 s")
    return (at - browser.navigated_at) * 1000, line


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--zip", required=True, help="the browser zip (./build.sh dist web)")
    parser.add_argument("--expected", required=True, help="level 1's native `tether replay` line")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="tether-web-zip-")
    server = None
    try:
        chromium = web_test.find_chromium()
        check_zip_layout(args.zip)
        root = os.path.join(work, "static host")
        site = os.path.join(root, *SUBFOLDER.split("/"))
        os.makedirs(site)
        with zipfile.ZipFile(args.zip) as archive:
            archive.extractall(site)
        server, port, log_path = start_static_server(root, work)
        url = f"http://127.0.0.1:{port}/{SUBFOLDER}/"
        print(f"serving {root!r} with http.server; the game at {url}")
        # A first visit: the title, every sound decoded, a clean console (web_test.py's check).
        web_test.check_first_visit(chromium, argparse.Namespace(url=url, work=work, dist=site))
        check_replay(chromium, work, url + "?level=1&replay=1", args.expected)
        ms, line = first_frame_ms(chromium, work, url)
        print(f"first frame from the unpacked zip: {ms:.0f} ms after navigating ({line.strip()}; "
              f"goal {web_test.FIRST_FRAME_GOAL_MS:.0f} ms, reported, not asserted)")
        time.sleep(0.2)  # http.server writes its last log lines
        check_requests(log_path)
    except TestFailure as err:
        print(f"browser zip test FAILED: {err}", file=sys.stderr)
        return 1
    finally:
        if server is not None:
            server.terminate()
            server.wait()
        subprocess.run(["rm", "-rf", work], check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
