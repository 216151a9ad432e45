#!/usr/bin/env bash
# Runs every input that ever broke a fuzz target once more: test/fuzz-regressions/TARGET/NAME
# through build/fuzz/bin/TARGET (a libFuzzer binary runs the files it is given and exits
# non-zero on a crash, a sanitizer report, a leak, an out-of-memory or a timeout).
# Prints "fuzz-regress: N passed, N failed".
#
#   tools/fuzz-regress.sh                 every target's inputs
#   tools/fuzz-regress.sh fuzz_snapshot   one target's
set -u
cd "$(dirname "$0")/.."

DIR=test/fuzz-regressions
BIN=build/fuzz/bin
LOGS=build/fuzz/regress
# UBSan reports come with their stack, like ASan's.
export UBSAN_OPTIONS="print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
targets="$*"
if [ -z "$targets" ]; then
  targets=$(find "$DIR" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' 2>/dev/null | sort)
fi
[ -n "$targets" ] || { echo "fuzz-regress: no inputs under $DIR"; echo "fuzz-regress: 0 passed, 0 failed"; exit 0; }

# shellcheck disable=SC2086
bash tools/fuzz.sh --build $targets || { echo "fuzz-regress: building the targets failed" >&2; exit 2; }
mkdir -p "$LOGS"
passed=0
failed=0
for t in $targets; do
  for f in "$DIR/$t"/*; do
    [ -f "$f" ] || continue
    log=$LOGS/$t-$(basename "$f").log
    # -runs=1 with a file argument runs just that input; timeout bounds a hang in any case.
    timeout 120 "$BIN/$t" -rss_limit_mb=2048 -timeout=10 -runs=1 "$f" >"$log" 2>&1
    rc=$?
    if [ "$rc" -eq 0 ]; then
      passed=$((passed + 1))
    else
      failed=$((failed + 1))
      why=$(grep -m1 -E 'Assertion .* failed|runtime error:|fuzz check failed|ERROR: (AddressSanitizer|LeakSanitizer)|ERROR: libFuzzer: (timeout|out-of-memory|deadly)|^SUMMARY:' "$log")
      [ "$rc" -eq 124 ] && why="no result within 120 s"
      printf 'FAIL: %s (exit %s): %s\n' "$f" "$rc" "${why:-see $log}"
    fi
  done
done
echo "fuzz-regress: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
