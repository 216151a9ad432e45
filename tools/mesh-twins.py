#!/usr/bin/env python3
"""Writes the mesh twins of the navigation scenes: for every scenarios/NAME.yaml with a line
`navigation:` (a grid world), scenarios/NAME_mesh.yaml is the same scene on a navigation mesh
(docs/navigation-mesh.md, "In the world"): the same text but for a header, its name, the
command in its comment, `kind: mesh` under `navigation:` and, for a few (TICKS), more ticks.
tools/stats-check.sh holds a scene's rows for its twin too, so each twin meets its grid
scene's checks.

    python3 tools/mesh-twins.py            writes every twin
    python3 tools/mesh-twins.py --check    exits 1 when a committed twin differs, or is missing
"""
import os
import re
import sys

from scene_files import ROOT, write_or_check

SCENES = os.path.join(ROOT, "scenarios")

HEADER = """\
# {name} on a navigation mesh (navigation: {{kind: mesh}}, docs/navigation-mesh.md, "In the world"):
# the same scene, routes (and group fields: trees over its triangles) from the exact
# triangulation of its walls instead of the grid. Written by tools/mesh-twins.py from
# scenarios/{name}.yaml: do not edit.
"""


# A twin that runs longer than its grid scene, and why (the only other difference a twin has).
TICKS = {
    "nav_crowd": (2600, "# 2,600 ticks, not the grid scene's 2,200: on the mesh the groups bunch at the funnel's corners\n"
                        "# by the gaps' wall ends, and the piles settle later.\n"),
}


def twin(name, text):
    """The mesh twin of scene `name` (its file's `text`), or None when it has no navigation."""
    lines = text.splitlines(keepends=True)
    nav = [i for i, line in enumerate(lines) if re.match(r"navigation:", line)]
    if len(nav) != 1:
        return None
    if not re.match(r"navigation:\s*(#.*)?$", lines[nav[0]]):
        sys.exit("mesh-twins: scenarios/%s.yaml: write `navigation:` as a block (its keys on "
                 "lines of their own) to have a mesh twin" % name)
    out = [HEADER.format(name=name)]
    for i, line in enumerate(lines):
        if i == nav[0]:
            out.append("navigation:\n  kind: mesh\n")  # the grid's comment there is the grid's
        elif line == "name: %s\n" % name:
            out.append("name: %s_mesh\n" % name)
        elif line.startswith("ticks:") and name in TICKS:
            out.append(TICKS[name][1] + "ticks: %d\n" % TICKS[name][0])
        else:
            out.append(line.replace("scenarios/%s.yaml" % name, "scenarios/%s_mesh.yaml" % name))
    return "".join(out)


def twins():
    out = {}
    for file in sorted(os.listdir(SCENES)):
        name = file[:-len(".yaml")] if file.endswith(".yaml") else None
        if not name or name.endswith("_mesh"):
            continue
        with open(os.path.join(SCENES, file)) as f:
            text = twin(name, f.read())
        if text is not None:
            out[name + "_mesh.yaml"] = text
    return out


def main(argv):
    return write_or_check(twins(), "mesh-twins", "--check" in argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
