#!/usr/bin/env python3
"""Prints a large RTS click as a scenario file: 1,000 navigate units of radius 3 west of a wall
with three 40-unit doors, clicked at tick 5 (one move, gap 10) to the middle of 256 pillars of
radius 6 east of it, 2,500 ticks. The measure of docs/navigation-mesh.md ("Moving groups"):
how many units stand on their spots at the end, on the grid and on the mesh.

    python3 tools/click-scene.py grid|mesh [--tall] > click.yaml
    build/bin/fixsteer stats --scenario click.yaml

The units stand in a block of 40 x 25, 12 apart, facing the middle door; --tall stands them
in a block of 20 x 50, 16 apart, the height of the wall, so that each door is the nearest for
a third of them.
"""
import sys


def scene(kind, tall):
    out = ["name: click_%s%s" % (kind, "_tall" if tall else ""),
           "summary: 1000 units clicked through three doors into 256 pillars",
           "ticks: 2500",
           "world:", "  seed: 5", "  bounds: [0, 0, 1600, 1000]", "  clamp: true",
           "  neighbor_radius: 40",
           "navigation:", "  kind: %s" % kind, "  cell_size: 8", "  radius: 3", "  budget: 4000",
           "  searches: 4", "  open: 4000", "  fields: 4",
           "walls:"]
    ends = [0, 180, 220, 480, 520, 780, 820, 1000]  # doors at y = 200, 500 and 800
    for k in range(0, len(ends), 2):
        out.append("  - [600, %d, 600, %d]" % (ends[k], ends[k + 1]))
    out.append("obstacles:")
    for i in range(256):
        out.append("  - [%g, %g, 6]" % (1100 + 40 * (i % 16 - 7.5), 500 + 40 * (i // 16 - 7.5)))
    out.append("agents:")
    names = []
    for i in range(1000):
        if tall:
            x, y = 100 + 16 * (i % 20), 100 + 16 * (i // 20)
        else:
            x, y = 60 + 12 * (i % 40), 350 + 12 * (i // 40)
        names.append("u%d" % i)
        out.append("  - {name: u%d, position: [%d, %d], target: [%d, %d], radius: 3, max_speed: 2, "
                   "behaviors: [{kind: navigate, slowing_radius: 20}]}" % (i, x, y, x, y))
    out.append("events:")
    out.append("  - {tick: 5, move: {agents: [%s], to: [1100, 500], gap: 10}}" % ", ".join(names))
    return "\n".join(out) + "\n"


def main(argv):
    if not argv or argv[0] not in ("grid", "mesh"):
        sys.stderr.write("usage: python3 tools/click-scene.py grid|mesh [--tall]\n")
        return 2
    sys.stdout.write(scene(argv[0], "--tall" in argv[1:]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
