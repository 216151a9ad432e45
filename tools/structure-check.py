#!/usr/bin/env python3
"""The shape of the code as a reader meets it (CI suite "structure").

  structure-check.py             checks the tree; prints one line per check and
                                 "structure: N passed, N failed"
  structure-check.py --self-test the checks against a made-up tree with a cycle and a long
                                 file: both must be found (a check that cannot fail is none)

Checks:
  lines     no source file of the project (every tracked .c .h .cpp .py .sh .rb .js .mjs) is
            longer than 800 lines.
  cycles    no import cycle among the files of tools/fixsteer/. A module is a header with the
            .c files that define what it declares (found with nm on objects compiled with the
            tool's flags); a .c file that implements no header (main.c) is a module of its
            own. Module A imports B when a file of A includes B's header, or when an object of
            A uses a symbol an object of B defines. The import graph must have no cycle.

Needs cc and nm, and libfixmath's headers where `make` puts them (build/libfixmath).
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
MAX_LINES = 800
SOURCE = re.compile(r"\.(c|h|cpp|py|sh|rb|js|mjs)$")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)


def long_files(root, files):
    """(path, lines) of every source file longer than MAX_LINES."""
    out = []
    for f in files:
        if not SOURCE.search(f):
            continue
        with open(os.path.join(root, f), "rb") as fh:
            n = fh.read().count(b"\n")
        if n > MAX_LINES:
            out.append((f, n))
    return out


def symbols(obj):
    """(defined, undefined) global symbols of an object file."""
    out = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "U":
            undefined.add(parts[1])
        elif len(parts) == 3 and parts[1] in "TDRBCGSV":  # upper case: global
            defined.add(parts[2])
    return defined, undefined


def cycles(directory, cflags):
    """The import cycles among the files of `directory`: a list of (modules, evidence)."""
    names = sorted(os.listdir(directory))
    sources = [n for n in names if n.endswith(".c")]
    headers = [n for n in names if n.endswith(".h")]
    text = {}
    for n in sources + headers:
        with open(os.path.join(directory, n), encoding="utf-8") as fh:
            text[n] = fh.read()
    declared = {h: set(re.findall(r"\b[A-Za-z_]\w*\b", COMMENT.sub(" ", text[h]))) for h in headers}

    defined, used = {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        for c in sources:
            obj = os.path.join(tmp, c[:-2] + ".o")
            r = subprocess.run(["cc", "-c", "-o", obj, os.path.join(directory, c)] + cflags,
                               capture_output=True, text=True)
            if r.returncode != 0:
                raise RuntimeError(f"cc {c} failed:\n{r.stderr}")
            defined[c], used[c] = symbols(obj)

    # Modules: a header and its implementers in one set (union-find over file names).
    parent = {n: n for n in sources + headers}

    def find(n):
        while parent[n] != n:
            parent[n] = parent[parent[n]]
            n = parent[n]
        return n

    for c in sources:
        for h in headers:
            if defined[c] & declared[h]:
                parent[find(c)] = find(h)

    edges = {}  # (module, module) -> why
    for n in sources + headers:
        for inc in INCLUDE.findall(text[n]):
            if inc in parent and find(inc) != find(n):
                edges.setdefault((find(n), find(inc)), f'{n} includes "{inc}"')
    owner = {s: c for c in sources for s in defined[c]}
    for c in sources:
        for s in sorted(used[c]):
            if s in owner and find(owner[s]) != find(c):
                edges.setdefault((find(c), find(owner[s])), f"{c} uses {s} of {owner[s]}")

    # Strongly connected components (Tarjan, iterative) of more than one module are cycles.
    graph = {}
    for a, b in edges:
        graph.setdefault(a, []).append(b)
    modules = sorted({find(n) for n in parent})
    index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]
    for start in modules:
        if start in index:
            continue
        work = [(start, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = counter[0]
                counter[0] += 1
                stack.append(v)
                on.add(v)
            succ = sorted(graph.get(v, []))
            if i < len(succ):
                work.append((v, i + 1))
                w = succ[i]
                if w not in index:
                    work.append((w, 0))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    comps.append(sorted(comp))
            if work:
                parent_v = work[-1][0]
                low[parent_v] = min(low[parent_v], low[v])

    def members(m):
        return "+".join(sorted(n for n in parent if find(n) == m))

    out = []
    for comp in comps:
        why = [f"{edges[(a, b)]}" for a in comp for b in comp if (a, b) in edges]
        out.append((", ".join(members(m) for m in comp), why))
    return out


def check(name, problems, quiet=False):
    if quiet:
        pass
    elif problems:
        print(f"  FAIL {name}")
        for p in problems:
            print(f"    {p}")
    else:
        print(f"  pass {name}")
    return not problems


def run_checks(root, files, tool_dir, cflags, quiet=False):
    results = []
    results.append(check("lines", [f"{f}: {n} lines (at most {MAX_LINES})"
                                   for f, n in long_files(root, files)], quiet))
    try:
        found = cycles(tool_dir, cflags)
        problems = []
        for mods, why in found:
            problems.append(f"import cycle among {mods}:")
            problems.extend(f"  {w}" for w in why)
    except (RuntimeError, OSError) as e:
        problems = [str(e)]
    results.append(check("cycles", problems, quiet))
    return results


def self_test():
    """A tree with a two-module cycle and an 801-line file: both checks must fail; without
    them both must pass."""
    with tempfile.TemporaryDirectory() as tmp:
        files = {
            "a.h": "void a_run(void);\n",
            "a.c": '#include "a.h"\n#include "b.h"\nvoid a_run(void) { b_help(); }\n',
            "b.h": "void b_help(void);\n",
            "b.c": '#include "b.h"\n#include "a.h"\nvoid b_help(void) { a_run(); }\n',
            "main.c": '#include "a.h"\nint main(void) { a_run(); return 0; }\n',
            "long.c": "int x;\n" * (MAX_LINES + 1),
        }
        for n, body in files.items():
            with open(os.path.join(tmp, n), "w") as fh:
                fh.write(body)
        bad = run_checks(tmp, list(files), tmp, [], quiet=True)
        # The same tree without the cycle (b no longer calls a) and with a shorter file.
        with open(os.path.join(tmp, "b.c"), "w") as fh:
            fh.write('#include "b.h"\nvoid b_help(void) {}\n')
        with open(os.path.join(tmp, "long.c"), "w") as fh:
            fh.write("int x;\n" * MAX_LINES)
        good = run_checks(tmp, list(files), tmp, [], quiet=True)
    ok = bad == [False, False] and good == [True, True]
    print(f"structure self-test: {'the checks find a cycle and a long file' if ok else 'FAILED'}")
    return ok


def main():
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(0 if self_test() else 1)
    if sys.argv[1:]:
        print(__doc__)
        sys.exit(2)
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split()
    cflags = ["-std=c99", "-DFIXMATH_NO_CACHE", "-I" + os.path.join(ROOT, "include"),
              "-I" + os.path.join(ROOT, "build", "libfixmath", "libfixmath")]
    results = run_checks(ROOT, files, os.path.join(ROOT, "tools", "fixsteer"), cflags)
    results.append(check("self-test", [] if self_test() else ["the checks missed a made-up cycle or long file"]))
    passed = sum(results)
    print(f"structure: {passed} passed, {len(results) - passed} failed")
    sys.exit(0 if passed == len(results) else 1)


if __name__ == "__main__":
    main()
