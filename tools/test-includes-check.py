#!/usr/bin/env python3
"""Every library header a test includes is one whose declarations it uses (CI suite
"test-includes"). Tests link every library source (project.yml, :paths: :support:), so an
include that nothing in the test uses is only noise.

  test-includes-check.py             checks test/*.c; prints one line per test file that
                                     fails and "test-includes: N passed, N failed"
  test-includes-check.py --fix       also removes those include lines
  test-includes-check.py --self-test the check against a made-up tree: it must find an
                                     unused include and accept a used one

A library header is one of include/fixsteer/ or of a module folder of src/. What it declares is read from the
preprocessor's output for the header alone (gcc -E -dD, its own lines only, so names made
by its X-macros count): its macros, typedef, struct, union and enum names, enumerators,
functions and variables. A test uses the header when one of those names appears in the test
outside comments and strings. Names a header gets from headers it includes do not count.
An include none of whose names the test uses is reported only if the test also compiles
without it (gcc -fsyntax-only, the desktop suite's flags) with the same diagnostics: a
header that completes a struct the test reaches only through members stays.

Needs gcc, libfixmath's headers where `make` puts them (build/libfixmath) and Ceedling's
Unity (the gem's vendor/unity/src).
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]+"([^"]+)"[^\n]*\n?', re.M)
COMMENT_OR_STRING = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
                               re.S)
TOKEN = re.compile(r"[A-Za-z_]\w*|\d[\w.]*|\S")
IDENT = re.compile(r"[A-Za-z_]\w*$")
LINEMARKER = re.compile(r'^# \d+ "([^"]*)"')
DEFINE = re.compile(r"^#define ([A-Za-z_]\w*)")
KEYWORDS = set("""auto break case char const continue default do double else enum extern float
    for goto if inline int long register restrict return short signed sizeof static struct
    switch typedef union unsigned void volatile while _Bool _Complex _Static_assert
    __attribute__ __extension__ __inline __restrict""".split())


def header_text(path, include_dirs):
    """The header's own lines after preprocessing, with its #define lines."""
    cmd = ["gcc", "-std=c99", "-E", "-dD", "-DFIXMATH_NO_CACHE"]
    cmd += ["-I" + d for d in include_dirs] + [path]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{path}: the preprocessor failed:\n{out.stderr}")
    own, current, target = [], None, os.path.realpath(path)
    for line in out.stdout.splitlines():
        m = LINEMARKER.match(line)
        if m:
            current = os.path.realpath(m.group(1)) if not m.group(1).startswith("<") else None
        elif current == target:
            own.append(line)
    return own


def skip_braces(tokens, i):
    """Index after the brace group that opens at tokens[i]."""
    depth = 0
    while i < len(tokens):
        depth += {"{": 1, "}": -1}.get(tokens[i], 0)
        i += 1
        if depth == 0:
            break
    return i


def enumerators(tokens, i):
    """The names an enum body opening at tokens[i] declares."""
    names, expect, depth = [], True, 0
    for t in tokens[i + 1:skip_braces(tokens, i) - 1]:
        if t in "({[":
            depth += 1
        elif t in ")}]":
            depth -= 1
        elif depth == 0 and t == ",":
            expect = True
        elif expect and IDENT.match(t):
            names.append(t)
            expect = False
    return names


def statement_name(stmt):
    """The name a file-scope declaration (without its brace groups) declares."""
    if "(" in stmt:
        k = stmt.index("(")
        if k + 2 < len(stmt) and stmt[k + 1] == "*" and IDENT.match(stmt[k + 2]):
            return stmt[k + 2]  # a function pointer: typedef void (*name)(...)
        before = [t for t in stmt[:k] if IDENT.match(t) and t not in KEYWORDS]
        return before[-1] if before else None
    for stop in ("=", "["):
        if stop in stmt:
            stmt = stmt[:stmt.index(stop)]
    names = [t for t in stmt if IDENT.match(t) and t not in KEYWORDS]
    return names[-1] if names else None


def declared_names(lines):
    """Every name the header's own lines declare at file scope."""
    names = {m.group(1) for m in map(DEFINE.match, lines) if m}
    tokens = TOKEN.findall("\n".join(l for l in lines if not l.startswith("#")))
    stmt, i = [], 0
    while i < len(tokens):
        t = tokens[i]
        if t == "{":
            if "=" in stmt:  # an initializer
                i = skip_braces(tokens, i)
                continue
            if "(" in stmt:  # a function's body ends its definition
                names.add(statement_name(stmt))
                stmt, i = [], skip_braces(tokens, i)
                continue
            if len(stmt) >= 2 and IDENT.match(stmt[-1]) and stmt[-2] in ("struct", "union", "enum"):
                names.add(stmt[-1])
            if "enum" in stmt:
                names.update(enumerators(tokens, i))
            stmt.append("{}")
            i = skip_braces(tokens, i)
            continue
        if t == ";":
            names.add(statement_name(stmt))
            stmt = []
        else:
            stmt.append(t)
        i += 1
    names.discard(None)
    return names


def identifiers(text):
    return set(re.findall(r"[A-Za-z_]\w*", COMMENT_OR_STRING.sub(" ", text)))


def find_header(name, dirs):
    for d in dirs:
        p = os.path.join(d, name)
        if os.path.isfile(p):
            return p
    return None


def diagnostics(test, text, compile_cmd):
    """The warning and error lines of compiling text in test's place (None: no compiler)."""
    with tempfile.NamedTemporaryFile("w", suffix=".c", dir=os.path.dirname(test),
                                     prefix=".includes-check-", delete=False) as fh:
        fh.write(text)
    try:
        out = subprocess.run(compile_cmd + ["-fsyntax-only", fh.name], capture_output=True,
                             text=True)
    finally:
        os.unlink(fh.name)
    lines = out.stderr.replace(fh.name, test).splitlines()
    return out.returncode, [l for l in lines if re.search(r": (warning|error|fatal error):", l)]


def blank(text, lines):
    """text with the given include lines emptied (line numbers kept)."""
    for line in lines:
        text = text.replace(line, "\n" if line.endswith("\n") else "", 1)
    return text


def compiles_without(test, text, lines, compile_cmd, reference):
    return diagnostics(test, blank(text, lines), compile_cmd) == reference


def unused_includes(test_paths, library_dirs, include_dirs, compile_cmd):
    """{test: [(include line, header), ...]} of library headers a test never uses."""
    cache, out = {}, {}
    for test in test_paths:
        with open(test) as fh:
            text = fh.read()
        used = identifiers(INCLUDE.sub("", text))
        candidates = []
        for m in INCLUDE.finditer(text):
            header = find_header(m.group(1), library_dirs)
            if header is None:
                continue
            if header not in cache:
                cache[header] = declared_names(header_text(header, include_dirs))
            if not cache[header] & used:
                candidates.append((m.group(0), m.group(1)))
        if not candidates:
            continue
        reference = diagnostics(test, text, compile_cmd)
        if reference[0] != 0:
            raise RuntimeError(f"{test} does not compile:\n" + "\n".join(reference[1]))
        if compiles_without(test, text, [l for l, _ in candidates], compile_cmd, reference):
            out[test] = candidates
            continue
        confirmed = []  # one at a time, keeping each that can go
        for c in candidates:
            if compiles_without(test, text, [l for l, _ in confirmed + [c]], compile_cmd,
                                reference):
                confirmed.append(c)
        if confirmed:
            out[test] = confirmed
    return out


def remove_lines(test, lines):
    with open(test) as fh:
        text = fh.read()
    for line in lines:
        text = text.replace(line, "", 1)
    with open(test, "w") as fh:
        fh.write(text)


def run(test_paths, library_dirs, include_dirs, compile_cmd, fix=False, quiet=False):
    found = unused_includes(test_paths, library_dirs, include_dirs, compile_cmd)
    for test in test_paths:
        if test in found and not quiet:
            names = ", ".join(h for _, h in found[test])
            print(f"  FAIL {os.path.relpath(test, ROOT)}: includes {names} and uses none of "
                  f"their declarations{' (removed)' if fix else ''}")
        if test in found and fix:
            remove_lines(test, [line for line, _ in found[test]])
    return len(test_paths) - len(found), len(found)


def self_test():
    """A header of a macro, an X-macro enum, a struct and a function, and one that completes
    a struct another declares: a test that uses an X-macro enumerator passes, one that
    reaches the completed struct through a member only passes, one that names the header's
    function only in a comment and a string fails."""
    with tempfile.TemporaryDirectory() as tmp:
        files = {
            "lib/widget.h": "#define WIDGET_LIST(X) X(WIDGET_RED) X(WIDGET_BLUE)\n"
                            "#define WIDGET_ENUM(n) n,\n"
                            "typedef enum { WIDGET_LIST(WIDGET_ENUM) } widget_color;\n"
                            "typedef struct widget { int size; } widget;\n"
                            "struct widget_part;\n"
                            "typedef struct { struct widget_part *parts; } widget_set;\n"
                            "int widget_spin(widget *w);\n",
            "lib/widget_part.h": "struct widget_part { int teeth; };\n",
            "test_uses.c": '#include "widget.h"\nint f(void) { return WIDGET_BLUE; }\n',
            "test_member.c": '#include "widget.h"\n#include "widget_part.h"\n'
                             "int f(widget_set *s) { return s->parts[0].teeth; }\n",
            "test_unused.c": '#include "widget.h"\n// widget_spin(w)\n'
                             'const char *s = "widget_spin";\nint size;\n',
        }
        for n, body in files.items():
            os.makedirs(os.path.dirname(os.path.join(tmp, n)), exist_ok=True)
            with open(os.path.join(tmp, n), "w") as fh:
                fh.write(body)
        lib = [os.path.join(tmp, "lib")]
        cc = ["gcc", "-std=c99", "-I" + lib[0]]
        results = [run([os.path.join(tmp, t)], lib, lib, cc, quiet=True)
                   for t in ("test_uses.c", "test_member.c", "test_unused.c")]
    ok = results == [(1, 0), (1, 0), (0, 1)]
    print("test-includes self-test: "
          f"{'the check finds an unused include and keeps used ones' if ok else 'FAILED'}")
    return ok


def unity_dir():
    """Unity's sources in the installed Ceedling gem."""
    query = 'print Gem::Specification.find_by_name("ceedling").gem_dir'
    out = subprocess.run(["ruby", "-e", query], capture_output=True, text=True)
    path = os.path.join(out.stdout.strip(), "vendor", "unity", "src")
    if out.returncode != 0 or not os.path.isfile(os.path.join(path, "unity.h")):
        raise RuntimeError("Ceedling's Unity not found (bash tools/setup.sh installs it)")
    return path


def main():
    args = sys.argv[1:]
    if args == ["--self-test"]:
        sys.exit(0 if self_test() else 1)
    if args not in ([], ["--fix"]):
        print(__doc__)
        sys.exit(2)
    tests = sorted(os.path.join(ROOT, "test", f) for f in os.listdir(os.path.join(ROOT, "test"))
                   if f.startswith("test_") and f.endswith(".c"))
    modules = sorted(os.path.join(ROOT, "src", d) for d in os.listdir(os.path.join(ROOT, "src"))
                     if os.path.isdir(os.path.join(ROOT, "src", d)))  # src/core, src/world, ...
    library = [os.path.join(ROOT, "include", "fixsteer"), os.path.join(ROOT, "include")] + modules
    include_dirs = [os.path.join(ROOT, "include")] + modules + [
        os.path.join(ROOT, "build", "libfixmath", "libfixmath")]
    try:
        # The desktop suite's compile (project.yml): its defines, warnings and include paths.
        compile_cmd = ["gcc", "-std=c99", "-Wall", "-Wextra", "-DFIXMATH_NO_CACHE",
                       "-DUNITY_INCLUDE_DOUBLE", "-DUNITY_SUPPORT_64"]
        compile_cmd += ["-I" + d for d in library + include_dirs[-1:]]
        compile_cmd += ["-I" + os.path.join(ROOT, "test", "support"), "-I" + unity_dir()]
        passed, failed = run(tests, library, include_dirs, compile_cmd, fix=args == ["--fix"])
    except (RuntimeError, OSError) as e:
        print(f"  FAIL {e}")
        passed, failed = 0, len(tests)
    if self_test():
        passed += 1
    else:
        failed += 1
    print(f"test-includes: {passed} passed, {failed} failed")
    sys.exit(0 if failed == 0 else 1)


if __name__ == "__main__":
    main()
