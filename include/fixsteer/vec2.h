/// @file vec2.h
/// 2D vectors of Q16.16 components. Lengths and distances come from an exact 64-bit integer
/// square root of the raw squares, so they are correct for every component in the Q16.16
/// range (a Q16.16 square overflows at 181 units). All results saturate to
/// [FXS_MIN, FXS_MAX] per component.
#ifndef FIXSTEER_VEC2_H
#define FIXSTEER_VEC2_H

#include "fixsteer/api.h"
#include <stdbool.h>
#include <stdint.h>

#include "fixsteer/scalar.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A 2D vector or point, world units (Q16.16) per component.
typedef struct fxs_vec2 {
  fix16_t x; ///< x component, Q16.16.
  fix16_t y; ///< y component, Q16.16.
} fxs_vec2;

/// The vector (x, y).
static inline fxs_vec2 fxs_vec2_make(fix16_t x, fix16_t y) {
  fxs_vec2 v;
  v.x = x;
  v.y = y;
  return v;
}
/// The zero vector.
static inline fxs_vec2 fxs_vec2_zero(void) { return fxs_vec2_make(0, 0); }
/// a + b, saturating per component.
static inline fxs_vec2 fxs_vec2_add(fxs_vec2 a, fxs_vec2 b) {
  return fxs_vec2_make(fxs_add(a.x, b.x), fxs_add(a.y, b.y));
}
/// a - b, saturating per component.
static inline fxs_vec2 fxs_vec2_sub(fxs_vec2 a, fxs_vec2 b) {
  return fxs_vec2_make(fxs_sub(a.x, b.x), fxs_sub(a.y, b.y));
}
/// -v, saturating per component.
static inline fxs_vec2 fxs_vec2_negate(fxs_vec2 v) {
  return fxs_vec2_make(fxs_neg(v.x), fxs_neg(v.y));
}
/// v * s (fxs_mul per component: correctly rounded, saturating).
static inline fxs_vec2 fxs_vec2_scale(fxs_vec2 v, fix16_t s) {
  return fxs_vec2_make(fxs_mul(v.x, s), fxs_mul(v.y, s));
}
/// v / s (fxs_div per component; s == 0 saturates by sign, see fxs_div).
static inline fxs_vec2 fxs_vec2_div(fxs_vec2 v, fix16_t s) {
  return fxs_vec2_make(fxs_div(v.x, s), fxs_div(v.y, s));
}
/// True when both components are equal.
static inline bool fxs_vec2_equal(fxs_vec2 a, fxs_vec2 b) { return a.x == b.x && a.y == b.y; }
/// True when v is (0, 0).
static inline bool fxs_vec2_is_zero(fxs_vec2 v) { return v.x == 0 && v.y == 0; }

/// a . b, exact, in Q32.32 (raw units 2^-32), saturating at the int64 range.
FXS_API int64_t fxs_vec2_dot(fxs_vec2 a, fxs_vec2 b);
/// a x b (a.x*b.y - a.y*b.x), exact, in Q32.32, saturating at the int64 range. Positive when
/// b is counter-clockwise from a in the y-up convention.
FXS_API int64_t fxs_vec2_cross(fxs_vec2 a, fxs_vec2 b);
/// |v|^2, exact, in Q32.32 (raw units 2^-32). Never overflows.
FXS_API uint64_t fxs_vec2_length_sq(fxs_vec2 v);
/// |v|, correctly rounded to the nearest LSB, saturating at FXS_MAX (a length above 32767).
FXS_API fix16_t fxs_vec2_length(fxs_vec2 v);
/// |a - b| without an intermediate overflow, correctly rounded, saturating at FXS_MAX.
FXS_API fix16_t fxs_vec2_distance(fxs_vec2 a, fxs_vec2 b);
/// True when |a - b| <= radius, decided exactly (no rounding). radius < 0 gives false.
FXS_API bool fxs_vec2_within(fxs_vec2 a, fxs_vec2 b, fix16_t radius);
/// v / |v| (length FXS_ONE within 1 LSB per component); the zero vector stays zero.
FXS_API fxs_vec2 fxs_vec2_normalize(fxs_vec2 v);
/// v scaled to the given length (>= 0), rounded per component; the zero vector stays zero.
FXS_API fxs_vec2 fxs_vec2_set_length(fxs_vec2 v, fix16_t length);
/// v limited to max_length (>= 0): unchanged when |v| <= max_length, else scaled down with
/// components rounded toward zero, so that |result| <= max_length holds exactly.
FXS_API fxs_vec2 fxs_vec2_truncate(fxs_vec2 v, fix16_t max_length);
/// The unit vector at angle radians: (cos angle, sin angle).
FXS_API fxs_vec2 fxs_vec2_from_angle(fix16_t angle);
/// Keeps |v| and points it at angle radians: |v| * (cos angle, sin angle).
FXS_API fxs_vec2 fxs_vec2_set_angle(fxs_vec2 v, fix16_t angle);
/// v rotated by angle radians (positive: from +x toward +y).
FXS_API fxs_vec2 fxs_vec2_rotate(fxs_vec2 v, fix16_t angle);
/// The angle of v, atan2(v.y, v.x), in (-FXS_PI, FXS_PI]; 0 for the zero vector.
FXS_API fix16_t fxs_vec2_angle(fxs_vec2 v);
/// a + (b - a) * t per component (fxs_lerp).
FXS_API fxs_vec2 fxs_vec2_lerp(fxs_vec2 a, fxs_vec2 b, fix16_t t);
/// The point of segment [a, b] closest to p. The segment parameter is computed exactly (to
/// 1/65536 of the segment, rounded down) for any coordinates; a zero-length segment gives a.
FXS_API fxs_vec2 fxs_vec2_closest_on_segment(fxs_vec2 p, fxs_vec2 a, fxs_vec2 b);

#ifdef __cplusplus
}
#endif

#endif
