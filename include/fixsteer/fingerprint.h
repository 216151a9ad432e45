/// @file fingerprint.h
/// A 64-bit fingerprint of the arithmetic fixsteer runs on: the outputs of every libfixmath
/// function the library calls (fix16_mul, fix16_div, fix16_sin, fix16_atan2) and of the
/// math layer built on them, over a fixed input set. Two builds whose fingerprints agree
/// compute the same results; replays record it and refuse to run on a different one.
#ifndef FIXSTEER_FINGERPRINT_H
#define FIXSTEER_FINGERPRINT_H

#include "fixsteer/api.h"
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Number of generated input pairs hashed (besides the edge cases).
#define FXS_FINGERPRINT_SAMPLES 1024

/// The fingerprint of the math this binary was built with. Pure; a few ms on a Cortex-M3.
FXS_API uint64_t fxs_math_fingerprint(void);

/// The fingerprint of the pinned configuration (libfixmath 0~20220222 with
/// FIXMATH_NO_CACHE and nothing else). fxs_math_fingerprint() must return this.
#define FXS_MATH_FINGERPRINT_PINNED UINT64_C(0xD276B269DD5F7394)

#ifdef __cplusplus
}
#endif

#endif
