#!/usr/bin/env bash
# The documentation check (CI suite "docs"): the API reference without a Doxygen warning (an
# undocumented public name is one), the site built by mkdocs --strict (a broken link between
# pages or a missing snippet fails it), every C snippet of docs/snippets/ compiled with
# -Werror against the library and run (its output must equal the .expected file beside it),
# the README's C blocks byte-identical to snippets, C blocks written in a page compiled, the
# API reference's main page there, the C# reference page up to date with the binding,
# every link of the README and of the built site checked, and the layout of
# docs/development.md against the tree. Ends with "docs: N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."

OUT=build/docs-check
LFM_DIR=build/libfixmath/libfixmath
CFLAGS=(-std=c99 -Wall -Wextra -Wpedantic -Werror -DFIXMATH_NO_CACHE -Iinclude "-I$LFM_DIR")
passed=0
failed=0
rm -rf "$OUT" && mkdir -p "$OUT"

# Runs one check; its output is shown only when it fails.
check() {
  local name=$1; shift
  if "$@" >"$OUT/$name.log" 2>&1; then
    echo "  pass $name"
    passed=$((passed + 1))
  else
    echo "  FAIL $name"
    sed 's/^/    /' "$OUT/$name.log" | head -n 40
    failed=$((failed + 1))
  fi
}

for tool in doxygen mkdocs; do
  command -v "$tool" >/dev/null || { echo "docs-check: $tool is missing (bash tools/setup.sh)"; echo "docs: 0 passed, 1 failed"; exit 1; }
done
make -s lib >"$OUT/lib.log" 2>&1 || { cat "$OUT/lib.log"; echo "docs: 0 passed, 1 failed"; exit 1; }

# Doxygen prints its warnings on stderr and, with WARN_AS_ERROR = FAIL_ON_WARNINGS, exits 1.
api_check() {
  mkdir -p build/api && doxygen Doxyfile 2>&1 | tee "$OUT/doxygen.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] && ! grep -qE 'warning:|error:' "$OUT/doxygen.txt" || return 1
  # The landing page (tools/api-mainpage.md) is there, with the README's program in it.
  grep -q 'Where to start' build/api/html/index.html && grep -q 'fxs_world_step' build/api/html/index.html ||
    { echo "build/api/html/index.html: not the main page of tools/api-mainpage.md"; return 1; }
}
check api api_check

site() {
  mkdocs build --strict --site-dir build/site && rm -rf build/site/api &&
    cp -r build/api/html build/site/api
}
check site site

# Each snippet: compiled and linked against the library with every warning an error, run,
# and its output compared with NAME.expected when there is one.
snippet() {
  local src=$1 name
  name=$(basename "$src" .c)
  cc "${CFLAGS[@]}" "$src" build/libfixsteer.a -o "$OUT/$name" || return 1
  "$OUT/$name" >"$OUT/$name.out" || { echo "$src: exit $?"; return 1; }
  if [ -f "${src%.c}.expected" ]; then
    diff -u "${src%.c}.expected" "$OUT/$name.out" || { echo "$src: output differs from $name.expected"; return 1; }
  fi
}
# The snippets, and the examples a page shows (the game loop of Getting started, the RTS match).
for src in docs/snippets/*.c examples/game-loop/game_loop.c examples/rts/rts.c; do
  check "snippet-$(basename "$src" .c)" snippet "$src"
done

check blocks python3 tools/docs-check.py blocks "$OUT/blocks"
# C blocks written in a page (not included from a snippet) are compiled as they stand.
for src in "$OUT"/blocks/*.c; do
  [ -e "$src" ] || continue
  check "block-$(basename "$src" .c)" cc "${CFLAGS[@]}" -c "$src" -o "$OUT/$(basename "$src" .c).o"
done

# The C# reference page (docs/csharp-api.md) is the one tools/csharp-ref.py makes from the
# binding's comments, and every public C# name has one.
check csharp-ref-self-test python3 tools/csharp-ref.py --self-test
check csharp-ref python3 tools/csharp-ref.py --check
check layout python3 tools/docs-check.py layout
check links python3 tools/docs-check.py links build/site

echo "docs: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
