#!/usr/bin/env python3
"""The library's layers (docs/development.md, "Where things live"): core, steer, nav, world,
lockstep, in that order. Each module is a folder of src/ (src/mesh, the navigation mesh, is a
module of the nav layer); a public header of include/fixsteer belongs to the layer its name
says. A source or header of one layer may include only headers of its own layer and of the
layers before it. Prints one line per include that breaks the rule, then
"layers: N passed, N failed" (one check per source file)."""
import os
import re
import sys

LAYERS = ["core", "steer", "nav", "world", "lockstep"]
CORE = {"scalar", "vec2", "exact", "wide", "isqrt", "vec2_measure", "vec2_scale", "bytes", "hash",
        "rng", "fingerprint", "version", "result", "api", "config"}
WORLD_EXTRA = {"command", "command_build", "command_args", "input_limits", "snapshot", "world"}
LOCKSTEP = {"replay", "session", "session_join", "session_packet", "fixsteer"}  # fixsteer.h: the umbrella
MODULES = {"core": "core", "steer": "steer", "nav": "nav", "mesh": "nav", "world": "world",
           "lockstep": "lockstep"}  # folder of src/: its layer
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def module_of(name):
    """The folder of src/ that holds the private header or source `name`, or None."""
    for module in MODULES:
        if os.path.exists(os.path.join(ROOT, "src", module, os.path.basename(name))):
            return module
    return None


def layer_of(name):
    """The layer of a file of src/ (its folder's), or of a public header (its name's)."""
    parts = name.replace(os.sep, "/").split("/")
    if len(parts) >= 3 and parts[-3] == "src":
        return MODULES[parts[-2]]
    if "/" not in name and not name.startswith("fixsteer") and module_of(name):
        return MODULES[module_of(name)]  # an include of a private header, by its name
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
    root = ROOT
    files = []
    stray = [f for f in os.listdir(os.path.join(root, "src")) if f.endswith((".c", ".h"))]
    for f in sorted(stray):
        print("src/%s: every source lives in a module folder (%s)" % (f, ", ".join(MODULES)))
    dirs = [os.path.join("src", m) for m in MODULES] + [os.path.join("include", "fixsteer")]
    for d in dirs:
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
    failed += len(stray)
    print("layers: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
