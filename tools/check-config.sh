#!/usr/bin/env bash
# Shows that a libfixmath built differently is caught, never a silent desync:
#  1. a result-changing flag given to the whole build stops it at compile time (config.h);
#  2. a libfixmath compiled apart with such a flag (config.h cannot see it) changes the math
#     fingerprint, and fixsteer refuses the golden replays ("recorded with different math");
#  3. a build without mesh worlds (FXS_NAV_MESH=0, config.h, as the Cortex-M0 suite builds)
#     computes the same grid worlds (the navigation goldens verify) and refuses a mesh scene
#     by name.
# Prints "config: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

for flag in FIXMATH_NO_ROUNDING FIXMATH_NO_OVERFLOW FIXMATH_SIN_LUT FIXMATH_FAST_SIN FIXMATH_OPTIMIZE_8BIT FIXMATH_NO_HARD_DIVISION; do
  if make -s BUILD_DIR=build/config-$flag EXTRA_CFLAGS=-D$flag lib >build/config.log 2>&1; then
    bad "a build with -D$flag went through"
  elif grep -q "#error \"fixsteer: $flag" build/config.log; then
    ok "-D$flag stops the build: $(grep -o "fixsteer: $flag[^\"]*" build/config.log | head -1)"
  else
    bad "-D$flag failed for another reason (see build/config.log)"
  fi
done

# libfixmath alone with FIXMATH_NO_ROUNDING, the library and tool as usual. The fixsteer
# objects are linked one by one: libfixsteer.a carries the pinned libfixmath inside.
dir=build/config-apart
mkdir -p "$dir/obj"
make -s BUILD_DIR=build lib >/dev/null 2>&1
for f in fix16 fix16_trig fix16_sqrt; do
  cc -std=c99 -O2 -w -DFIXMATH_NO_CACHE -DFIXMATH_NO_ROUNDING -Ibuild/libfixmath/libfixmath \
    -c build/libfixmath/libfixmath/$f.c -o "$dir/obj/$f.o"
done
ar rcs "$dir/libfixmath.a" "$dir"/obj/*.o
lib_objects=()
for o in build/obj/*/*.o; do # build/obj/MODULE/NAME.o; build/obj/libfixmath holds the pinned one
  case "$o" in build/obj/libfixmath/*) ;; *) lib_objects+=("$o") ;; esac
done
cc -std=c99 -O2 -DFIXMATH_NO_CACHE -DFXS_TOOL_NO_ENET -Iinclude -Ibuild/libfixmath/libfixmath tools/fixsteer/*.c \
  "${lib_objects[@]}" "$dir/libfixmath.a" -lyaml -o "$dir/fixsteer"
out=$("$dir/fixsteer" verify test/golden/patrol.fxr 2>&1); rc=$?
if [ "$rc" -eq 2 ] && printf '%s' "$out" | grep -q "recorded with different math"; then
  ok "a libfixmath built apart with FIXMATH_NO_ROUNDING is refused: $out"
else
  bad "a different libfixmath was not caught (exit $rc): $out"
fi

dir=build/config-nomesh
if make -s BUILD_DIR=$dir EXTRA_CFLAGS=-DFXS_NAV_MESH=0 lib >build/config.log 2>&1 &&
  cc -std=c99 -O2 -DFIXMATH_NO_CACHE -DFXS_TOOL_NO_ENET -DFXS_NAV_MESH=0 -Iinclude \
    -Ibuild/libfixmath/libfixmath tools/fixsteer/*.c "$dir"/obj/*/*.o -lyaml -o "$dir/fixsteer" \
    >>build/config.log 2>&1; then
  for g in nav_door nav_building nav_crowd; do
    out=$("$dir/fixsteer" verify "test/golden/$g.fxr" 2>&1); rc=$?
    if [ "$rc" -eq 0 ]; then ok "without mesh worlds: $out"; else bad "without mesh worlds, $g (exit $rc): $out"; fi
  done
  out=$("$dir/fixsteer" record --scenario scenarios/nav_door_mesh.yaml --ticks 10 --out "$dir/mesh.fxr" 2>&1); rc=$?
  if [ "$rc" -eq 2 ] && printf '%s' "$out" | grep -q "this build leaves mesh worlds out"; then
    ok "without mesh worlds, a mesh scene is refused: $out"
  else
    bad "without mesh worlds, a mesh scene was not refused by name (exit $rc): $out"
  fi
else
  bad "the build with -DFXS_NAV_MESH=0 failed (see build/config.log)"
fi
echo "config: ${pass} passed, ${fail} failed"
[ "$fail" -eq 0 ]
