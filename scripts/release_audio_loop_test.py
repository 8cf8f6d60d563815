#!/usr/bin/env python3
"""Do the MP3 loops (music layers, wind, rope creak) loop without a gap in a browser?

An MP3 encoder adds silence at both ends (encoder delay and padding); our files carry LAME's
gapless tag saying how much. A browser whose decodeAudioData ignores the tag hands back a buffer
with that silence in it, and an AudioBufferSourceNode with `loop = true` plays it as a click or
a dropout at every repeat. For each loop this serves a small page that, in the browser:
  - decodes the file at its own sample rate and at 44.1 kHz (the rate web/audio_plugin.js
    decodes at), and compares the lengths with the tag's (frames x samples per frame - delay -
    padding);
  - counts the near-silent samples at the buffer's start and end (what a gap would be);
  - renders the buffer through a looping AudioBufferSourceNode in an OfflineAudioContext for two
    and a bit repeats, and checks that the output repeats the buffer sample for sample across
    the seam (the node loops the whole buffer, nothing added).
The page posts its findings back to this script's server, so any browser that can open a URL
headless runs it: Chromium (the default) and Firefox (`--browser firefox`).

  python3 scripts/release_audio_loop_test.py [--browser chromium|firefox] [--sounds assets/sounds]

Exits 1 when a loop's decoded length differs from the tag's or the loop does not repeat the
buffer exactly. Needs no project build.
"""

import argparse
import http.server
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import threading

LOOPS = ("wind.mp3", "rope_creak.mp3", "music_dusk.mp3", "music_ember.mp3", "music_forest.mp3",
         "music_melody.mp3", "music_perc.mp3")
# web/audio_plugin.js's DECODE_RATE_HZ.
PLUGIN_DECODE_RATE_HZ = 44100
# |sample| below this counts as silence (about -80 dBFS).
QUIET = 1e-4
# The 44.1 kHz decode is resampled, so its length may round either way by a sample or two.
RESAMPLED_SLACK_SAMPLES = 2
TIMEOUT_S = 120

PAGE = """<!doctype html><meta charset="utf-8"><title>loop check</title><script>
const LOOPS = %(loops)s, PLUGIN_RATE = %(plugin_rate)d, QUIET = %(quiet)g;
function quietRun(data, from, step) {
  let n = 0;
  for (let i = from; i >= 0 && i < data.length && Math.abs(data[i]) < QUIET; i += step) n++;
  return n;
}
async function decodeAt(bytes, rate) {
  const ctx = new OfflineAudioContext(1, 1, rate);
  return await ctx.decodeAudioData(bytes.slice(0));
}
async function loopRepeats(buffer) {
  const n = buffer.length, total = 2 * n + Math.floor(n / 2);
  const ctx = new OfflineAudioContext(1, total, buffer.sampleRate);
  const source = ctx.createBufferSource();
  source.buffer = buffer; source.loop = true; source.connect(ctx.destination); source.start();
  const out = (await ctx.startRendering()).getChannelData(0), data = buffer.getChannelData(0);
  let worst = 0;
  for (let i = 0; i < total; i++) worst = Math.max(worst, Math.abs(out[i] - data[i %% n]));
  // The seam itself: the step from the last sample to the first, against the largest step
  // inside the buffer (a gap or a cut would show as silence or as a jump far above it).
  let maxStep = 0;
  for (let i = 1; i < n; i++) maxStep = Math.max(maxStep, Math.abs(data[i] - data[i - 1]));
  return {worst, seamStep: Math.abs(data[0] - data[n - 1]), maxStep};
}
(async () => {
  const results = {userAgent: navigator.userAgent, loops: {}};
  for (const [name, rate] of LOOPS) {
    try {
      const bytes = await (await fetch("sounds/" + name)).arrayBuffer();
      const own = await decodeAt(bytes, rate), plugin = await decodeAt(bytes, PLUGIN_RATE);
      const data = own.getChannelData(0);
      results.loops[name] = {
        ownLength: own.length, pluginLength: plugin.length,
        leadingQuiet: quietRun(data, 0, 1), trailingQuiet: quietRun(data, data.length - 1, -1),
        own: await loopRepeats(own), plugin: await loopRepeats(plugin),
      };
    } catch (e) {
      results.loops[name] = {error: String(e)};
    }
  }
  await fetch("result", {method: "POST", body: JSON.stringify(results)});
})();
</script>"""


def lame_tag(path):
    """(sample rate, samples the encoder was given) from the file's Xing/Info + LAME tag."""
    data = open(path, "rb").read()
    start = 0
    if data[:3] == b"ID3":
        start = 10 + ((data[6] << 21) | (data[7] << 14) | (data[8] << 7) | data[9])
    header = struct.unpack(">I", data[start:start + 4])[0]
    version = (header >> 19) & 3  # 0: MPEG 2.5, 2: MPEG 2, 3: MPEG 1
    rate = {3: (44100, 48000, 32000), 2: (22050, 24000, 16000),
            0: (11025, 12000, 8000)}[version][(header >> 10) & 3]
    samples_per_frame = 1152 if version == 3 else 576
    tag = max(data.find(b"Info", start, start + 200), data.find(b"Xing", start, start + 200))
    if tag < 0:
        raise SystemExit(f"{path}: no Xing/Info frame, so no gapless tag")
    flags = struct.unpack(">I", data[tag + 4:tag + 8])[0]
    if not flags & 1:
        raise SystemExit(f"{path}: the Info frame has no frame count")
    frames = struct.unpack(">I", data[tag + 8:tag + 12])[0]
    lame = tag + 8 + 4 * bool(flags & 1) + 4 * bool(flags & 2) + 100 * bool(flags & 4) + 4 * bool(flags & 8)
    delay_padding = data[lame + 21:lame + 24]
    delay = (delay_padding[0] << 4) | (delay_padding[1] >> 4)
    padding = ((delay_padding[1] & 0x0F) << 8) | delay_padding[2]
    return rate, frames * samples_per_frame - delay - padding, delay, padding


def browser_command(kind, url, profile):
    if kind == "chromium":
        binary = shutil.which("chromium") or shutil.which("chromium-browser")
        return [binary, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                f"--user-data-dir={profile}", "--autoplay-policy=no-user-gesture-required", url]
    binary = shutil.which("firefox-esr") or shutil.which("firefox")
    return [binary, "--headless", "--no-remote", "--profile", profile, url]


def run_page(kind, sounds, loops):
    results = {}
    done = threading.Event()
    page = PAGE % {"loops": json.dumps(loops), "plugin_rate": PLUGIN_DECODE_RATE_HZ,
                   "quiet": QUIET}

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=os.path.dirname(sounds), **kwargs)

        def do_GET(self):
            if self.path in ("/", "/index.html"):
                body = page.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            else:
                super().do_GET()

        def do_POST(self):
            length = int(self.headers.get("Content-Length", 0))
            results.update(json.loads(self.rfile.read(length)))
            self.send_response(204)
            self.end_headers()
            done.set()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    profile = tempfile.mkdtemp(prefix=f"loop-check-{kind}-")
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    browser = subprocess.Popen(browser_command(kind, url, profile), stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        if not done.wait(TIMEOUT_S):
            raise SystemExit(f"{kind}: the page posted no result within {TIMEOUT_S} s")
    finally:
        browser.terminate()
        try:
            browser.wait(timeout=10)
        except subprocess.TimeoutExpired:
            browser.kill()
            browser.wait()
        server.shutdown()
        shutil.rmtree(profile, ignore_errors=True)
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--browser", choices=("chromium", "firefox"), default="chromium")
    parser.add_argument("--sounds", default="assets/sounds")
    args = parser.parse_args()
    sounds = os.path.abspath(args.sounds)
    tags = {name: lame_tag(os.path.join(sounds, name)) for name in LOOPS}
    results = run_page(args.browser, sounds, [[name, tags[name][0]] for name in LOOPS])
    print(f"{args.browser}: {results.get('userAgent')}")
    failed = False
    for name in LOOPS:
        rate, samples, delay, padding = tags[name]
        found = results["loops"].get(name, {"error": "no result"})
        if "error" in found:
            print(f"  FAIL {name}: {found['error']}")
            failed = True
            continue
        plugin_expected = round(samples * PLUGIN_DECODE_RATE_HZ / rate)
        ok_length = found["ownLength"] == samples
        ok_plugin = abs(found["pluginLength"] - plugin_expected) <= RESAMPLED_SLACK_SAMPLES
        ok_loop = found["own"]["worst"] == 0 and found["plugin"]["worst"] == 0
        failed |= not (ok_length and ok_plugin and ok_loop)
        print(f"  {'ok  ' if ok_length and ok_plugin and ok_loop else 'FAIL'} {name}: "
              f"{found['ownLength']} samples at {rate} Hz (tag: {samples} = frames x spf - "
              f"{delay} delay - {padding} padding), {found['pluginLength']} at "
              f"{PLUGIN_DECODE_RATE_HZ} Hz (expected {plugin_expected}); quiet samples at the "
              f"start {found['leadingQuiet']}, at the end {found['trailingQuiet']}; looped "
              f"output off the buffer by at most {found['own']['worst']:g} / "
              f"{found['plugin']['worst']:g}; seam step {found['own']['seamStep']:.4f} "
              f"(largest inside {found['own']['maxStep']:.4f})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
