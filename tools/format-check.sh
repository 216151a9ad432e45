#!/usr/bin/env bash
# The code style: every C source and header the project writes (src/, include/, test/, tools/,
# fuzz/, examples/, web/glue/, bindings/) is as clang-format leaves it under the committed
# .clang-format. Prints one line per file that differs (with the first differing line), then
# "format: N passed, N failed". `bash tools/format-check.sh --fix` reformats them in place.
set -uo pipefail
cd "$(dirname "$0")/.."
fix=0
[ "${1:-}" = "--fix" ] && fix=1
command -v clang-format >/dev/null || { echo "format-check: clang-format is missing (bash tools/setup.sh)"; echo "format: 0 passed, 1 failed"; exit 1; }
mapfile -t files < <(git ls-files -- 'src/*.[ch]' 'include/*.h' 'test/*.[ch]' 'tools/*.[ch]' \
  'fuzz/*.[ch]' 'examples/*.[ch]' 'web/glue/*.[ch]' 'bindings/*.[ch]' | sort)
pass=0; fail=0
for f in "${files[@]}"; do
  [ -f "$f" ] || continue
  if [ $fix = 1 ]; then clang-format -i "$f"; fi
  if diff -q <(clang-format "$f") "$f" >/dev/null; then
    pass=$((pass + 1))
  else
    line=$(diff <(clang-format "$f") "$f" | sed -n '1s/^\([0-9]*\).*/\1/p')
    echo "$f:$line: not as .clang-format formats it (bash tools/format-check.sh --fix)"
    fail=$((fail + 1))
  fi
done
echo "format: $pass passed, $fail failed"
[ $fail = 0 ]
