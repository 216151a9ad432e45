#!/usr/bin/env bash
# fixsteer on Windows, built with Debian's mingw-w64 and run under Wine (tools/wine-run.sh):
#  - fixsteer.dll exports exactly the FXS_API functions of the public headers (no libfixmath,
#    no internal helper) and needs nothing but the system's KERNEL32.dll and msvcrt.dll;
#  - programs linked against its import library libfixsteer.dll.a, with FXS_DLL (dllimport)
#    and without: examples/game-loop prints game_loop.expected (the Linux output), built by
#    hand and by examples/windows-dll's CMake project with its toolchain file, and
#    examples/consumer/c/verify_replay.c verifies every golden replay at its pinned hash;
#  - the static fixsteer.exe records a replay byte-identical to the Linux build's, onto an
#    existing file too (Windows' rename() would refuse it), leaving no temporary file;
#  - render hands its SVG to rsvg-convert through _spawnlp (a stand-in here) and says clearly
#    when there is none.
#
#   WIN_CC=x86_64-w64-mingw32-gcc WIN_DIR=build/win64 bash tools/windows-check.sh   (defaults)
#   WIN_CC=i686-w64-mingw32-gcc WIN_DIR=build/win32 bash tools/windows-check.sh     (wine32)
# Prints "windows: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
root=$PWD
cc=${WIN_CC:-x86_64-w64-mingw32-gcc}
dir=${WIN_DIR:-build/win64}
prefix=${cc%-gcc}
run=tools/wine-run.sh
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
finish() { echo "windows: ${pass} passed, ${fail} failed"; [ "$fail" -eq 0 ]; exit; }

if ! make -s -j2 CC="$cc" AR="$prefix-ar" BUILD_DIR="$dir" NO_YAML=1 NO_ENET=1 LDFLAGS=-static \
     lib shared tools >"$dir.log" 2>&1; then
  bad "the $cc build failed:"; tail -n 20 "$dir.log"; finish
fi
ok "$cc: libfixsteer.a, fixsteer.dll, libfixsteer.dll.a and fixsteer.exe built (-Werror)"
work=$dir/windows-check
rm -rf "$work" && mkdir -p "$work"

# A program that prints nothing at all means Wine could not start it (a 32-bit program under
# a Wine without 32-bit support exits 0 silently): say so once and stop.
if [ -z "$("$run" "$dir/bin/fixsteer.exe" --version 2>/dev/null)" ]; then
  bad "Wine runs no $cc program here (for i686: wine32 is not installed)"; finish
fi

# --- the DLL's exports and imports
objdump=$prefix-objdump
"$objdump" -p "$dir/fixsteer.dll" >"$work/dll.txt"
sed -n '/\[Ordinal\/Name Pointer\] Table/,/^$/p' "$work/dll.txt" |
  sed -n 's/^[[:space:]]*\[ *[0-9]*\] \([A-Za-z_][A-Za-z0-9_]*\)$/\1/p' |
  sort >"$work/exports.txt"
sed -n 's/^FXS_API .*[ *]\(fxs_[a-z0-9_]*\)(.*/\1/p' include/fixsteer/*.h | sort -u >"$work/api.txt"
if [ -s "$work/api.txt" ] && cmp -s "$work/exports.txt" "$work/api.txt"; then
  ok "fixsteer.dll exports the $(wc -l <"$work/api.txt") FXS_API functions, nothing else"
else
  bad "fixsteer.dll exports differ from the FXS_API functions:"; diff "$work/api.txt" "$work/exports.txt" | head
fi
imports=$(sed -n 's/^\tDLL Name: //p' "$work/dll.txt" | sort | tr '\n' ' ')
if [ "$imports" = "KERNEL32.dll msvcrt.dll " ]; then ok "fixsteer.dll imports only $imports"
else bad "fixsteer.dll imports $imports(expected KERNEL32.dll msvcrt.dll)"; fi

# --- programs linked against the import library
flags=(-std=c99 -O2 -Wall -Wextra -Werror -DFIXMATH_NO_CACHE -Iinclude -Ibuild/libfixmath/libfixmath)
cp "$dir/fixsteer.dll" "$work/"
build() { # name source extra-flags...
  local name=$1 src=$2; shift 2
  "$cc" "${flags[@]}" "$@" "$src" "$dir/libfixsteer.dll.a" -o "$work/$name.exe" >"$work/$name.log" 2>&1 ||
    { bad "$name does not build against libfixsteer.dll.a:"; cat "$work/$name.log"; return 1; }
  if "$objdump" -p "$work/$name.exe" | grep -q 'DLL Name: fixsteer.dll'; then return 0; fi
  bad "$name.exe does not load fixsteer.dll"; return 1
}
if build game_loop examples/game-loop/game_loop.c -DFXS_DLL; then
  "$run" "$work/game_loop.exe" >"$work/game_loop.out" 2>&1
  if diff -u examples/game-loop/game_loop.expected "$work/game_loop.out" >"$work/game_loop.diff"; then
    ok "examples/game-loop with fixsteer.dll (dllimport) prints game_loop.expected ($(grep '^replay' "$work/game_loop.out"))"
  else
    bad "examples/game-loop with fixsteer.dll prints other lines than on Linux:"; cat "$work/game_loop.diff"
  fi
fi

# The CMake project of docs/embedding.md: a toolchain file and an imported DLL target.
toolchain=$PWD/examples/windows-dll/mingw-w64-$("$cc" -dumpmachine | cut -d- -f1).cmake
if cmake -S examples/windows-dll -B "$work/cmake" -DCMAKE_TOOLCHAIN_FILE="$toolchain" \
     -DFIXSTEER_DIR="$PWD/$dir" -DFIXSTEER_INCLUDE="$PWD/include" \
     -DFIXMATH_INCLUDE="$PWD/build/libfixmath/libfixmath" >"$work/cmake.log" 2>&1 &&
   cmake --build "$work/cmake" >>"$work/cmake.log" 2>&1 &&
   "$run" "$work/cmake/game_loop.exe" 2>&1 | diff -q examples/game-loop/game_loop.expected - >/dev/null
then
  ok "examples/windows-dll: CMake with the mingw-w64 toolchain file links the DLL;" \
     "the game loop prints game_loop.expected"
else
  bad "examples/windows-dll (CMake):"; tail -n 15 "$work/cmake.log"
fi

# The final hash verify_VARIANT.exe prints for golden replay NAME (empty when it prints none).
verified_hash() {
  "$run" "$work/verify_$1.exe" "test/golden/$2.fxr" 2>&1 | sed -n 's/.*final hash \(0x[0-9a-f]*\).*/\1/p'
}

declare -A pinned
while read -r file hash; do pinned[$file]=$hash; done < <(
  sed -n 's/.*{"test\/golden\/\([a-z_]*\)\.fxr", [0-9]*, UINT64_C(\(0x[0-9a-f]*\))}.*/\1 \2/p' test/test_golden.c)
for variant in dllimport plain; do
  extra=(); [ "$variant" = dllimport ] && extra=(-DFXS_DLL)
  build "verify_$variant" examples/consumer/c/verify_replay.c "${extra[@]}" || continue
  wrong=""; n=0
  for s in $(printf '%s\n' "${!pinned[@]}" | sort); do
    n=$((n + 1))
    got=$(verified_hash "$variant" "$s")
    # No output at all is Wine not running the program (seen once in many runs; the same
    # program and replay printed the pinned hash when run again): one more run. A wrong hash
    # is never run again.
    if [ -z "$got" ]; then
      echo "note: no output from verify_$variant.exe on $s under Wine; running it again"
      got=$(verified_hash "$variant" "$s")
    fi
    [ "$got" = "${pinned[$s]}" ] || wrong="$wrong $s($got)"
  done
  if [ -z "$wrong" ]; then ok "verify_replay.c with fixsteer.dll ($variant): $n/$n golden replays at their pinned hashes"
  else bad "verify_replay.c with fixsteer.dll ($variant): wrong or no hash for:$wrong"; fi
done

# --- the static tool: records byte-identical replays, replacing an existing file. The
# reference is this tree's native build (the golden files are replay format 2, recorded
# before the state hash v3; new recordings are format 3).
make -s lib tools >"$work/native.log" 2>&1 || { cat "$work/native.log"; exit 1; }
for s in hunter_prey flock obstacle_dense; do
  build/bin/fixsteer record --scenario "$s" --keyframe 250 --out "$work/$s.native.fxr" >/dev/null
done
out=$work/hunter_prey.fxr
printf 'an older file, to be replaced\n' >"$out"
if "$run" "$dir/bin/fixsteer.exe" record --scenario hunter_prey --keyframe 250 --out "$out" \
     >"$work/record.log" 2>&1 && cmp -s "$out" "$work/hunter_prey.native.fxr"; then
  ok "fixsteer.exe record --out onto an existing file replaces it with the Linux bytes ($(wc -c <"$out") bytes)"
else
  bad "fixsteer.exe record --out onto an existing file:"; cat "$work/record.log"
  cmp "$out" "$work/hunter_prey.native.fxr"
fi
for s in flock obstacle_dense; do
  "$run" "$dir/bin/fixsteer.exe" record --scenario "$s" --keyframe 250 --out "$work/$s.fxr" >/dev/null 2>&1
  "$run" "$dir/bin/fixsteer.exe" record --scenario "$s" --keyframe 250 --out "$work/$s.fxr" \
    >"$work/record-$s.log" 2>&1
  if cmp -s "$work/$s.fxr" "$work/$s.native.fxr"; then
    ok "fixsteer.exe records $s twice onto one file: byte-identical to the Linux recording"
  else
    bad "fixsteer.exe record $s:"; cat "$work/record-$s.log"; cmp "$work/$s.fxr" "$work/$s.native.fxr"
  fi
done
# render starts rsvg-convert with _spawnlp (no posix_spawn on Windows), the SVG as its standard
# input and the PNG as its output: a stand-in that copies one to the other, found in the
# current directory as Windows searches it first, must leave a PNG equal to the SVG, and the
# SVG must equal the Linux tool's. Without any rsvg-convert: a clear error, and no files.
mkdir -p "$work/render"
cat >"$work/render/copy.c" <<'C'
#include <fcntl.h>
#include <io.h>
#include <stdio.h>
int main(void) {
  char buf[4096];
  size_t n;
  _setmode(0, _O_BINARY), _setmode(1, _O_BINARY);
  while ((n = fread(buf, 1, sizeof buf, stdin)) > 0) fwrite(buf, 1, n, stdout);
  return 0;
}
C
"$cc" -o "$work/render/rsvg-convert.exe" "$work/render/copy.c" &&
  (cd "$work/render" && "$root/$run" "$root/$dir/bin/fixsteer.exe" render --scenario seek_wind \
     --out seek.svg >render.log 2>&1)
if [ -f "$work/render/seek.png" ] && cmp -s "$work/render/seek.svg" "$work/render/seek.png" &&
   [ -x build/bin/fixsteer ] && build/bin/fixsteer render --scenario seek_wind --no-png \
     --out "$work/render/linux.svg" >/dev/null 2>&1 &&
   cmp -s "$work/render/seek.svg" "$work/render/linux.svg"; then
  ok "render hands the SVG to rsvg-convert and takes the PNG back; the SVG is the Linux one"
else
  bad "render with rsvg-convert (build/bin/fixsteer must exist for the Linux SVG):"
  cat "$work/render/render.log"
fi
rm -f "$work/render/rsvg-convert.exe"
(cd "$work/render" && "$root/$run" "$root/$dir/bin/fixsteer.exe" render --scenario seek_wind \
   --out none.svg >none.log 2>&1)
if grep -q 'rsvg-convert.exe on the PATH' "$work/render/none.log" && [ ! -e "$work/render/none.svg" ]; then
  ok "render without rsvg-convert: $(tr -d '\r' <"$work/render/none.log" | head -n 1)"
else
  bad "render without rsvg-convert:"; cat "$work/render/none.log"; ls "$work/render"
fi

left=$(find "$work" -name '*.tmp-*' | head -n 3)
if [ -z "$left" ]; then ok "no temporary file left behind"; else bad "temporary files left: $left"; fi
finish
