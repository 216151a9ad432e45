#!/usr/bin/env bash
# Network play across processes: hunter_prey for 2,000 ticks between 3 fixsteer processes on
# 127.0.0.1 (one host, two joiners), once in lockstep and once with rollback. Every replay
# must verify and all three must end on the same hash. Then both again with one joiner
# flipping a bit of its world at tick 700 (--desync-at): every process must report a desync
# at exactly tick 700 and exit 1. Before them: bad addresses are refused at once, a malformed
# match message is named by the joiner, and 500-tick matches are played with the host named
# `localhost` and with explicit --bind addresses (a joiner on 0.0.0.0 among them); after
# them, a joiner is killed mid-match (lockstep and rollback, players may not come back) and
# the two others must leave replays that verify up to the last settled tick they name.
# Then: a joiner commands another player's agent (--cheat-at) and every process reports the
# same refusals; a joiner that sends one input per time-out (--drip-at) is dropped by the
# progress bound; a player killed mid-match comes back and a spectator arrives at tick 500
# (lockstep and rollback), and all four end on one hash; a player that does not come back
# within --rejoin-ms ends the match, and a spectator finds no free slot in a match without
# spectator slots. A scene file: the host plays its own, a joiner holding the same file joins,
# one holding another is refused naming both hashes. Last, joins that cannot be forged: a host
# whose offers claim frames of the returning player is refused by name (the
# FIXSTEER_TEST_FORGE_OFFER hook), so is a host whose state is of a tick nobody else settled
# (FIXSTEER_TEST_UNCONFIRMED_STATE; the player then comes back from an honest offer), a
# returning player that announces a wrong tick is refused and blamed alone, and a flood of connections cannot keep a spectator out of a free slot.
# JOINS_ONLY=1 runs only the checks of joins.
#   bash tools/lockstep-check.sh [FIXSTEER]
#
# Ends with "lockstep: N passed, N failed"; exits non-zero on any failure. Every process runs
# under `timeout` but those killed on purpose (the check kills them, or the exit does), every
# wait is bounded, ports are drawn at random in 20000-59999 (a port that cannot be bound is
# retried, at most 5 times), and stragglers are killed on exit.
set -uo pipefail
cd "$(dirname "$0")/.."

FIXSTEER=${1:-build/bin/fixsteer}
TICKS=2000
TICK_MS=5
DESYNC_AT=700
PROCESS_TIMEOUT=100 # seconds, per process

if [ $# -eq 0 ]; then
  make -s tools >/dev/null || { echo "lockstep: cannot build the tool"; echo "lockstep: 0 passed, 1 failed"; exit 1; }
fi
if ! "$FIXSTEER" help host >/dev/null 2>&1 || "$FIXSTEER" host --help 2>&1 | grep -q 'without ENet'; then
  echo "lockstep: $FIXSTEER has no network play (built without ENet?)"
  echo "lockstep: 0 passed, 1 failed"
  exit 1
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/fxs-lockstep.XXXXXX")
pids=()
cleanup() {
  local p
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "ok: $*"; }
fail() { failed=$((failed + 1)); echo "FAILED: $*"; }

# Plays one match: run_match TAG [HOST OPTIONS...]. ${PLAYERS:-3} processes play
# ${SCENARIO:-hunter_prey}. Joiner i gets ${JOIN1:-} / ${JOIN2:-} as extra options and
# connects to --host ${JOIN_HOST:-127.0.0.1}; the match has ${MATCH_TICKS:-$TICKS} ticks. With
# KILL=i, joiner i is killed (SIGKILL) ${KILL_AFTER:-2.5} s after it started. Leaves
# TAG.{0,1,2...}.{fxr,out,err,rc} in $WORK.
run_match() {
  local tag=$1; shift
  local attempt port i n=${PLAYERS:-3}
  for attempt in 1 2 3 4 5; do
    port=$((20000 + RANDOM % 40000))
    rm -f "$WORK/$tag".*
    pids=()
    timeout "$PROCESS_TIMEOUT" "$FIXSTEER" host --players "$n" --port "$port" \
      --scenario "${SCENARIO:-hunter_prey}" --ticks "${MATCH_TICKS:-$TICKS}" --tick-ms "$TICK_MS" --out "$WORK/$tag.0.fxr" "$@" \
      >"$WORK/$tag.0.out" 2>"$WORK/$tag.0.err" &
    pids+=($!)
    sleep 0.3
    if ! kill -0 "${pids[0]}" 2>/dev/null && grep -q 'cannot listen' "$WORK/$tag.0.err"; then
      wait "${pids[0]}"
      echo "port $port is taken, drawing another"
      continue
    fi
    for ((i = 1; i < n; ++i)); do
      local extra=() run=(timeout "$PROCESS_TIMEOUT")
      [ "$i" -eq 1 ] && extra=(${JOIN1:-})
      [ "$i" -eq 2 ] && extra=(${JOIN2:-})
      [ "${KILL:-0}" -eq "$i" ] && run=() # its own pid, for kill -9
      "${run[@]}" "$FIXSTEER" join --host "${JOIN_HOST:-127.0.0.1}" --port "$port" \
        --out "$WORK/$tag.$i.fxr" "${extra[@]}" >"$WORK/$tag.$i.out" 2>"$WORK/$tag.$i.err" &
      pids+=($!)
      sleep 0.1
    done
    if [ "${KILL:-0}" -ne 0 ]; then
      sleep "${KILL_AFTER:-2.5}"
      kill -9 "${pids[$KILL]}" 2>/dev/null
    fi
    for ((i = 0; i < n; ++i)); do
      wait "${pids[$i]}" 2>/dev/null # no "Killed" notice for the joiner killed on purpose
      echo $? >"$WORK/$tag.$i.rc"
    done
    pids=()
    for ((i = 0; i < n; ++i)); do sed "s/^/  [$tag $i] /" "$WORK/$tag.$i.out" "$WORK/$tag.$i.err"; done
    return 0
  done
  return 1
}

# A match that must end well (${PLAYERS:-3} processes): every exit code 0, every replay
# verifies, one hash.
check_match() {
  local tag=$1; shift
  run_match "$tag" "$@" || { fail "$tag: no free port found"; return; }
  local i rc ok=1 hashes=() n=${PLAYERS:-3}
  for ((i = 0; i < n; ++i)); do
    rc=$(cat "$WORK/$tag.$i.rc")
    [ "$rc" -eq 0 ] || { ok=0; echo "  process $i exited $rc"; }
  done
  [ $ok -eq 1 ] && pass "$tag: $n processes finished" || fail "$tag: $n processes finished"
  ok=1
  for ((i = 0; i < n; ++i)); do
    local v
    if v=$("$FIXSTEER" verify "$WORK/$tag.$i.fxr" 2>&1); then
      hashes+=("$(sed -n 's/.*final hash \(0x[0-9a-f]*\).*/\1/p' <<<"$v")")
    else
      ok=0
      echo "  $v"
    fi
  done
  [ $ok -eq 1 ] && pass "$tag: $n replays verify" || fail "$tag: $n replays verify"
  if [ -z "${JOIN2:-}" ] && grep -q 'refused:' "$WORK/$tag".[0-9].out; then
    fail "$tag: no command refused (each player commands only its own agents)"
  fi
  local same=1
  for ((i = 1; i < ${#hashes[@]}; ++i)); do [ "${hashes[i]}" = "${hashes[0]}" ] || same=0; done
  if [ ${#hashes[@]} -eq "$n" ] && [ -n "${hashes[0]}" ] && [ $same -eq 1 ]; then
    pass "$tag: equal final hashes ${hashes[0]}"
  else
    fail "$tag: equal final hashes (${hashes[*]:-none})"
  fi
}

# The host's lobby: while it waits for joiners it says so on stderr (a line at the start, one
# per player that joins, numbered in the order they connect, and one every 5 s while nobody
# joins). Three players, one joiner, --timeout-ms 1500: the host waits 6 s, then exits 3.
check_lobby() {
  local tag=$1 attempt rc err
  for attempt in 1 2 3 4 5; do
    port=$((20000 + RANDOM % 40000))
    rm -f "$WORK/$tag".*
    timeout "$PROCESS_TIMEOUT" env ${HOST_ENV:-} "$FIXSTEER" host --players 3 --port "$port" --scenario hunter_prey \
      --ticks 100 --timeout-ms 1500 --out "$WORK/$tag.0.fxr" >"$WORK/$tag.0.out" 2>"$WORK/$tag.0.err" &
    pids=($!)
    sleep 0.3
    if ! kill -0 "${pids[0]}" 2>/dev/null && grep -q 'cannot listen' "$WORK/$tag.0.err"; then
      wait "${pids[0]}"
      continue
    fi
    # The joiner waits longer for the match (4 x 3,000 ms) than the host for its players.
    timeout "$PROCESS_TIMEOUT" "$FIXSTEER" join --host 127.0.0.1 --port "$port" --timeout-ms 3000 \
      --out "$WORK/$tag.1.fxr" >"$WORK/$tag.1.out" 2>"$WORK/$tag.1.err" &
    pids+=($!)
    wait "${pids[0]}"; rc=$?
    wait "${pids[1]}" 2>/dev/null
    pids=()
    err=$(cat "$WORK/$tag.0.err")
    if [ "$rc" -eq 3 ] &&
      grep -q "^fixsteer host: waiting for players: 1 of 3 here (this host is player 0; joiners are numbered 1, 2, ... in the order they connect)$" <<<"$err" &&
      grep -qE "^fixsteer host: player 1 joined from 127\.0\.0\.1:[0-9]+: 2 of 3 players here$" <<<"$err" &&
      grep -q "^fixsteer host: waiting for players: 2 of 3 here, 5 s of 6 s$" <<<"$err" &&
      grep -q "^fixsteer host: only 2 of 3 players joined in 6000 ms$" <<<"$err"; then
      pass "$tag: the host says who joined while it waits"
    else
      fail "$tag: the host says who joined while it waits (exit $rc): $err"
    fi
    return
  done
  fail "$tag: no free port found"
}

# A match where joiner 1 flips a bit at tick $DESYNC_AT: each process reports exactly that
# tick and exits 1.
check_desync() {
  local tag=$1; shift
  JOIN1="--desync-at $DESYNC_AT" JOIN2="" run_match "$tag" "$@" || { fail "$tag: no free port found"; return; }
  local i rc
  for i in 0 1 2; do
    rc=$(cat "$WORK/$tag.$i.rc")
    if [ "$rc" -eq 1 ] && grep -q "DESYNC at tick $DESYNC_AT:" "$WORK/$tag.$i.out" &&
      grep -q "desync at tick $DESYNC_AT with peers" "$WORK/$tag.$i.out"; then
      pass "$tag: process $i reports the desync at tick $DESYNC_AT"
    else
      fail "$tag: process $i reports the desync at tick $DESYNC_AT (exit $rc)"
    fi
  done
}

# check_early TAG I WANT: process I of match TAG ended early (exit 3), its messages say WANT
# ("lost player 2 at tick") and "replay written up to tick N", and its replay verifies N ticks.
check_early() {
  local tag=$1 i=$2 want=$3 rc n v
  rc=$(cat "$WORK/$tag.$i.rc")
  n=$(sed -n 's/.*: replay written up to tick \([0-9]*\) .*/\1/p' "$WORK/$tag.$i.err" | head -1)
  if [ "$rc" -eq 3 ] && grep -q "$want" "$WORK/$tag.$i.err" && [ -n "$n" ] && [ "$n" -gt 0 ] &&
    [ "$n" -lt "$TICKS" ]; then
    pass "$tag: process $i says '$want' and names the last settled tick $n"
  else
    fail "$tag: process $i says '$want' and names the last settled tick (exit $rc, tick '${n}')"
    return
  fi
  if v=$("$FIXSTEER" verify "$WORK/$tag.$i.fxr" 2>&1) && grep -q ": $n ticks verified" <<<"$v"; then
    pass "$tag: process $i's replay verifies up to tick $n"
  else
    fail "$tag: process $i's replay verifies up to tick $n: $v"
  fi
}

# A match where joiner 2 is killed (kill -9) mid-match and players may not come back
# (--rejoin-ms 0): the host and joiner 1 must exit 3 naming the lost player, and each must
# leave a replay that verifies and ends at the tick its message gives.
check_lost() {
  local tag=$1; shift
  JOIN1="--timeout-ms 1000" JOIN2="--timeout-ms 1000" KILL=2 run_match "$tag" --timeout-ms 1000 \
    --rejoin-ms 0 "$@" || { fail "$tag: no free port found"; return; }
  check_early "$tag" 0 "lost player 2 at tick"
  check_early "$tag" 1 "lost player 2 at tick"
}

# Joiner 2 commands an agent of another player at tick 300 (--cheat-at, a test hook): the
# world refuses both commands on every peer, every process reports the same refusals and the
# match still ends well.
check_cheat() {
  local tag=$1; shift
  JOIN2="--cheat-at 300" MATCH_TICKS=500 check_match "$tag" "$@"
  local i line first="" dump owned handed
  # The set-up: hunter_prey's 16 agents spawned owned, 10 (slot % 3 != 0) handed over, each to
  # the player slot % 3 names.
  dump=$("$FIXSTEER" dump "$WORK/$tag.0.fxr" 2>&1)
  owned=$(grep -c ' spawn .* src 0 .* ref 0x1 ' <<<"$dump")
  handed=0
  local kind src s seq q agent_word agent ref_word ref rest
  while read -r kind src s seq q agent_word agent ref_word ref rest; do
    [ "$kind" = set_owner ] || continue
    [ $(((agent - 1) % 3)) -ne 0 ] && [ $((ref)) -eq $(((agent - 1) % 3)) ] && handed=$((handed + 1))
  done <<<"$dump"
  if [ "$owned" -eq 16 ] && [ "$handed" -eq 10 ]; then
    pass "$tag: the set-up spawns 16 agents owned and hands 10 to their players"
  else
    fail "$tag: the set-up spawns 16 agents owned ($owned) and hands 10 to their players ($handed)"
  fi
  for i in 0 1 2; do
    line=$(grep -o 'refused: .*' "$WORK/$tag.$i.out")
    if grep -q "refused: player 2: 2, the last at tick 300: player 2's despawn of agent 0x[0-9a-f]*: the command's source does not own the agent" <<<"$line" &&
      { [ -z "$first" ] || [ "$line" = "$first" ]; }; then
      pass "$tag: process $i reports player 2's 2 refused commands at tick 300"
    else
      fail "$tag: process $i reports player 2's 2 refused commands at tick 300 ('$line')"
    fi
    first=${first:-$line}
  done
}

# Joiner 2 sends one input just inside each time-out from tick 200 on (--drip-at, a test
# hook), never timing out: the progress bound (2,000 ms windows) drops it; the host and
# joiner 1 exit 3 naming it, within two windows of the drip's start (windows follow each
# other: the one under way when it starts may still hold enough ticks), and their replays
# verify.
check_drip() {
  local tag=$1; shift
  local t0 elapsed limit
  t0=$(date +%s%N)
  JOIN1="--timeout-ms 1000" JOIN2="--timeout-ms 1000 --drip-at 200" MATCH_TICKS=2000 \
    run_match "$tag" --timeout-ms 1000 --progress-window-ms 2000 "$@" ||
    { fail "$tag: no free port found"; return; }
  elapsed=$((($(date +%s%N) - t0) / 1000000))
  limit=$((500 + 200 * TICK_MS + 2 * 2000 + 2000))
  check_early "$tag" 0 "dropped player 2 at tick"
  check_early "$tag" 1 "dropped player 2 at tick"
  # The first to find the stall says why; the other may hear it from that one first.
  if grep -q "dropped player 2: the match settled [0-9]* ticks in the last [0-9]* ms (floor 100), waiting on its input" \
    "$WORK/$tag.0.err" "$WORK/$tag.1.err"; then
    pass "$tag: the stall is named: $(grep -h -o 'the match settled.*' "$WORK/$tag.0.err" "$WORK/$tag.1.err" | head -1)"
  else
    fail "$tag: the stall is named (the ticks settled in the window, the floor, what was missing)"
  fi
  if [ "$elapsed" -le "$limit" ] && grep -q "dropped player 2 at tick" "$WORK/$tag.0.err"; then
    pass "$tag: the match ended $elapsed ms after it began (drip from ~$((200 * TICK_MS)) ms, bound $limit ms)"
  else
    fail "$tag: the match ended $elapsed ms after it began (bound $limit ms)"
  fi
}

# The host's last settled tick (its --status test hook writes it now and then), 0 before.
host_tick() {
  local t
  t=$(cat "$WORK/$1.status" 2>/dev/null)
  echo "${t:-0}"
}

# wait_until SECONDS CONDITION: polls CONDITION every 50 ms; false when the time runs out.
wait_until() {
  local limit=$(($(date +%s) + $1))
  until eval "$2"; do
    [ "$(date +%s)" -ge "$limit" ] && return 1
    sleep 0.05
  done
}

# start_host TAG [HOST OPTIONS...]: a 3-player host of hunter_prey writing its settled tick to
# TAG.status (its environment plus $HOST_ENV, NAME=VALUE words); false when its port is taken
# 5 times. Sets $port and pids=(host).
start_host() {
  local tag=$1 attempt
  shift
  for attempt in 1 2 3 4 5; do
    port=$((20000 + RANDOM % 40000))
    rm -f "$WORK/$tag".*
    timeout "$PROCESS_TIMEOUT" env ${HOST_ENV:-} "$FIXSTEER" host --players 3 --port "$port" --scenario hunter_prey \
      --tick-ms "$TICK_MS" --timeout-ms 1000 --status "$WORK/$tag.status" \
      --out "$WORK/$tag.0.fxr" "$@" >"$WORK/$tag.0.out" 2>"$WORK/$tag.0.err" &
    pids=($!)
    sleep 0.3
    if ! kill -0 "${pids[0]}" 2>/dev/null && grep -q 'cannot listen' "$WORK/$tag.0.err"; then
      wait "${pids[0]}"
      continue
    fi
    return 0
  done
  return 1
}

# start_join TAG I [timeout|kill] [JOIN OPTIONS...]: process I joins; under `timeout`, or
# (kill) as its own pid for kill -9. Appends its pid to pids (pids[I] when started in order).
start_join() {
  local tag=$1 i=$2 how=$3 run=()
  shift 3
  [ "$how" = timeout ] && run=(timeout "$PROCESS_TIMEOUT")
  "${run[@]}" "$FIXSTEER" join --host 127.0.0.1 --port "$port" --timeout-ms 1000 \
    --out "$WORK/$tag.$i.fxr" "$@" >"$WORK/$tag.$i.out" 2>"$WORK/$tag.$i.err" &
  pids+=($!)
}

# Waits for processes I... of TAG (indices into pids), writes TAG.I.rc, shows their output.
finish() {
  local tag=$1 i
  shift
  for i in "$@"; do
    wait "${pids[$i]}" 2>/dev/null
    echo $? >"$WORK/$tag.$i.rc"
  done
  for i in "$@"; do sed "s/^/  [$tag $i] /" "$WORK/$tag.$i.out" "$WORK/$tag.$i.err"; done
}

# Stops every process of a check that cannot go on, then shows the last lines each of them
# wrote, the host's last settled tick and its port (MESSAGE starts with the check's tag and a
# colon).
abandon() {
  local p f tag=${1%%:*}
  fail "$1"
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
  pids=()
  echo "  [$tag] host's settled tick: $(host_tick "$tag"), its port: $port"
  for f in "$WORK/$tag".*.out "$WORK/$tag".*.err; do
    if [ -s "$f" ]; then tail -n 20 "$f" | sed "s|^|  [${f#"$WORK/"}] |"; fi
  done
}

# A player comes back and a spectator arrives: 3 players and a spectator slot, 1,500 ticks.
# Player 2 is killed (kill -9) at tick 250 and started again (a new process, the same join
# command, a new replay) once the host says it left; a spectator joins at tick 500. Every
# process that was not killed exits 0, every replay verifies, all end on the same tick and
# hash; the rejoined player's and the spectator's replays start at the tick they joined. The
# progress window is 1,500 ms (floor 75 ticks; the match runs about 200 a second): longer
# than the 1,000 ms time-out, so that the time-out, not the bound, judges the killed player
# (a window no longer than the time-out could end first on a loaded machine), and shorter
# than the pause while player 2 is away (it is started again 1.6 s after the host says it
# left): the pause must be excused.
REJOIN_TICKS=1500
check_rejoin() {
  local tag=$1
  shift
  start_host "$tag" --spectators 1 --ticks "$REJOIN_TICKS" --progress-window-ms 1500 "$@" ||
    { fail "$tag: no free port found"; return; }
  start_join "$tag" 1 timeout
  sleep 0.1
  start_join "$tag" 2 kill
  wait_until 30 "[ \$(host_tick $tag) -ge 250 ]" || { abandon "$tag: the match reaches tick 250"; return; }
  kill -9 "${pids[2]}"
  wait "${pids[2]}" 2>/dev/null
  wait_until 20 "grep -q 'player 2 left at tick' '$WORK/$tag.0.err'" ||
    { abandon "$tag: the host notices that player 2 left"; return; }
  sleep 1.6
  start_join "$tag" 3 timeout
  wait_until 30 "[ \$(host_tick $tag) -ge 500 ]" || { abandon "$tag: the match reaches tick 500"; return; }
  start_join "$tag" 4 timeout --spectate
  finish "$tag" 0 1 3 4
  pids=()
  local i rc v n at ok=1 hashes=()
  for i in 0 1 3 4; do
    rc=$(cat "$WORK/$tag.$i.rc")
    [ "$rc" -eq 0 ] || { ok=0; echo "  process $i exited $rc"; }
  done
  [ $ok -eq 1 ] && pass "$tag: host, player 1, player 2 back, spectator finished" ||
    fail "$tag: host, player 1, player 2 back, spectator finished"
  for i in 0 1 3 4; do
    at=$(sed -n 's/.*joined at tick \([0-9]*\),.*/\1/p' "$WORK/$tag.$i.out")
    at=${at:-0}
    if v=$("$FIXSTEER" verify "$WORK/$tag.$i.fxr" 2>&1) &&
      n=$(sed -n 's/.*: \([0-9]*\) ticks verified.*/\1/p' <<<"$v") && [ $((at + n)) -eq "$REJOIN_TICKS" ]; then
      hashes+=("$(sed -n 's/.*final hash \(0x[0-9a-f]*\).*/\1/p' <<<"$v")")
      pass "$tag: process $i's replay verifies ticks $at..$((REJOIN_TICKS - 1))"
    else
      fail "$tag: process $i's replay verifies up to tick $REJOIN_TICKS (from $at): $v"
    fi
  done
  if [ ${#hashes[@]} -eq 4 ] && [ -n "${hashes[0]}" ] && [ "${hashes[0]}" = "${hashes[1]}" ] &&
    [ "${hashes[0]}" = "${hashes[2]}" ] && [ "${hashes[0]}" = "${hashes[3]}" ]; then
    pass "$tag: equal final hashes ${hashes[0]}"
  else
    fail "$tag: equal final hashes (${hashes[*]:-none})"
  fi
  # diff lines the replays up by tick: the rejoined player's replay starts later.
  at=$(sed -n 's/.*joined at tick \([0-9]*\),.*/\1/p' "$WORK/$tag.3.out")
  if v=$("$FIXSTEER" diff "$WORK/$tag.0.fxr" "$WORK/$tag.3.fxr" 2>&1) &&
    grep -q "starts differ: A holds ticks from 0, B from ${at:-?};" <<<"$v" &&
    grep -q "identical over the common ticks: $((REJOIN_TICKS - ${at:-0})) ticks" <<<"$v"; then
    pass "$tag: diff of the host's and the rejoined player's replays lines them up at tick $at"
  else
    fail "$tag: diff of the host's and the rejoined player's replays lines them up at tick ${at:-?}: $v"
  fi
  at=$(sed -n 's/.*joined at tick \([0-9]*\),.*/\1/p' "$WORK/$tag.4.out")
  if [ -n "$at" ] && [ "$at" -ge 500 ] && grep -q "player 2 is in the match from tick" "$WORK/$tag.0.err"; then
    pass "$tag: player 2 came back, the spectator joined at tick $at"
  else
    fail "$tag: player 2 came back, the spectator joined at tick 500 or later (at '${at}')"
  fi
}

# A player that does not come back within --rejoin-ms: the match ends as for a lost peer
# (exit 3, replays up to the last settled tick that verify), and the same join command run
# after that finds no match. Before that, a spectator finds no free slot (there is none).
check_rejoin_expired() {
  local tag=$1 rc start elapsed
  shift
  start_host "$tag" --ticks "$TICKS" --rejoin-ms 1500 "$@" || { fail "$tag: no free port found"; return; }
  start_join "$tag" 1 timeout
  sleep 0.1
  start_join "$tag" 2 kill
  wait_until 30 "[ \$(host_tick $tag) -ge 250 ]" || { abandon "$tag: the match reaches tick 250"; return; }
  start=$(date +%s%N)
  timeout 20 "$FIXSTEER" join --host 127.0.0.1 --port "$port" --spectate --timeout-ms 1000 \
    --out "$WORK/$tag.5.fxr" >"$WORK/$tag.5.out" 2>"$WORK/$tag.5.err"
  rc=$?
  elapsed=$((($(date +%s%N) - start) / 1000000))
  sed "s/^/  [$tag 5] /" "$WORK/$tag.5.err"
  if [ "$rc" -eq 3 ] && grep -q "closed the connection: no slot is free for this joiner" "$WORK/$tag.5.err" &&
    [ "$elapsed" -lt 3000 ] && [ ! -e "$WORK/$tag.5.fxr" ]; then
    pass "$tag: a spectator without a free slot is refused in $elapsed ms"
  else
    fail "$tag: a spectator without a free slot is refused at once (exit $rc, $elapsed ms)"
  fi
  kill -9 "${pids[2]}"
  wait "${pids[2]}" 2>/dev/null
  finish "$tag" 0 1
  pids=()
  # The first to give up says why; the other may hear it from that one first.
  grep -q "lost player 2 at tick [0-9]*: it did not come back within 1500 ms" \
    "$WORK/$tag.0.err" "$WORK/$tag.1.err" &&
    pass "$tag: the match waited 1500 ms for player 2" || fail "$tag: the match waited 1500 ms for player 2"
  check_early "$tag" 0 "lost player 2 at tick"
  check_early "$tag" 1 "lost player 2 at tick"
  start=$(date +%s%N)
  timeout 20 "$FIXSTEER" join --host 127.0.0.1 --port "$port" --timeout-ms 300 \
    --out "$WORK/$tag.3.fxr" >"$WORK/$tag.3.out" 2>"$WORK/$tag.3.err"
  rc=$?
  elapsed=$((($(date +%s%N) - start) / 1000000))
  sed "s/^/  [$tag 3] /" "$WORK/$tag.3.err"
  if [ "$rc" -eq 3 ] && [ ! -e "$WORK/$tag.3.fxr" ]; then
    pass "$tag: coming back after the match ended finds no match (exit 3 in $elapsed ms)"
  else
    fail "$tag: coming back after the match ended finds no match (exit $rc)"
  fi
}

# The host sends a malformed match message (the test hook FIXSTEER_TEST_MATCH_MESSAGE): the
# joiner must name the field, its value and the range, and exit 3 at once, well before its
# 10 s timeout (40 s for the lobby).
# check_bad_message TAG MESSAGE WANT [CODE LEAD]: the joiner refuses the match message with
# WANT after LEAD (default: "bad match message"), exit CODE (default 3).
# FNV-1a 64 of a file's bytes, 0x and 16 hex digits: the hash the match message carries.
fnv1a() {
  python3 -c 'import sys
h = 0xCBF29CE484222325
for b in open(sys.argv[1], "rb").read():
    h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
print("0x%016x" % h)' "$1"
}

# A scene file of the developer's own: the host plays a copy of scenarios/example.yaml, a
# joiner holding the same file joins and every replay verifies on the hash `fixsteer record`
# gives the file; a joiner holding a file of the same name with other bytes (another seed)
# refuses the match naming both hashes (exit 2), and the host names the player it lost (exit 3).
check_scene() {
  local tag=$1 scene=$WORK/mine/scene.yaml other=$WORK/other/scene.yaml want mine theirs rc
  mkdir -p "$WORK/mine" "$WORK/other"
  cp scenarios/example.yaml "$scene"
  sed 's/^  seed: 42$/  seed: 43/' scenarios/example.yaml >"$other"
  want=$("$FIXSTEER" record --scenario "$scene" --ticks 300 --out "$WORK/$tag.rec.fxr" |
    sed -n 's/.*final hash \(0x[0-9a-f]*\).*/\1/p')
  PLAYERS=2 SCENARIO=$scene MATCH_TICKS=300 JOIN1="--scenario $scene" check_match "$tag"
  if [ -n "$want" ] && "$FIXSTEER" verify "$WORK/$tag.0.fxr" 2>&1 | grep -q "final hash $want$"; then
    pass "$tag: the match ends on the hash fixsteer record gives the file ($want)"
  else
    fail "$tag: the match ends on the hash fixsteer record gives the file ($want)"
  fi
  mine=$(fnv1a "$scene") theirs=$(fnv1a "$other")
  PLAYERS=2 SCENARIO=$scene MATCH_TICKS=300 JOIN1="--scenario $other" run_match "$tag-other" \
    --timeout-ms 1000 || { fail "$tag-other: no free port found"; return; }
  rc="$(cat "$WORK/$tag-other.0.rc") $(cat "$WORK/$tag-other.1.rc")"
  if [ "$rc" = "3 2" ] && [ "$mine" != "$theirs" ] &&
    grep -qF "fixsteer host: scene file $scene (scene.yaml), hash $mine" "$WORK/$tag-other.0.err" &&
    grep -qE "^fixsteer host: lost player 1 at tick [0-9]+: it holds another scene than this match's$" \
      "$WORK/$tag-other.0.err" &&
    grep -qF "refused the match message from the host at 127.0.0.1:" "$WORK/$tag-other.1.err" &&
    grep -qF ": the host's scene file 'scene.yaml' hashes $mine; this joiner's 'scene.yaml' hashes $theirs: not the same file" \
      "$WORK/$tag-other.1.err"; then
    pass "$tag-other: a joiner with another file is refused naming both hashes (exits: host 3, joiner 2)"
  else
    fail "$tag-other: a joiner with another file is refused naming both hashes (exits: $rc)"
  fi
}

check_bad_message() {
  local tag=$1 message=$2 want=$3 code=${4:-3} lead=${5:-bad match message} attempt port start elapsed rc
  for attempt in 1 2 3 4 5; do
    port=$((20000 + RANDOM % 40000))
    FIXSTEER_TEST_MATCH_MESSAGE="$message" timeout 20 "$FIXSTEER" host --players 2 --port "$port" \
      --scenario hunter_prey --ticks 100 --timeout-ms 1000 --out "$WORK/$tag.0.fxr" \
      >"$WORK/$tag.0.out" 2>"$WORK/$tag.0.err" &
    pids=($!)
    sleep 0.3
    if ! kill -0 "${pids[0]}" 2>/dev/null && grep -q 'cannot listen' "$WORK/$tag.0.err"; then
      wait "${pids[0]}"
      continue
    fi
    start=$(date +%s%N)
    timeout 20 "$FIXSTEER" join --host 127.0.0.1 --port "$port" --timeout-ms 10000 \
      --out "$WORK/$tag.1.fxr" >"$WORK/$tag.1.out" 2>"$WORK/$tag.1.err"
    rc=$?
    elapsed=$((($(date +%s%N) - start) / 1000000))
    wait "${pids[0]}"
    pids=()
    sed "s/^/  [$tag 1] /" "$WORK/$tag.1.err"
    if [ "$rc" -eq "$code" ] && grep -qF "$lead from the host at 127.0.0.1:$port: $want" \
      "$WORK/$tag.1.err" && [ "$elapsed" -lt 5000 ]; then
      pass "$tag: the joiner names the bad field and exits $code in $elapsed ms"
    else
      fail "$tag: the joiner names the bad field ($want) and exits $code at once (exit $rc, $elapsed ms)"
    fi
    return
  done
  fail "$tag: no free port found"
}

# check_other_build TAG: two builds of two simulation versions over ENet. A copy of this tree
# whose FXS_SIMULATION_VERSION is one more is built apart; a host of this build and a joiner of
# that one: the joiner is refused at the match message naming both versions (exit 4, not a
# desync), and the host, which lost the player (exit 3), says why.
check_other_build() {
  local tag=$1 tree="$WORK/other-sim" next=$((SIM + 1)) attempt port rc host_rc
  mkdir -p "$tree/build"
  cp -r Makefile include src tools packaging project.yml "$tree"/
  ln -s "$PWD/build/libfixmath" "$tree/build/libfixmath"
  sed -i "s/^#define FXS_SIMULATION_VERSION ${SIM}u/#define FXS_SIMULATION_VERSION ${next}u/" \
    "$tree/include/fixsteer/version.h"
  if ! make -s -C "$tree" -j2 build/bin/fixsteer >"$WORK/$tag.build.log" 2>&1 ||
    ! "$tree/build/bin/fixsteer" --version | grep -q "simulation version $next)"; then
    fail "$tag: a build of simulation version $next (see $WORK/$tag.build.log)"
    return
  fi
  for attempt in 1 2 3 4 5; do
    port=$((20000 + RANDOM % 40000))
    timeout 20 "$FIXSTEER" host --players 2 --port "$port" --scenario hunter_prey --ticks 100 \
      --timeout-ms 2000 --rejoin-ms 0 --out "$WORK/$tag.0.fxr" >"$WORK/$tag.0.out" 2>"$WORK/$tag.0.err" &
    pids=($!)
    sleep 0.3
    if ! kill -0 "${pids[0]}" 2>/dev/null && grep -q 'cannot listen' "$WORK/$tag.0.err"; then
      wait "${pids[0]}"
      continue
    fi
    timeout 20 "$tree/build/bin/fixsteer" join --host 127.0.0.1 --port "$port" --timeout-ms 10000 \
      --out "$WORK/$tag.1.fxr" >"$WORK/$tag.1.out" 2>"$WORK/$tag.1.err"
    rc=$?
    wait "${pids[0]}"
    host_rc=$?
    pids=()
    sed "s/^/  [$tag 1] /" "$WORK/$tag.1.err"
    sed "s/^/  [$tag 0] /" "$WORK/$tag.0.err"
    if [ "$rc" -eq 4 ] && grep -qF "the host runs simulation version $SIM; this build runs $next" \
      "$WORK/$tag.1.err" && [ "$host_rc" -eq 3 ] &&
      grep -qF "lost player 1 at tick 1: it runs simulation version $next; this build runs $SIM" \
        "$WORK/$tag.0.err"; then
      pass "$tag: a joiner of simulation version $next is refused by name (exit 4); the host says why (exit 3)"
    else
      fail "$tag: a joiner of simulation version $next refused by name, exit 4 (exit $rc); host exit 3 ($host_rc)"
    fi
    return
  done
  fail "$tag: no free port found"
}

# check_refused TAG CODE TEXT -- COMMAND...: refused at once with CODE, the message naming
# the option and its value (TEXT), and no replay left.
check_refused() {
  local tag=$1 code=$2 want=$3 rc start elapsed
  shift 4
  start=$(date +%s%N)
  timeout 20 "$@" --out "$WORK/$tag.fxr" >"$WORK/$tag.out" 2>"$WORK/$tag.err"
  rc=$?
  elapsed=$((($(date +%s%N) - start) / 1000000))
  sed "s/^/  [$tag] /" "$WORK/$tag.err"
  if [ "$rc" -eq "$code" ] && grep -qF -- "$want" "$WORK/$tag.err" && [ "$elapsed" -lt 5000 ] &&
    [ ! -e "$WORK/$tag.fxr" ]; then
    pass "$tag: refused with exit $code in $elapsed ms"
  else
    fail "$tag: refused with exit $code naming '$want' (exit $rc, $elapsed ms)"
  fi
}

# timed CHECK TAG ...: runs a check and says how long it took.
# A timed check that fails is run once more, and counts by its second run: its processes play
# in real time (time-outs, progress bounds), which a machine loaded by other work can starve;
# a fault of the library fails both runs. Every second run is named (retried below).
retried=()
timed() {
  local t0=$(date +%s%N) p0=$passed f0=$failed
  "$@"
  if [ "$failed" -gt "$f0" ]; then
    echo "retry: $2: failed its first run (load average: $(cut -d' ' -f1-3 /proc/loadavg)); once more"
    passed=$p0 failed=$f0
    "$@"
    retried+=("$2")
  fi
  echo "time: $2: $((($(date +%s%N) - t0) / 1000000)) ms"
}

# Navigation in a match: 4 processes play nav_match (navigate agents; at tick 120 player 0
# places a building, four walls, in the short door and every route re-plans; at tick 700
# each player sends its own agents back west). Beyond check_match: the 4 replays hold the
# same hash at every tick, the building's walls came in player 0's input and every player
# moved its own agents.
check_nav() {
  local tag=$1; shift
  PLAYERS=4 SCENARIO=nav_match MATCH_TICKS=1000 check_match "$tag" "$@"
  local i sums=() dump walls movers
  for i in 0 1 2 3; do
    sums+=("$("$FIXSTEER" dump "$WORK/$tag.$i.fxr" 2>&1 | grep -E '^tick [0-9]+: ' | md5sum)")
  done
  local n
  n=$("$FIXSTEER" dump "$WORK/$tag.0.fxr" 2>&1 | grep -cE '^tick [0-9]+: .*hash 0x')
  if [ "$n" -eq 1000 ] && [ "${sums[0]}" = "${sums[1]}" ] && [ "${sums[0]}" = "${sums[2]}" ] &&
    [ "${sums[0]}" = "${sums[3]}" ]; then
    pass "$tag: the 4 replays hold the same hash at each of $n ticks"
  else
    fail "$tag: the 4 replays hold the same hash at each of 1000 ticks ($n ticks)"
  fi
  dump=$("$FIXSTEER" dump "$WORK/$tag.0.fxr" 2>&1)
  walls=$(awk '/^tick /{t=$2} /add_wall +src 0 /{if (t == "122:") n++} END{print n+0}' <<<"$dump")
  movers=$(awk '/^tick /{t=$2} /set_target_point/{if (t == "702:") print $3}' <<<"$dump" |
    sort -u | tr -d '\n')
  if [ "$walls" -eq 4 ] && [ "$movers" = "0123" ]; then
    pass "$tag: player 0's 4 walls at tick 122, moves from players $movers at tick 702"
  else
    fail "$tag: player 0's 4 walls at tick 122 ($walls), moves from players 0123 at tick 702 ($movers)"
  fi
}

# ------------------------------------------------------------------ joins that cannot be forged
# tools/lockstep-joins.sh: check_forged_offer, check_unconfirmed_state, check_lying_joiner,
# check_flood.
. tools/lockstep-joins.sh

start=$SECONDS
# JOINS_ONLY=1: only the checks of players and spectators joining a match under way.
join_checks() {
  timed check_forged_offer forged-offer
  FORGE=1:2 timed check_forged_offer forged-live-offer
  timed check_unconfirmed_state unconfirmed-state
  timed check_lying_joiner lying-joiner
  timed check_flood flood
}
if [ -n "${JOINS_ONLY:-}" ]; then
  timed check_rejoin lockstep-rejoin; timed check_rejoin rollback-rejoin --rollback
  timed check_rejoin_expired rejoin-expired; join_checks
  echo "lockstep: $((SECONDS - start)) s"
  [ ${#retried[@]} -eq 0 ] || echo "lockstep: run twice after a failed first run: ${retried[*]}"
  echo "lockstep: $passed passed, $failed failed"
  [ "$failed" -eq 0 ]; exit
fi
check_refused bad-host-name 3 "--host no.such.host.invalid: cannot resolve" -- \
  "$FIXSTEER" join --host no.such.host.invalid --port 20000
check_refused bad-bind 2 "--bind 999.1.1.1: not an IPv4 address: 999 is above 255" -- \
  "$FIXSTEER" host --players 2 --port 20000 --scenario hunter_prey --ticks 10 --bind 999.1.1.1
check_refused bad-join-bind 2 "--bind 1.2.3: not an IPv4 address" -- \
  "$FIXSTEER" join --host 127.0.0.1 --bind 1.2.3 --port 20000
check_refused ipv6-host 2 "--host ::1: an IPv6 address, and this fixsteer's ENet" -- \
  "$FIXSTEER" join --host ::1 --port 20000
check_refused join-host-option 2 "the host chooses players, spectators, scenario, ticks, delay, mode, --rejoin-ms and the progress bound" -- \
  "$FIXSTEER" join --host 127.0.0.1 --port 20000 --rejoin-ms 5
check_refused host-spectate 2 "--spectate are the joiners' options" -- \
  "$FIXSTEER" host --players 2 --port 20000 --scenario hunter_prey --ticks 10 --spectate
check_refused host-no-scene 2 "--scenario $WORK/none.yaml: not a built-in scenario (see: fixsteer list) nor a file" -- \
  "$FIXSTEER" host --players 2 --port 20000 --scenario "$WORK/none.yaml" --ticks 10
printf 'world: [\n' >"$WORK/broken.yaml"
check_refused join-broken-scene 2 "fixsteer join: $WORK/broken.yaml:2: column 1: YAML syntax error" -- \
  "$FIXSTEER" join --host 127.0.0.1 --port 20000 --scenario "$WORK/broken.yaml"
# The build fields of the match message: this build's simulation version and math fingerprint.
SIM=$("$FIXSTEER" --version | sed -n 's/.*simulation version \([0-9]*\).*/\1/p')
MATH=$("$FIXSTEER" --version | sed -n 's/.*math fingerprint \(0x[0-9a-f]*\).*/\1/p')
check_bad_message bad-players "FXSTART 5 $SIM $MATH 9 0 1 100 2 0 77 5 10000 10000 20 hunter_prey - 0 7 127.0.0.1:40000" \
  "the field 'players' is 9, allowed 2..8"
check_bad_message bad-address "FXSTART 5 $SIM $MATH 2 0 1 100 2 0 77 5 10000 10000 20 hunter_prey - 0 3 127.0.0.300:40000" \
  "the field 'address of player 1' is '127.0.0.300:40000': not an IPv4 address: 300 is above 255"
check_bad_message bad-present "FXSTART 5 $SIM $MATH 2 1 2 100 2 0 77 5 10000 10000 20 hunter_prey - 1 6" \
  "the field 'present' is 6: the host (bit 0) is missing"
check_bad_message old-version "FXSTART 2 2 1 100 2 0 77 5 hunter_prey 127.0.0.1:40000" \
  "the field 'version' is 2, allowed 5..5"
check_bad_message layout-4 "FXSTART 4 $SIM $MATH 2 0 1 100 2 0 77 5 10000 10000 20 hunter_prey 0 3 127.0.0.1:40000" \
  "the field 'version' is 4, allowed 5..5 (host and joiner are different versions of fixsteer; layout 4 is a fixsteer before scene files)"
check_bad_message bad-scene "FXSTART 5 $SIM $MATH 2 0 1 100 2 0 77 5 10000 10000 20 hunter_prey 0x12 0 3 127.0.0.1:40000" \
  "the field 'scene' is '0x12', not - (a built-in scenario) nor 0x and 16 hex digits (a scene file's hash)"
check_bad_message no-scene-file "FXSTART 5 $SIM $MATH 2 0 1 100 2 0 77 5 10000 10000 20 my.yaml 0x0123456789abcdef 0 3 127.0.0.1:40000" \
  "the host plays the scene file 'my.yaml' (hash 0x0123456789abcdef); this joiner holds no scene file: join with --scenario and a copy of that file" 2 "refused the match message"
check_bad_message other-simulation "FXSTART 5 $((SIM + 1)) $MATH 2 0 1 100 2 0 77 5 10000 10000 20 hunter_prey - 0 3 127.0.0.1:40000" \
  "the host runs simulation version $((SIM + 1)); this build runs $SIM" 4 "refused the match message"
check_bad_message other-math "FXSTART 5 $SIM 0x0123456789abcdef 2 0 1 100 2 0 77 5 10000 10000 20 hunter_prey - 0 3 127.0.0.1:40000" \
  "the host runs other math: fingerprint 0x0123456789abcdef; this build's $MATH" 4 "refused the match message"
check_other_build other-build
check_lobby lobby
timed check_scene scene
MATCH_TICKS=500 JOIN_HOST=localhost check_match localhost
MATCH_TICKS=500 JOIN1="--bind 0.0.0.0" JOIN2="--bind 127.0.0.1" check_match bound --bind 127.0.0.1
check_match lockstep
check_match rollback --rollback
timed check_nav nav-lockstep
timed check_nav nav-rollback --rollback
check_desync lockstep-desync
check_desync rollback-desync --rollback
check_lost lockstep-lost
check_lost rollback-lost --rollback
timed check_cheat cheat
timed check_drip drip
timed check_rejoin lockstep-rejoin
timed check_rejoin rollback-rejoin --rollback
timed check_rejoin_expired rejoin-expired
join_checks
echo "lockstep: $((SECONDS - start)) s"
[ ${#retried[@]} -eq 0 ] || echo "lockstep: run twice after a failed first run: ${retried[*]}"
echo "lockstep: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
