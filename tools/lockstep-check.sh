#!/usr/bin/env bash
# Network play across processes: hunter_prey for 2,000 ticks between 3 fixsteer processes on
# 127.0.0.1 (one host, two joiners), once in lockstep and once with rollback. Every replay
# must verify and all three must end on the same hash. Then both again with one joiner
# flipping a bit of its world at tick 700 (--desync-at): every process must report a desync
# at exactly tick 700 and exit 1. Before them: bad addresses are refused at once, a malformed
# match message is named by the joiner, and 500-tick matches are played with the host named
# `localhost` and with explicit --bind addresses (a joiner on 0.0.0.0 among them); after
# them, a joiner is killed mid-match (lockstep and rollback) and the two others must leave
# replays that verify up to the last settled tick they name.
#
#   bash tools/lockstep-check.sh [FIXSTEER]
#
# Ends with "lockstep: N passed, N failed"; exits non-zero on any failure. Every process runs
# under `timeout`, ports are drawn at random in 20000-59999 (a port that cannot be bound is
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

# Plays one match: run_match TAG [HOST OPTIONS...]. Joiner i gets ${JOIN1:-} / ${JOIN2:-} as
# extra options and connects to --host ${JOIN_HOST:-127.0.0.1}; the match has ${MATCH_TICKS:-
# $TICKS} ticks. With KILL=i, joiner i is killed (SIGKILL) ${KILL_AFTER:-2.5} s after it
# started. Leaves TAG.{0,1,2}.{fxr,out,err,rc} in $WORK.
run_match() {
  local tag=$1; shift
  local attempt port i
  for attempt in 1 2 3 4 5; do
    port=$((20000 + RANDOM % 40000))
    rm -f "$WORK/$tag".*
    pids=()
    timeout "$PROCESS_TIMEOUT" "$FIXSTEER" host --players 3 --port "$port" --scenario hunter_prey \
      --ticks "${MATCH_TICKS:-$TICKS}" --tick-ms "$TICK_MS" --out "$WORK/$tag.0.fxr" "$@" \
      >"$WORK/$tag.0.out" 2>"$WORK/$tag.0.err" &
    pids+=($!)
    sleep 0.3
    if ! kill -0 "${pids[0]}" 2>/dev/null && grep -q 'cannot listen' "$WORK/$tag.0.err"; then
      wait "${pids[0]}"
      echo "port $port is taken, drawing another"
      continue
    fi
    for i in 1 2; do
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
    for i in 0 1 2; do
      wait "${pids[$i]}" 2>/dev/null # no "Killed" notice for the joiner killed on purpose
      echo $? >"$WORK/$tag.$i.rc"
    done
    pids=()
    for i in 0 1 2; do sed "s/^/  [$tag $i] /" "$WORK/$tag.$i.out" "$WORK/$tag.$i.err"; done
    return 0
  done
  return 1
}

# A match that must end well: three exit codes 0, three replays that verify, one hash.
check_match() {
  local tag=$1; shift
  run_match "$tag" "$@" || { fail "$tag: no free port found"; return; }
  local i rc ok=1 hashes=()
  for i in 0 1 2; do
    rc=$(cat "$WORK/$tag.$i.rc")
    [ "$rc" -eq 0 ] || { ok=0; echo "  process $i exited $rc"; }
  done
  [ $ok -eq 1 ] && pass "$tag: 3 processes finished" || fail "$tag: 3 processes finished"
  ok=1
  for i in 0 1 2; do
    local v
    if v=$("$FIXSTEER" verify "$WORK/$tag.$i.fxr" 2>&1); then
      hashes+=("$(sed -n 's/.*final hash \(0x[0-9a-f]*\).*/\1/p' <<<"$v")")
    else
      ok=0
      echo "  $v"
    fi
  done
  [ $ok -eq 1 ] && pass "$tag: 3 replays verify" || fail "$tag: 3 replays verify"
  if [ ${#hashes[@]} -eq 3 ] && [ -n "${hashes[0]}" ] && [ "${hashes[0]}" = "${hashes[1]}" ] &&
    [ "${hashes[0]}" = "${hashes[2]}" ]; then
    pass "$tag: equal final hashes ${hashes[0]}"
  else
    fail "$tag: equal final hashes (${hashes[*]:-none})"
  fi
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

# A match where joiner 2 is killed (kill -9) mid-match: the host and joiner 1 must exit 3
# naming the lost player, and each must leave a replay that verifies and ends at the tick
# its message gives ("replay written up to tick N").
check_lost() {
  local tag=$1; shift
  JOIN1="--timeout-ms 1000" JOIN2="--timeout-ms 1000" KILL=2 run_match "$tag" --timeout-ms 1000 "$@" ||
    { fail "$tag: no free port found"; return; }
  local i rc n v
  for i in 0 1; do
    rc=$(cat "$WORK/$tag.$i.rc")
    n=$(sed -n 's/.*: replay written up to tick \([0-9]*\) .*/\1/p' "$WORK/$tag.$i.err" | head -1)
    if [ "$rc" -eq 3 ] && grep -q "lost player 2 at tick" "$WORK/$tag.$i.err" &&
      [ -n "$n" ] && [ "$n" -gt 0 ] && [ "$n" -lt "$TICKS" ]; then
      pass "$tag: process $i names the lost player and the last settled tick $n"
    else
      fail "$tag: process $i names the lost player and the last settled tick (exit $rc, tick '${n}')"
      continue
    fi
    if v=$("$FIXSTEER" verify "$WORK/$tag.$i.fxr" 2>&1) && grep -q ": $n ticks verified" <<<"$v"; then
      pass "$tag: process $i's replay verifies up to tick $n"
    else
      fail "$tag: process $i's replay verifies up to tick $n: $v"
    fi
  done
}

# The host sends a malformed match message (the test hook FIXSTEER_TEST_MATCH_MESSAGE): the
# joiner must name the field, its value and the range, and exit 3 at once, well before its
# 10 s timeout (40 s for the lobby).
check_bad_message() {
  local tag=$1 message=$2 want=$3 attempt port start elapsed rc
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
    if [ "$rc" -eq 3 ] && grep -qF "bad match message from the host at 127.0.0.1:$port: $want" \
      "$WORK/$tag.1.err" && [ "$elapsed" -lt 5000 ]; then
      pass "$tag: the joiner names the bad field and exits 3 in $elapsed ms"
    else
      fail "$tag: the joiner names the bad field ($want) and exits 3 at once (exit $rc, $elapsed ms)"
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

start=$SECONDS
check_refused bad-host-name 3 "--host no.such.host.invalid: cannot resolve" -- \
  "$FIXSTEER" join --host no.such.host.invalid --port 20000
check_refused bad-bind 2 "--bind 999.1.1.1: not an IPv4 address: 999 is above 255" -- \
  "$FIXSTEER" host --players 2 --port 20000 --scenario hunter_prey --ticks 10 --bind 999.1.1.1
check_refused bad-join-bind 2 "--bind 1.2.3: not an IPv4 address" -- \
  "$FIXSTEER" join --host 127.0.0.1 --bind 1.2.3 --port 20000
check_refused ipv6-host 2 "--host ::1: an IPv6 address, and this fixsteer's ENet" -- \
  "$FIXSTEER" join --host ::1 --port 20000
check_bad_message bad-players "FXSTART 2 9 1 100 2 0 77 5 hunter_prey 127.0.0.1:40000" \
  "the field 'players' is 9, allowed 2..8"
check_bad_message bad-address "FXSTART 2 2 1 100 2 0 77 5 hunter_prey 127.0.0.300:40000" \
  "the field 'address of player 1' is '127.0.0.300:40000': not an IPv4 address: 300 is above 255"
MATCH_TICKS=500 JOIN_HOST=localhost check_match localhost
MATCH_TICKS=500 JOIN1="--bind 0.0.0.0" JOIN2="--bind 127.0.0.1" check_match bound --bind 127.0.0.1
check_match lockstep
check_match rollback --rollback
check_desync lockstep-desync
check_desync rollback-desync --rollback
check_lost lockstep-lost
check_lost rollback-lost --rollback
echo "lockstep: $((SECONDS - start)) s"
echo "lockstep: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
