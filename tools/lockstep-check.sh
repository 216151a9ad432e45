#!/usr/bin/env bash
# Network play across processes: hunter_prey for 2,000 ticks between 3 fixsteer processes on
# 127.0.0.1 (one host, two joiners), once in lockstep and once with rollback. Every replay
# must verify and all three must end on the same hash. Then both again with one joiner
# flipping a bit of its world at tick 700 (--desync-at): every process must report a desync
# at exactly tick 700 and exit 1.
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

# Plays one match: run_match TAG [HOST OPTIONS...]. Joiner 1 gets $JOIN1 as extra options.
# Leaves TAG.{0,1,2}.{fxr,out,err,rc} in $WORK.
run_match() {
  local tag=$1; shift
  local attempt port i
  for attempt in 1 2 3 4 5; do
    port=$((20000 + RANDOM % 40000))
    rm -f "$WORK/$tag".*
    pids=()
    timeout "$PROCESS_TIMEOUT" "$FIXSTEER" host --players 3 --port "$port" --scenario hunter_prey \
      --ticks "$TICKS" --tick-ms "$TICK_MS" --out "$WORK/$tag.0.fxr" "$@" \
      >"$WORK/$tag.0.out" 2>"$WORK/$tag.0.err" &
    pids+=($!)
    sleep 0.3
    if ! kill -0 "${pids[0]}" 2>/dev/null && grep -q 'cannot listen' "$WORK/$tag.0.err"; then
      wait "${pids[0]}"
      echo "port $port is taken, drawing another"
      continue
    fi
    for i in 1 2; do
      local extra=()
      [ "$i" -eq 1 ] && extra=(${JOIN1:-})
      timeout "$PROCESS_TIMEOUT" "$FIXSTEER" join --host 127.0.0.1 --port "$port" \
        --out "$WORK/$tag.$i.fxr" "${extra[@]}" >"$WORK/$tag.$i.out" 2>"$WORK/$tag.$i.err" &
      pids+=($!)
      sleep 0.1
    done
    for i in 0 1 2; do
      wait "${pids[$i]}"
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
  JOIN1="" run_match "$tag" "$@" || { fail "$tag: no free port found"; return; }
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
  JOIN1="--desync-at $DESYNC_AT" run_match "$tag" "$@" || { fail "$tag: no free port found"; return; }
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

start=$SECONDS
check_match lockstep
check_match rollback --rollback
check_desync lockstep-desync
check_desync rollback-desync --rollback
echo "lockstep: $((SECONDS - start)) s"
echo "lockstep: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
