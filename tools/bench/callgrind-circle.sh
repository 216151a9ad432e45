#!/usr/bin/env bash
# Instructions per agent-step of ORCA on RVO2's Circle under valgrind's callgrind: the
# library's world (counted inside fxs_world_step) and the float twin (inside
# bench_forca_step), set-up and the between-tick measurements excluded.
# Usage: tools/bench/callgrind-circle.sh [FXS-BENCH] [AGENTS:TICKS ...]
#   TICKS 0 runs until every agent is home. Default: 250:0 1000:600 10000:600
#   (make bench-circle-callgrind). SIDES=fixed (or float) runs one side only;
#   TWIN_GRID=library runs the twin on the library's grid (fxs-bench --twin-grid).
set -euo pipefail
bench=${1:-build/bin/fxs-bench}
shift || true
runs=("$@")
[ ${#runs[@]} -gt 0 ] || runs=(250:0 1000:600 10000:600)
sides=${SIDES:-"fixed float"}
out=build/callgrind
mkdir -p "$out"
command -v valgrind >/dev/null ||
  { echo "callgrind-circle: valgrind is not installed" >&2; exit 1; }
for run in "${runs[@]}"; do
  agents=${run%%:*} ticks=${run##*:}
  for side in $sides; do
    fn=fxs_world_step
    [ "$side" = float ] && fn=bench_forca_step
    name=circle-$side-$agents-$ticks
    file="$out/$name.out"
    valgrind --tool=callgrind --callgrind-out-file="$file" --toggle-collect="$fn" \
      "$bench" --kernel "circle-$side" --agents "$agents" --ticks "$ticks" \
      --margin "${MARGIN:-64}" --twin-grid "${TWIN_GRID:-own}" \
      >"$out/$name.log" 2>&1 ||
      { cat "$out/$name.log" >&2; exit 1; }
    ir=$(awk '/^(summary|totals):/ {print $2; exit}' "$file")
    steps=$(sed -n 's/.* = \([0-9]*\) agent-steps.*/\1/p' "$out/$name.log")
    ran=$(sed -n 's/^[^:]*: [0-9]* agents x \([0-9]*\) ticks.*/\1 ticks/p' "$out/$name.log")
    printf "  %-14s %6s agents  %s  %14s instructions  %8.1f per agent-step\n" "circle-$side" \
      "$agents" "$ran" "$ir" "$(awk -v ir="$ir" -v s="$steps" 'BEGIN {print ir / s}')"
  done
done
