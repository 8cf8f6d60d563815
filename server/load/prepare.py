#!/usr/bin/env python3
"""Prepares the mixed load run's requests (docs/online.md, "Load") for `wrk -s mixed.lua`.

Against a server seeded with `tether-server seed`, it writes one request per line to
requests.tsv ("kind<TAB>method<TAB>path<TAB>body"):
  board     GET a seeded level's top 10
  place     GET a player's place on a board they are on
  browse    GET a page of levels (each sort, and searches)
  valid     POST a signed run: a session taken now, level 1's solution at its real 177 ticks
  faster    POST a signed forged run: the same inputs claiming 150 ticks (202, then refused)
  badsig    POST a run whose signature is wrong (401 at once)
Signed writes use fresh nonces, which live 5 minutes: start wrk within that.

Usage: prepare.py BASE_URL LEVELS_DIR [WRITES_EACH] [PLAYERS_SEEDED]
"""
import hashlib
import json
import sys
import urllib.parse
import urllib.request

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

BASE = sys.argv[1].rstrip("/")
LEVELS_DIR = sys.argv[2]
WRITES_EACH = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
PLAYERS = int(sys.argv[4]) if len(sys.argv) > 4 else 10000


def call(method, path, body=None):
    data = body.encode() if body is not None else None
    request = urllib.request.Request(BASE + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"null")


def seeded_key(index):
    """The same key `tether-server seed` gives player `index`."""
    seed = hashlib.sha256(f"tether-seed-player-{index}".encode()).digest()
    private = Ed25519PrivateKey.from_private_bytes(seed)
    public = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    return private, public


def envelope(private, public, body, break_signature=False):
    status, answer = call("GET", "/api/v1/nonce")
    assert status == 200, answer
    nonce = answer["nonce"]
    sig = bytearray(private.sign(f"tether-v1\n{nonce}\n{body}".encode()))
    if break_signature:
        sig[0] ^= 1
    return json.dumps({"key": public, "nonce": nonce, "sig": sig.hex(), "body": body})


def main():
    # The server's own simulation version: a run of another version is refused with 400.
    status, health = call("GET", "/api/v1/health")
    assert status == 200, health
    sim_version = health["sim_version"]
    levels = []
    for offset in range(0, 400, 50):
        status, page = call("GET", f"/api/v1/levels?sort=newest&limit=50&offset={offset}")
        assert status == 200, page
        levels += [l["hash"] for l in page["levels"] if l["name"].startswith("Seeded Level")]
    assert levels, "no seeded levels: run `tether-server seed` first"
    lines = []
    for level in levels:
        lines.append(("board", "GET", f"/api/v1/levels/{level}/board?limit=10", ""))
        status, board = call("GET", f"/api/v1/levels/{level}/board?limit=10")
        for entry in board["entries"]:
            lines.append(("place", "GET",
                          f"/api/v1/levels/{level}/board/{entry['player']}?around=5", ""))
    for sort in ["newest", "plays", "rating", "hardest", "easiest"]:
        lines.append(("browse", "GET", f"/api/v1/levels?sort={sort}&limit=20", ""))
    for q in ["level 1", "seeded", "seeded4", "level 19"]:
        lines.append(("browse", "GET", "/api/v1/levels?q=" + urllib.parse.quote(q), ""))
    solution = open(f"{LEVELS_DIR}/solutions/01_first_swing.ron").read()
    for i in range(WRITES_EACH):
        # Distinct players per write: a player's own rate limit is not what is measured.
        for kind, player, ticks in [("valid", i, 177), ("faster", PLAYERS - 1 - i, 150)]:
            private, public = seeded_key(player)
            level = levels[i % len(levels)]
            status, session = call("POST", "/api/v1/sessions",
                                   envelope(private, public, json.dumps({"level": level})))
            assert status == 200, session
            run = json.dumps({"session": session["session"], "level": level,
                              "sim_version": sim_version, "ticks": ticks, "replay": solution})
            lines.append((kind, "POST", "/api/v1/runs", envelope(private, public, run)))
        private, public = seeded_key(PLAYERS // 2 + i)
        forged = json.dumps({"session": "00" * 16, "level": levels[0],
                             "sim_version": sim_version, "ticks": 177, "replay": solution})
        lines.append(("badsig", "POST", "/api/v1/runs",
                      envelope(private, public, forged, break_signature=True)))
    with open("requests.tsv", "w") as out:
        for kind, method, path, body in lines:
            out.write(f"{kind}\t{method}\t{path}\t{body}\n")
    print(f"requests.tsv: {len(lines)} requests, {WRITES_EACH} valid, faster and badsig each")


main()
