#!/usr/bin/env python3
"""Serves the browser build (dist/) over HTTP, standard library only.

Like `python3 -m http.server`, plus what the game and its test need:
- `.wasm` is always served as application/wasm (WebAssembly.compileStreaming insists on it,
  and older Pythons or a bare /etc/mime.types may not know the type);
- `Cache-Control: no-cache`, so a reload after `./build.sh web` picks up the new build;
- each request is logged with a monotonic millisecond timestamp, which the browser test reads
  to time the first frame in real time (headless Chromium runs the page on virtual time);
- `--port 0` picks a free port and `--port-file` says which one.

usage: web_serve.py DIR [--bind 127.0.0.1] [--port 8080] [--port-file FILE] [--log FILE]
"""

import argparse
import functools
import http.server
import os
import sys
import time


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".js": "text/javascript",
        ".ron": "text/plain; charset=utf-8",
        ".html": "text/html; charset=utf-8",
    }
    request_log = None

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_request(self, code="-", size="-"):
        if self.request_log is not None:
            stamp_ms = time.monotonic() * 1000.0
            self.request_log.write(f"{stamp_ms:.1f} {code} {self.path}\n")
            self.request_log.flush()
        super().log_request(code, size)


def main():
    parser = argparse.ArgumentParser(description="Serve Tether's browser build.")
    parser.add_argument("directory")
    parser.add_argument("--bind", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--port-file", help="write the port actually used here")
    parser.add_argument("--log", help="append 'monotonic_ms status path' lines here")
    parser.add_argument("--quiet", action="store_true", help="no per-request lines on stderr")
    args = parser.parse_args()

    if not os.path.isfile(os.path.join(args.directory, "index.html")):
        print(f"{args.directory}/index.html is missing: run ./build.sh web first", file=sys.stderr)
        return 2
    if args.log:
        Handler.request_log = open(args.log, "a", encoding="utf-8")
    if args.quiet:
        Handler.log_message = lambda *_: None
    handler = functools.partial(Handler, directory=args.directory)
    http.server.ThreadingHTTPServer.allow_reuse_address = True
    try:
        server = http.server.ThreadingHTTPServer((args.bind, args.port), handler)
    except OSError as err:
        print(f"cannot listen on {args.bind}:{args.port}: {err}", file=sys.stderr)
        return 2
    port = server.server_address[1]
    if args.port_file:
        tmp = args.port_file + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(f"{port}\n")
        os.replace(tmp, args.port_file)
    print(f"serving {args.directory} on http://{args.bind}:{port}/ (Ctrl-C stops)", file=sys.stderr)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
