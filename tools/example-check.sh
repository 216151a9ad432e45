#!/usr/bin/env bash
# Runs examples/ceedling-mcu, a user project tested with Ceedling against an INSTALLED
# fixsteer, as a user would (docs/ceedling.md):
#  - installs fixsteer for the desktop, and builds and installs it for the Cortex-M3
#    (make install-lib CC=arm-none-eabi-gcc EXTRA_CFLAGS="-mcpu=cortex-m3 -mthumb" ...);
#  - runs the project's tests on the desktop and on the emulated Cortex-M3 (QEMU);
#  - builds the plain Cortex-M0 recipe (make lib CC=arm-none-eabi-gcc
#    EXTRA_CFLAGS="-mcpu=cortex-m0 -mthumb") and checks that both MCU libraries need nothing
#    outside string.h, assert and libgcc's integer helpers, and no floating point.
# Each Ceedling test counts as one check. Prints "example: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

work=$(mktemp -d)
trap 'rm -rf "$work" examples/ceedling-mcu/build' EXIT
host=$work/host
m3=$work/cortex-m3

if make -s -j2 install PREFIX="$host" >"$work/host.log" 2>&1; then ok "fixsteer installed for the desktop"
else bad "desktop install failed:"; tail -n 20 "$work/host.log"; fi

if make -s -j2 install-lib CC=arm-none-eabi-gcc EXTRA_CFLAGS="-mcpu=cortex-m3 -mthumb" \
     BUILD_DIR=build/cortex-m3 PREFIX="$m3" >"$work/m3.log" 2>&1; then
  ok "fixsteer built and installed for the Cortex-M3 (install-lib: headers, libfixsteer.a, .pc, CMake)"
else
  bad "Cortex-M3 build or install failed:"; tail -n 20 "$work/m3.log"
fi

# The plain recipe of the README, in its own build directory so the desktop build stays.
if make -s -j2 lib CC=arm-none-eabi-gcc EXTRA_CFLAGS="-mcpu=cortex-m0 -mthumb" BUILD_DIR=build/cortex-m0 \
     >"$work/m0.log" 2>&1; then
  ok "make lib CC=arm-none-eabi-gcc EXTRA_CFLAGS=\"-mcpu=cortex-m0 -mthumb\" builds"
else
  bad "the Cortex-M0 recipe failed:"; tail -n 20 "$work/m0.log"
fi

# What a bare-metal link must provide: symbols the archive uses and does not define.
# Allowed: string.h functions, assert's handler, libgcc's integer division/multiply/bit helpers.
allowed='^(memcpy|memmove|memset|memcmp|__assert_func|__aeabi_(u?idiv(mod)?|u?ldivmod|lmul|llsl|llsr|lasr)|__clz[sd]i2|__ctz[sd]i2|__popcount[sd]i2)$'
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

# Runs one Ceedling target of the example and counts its tests.
ceedling_run() { # label make-target prefix-variable=value
  local label=$1 target=$2 var=$3 log=$work/$2.log tested passed failed
  make -C examples/ceedling-mcu "$target" "$var" >"$log" 2>&1
  tested=$(sed -n 's/^TESTED: *\([0-9]*\).*/\1/p' "$log" | tail -n1)
  passed=$(sed -n 's/^PASSED: *\([0-9]*\).*/\1/p' "$log" | tail -n1)
  failed=$(sed -n 's/^FAILED: *\([0-9]*\).*/\1/p' "$log" | tail -n1)
  if [ -z "$tested" ] || [ "$tested" -eq 0 ]; then
    bad "$label: no Ceedling summary:"; tail -n 20 "$log"; return
  fi
  pass=$((pass + passed)); fail=$((fail + failed))
  if [ "$failed" -eq 0 ]; then echo "ok: $label: $passed of $tested tests passed"
  else echo "FAIL: $label: $failed of $tested tests failed:"; grep -E 'Expected|FAIL' "$log" | head | sed 's/^/    /'; fi
}
ceedling_run "desktop (gcc, installed libfixsteer.a)" test FIXSTEER_PREFIX="$host"
ceedling_run "Cortex-M3 under QEMU (installed Cortex-M3 libfixsteer.a)" test-mcu FIXSTEER_MCU_PREFIX="$m3"

echo "example: ${pass} passed, ${fail} failed"
[ "$fail" -eq 0 ]
