#!/usr/bin/env bash
# Checks the public headers as a C or C++ user meets them:
#  - every header compiles on its own as C99 and as C++17, warnings as errors;
#  - fixsteer.h includes every other public header;
#  - every header but the umbrella and api.h (macros only) has extern "C" guards, every
#    public function is declared FXS_API, and a C++ file that includes fixsteer.h refers to
#    the library with C (unmangled) names.
# Usage: tools/header-check.sh [INCLUDE_DIR [LIBFIXMATH_INCLUDE_DIR]]
#   defaults: include build/libfixmath/libfixmath (an installed tree: PREFIX/include and
#   PREFIX/include/fixsteer/libfixmath). Prints "headers: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
inc=${1:-include}
lfm=${2:-build/libfixmath/libfixmath}
CC=${CC:-cc}
CXX=${CXX:-g++}
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
headers=$(cd "$inc/fixsteer" && ls ./*.h | sed 's|^\./||' | sort)
count=$(echo "$headers" | wc -w)
flags=(-Wall -Wextra -Werror -pedantic -DFIXMATH_NO_CACHE -I"$inc" -I"$lfm")

# compile_each LANG STD COMPILER EXT: every header alone.
compile_each() {
  local lang=$1 std=$2 compiler=$3 ext=$4 h broken=""
  for h in $headers; do
    # (a declaration of its own: api.h alone holds only macros, an empty unit in ISO C)
    printf '#include "fixsteer/%s"\n#include "fixsteer/%s"\ntypedef int unit_is_not_empty;\n' \
      "$h" "$h" >"$tmp/one.$ext"
    if ! "$compiler" -std="$std" "${flags[@]}" -c "$tmp/one.$ext" -o "$tmp/one.o" >"$tmp/$h.$lang.log" 2>&1; then
      broken="$broken $h"
      sed -n '1,6p' "$tmp/$h.$lang.log"
    fi
  done
  if [ -z "$broken" ]; then ok "$count headers compile alone (and twice) as $lang ($std)"
  else bad "headers that do not compile as $lang ($std):$broken"; fi
}
compile_each C c99 "$CC" c
compile_each C++ c++17 "$CXX" cpp

missing=""
for h in $headers; do
  [ "$h" = fixsteer.h ] && continue
  grep -q "^#include \"fixsteer/$h\"" "$inc/fixsteer/fixsteer.h" || missing="$missing $h"
done
if [ -z "$missing" ]; then ok "fixsteer.h includes all $((count - 1)) other public headers"
else bad "fixsteer.h does not include:$missing"; fi

unguarded=""
for h in $headers; do
  [ "$h" = fixsteer.h ] && continue # only includes the others
  [ "$h" = api.h ] && continue      # only the export macro
  grep -q '^extern "C" {' "$inc/fixsteer/$h" || unguarded="$unguarded $h"
done
if [ -z "$unguarded" ]; then ok "every header with declarations has extern \"C\" guards"
else bad "no extern \"C\" guards in:$unguarded"; fi

# A function declared without FXS_API would be missing from fixsteer.dll (api.h).
unmarked=$(grep -nE '^[a-z_][a-zA-Z0-9_ ]*[ *]+fxs_[a-z0-9_]+\(' "$inc"/fixsteer/*.h |
  grep -vE ':(static|typedef|extern|return)[ (]' | sed 's|.*/fixsteer/||' | head -n 5)
if [ -z "$unmarked" ]; then ok "every public function is declared FXS_API (exported from fixsteer.dll)"
else bad "public functions declared without FXS_API: $unmarked"; fi

cat >"$tmp/umbrella.cpp" <<'CPP'
#include "fixsteer/fixsteer.h"

#include <cstdio>

int main() {
  fxs_vec2 v = fxs_vec2_add(fxs_vec2_make(FXS_INT(3), 0), fxs_vec2_make(0, FXS_INT(4)));
  std::printf("%s %ld %s\n", fxs_version(), (long)fxs_vec2_length(v),
              fxs_result_message(FXS_ERR_BAD_MAGIC));
  return 0;
}
CPP
if "$CXX" -std=c++17 "${flags[@]}" -c "$tmp/umbrella.cpp" -o "$tmp/umbrella.o" >"$tmp/umbrella.log" 2>&1; then
  mangled=$(nm -u "$tmp/umbrella.o" | grep -E '_Z.*fxs_' || true)
  if [ -z "$mangled" ] && nm -u "$tmp/umbrella.o" | grep -qw fxs_version; then
    ok "a C++17 file including fixsteer.h compiles and calls the library by C names"
  else
    bad "C++ references to the library are mangled: $mangled"
  fi
else
  bad "a C++17 file including fixsteer.h does not compile:"; sed -n '1,10p' "$tmp/umbrella.log"
fi

echo "headers: ${pass} passed, ${fail} failed"
[ "$fail" -eq 0 ]
