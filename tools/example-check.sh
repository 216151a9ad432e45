#!/usr/bin/env bash
# The examples as a user meets them, against an INSTALLED fixsteer:
#  - the Ceedling recipe of docs/ceedling.md ("Step by step, in a fresh folder"), taken from
#    the page and run word for word in an empty folder: fixsteer installed for the desktop
#    and built and installed for the Cortex-M3, the project's tests on both (QEMU for the M3);
#  - examples/ceedling-mcu's own Makefile (make test, make test-mcu) against those installs;
#  - the plain Cortex-M0 recipe (make lib CC=arm-none-eabi-gcc EXTRA_CFLAGS="-mcpu=cortex-m0
#    -mthumb"), and that both MCU libraries need nothing outside string.h, assert and
#    libgcc's integer helpers, and no floating point;
#  - examples/game-loop (built with pkg-config, its output as game_loop.expected),
#    examples/rts (its output as rts.expected; its scene file rts.yaml recorded by the
#    installed fixsteer: the same final hash and the same replay bytes) and
#    examples/lockstep-enet (two processes over ENet, in lockstep and with rollback: the same
#    final hash, replays that the installed fixsteer verifies at it, the same replay bytes).
# Each Ceedling test counts as one check. Prints "example: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
root=$PWD
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

work=$(mktemp -d)
trap 'rm -rf "$work"; make -s -C examples/ceedling-mcu clean >/dev/null 2>&1' EXIT

# Adds the Ceedling summaries of a log (one per run) to the counts; false without any.
count_ceedling() { # label log runs
  local label=$1 log=$2 runs=$3 tested passed failed
  tested=$(sed -n 's/^TESTED: *\([0-9]*\).*/\1/p' "$log")
  passed=$(sed -n 's/^PASSED: *\([0-9]*\).*/\1/p' "$log")
  failed=$(sed -n 's/^FAILED: *\([0-9]*\).*/\1/p' "$log")
  if [ "$(printf '%s\n' $tested | grep -c '^[1-9]')" -ne "$runs" ]; then
    bad "$label: expected $runs Ceedling summaries:"; tail -n 30 "$log"; return 1
  fi
  for n in $passed; do pass=$((pass + n)); done
  for n in $failed; do fail=$((fail + n)); done
  if printf '%s\n' $failed | grep -q '^[1-9]'; then
    echo "FAIL: $label: tests failed:"; grep -E 'Expected|FAIL' "$log" | head | sed 's/^/    /'
  else
    echo "ok: $label: $(printf '%s ' $passed)tests passed"
  fi
}

# --- 1. The recipe of docs/ceedling.md, word for word, in an empty folder.
awk '/^<!-- recipe:/ { found = 1; next } found && /^```sh$/ { inside = 1; next }
     inside && /^```$/ { exit } inside { print }' docs/ceedling.md >"$work/recipe.sh"
if [ ! -s "$work/recipe.sh" ]; then
  bad "docs/ceedling.md has no recipe block"
else
  mkdir "$work/fresh"
  if (cd "$work/fresh" && FIXSTEER=$root bash -e "$work/recipe.sh") >"$work/recipe.log" 2>&1; then
    ok "the recipe of docs/ceedling.md ran in an empty folder ($(grep -c . "$work/recipe.sh") lines)"
  else
    bad "the recipe of docs/ceedling.md stopped:"; tail -n 30 "$work/recipe.log"
  fi
  count_ceedling "recipe: desktop, then Cortex-M3 under QEMU" "$work/recipe.log" 2
fi
host=$work/fresh/guard/fixsteer
m3=$work/fresh/guard/fixsteer-cortex-m3

# --- 2. The example's own Makefile, against installs elsewhere.
if [ -f "$host/lib/libfixsteer.a" ] && [ -f "$m3/lib/libfixsteer.a" ]; then
  make -C examples/ceedling-mcu test FIXSTEER_PREFIX="$host" >"$work/make-test.log" 2>&1
  count_ceedling "make -C examples/ceedling-mcu test FIXSTEER_PREFIX=..." "$work/make-test.log" 1
  make -C examples/ceedling-mcu test-mcu FIXSTEER_MCU_PREFIX="$m3" >"$work/make-test-mcu.log" 2>&1
  count_ceedling "make -C examples/ceedling-mcu test-mcu FIXSTEER_MCU_PREFIX=..." "$work/make-test-mcu.log" 1
fi

# --- 3. The plain Cortex-M0 recipe, in its own build directory so the desktop build stays.
if make -s -j2 lib CC=arm-none-eabi-gcc EXTRA_CFLAGS="-mcpu=cortex-m0 -mthumb" BUILD_DIR=build/cortex-m0 \
     >"$work/m0.log" 2>&1; then
  ok "make lib CC=arm-none-eabi-gcc EXTRA_CFLAGS=\"-mcpu=cortex-m0 -mthumb\" builds"
else
  bad "the Cortex-M0 recipe failed:"; tail -n 20 "$work/m0.log"
fi

# What a bare-metal link must provide: symbols the archive uses and does not define.
# Allowed: string.h functions, assert's handler, libgcc's integer division/multiply/bit helpers.
allowed='^(memcpy|memmove|memset|memcmp|memchr|__assert_func|__aeabi_(u?idiv(mod)?|u?ldivmod|lmul|llsl|llsr|lasr)|__clz[sd]i2|__ctz[sd]i2|__popcount[sd]i2)$'
for cpu in cortex-m3 cortex-m0; do
  lib=build/$cpu/libfixsteer.a
  [ -f "$lib" ] || { bad "$lib missing"; continue; }
  arm-none-eabi-nm -u "$lib" 2>/dev/null | awk 'NF == 2 {print $2}' | sort -u >"$work/undef"
  arm-none-eabi-nm --defined-only "$lib" 2>/dev/null | awk 'NF == 3 {print $3}' | sort -u >"$work/def"
  external=$(comm -23 "$work/undef" "$work/def")
  others=$(printf '%s\n' "$external" | grep -vE "$allowed" | grep -v '^$' || true)
  if [ -z "$others" ]; then ok "$cpu libfixsteer.a needs only: $(echo $external)"
  else bad "$cpu libfixsteer.a needs more than string.h, assert and libgcc integer helpers: $(echo $others)"; fi
done

# --- 4. The programs of examples/, built as their comments say, against the desktop install.
export PKG_CONFIG_PATH=$host/lib/pkgconfig
cflags=(-std=c99 -Wall -Wextra -Werror -pedantic)
# shellcheck disable=SC2046
if cc "${cflags[@]}" examples/game-loop/game_loop.c $(pkg-config --cflags --libs fixsteer) \
     -o "$work/game_loop" >"$work/game-loop.log" 2>&1; then
  if "$work/game_loop" >"$work/game_loop.out" 2>&1 && diff -u examples/game-loop/game_loop.expected "$work/game_loop.out"; then
    ok "examples/game-loop: built with pkg-config, prints game_loop.expected ($(tail -n 2 "$work/game_loop.out" | head -n 1))"
  else
    bad "examples/game-loop: exit or output differs"
  fi
else
  bad "examples/game-loop does not build:"; cat "$work/game-loop.log"
fi

# examples/rts: built as its comment says; its output is rts.expected, and its scene-file twin
# (rts.yaml) recorded by the installed fixsteer gives the same final hash and the same replay,
# byte for byte; the installed fixsteer verifies the program's replay.
# shellcheck disable=SC2046
if cc "${cflags[@]}" examples/rts/rts.c $(pkg-config --cflags --libs fixsteer) \
     -o "$work/rts" >"$work/rts.log" 2>&1; then
  if "$work/rts" "$work/rts-c.fxr" >"$work/rts.out" 2>&1 && diff -u examples/rts/rts.expected "$work/rts.out"; then
    ok "examples/rts: built with pkg-config, prints rts.expected ($(tail -n 2 "$work/rts.out" | head -n 1))"
  else
    bad "examples/rts: exit or output differs"
  fi
  c_hash=$(sed -n 's/.*final hash \(0x[0-9a-f]\{16\}\).*/\1/p' "$work/rts.out")
  y_hash=$("$host/bin/fixsteer" record --scenario examples/rts/rts.yaml --out "$work/rts-yaml.fxr" 2>&1 |
           sed -n 's/.*final hash \(0x[0-9a-f]\{16\}\).*/\1/p')
  v_hash=$("$host/bin/fixsteer" verify "$work/rts-c.fxr" 2>&1 | sed -n 's/.*verified, final hash \(0x[0-9a-f]*\).*/\1/p')
  if [ -n "$c_hash" ] && [ "$c_hash" = "$y_hash" ] && [ "$v_hash" = "$c_hash" ]; then
    ok "examples/rts: rts.c and rts.yaml end on one hash, $c_hash; the installed fixsteer verifies rts.c's replay"
  else
    bad "examples/rts: rts.c ends on '$c_hash', rts.yaml on '$y_hash', verify says '$v_hash'"
  fi
  if cmp "$work/rts-c.fxr" "$work/rts-yaml.fxr"; then
    ok "examples/rts: rts.c and rts.yaml record the same replay, byte for byte"
  else
    bad "examples/rts: the replays of rts.c and rts.yaml differ"
  fi
else
  bad "examples/rts does not build:"; cat "$work/rts.log"
fi

# shellcheck disable=SC2046
if cc "${cflags[@]}" examples/lockstep-enet/lockstep.c $(pkg-config --cflags --libs fixsteer) -lenet \
     -o "$work/lockstep" >"$work/lockstep.log" 2>&1; then
  ok "examples/lockstep-enet: built with pkg-config and -lenet"
  # play MODE: two processes on 127.0.0.1 (a port drawn at random, retried when taken).
  play() {
    local mode=$1 flag=${2:-} port try
    for try in 1 2 3 4 5; do
      port=$((20000 + RANDOM % 40000))
      timeout 60 "$work/lockstep" 0 "$port" "$work/$mode.0.fxr" $flag >"$work/$mode.0.out" 2>&1 &
      local host_pid=$!
      sleep 0.2
      timeout 60 "$work/lockstep" 1 "$port" "$work/$mode.1.fxr" 127.0.0.1 $flag >"$work/$mode.1.out" 2>&1
      echo $? >"$work/$mode.1.rc"
      wait $host_pid; echo $? >"$work/$mode.0.rc"
      grep -q "no other player" "$work/$mode.0.out" "$work/$mode.1.out" || break
    done
  }
  hash_in() { sed -n 's/.*final hash \(0x[0-9a-f]\{16\}\).*/\1/p' "$1" | head -n 1; }
  for mode in lockstep rollback; do
    play $mode $([ $mode = rollback ] && echo --rollback)
    h0=$(hash_in "$work/$mode.0.out"); h1=$(hash_in "$work/$mode.1.out")
    v0=$("$host/bin/fixsteer" verify "$work/$mode.0.fxr" 2>&1 | sed -n 's/.*verified, final hash \(0x[0-9a-f]*\).*/\1/p')
    v1=$("$host/bin/fixsteer" verify "$work/$mode.1.fxr" 2>&1 | sed -n 's/.*verified, final hash \(0x[0-9a-f]*\).*/\1/p')
    if [ "$(cat "$work/$mode.0.rc")" = 0 ] && [ "$(cat "$work/$mode.1.rc")" = 0 ] && [ -n "$h0" ] &&
       [ "$h0" = "$h1" ] && [ "$v0" = "$h0" ] && [ "$v1" = "$h0" ]; then
      ok "examples/lockstep-enet, $mode: both players end on $h0; the installed fixsteer verifies both replays at it"
    else
      bad "examples/lockstep-enet, $mode: exits $(cat "$work/$mode.0.rc") $(cat "$work/$mode.1.rc"), hashes '$h0' '$h1', verified '$v0' '$v1'"
      cat "$work/$mode".*.out
    fi
  done
  if cmp -s "$work/lockstep.0.fxr" "$work/rollback.0.fxr" && cmp -s "$work/lockstep.1.fxr" "$work/rollback.1.fxr"; then
    ok "examples/lockstep-enet: rollback records the same replays as lockstep, byte for byte"
  else
    bad "examples/lockstep-enet: the rollback replays differ from the lockstep ones"
  fi
else
  bad "examples/lockstep-enet does not build:"; cat "$work/lockstep.log"
fi

echo "example: ${pass} passed, ${fail} failed"
[ "$fail" -eq 0 ]
