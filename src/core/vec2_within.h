// Internal: fxs_vec2_within inline, for the world's hot callers (the making-way rule, the
// routes' moves, the goal lattices ask it several times an agent-step). Not part of the API.
#ifndef FIXSTEER_VEC2_WITHIN_H
#define FIXSTEER_VEC2_WITHIN_H

#include <stdbool.h>
#include <stdint.h>

#include "fixsteer/vec2.h"

/// fxs_vec2_within(a, b, radius): one implementation, two ways in. Each difference is below
/// 2^32 in magnitude; past the radius on either axis it is out at once, else both squares
/// are below 2^62 and their sum fits.
static inline bool fxs_vec2_within_inline(fxs_vec2 a, fxs_vec2 b, fix16_t radius) {
  if (radius < 0) return false;
  int64_t x = (int64_t)a.x - b.x, y = (int64_t)a.y - b.y;
  uint64_t dx = (uint64_t)(x < 0 ? -x : x), dy = (uint64_t)(y < 0 ? -y : y);
  if (dx > (uint64_t)radius || dy > (uint64_t)radius) return false;
  return dx * dx + dy * dy <= (uint64_t)radius * (uint64_t)radius;
}

#endif
