// Internal: one square root for both the length of a vector and its scaling to a length that
// depends on it (separation: a push that grows as the distance shrinks). Not part of the API.
#ifndef FIXSTEER_VEC2_MEASURE_H
#define FIXSTEER_VEC2_MEASURE_H

#include <stdint.h>

#include "fixsteer/vec2.h"

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

#endif
