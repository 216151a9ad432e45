#!/usr/bin/env bash
# The C# binding's suite (make test-dotnet): builds the shared library and the tool, prints
# the layout of every public struct and enum as the C compiler sees it (a program generated
# from the headers by bindings/dotnet/tools/layout_gen.py), builds the binding and its NUnit
# tests with Mono's mcs, and runs them with nunit-console against the library and the tool.
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

mcs -nologo -target:library -warnaserror+ -doc:"$OUT/Fixsteer.xml" -out:"$OUT/Fixsteer.dll" \
  bindings/dotnet/src/*.cs || summary_fail "building the binding failed"
mcs -nologo -target:library -r:"$OUT/Fixsteer.dll" -r:"$NUNIT" -out:"$OUT/Fixsteer.Tests.dll" \
  bindings/dotnet/test/*.cs || summary_fail "building the tests failed"

root=$(pwd)
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
echo "dotnet: $passed passed, $failed failed"
[ "$rc" -eq 0 ] && [ "$failed" -eq 0 ]
