#include "fixsteer/rng.h"

uint64_t fxs_splitmix64_next(uint64_t *state) {
  uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

void fxs_rng_seed(fxs_rng *rng, uint64_t seed) {
  FXS_ASSERT(rng != 0);
  if (rng == 0) return;
  uint64_t sm = seed;
  uint64_t a = fxs_splitmix64_next(&sm);
  uint64_t b = fxs_splitmix64_next(&sm);
  rng->s[0] = (uint32_t)a;
  rng->s[1] = (uint32_t)(a >> 32);
  rng->s[2] = (uint32_t)b;
  rng->s[3] = (uint32_t)(b >> 32);
  // splitmix64 is a bijection, so two zero outputs in a row cannot happen; guard anyway,
  // since the all-zero state would make xoshiro return zeros forever.
  if ((rng->s[0] | rng->s[1] | rng->s[2] | rng->s[3]) == 0) rng->s[0] = 1;
}

void fxs_rng_seed_stream(fxs_rng *rng, uint64_t world_seed, uint32_t stream_id) {
  // Mix the id through one splitmix64 step before combining, so that neighbouring ids give
  // unrelated seeds rather than seeds one golden-ratio step apart.
  uint64_t id_state = (uint64_t)stream_id;
  uint64_t mixed = world_seed ^ fxs_splitmix64_next(&id_state);
  fxs_rng_seed(rng, mixed);
}

static uint32_t rotl(uint32_t x, int k) { return (x << k) | (x >> (32 - k)); }

uint32_t fxs_rng_next(fxs_rng *rng) {
  uint32_t *s = rng->s;
  uint32_t result = rotl(s[1] * 5u, 7) * 9u;
  uint32_t t = s[1] << 9;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 11);
  return result;
}

uint32_t fxs_rng_below(fxs_rng *rng, uint32_t bound) {
  FXS_ASSERT(bound != 0);
  if (bound == 0) return 0;
  uint64_t m = (uint64_t)fxs_rng_next(rng) * bound;
  uint32_t low = (uint32_t)m;
  if (low < bound) {
    uint32_t threshold = (0u - bound) % bound; // 2^32 mod bound
    while (low < threshold) {
      m = (uint64_t)fxs_rng_next(rng) * bound;
      low = (uint32_t)m;
    }
  }
  return (uint32_t)(m >> 32);
}

fix16_t fxs_rng_fix16(fxs_rng *rng, fix16_t lo, fix16_t hi) {
  if (lo >= hi) return lo;
  uint32_t span = (uint32_t)((int64_t)hi - lo); // in [1, 2^32 - 1]
  return (fix16_t)((int64_t)lo + fxs_rng_below(rng, span));
}
