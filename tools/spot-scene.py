#!/usr/bin/env python3
"""Writes scenarios/crowd_spots.yaml: 60 navigate agents of radius 8 in a 6 x 10 block, each
sent to a spot of its own in a block of spots 1.5 body diameters (24 units) apart, the
nearest spots to the agents furthest back (paths cross, the near spots fill first, so later
agents must pass through agents already resting on theirs). Docs: docs/crowds.md.

    python3 tools/spot-scene.py [--spacing D] [--check]
"""
import os
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
OUT = os.path.join(ROOT, "scenarios", "crowd_spots.yaml")


def scene(spacing):
    radius, cols, rows = 8, 6, 10
    pitch = 2 * radius * spacing
    lines = [
        "# 60 navigate agents (radius 8) to spots of their own %.2f body diameters apart, in the" % spacing,
        "# worst order: the near spots go to the agents furthest back, so that the later ones pass",
        "# through agents already resting on theirs, which make way (docs/crowds.md). Written by",
        "# tools/spot-scene.py.",
        "#   build/bin/fixsteer stats --scenario scenarios/crowd_spots.yaml",
        "name: crowd_spots",
        "summary: 60 navigate agents to their own spots %.2f body diameters apart, paths crossing" % spacing,
        "ticks: 2000",
        "world:", "  seed: 3", "  bounds: [0, 0, 1200, 700]", "  clamp: true", "  neighbor_radius: 60",
        "navigation:", "  cell_size: 8", "  budget: 4000", "  searches: 4", "  open: 4000",
        "agents:"]
    starts = [(100 + c * 24, 130 + r * 48) for r in range(rows) for c in range(cols)]
    spots = [(800 + c * pitch, 350 - (rows - 1) * pitch / 2 + r * pitch)
             for r in range(rows) for c in range(cols)]
    for i, p in enumerate(starts):
        g = spots[len(spots) - 1 - i]
        lines.append("  - {name: a%02d, position: [%g, %g], target: [%.4f, %.4f], "
                     "behaviors: [{kind: navigate}]}" % (i, p[0], p[1], g[0], g[1]))
    return "\n".join(lines) + "\n"


def main(argv):
    spacing = float(argv[argv.index("--spacing") + 1]) if "--spacing" in argv else 1.5
    text = scene(spacing)
    if "--check" in argv:
        with open(OUT) as f:
            return 0 if f.read() == text else 1
    if "--spacing" in argv:
        sys.stdout.write(text)
        return 0
    with open(OUT, "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
