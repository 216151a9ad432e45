"""Writes generated scenario files, or checks the committed ones (tools/peer-scenes.py,
tools/mesh-twins.py)."""
import os

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def write_or_check(files, tool, check):
    """Writes each of `files` (file name -> text) into scenarios/, or with `check` compares
    them with the committed files and names each that differs; returns the exit code."""
    bad = 0
    for name, text in files.items():
        path = os.path.join(ROOT, "scenarios", name)
        if check:
            try:
                with open(path) as f:
                    same = f.read() == text
            except OSError:
                same = False
            if not same:
                print("%s: scenarios/%s differs from what tools/%s.py writes" % (tool, name, tool))
                bad += 1
        else:
            with open(path, "w") as f:
                f.write(text)
            print("wrote scenarios/%s" % name)
    return 1 if bad else 0
