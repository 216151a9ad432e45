// The navigation mesh's exact predicates against plain 64-bit arithmetic where it suffices,
// and against exact symmetries (translation, scaling by 2^k, cocircular points) where the
// coordinates span the whole Q16.16 range.
#include <stdint.h>

#include "unity.h"

#include "vec2.h"
#include "nav_mesh_exact.h"

void setUp(void) {}
void tearDown(void) {}

static uint64_t rng_state = 0x243F6A8885A308D3u;

static uint64_t next_u64(void) {
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

// A value in [-span, span].
static int32_t draw(int32_t span) {
  return (int32_t)(next_u64() % (2u * (uint64_t)span + 1u)) - span;
}

static fxs_vec2 point(int32_t span) {
  int32_t x = draw(span); // two statements: argument order differs between compilers
  return fxs_vec2_make(x, draw(span));
}

static int sign64(int64_t v) { return (v > 0) - (v < 0); }

static int orient_small(fxs_vec2 a, fxs_vec2 b, fxs_vec2 c) {
  return sign64(((int64_t)b.x - a.x) * ((int64_t)c.y - a.y) -
                ((int64_t)b.y - a.y) * ((int64_t)c.x - a.x));
}

static int in_circle_small(fxs_vec2 a, fxs_vec2 b, fxs_vec2 c, fxs_vec2 d) {
  int64_t adx = a.x - d.x, ady = a.y - d.y, bdx = b.x - d.x, bdy = b.y - d.y;
  int64_t cdx = c.x - d.x, cdy = c.y - d.y;
  int64_t det = (adx * adx + ady * ady) * (bdx * cdy - cdx * bdy) +
                (bdx * bdx + bdy * bdy) * (cdx * ady - adx * cdy) +
                (cdx * cdx + cdy * cdy) * (adx * bdy - bdx * ady);
  return sign64(det);
}

void test_orientation_and_in_circle_equal_64_bit_arithmetic_on_small_coordinates(void) {
  int zeros = 0;
  for (int k = 0; k < 20000; k++) {
    int32_t span = (k & 1) ? 3 : 2047; // tiny spans give many collinear and cocircular cases
    fxs_vec2 a = point(span), b = point(span), c = point(span), d = point(span);
    TEST_ASSERT_EQUAL_INT(orient_small(a, b, c), fxs_mesh_orient(a, b, c));
    TEST_ASSERT_EQUAL_INT(in_circle_small(a, b, c, d), fxs_mesh_in_circle(a, b, c, d));
    zeros += in_circle_small(a, b, c, d) == 0;
  }
  TEST_ASSERT_GREATER_THAN_INT(1000, zeros);
}

void test_predicates_are_unchanged_by_translation_and_scaling_over_the_whole_range(void) {
  for (int k = 0; k < 5000; k++) {
    fxs_vec2 p[4];
    for (int i = 0; i < 4; i++) p[i] = point(k & 1 ? 4 : 4095);
    int o = orient_small(p[0], p[1], p[2]), c = in_circle_small(p[0], p[1], p[2], p[3]);
    // Scale by 2^18 (differences up to 2^31) or 2^16 (below 2^30: the in-circle test's
    // narrow path on 64-bit hosts) and translate by up to 2^29: signs kept.
    fxs_vec2 shift = point(1 << 29), q[4];
    unsigned scale = (k & 2) ? 18u : 16u;
    for (int i = 0; i < 4; i++)
      q[i] = fxs_vec2_make((int32_t)((uint32_t)p[i].x << scale) + shift.x,
                           (int32_t)((uint32_t)p[i].y << scale) + shift.y);
    TEST_ASSERT_EQUAL_INT(o, fxs_mesh_orient(q[0], q[1], q[2]));
    TEST_ASSERT_EQUAL_INT(c, fxs_mesh_in_circle(q[0], q[1], q[2], q[3]));
  }
}

void test_in_circle_is_exact_at_the_edges_of_the_range(void) {
  const int32_t r = INT32_MAX;
  fxs_vec2 e = fxs_vec2_make(r, 0), n = fxs_vec2_make(0, r), w = fxs_vec2_make(-r, 0);
  TEST_ASSERT_EQUAL_INT(0, fxs_mesh_in_circle(e, n, w, fxs_vec2_make(0, -r)));
  TEST_ASSERT_EQUAL_INT(1, fxs_mesh_in_circle(e, n, w, fxs_vec2_make(0, -r + 1)));
  TEST_ASSERT_EQUAL_INT(-1, fxs_mesh_in_circle(e, n, w, fxs_vec2_make(1, -r)));
  fxs_vec2 lo = fxs_vec2_make(INT32_MIN, INT32_MIN), hi = fxs_vec2_make(INT32_MAX, INT32_MAX);
  TEST_ASSERT_EQUAL_INT(1, fxs_mesh_orient(lo, fxs_vec2_make(INT32_MAX, INT32_MIN), hi));
  TEST_ASSERT_EQUAL_INT(0, fxs_mesh_orient(lo, hi, fxs_vec2_make(0, 0)));
  TEST_ASSERT_EQUAL_INT(-1, fxs_mesh_orient(lo, hi, fxs_vec2_make(1, 0)));
  TEST_ASSERT_EQUAL_INT(0, fxs_mesh_orient(lo, hi, fxs_vec2_make(-1, -1)));
}

void test_crossing_points_on_the_grid_are_exact_and_others_round_half_up(void) {
  fxs_vec2 x = fxs_mesh_crossing_point(fxs_vec2_make(-10, 0), fxs_vec2_make(10, 0),
                                       fxs_vec2_make(3, -7), fxs_vec2_make(3, 9));
  TEST_ASSERT_EQUAL_INT32(3, x.x);
  TEST_ASSERT_EQUAL_INT32(0, x.y);
  // Diagonals of the square (0,0)-(1,1) cross at (0.5, 0.5) raw: halves round up.
  x = fxs_mesh_crossing_point(fxs_vec2_make(0, 0), fxs_vec2_make(1, 1), fxs_vec2_make(1, 0),
                              fxs_vec2_make(0, 1));
  TEST_ASSERT_EQUAL_INT32(1, x.x);
  TEST_ASSERT_EQUAL_INT32(1, x.y);
  // The same square shifted to negative coordinates: (-0.5, -0.5) rounds up to (0, 0).
  x = fxs_mesh_crossing_point(fxs_vec2_make(-1, -1), fxs_vec2_make(0, 0), fxs_vec2_make(0, -1),
                              fxs_vec2_make(-1, 0));
  TEST_ASSERT_EQUAL_INT32(0, x.x);
  TEST_ASSERT_EQUAL_INT32(0, x.y);
  // The lines y = x / 3 and x = 1 meet at (1, 1/3): y rounds to 0.
  x = fxs_mesh_crossing_point(fxs_vec2_make(0, 0), fxs_vec2_make(3, 1), fxs_vec2_make(1, -5),
                              fxs_vec2_make(1, 5));
  TEST_ASSERT_EQUAL_INT32(1, x.x);
  TEST_ASSERT_EQUAL_INT32(0, x.y);
  // Across the whole range: the diagonals of the full square meet at (-1/2, -1/2) raw.
  x = fxs_mesh_crossing_point(
      fxs_vec2_make(INT32_MIN, INT32_MIN), fxs_vec2_make(INT32_MAX, INT32_MAX),
      fxs_vec2_make(INT32_MAX, INT32_MIN), fxs_vec2_make(INT32_MIN, INT32_MAX));
  TEST_ASSERT_EQUAL_INT32(0, x.x);
  TEST_ASSERT_EQUAL_INT32(0, x.y);
}

void test_wide_integers_multiply_and_divide_exactly(void) {
  fxs_mesh_int a = fxs_mesh_int_from_i64(-(INT64_C(1) << 40) - 3);
  fxs_mesh_int b = fxs_mesh_int_from_i64(INT64_C(1) << 41);
  fxs_mesh_int p = fxs_mesh_int_mul(fxs_mesh_int_mul(a, b), b); // -(2^40+3) * 2^82
  TEST_ASSERT_EQUAL_INT(-1, fxs_mesh_int_sign(p));
  TEST_ASSERT_EQUAL_INT64(-(INT64_C(1) << 40) - 3,
                          fxs_mesh_int_floor_div(p, fxs_mesh_int_mul(b, b)));
  // floor of a negative quotient with a remainder goes down.
  TEST_ASSERT_EQUAL_INT64(
      -4, fxs_mesh_int_floor_div(fxs_mesh_int_from_i64(-7), fxs_mesh_int_from_i64(2)));
  TEST_ASSERT_EQUAL_INT64(
      3, fxs_mesh_int_floor_div(fxs_mesh_int_from_i64(7), fxs_mesh_int_from_i64(2)));
  TEST_ASSERT_EQUAL_INT(0, fxs_mesh_int_compare(fxs_mesh_int_sub(p, p), fxs_mesh_int_from_i64(0)));
}
