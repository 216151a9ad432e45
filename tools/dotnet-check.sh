#!/usr/bin/env bash
# The C# binding's suite (make test-dotnet): builds the shared library and the tool, prints
# the layout of every public struct and enum as the C compiler sees it (a program generated
# from the headers by bindings/dotnet/tools/layout_gen.py), builds the binding and its NUnit
# tests with Mono's mcs, and runs them with nunit-console against the library and the tool;
# builds and runs the C# programs of the docs (docs/snippets/*.cs) and compiles the C#
# fragments written in the pages; the Unity package's plain C# is built into the binding and
# tested (WorldRunnerTests), its component compiled against a UnityEngine stub, and the
# package assembled and checked.
# Installs Mono and NUnit first when they are missing (tools/setup.sh --dotnet).
# Ends with "dotnet: N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD_DIR:-build}
OUT=$BUILD/dotnet
summary_fail() { echo "dotnet: $1"; echo "dotnet: 0 passed, 1 failed"; exit 1; }

if ! command -v mcs >/dev/null || ! command -v nunit-console >/dev/null ||
   ! dpkg-query -W libnunit-framework2.6.3-cil >/dev/null 2>&1; then
  bash tools/setup.sh --dotnet || summary_fail "installing Mono and NUnit failed"
fi
NUNIT=$(dpkg -L libnunit-framework2.6.3-cil | grep '/nunit\.framework\.dll$' | head -n1)
[ -f "$NUNIT" ] || summary_fail "nunit.framework.dll not found"

make -s -j2 BUILD_DIR="$BUILD" shared tools >/dev/null || summary_fail "building the library failed"
mkdir -p "$OUT"
python3 bindings/dotnet/tools/layout_gen.py include >"$OUT/layout.c" &&
  cc -std=c99 -Wall -Werror -DFIXMATH_NO_CACHE -Iinclude -I"$BUILD/libfixmath/libfixmath" \
    "$OUT/layout.c" -o "$OUT/layout" &&
  "$OUT/layout" >"$OUT/layout.txt" || summary_fail "the layout program failed"

# The binding with the Unity package's plain C# (WorldRunner: what its component does on
# FixedUpdate); the files that need UnityEngine stay out.
mapfile -t unity_plain < <(grep -L '^using UnityEngine;' bindings/dotnet/unity/Runtime/*.cs)
mapfile -t unity_only < <(grep -l '^using UnityEngine;' bindings/dotnet/unity/Runtime/*.cs)
mcs -nologo -target:library -warnaserror+ -doc:"$OUT/Fixsteer.xml" -out:"$OUT/Fixsteer.dll" \
  bindings/dotnet/src/*.cs "${unity_plain[@]}" || summary_fail "building the binding failed"
mcs -nologo -target:library -r:"$OUT/Fixsteer.dll" -r:"$NUNIT" -out:"$OUT/Fixsteer.Tests.dll" \
  bindings/dotnet/test/*.cs || summary_fail "building the tests failed"

root=$(pwd)
# The C# of the docs: every program of docs/snippets/*.cs (docs/dotnet.md includes them)
# built against the binding, run under Mono and its output compared with its .expected; every
# fragment written in a page (a csharp block that includes no snippet) compiled inside a method
# whose parameters are the names its "<!-- csharp: ... -->" comment declares.
doc_pass=0; doc_fail=0
doc_ok() { doc_pass=$((doc_pass + 1)); echo "ok: $*"; }
doc_bad() { doc_fail=$((doc_fail + 1)); echo "FAIL: $*"; }
for src in docs/snippets/*.cs; do
  name=$(basename "$src" .cs)
  if ! mcs -nologo -warnaserror+ -r:"$OUT/Fixsteer.dll" -out:"$OUT/$name.exe" "$src" >"$OUT/$name.log" 2>&1; then
    doc_bad "$src does not build:"; cat "$OUT/$name.log"; continue
  fi
  if (cd "$OUT" && LD_LIBRARY_PATH="$root/$BUILD${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" mono "$name.exe") >"$OUT/$name.out" 2>&1 &&
     diff -u "${src%.cs}.expected" "$OUT/$name.out"; then
    doc_ok "$src builds, runs and prints $(basename "${src%.cs}").expected"
  else
    doc_bad "$src: exit or output differs"; cat "$OUT/$name.out"
  fi
done
if [ -f "$OUT/match.fxr" ] && "$BUILD/bin/fixsteer" verify "$OUT/match.fxr" >"$OUT/match.log" 2>&1; then
  doc_ok "the replay docs/snippets/dotnet_replay.cs writes verifies with fixsteer: $(cat "$OUT/match.log")"
else
  doc_bad "the replay of docs/snippets/dotnet_replay.cs does not verify: $(cat "$OUT/match.log" 2>/dev/null)"
fi
rm -f "$OUT"/fragment-*.cs
python3 - "$OUT" docs/*.md <<'PY'
import re, sys
out, pages = sys.argv[1], sys.argv[2:]
n = 0
for page in pages:
    lines = open(page, encoding="utf-8").read().split("\n")
    for i, line in enumerate(lines):
        if line.strip() != "```csharp":
            continue
        end = lines.index("```", i + 1)
        body = lines[i + 1:end]
        if any(l.startswith("--8<--") for l in body):
            continue
        m = re.match(r"<!-- csharp: (.*) -->$", lines[i - 1].strip()) if i else None
        params = m.group(1) if m else ""
        n += 1
        with open(f"{out}/fragment-{n}.cs", "w", encoding="utf-8") as f:
            f.write(f"// {page}:{i + 2}\nusing System;\nusing System.IO;\nusing Fixsteer;\n"
                    "interface ITransport { void Send(byte peer, byte[] data, int length); }\n"
                    f"static class Fragment{n} {{\n  static void Run({params}) {{\n")
            f.write("\n".join(body) + "\n  }\n}\n")
PY
for frag in "$OUT"/fragment-*.cs; do
  [ -e "$frag" ] || continue
  where=$(head -n 1 "$frag" | cut -c4-)
  if mcs -nologo -target:library -warnaserror+ -nowarn:219,168 -r:"$OUT/Fixsteer.dll" -out:"${frag%.cs}.dll" "$frag" >"${frag%.cs}.log" 2>&1; then
    doc_ok "the C# fragment at $where compiles"
  else
    doc_bad "the C# fragment at $where does not compile:"; cat "${frag%.cs}.log"
  fi
done

# The Unity package: its component compiled against a stub of the UnityEngine names it uses
# (a call of WorldRunner gone wrong fails; Unity itself does not run here), and the package
# assembled with the Linux library (bindings/dotnet/tools/unity_package.py checks the manifest,
# the asmdef, the plugins' platform settings and a .meta for every file; make unity-package
# adds the Windows DLL).
if mcs -nologo -target:library -warnaserror+ -r:"$OUT/Fixsteer.dll" -out:"$OUT/FixsteerUnity.dll" \
     bindings/dotnet/tools/UnityEngineStub.cs "${unity_only[@]}" >"$OUT/unity-build.log" 2>&1; then
  doc_ok "the Unity component (${unity_only[*]}) compiles against the binding"
else
  doc_bad "the Unity component does not compile:"; cat "$OUT/unity-build.log"
fi
so=$(ls "$BUILD"/libfixsteer.so.*.*.* 2>/dev/null | head -n1)
if python3 bindings/dotnet/tools/unity_package.py "$OUT/unity" --linux "$so" >"$OUT/unity-package.log" 2>&1; then
  doc_ok "the Unity package assembles: $(grep "^package: " "$OUT/unity-package.log")"
else
  doc_bad "the Unity package does not assemble:"; grep -v "^unity-package:" "$OUT/unity-package.log"
fi

log=$OUT/nunit.log
(cd "$OUT" &&
  FIXSTEER_LAYOUT="$root/$OUT/layout.txt" FIXSTEER_TOOL="$root/$BUILD/bin/fixsteer" \
  LD_LIBRARY_PATH="$root/$BUILD${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  nunit-console -nologo Fixsteer.Tests.dll) 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}

line=$(grep -E '^Tests run: [0-9]+' "$log" | tail -n1)
[ -n "$line" ] || summary_fail "nunit-console printed no summary (exit $rc)"
num() { sed -nE "s/.*$1: ([0-9]+).*/\1/p" <<<"$2"; }
run=$(num 'Tests run' "$line"); errors=$(num Errors "$line"); failures=$(num Failures "$line")
inconclusive=$(num Inconclusive "$line")
invalid=$(grep -E 'Invalid: [0-9]+' "$log" | tail -n1 | sed -nE 's/.*Invalid: ([0-9]+).*/\1/p')
failed=$((errors + failures + ${invalid:-0}))
passed=$((run - errors - failures - inconclusive))
if [ "$run" -eq 0 ]; then failed=$((failed + 1)); fi
passed=$((passed + doc_pass)); failed=$((failed + doc_fail))
echo "dotnet: $passed passed, $failed failed"
[ "$rc" -eq 0 ] && [ "$failed" -eq 0 ]
