// Internal 64-bit helpers shared by the math sources. Not part of the public API.
#ifndef FIXSTEER_WIDE_H
#define FIXSTEER_WIDE_H

#include <stdint.h>

/// n / d rounded half away from zero. d != 0; the quotient must fit in int64.
int64_t fxs_div_round_i64(int64_t n, int64_t d);

/// a + b for int64, saturating at INT64_MIN / INT64_MAX.
int64_t fxs_add_sat_i64(int64_t a, int64_t b);

#endif
