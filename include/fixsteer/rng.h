/// @file rng.h
/// Deterministic random numbers: xoshiro128** (32-bit state words, fast on 32-bit MCUs)
/// seeded through splitmix64. There is no global generator: every stream is a value the
/// caller owns (the world keeps one per agent), and its state is part of the hashed state.
#ifndef FIXSTEER_RNG_H
#define FIXSTEER_RNG_H

#include "fixsteer/api.h"
#include <stdint.h>

#include "fixsteer/config.h"

#ifdef __cplusplus
extern "C" {
#endif

/// xoshiro128** state. Never all zero (fxs_rng_seed guarantees it).
typedef struct fxs_rng {
  uint32_t s[4]; ///< The 128-bit state, s[0] first.
} fxs_rng;

/// Advances a splitmix64 state and returns its next output (the reference algorithm).
FXS_API uint64_t fxs_splitmix64_next(uint64_t *state);

/// Seeds rng from a 64-bit seed: two splitmix64 outputs, low word first, fill s[0..3].
FXS_API void fxs_rng_seed(fxs_rng *rng, uint64_t seed);

/// Seeds rng as stream `stream_id` of `world_seed`: distinct ids give independent streams,
/// the same pair always gives the same stream (used for one stream per agent id).
FXS_API void fxs_rng_seed_stream(fxs_rng *rng, uint64_t world_seed, uint32_t stream_id);

/// The next 32 random bits (xoshiro128** 1.1).
FXS_API uint32_t fxs_rng_next(fxs_rng *rng);

/// A uniform integer in [0, bound), unbiased (Lemire's multiply-and-reject).
/// bound == 0 is a contract violation and returns 0.
FXS_API uint32_t fxs_rng_below(fxs_rng *rng, uint32_t bound);

/// A uniform Q16.16 value in [lo, hi) on the raw LSB grid, unbiased, no floats.
/// lo >= hi returns lo.
FXS_API fix16_t fxs_rng_fix16(fxs_rng *rng, fix16_t lo, fix16_t hi);

#ifdef __cplusplus
}
#endif

#endif
