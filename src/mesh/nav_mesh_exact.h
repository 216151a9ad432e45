// Exact predicates of the navigation mesh on raw Q16.16 coordinates (internal, not part of the
// API). Every answer is the sign of an integer expression evaluated without any rounding:
// orientation with 128-bit products (exact.h), in-circle and segment intersections with a
// 256-bit two's-complement integer. No decision anywhere depends on a rounded value, except
// the documented rounding of a crossing point to the Q16.16 grid (fxs_mesh_crossing_point).
#ifndef FIXSTEER_NAV_MESH_EXACT_H
#define FIXSTEER_NAV_MESH_EXACT_H

#include <stdint.h>

#include "fixsteer/vec2.h"

/// A signed 256-bit integer in two's complement, 32-bit limbs, least significant first.
typedef struct fxs_mesh_int {
  uint32_t w[8];
} fxs_mesh_int;

/// v as a 256-bit integer.
fxs_mesh_int fxs_mesh_int_from_i64(int64_t v);
/// a + b (exact while the sum stays within 255 bits and a sign).
fxs_mesh_int fxs_mesh_int_add(fxs_mesh_int a, fxs_mesh_int b);
/// a - b.
fxs_mesh_int fxs_mesh_int_sub(fxs_mesh_int a, fxs_mesh_int b);
/// a * b, exact while the product fits in 255 bits and a sign (|a|, |b| < 2^127 always do).
fxs_mesh_int fxs_mesh_int_mul(fxs_mesh_int a, fxs_mesh_int b);
/// -1, 0 or 1: the sign of a.
int fxs_mesh_int_sign(fxs_mesh_int a);
/// -1, 0 or 1 as a <, ==, > b.
int fxs_mesh_int_compare(fxs_mesh_int a, fxs_mesh_int b);
/// floor(n / d) for d > 0 (exact). The quotient must fit in int64; FXS-internal use only.
int64_t fxs_mesh_int_floor_div(fxs_mesh_int n, fxs_mesh_int d);

/// Sign of the cross product (b - a) x (c - a): 1 when a, b, c turn counter-clockwise
/// (c left of a->b), -1 clockwise, 0 collinear. Exact for any three Q16.16 points.
int fxs_mesh_orient(fxs_vec2 a, fxs_vec2 b, fxs_vec2 c);

/// Twice the signed area of triangle a, b, c: (b - a) x (c - a), exact.
fxs_mesh_int fxs_mesh_cross(fxs_vec2 a, fxs_vec2 b, fxs_vec2 c);

/// 1 when d lies strictly inside the circle through a, b, c (a, b, c counter-clockwise),
/// 0 on it, -1 outside. Exact for any four Q16.16 points (terms below 2^132).
int fxs_mesh_in_circle(fxs_vec2 a, fxs_vec2 b, fxs_vec2 c, fxs_vec2 d);

/// The crossing point of the lines a-b and p-q (not parallel), rounded to the nearest point
/// of the Q16.16 grid on each axis, a half rounded toward +infinity. When the segments
/// cross, the result lies in the bounding box of each segment (so in range).
fxs_vec2 fxs_mesh_crossing_point(fxs_vec2 a, fxs_vec2 b, fxs_vec2 p, fxs_vec2 q);

#endif
