#!/usr/bin/env bash
# Instructions per agent-update of the benchmark's kernels under valgrind's callgrind:
# seek+integrate (library functions / float twin / the seek scene's world step) and the
# flock (world step / float twin), counted only inside the kernel function
# (--toggle-collect), set-up excluded.
# The navigate crowd at the end (nav_crowd.c).
# Usage: tools/bench/callgrind.sh [FXS-BENCH] [AGENTS]   (make bench-callgrind)
set -euo pipefail
bench=${1:-build/bin/fxs-bench}
agents=${2:-1000}
out=build/callgrind
mkdir -p "$out"
command -v valgrind >/dev/null || { echo "bench-callgrind: valgrind is not installed" >&2; exit 1; }

# kernel, function to collect in, ticks (a short window from the start, as in fxs-bench)
kernels=(
  "seek-fixed bench_fixed_seek_run 8"
  "seek-many bench_fixed_seek_many_run 8"
  "seek-float bench_float_seek_run 8"
  "seek-world bench_fixed_world_run 8"
  "flock-fixed bench_fixed_world_run 8"
  "flock-float bench_fworld_run 8"
)
declare -A per_update
for k in "${kernels[@]}"; do
  read -r name fn ticks <<<"$k"
  file="$out/$name.out"
  valgrind --tool=callgrind --callgrind-out-file="$file" --toggle-collect="$fn" \
    "$bench" --kernel "$name" --agents "$agents" --ticks "$ticks" >"$out/$name.log" 2>&1 ||
    { cat "$out/$name.log" >&2; exit 1; }
  ir=$(awk '/^(summary|totals):/ {print $2; exit}' "$file")
  per_update[$name]=$(awk -v ir="$ir" -v n="$agents" -v t="$ticks" 'BEGIN {printf "%.1f", ir / (n * t)}')
  printf "  %-12s %8s agents x %s ticks  %14s instructions  %10s per agent-update\n" \
    "$name" "$agents" "$ticks" "$ir" "${per_update[$name]}"
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
echo "  seek+integrate fixed/float: $(ratio "${per_update[seek-fixed]}" "${per_update[seek-float]}")" \
  "   many/float: $(ratio "${per_update[seek-many]}" "${per_update[seek-float]}")" \
  "   flock fixed/float: $(ratio "${per_update[flock-fixed]}" "${per_update[flock-float]}")"

# Navigation: instructions per cell of the integration field over the 512 x 512 grid (one
# whole build, fxs_nav_field_begin + step; with walls and mud, and open), and per cell
# expanded by A* (20 searches between seeded cells).
nav_kernels=(
  "nav-field bench_nav_field_run 1 262144 cell"
  "nav-field-open bench_nav_field_run 1 262144 cell"
  "nav-astar bench_nav_astar_run 20 0 expansion"
)
for k in "${nav_kernels[@]}"; do
  read -r name fn runs units unit <<<"$k"
  file="$out/$name.out"
  valgrind --tool=callgrind --callgrind-out-file="$file" --toggle-collect="$fn" \
    "$bench" --kernel "$name" --ticks "$runs" >"$out/$name.log" 2>&1 ||
    { cat "$out/$name.log" >&2; exit 1; }
  ir=$(awk '/^(summary|totals):/ {print $2; exit}' "$file")
  if [ "$units" = 0 ]; then # A*: the work the kernel reports
    units=$(sed -n 's/.* \([0-9][0-9]*\) cells expanded.*/\1/p' "$out/$name.log")
  else
    units=$((units * runs))
  fi
  printf "  %-14s %14s instructions  %10s units  %8.1f per %s\n" "$name" "$ir" "$units" \
    "$(awk -v ir="$ir" -v n="$units" 'BEGIN {print ir / n}')" "$unit"
done

# The navigate crowd: instructions per agent-step of 1,000 navigate agents on shared
# integration fields and of the same agents with arrive + orca, 20 ticks after the 60 that
# build the fields, counted inside bench_nav_crowd_run only.
declare -A crowd
for side in navigate orca; do
  file="$out/nav-crowd-$side.out"
  valgrind --tool=callgrind --callgrind-out-file="$file" --toggle-collect=bench_nav_crowd_run \
    "$bench" --kernel "nav-crowd-$side" --ticks 20 >"$out/nav-crowd-$side.log" 2>&1 ||
    { cat "$out/nav-crowd-$side.log" >&2; exit 1; }
  ir=$(awk '/^(summary|totals):/ {print $2; exit}' "$file")
  crowd[$side]=$(awk -v ir="$ir" 'BEGIN {printf "%.1f", ir / (1000 * 20)}')
  printf "  nav-crowd-%-9s %14s instructions  %10s per agent-step\n" "$side" "$ir" "${crowd[$side]}"
done
echo "  navigate / (arrive + orca): $(ratio "${crowd[navigate]}" "${crowd[orca]}")"
