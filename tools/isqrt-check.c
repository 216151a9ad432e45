// isqrt-check: proves fxs_isqrt64 and fxs_isqrt64_round give the bits of the original
// bit-by-bit routine, and times both.
//
//   isqrt-check                 all checks (a few minutes on one core): prints
//                               "isqrt-check: N passed, N failed" (groups of checks), exit
//                               status 1 on a failure
//   isqrt-check --quick         strided sweeps and 5 M random inputs (seconds)
//   isqrt-check --bench         ns per call, old and new, over squared lengths of vectors
//   isqrt-check --run old|new MIX CALLS   CALLS calls on one mix (for callgrind)
//   isqrt-check --table         prints the 1/sqrt seed table, computed from its definition
//
// White box: it compiles src/core/scalar.c itself, so it can also check the internal 1/sqrt seed
// against the bounds its proof relies on, for every 32-bit input, and the portable
// leading-zero count and 32 x 32-bit product (used on Cortex-M0) against the native ones.
#define _POSIX_C_SOURCE 199309L // clock_gettime
#include "scalar.c"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

__extension__ typedef unsigned __int128 u128;

static uint64_t passed, failed;

// The original routine, kept verbatim as the reference.
static uint32_t isqrt64_bitwise(uint64_t n) {
  uint64_t root = 0;
  uint64_t bit = UINT64_C(1) << 62;
  while (bit > n) bit >>= 2;
  while (bit != 0) {
    if (n >= root + bit) {
      n -= root + bit;
      root = (root >> 1) + bit;
    } else {
      root >>= 1;
    }
    bit >>= 2;
  }
  return (uint32_t)root;
}

static uint64_t isqrt64_round_bitwise(uint64_t n) {
  uint64_t r = isqrt64_bitwise(n);
  return (n - r * r > r) ? r + 1 : r;
}

static void expect(int ok, const char *what, uint64_t n) {
  if (ok) {
    ++passed;
    return;
  }
  if (++failed <= 20) printf("FAIL %s: n = %" PRIu64 " (0x%016" PRIx64 ")\n", what, n, n);
}

static void check_one(uint64_t n) {
  uint64_t r = isqrt64_bitwise(n);
  expect(fxs_isqrt64(n) == r, "floor", n);
  expect(fxs_isqrt64_round(n) == ((n - r * r > r) ? r + 1 : r), "round", n); // as the original
}

static uint64_t xorshift64(uint64_t *s) {
  uint64_t x = *s;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return *s = x;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

// The builtin and the portable leading-zero counts agree on every nonzero 32-bit value.
static void check_clz(void) {
  uint64_t bad = 0;
  for (uint32_t v = 1; v != 0; ++v) bad += fxs_clz32_nz(v) != fxs_clz32_search(v);
  expect(bad == 0, "clz32 builtin vs search", bad);
  printf("clz: builtin and binary search agree on all 2^32 - 1 inputs: %s\n", bad ? "NO" : "yes");
}

// The partial-product multiply agrees with the native one: every square, every product with
// 2^32 - 1, the edges of the 16-bit halves against each other, and random pairs.
static void check_mul(uint64_t random_pairs, uint32_t step) {
  const uint32_t edges[] = {0,          1,          2,          0x7FFF,     0x8000,
                            0xFFFF,     0x10000,    0x10001,    0x7FFFFFFF, 0x80000000,
                            0xFFFEFFFF, 0xFFFF0000, 0xFFFFFFFE, 0xFFFFFFFF};
  const unsigned ne = sizeof edges / sizeof edges[0];
  uint64_t bad = 0, count = 0, s = 99;
  for (unsigned i = 0; i < ne; ++i) {
    for (unsigned j = 0; j < ne; ++j, ++count) {
      bad += fxs_mul32_halves(edges[i], edges[j]) != (uint64_t)edges[i] * edges[j];
    }
  }
  uint32_t a = 0;
  do {
    bad += fxs_mul32_halves(a, a) != (uint64_t)a * a;
    bad += fxs_mul32_halves(a, 0xFFFFFFFFu) != (uint64_t)a * 0xFFFFFFFFu;
    count += 2;
    a += step;
  } while (a >= step);
  for (uint64_t i = 0; i < random_pairs; ++i, ++count) {
    uint64_t r = xorshift64(&s);
    uint32_t x = (uint32_t)r, y = (uint32_t)(r >> 32);
    bad += fxs_mul32_halves(x, y) != (uint64_t)x * y;
  }
  expect(bad == 0, "mul32 halves vs native", bad);
  printf("mul32: partial products and native agree on %" PRIu64 " pairs: %s\n", count,
         bad ? "NO" : "yes");
}

// floor(2^46 / sqrt(x + 1)): the largest y with y^2 (x + 1) <= 2^92.
static uint64_t seed_ceiling(uint64_t x) {
  const u128 two92 = (u128)1 << 92;
  uint64_t y = (uint64_t)(70368744177664.0 / sqrt((double)(x + 1))); // 2^46 / sqrt(x + 1)
  while ((u128)y * y * (x + 1) > two92) --y;
  while ((u128)(y + 1) * (y + 1) * (x + 1) <= two92) ++y;
  return y;
}

// The seed table by its definition (isqrt.h). Interval i holds x = x0 + 128 t + u,
// x0 = 2^30 + i 2^23, t < 2^16, u < 128. The slope is the chord's, in units of 2^-8 per t,
// rounded; the base is the largest value that keeps base - slope t / 2^8 (truncated) at or
// under the ceiling for every x of the interval, so the line touches the curve and lies
// under it (the ceiling falls with u, so u = 127 is each t's tightest x).
static void seed_table(uint32_t *base, uint16_t *slope) {
  const uint64_t width = UINT64_C(1) << 23;
  for (uint32_t i = 0; i < FXS_RSQRT_INTERVALS; ++i) {
    uint64_t x0 = (UINT64_C(1) << 30) + i * width;
    uint64_t drop = seed_ceiling(x0) - seed_ceiling(x0 + width - 1);
    uint64_t s = (drop * (UINT64_C(1) << 16) + (width - 1)) / (2 * (width - 1)); // round
    uint64_t a = UINT64_MAX;
    for (uint64_t t = 0; t < (UINT64_C(1) << 16); ++t) {
      uint64_t g = seed_ceiling(x0 + 128 * t + 127) + ((s * t) >> 8);
      if (g < a) a = g;
    }
    base[i] = (uint32_t)a, slope[i] = (uint16_t)s;
  }
}

// The compiled table is the one its definition gives.
static void check_table(void) {
  static uint32_t base[FXS_RSQRT_INTERVALS];
  static uint16_t slope[FXS_RSQRT_INTERVALS];
  seed_table(base, slope);
  uint64_t bad = 0;
  for (uint32_t i = 0; i < FXS_RSQRT_INTERVALS; ++i) {
    bad += base[i] != fxs_rsqrt_base[i] || slope[i] != fxs_rsqrt_slope[i];
  }
  expect(bad == 0, "seed table vs its definition", bad);
  printf("seed table: %u intervals, equal to its definition: %s\n", FXS_RSQRT_INTERVALS,
         bad ? "NO" : "yes");
}

// Prints the table as C, for src/core/scalar.c.
static void print_table(void) {
  static uint32_t base[FXS_RSQRT_INTERVALS];
  static uint16_t slope[FXS_RSQRT_INTERVALS];
  seed_table(base, slope);
  printf("const uint32_t fxs_rsqrt_base[FXS_RSQRT_INTERVALS] = {");
  for (uint32_t i = 0; i < FXS_RSQRT_INTERVALS; ++i) printf("%s%" PRIu32, i ? ", " : "", base[i]);
  printf("};\nconst uint16_t fxs_rsqrt_slope[FXS_RSQRT_INTERVALS] = {");
  for (uint32_t i = 0; i < FXS_RSQRT_INTERVALS; ++i) printf("%s%u", i ? ", " : "", slope[i]);
  printf("};\n");
}

// For every x in [2^30, 2^32) (every `step`th): y^2 (x + 1) <= 2^92 (so y / 2^62 <= 1 / sqrt(m)
// for every m with top word x) and y >= (1 - 2^-17) 2^46 / sqrt(x), i.e.
// y^2 x >= (2^17 - 1)^2 2^58.
static void check_seed(uint32_t step) {
  const u128 two92 = (u128)1 << 92;
  const u128 low = ((u128)((UINT64_C(1) << 17) - 1) * ((UINT64_C(1) << 17) - 1)) << 58;
  uint64_t over = 0, under = 0;
  double worst = 0;
  uint32_t worst_x = 0;
  for (uint64_t x = UINT64_C(1) << 30; x < (UINT64_C(1) << 32); x += step) {
    uint64_t y = fxs_rsqrt_q30((uint32_t)x);
    u128 yy = (u128)(y * y);
    over += yy * (x + 1) > two92;
    under += yy * x < low;
    double e = 1.0 - (double)y * sqrt((double)x) / 70368744177664.0; // 2^46
    if (e > worst) worst = e, worst_x = (uint32_t)x;
  }
  expect(over == 0, "seed: y^2 (x + 1) <= 2^92", over);
  expect(under == 0, "seed: y >= (1 - 2^-17) 2^46 / sqrt(x)", under);
  printf("seed: y^2 (x+1) > 2^92 for %" PRIu64 " x, below the 2^-17 bound for %" PRIu64
         " x; worst relative error %.3g = 2^%.2f (x = 0x%08" PRIx32 ")\n",
         over, under, worst, log2(worst), worst_x);
}

static void check_edges(void) {
  const uint64_t edges[] = {0,
                            1,
                            2,
                            3,
                            4,
                            5,
                            8,
                            9,
                            15,
                            16,
                            17,
                            UINT64_C(0xFFFFFFFF),
                            UINT64_C(0x100000000),
                            UINT64_C(0x100000001),
                            UINT64_C(1) << 62,
                            (UINT64_C(1) << 62) - 1,
                            (UINT64_C(1) << 62) + 1,
                            UINT64_C(1) << 63,
                            UINT64_MAX,
                            UINT64_MAX - 1,
                            UINT64_C(0xFFFFFFFE00000001),
                            UINT64_C(0xFFFFFFFE00000000),
                            UINT64_C(0xFFFFFFFE00000002),
                            UINT64_C(0xFFFFFFFF00000000)};
  for (unsigned i = 0; i < sizeof edges / sizeof edges[0]; ++i) check_one(edges[i]);
  // Every power of two, and every square of 2^j +- 1 with its neighbours.
  for (unsigned j = 0; j < 64; ++j) {
    uint64_t p = UINT64_C(1) << j;
    check_one(p - 1);
    check_one(p);
    check_one(p + 1);
    if (j < 32) {
      for (int64_t d = -1; d <= 1; ++d) {
        uint64_t s = p + (uint64_t)d, q = s * s;
        check_one(q - 1);
        check_one(q);
        check_one(q + 1);
      }
    }
  }
  printf("edges: done\n");
}

// Every 32-bit input (or every 65521st with quick).
static void check_32bit(uint32_t step) {
  double t0 = now();
  uint64_t count = 0;
  uint32_t n = 0;
  do {
    check_one(n);
    ++count;
    n += step;
  } while (n >= step);
  printf("32-bit sweep: %" PRIu64 " inputs (step %" PRIu32 ") in %.1f s\n", count, step,
         now() - t0);
}

// The 64-bit path for top words x in [2^30, 2^32) (no normalising shift), with the lowest
// and highest low words, every `step`th x.
static void check_top_words(uint32_t step) {
  uint64_t count = 0;
  for (uint64_t x = UINT64_C(1) << 30; x < (UINT64_C(1) << 32); x += step) {
    check_one(x << 32);
    check_one((x << 32) | UINT64_C(0xFFFFFFFF));
    count += 2;
  }
  printf("top words: %" PRIu64 " inputs (step %" PRIu32 ")\n", count, step);
}

// Random inputs: uniform 64-bit, uniform in each [2^j, 2^(j+1)), squares s^2 of uniform
// 32-bit s and their neighbours, and squares of s in each power-of-two range.
static void check_random(uint64_t per_kind) {
  double t0 = now();
  uint64_t s = UINT64_C(0x9E3779B97F4A7C15), count = 0;
  for (uint64_t i = 0; i < per_kind; ++i, ++count) check_one(xorshift64(&s));
  for (uint64_t i = 0; i < per_kind; ++i, ++count) {
    unsigned j = (unsigned)(i % 64);
    uint64_t top = UINT64_C(1) << j;
    check_one(top | (xorshift64(&s) & (top - 1)));
  }
  for (uint64_t i = 0; i < per_kind / 3; ++i, count += 3) {
    uint64_t r = xorshift64(&s) >> 32, q = r * r;
    check_one(q - 1);
    check_one(q);
    check_one(q + 1);
  }
  for (uint64_t i = 0; i < per_kind / 3; ++i, count += 3) {
    unsigned j = (unsigned)(i % 32);
    uint64_t top = UINT64_C(1) << j;
    uint64_t r = top | (xorshift64(&s) & (top - 1)), q = r * r;
    check_one(q - 1);
    check_one(q);
    check_one(q + 1);
  }
  printf("random: %" PRIu64 " inputs in %.1f s\n", count, now() - t0);
}

// fxs_isqrt64_estimate_top(n), which skips the leading-zero count for n in [2^60, 2^64) (the
// squared lengths of widened vectors), gives fxs_isqrt64_estimate(n), and that is
// floor(sqrt(n)) or one less: the edges of its range and of its two shifts, every `step`th
// top word with its lowest and highest low words, and `random` inputs uniform in the range
// and in each of its four octaves.
static void check_estimate_top(uint32_t step, uint64_t random) {
  uint64_t bad = 0, count = 0, s = UINT64_C(0x2545F4914F6CDD1D);
#define TOP_ONE(n)                                                                 \
  do {                                                                             \
    uint64_t n_ = (n), f_ = isqrt64_bitwise(n_);                                   \
    uint32_t e_ = fxs_isqrt64_estimate_top(n_);                                    \
    bad += e_ != fxs_isqrt64_estimate(n_) || (e_ != f_ && e_ + UINT64_C(1) != f_); \
    ++count;                                                                       \
  } while (0)
  const uint64_t edges[] = {
      UINT64_C(1) << 60,       (UINT64_C(1) << 60) + 1, (UINT64_C(1) << 61) - 1,
      UINT64_C(1) << 61,       (UINT64_C(1) << 62) - 1, UINT64_C(1) << 62,
      (UINT64_C(1) << 62) + 1, (UINT64_C(1) << 63) - 1, UINT64_C(1) << 63,
      (UINT64_C(1) << 63) + 1, UINT64_MAX - 1,          UINT64_MAX};
  for (unsigned i = 0; i < sizeof edges / sizeof edges[0]; ++i) TOP_ONE(edges[i]);
  for (uint64_t x = UINT64_C(1) << 28; x < (UINT64_C(1) << 32); x += step) {
    TOP_ONE(x << 32);
    TOP_ONE((x << 32) | UINT64_C(0xFFFFFFFF));
  }
  for (uint64_t i = 0; i < random; ++i) {
    uint64_t r = xorshift64(&s), top = UINT64_C(1) << (60 + i % 4);
    TOP_ONE(r | (UINT64_C(1) << 60)); // uniform in [2^60, 2^64)
    TOP_ONE(top | (r & (top - 1)));   // uniform in [2^j, 2^(j+1)), j = 60..63
  }
#undef TOP_ONE
  expect(bad == 0, "estimate_top vs estimate", bad);
  printf("estimate top: equal to the counted estimate and floor or one less on %" PRIu64
         " inputs in [2^60, 2^64) (step %" PRIu32 "): %s\n",
         count, step, bad ? "NO" : "yes");
}

// Squared lengths of Q16.16 vectors with both components uniform in +-units.
static void fill_mix(uint64_t *v, size_t count, int64_t units, uint64_t seed) {
  uint64_t span = (uint64_t)units << 17; // 2 * units * 2^16
  for (size_t i = 0; i < count; ++i) {
    int64_t x = (int64_t)(xorshift64(&seed) % (span + 1)) - (units << 16);
    int64_t y = (int64_t)(xorshift64(&seed) % (span + 1)) - (units << 16);
    v[i] = (uint64_t)(x * x) + (uint64_t)(y * y);
  }
}

typedef uint64_t (*sqrt_fn)(uint64_t);
static uint64_t old_floor(uint64_t n) { return isqrt64_bitwise(n); }
static uint64_t new_floor(uint64_t n) { return fxs_isqrt64(n); }
static uint64_t old_round(uint64_t n) { return isqrt64_round_bitwise(n); }
static uint64_t new_round(uint64_t n) { return fxs_isqrt64_round(n); }

#define MIX_SIZE 4096
static const int64_t mix_units[] = {4, 100, 30000};

static uint64_t run(volatile sqrt_fn f, const uint64_t *v, uint64_t calls) {
  uint64_t sum = 0;
  for (uint64_t i = 0; i < calls; ++i) sum += f(v[i % MIX_SIZE]);
  return sum;
}

static void bench(void) {
  static uint64_t v[MIX_SIZE];
  const sqrt_fn fns[] = {old_floor, new_floor, old_round, new_round};
  const char *names[] = {"floor old", "floor new", "round old", "round new"};
  printf("ns per call (best of 5 runs of 4 M calls):\n%-10s", "");
  for (unsigned m = 0; m < 3; ++m) printf("  +-%-6" PRId64, mix_units[m]);
  printf("\n");
  for (unsigned f = 0; f < 4; ++f) {
    printf("%-10s", names[f]);
    for (unsigned m = 0; m < 3; ++m) {
      fill_mix(v, MIX_SIZE, mix_units[m], 12345 + m);
      double best = 1e9;
      for (int rep = 0; rep < 5; ++rep) {
        double t0 = now();
        volatile uint64_t sink = run(fns[f], v, 4000000);
        (void)sink;
        double t = (now() - t0) / 4e6 * 1e9;
        if (t < best) best = t;
      }
      printf("  %8.2f", best);
    }
    printf("\n");
  }
}

static int run_one(const char *which, const char *mix, const char *calls) {
  static uint64_t v[MIX_SIZE];
  int m = atoi(mix);
  if (m < 0 || m > 2) return 2;
  fill_mix(v, MIX_SIZE, mix_units[m], 12345 + (uint64_t)m);
  sqrt_fn f = strcmp(which, "old") == 0         ? old_floor
              : strcmp(which, "new") == 0       ? new_floor
              : strcmp(which, "old-round") == 0 ? old_round
                                                : new_round;
  printf("%" PRIu64 "\n", run(f, v, strtoull(calls, NULL, 10)));
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "--bench") == 0) {
    bench();
    return 0;
  }
  if (argc == 2 && strcmp(argv[1], "--table") == 0) {
    print_table();
    return 0;
  }
  if (argc == 5 && strcmp(argv[1], "--run") == 0) return run_one(argv[2], argv[3], argv[4]);
  int quick = argc == 2 && strcmp(argv[1], "--quick") == 0;
  if (argc > 1 && !quick) {
    fprintf(stderr, "usage: isqrt-check [--quick | --bench | --table | --run old|new MIX CALLS]\n");
    return 2;
  }
  setvbuf(stdout, NULL, _IOLBF, 0);
  // Each group of checks passes when none of its inputs failed.
  uint64_t groups_passed = 0, groups_failed = 0;
#define GROUP(call)                                           \
  do {                                                        \
    uint64_t before_ = failed;                                \
    call;                                                     \
    ++*(failed == before_ ? &groups_passed : &groups_failed); \
  } while (0)
  GROUP(check_edges());
  if (!quick) GROUP(check_clz());
  GROUP(check_mul(quick ? 1000000u : 100000000u, quick ? 65521u : 1u));
  GROUP(check_table());
  GROUP(check_seed(quick ? 509u : 1u));
  GROUP(check_32bit(quick ? 65521u : 1u));
  GROUP(check_top_words(quick ? 4099u : 61u));
  GROUP(check_random(quick ? 1250000u : 12500000u));
  GROUP(check_estimate_top(quick ? 4099u : 13u, quick ? 1000000u : 20000000u));
#undef GROUP
  printf("%" PRIu64 " inputs and table entries checked, %" PRIu64 " wrong\n", passed + failed,
         failed);
  printf("isqrt-check: %" PRIu64 " passed, %" PRIu64 " failed\n", groups_passed, groups_failed);
  return failed != 0;
}
