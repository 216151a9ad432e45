// Internal: one square root for both the length of a vector and its scaling to a length that
// depends on it (separation: a push that grows as the distance shrinks). Not part of the API.
#ifndef FIXSTEER_VEC2_MEASURE_H
#define FIXSTEER_VEC2_MEASURE_H

#include <stdint.h>

#include "fixsteer/vec2.h"
#include "vec2_scale.h"

/// What fxs_vec2_set_length computes of v before its divisions, and fxs_vec2_length(v).
typedef struct fxs_vec2_measure {
  uint64_t ax, ay; ///< |v.x|, |v.y| doubled until the larger is in [2^30, 2^31].
  uint32_t len;    ///< sqrt(ax^2 + ay^2), rounded.
  fix16_t length;  ///< fxs_vec2_length(v), world units.
} fxs_vec2_measure;

/// The measure of v != 0, from one integer square root.
fxs_vec2_measure fxs_vec2_measure_of(fxs_vec2 v);

/// fxs_vec2_set_length(v, length) for the v that m measures: the same result.
fxs_vec2 fxs_vec2_set_length_measured(fxs_vec2 v, const fxs_vec2_measure *m, fix16_t length);

/// fxs_vec2_measure_of, inline for the hot callers: one implementation, two ways in.
static inline fxs_vec2_measure fxs_vec2_measure_inline(fxs_vec2 v) {
  fxs_vec2_measure m;
  fxs_widened w = fxs_widen_components(v);
  m.ax = w.ax, m.ay = w.ay;                  // set_length_measured divides these by len
  uint64_t sq = m.ax * m.ax + m.ay * m.ay;   // in [2^60, 2^63]
  uint32_t r = fxs_isqrt64_estimate_top(sq); // floor(sqrt(sq)) or one less
  uint64_t e = sq - fxs_mul32(r, r);
  uint64_t len = fxs_sqrt_round_from(r, e);
  m.len = (uint32_t)len;
  // sq = |v|^2 4^shift. For shift >= 1, round(|v|) = floor(|v| + 1/2)
  // = floor((sqrt(sq) + 2^(shift-1)) / 2^shift) = (floor(sqrt(sq)) + 2^(shift-1)) >> shift.
  uint64_t rounded = len;
  if (w.shift > 0) {
    uint64_t floor_root = (uint64_t)r + (e > 2 * (uint64_t)r);
    rounded = (floor_root + (UINT64_C(1) << (w.shift - 1))) >> w.shift;
  }
  m.length = rounded > (uint64_t)FXS_MAX ? FXS_MAX : (fix16_t)rounded;
  return m;
}

/// fxs_vec2_set_length_measured, inline.
static inline fxs_vec2 fxs_vec2_set_length_measured_inline(fxs_vec2 v, const fxs_vec2_measure *m,
                                                           fix16_t length) {
  FXS_ASSERT(length >= 0);
  if (length <= 0) return fxs_vec2_zero();
  fxs_widened w;
  w.ax = m->ax, w.ay = m->ay, w.sq = 0, w.shift = 0;
  return fxs_widened_quotients(v, w, length, m->len / 2, m->len);
}

#endif
