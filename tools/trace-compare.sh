#!/usr/bin/env bash
# Proves a change left the simulation alone: saves, then compares, the per-agent trace
# (`fixsteer trace`, default ticks) and the per-tick state hashes (`fixsteer record` + `dump`)
# of every built-in scenario and of scenarios/example.yaml. A speed change must keep both
# byte-identical.
#
#   tools/trace-compare.sh save DIR      record the baseline (run before the change)
#   tools/trace-compare.sh DIR           compare the current build against it
#
# FIXSTEER=path overrides the tool (default build/bin/fixsteer). Prints
# "trace-compare: N passed, N failed" (one check per scenario: trace and hashes).
set -u
B=${FIXSTEER:-build/bin/fixsteer}
mode=compare
if [ "${1:-}" = save ]; then mode=save; shift; fi
DIR=${1:?usage: tools/trace-compare.sh [save] DIR}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

scenarios=$("$B" list | awk '{print $1}')
scenarios="$scenarios scenarios/example.yaml"

# outputs NAME SCENARIO OUTDIR: writes NAME.trace.csv and NAME.hashes into OUTDIR.
outputs() {
  "$B" trace --scenario "$2" > "$3/$1.trace.csv" || return 1
  "$B" record --scenario "$2" --out "$T/$1.fxr" > /dev/null || return 1
  "$B" dump "$T/$1.fxr" | grep -E '^tick [0-9]+:|^end:' > "$3/$1.hashes" || return 1
}

pass=0; fail=0
mkdir -p "$DIR"
for s in $scenarios; do
  name=$(basename "$s" .yaml)
  if [ "$mode" = save ]; then
    if outputs "$name" "$s" "$DIR"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $s"; fi
    continue
  fi
  mkdir -p "$T/now"
  if ! outputs "$name" "$s" "$T/now"; then
    fail=$((fail + 1)); echo "FAIL: $s (the tool failed)"; continue
  fi
  ok=1
  for f in "$name.trace.csv" "$name.hashes"; do
    if ! cmp -s "$DIR/$f" "$T/now/$f"; then
      ok=0; echo "FAIL: $s: $f differs from $DIR/$f"
      diff "$DIR/$f" "$T/now/$f" | head -n 4
    fi
  done
  if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "trace-compare: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
