#!/usr/bin/env bash
# Smallest clearance between any agent's body and any obstacle or wall, per tick, over the
# built-in scenarios that have obstacles or walls (or the ones named). Exits 1 when a body
# overlaps an obstacle or wall at some tick.
#
#   bash tools/clearance-check.sh                    every scenario with obstacles or walls
#   bash tools/clearance-check.sh obstacle_field queue
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
make -s BUILD_DIR="$BUILD_DIR" lib >/dev/null
mkdir -p "$BUILD_DIR/bin"
${CC:-cc} -std=c99 -O2 -Wall -Wextra -Werror -DFIXMATH_NO_CACHE -Iinclude -Itools/fixsteer \
  -Ibuild/libfixmath/libfixmath tools/clearance.c tools/fixsteer/scenario.c \
  "$BUILD_DIR/libfixsteer.a" "$BUILD_DIR/libfixmath.a" -lm -o "$BUILD_DIR/bin/fxs-clearance"
exec "$BUILD_DIR/bin/fxs-clearance" "$@"
