#!/usr/bin/env bash
# Installs fixsteer into a temporary prefix and builds programs the way a user would:
#  (a) a C99 program with `pkg-config --cflags --libs fixsteer` (static),
#  (b) a C++17 CMake project with find_package(fixsteer) and fixsteer::fixsteer (static),
#  (c) the C program against the shared library (fixsteer-shared.pc, rpath), and the CMake
#      project with FIXSTEER_USE_SHARED=ON.
# Each verifies test/golden/hunter_prey.fxr through the public API and must print the final
# hash that the in-tree `fixsteer verify` prints. Also checks the installed tree: exports of
# the shared library, its soname, the headers as C99 and C++17, a DESTDIR install, and that
# uninstall leaves nothing behind. Prints "consumer: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
root=$PWD
replay=$root/test/golden/hunter_prey.fxr
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
finish() { echo "consumer: ${pass} passed, ${fail} failed"; [ "$fail" -eq 0 ]; exit; }

work=$(mktemp -d)
prefix=$(mktemp -d)
trap 'rm -rf "$work" "$prefix"' EXIT
hash_of() { sed -n 's/.*verified, final hash \(0x[0-9a-f]\{16\}\).*/\1/p' | tail -n1; }

if ! make -s -j2 all >"$work/build.log" 2>&1; then
  bad "the in-tree build failed:"; tail -n 20 "$work/build.log"; finish
fi
want=$(build/bin/fixsteer verify "$replay" | hash_of)
if [ -z "$want" ]; then bad "build/bin/fixsteer verify printed no final hash"; finish; fi
echo "in-tree fixsteer verify: final hash $want"

# Runs a consumer and compares its final hash with the in-tree one.
check_run() { # label command...
  local label=$1 out got; shift
  out=$("$@" "$replay" 2>&1)
  got=$(printf '%s\n' "$out" | hash_of)
  if [ -n "$got" ] && [ "$got" = "$want" ]; then ok "$label: final hash $got"
  else bad "$label: expected $want, got '${got}': $out"; fi
}

# --- the installed tree
if make -s install PREFIX="$prefix" >"$work/install.log" 2>&1; then
  lib=$prefix/lib
  missing=""
  for f in include/fixsteer/fixsteer.h include/fixsteer/version.h include/fixsteer/libfixmath/fix16.h \
           lib/libfixsteer.a lib/libfixsteer.so lib/libfixsteer.so.0 lib/pkgconfig/fixsteer.pc \
           lib/pkgconfig/fixsteer-shared.pc lib/cmake/fixsteer/fixsteerConfig.cmake \
           lib/cmake/fixsteer/fixsteerConfigVersion.cmake bin/fixsteer; do
    [ -e "$prefix/$f" ] || missing="$missing $f"
  done
  real=$(readlink -f "$lib/libfixsteer.so")
  if [ -z "$missing" ]; then ok "make install PREFIX=...: headers, $(basename "$real"), its links, .a, .pc and CMake files, bin/fixsteer"
  else bad "make install left out:$missing"; fi
  if "$prefix/bin/fixsteer" --version | grep -q '^features:'; then ok "the installed fixsteer runs: $("$prefix/bin/fixsteer" --version | tail -n 1)"
  else bad "the installed fixsteer does not run"; fi
else
  bad "make install failed:"; tail -n 20 "$work/install.log"; finish
fi

exports=$(nm -D --defined-only "$real" | awk '{print $3}')
others=$(printf '%s\n' "$exports" | grep -v '^fxs_' || true)
soname=$(readelf -d "$real" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
if [ -z "$others" ] && [ "$soname" = libfixsteer.so.0 ]; then
  ok "$(basename "$real"): soname $soname, exports $(printf '%s\n' "$exports" | wc -l) symbols, all fxs_*"
else
  bad "shared library: soname '$soname', non-fxs exports: $(echo $others)"
fi

if bash tools/header-check.sh "$prefix/include" "$prefix/include/fixsteer/libfixmath" >"$work/headers.log" 2>&1; then
  ok "installed headers: $(grep -c '^ok' "$work/headers.log") header checks (C99, C++17, umbrella, extern \"C\")"
else
  bad "installed headers:"; grep -v '^ok' "$work/headers.log"
fi

export PKG_CONFIG_PATH=$lib/pkgconfig
cflags=(-std=c99 -Wall -Wextra -Werror -pedantic)
src=$root/examples/consumer/c/verify_replay.c

# (a) C, pkg-config, static
# shellcheck disable=SC2046
if cc "${cflags[@]}" "$src" $(pkg-config --cflags --libs fixsteer) -o "$work/c_static" >"$work/a.log" 2>&1; then
  if readelf -d "$work/c_static" | grep -q 'libfixsteer'; then bad "(a) the pkg-config build is linked to the shared library"
  else check_run "(a) C99, pkg-config fixsteer (static)" "$work/c_static"; fi
else
  bad "(a) C99 with pkg-config does not build:"; cat "$work/a.log"
fi

# (b) C++17, CMake find_package, fixsteer::fixsteer (static)
if cmake -S examples/consumer/cpp -B "$work/cpp" -DCMAKE_PREFIX_PATH="$prefix" >"$work/b.log" 2>&1 &&
   cmake --build "$work/cpp" >>"$work/b.log" 2>&1; then
  if readelf -d "$work/cpp/verify_replay" | grep -q 'libfixsteer'; then bad "(b) fixsteer::fixsteer linked the shared library"
  else check_run "(b) C++17, CMake find_package(fixsteer), fixsteer::fixsteer (static)" "$work/cpp/verify_replay"; fi
else
  bad "(b) the CMake project does not build:"; tail -n 20 "$work/b.log"
fi

# (c) the shared library: pkg-config fixsteer-shared with an rpath, and CMake's fixsteer::shared
# shellcheck disable=SC2046
if cc "${cflags[@]}" "$src" $(pkg-config --cflags --libs fixsteer-shared) -Wl,-rpath,"$lib" \
     -o "$work/c_shared" >"$work/c.log" 2>&1; then
  loaded=$(ldd "$work/c_shared" | sed -n 's/.*libfixsteer.so.0 => \([^ ]*\).*/\1/p')
  if [ "$loaded" = "$lib/libfixsteer.so.0" ]; then check_run "(c) C99, pkg-config fixsteer-shared, loads $loaded" "$work/c_shared"
  else bad "(c) the shared build loads '$loaded', not $lib/libfixsteer.so.0"; fi
else
  bad "(c) C99 against the shared library does not build:"; cat "$work/c.log"
fi
if cmake -S examples/consumer/cpp -B "$work/cpp-shared" -DCMAKE_PREFIX_PATH="$prefix" -DFIXSTEER_USE_SHARED=ON \
     >"$work/d.log" 2>&1 && cmake --build "$work/cpp-shared" >>"$work/d.log" 2>&1; then
  if ldd "$work/cpp-shared/verify_replay" | grep -q "$lib/libfixsteer.so.0"; then
    check_run "(c) C++17, CMake with FIXSTEER_USE_SHARED=ON (fixsteer::shared)" "$work/cpp-shared/verify_replay"
  else
    bad "(c) FIXSTEER_USE_SHARED=ON did not link the shared library"
  fi
else
  bad "(c) the CMake project with FIXSTEER_USE_SHARED=ON does not build:"; tail -n 20 "$work/d.log"
fi

# A staged install (DESTDIR) names the final prefix and writes only under the stage.
stage=$work/stage
if make -s install DESTDIR="$stage" PREFIX=/opt/fixsteer >"$work/stage.log" 2>&1 &&
   grep -qx 'prefix=/opt/fixsteer' "$stage/opt/fixsteer/lib/pkgconfig/fixsteer.pc" &&
   make -s uninstall DESTDIR="$stage" PREFIX=/opt/fixsteer >>"$work/stage.log" 2>&1 &&
   [ -z "$(find "$stage" -type f -o -type l)" ]; then
  ok "make install/uninstall DESTDIR=... PREFIX=/opt/fixsteer: staged, then nothing left"
else
  bad "staged install/uninstall:"; cat "$work/stage.log"; find "$stage" -type f -o -type l
fi

# Uninstall removes exactly what install put there (the prefix existed before: it stays).
make -s uninstall PREFIX="$prefix" >"$work/uninstall.log" 2>&1
left=$(cd "$prefix" && find . -mindepth 1 | head)
if [ -z "$left" ]; then ok "make uninstall: $(cat "$work/uninstall.log"), prefix empty again"
else bad "make uninstall left: $left"; fi

finish
