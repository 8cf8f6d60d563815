#!/usr/bin/env python3
"""Checks that a .wasm imports only from the `env` module that macroquad's JS loader fills.

Anything else (`__wbindgen_placeholder__`, `wbg`, `wasi_snapshot_preview1`, ...) means a crate in
the wasm32 dependency tree pulled in wasm-bindgen or WASI, and the page would fail to start with
an obscure LinkError. Standard library only, so it runs on a fresh CI machine.

usage: wasm_imports.py FILE.wasm [--list]
Exit status: 0 clean, 1 foreign imports found (each one named), 2 unreadable file.
"""

import sys

ALLOWED_MODULES = {"env"}
IMPORT_SECTION_ID = 2
KIND_NAMES = {0: "func", 1: "table", 2: "memory", 3: "global", 4: "tag"}


class WasmError(Exception):
    pass


class Reader:
    def __init__(self, data, pos=0, end=None):
        self.data = data
        self.pos = pos
        self.end = len(data) if end is None else end

    def byte(self):
        if self.pos >= self.end:
            raise WasmError(f"unexpected end of data at byte {self.pos}")
        b = self.data[self.pos]
        self.pos += 1
        return b

    def uleb(self):
        result, shift = 0, 0
        while True:
            b = self.byte()
            result |= (b & 0x7F) << shift
            if not b & 0x80:
                return result
            shift += 7
            if shift > 63:
                raise WasmError(f"LEB128 number too long at byte {self.pos}")

    def name(self):
        length = self.uleb()
        if self.pos + length > self.end:
            raise WasmError(f"name runs past the section end at byte {self.pos}")
        raw = self.data[self.pos : self.pos + length]
        self.pos += length
        return raw.decode("utf-8", errors="replace")

    def skip_limits(self):
        flags = self.byte()
        self.uleb()
        if flags & 0x01:
            self.uleb()


def read_imports(data):
    """Returns [(module, name, kind)] from the import section."""
    if data[:4] != b"\0asm":
        raise WasmError("not a WebAssembly binary (bad magic)")
    if data[4:8] != b"\x01\0\0\0":
        raise WasmError("unsupported WebAssembly version")
    r = Reader(data, 8)
    while r.pos < len(data):
        section_id = r.byte()
        size = r.uleb()
        start = r.pos
        if section_id != IMPORT_SECTION_ID:
            r.pos = start + size
            continue
        s = Reader(data, start, start + size)
        imports = []
        for _ in range(s.uleb()):
            module, name = s.name(), s.name()
            kind = s.byte()
            if kind == 0:  # function: type index
                s.uleb()
            elif kind == 1:  # table: reftype + limits
                s.byte()
                s.skip_limits()
            elif kind == 2:  # memory: limits
                s.skip_limits()
            elif kind == 3:  # global: valtype + mutability
                s.byte()
                s.byte()
            elif kind == 4:  # tag: attribute + type index
                s.byte()
                s.uleb()
            else:
                raise WasmError(f"unknown import kind {kind} for {module}.{name}")
            imports.append((module, name, KIND_NAMES.get(kind, str(kind))))
        return imports
    return []


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    if len(args) != 1:
        print("usage: wasm_imports.py FILE.wasm [--list]", file=sys.stderr)
        return 2
    path = args[0]
    try:
        with open(path, "rb") as f:
            imports = read_imports(f.read())
    except (OSError, WasmError) as err:
        print(f"{path}: {err}", file=sys.stderr)
        return 2
    if "--list" in argv:
        for module, name, kind in imports:
            print(f"{module}.{name} ({kind})")
    foreign = [(m, n, k) for m, n, k in imports if m not in ALLOWED_MODULES]
    if foreign:
        for module, name, kind in foreign:
            print(f"{path}: forbidden import {module}.{name} ({kind}): only the `env` module "
                  "exists in macroquad's loader (wasm-bindgen or WASI crept into the wasm32 "
                  "dependency tree; see `cargo tree --target wasm32-unknown-unknown`)",
                  file=sys.stderr)
        return 1
    print(f"{path}: ok: {len(imports)} imports, all from `env`")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
