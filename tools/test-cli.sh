#!/usr/bin/env bash
# Checks the fixsteer command line: exit codes (0 ok, 1 divergence, 2 bad usage or input,
# 4 another simulation version) and
# that corrupt replays are named with the file and byte offset. Prints "N passed, N failed".
set -u
B=${1:-build/bin/fixsteer}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0; fail=0

# expect CODE PATTERN -- COMMAND...: the command exits with CODE and its output matches PATTERN.
expect() {
  local code=$1 pattern=$2; shift 3
  local out rc
  out=$("$@" 2>&1); rc=$?
  if [ "$rc" -eq "$code" ] && printf '%s' "$out" | grep -qE -- "$pattern"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); printf 'FAIL: %s (exit %s, want %s)\n%s\n' "$*" "$rc" "$code" "$out"
  fi
}

# patch FILE OFFSET: flips the low bit of the byte at OFFSET.
patch() { printf "$(printf '\\x%02x' $(( $(od -An -tu1 -j "$2" -N1 "$1") ^ 1 )))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }

expect 0 "hunter_prey" -- "$B" list
expect 0 "usage" -- "$B" --help
for c in record verify diff dump trace stats render scale size; do expect 0 "usage: fixsteer $c" -- "$B" "$c" --help; done
expect 2 "unknown command" -- "$B" fly
expect 2 "unknown scenario 'nope'" -- "$B" record --scenario nope --out "$T/x.fxr"
expect 2 "ticks needs a whole number from 1" -- "$B" record --scenario patrol --ticks -5 --out "$T/x.fxr"
expect 2 "ticks needs a whole number from 1" -- "$B" record --scenario patrol --ticks 0 --out "$T/x.fxr"
expect 0 "^fixsteer [0-9]+\.[0-9]+\.[0-9]+ \(replay format 4, .*simulation version [0-9]+\)" -- "$B" --version
expect 0 "usage: fixsteer verify \[LIMITS\] FILE" -- "$B" help verify
expect 2 "no command 'fly'" -- "$B" help fly
# Every command's help: its options with their defaults, an example of it, its exit codes;
# `fixsteer --help` lists every exit code, 3 (host, join) among them.
for c in list record verify diff dump trace stats render host join params scale size help; do
  out=$("$B" help $c 2>&1)
  if printf '%s\n' "$out" | grep -q '^Example:$' && printf '%s\n' "$out" | grep -qE "^  fixsteer $c( |\$)" &&
     printf '%s\n' "$out" | grep -q '^Exit codes:$' && printf '%s\n' "$out" | grep -q '^  0  success' &&
     { [ $c = list ] || [ $c = help ] || printf '%s\n' "$out" | grep -qE 'default|\([0-9]+\)'; }; then
    pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: help $c lacks defaults, an example or exit codes:"; echo "$out"; fi
done
expect 0 "--keyframe K .*\(default 250\)" -- "$B" record --help
expect 0 "--delay D .*\(default 2\)" -- "$B" help host
expect 0 "^  3  host/join: a peer lost" -- "$B" help join
expect 0 "^  3  host/join: a peer lost" -- "$B" --help
expect 0 "^  1  divergence" -- "$B" verify --help
# A usage error shows that command's usage, not the whole list.
out=$("$B" record --scenario 2>&1); rc=$?
if [ "$rc" -eq 2 ] && printf '%s' "$out" | grep -q "usage: fixsteer record" && ! printf '%s' "$out" | grep -q "fixsteer trace"; then
  pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: per-command usage: $out"; fi
expect 0 "recorded .*, 20 ticks" -- "$B" record --scenario=patrol --ticks=20 --keyframe=5 --out="$T/eq.fxr"
expect 2 "needs --scenario and --out" -- "$B" record --scenario patrol
expect 0 "recorded" -- "$B" record --scenario patrol --ticks 300 --keyframe 50 --out "$T/a.fxr"
expect 0 "300 ticks verified" -- "$B" verify "$T/a.fxr"
expect 0 "^tick,agent,x,y,vx,vy,orientation" -- "$B" trace --scenario patrol --ticks 2
expect 0 "end: 300 ticks" -- "$B" dump "$T/a.fxr"
cp "$T/a.fxr" "$T/b.fxr"
expect 0 "identical: 300 ticks" -- "$B" diff "$T/a.fxr" "$T/b.fxr"
expect 2 "replay format 2 \(state hash v2\), .* format 4 \(state hash v3\): their hashes cannot be compared" -- "$B" diff test/fixtures/v2-seek_wind.fxr "$T/a.fxr"
expect 2 "cannot read $T/none.fxr" -- "$B" verify "$T/none.fxr"
size=$(stat -c %s "$T/a.fxr")
for cut in 0 5 40 1000 $((size / 2)) $((size - 1)); do
  head -c "$cut" "$T/a.fxr" > "$T/cut.fxr"
  expect 2 "$T/cut.fxr: byte [0-9]+[^:]*: (data ends early|not a fixsteer file)" -- "$B" verify "$T/cut.fxr"
done
cp "$T/a.fxr" "$T/flip.fxr"; patch "$T/flip.fxr" 150 # inside the SNAP payload (header chunk: 40 bytes)
expect 2 "$T/flip.fxr: byte 40 \(in the SNAP chunk at byte 40\): checksum mismatch" -- "$B" verify "$T/flip.fxr"
cp "$T/a.fxr" "$T/magic.fxr"; patch "$T/magic.fxr" 0
expect 2 "byte 0: not a fixsteer file" -- "$B" verify "$T/magic.fxr"
printf 'not a replay at all' > "$T/text.fxr"
expect 2 "byte 0: not a fixsteer file" -- "$B" verify "$T/text.fxr"

# Scenario files: a good one records and verifies; each mistake is named with its line.
expect 0 "recorded" -- "$B" record --scenario scenarios/example.yaml --ticks 200 --out "$T/ex.fxr"
expect 0 "200 ticks verified" -- "$B" verify "$T/ex.fxr"
cat > "$T/exact.yaml" <<'YAML'
agents:
  - {name: a, position: [0.1, -2.5], max_speed: 0}
YAML
expect 0 "^1,0,0.10001,-2.50000," -- "$B" trace --scenario "$T/exact.yaml" --ticks 1
printf 'agents:\n  - {name: a, position: [1, 2], behaviors: []}\nevents: []\n' > "$T/empty-lists.yaml"
expect 0 "^1,0,1.00000,2.00000," -- "$B" trace --scenario "$T/empty-lists.yaml" --ticks 1
bad() { # bad LINE PATTERN: a file whose mistake is on LINE
  expect 2 "$T/bad.yaml:$1: (.*: )?$2" -- "$B" record --scenario "$T/bad.yaml" --out "$T/bad.fxr"
}
printf 'agents:\n  - {name: a, position: [1, 2]\n' > "$T/bad.yaml"; bad 3 "YAML syntax error"
printf 'agents:\n  - name: a\n    position: [1, 2]\n    speed: 3\n' > "$T/bad.yaml"; bad 4 "unknown key 'speed' in an agent"
printf 'agents:\n  - name: a\n    position: [1, 2.0000000001]\n' > "$T/bad.yaml"; bad 3 "expected a number"
printf 'agents:\n  - name: a\n    position: [99999, 0]\n' > "$T/bad.yaml"; bad 3 "expected a number"
printf 'agents:\n  - name: a\n    position: [1, 2]\n    behaviors:\n      - {kind: teleport}\n' > "$T/bad.yaml"; bad 5 "behavior kind 'teleport' is unknown"
printf 'agents:\n  - name: a\n    position: [1, 2]\n    behaviors:\n      - {kind: seek, slowing_radius: 3}\n' > "$T/bad.yaml"; bad 5 "unknown key 'slowing_radius' in seek"
printf 'agents:\n  - name: a\n    position: [1, 2]\n    target_agent: b\n' > "$T/bad.yaml"; bad 4 "no agent named 'b'"
printf 'agents:\n  - name: a\n    position: [1, 2]\n    behaviors:\n      - {kind: seek}\n      - {kind: kinematic_wander}\n' > "$T/bad.yaml"; bad 6 "a kinematic behavior .* must be an agent's only behavior"
printf 'agents:\n  - name: a\n    position: [1, 2]\nevents:\n  - {tick: -3, agent: a}\n' > "$T/bad.yaml"; bad 5 "tick: expected a whole number"
printf 'world:\n  bounds: [10, 0, 5, 5]\nagents:\n  - {name: a, position: [1, 2]}\n' > "$T/bad.yaml"; bad 2 "bounds"
printf 'world: {neighbor_radius: -8}\nagents:\n  - {name: a, position: [1, 2]}\n' > "$T/bad.yaml"; bad 1 "neighbor_radius must not be negative"
printf 'agents:\n  - name: a\n    position: [1, 2]\n    behaviors:\n      - {kind: separation, max_neighbors: 2.5}\n' > "$T/bad.yaml"; bad 5 "max_neighbors of separation out of range .*counts are whole numbers"
printf 'agents:\n  - name: a\n    position: [1, 2]\n    second_target: b\n' > "$T/bad.yaml"; bad 4 "second_target: no agent named 'b'"
printf 'agents:\n  - name: a\n    position: [1, 2]\n    behaviors:\n      - {kind: formation, shape: wdge}\n' > "$T/bad.yaml"; bad 5 "shape of formation .*'wdge' is not one of the accepted values"
printf 'agents:\n  - name: a\n    position: [1, 2]\n    behaviors:\n      - {kind: formation, shape: 2.5}\n' > "$T/bad.yaml"; bad 5 "shape of formation out of range .*a formation's shape is a whole number"
# A formation's shape by name is its number: the same recording.
expect 0 "recorded" -- "$B" record --scenario scenarios/formation.yaml --ticks 300 --out "$T/formation.fxr"
sed 's/shape: wedge/shape: 2/' scenarios/formation.yaml > "$T/formation2.yaml"
expect 0 "recorded" -- "$B" record --scenario "$T/formation2.yaml" --ticks 300 --out "$T/formation2.fxr"
cmp "$T/formation.fxr" "$T/formation2.fxr" || { echo "FAIL: shape: wedge and shape: 2 record differently"; fail=$((fail + 1)); }
expect 0 "300 ticks verified" -- "$B" verify "$T/formation.fxr"

# The newer behavior kinds from a scenario file, and the scenes built on them: each records,
# and its replay re-simulates to the recorded hashes.
cat > "$T/kinds.yaml" <<'YAML'
world: {bounds: [0, 0, 800, 600], clamp: true}
obstacles:
  - [400, 300, 40]
agents:
  - {name: client, position: [100, 100], max_speed: 1, target: [700, 500], behaviors: [{kind: seek}]}
  - {name: attacker, position: [700, 100], behaviors: [{kind: pursuit}], target_agent: client}
  - name: guard
    position: [400, 500]
    target_agent: client
    second_target: attacker
    behaviors: [{kind: interpose, slowing_radius: 16}, {kind: unaligned_avoidance, margin: 2}]
  - {name: wing, position: [60, 140], target_agent: client, behaviors: [{kind: offset_pursuit, offset_side: -20}]}
  - {name: hider, position: [300, 450], target_agent: attacker, behaviors: [{kind: hide, distance_from_boundary: 20}]}
  - name: boid
    position: [120, 60]
    behaviors: [{kind: separation, blind_angle: 1.5, max_neighbors: 3}, {kind: cohesion, max_neighbors: 2}]
  - {name: walker, position: [700, 550], target: [100, 50], behaviors: [{kind: orca, max_neighbors: 4}]}
events:
  - {tick: 10, agent: guard, second_target: wing}
YAML
expect 0 "recorded .*, 300 ticks" -- "$B" record --scenario "$T/kinds.yaml" --ticks 300 --keyframe 50 --out "$T/kinds.fxr"
expect 0 "300 ticks verified" -- "$B" verify "$T/kinds.fxr"
expect 0 "set_second_target" -- "$B" dump "$T/kinds.fxr"
for s in crowd_crossing hide_and_seek; do
  expect 0 "recorded .*, 400 ticks" -- "$B" record --scenario $s --ticks 400 --keyframe 100 --out "$T/$s.fxr"
  expect 0 "400 ticks verified" -- "$B" verify "$T/$s.fxr"
done

# The flow field: the scene and field files record and verify; the field commands travel in
# the replay, which re-simulates only with them; limits and file mistakes are named.
expect 0 "recorded .*, 300 ticks" -- "$B" record --scenario flow_field --ticks 300 --keyframe 100 --out "$T/ff.fxr"
expect 0 "300 ticks verified" -- "$B" verify "$T/ff.fxr"
expect 0 "capacity: 24 agents, 5 obstacles, [0-9]+ walls, 0 paths, 0 path nodes, 768 field cells; snapshot [0-9]+ bytes at tick 0: 0 agents, 0 obstacles, 0 walls, 0 paths, 0 path nodes .*set_field_grid .*fill_field .*set_field_cells" -- sh -c "'$B' dump '$T/ff.fxr' | tr '\n' ' '"
# dump tells capacity and count apart: a scene file's initial state holds what its sections
# describe (the example: 4 agents, 3 obstacles, 1 wall, 1 path), the flow field's grid of a
# built-in scene comes by a command of tick 0 (above: 768 cells of capacity, none at tick 0)
"$B" record --scenario scenarios/example.yaml --ticks 200 --out "$T/ex200.fxr" >/dev/null 2>&1
expect 0 "capacity: 4 agents, 3 obstacles, 1 walls, 1 paths, 4 path nodes, 192 field cells; snapshot [0-9]+ bytes at tick 0: 4 agents, 3 obstacles, 1 walls, 1 paths, 4 path nodes tick 0: 0 commands" -- sh -c "'$B' dump '$T/ex200.fxr' | sed -n 3,5p | tr '\n' ' '"
printf 'field: {cell_size: 1, columns: 1024, rows: 1024, fill: {kind: uniform, direction: [1, 0]}}\nagents:\n  - {name: a, position: [10, 10], behaviors: [{kind: flow_field}]}\n' > "$T/bigfield.yaml"
expect 0 "recorded .*, 3 ticks" -- "$B" record --scenario "$T/bigfield.yaml" --ticks 3 --keyframe 2 --out "$T/bigfield.fxr"
expect 0 "3 ticks verified" -- "$B" verify "$T/bigfield.fxr"
expect 2 "ff.fxr: byte 103 \(in the SNAP chunk at byte 40\): exceeds a limit: max_field_cells is 100, asked for 768 \(raise it with --max-field-cells\)" -- "$B" verify --max-field-cells 100 "$T/ff.fxr"
"$B" record --scenario scenarios/example.yaml --ticks 300 --out "$T/ex-ff.fxr" >/dev/null
expect 0 "300 ticks verified" -- "$B" verify "$T/ex-ff.fxr"
expect 0 "1,3,100.10001,1150.00000,0.10001,0.00000," -- "$B" trace --scenario scenarios/example.yaml --ticks 1
field_bad() { # field_bad LINE PATTERN FIELD-YAML: a field section whose mistake is on LINE
  printf 'agents:\n  - {name: a, position: [1, 2], behaviors: [{kind: flow_field}]}\nfield:\n%s\n' "$3" > "$T/bad.yaml"
  bad "$1" "$2"
}
field_bad 4 "field: needs cell_size, columns and rows" '  columns: 4'
field_bad 4 "columns: expected a whole number up to 32767" '  {cell_size: 1, columns: 32768, rows: 1}'
field_bad 4 "field: columns x rows = 1073676289 cells; expected 1 to 1048576" '  {cell_size: 1, columns: 32767, rows: 32767}'
field_bad 4 "field: columns x rows = 0 cells" '  {cell_size: 1, columns: 0, rows: 3}'
field_bad 4 "field: cell_size must be greater than 0" '  {cell_size: -2, columns: 2, rows: 3}'
field_bad 4 "unknown key 'colums' in field" '  {cell_size: 1, colums: 2, rows: 3}'
field_bad 4 "field fill kind \(uniform, toward, vortex, goal\): 'spiral' is not one of" '  {cell_size: 1, columns: 2, rows: 3, fill: {kind: spiral}}'
field_bad 4 "unknown key 'point' in a field fill" '  {cell_size: 1, columns: 2, rows: 3, fill: {kind: uniform, point: [1, 1]}}'
field_bad 4 "field fill vortex needs a 'center'" '  {cell_size: 1, columns: 2, rows: 3, fill: {kind: vortex}}'
field_bad 7 "field cells: columns \[1, 3\) x rows \[0, 1\) do not lie inside the 2 x 3 grid" '  cell_size: 1
  columns: 2
  rows: 3
  cells: [{column: 1, row: 0, columns: 2, flow: [1, 0]}]'
field_bad 5 "a block of field cells needs a 'flow'" '  {cell_size: 1, columns: 2, rows: 3,
    cells: [{column: 0, row: 0}]}'
printf 'agents:\n  - {name: a, position: [1, 2]}\nevents:\n  - {tick: 3, field_fill: {kind: toward, point: [0, 0]}}\n' > "$T/bad.yaml"; bad 4 "a field event needs a 'field' section"
# Map events: walls and obstacles added and removed at a tick (a removal names the wall or
# obstacle by its coordinates, a wall's ends in either order; the lowest live slot holding
# them is removed), blocks of navigation costs.
cat > "$T/map.yaml" <<'YAML'
world: {bounds: [0, 0, 200, 200]}
obstacles:
  - [50, 50, 5]
walls:
  - [10, 10, 10, 90]
agents:
  - {name: a, position: [20, 20], target: [180, 180], behaviors: [{kind: navigate}]}
events:
  - {tick: 3, add_wall: [100, 0, 100, 150]}
  - {tick: 3, add_obstacle: [150, 150, 10]}
  - {tick: 5, remove_wall: [10, 90, 10, 10], set_costs: [0, 0, 4, 4, 7]}
  - {tick: 6, remove_obstacle: [150, 150, 10]}
  - {tick: 7, remove_wall: [100, 0, 100, 150]}
  - {tick: 8, remove_obstacle: [50, 50, 5]}
YAML
expect 0 "recorded .*, 20 ticks" -- "$B" record --scenario "$T/map.yaml" --ticks 20 --out "$T/map.fxr"
expect 0 "20 ticks verified" -- "$B" verify "$T/map.fxr"
out=$("$B" dump "$T/map.fxr" 2>&1)
want='capacity: 1 agents, 2 obstacles, 2 walls
add_wall +src 2 seq 0 agent 0x00000000 ref 0x0 args 100.0000 0.0000 100.0000 150.0000
remove_wall +src 2 seq 0 agent 0x00000000 ref 0x0 args 0.0000
set_nav_costs +src 2 seq 1 agent 0x00000000 ref 0x0 args 0.0000 0.0000 4.0000 4.0000 7.0000
remove_obstacle +src 2 seq 0 agent 0x00000000 ref 0x1 args
remove_wall +src 2 seq 0 agent 0x00000000 ref 0x1 args
remove_obstacle +src 2 seq 0 agent 0x00000000 ref 0x0 args'
ok=1
while IFS= read -r line; do printf '%s\n' "$out" | grep -qE -- "$line" || { ok=0; echo "FAIL: map events: no '$line' in the dump"; }; done <<< "$want"
if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); printf '%s\n' "$out" | head -30; fi
mapbad() { # LINE MESSAGE EVENT: the map scene with one more event, refused at LINE
  { cat "$T/map.yaml"; printf '  - %s\n' "$3"; } > "$T/bad.yaml"; bad "$1" "$2"
}
mapbad 15 "remove_wall: no wall with these coordinates stands at tick 9" "{tick: 9, remove_wall: [100, 0, 100, 150]}"
mapbad 15 "remove_wall: no wall with these coordinates stands at tick 2" "{tick: 2, remove_wall: [100, 0, 100, 150]}"
mapbad 15 "remove_obstacle: no obstacle with these coordinates stands at tick 9" "{tick: 9, remove_obstacle: [1, 2, 3]}"
mapbad 15 "add_wall \[ax, ay, bx, by\]: expected a list of 4 numbers" "{tick: 9, add_wall: [1, 2, 3]}"
mapbad 15 "add_obstacle: radius must not be negative" "{tick: 9, add_obstacle: [1, 2, -3]}"
mapbad 15 "set_costs: expected a list of 5 whole numbers" "{tick: 9, set_costs: [1, 2, 3]}"
mapbad 15 "set_costs cost: expected a whole number up to 254" "{tick: 9, set_costs: [0, 0, 1, 1, 255]}"
mapbad 15 "set_costs column: expected a whole number" "{tick: 9, set_costs: [-1, 0, 1, 1, 2]}"
mapbad 15 "set_costs: columns \[48, 58\) x rows \[0, 1\) do not lie inside the 25 x 25 navigation grid" "{tick: 9, set_costs: [48, 0, 10, 1, 2]}"
printf 'agents:\n  - {name: a, position: [1, 2]}\nevents:\n  - {tick: 3, set_costs: [0, 0, 1, 1, 2]}\n' > "$T/bad.yaml"; bad 4 "set_costs needs navigation"
# A navigation grid the library refuses, said in a sentence (not "is exceeds a limit").
printf 'agents:\n  - {name: a, position: [1, 2]}\nnavigation: {cell_size: 1, columns: 2000, rows: 2000}\n' > "$T/bad.yaml"; bad 3 "navigation: a grid of 2000 x 2000 cells of 1.00000 units from \\(0.00000, 0.00000\\) is too large \\(at most 32767 a side and 1048576 cells"
printf 'agents:\n  - {name: a, position: [1, 2]}\nnavigation: {cell_size: 10, origin: [30000, 0], columns: 400, rows: 4}\n' > "$T/bad.yaml"; bad 3 "navigation: a grid of 400 x 4 cells of 10.00000 units from \\(30000.00000, 0.00000\\) is out of range \\("
# An unreachable target (inside a closed box): the agent rests exactly on the centre of the
# reachable cell nearest it (cell 66, 29 of 10 units: the target's cell is 58, 29; the cells
# within the radius of the box's walls are blocked), velocity 0, its heading kept.
expect 0 "^900,0,665\.00000,295\.00000,0\.00000,0\.00000,1\.68790\$" -- "$B" trace --scenario scenarios/nav_unreachable.yaml
# move events: the RTS click, one group per event.
printf 'agents:\n  - {name: a, position: [1, 2]}\nevents:\n  - {tick: 3, move: {agents: [a, b], to: [5, 5]}}\n' > "$T/bad.yaml"; bad 4 "move: no agent named 'b'"
printf 'agents:\n  - {name: a, position: [1, 2]}\nevents:\n  - {tick: 3, move: {agents: [a], to: [5, 5], gap: -1}}\n' > "$T/bad.yaml"; bad 4 "move: gap must lie in \\[0, 1024\\]"
printf 'agents:\n  - {name: a, position: [1, 2]}\nevents:\n  - {tick: 3, move: {agents: [a]}}\n' > "$T/bad.yaml"; bad 4 "a move needs 'agents' \\(a list of names\\) and 'to'"
printf 'agents:\n  - {name: a, position: [1, 2]}\nevents:\n  - {tick: 3, move: {agents: [a], dest: [5, 5]}}\n' > "$T/bad.yaml"; bad 4 "unknown key 'dest' in a move"
printf 'agents:\n  - {name: a, position: [1, 2]}\nevents:\n  - {tick: 3, move: {agents: [], to: [5, 5]}}\n' > "$T/bad.yaml"; bad 4 "move: agents must name at least one agent"
printf 'agents:\n  - {name: a, position: [10, 20]}\n  - {name: b, position: [10, 40]}\nevents:\n  - {tick: 3, move: {agents: [b, a], to: [100, 20], gap: 2}}\n' > "$T/move.yaml"
expect 0 "recorded" -- "$B" record --scenario "$T/move.yaml" --ticks 10 --out "$T/move.fxr"
# Both commands of the event carry its tag and gap, in the list's order (b, then a).
expect 0 "move +src 2 seq 0 agent 0x00000002 ref (0x[0-9a-f]+) args 100.0000 20.0000 2.0000 .*move +src 2 seq 1 agent 0x00000001 ref \\1 args 100.0000 20.0000 2.0000 " -- sh -c "'$B' dump '$T/move.fxr' | tr '\\n' ' '"

# Replay surgery in Ruby (always present where Ceedling runs):
#   forge IN OUT WHAT: WHAT is "hash120" (flip the hash of tick 120), "version",
#   "fingerprint" or "simulation" (flip a header field), "end" (the END hash), "keyframe" (the first one) or
#   "noticks" (END, of 0 ticks, right after the snapshot);
#   the chunk's checksum is re-sealed so that the reader
#   gets to the field.  boundaries IN: prints every chunk offset.
forge() {
  ruby -e '
    d = File.binread(ARGV[0]); what = ARGV[2]; at = 0
    fnv = lambda { |s| h = 0xcbf29ce484222325; s.each_byte { |b| h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff }; h }
    while at + 8 <= d.bytesize
      tag = d[at, 4]; len = d[at + 4, 4].unpack1("V"); target = nil
      target = at + 8 + len - 8 if what == "hash120" && tag == "TICK" && d[at + 8, 4].unpack1("V") == 120
      target = at + 12 if what == "version" && tag == "FXSH"
      target = at + 16 if what == "fingerprint" && tag == "FXSH"
      target = at + 28 if what == "simulation" && tag == "FXSH"
      target = at + 12 if what == "end" && tag == "END "
      target = at + 8 + 4 + 60 if what == "keyframe" && tag == "KEYF"
      target = at + 8 + len - 1 if what == "keyfield" && tag == "KEYF" # the last field cell
      if what == "noticks" && tag == "TICK" # END right after the snapshot: 0 ticks, hash 0
        body = "END " + [12].pack("V") + [0, 0].pack("VQ<")
        d = d[0, at] + body + [fnv.call(body)].pack("Q<"); break
      end
      if target # the simulation version one up (a flip could make it 0, "before versions")
        d.setbyte(target, what == "simulation" ? (d.getbyte(target) + 1) & 0xff : d.getbyte(target) ^ 2)
        d[at + 8 + len, 8] = [fnv.call(d[at, 8 + len])].pack("Q<"); break
      end
      at += 16 + len
    end
    File.binwrite(ARGV[1], d)' "$1" "$2" "$3"
}
boundaries() {
  ruby -e 'd = File.binread(ARGV[0]); at = 0
    while at + 8 <= d.bytesize do puts at; at += 16 + d[at + 4, 4].unpack1("V") end' "$1"
}

expect 2 "v1-header.fxr: byte 12: unsupported format version 1 \(this build reads 2 to 4\): re-record it" -- "$B" verify test/fixtures/v1-header.fxr
forge "$T/a.fxr" "$T/version.fxr" version
expect 2 "$T/version.fxr: byte 12: unsupported format version" -- "$B" verify "$T/version.fxr"
forge "$T/a.fxr" "$T/fp.fxr" fingerprint
expect 2 "$T/fp.fxr: byte 16 \(in the FXSH chunk at byte 0\): recorded with different math" -- "$B" verify "$T/fp.fxr"
# Another simulation version (the header's version byte patched, resealed): both versions are
# named and the exit code is 4, not a divergence's 1; the same from every reader of replays.
# The build's simulation version (version.h's FXS_SIMULATION_VERSION), and the forged one above it.
sim=$("$B" --version | sed -nE 's/.*simulation version ([0-9]+)\).*/\1/p' | head -n1)
other=$((sim + 1))
forge "$T/a.fxr" "$T/sim.fxr" simulation
expect 4 "$T/sim.fxr: byte 28 \(in the FXSH chunk at byte 0\): recorded by simulation version $other; this build runs $sim" -- "$B" verify "$T/sim.fxr"
expect 4 "sim.fxr: byte 28 .*recorded by simulation version $other; this build runs $sim" -- "$B" trace "$T/sim.fxr"
expect 0 "^simulation version $other \(OTHER BUILD\)" -- sh -c "'$B' dump '$T/sim.fxr' | sed -n 2p"
expect 0 "simulation versions differ: A $sim, B $other" -- "$B" diff "$T/a.fxr" "$T/sim.fxr"
# A replay of an older simulation version this build still runs verifies by its own rules
# (test/golden/v4: nav_crowd as version 4 recorded it); one older than that is refused by name.
expect 0 "v4/nav_crowd.fxr: 700 ticks verified, final hash 0x21229dd72c8f1a42" -- "$B" verify test/golden/v4/nav_crowd.fxr
expect 0 "^simulation version 4 \(an older one this build verifies by its rules\)" -- sh -c "'$B' dump test/golden/v4/nav_crowd.fxr | sed -n 2p"
# A replay of format 2, recorded before simulation versions existed, verified under simulation
# version 1; simulation version 2 (calm headings: a slow agent no longer snaps its heading to
# its velocity, seek_wind's first tick already differs) does not reproduce it, and that is
# reported as such (exit 4), not as a desync; so is one whose hash was changed.
expect 4 "v2-seek_wind.fxr: recorded before simulation versions existed \(replay format 2\); this build runs simulation version $sim and does not reproduce it: re-record it with this build" -- "$B" verify test/fixtures/v2-seek_wind.fxr
expect 0 "^simulation version: none \(recorded before simulation versions existed\)" -- sh -c "'$B' dump test/fixtures/v2-seek_wind.fxr | sed -n 2p"
forge test/fixtures/v2-seek_wind.fxr "$T/v2-changed.fxr" hash120
expect 4 "v2-changed.fxr: recorded before simulation versions existed \(replay format 2\); this build runs simulation version $sim and does not reproduce it: re-record it with this build" -- "$B" verify "$T/v2-changed.fxr"
expect 4 "v2-changed.fxr: recorded before simulation versions existed \(replay format 2\)" -- "$B" trace "$T/v2-changed.fxr"
all_ok=1
for cut in $(boundaries "$T/a.fxr"); do # truncation at every chunk boundary (the first: empty)
  head -c "$cut" "$T/a.fxr" > "$T/cut.fxr"
  out=$("$B" verify "$T/cut.fxr" 2>&1); rc=$?
  if [ "$rc" -ne 2 ] || ! printf '%s' "$out" | grep -qE "byte [0-9]+[^:]*: (data ends early|not a fixsteer file)"; then
    all_ok=0; printf 'FAIL: truncation at %s: exit %s\n%s\n' "$cut" "$rc" "$out"
  fi
done
if [ "$all_ok" -eq 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi

# Files that are not replays, or that ask for more than the limits allow.
expect 2 "cannot read /dev/zero: not a regular file" -- "$B" verify /dev/zero
expect 2 "cannot read $T: not a regular file" -- "$B" verify "$T"
head -c 5000000 /dev/zero > "$T/zeros.fxr"
expect 2 "zeros.fxr: byte 0: not a fixsteer file" -- "$B" verify "$T/zeros.fxr"
expect 2 "byte [0-9]+ \(in the SNAP chunk at byte 40\): exceeds a limit: max_agents is 2, asked for [0-9]+ \(raise it with --max-agents\)" -- "$B" verify --max-agents 2 "$T/a.fxr"
expect 2 "exceeds a limit: max_bytes is 1000" -- "$B" verify --max-bytes=1000 "$T/a.fxr"
expect 2 "exceeds a limit: max_ticks is 10" -- "$B" verify --max-ticks 10 "$T/a.fxr"
# A failed record leaves no file behind.
rm -f "$T/none.fxr"
expect 2 "unknown scenario" -- "$B" record --scenario nope --out "$T/none.fxr"
if [ ! -e "$T/none.fxr" ] && ! ls "$T" | grep -q 'tmp-'; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: partial output left"; fi
# Two recordings of different sessions are not a divergence: they are a usage error.
"$B" record --scenario flock --ticks 300 --keyframe 50 --out "$T/other.fxr" >/dev/null
expect 2 "not recordings of the same session" -- "$B" diff "$T/a.fxr" "$T/other.fxr"

# The parameter documentation is generated from the library's table and must be current.
# size: the world's and the snapshot's bytes by capacity, from the library's size functions
# (examples/rts/rts.c prints the same world size, 354520); with --ticks, the run's largest
# snapshot and the searches' use; advice on navigation only when the scene navigates.
expect 0 "^size rts: world 354520 bytes .* snapshot at most 204354 bytes .* 7257 at tick 0" -- "$B" size examples/rts/rts.yaml
expect 0 "nav_searches +4 +216272 +72092\.0 +144120 +48040\.0" -- "$B" size examples/rts/rts.yaml
expect 0 "searches: nav_searches 4 x 72000 bytes = 288000: each 13\.0 bytes a grid cell, 8\.0 an open-list entry" -- "$B" size examples/rts/rts.yaml
expect 0 "largest open list 188 of 1200 entries" -- "$B" size --scenario examples/rts/rts.yaml --ticks 900
expect 0 "largest snapshot over 900 ticks: 14674 bytes \(tick 452\)" -- "$B" size examples/rts/rts.yaml --ticks 900
# forty.yaml leaves open out: (4 x 15625 + 4) / 5 = 12500 entries, the most a search can hold.
expect 0 "^size forty: world 1418648 bytes .* snapshot at most 801545 bytes" -- "$B" size examples/rts/forty.yaml
expect 0 "nav_open +12500 +399968 +32\.0 +199984 +16\.0" -- "$B" size examples/rts/forty.yaml
out=$("$B" size hunter_prey 2>&1)
if printf '%s\n' "$out" | grep -qE '^size hunter_prey: world [0-9]+ bytes' && ! printf '%s\n' "$out" | grep -qE 'nav_|advice'; then
  pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: size of a scene without navigation:"; echo "$out"; fi
expect 2 "a scenario name or a scene file is needed" -- "$B" size
expect 2 "unknown scenario 'nope.yaml'" -- "$B" size nope.yaml
printf 'agents:\n  - {name: a, position: [1, 2], speed: 3}\n' > "$T/bad-size.yaml"
expect 2 "bad-size.yaml:2: unknown key 'speed'" -- "$B" size "$T/bad-size.yaml"

out=$("$B" params --markdown 2>&1)
if [ "$out" = "$(cat docs/behavior-params.md)" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: docs/behavior-params.md is stale: run fixsteer params --markdown > docs/behavior-params.md"; fi
expect 0 "wander +1 +circle_radius +units" -- "$B" params
# Length defaults in body radii, force defaults in max forces, with the default agent's value.
expect 0 "obstacle_avoidance +0 +max_see_ahead +units +\\[0, max\\] +7.5 r \\(60\\)" -- "$B" params
expect 0 "obstacle_avoidance +1 +max_avoid_force +force +\\[0, max\\] +4 F \\(1\\)" -- "$B" params

# Scenario files within limits: aliases are counted written out, cycles and devices refused.
cp test/fuzz-regressions/fuzz_scenario_yaml/alias-events-hang "$T/alias.yaml"
expect 2 "alias.yaml:2: column [0-9]+: with its aliases written out the file has more than 1000000 nodes \(raise it with --max-yaml-nodes\)" -- "$B" record --scenario "$T/alias.yaml" --out "$T/alias.fxr"
printf 'a: &a [*a]\n' > "$T/cycle.yaml"
expect 2 "cycle.yaml:1: column 8: an alias refers to a node that contains it" -- "$B" trace --scenario "$T/cycle.yaml"
expect 2 "/dev/zero: the file is larger than the limit of 67108864 bytes \(raise it with --max-yaml-bytes\)" -- "$B" trace --scenario /dev/zero
expect 2 "example.yaml: the file is larger than the limit of 100 bytes" -- "$B" trace --scenario scenarios/example.yaml --max-yaml-bytes 100

# expect_fast MS CODE PATTERN -- COMMAND...: as expect, and done within MS milliseconds of
# CPU time (user and system, the command and its children: what it costs, not what a loaded
# machine makes the wall clock say; a run is stopped after 60 s of wall clock). Prints the
# time taken and the command's arguments.
expect_fast() {
  local ms=$1 code=$2 pattern=$3; shift 4
  local res rc took
  res=$( (timeout 60 "$@" >"$T/fast.out" 2>&1; echo "rc $?"; times) )
  rc=$(printf '%s\n' "$res" | sed -n 's/^rc //p')
  # `times`: the shell's own user and system time, then its children's ("0m1.234s 0m0.056s").
  took=$(printf '%s\n' "$res" | tail -n 1 | awk '{ t = 0; for (i = 1; i <= 2; ++i) { split($i, p, "m");
    sub("s", "", p[2]); t += p[1] * 60 + p[2] } printf "%d", t * 1000 }')
  local out; out=$(cat "$T/fast.out")
  printf 'time: %s ms of CPU: %s\n' "$took" "${*:2}"
  if [ "$rc" -eq "$code" ] && [ "$took" -lt "$ms" ] && printf '%s' "$out" | grep -qE -- "$pattern"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); printf 'FAIL: %s (exit %s, want %s; %s ms of CPU, want under %s)\n%s\n' "$*" "$rc" "$code" "$took" "$ms" "$out"
  fi
}
# Deep nesting is refused at the first sequence or mapping past the limit, before libyaml's
# scanner (whose work grows with the square of the open levels) gets far: 20,000 levels, and
# 200 KB of nested sequences, each within a second.
{ head -c 20000 /dev/zero | tr '\0' '['; head -c 20000 /dev/zero | tr '\0' ']'; } > "$T/deep.yaml"
expect_fast 1000 2 "deep.yaml:1: column 65: sequences and mappings nested more than 64 deep \(raise it with --max-yaml-depth\)" -- "$B" trace --scenario "$T/deep.yaml"
{ head -c 100000 /dev/zero | tr '\0' '['; head -c 100000 /dev/zero | tr '\0' ']'; } > "$T/deep200k.yaml"
expect_fast 1000 2 "deep200k.yaml:1: column 65: sequences and mappings nested more than 64 deep" -- "$B" trace --scenario "$T/deep200k.yaml"
expect_fast 1000 2 "deep200k.yaml:1: column 3: sequences and mappings nested more than 2 deep" -- "$B" trace --scenario "$T/deep200k.yaml" --max-yaml-depth 2
# A scene nests five deep (the file, agents, an agent, behaviors, a behavior): it loads at
# a limit of 5 and is refused at 4 where the fifth level opens.
expect 0 "recorded" -- "$B" record --scenario scenarios/example.yaml --ticks 2 --max-yaml-depth 5 --out "$T/d5.fxr"
expect 2 "example.yaml:18: column 13: sequences and mappings nested more than 4 deep" -- "$B" trace --scenario scenarios/example.yaml --max-yaml-depth 4
expect 2 "not a count: 0" -- "$B" trace --scenario scenarios/example.yaml --max-yaml-depth 0
# A key given twice in one mapping is refused, not resolved in favour of either.
printf 'agents:\n  - name: a\n    position: [1, 2]\n    position: [5, 5]\n' > "$T/bad.yaml"; bad 4 "column 5: duplicate key 'position' in a mapping \(first at line 3\)"
printf 'agents:\n  - {name: a, position: [1, 2]}\nticks: 10\nagents:\n  - {name: b, position: [1, 2]}\n' > "$T/bad.yaml"; bad 4 "column 1: duplicate key 'agents' in a mapping \(first at line 1\)"
printf 'agents:\n  - {name: a, position: [1, 2], behaviors: [{kind: seek, weight: 1, kind: flee}]}\n' > "$T/bad.yaml"; bad 2 "duplicate key 'kind' in a mapping \(first at line 2\)"
printf 'agents:\n  - {&k name: a, position: [1, 2], *k : b}\n' > "$T/bad.yaml"; bad 2 "column 36: duplicate key 'name' in a mapping \(first at line 2\)"
printf 'agents:\n  - {name: &n a, position: [1, 2]}\n  - {name: &n b, position: [1, 2]}\n' > "$T/bad.yaml"; bad 3 "column 12: anchor '&n' is defined twice \(first at line 2\)"
printf 'agents:\n  - {name: a, position: [1, 2]}\n---\nagents: []\n' > "$T/bad.yaml"; bad 3 "column 1: a second YAML document"
printf 'agents:\n  - {name: "a\\0b", position: [1, 2]}\n' > "$T/bad.yaml"; bad 2 "column 12: a NUL character inside a scalar"
# Names are looked up in a sorted index: two agents or two paths of one name are refused, and
# 65,534 agents each naming another take no quadratic time (before: 16 s at -O2, half for the
# names, half for the targets).
printf 'agents:\n  - {name: a, position: [1, 2]}\n  - {name: a, position: [3, 4]}\n' > "$T/bad.yaml"; bad 3 "two agents are named 'a'"
printf 'paths:\n  - {name: p, nodes: [[0, 0]]}\n  - {name: p, nodes: [[5, 5]]}\nagents:\n  - {name: a, position: [1, 2], path: p}\n' > "$T/bad.yaml"; bad 3 "two paths are named 'p'"
awk 'BEGIN { print "agents:"; for (i = 0; i < 65534; ++i) printf "  - {name: a%d, position: [%d, %d], target_agent: a%d}\n", i, i % 300, int(i / 300), 65533 - i }' > "$T/many.yaml"
expect_fast 4000 0 "recorded .*, 1 ticks" -- "$B" record --ticks 1 --scenario "$T/many.yaml" --out "$T/many.fxr"
# A scene's agents are its replay's initial state, not tick 0's input: a tick's 65,535
# commands bound its events only. 100,000 agents with a behavior each (12 YAML nodes an
# agent: --max-yaml-nodes raised) record; verify asks for --max-agents to be raised.
awk 'BEGIN { print "world:\n  bounds: [0, 0, 12000, 12000]\nagents:"; for (i = 0; i < 100000; ++i)
  printf "  - {name: a%d, position: [%d, %d], behaviors: [{kind: wander}]}\n", i, 10 + (i % 316) * 38, 10 + int(i / 316) * 38 }' > "$T/100k.yaml"
expect 2 "100k.yaml:[0-9]+: column [0-9]+: .*more than 1000000 nodes \(raise it with --max-yaml-nodes\)" -- "$B" record --scenario "$T/100k.yaml" --ticks 2 --out "$T/100k.fxr"
expect 0 "recorded .*, 2 ticks" -- "$B" record --max-yaml-nodes 1500000 --scenario "$T/100k.yaml" --ticks 2 --out "$T/100k.fxr"
expect 2 "100k.fxr: byte [0-9]+ \(in the SNAP chunk at byte 40\): exceeds a limit: max_agents is 65534, asked for 100000 \(raise it with --max-agents\)" -- "$B" verify "$T/100k.fxr"
expect 0 "2 ticks verified" -- "$B" verify --max-agents 100000 "$T/100k.fxr"
expect 0 "at tick 0: 100000 agents" -- sh -c "'$B' dump --max-agents 100000 '$T/100k.fxr' | sed -n 4p"
rm -f "$T/100k.yaml" "$T/100k.fxr"
# Events still travel as a tick's input: more than 65,535 of them at one tick are refused.
awk 'BEGIN { print "agents:\n  - {name: a, position: [1, 2]}\nevents:"; for (i = 0; i < 65536; ++i) print "  - {tick: 3, agent: a, target: [5, 5]}" }' > "$T/busy.yaml"
expect 2 "busy.yaml:1: more than 65535 commands at tick 3; spread the events over more ticks" -- "$B" record --scenario "$T/busy.yaml" --out "$T/busy.fxr"
# ticks: 0 is refused where it is written, as --ticks 0 is: a replay without a tick is
# refused by verify (below, one forged from a recording).
printf 'ticks: 0\nagents:\n  - {name: a, position: [1, 2]}\n' > "$T/bad.yaml"; bad 1 "ticks: expected a whole number from 1 to 10000000"
expect 0 "recorded .*, 1 ticks" -- "$B" record --scenario "$T/exact.yaml" --out "$T/one.fxr" --ticks 1
expect 0 "1 ticks verified" -- "$B" verify "$T/one.fxr"
forge "$T/one.fxr" "$T/noticks.fxr" noticks
expect 2 "noticks.fxr: byte [0-9]+ \(in the END  chunk at byte [0-9]+\): the replay holds no ticks" -- "$B" verify "$T/noticks.fxr"
# A file over the size limit is refused before it is read: 65 MiB (sparse) against 64 MiB.
truncate -s 65M "$T/huge.yaml"
expect_fast 1000 2 "huge.yaml: the file is larger than the limit of 67108864 bytes \(raise it with --max-yaml-bytes\)" -- "$B" trace --scenario "$T/huge.yaml"
# 10 MB of one-byte numbers: refused at the node limit, with memory a small multiple of the
# file (measured where /usr/bin/time exists and the tool is not built with AddressSanitizer,
# whose allocator keeps freed memory).
{ printf 'agents: ['; yes '1,' | head -n 5000000 | tr -d '\n'; printf '1]\n'; } > "$T/flat.yaml"
if [ -x /usr/bin/time ] && ! grep -q __asan_init "$B"; then
  out=$(/usr/bin/time -f 'peak %M KB' "$B" trace --scenario "$T/flat.yaml" 2>&1); rc=$?
  kb=$(printf '%s' "$out" | sed -n 's/^peak \([0-9]*\) KB$/\1/p')
  echo "memory: $kb KB at peak for a $(( $(stat -c %s "$T/flat.yaml") / 1024 )) KB file"
  if [ "$rc" -eq 2 ] && [ -n "$kb" ] && [ "$kb" -lt 100000 ] && printf '%s' "$out" | grep -q "more than 1000000 nodes"; then
    pass=$((pass + 1)); else fail=$((fail + 1)); printf 'FAIL: memory of a 10 MB file (exit %s)\n%s\n' "$rc" "$out"; fi
else
  expect 2 "flat.yaml:1: column 2000004: .* more than 1000000 nodes" -- "$B" trace --scenario "$T/flat.yaml"
fi

# A 10,000-agent scenario file: 40,000 commands in its first tick.
awk 'BEGIN { print "world:\n  bounds: [0, 0, 4000, 4000]\nagents:";
  for (i = 0; i < 10000; ++i) printf "  - name: a%d\n    position: [%d, %d]\n    behaviors:\n      - {kind: wander}\n      - {kind: separation}\n", i, 10 + (i % 100) * 39, 10 + int(i / 100) * 39 }' > "$T/big.yaml"
expect 0 "recorded .*, 5 ticks" -- "$B" record --scenario "$T/big.yaml" --ticks 5 --out "$T/big.fxr"
expect 0 "5 ticks verified" -- "$B" verify "$T/big.fxr"

# A recording whose hash at tick 120 is one bit off: a diverged peer.
forge "$T/a.fxr" "$T/bad.fxr" hash120
expect 1 "DIVERGED at tick 120" -- "$B" verify "$T/bad.fxr"
expect 1 "first divergent tick 120" -- "$B" diff "$T/a.fxr" "$T/bad.fxr"
# late IN OUT S: the replay a player who joined at tick S (a keyframe tick of IN) records of
# the same session: IN's keyframe after tick S - 1 as its initial snapshot, IN's ticks from S,
# END counting the ticks from S. diff lines replays up by tick: the ticks both hold are
# compared, and the different starts are named first.
late() {
  ruby -e '
    d = File.binread(ARGV[0]); s = ARGV[2].to_i; at = 0; out = "".b; snap = nil
    fnv = lambda { |x| h = 0xcbf29ce484222325; x.each_byte { |b| h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff }; h }
    chunk = lambda { |tag, body| c = tag + [body.bytesize].pack("V") + body; c + [fnv.call(c)].pack("Q<") }
    while at + 8 <= d.bytesize
      tag = d[at, 4]; len = d[at + 4, 4].unpack1("V"); body = d[at + 8, len]; whole = d[at, 16 + len]
      tick = len >= 4 ? body.unpack1("V") : 0
      case tag
      when "FXSH" then out << whole
      when "SNAP" then snap = out.bytesize
      when "KEYF" then tick == s ? out.insert(snap, chunk.call("SNAP", body[4..])) : (tick > s && out << whole)
      when "TICK" then out << whole if tick >= s
      when "END " then out << chunk.call("END ", [tick - s].pack("V") + body[4, 8])
      end
      at += 16 + len
    end
    File.binwrite(ARGV[1], out)' "$1" "$2" "$3"
}
late "$T/a.fxr" "$T/late.fxr" 100
expect 0 "late.fxr: 200 ticks verified" -- "$B" verify "$T/late.fxr"
expect 0 "starts differ: A holds ticks from 0, B from 100; compared: the ticks both hold, from 100" -- "$B" diff "$T/a.fxr" "$T/late.fxr"
expect 0 "identical over the common ticks: 200 ticks \(100\.\.299\), final hash" -- "$B" diff "$T/a.fxr" "$T/late.fxr"
expect 0 "starts differ: A holds ticks from 100, B from 0" -- "$B" diff "$T/late.fxr" "$T/a.fxr"
expect 1 "first divergent tick 120" -- "$B" diff "$T/bad.fxr" "$T/late.fxr"
late "$T/a.fxr" "$T/later.fxr" 250
expect 0 "identical over the common ticks: 50 ticks \(250\.\.299\)" -- "$B" diff "$T/late.fxr" "$T/later.fxr"
expect 0 "recorded" -- "$B" record --scenario patrol --ticks 100 --keyframe 50 --out "$T/first100.fxr"
expect 1 "lengths differ: one recording ends at tick 100" -- "$B" diff "$T/first100.fxr" "$T/a.fxr"
expect 2 "first100.fxr holds no tick 250, where .*later.fxr starts: no tick to compare" -- "$B" diff "$T/first100.fxr" "$T/later.fxr"
# Forgeries with valid checksums that only the re-simulation can see.
forge "$T/a.fxr" "$T/end.fxr" end
expect 1 "DIVERGED at tick 299 \(byte [0-9]+\): final hash in END differs" -- "$B" verify "$T/end.fxr"
forge "$T/a.fxr" "$T/key.fxr" keyframe
expect 1 "DIVERGED at tick 49 \(byte [0-9]+\): keyframe differs from the re-simulated state" -- "$B" verify "$T/key.fxr"
forge "$T/ff.fxr" "$T/keyfield.fxr" keyfield
expect 1 "DIVERGED at tick 99 .*keyframe differs.* at tick 100 \(keyframe\): field.cell.y: recorded" -- sh -c "'$B' verify '$T/keyfield.fxr' 2>&1 | tr '\n' ' '; exit \$(( \$('$B' verify '$T/keyfield.fxr' >/dev/null 2>&1; echo \$?) ))"


# stats: figures of a scenario or of a replay (the same run gives the same figures).
expect 0 "body centres in a doorway +[0-9]+ at once" -- "$B" stats --scenario queue --ticks 300
expect 0 '"doorway_max": [0-9]+,' -- "$B" stats --json --scenario queue --ticks 300
"$B" stats --json --scenario patrol --ticks 300 | sed 1,3d > "$T/s1.json"
"$B" stats --json "$T/a.fxr" | sed 1,3d > "$T/s2.json"
if cmp -s "$T/s1.json" "$T/s2.json" && [ -s "$T/s1.json" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: stats of a replay differ from its scenario's"; fi
expect 2 "needs --scenario or one replay FILE" -- "$B" stats
# trace reads a replay as well as a scene: the same rows, and a diverged replay is named
"$B" trace --scenario patrol --ticks 300 > "$T/trace-scene.csv"
"$B" trace "$T/a.fxr" > "$T/trace-replay.csv"
if cmp -s "$T/trace-scene.csv" "$T/trace-replay.csv" && [ "$(wc -l < "$T/trace-replay.csv")" -gt 300 ]; then
  pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: trace of a replay differs from its scenario's"; fi
expect 0 "^300,4," -- sh -c "'$B' trace --ticks 300 '$T/a.fxr' | tail -n 1"
expect 2 "ticks is more than the replay holds" -- "$B" trace --ticks 301 "$T/a.fxr"
expect 2 "needs --scenario or one replay FILE" -- "$B" trace
expect 2 "text.fxr: byte 0: not a fixsteer file" -- "$B" trace "$T/text.fxr"
expect 1 "bad.fxr: DIVERGED at tick 120" -- "$B" trace "$T/bad.fxr"
expect 2 "unknown scenario 'nope'" -- "$B" stats --scenario nope
expect 2 "text.fxr: byte 0: not a fixsteer file" -- "$B" stats "$T/text.fxr"
expect 1 "bad.fxr: DIVERGED at tick 120" -- "$B" stats "$T/bad.fxr"

# stats judges each agent going to a target point once, against its own radius: on it
# (within r/4), in a goal cluster (at rest, within 1.3 r sqrt(N) of a point N share), at rest
# short (none of these); agents that cannot move make the figures exact.
cat > "$T/goals.yaml" <<'YAML'
ticks: 5
world: {bounds: [0, 0, 400, 400]}
agents:
  - {name: a, position: [100, 100], target: [100, 100], max_speed: 0, behaviors: [{kind: arrive}]}
  - {name: b, position: [101, 100], target: [100, 100], max_speed: 0, behaviors: [{kind: arrive}]}
  - {name: c, position: [100, 112], target: [100, 100], max_speed: 0, behaviors: [{kind: arrive}]}
  - {name: d, position: [100, 160], target: [100, 100], max_speed: 0, behaviors: [{kind: arrive}]}
  - {name: e, position: [300, 300], target: [300, 330], max_speed: 0, behaviors: [{kind: arrive}]}
YAML
"$B" stats --json --home-distance 20 --scenario "$T/goals.yaml" > "$T/goals.json"
for kv in '"goal_agents": 5' '"on_target": 2' '"goal_cluster": 1' '"rest_short": 2' '"rest_stranded": 2' \
          '"arrived": 3' '"home_distance": 20.00000' '"home_ever": 3' '"home_50_tick": 1' '"home_90_tick": -1' \
          '"overlap_radius_max": 1.875000' '"closest_pair_ratio": 0.062500'; do
  if grep -qF "$kv," "$T/goals.json"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: stats of goals.yaml lacks $kv"; cat "$T/goals.json"; fi
done
expect 0 "2 on it \(centre within r/4\), 1 in a goal cluster" -- "$B" stats --scenario "$T/goals.yaml"
expect 2 "home-distance needs a distance in units greater than 0" -- "$B" stats --home-distance -3 --scenario "$T/goals.yaml"
expect 2 "home-distance needs a distance in units greater than 0" -- "$B" stats --home-distance 0 --scenario "$T/goals.yaml"

# render: an SVG that parses as XML and a PNG beside it; two replays; bad input leaves nothing.
well_formed() { # well_formed SVG PNG: an <svg> XML document, and a PNG file
  ruby -rrexml/document -e 'exit(REXML::Document.new(File.read(ARGV[0])).root.name == "svg")' "$1" 2>/dev/null &&
    [ "$(head -c 4 "$2" | od -An -tx1 | tr -d ' ')" = 89504e47 ]
}
expect 0 "wrote $T/q.svg and $T/q.png" -- "$B" render --scenario queue --ticks 300 --at 1,150,300 --out "$T/q.svg"
if well_formed "$T/q.svg" "$T/q.png" && grep -q "bodies and headings at ticks 1, 150, 300" "$T/q.svg"; then
  pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: render wrote no well-formed SVG and PNG"; fi
expect 0 "wrote $T/two.svg and" -- "$B" render "$T/a.fxr" "$T/b.fxr" --out "$T/two.svg"
if well_formed "$T/two.svg" "$T/two.png" && grep -q "agree at every tick" "$T/two.svg"; then
  pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: render of two equal replays"; fi
expect 1 "bad.fxr: DIVERGED at tick 120" -- "$B" render "$T/a.fxr" "$T/bad.fxr" --out "$T/div.svg" --no-png
if grep -q "first divergent tick 120" "$T/div.svg" && [ ! -e "$T/div.png" ]; then
  pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: render of a diverged replay"; fi
expect 2 "out must name a .svg file" -- "$B" render --scenario queue --out "$T/x.png"
expect 2 "needs --out FILE.svg" -- "$B" render --scenario queue
expect 2 "at names a tick outside the run: 50 \(the run has ticks 0..10\)" -- "$B" render --scenario patrol --ticks 10 --at 50 --out "$T/x.svg"
expect 2 "at needs up to 32 ticks separated by commas" -- "$B" render --scenario patrol --at 1,x --out "$T/x.svg"
expect 2 "view needs X0,Y0,X1,Y1" -- "$B" render --scenario patrol --view 5,5,1 --out "$T/x.svg"
# --size W,H: the picture W wide and at most H tall (the map fitted between the header and the
# legend); without it 800 wide; sizes outside the limits or not whole numbers are refused.
expect 0 "wrote" -- "$B" render --scenario examples/rts/rts.yaml --size 1280,720 --no-png --out "$T/wide.svg"
expect 0 "<svg [^>]*width='1280' height='720'" -- cat "$T/wide.svg"
expect 0 "wrote" -- "$B" render --scenario examples/rts/rts.yaml --size 400,1000 --no-png --out "$T/narrow.svg"
expect 0 "<svg [^>]*width='400' height='450'" -- cat "$T/narrow.svg"
expect 0 "wrote" -- "$B" render --scenario examples/rts/rts.yaml --no-png --out "$T/default.svg"
expect 0 "<svg [^>]*width='800' height='703'" -- cat "$T/default.svg"
for bad in 100,100 800 800,x 800,600,1 -5,600 99999,600 800,+600 ,600; do
  expect 2 "--size needs W,H: whole pixels, W from 320 to 8192, H from 240 to 8192: ${bad//+/\\+}\$" -- "$B" render --scenario patrol --size "$bad" --out "$T/x.svg"
done
expect 2 "missing value for: --size" -- "$B" render --scenario patrol --out "$T/x.svg" --size
expect 2 "text.fxr: byte 0: not a fixsteer file" -- "$B" render "$T/text.fxr" --out "$T/x.svg"
if [ ! -e "$T/x.svg" ] && [ ! -e "$T/x.png" ] && ! ls "$T" | grep -q 'tmp-'; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: render left a partial output"; fi
# render --nav-fields: a group of four sharing a goal gets field 0, drawn by default and by
# its slot, left out with none; a slot without a field and a bad value are refused by name.
cat > "$T/group.yaml" <<'YAML'
name: group
ticks: 30
world: {bounds: [0, 0, 400, 300], clamp: true}
navigation: {cell_size: 10, budget: 2000, fields: 2}
walls:
  - [200, 0, 200, 200]
agents:
  - {name: a, position: [50, 40], target: [350, 60], behaviors: [{kind: navigate}]}
  - {name: b, position: [50, 80], target: [350, 60], behaviors: [{kind: navigate}]}
  - {name: c, position: [50, 120], target: [350, 60], behaviors: [{kind: navigate}]}
  - {name: d, position: [50, 160], target: [350, 60], behaviors: [{kind: navigate}]}
YAML
for which in "" all 0; do
  expect 0 "wrote $T/f.svg" -- "$B" render --scenario "$T/group.yaml" ${which:+--nav-fields $which} --no-png --out "$T/f.svg"
  if grep -q "a group's integration field after the last tick" "$T/f.svg" && grep -q ">field 0</text>" "$T/f.svg" &&
     [ "$(grep -c "fill-opacity='0\.[0-9]*'/>" "$T/f.svg")" -gt 20 ]; then
    pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: render --nav-fields '$which' drew no field"; fi
done
expect 0 "wrote $T/n.svg" -- "$B" render --scenario "$T/group.yaml" --nav-fields none --no-png --out "$T/n.svg"
if ! grep -q "integration field" "$T/n.svg" && ! grep -q ">field 0<" "$T/n.svg"; then
  pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: render --nav-fields none drew a field"; fi
expect 2 "nav-fields 1: no field in that slot after the last tick; live slots: 0\$" -- "$B" render --scenario "$T/group.yaml" --nav-fields 1 --out "$T/x.svg"
expect 2 "nav-fields 0: no field in that slot after the last tick; live slots: none: the run has no field of a group" -- "$B" render --scenario scenarios/nav_wall.yaml --ticks 5 --nav-fields 0 --out "$T/x.svg"
for bad in 64 -1 +1 " 1" x 1x ""; do
  expect 2 "nav-fields needs all, none or a field slot 0..63: ${bad//+/\\+}\$" -- "$B" render --scenario "$T/group.yaml" --nav-fields "$bad" --out "$T/x.svg"
done
expect 2 "missing value for: --nav-fields" -- "$B" render --scenario "$T/group.yaml" --out "$T/x.svg" --nav-fields
if [ ! -e "$T/x.svg" ] && [ ! -e "$T/x.png" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: render --nav-fields refused left an output"; fi

# ------------------------------------------------------------------ progress
# Long work shows progress on stderr when it is a terminal (script(1) gives the command one),
# never when it is piped, nor with --quiet.
if command -v script >/dev/null; then
  on_tty() { script -qec "$1" /dev/null 2>&1 | tr '\r' '\n'; }
  out=$(on_tty "'$B' record --scenario patrol --ticks 300 --out '$T/tty.fxr'")
  ok=1; printf '%s\n' "$out" | grep -q "^record: 100% (tick 300 of 300)" || ok=0
  printf '%s\n' "$out" | grep -q "^recorded $T/tty.fxr" || ok=0
  out=$(on_tty "'$B' verify '$T/tty.fxr'")
  printf '%s\n' "$out" | grep -qE "^verify: +[0-9]+% \(tick [0-9]+\)" || ok=0
  out=$(on_tty "'$B' trace '$T/tty.fxr' > '$T/tty.csv'")
  printf '%s\n' "$out" | grep -q "^trace: 100% (tick 300 of 300)" || ok=0
  out=$(on_tty "'$B' render --scenario patrol --ticks 300 --no-png --out '$T/tty.svg'")
  printf '%s\n' "$out" | grep -q "^render: 100% (tick 300 of 300)" || ok=0
  out=$(on_tty "'$B' stats '$T/tty.fxr'")
  printf '%s\n' "$out" | grep -q "^stats: 100% (tick 300 of 300)" || ok=0
  if [ $ok -eq 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: no progress on a terminal"; fi
  quiet=$(on_tty "'$B' record --quiet --scenario patrol --ticks 300 --out '$T/tty.fxr'; '$B' verify --quiet '$T/tty.fxr'; '$B' trace --quiet '$T/tty.fxr' > '$T/tty.csv'; '$B' trace --ticks 5 '$T/tty.fxr'")
  if printf '%s\n' "$quiet" | grep -qE "^(record|verify|trace): "; then
    fail=$((fail + 1)); echo "FAIL: progress with --quiet, or with trace's rows on the terminal:"; echo "$quiet" | head
  else pass=$((pass + 1)); fi
fi
piped=$("$B" record --scenario patrol --ticks 300 --out "$T/pipe.fxr" 2>&1; "$B" verify "$T/pipe.fxr" 2>&1)
if printf '%s' "$piped" | grep -qE "record: |verify: |$(printf '\r')"; then
  fail=$((fail + 1)); echo "FAIL: progress when stderr is a pipe"; else pass=$((pass + 1)); fi
expect 2 "unknown option: --quiet" -- "$B" dump --quiet "$T/pipe.fxr"

# ------------------------------------------------------------------ output files
# Every output is first written to a temporary file that the tool creates exclusively, under an
# unpredictable name in the output's directory, then renamed over the output; the temporary is
# removed on failure and on SIGINT/SIGTERM. Earlier tools named it OUT.tmp-PID and opened it
# following symlinks, so the checks below plant a symlink to a victim at that name.
O="$T/outputs"; mkdir -p "$O"
# ok_if DESCRIPTION COMMAND...: one check that passes when COMMAND succeeds.
ok_if() {
  local what=$1; shift
  if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $what"; fi
}
# planted NAME=VICTIM... -- COMMAND...: links NAME.tmp-PID to VICTIM for each pair, PID being
# the process id COMMAND then runs with.
planted() {
  bash -c 'while [ "$1" != -- ]; do ln -s "${1#*=}" "${1%%=*}.tmp-$$"; shift; done; shift; exec "$@"' planted "$@"
}
# victims NAME...: files in $O with known contents; untouched NAME...: they still hold them.
victims() { for v in "$@"; do printf 'precious %s\n' "$v" > "$O/$v"; cp "$O/$v" "$O/$v.was"; done; }
untouched() { for v in "$@"; do cmp -s "$O/$v" "$O/$v.was" || return 1; done; }
# replaced FILE...: each FILE is a regular file now, not a symlink.
replaced() { for f in "$@"; do [ -f "$f" ] && [ ! -L "$f" ] || return 1; done; }
no_temporaries() { [ -z "$(find "$1" -name '*.tmp-*' ! -type l)" ]; }

victims v1
planted "$O/rec.fxr=$O/v1" -- "$B" record --scenario patrol --ticks 20 --out "$O/rec.fxr" >/dev/null 2>&1
ok_if "record wrote through a symlink planted at its temporary name" \
  eval 'untouched v1 && replaced "$O/rec.fxr" && "$B" verify "$O/rec.fxr" >/dev/null'
victims v1; ln -s "$O/v1" "$O/link.fxr"; ln -s "$O/absent" "$O/dangling.fxr"
"$B" record --scenario patrol --ticks 20 --out "$O/link.fxr" >/dev/null 2>&1
"$B" record --scenario patrol --ticks 20 --out "$O/dangling.fxr" >/dev/null 2>&1
ok_if "record wrote through a symlink at the output path instead of replacing it" \
  eval 'untouched v1 && [ ! -e "$O/absent" ] && replaced "$O/link.fxr" "$O/dangling.fxr" && "$B" verify "$O/link.fxr" >/dev/null'
victims v1 v2
planted "$O/r.svg=$O/v1" "$O/r.png=$O/v2" -- "$B" render --scenario patrol --ticks 20 --out "$O/r.svg" >/dev/null 2>&1
ok_if "render wrote through symlinks planted at its temporary names" \
  eval 'untouched v1 v2 && replaced "$O/r.svg" "$O/r.png" && well_formed "$O/r.svg" "$O/r.png"'
victims v1 v2; ln -s "$O/v1" "$O/l.svg"; ln -s "$O/v2" "$O/l.png"
"$B" render --scenario patrol --ticks 20 --out "$O/l.svg" >/dev/null 2>&1
ok_if "render wrote through symlinks at its output paths instead of replacing them" \
  eval 'untouched v1 v2 && replaced "$O/l.svg" "$O/l.png" && well_formed "$O/l.svg" "$O/l.png"'
ok_if "an output kept a temporary file" no_temporaries "$O"
rm -f "$O"/*.tmp-* # the planted symlinks
(umask 027; "$B" record --scenario patrol --ticks 5 --out "$O/mode.fxr" >/dev/null 2>&1)
ok_if "an output's mode is not 0666 minus the umask (0640 under umask 027)" eval '[ "$(stat -c %a "$O/mode.fxr")" = 640 ]'
mkdir "$O/dir.fxr"
expect 2 "cannot write $O/dir.fxr: " -- "$B" record --scenario patrol --ticks 5 --out "$O/dir.fxr"
ok_if "a failed rename kept its temporary file" no_temporaries "$O"

# interrupted SIGNAL STATUS: a long record over an existing output, sent SIGNAL once its
# temporary file holds data, exits with STATUS (what a shell reports for the signal), leaves
# no temporary file and the previous output as it was. The tool keeps ignoring a signal that
# whoever started it ignored (as a script's background jobs ignore SIGINT), so the record
# starts with both signals at their default action (env --default-signal), whatever this
# script inherited; job control (set -m) keeps the shell from ignoring SIGINT for the job.
interrupted() {
  local d="$O/kill-$1" rc
  mkdir -p "$d"
  "$B" record --scenario patrol --ticks 20 --out "$d/k.fxr" >/dev/null 2>&1
  cp "$d/k.fxr" "$O/k.before"
  rc=$( (set -m
    env --default-signal=INT,TERM "$B" record --scenario flock --ticks 10000000 \
      --out "$d/k.fxr" >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 200); do [ -n "$(find "$d" -name 'k.fxr.tmp-*' -size +0)" ] && break; sleep 0.05; done
    kill -"$1" "$pid"
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
    kill -KILL "$pid" 2>/dev/null
    wait "$pid"; echo $?) 2>/dev/null)
  if [ "$rc" = "$2" ] && [ "$(ls -A "$d")" = k.fxr ] && cmp -s "$d/k.fxr" "$O/k.before"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); echo "FAIL: record killed by SIG$1: exit $rc (want $2), left: $(ls -A "$d" | tr '\n' ' ')"
  fi
  rm -rf "$d" "$O/k.before"
}
interrupted TERM 143
interrupted INT 130

# An unsupported snapshot layout is named as such (with the layouts this build reads), not as
# the replay format version: the SNAP chunk's layout (bytes 52..53) set to 11, checksum resealed.
"$B" record --scenario patrol --ticks 20 --out "$O/src.fxr" >/dev/null
ruby -e 'd = File.binread(ARGV[0]); abort "no SNAP at 40" unless d[40, 4] == "SNAP"
  len = d[44, 4].unpack1("V"); d[52, 2] = [11].pack("v")
  h = 0xcbf29ce484222325; d[40, 8 + len].each_byte { |b| h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff }
  d[48 + len, 8] = [h].pack("Q<"); File.binwrite(ARGV[1], d)' "$O/src.fxr" "$O/layout.fxr"
for c in verify dump; do
  expect 2 "layout.fxr: byte 52 \(in the SNAP chunk at byte 40\): unsupported snapshot layout 11 \(this build reads layouts 3 to 10\): re-record it" -- "$B" $c "$O/layout.fxr"
done
# A snapshot field out of range is named at its byte by every command that reads replays: the
# world's neighbor radius (snapshot bytes 31..34, file bytes 79..82) set to -5, resealed.
ruby -e 'd = File.binread(ARGV[0]); len = d[44, 4].unpack1("V"); d[79, 4] = [-5].pack("l<")
  h = 0xcbf29ce484222325; d[40, 8 + len].each_byte { |b| h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff }
  d[48 + len, 8] = [h].pack("Q<"); File.binwrite(ARGV[1], d)' "$O/src.fxr" "$O/radius.fxr"
for c in verify stats "render --no-png --out $O/radius.svg"; do
  expect 2 "radius.fxr: byte 79 \(in the SNAP chunk at byte 40\): value out of range" -- "$B" $c "$O/radius.fxr"
done
rm -rf "$O"

# scale: every length times K. x4 then x1/4 gives back the very same world (the same replay,
# hash for hash); x4 alone is another world; the file's comments stay; lengths left to
# defaults (the agents' radius here) are written out; values pushed out of range are refused
# by key and line, and nothing is written.
S=$(mktemp -d)
for f in nav_door example orca_swap nav_rts; do
  "$B" scale "scenarios/$f.yaml" 4 --out "$S/$f-x4.yaml" >/dev/null &&
    "$B" scale "$S/$f-x4.yaml" 1/4 --out "$S/$f-back.yaml" >/dev/null
  "$B" record --scenario "scenarios/$f.yaml" --ticks 40 --out "$S/$f.fxr" >/dev/null
  "$B" record --scenario "$S/$f-back.yaml" --ticks 40 --out "$S/$f-back.fxr" >/dev/null
  "$B" record --scenario "$S/$f-x4.yaml" --ticks 40 --out "$S/$f-x4.fxr" >/dev/null
  expect 0 "identical: 40 ticks" -- "$B" diff "$S/$f.fxr" "$S/$f-back.fxr"
  expect 1 "first divergent tick 0" -- "$B" diff "$S/$f.fxr" "$S/$f-x4.fxr"
done
expect 0 "scaled scenarios/nav_door.yaml by 0.25: [0-9]+ values, 120 defaults written out" -- "$B" scale scenarios/nav_door.yaml 0.25 --out "$S/q.yaml"
expect 0 "name: a00, position: \[60, 70\], target: \[217.5, 126.75\], max_speed: 0.625" -- cat "$S/q.yaml"
expect 0 "\{max_force: 0.0625, radius: 2, name: a00" -- cat "$S/q.yaml"
expect 0 "^# 60 navigate agents in the left half" -- cat "$S/q.yaml"
expect 0 "^  - \[112.5, 0, 112.5, 69\]" -- cat "$S/q.yaml"
expect 0 "slowing_radius: 10\}" -- cat "$S/q.yaml"
expect 2 "nav_crowd.yaml:14: bounds: 4000 times 16 is outside Q16.16's range" -- "$B" scale scenarios/nav_crowd.yaml 16 --out "$S/no.yaml"
printf 'agents:\n  - {name: a, position: [0.00002, 3], radius: 2, max_speed: 1, max_force: 1}\n' > "$S/tiny.yaml"
expect 2 "tiny.yaml:2: position: 0.00002 times 1/16 is below Q16.16's resolution" -- "$B" scale "$S/tiny.yaml" 1/16 --out "$S/no.yaml"
printf 'world: {bounds: [0, 0, 100, 100]}\nagents:\n  - name: a\n    position: [1, 3]\n    behaviors: [{kind: orca, time_horizon: 40, neighbor_distance: 100}]\n' > "$S/orca.yaml"
expect 2 "orca.yaml:5: neighbor_distance: 100 times 16 = 1600 lies outside its range \[0, 1024\]" -- "$B" scale "$S/orca.yaml" 16 --out "$S/no.yaml"
expect 0 "time_horizon: 40, neighbor_distance: 400\}" -- "$B" scale "$S/orca.yaml" 4
# --defaults writes out the behavior parameters left out whose default is not 0: ORCA's
# lengths default to 0 since simulation version 2 (the agent's own radius and stopping
# distance, scale-free), so none is written; unaligned avoidance's follow the agent (body
# radii, max forces: behavior_params.h), so none is written either.
expect 0 "behaviors: \\[\\{kind: orca, time_horizon: 40, neighbor_distance: 400\\}\\]$" -- "$B" scale "$S/orca.yaml" 4 --defaults
printf 'world: {bounds: [0, 0, 100, 100]}\nagents:\n  - name: a\n    position: [1, 3]\n    behaviors: [{kind: unaligned_avoidance}]\n' > "$S/ua.yaml"
expect 0 "behaviors: \\[\\{kind: unaligned_avoidance\\}\\]$" -- "$B" scale "$S/ua.yaml" 4 --defaults
# The scene reader gives a behavior the defaults of its own agent: radius 2 and max force 1/16
# left to the library are max_see_ahead 15 (7.5 radii) and max_avoid_force 1/4 (4 max forces),
# the same world as those written out; the reference agent's 60 and 1 are another world.
for v in "" "max_see_ahead: 15, max_avoid_force: 0.25, " "max_see_ahead: 60, max_avoid_force: 1, "; do
  printf 'world: {bounds: [0, 0, 100, 100]}\nagents:\n  - {name: a, position: [1, 3], radius: 2, max_force: 0.0625, behaviors: [{%skind: obstacle_avoidance}]}\n' "$v" > "$S/oa.yaml"
  "$B" record --scenario "$S/oa.yaml" --ticks 4 --out "$S/oa${#v}.fxr" >/dev/null
done
expect 0 "identical: 4 ticks" -- "$B" diff "$S/oa0.fxr" "$S/oa42.fxr"
expect 1 "first divergent tick 0" -- "$B" diff "$S/oa0.fxr" "$S/oa39.fxr"
for k in 0 -2 x 1/0 0.0000000001; do
  expect 2 "K must be a fraction P/Q or a decimal greater than 0" -- "$B" scale scenarios/nav_door.yaml "$k"
done
expect 2 "needs a scene FILE and a factor K" -- "$B" scale scenarios/nav_door.yaml
expect 2 "cannot read $S/none.yaml" -- "$B" scale "$S/none.yaml" 2
if [ ! -e "$S/no.yaml" ] && ! ls "$S" | grep -q 'tmp-'; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: scale left an output after an error"; fi
rm -rf "$S"

echo "cli: ${pass} passed, ${fail} failed"
[ "$fail" -eq 0 ]
