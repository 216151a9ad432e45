#!/usr/bin/env bash
# Links a Cortex-M3 test ELF, then refuses it if any fixsteer or libfixmath object pulled in
# the soft-float runtime (__aeabi_f*, __aeabi_d*): the simulation path is integer-only.
# Test code and Unity may use doubles; only the library objects are checked.
# Usage: link.sh CPU BOARD OUTPUT OBJECT... [-- LINKER ARGS]   (BOARD.ld in this folder)
set -euo pipefail
cpu=$1; board=$2; out=$3; shift 3
objs=(); extra=()
while [ $# -gt 0 ]; do
  if [ "$1" = "--" ]; then shift; extra=("$@"); break; fi
  objs+=("$1"); shift
done
here=$(cd "$(dirname "$0")" && pwd)
lib_objs=()
for o in "${objs[@]}"; do
  base=$(basename "$o" .o)
  lib=(src/*/"$base.c")
  if [ -f "${lib[0]}" ] || [ -f "build/libfixmath/libfixmath/$base.c" ]; then lib_objs+=("$o"); fi
done
if [ ${#lib_objs[@]} -gt 0 ]; then
  bad=$(arm-none-eabi-nm -u "${lib_objs[@]}" | grep -E '__aeabi_(f|d)[a-z0-9]*|__aeabi_[il]2[fd]|__(add|sub|mul|div)[sd]f3' || true)
  if [ -n "$bad" ]; then
    echo "error: library objects use soft-float:" >&2
    arm-none-eabi-nm -uA "${lib_objs[@]}" | grep -E '__aeabi_(f|d)|__aeabi_[il]2[fd]|__(add|sub|mul|div)[sd]f3' >&2
    exit 1
  fi
fi
exec arm-none-eabi-gcc -mcpu="$cpu" -mthumb --specs=nano.specs --specs=rdimon.specs \
  -u _printf_float -L "$here" -T "$here/$board.ld" -Wl,--gc-sections "${objs[@]}" "${extra[@]}" -lm -o "$out"
