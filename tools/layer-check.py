#!/usr/bin/env python3
"""The library's layers (docs/development.md, "Where things live"): core, steer, nav, world,
lockstep, in that order. A source or header of one layer may include only headers of its own
layer and of the layers before it. Prints one line per include that breaks the rule, then
"layers: N passed, N failed" (one check per source file)."""
import os
import re
import sys

LAYERS = ["core", "steer", "nav", "world", "lockstep"]
CORE = {"scalar", "vec2", "exact", "wide", "isqrt", "vec2_measure", "vec2_scale", "bytes", "hash",
        "rng", "fingerprint", "version", "result", "api", "config"}
WORLD_EXTRA = {"command", "command_build", "command_args", "input_limits", "snapshot", "world"}
LOCKSTEP = {"replay", "session", "session_join", "session_packet", "fixsteer"}  # fixsteer.h: the umbrella


def layer_of(name):
    if name.replace(os.sep, "/").endswith("src/version.c"):
        return "lockstep"  # reports every layer's format versions; version.h itself is core
    base = os.path.splitext(os.path.basename(name))[0]
    if base in CORE:
        return "core"
    if base.startswith("nav_"):
        return "nav"
    if base in LOCKSTEP or base.startswith("session"):
        return "lockstep"
    if base in WORLD_EXTRA or base.startswith("world_"):
        return "world"
    return "steer"


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    files = []
    for d in ("src", os.path.join("include", "fixsteer")):
        for f in sorted(os.listdir(os.path.join(root, d))):
            if f.endswith((".c", ".h")):
                files.append(os.path.join(d, f))
    passed = failed = 0
    for f in files:
        own = LAYERS.index(layer_of(f))
        bad = []
        with open(os.path.join(root, f), encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                m = re.match(r'\s*#\s*include\s+"(?:fixsteer/)?([^"]+)"', line)
                if not m:
                    continue
                inc = LAYERS.index(layer_of(m.group(1)))
                if inc > own:
                    bad.append("%s:%d: the %s layer includes %s of the %s layer" %
                               (f, n, LAYERS[own], m.group(1), LAYERS[inc]))
        if bad:
            failed += 1
            print("\n".join(bad))
        else:
            passed += 1
    print("layers: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
