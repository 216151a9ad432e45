# shellcheck shell=bash
# The checks of joins that cannot be forged, sourced by tools/lockstep-check.sh (which defines
# WORK, FIXSTEER, TICKS, pids, pass/fail and the helpers start_host, start_join, finish,
# wait_until, abandon and host_tick): a host whose offers claim frames of the returning player
# (FIXSTEER_TEST_FORGE_OFFER), a host whose state is of a tick nobody else settled
# (FIXSTEER_TEST_UNCONFIRMED_STATE), a returning player that announces a wrong tick
# (FIXSTEER_TEST_JOINED_TICK), and a flood of connections.
# start_and_kill_two TAG [HOST OPTIONS...]: a host (--rejoin-ms 2500) and players 1 and 2;
# player 2 is killed at tick 250. True once the host says it left.
start_and_kill_two() {
  local tag=$1; shift
  start_host "$tag" --ticks "$TICKS" --rejoin-ms 2500 "$@" || { fail "$tag: no free port found"; return 1; }
  start_join "$tag" 1 timeout; sleep 0.1; start_join "$tag" 2 kill
  wait_until 30 "[ \$(host_tick $tag) -ge 250 ]" || { abandon "$tag: the match reaches tick 250"; return 1; }
  kill -9 "${pids[2]}"
  wait "${pids[2]}" 2>/dev/null
  wait_until 20 "grep -q 'player 2 left at tick' '$WORK/$tag.0.err'" ||
    { abandon "$tag: the host notices that player 2 left"; return 1; }
}

# The host's join offers claim three frames "of player 2" that despawn its agent (the test hook
# FIXSTEER_TEST_FORGE_OFFER): the returning player 2 refuses the host's offer, naming the field,
# and leaves; the host reports that player 2 refused its offer and, when player 2 does not come
# back within --rejoin-ms, the match ends saying so. Nobody adopts the frames.
# With FORGE=1:2, the frames claimed are two of player 1, who is in the match: they go past
# player 1's own offer, and the returning player refuses them the same way.
check_forged_offer() {
  local tag=$1 rc forge=${FORGE:-2:3}
  shift
  HOST_ENV=FIXSTEER_TEST_FORGE_OFFER=$forge start_and_kill_two "$tag" "$@" || return
  start_join "$tag" 3 timeout
  finish "$tag" 0 1 3
  pids=()
  rc=$(cat "$WORK/$tag.3.rc")
  if [ "$rc" -eq 3 ] && grep -Eq "cannot join the match: the offer of player 0 \(offer 0 of 2\), byte [0-9]+ \(player ${forge%%:*}'s input of tick [0-9]+\): not confirmed by the other peers" "$WORK/$tag.3.err"; then
    pass "$tag: the returning player refuses the host's forged frames, naming the field"
  else
    fail "$tag: the returning player refuses the host's forged frames, naming the field (exit $rc)"
  fi
  if grep -q "player 2 did not finish joining: it refused the join offer of peer 0" "$WORK/$tag.0.err"; then
    pass "$tag: the host blames its own offer"
  else
    fail "$tag: the host blames its own offer"
  fi
  # The first to give up says why; the other may hear it from that one first.
  if grep -q "lost player 2 at tick [0-9]*: it did not come back within 2500 ms: it refused the join offer of player 0" \
    "$WORK/$tag.0.err" "$WORK/$tag.1.err"; then
    pass "$tag: the match ends naming the refused offer"
  else
    fail "$tag: the match ends naming the refused offer"
  fi
}

# The host's first state offer is of a tick nobody else settled (the test hook
# FIXSTEER_TEST_UNCONFIRMED_STATE: it steps its world 3 ticks on inputs nobody confirmed and
# claims them settled, with their hashes): the returning player 2 refuses it, naming the host
# and the field (its settled tick), and the host blames its own offer. Player 2 then comes back
# from the host's next, honest offer, the match ends, and the three replays verify to one hash.
# Killed with kill -9, player 2 may leave its last input with the host alone; player 1 then
# never settles the host's tick nor sends its offer, and no join is tried (docs/security.md,
# "Limits of the rule"). That set-up is played once more, saying so.
check_unconfirmed_state() {
  local tag=$1 rc i v n at ok=1 hashes=() try
  shift
  for try in 1 2; do
    HOST_ENV=FIXSTEER_TEST_UNCONFIRMED_STATE=3 start_and_kill_two "$tag" "$@" || return
    start_join "$tag" 3 timeout
    wait "${pids[3]}" 2>/dev/null
    echo $? >"$WORK/$tag.3.rc"
    start_join "$tag" 4 timeout
    finish "$tag" 0 1 4
    grep -q "cannot join the match\|joined the match" "$WORK/$tag.3.err" && break
    [ "$try" = 1 ] && echo "  $tag: no join was tried (player 2's last input reached one peer only): once more"
  done
  sed "s/^/  [$tag 3] /" "$WORK/$tag.3.out" "$WORK/$tag.3.err"
  pids=()
  rc=$(cat "$WORK/$tag.3.rc")
  if [ "$rc" -eq 3 ] && grep -Eq "cannot join the match: the offer of player 0 \(offer 0 of 2\), byte 16 \(its settled tick\): not confirmed by the other peers" "$WORK/$tag.3.err" &&
    ! grep -q "joined the match" "$WORK/$tag.3.err"; then
    pass "$tag: the returning player refuses the host's unconfirmed state, naming the field"
  else
    fail "$tag: the returning player refuses the host's unconfirmed state, naming the field (exit $rc)"
  fi
  if grep -q "player 2 did not finish joining: it refused the join offer of peer 0" "$WORK/$tag.0.err"; then
    pass "$tag: the host blames its own offer"
  else
    fail "$tag: the host blames its own offer"
  fi
  for i in 0 1 4; do
    rc=$(cat "$WORK/$tag.$i.rc")
    [ "$rc" -eq 0 ] || { ok=0; echo "  process $i exited $rc"; }
    at=$(sed -n 's/.*joined at tick \([0-9]*\),.*/\1/p' "$WORK/$tag.$i.out")
    at=${at:-0}
    if v=$("$FIXSTEER" verify "$WORK/$tag.$i.fxr" 2>&1) &&
      n=$(sed -n 's/.*: \([0-9]*\) ticks verified.*/\1/p' <<<"$v") && [ $((at + n)) -eq "$TICKS" ]; then
      hashes+=("$(sed -n 's/.*final hash \(0x[0-9a-f]*\).*/\1/p' <<<"$v")")
    else
      ok=0
      echo "  process $i's replay does not verify up to tick $TICKS (from $at): $v"
    fi
  done
  if [ $ok -eq 1 ] && grep -q "player 2 is in the match from tick" "$WORK/$tag.0.err" &&
    [ ${#hashes[@]} -eq 3 ] && [ -n "${hashes[0]}" ] && [ "${hashes[0]}" = "${hashes[1]}" ] &&
    [ "${hashes[0]}" = "${hashes[2]}" ]; then
    pass "$tag: player 2 comes back from the honest offer; 3 replays verify, final hash ${hashes[0]}"
  else
    fail "$tag: player 2 comes back from the honest offer; 3 replays verify to one hash (${hashes[*]:-none})"
  fi
}

# The returning player 2 announces a tick 10 below the one it joined at (the test hook
# FIXSTEER_TEST_JOINED_TICK): the host refuses it, naming both ticks; it leaves saying it was
# refused; nobody reports losing the host or player 1, and the match ends on player 2.
check_lying_joiner() {
  local tag=$1 rc
  shift
  start_and_kill_two "$tag" "$@" || return
  FIXSTEER_TEST_JOINED_TICK=-10 start_join "$tag" 3 timeout
  finish "$tag" 0 1 3
  pids=()
  rc=$(cat "$WORK/$tag.3.rc")
  if grep -Eq "cannot take player 2 back: it announced tick ([0-9]+), but the state offered to it is of tick [0-9]+" "$WORK/$tag.0.err" &&
    [ "$rc" -eq 3 ] && grep -q "refused our join: the tick we announced" "$WORK/$tag.3.err"; then
    pass "$tag: the host refuses the joiner's tick and the joiner says so"
  else
    fail "$tag: the host refuses the joiner's tick and the joiner says so (exit $rc)"
  fi
  if ! grep -Eq "lost (the host|player [01])" "$WORK/$tag.0.err" "$WORK/$tag.1.err" "$WORK/$tag.3.err" &&
    grep -q "lost player 2 at tick" "$WORK/$tag.0.err"; then
    pass "$tag: the blame stays on player 2"
  else
    fail "$tag: the blame stays on player 2"
  fi
}

# Nine connections that wait for a player slot (none is free) flood the host's waiting list
# (8 places); a spectator that arrives then still gets the free spectator slot, follows the
# match to its end, and its replay verifies. The flood is turned away (exit 3).
check_flood() {
  local tag=$1 i rc ok=1 flood=()
  shift
  start_host "$tag" --spectators 1 --ticks 1000 "$@" || { fail "$tag: no free port found"; return; }
  start_join "$tag" 1 timeout
  sleep 0.1
  start_join "$tag" 2 timeout
  wait_until 30 "[ \$(host_tick $tag) -ge 100 ]" || { abandon "$tag: the match reaches tick 100"; return; }
  for i in 10 11 12 13 14 15 16 17 18; do
    timeout 30 "$FIXSTEER" join --host 127.0.0.1 --port "$port" --timeout-ms 5000 \
      --out "$WORK/$tag.$i.fxr" >"$WORK/$tag.$i.out" 2>"$WORK/$tag.$i.err" &
    flood+=($!)
  done
  wait_until 10 "[ \$(grep -c 'waits for a player slot' '$WORK/$tag.0.err') -ge 8 ]" ||
    { kill "${flood[@]}" 2>/dev/null; abandon "$tag: the flood reaches the host"; return; }
  start_join "$tag" 3 timeout --spectate
  finish "$tag" 0 1 2 3
  pids=()
  for i in "${flood[@]}"; do kill "$i" 2>/dev/null; wait "$i" 2>/dev/null; done
  for i in 0 1 2 3; do
    rc=$(cat "$WORK/$tag.$i.rc")
    [ "$rc" -eq 0 ] || { ok=0; echo "  process $i exited $rc"; }
  done
  if [ $ok -eq 1 ] && grep -q "joined the match as spectator" "$WORK/$tag.3.err" &&
    "$FIXSTEER" verify "$WORK/$tag.3.fxr" >/dev/null 2>&1; then
    pass "$tag: a spectator gets the free slot through a flood of 9 connections"
  else
    fail "$tag: a spectator gets the free slot through a flood of 9 connections"
  fi
}
