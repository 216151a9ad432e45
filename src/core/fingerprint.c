#include "fixsteer/fingerprint.h"

#include "fixsteer/hash.h"
#include "fixsteer/rng.h"
#include "fixsteer/scalar.h"
#include "fixsteer/vec2.h"

static const fix16_t edge_values[] = {
    0,           1,       -1,      FXS_ONE, -FXS_ONE, FXS_PI,    -FXS_PI,
    FXS_HALF_PI, FXS_MAX, FXS_MIN, 0x8000,  -0x8000,  0x7FFF,    (fix16_t)0x80000000,
    181 * 65536, 65535,   -65535,  46341,   12345678, -98765432,
};
#define EDGE_COUNT (sizeof edge_values / sizeof edge_values[0])

// libfixmath's own atan2 overflows when |x| + |y| >= 32768 units: feed it a safe range.
static fix16_t atan2_safe_input(fix16_t v) { return v / 4; }

static void hash_pair(fxs_hasher *h, fix16_t a, fix16_t b) {
  fxs_hash_i32(h, fix16_mul(a, b));
  fxs_hash_i32(h, fix16_div(a, b));
  fxs_hash_i32(h, fix16_sin(a));
  fxs_hash_i32(h, fix16_atan2(atan2_safe_input(a), atan2_safe_input(b)));
  fxs_hash_i32(h, fxs_mul(a, b));
  fxs_hash_i32(h, fxs_div(a, b));
  fxs_hash_i32(h, fxs_sin(a));
  fxs_hash_i32(h, fxs_cos(b));
  fxs_hash_i32(h, fxs_atan2(a, b));
  fxs_hash_i32(h, fxs_sqrt(a < 0 ? fxs_neg(a) : a));
  fxs_hash_i32(h, fxs_vec2_length(fxs_vec2_make(a, b)));
  fxs_vec2 n = fxs_vec2_normalize(fxs_vec2_make(a, b));
  fxs_hash_i32(h, n.x);
  fxs_hash_i32(h, n.y);
}

uint64_t fxs_math_fingerprint(void) {
  fxs_hasher h = fxs_hasher_make();
  for (unsigned i = 0; i < EDGE_COUNT; ++i) {
    for (unsigned j = 0; j < EDGE_COUNT; ++j) hash_pair(&h, edge_values[i], edge_values[j]);
  }
  uint64_t sm = UINT64_C(0x5EED0F1C5EED0F1C);
  for (unsigned i = 0; i < FXS_FINGERPRINT_SAMPLES; ++i) {
    uint64_t r = fxs_splitmix64_next(&sm);
    // Half the samples at pixel scale (|v| < 4096 units), half over the whole range.
    uint32_t mask = (i & 1u) ? 0xFFFFFFFFu : 0x1FFFFFFFu;
    fix16_t a = (fix16_t)((uint32_t)r & mask);
    fix16_t b = (fix16_t)((uint32_t)(r >> 32) & mask);
    if ((i & 1u) == 0) {
      a -= 0x10000000;
      b -= 0x10000000;
    }
    hash_pair(&h, a, b);
  }
  return h.state;
}
