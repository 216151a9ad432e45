#!/usr/bin/env bash
# libFuzzer targets for every reader of untrusted input (fuzz/*.c): builds them with clang's
# -fsanitize=fuzzer,address,undefined against the library and the pinned libfixmath compiled
# with the same flags, builds seed corpora from fresh recordings, then runs each target for
# FUZZ_SECONDS. Prints each target's executions and executions per second as libFuzzer counted
# them (docs/fuzzing.md keeps the totals), then "fuzz: N passed, N failed" (a target passes
# when libFuzzer exits 0).
#
#   tools/fuzz.sh                     every target, FUZZ_SECONDS each (default 60)
#   tools/fuzz.sh fuzz_snapshot ...   the named targets only
#   tools/fuzz.sh --quick             FUZZ_SECONDS defaults to 20 (CI)
#   tools/fuzz.sh --build             build the target binaries only
#
# Everything goes under build/fuzz/: bin/ (targets), seeds/ (rebuilt every run), corpus/
# (kept between runs), artifacts/ (crash, leak, timeout and OOM inputs), logs/.
# Inputs found here belong in test/fuzz-regressions/TARGET/ (see tools/fuzz-regress.sh).
set -u
cd "$(dirname "$0")/.."

TARGETS_ALL="fuzz_replay_raw fuzz_replay_fixed fuzz_snapshot fuzz_commands fuzz_scenario_yaml fuzz_session_packet fuzz_session_offer"
OUT=build/fuzz
CLANG=${CLANG:-clang}
SAN="-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all"
LFM=build/libfixmath/libfixmath
# UBSan reports come with their stack, like ASan's.
export UBSAN_OPTIONS="print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"

build_only=0
quick=0
targets=""
for a in "$@"; do
  case "$a" in
    --build) build_only=1 ;;
    --quick) quick=1 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    fuzz_*) targets="$targets $a" ;;
    *) echo "fuzz: unknown argument '$a'" >&2; exit 2 ;;
  esac
done
targets=${targets:-$TARGETS_ALL}
if [ "$quick" = 1 ]; then SECONDS_EACH=${FUZZ_SECONDS:-20}; else SECONDS_EACH=${FUZZ_SECONDS:-60}; fi

die() { echo "fuzz: $*" >&2; exit 2; }

# ---------------------------------------------------------------- build

# The modules that decode and validate untrusted bytes and values: libFuzzer's comparison
# tracing (which turns a compared constant into a mutation) stays on for them. The other
# modules (the simulation's arithmetic, and bytes.c, whose comparisons are only bounds) and
# libfixmath are built without it: there it only slowed every execution down.
BOUNDARY="command command_build replay snapshot session session_packet session_join input_limits
  behavior behavior_params world result version fingerprint"

# The library and libfixmath with the fuzzing flags, through the Makefile's own rules: built
# twice, with and without comparison tracing, then one archive takes the boundary modules
# from the first and everything else from the second.
build_libraries() {
  make -s lib CC="$CLANG" BUILD_DIR="$OUT/traced" OPT="-g -O1" EXTRA_CFLAGS="$SAN" >/dev/null ||
    die "building the sanitized library failed"
  make -s lib CC="$CLANG" BUILD_DIR="$OUT/lean" OPT="-g -O1" \
    EXTRA_CFLAGS="$SAN -fno-sanitize-coverage=trace-cmp" >/dev/null ||
    die "building the sanitized library failed"
  local objects=() o name module
  for o in "$OUT"/lean/obj/*/*.o; do # obj/MODULE/NAME.o (src/MODULE/NAME.c)
    module=$(basename "$(dirname "$o")")
    [ "$module" = libfixmath ] && continue
    name=$(basename "$o" .o)
    case " $(echo $BOUNDARY) " in
      *" $name "*) objects+=("$OUT/traced/obj/$module/$name.o") ;;
      *) objects+=("$o") ;;
    esac
  done
  # A deterministic archive, replaced only when its contents changed, so that the targets
  # are relinked only then (build_target compares times).
  rm -f "$OUT/libfixsteer.a.new"
  ar rcsD "$OUT/libfixsteer.a.new" "${objects[@]}" "$OUT"/lean/obj/libfixmath/*.o ||
    die "archiving the sanitized library failed"
  if cmp -s "$OUT/libfixsteer.a.new" "$OUT/libfixsteer.a"; then
    rm -f "$OUT/libfixsteer.a.new"
  else
    mv "$OUT/libfixsteer.a.new" "$OUT/libfixsteer.a"
  fi
  cp -p "$OUT/lean/libfixmath.a" "$OUT/libfixmath.a"
}

# Rebuilds a target when its binary is older than any of its inputs.
build_target() {
  local t=$1 bin=$OUT/bin/$1
  local -a sources=("fuzz/$t.c") libs=()
  local deps="fuzz/$t.c fuzz/*.h $OUT/libfixsteer.a $OUT/libfixmath.a"
  if [ "$t" = fuzz_scenario_yaml ]; then
    local scene=(tools/fixsteer/scenario_file.c tools/fixsteer/scenario_read.c
                 tools/fixsteer/scenario_sections.c tools/fixsteer/scenario_navigation.c
                 tools/fixsteer/yaml_read.c)
    sources+=(-Itools/fixsteer "${scene[@]}")
    libs=(-lyaml)
    deps="$deps ${scene[*]} tools/fixsteer/*.h"
  fi
  # The replay targets compute the (pure) math fingerprint once: see fuzz/replay_check.h.
  case "$t" in fuzz_replay_*) libs+=(-Wl,--wrap=fxs_math_fingerprint) ;; esac
  [ -f "fuzz/$t.c" ] || die "no target fuzz/$t.c"
  if [ -x "$bin" ] && [ -z "$(find $deps -newer "$bin" 2>/dev/null)" ]; then return 0; fi
  mkdir -p "$OUT/bin"
  "$CLANG" -std=c99 -g -O1 $SAN -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Werror \
    -DFIXMATH_NO_CACHE -Iinclude -I"$LFM" "${sources[@]}" "$OUT/libfixsteer.a" "$OUT/libfixmath.a" \
    "${libs[@]}" -o "$bin" || die "building $t failed"
}

build_all() {
  [ -f "$LFM/fix16.c" ] || bash tools/setup.sh --source >/dev/null || die "no libfixmath source"
  command -v "$CLANG" >/dev/null || die "$CLANG not found (bash tools/setup.sh installs it)"
  build_libraries
  local t
  for t in $targets; do build_target "$t"; done
}

# ---------------------------------------------------------------- seeds

# A scenario file with every behavior kind, every path mode and every kind of event, so the
# YAML target starts from all of the loader's branches.
every_kind_yaml() {
  cat <<'YAML'
name: every_kind
ticks: 100
world: {seed: 7, bounds: [-500, -500, 500, 500], clamp: false, neighbor_radius: 80}
paths:
  - {name: p1, mode: stop, radius: 5, slowing_radius: 30, nodes: [[0, 0], [100, 0], [100, 100]]}
  - {name: p2, mode: loop, nodes: [[-100, -100], [-50, -120]]}
  - {name: p3, mode: patrol, nodes: [[10, 10]]}
obstacles: [[50, 50, 10], [-60, 20, 0.5]]
walls: [[-200, 200, 200, 200]]
field:
  origin: [-500, -500]
  cell_size: 125
  columns: 8
  rows: 8
  fill: {kind: vortex, center: [0, 0], swirl: -1, inward: 0.5}
  cells: [{column: 1, row: 2, columns: 3, rows: 2, flow: [0, 1]}, {column: 7, row: 7, flow: [0, 0]}]
agents:
  - name: a
    position: [0, 0]
    velocity: [1, -0.5]
    max_speed: 3
    max_force: 0.4
    mass: 2
    radius: 4
    max_rotation: 0.3
    max_angular_acceleration: 0.1
    max_turn_rate: 0.05
    orientation: steered
    combine: priority_groups
    target: [10, 20]
    path: p1
    behaviors:
      - {kind: seek, weight: 0.5, priority: 1}
      - {kind: flee, panic_radius: 40}
      - {kind: arrive, slowing_radius: 25}
      - {kind: wander, circle_distance: 6, circle_radius: 3, angle_change: 0.5}
      - {kind: path_following}
      - {kind: align, target_orientation: 1.5, target_radius: 0.01, slow_radius: 0.5, time_to_target: 2}
  - name: b
    position: [30, -30]
    target_agent: a
    orientation: fixed
    combine: prioritized_sum
    behaviors:
      - {kind: pursuit, max_prediction: 10}
      - {kind: evade, max_prediction: 5, panic_radius: 60}
      - {kind: obstacle_avoidance, max_see_ahead: 50, max_avoid_force: 2}
      - {kind: separation, radius: 20}
      - {kind: alignment, radius: 30}
      - {kind: cohesion, radius: 40}
  - name: c
    position: [-30, 30]
    target_agent: a
    behaviors:
      - {kind: leader_following, behind: 20, sight: 30, slowing_radius: 15, separation_radius: 10, separation_weight: 2, max_prediction: 8}
      - {kind: queue, max_queue_ahead: 30, max_queue_radius: 20, separation_radius: 8}
      - {kind: dynamic_arrive, target_radius: 2, slow_radius: 20, time_to_target: 3, max_acceleration: 0.5}
      - {kind: velocity_match, time_to_target: 2, max_acceleration: 0.3}
      - {kind: face, target_radius: 0.02, slow_radius: 0.4, time_to_target: 1}
      - {kind: look_where_going, target_radius: 0.02, slow_radius: 0.4, time_to_target: 1}
  - name: d
    position: [100, 100]
    behaviors:
      - {kind: random_walker, min_step: 1, max_step: 10, aggro_radius: 30, reach_radius: 2, slowing_radius: 8}
  - name: e
    position: [-100, 100]
    behaviors: [{kind: kinematic_seek}]
  - name: f
    position: [-100, -100]
    behaviors: [{kind: kinematic_arrive, radius: 3, time_to_target: 4}]
  - name: g
    position: [100, -100]
    behaviors: [{kind: kinematic_wander, max_rotation: 0.4}]
  - name: h
    position: [200, 200]
    behaviors: [{kind: flow_field, look_ahead: 3}]
events:
  - {tick: 1, agent: a, target: [-40, 10], apply_force: [2, -3]}
  - {tick: 2, agent: b, target_agent: d, path: p2}
  - {tick: 3, agent: c, combine: weighted_sum, behaviors: [{kind: seek}]}
  - {tick: 4, agent: d, despawn: true}
  - {tick: 5, agent: a, path: p3}
  - {tick: 6, field_fill: {kind: uniform, direction: [1, 1]}}
  - {tick: 7, agent: h, field_fill: {kind: toward, point: [5, 5]}, field_cells: [{column: 0, row: 0, flow: [-1, 0]}]}
YAML
}

# Groups moving on shared fields (simulation version 6, docs/navigation.md "Shared fields"):
# a grid world with group fields where one move sends five navigate agents across a wall and
# another four round an obstacle, so every keyframe after tick 1 is snapshot layout 8 (each
# agent's move cell, FXS_SNAPSHOT_VERSION_NAV_MOVES). No scene in scenarios/ has such a move;
# a third move names an agent of each group (a move of two forgets theirs) and a new target
# forgets another. Small enough for every target's limits: 9 agents, 1,200 cells, 2 fields.
move_fields_yaml() {
  cat <<'YAML'
name: move_fields
ticks: 60
world: {seed: 11, bounds: [0, 0, 400, 300], clamp: true, neighbor_radius: 30}
navigation: {cell_size: 10, budget: 400, fields: 2, searches: 2, open: 256, waypoints: 32}
walls: [[200, 40, 200, 260]]
obstacles: [[300, 150, 15]]
agents:
  - {name: a0, position: [40, 120], target: [40, 120], max_speed: 2, behaviors: [{kind: navigate, slowing_radius: 20}]}
  - {name: a1, position: [60, 120], target: [60, 120], max_speed: 2, behaviors: [{kind: navigate, slowing_radius: 20}]}
  - {name: a2, position: [40, 140], target: [40, 140], max_speed: 2, behaviors: [{kind: navigate, slowing_radius: 20}]}
  - {name: a3, position: [60, 140], target: [60, 140], max_speed: 2, behaviors: [{kind: navigate, slowing_radius: 20}]}
  - {name: a4, position: [50, 160], target: [50, 160], max_speed: 2, behaviors: [{kind: navigate, slowing_radius: 20}]}
  - {name: b0, position: [150, 250], target: [150, 250], max_speed: 2, behaviors: [{kind: navigate, slowing_radius: 20}]}
  - {name: b1, position: [170, 250], target: [170, 250], max_speed: 2, behaviors: [{kind: navigate, slowing_radius: 20}]}
  - {name: b2, position: [150, 270], target: [150, 270], max_speed: 2, behaviors: [{kind: navigate, slowing_radius: 20}]}
  - {name: b3, position: [170, 270], target: [170, 270], max_speed: 2, behaviors: [{kind: navigate, slowing_radius: 20}]}
events:
  - {tick: 1, move: {agents: [a0, a1, a2, a3, a4], to: [340, 100], gap: 6}}
  - {tick: 2, move: {agents: [b0, b1, b2, b3], to: [260, 30], gap: 4}}
  - {tick: 2, move: {agents: [a4, b3], to: [100, 280], gap: 4}}
  - {tick: 7, agent: a1, target: [20, 20]}
YAML
}

# Group fields on a mesh (docs/navigation-mesh.md, "Fields for groups"): a mesh world with 2
# fields, five navigate agents sent to one point and four to another behind a wall, the trees
# built 3 triangles a tick (half built in the keyframes of the short recordings), and map
# changes while they exist (a wall added, one removed, an obstacle added: every tree dropped
# and taken again), so the keyframes are snapshot layout 9 (FXS_SNAPSHOT_VERSION_NAV_MESH_FIELDS)
# with slots being built, ready, and free again. The scenes' own mesh worlds with fields
# (nav_crowd_mesh, peer_blocks_nav_mesh) build their trees at once or have more agents than
# fuzz_snapshot takes. 9 agents, within every target's limits.
mesh_fields_yaml() {
  cat <<'YAML'
name: mesh_fields
ticks: 60
world: {seed: 13, bounds: [0, 0, 400, 300], clamp: true, neighbor_radius: 30}
navigation: {kind: mesh, budget: 3, fields: 2, searches: 2, open: 64, waypoints: 16}
walls: [[200, 40, 200, 260], [260, 120, 320, 120]]
obstacles: [[300, 200, 15]]
agents:
  - {name: a0, position: [40, 120], target: [340, 80], max_speed: 2, behaviors: [{kind: navigate, slowing_radius: 20}]}
  - {name: a1, position: [60, 120], target: [340, 80], max_speed: 2, behaviors: [{kind: navigate, slowing_radius: 20}]}
  - {name: a2, position: [40, 140], target: [340, 80], max_speed: 2, behaviors: [{kind: navigate, slowing_radius: 20}]}
  - {name: a3, position: [60, 140], target: [340, 80], max_speed: 2, behaviors: [{kind: navigate, slowing_radius: 20}]}
  - {name: a4, position: [50, 160], target: [340, 80], max_speed: 2, behaviors: [{kind: navigate, slowing_radius: 20}]}
  - {name: b0, position: [150, 250], target: [350, 250], max_speed: 2, behaviors: [{kind: navigate, slowing_radius: 20}]}
  - {name: b1, position: [170, 250], target: [350, 250], max_speed: 2, behaviors: [{kind: navigate, slowing_radius: 20}]}
  - {name: b2, position: [150, 270], target: [350, 250], max_speed: 2, behaviors: [{kind: navigate, slowing_radius: 20}]}
  - {name: b3, position: [170, 270], target: [350, 250], max_speed: 2, behaviors: [{kind: navigate, slowing_radius: 20}]}
events:
  - {tick: 4, add_wall: [100, 20, 100, 100]}
  - {tick: 13, remove_wall: [260, 120, 320, 120]}
  - {tick: 22, add_obstacle: [150, 200, 10]}
  - {tick: 40, remove_wall: [100, 20, 100, 100]}
YAML
}

# Moves on a mesh with group fields (simulation version 8, docs/navigation-mesh.md "Moves"): the
# mesh world of mesh_fields.yaml where five navigate agents (slots 4-8) are moved as one group
# across a wall at tick 1 and four (slots 0-3) as another at tick 2, so from tick 1 every
# keyframe is snapshot layout 10 (each member's destination,
# FXS_SNAPSHOT_VERSION_NAV_MESH_MOVES) with the groups in flight and their trees built 3
# triangles a tick; map changes while they move (the moves kept, their points located on the
# new mesh, the trees dropped and taken again) and a new target that forgets one member's move.
# The movers of the first group are fuzz_commands.c's four navigate agents (slots 4-7) in the
# worlds with fields, so the command seeds cut from its recording move them there too.
# 9 agents, within every target's limits.
mesh_moves_yaml() {
  cat <<'YAML'
name: mesh_moves
ticks: 60
world: {seed: 17, bounds: [0, 0, 400, 300], clamp: true, neighbor_radius: 30}
navigation: {kind: mesh, budget: 3, fields: 2, searches: 2, open: 64, waypoints: 16}
walls: [[200, 40, 200, 260]]
obstacles: [[300, 150, 15]]
agents:
  - {name: c0, position: [150, 250], target: [150, 250], max_speed: 2, behaviors: [{kind: navigate, slowing_radius: 20}]}
  - {name: c1, position: [170, 250], target: [170, 250], max_speed: 2, behaviors: [{kind: navigate, slowing_radius: 20}]}
  - {name: c2, position: [150, 270], target: [150, 270], max_speed: 2, behaviors: [{kind: navigate, slowing_radius: 20}]}
  - {name: c3, position: [170, 270], target: [170, 270], max_speed: 2, behaviors: [{kind: navigate, slowing_radius: 20}]}
  - {name: a0, position: [40, 120], target: [40, 120], max_speed: 2, behaviors: [{kind: navigate, slowing_radius: 20}]}
  - {name: a1, position: [60, 120], target: [60, 120], max_speed: 2, behaviors: [{kind: navigate, slowing_radius: 20}]}
  - {name: a2, position: [40, 140], target: [40, 140], max_speed: 2, behaviors: [{kind: navigate, slowing_radius: 20}]}
  - {name: a3, position: [60, 140], target: [60, 140], max_speed: 2, behaviors: [{kind: navigate, slowing_radius: 20}]}
  - {name: a4, position: [50, 160], target: [50, 160], max_speed: 2, behaviors: [{kind: navigate, slowing_radius: 20}]}
events:
  - {tick: 1, move: {agents: [a0, a1, a2, a3, a4], to: [340, 100], gap: 6}}
  - {tick: 2, move: {agents: [c0, c1, c2, c3], to: [330, 240], gap: 4}}
  - {tick: 4, add_wall: [100, 20, 100, 100]}
  - {tick: 14, add_obstacle: [250, 200, 10]}
  - {tick: 30, remove_wall: [100, 20, 100, 100]}
  - {tick: 45, agent: c1, target: [20, 280]}
YAML
}

# Records every built-in scenario and every scenario file (and every_kind.yaml,
# move_fields.yaml, mesh_fields.yaml and mesh_moves.yaml, already written) into DIR:
# record_all DIR TICKS KEYFRAME.
record_all() {
  local dir=$1 ticks=$2 every=$3 tool=build/bin/fixsteer name f
  for name in $("$tool" list | awk '{print $1}'); do
    "$tool" record --scenario "$name" --ticks "$ticks" --keyframe "$every" --out "$dir/rec-$name.fxr" >/dev/null ||
      die "recording $name failed"
  done
  for f in scenarios/*.yaml "$OUT/seeds/fuzz_scenario_yaml/every_kind.yaml" \
    "$OUT/seeds/fuzz_scenario_yaml/move_fields.yaml" "$OUT/seeds/fuzz_scenario_yaml/mesh_fields.yaml" \
    "$OUT/seeds/fuzz_scenario_yaml/mesh_moves.yaml"; do
    [ -f "$f" ] || continue
    name=$(basename "$f" .yaml)
    "$tool" record --scenario "$f" --ticks "$ticks" --keyframe "$every" --out "$dir/file-$name.fxr" >/dev/null ||
      die "recording $f failed"
  done
}

# Fresh every run, never committed: recordings of every built-in scenario and of the
# scenario files, the golden replays, and what the extractor cuts from all of them. The
# replay targets also get recordings short enough (9 ticks, a keyframe every 3) to verify to
# their END within fuzz_limits().
build_seeds() {
  local S=$OUT/seeds
  rm -rf "$S"
  mkdir -p "$S/replays" "$S/short" "$S/fuzz_snapshot" "$S/fuzz_commands" "$S/fuzz_scenario_yaml" \
    "$S/fuzz_session_packet" "$S/fuzz_session_offer"
  # Session packets: the regression inputs (valid and broken packets) start the corpus.
  cp test/fuzz-regressions/fuzz_session_packet/* "$S/fuzz_session_packet/" 2>/dev/null || true
  cp test/fuzz-regressions/fuzz_session_offer/* "$S/fuzz_session_offer/" 2>/dev/null || true
  make -s -j2 >/dev/null || die "make (library and tool) failed"
  local f t
  for f in scenarios/*.yaml; do [ -f "$f" ] && cp "$f" "$S/fuzz_scenario_yaml/"; done
  every_kind_yaml >"$S/fuzz_scenario_yaml/every_kind.yaml"
  move_fields_yaml >"$S/fuzz_scenario_yaml/move_fields.yaml"
  mesh_fields_yaml >"$S/fuzz_scenario_yaml/mesh_fields.yaml"
  mesh_moves_yaml >"$S/fuzz_scenario_yaml/mesh_moves.yaml"
  # Scenario files: the small regression inputs (duplicate keys, nesting past the limit,
  # alias bombs) too; a large one would raise libFuzzer's input length for the whole run.
  for f in test/fuzz-regressions/fuzz_scenario_yaml/*; do
    [ -f "$f" ] && [ "$(stat -c %s "$f")" -le 16384 ] && cp "$f" "$S/fuzz_scenario_yaml/regress-$(basename "$f")"
  done
  record_all "$S/replays" 60 20
  record_all "$S/short" 9 3
  cp test/golden/*.fxr "$S/replays/" 2>/dev/null
  mkdir -p "$OUT/bin"
  cc -std=c99 -O2 -Wall -Wextra -Werror -DFIXMATH_NO_CACHE -Iinclude -I"$LFM" fuzz/extract_seeds.c \
    build/libfixsteer.a build/libfixmath.a -o "$OUT/bin/extract_seeds" || die "building extract_seeds failed"
  "$OUT/bin/extract_seeds" "$S/fuzz_snapshot" "$S/fuzz_commands" "$S"/replays/*.fxr ||
    die "extracting seeds failed"
  # Every command sequence also runs on the mesh world, on the grid world with group fields
  # whose four navigate agents were moved as one group and on the mesh world with group fields
  # (fuzz_commands.c: a byte after the last whole record, 1, 2 or 3 modulo 4, chooses them), and
  # the regression inputs of the snapshot and command targets (mesh worlds among them) start
  # their corpora too.
  for f in "$S"/fuzz_commands/*; do
    { cat "$f"; printf '\001'; } >"$f-mesh"
    { cat "$f"; printf '\002'; } >"$f-fields"
    { cat "$f"; printf '\003'; } >"$f-mesh-fields"
  done
  for t in fuzz_snapshot fuzz_commands; do
    for f in test/fuzz-regressions/$t/*; do [ -f "$f" ] && cp "$f" "$S/$t/regress-$(basename "$f")"; done
  done
  mkdir -p "$S/fuzz_replay_raw"
  cp "$S"/replays/*.fxr "$S/fuzz_replay_raw/"
  for f in "$S"/short/*.fxr; do cp "$f" "$S/fuzz_replay_raw/short-$(basename "$f")"; done
  ln -sfn fuzz_replay_raw "$S/fuzz_replay_fixed"
}

# ---------------------------------------------------------------- run

# One line from libFuzzer's final stats, e.g. final_stat "number_of_executed_units" LOG.
final_stat() { awk -v k="stat::$1:" '$1 == k {print $2}' "$2" | tail -1; }

# The line that says what went wrong: an assertion, a sanitizer's report, a broken property.
cause() {
  grep -m1 -E 'Assertion .* failed|runtime error:|fuzz check failed|ERROR: (AddressSanitizer|LeakSanitizer)|ERROR: libFuzzer: (timeout|out-of-memory|deadly)|^SUMMARY:' "$1"
}

run_target() {
  local t=$1 log=$OUT/logs/$1.log
  mkdir -p "$OUT/corpus/$t" "$OUT/artifacts/$t" "$OUT/logs"
  "$OUT/bin/$t" -max_total_time="$SECONDS_EACH" -rss_limit_mb=2048 -timeout=10 \
    -dict="fuzz/$t.dict" -artifact_prefix="$OUT/artifacts/$t/" -print_final_stats=1 \
    "$OUT/corpus/$t" "$OUT/seeds/$t" >"$log" 2>&1
  local rc=$?
  local execs rate
  execs=$(final_stat number_of_executed_units "$log")
  rate=$(final_stat average_exec_per_sec "$log")
  if [ "$rc" -eq 0 ]; then
    printf 'fuzz: %-20s passed: %s executions, %s exec/s\n' "$t" "${execs:-?}" "${rate:-?}"
    grep -h 'inputs refused' "$log" | tail -1 | sed 's/^/      /'
    return 0
  fi
  printf 'fuzz: %-20s FAILED (exit %s) after %s executions: %s\n' "$t" "$rc" \
    "${execs:-?}" "$(cause "$log")"
  grep -m1 'Test unit written' "$log" | sed 's/^.*Test unit written to /      input: /'
  echo "      log: $log"
  return 1
}

build_all
[ "$build_only" = 1 ] && exit 0
build_seeds
passed=0
failed=0
for t in $targets; do
  if run_target "$t"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
