#include <math.h>

#include "unity.h"

#include "scalar.h"
#include "vec2.h"
#include "vec2_measure.h"
#include "fxs_test_util.h"

void setUp(void) {}
void tearDown(void) {}

static fxs_vec2 units(int x, int y) { return fxs_vec2_make(FXS_INT(x), FXS_INT(y)); }

// A deterministic stream of raw components: half pixel-scale, half anywhere in the range.
static uint32_t lcg_state = 12345u;
static fix16_t next_component(int wide) {
  lcg_state = lcg_state * 1664525u + 1013904223u;
  return wide ? (fix16_t)lcg_state : (fix16_t)(lcg_state >> 4) - (fix16_t)0x08000000;
}

// x drawn before y, in two statements (argument evaluation order is unspecified in C).
static fxs_vec2 next_vector(int wide) {
  fix16_t x = next_component(wide);
  fix16_t y = next_component(wide);
  return fxs_vec2_make(x, y);
}

void test_length_saturates_beyond_32767_units(void) {
  // |(30000, 30000)| = 42426 units does not fit in Q16.16.
  TEST_ASSERT_EQUAL_INT32(FXS_MAX, fxs_vec2_length(units(30000, 30000)));
  TEST_ASSERT_EQUAL_INT32(FXS_MAX, fxs_vec2_length(units(-32767, -32767)));
}

void test_length_is_exact_far_beyond_the_181_unit_square_limit(void) {
  TEST_ASSERT_EQUAL_INT32(FXS_INT(25000), fxs_vec2_length(units(20000, -15000)));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(5), fxs_vec2_length(units(3, 4)));
  // sqrt(32767^2 + 1) = 32767.0000153 units = raw 2147418113.00003.
  TEST_ASSERT_EQUAL_INT32(2147418113, fxs_vec2_length(units(-32767, 1)));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(300), fxs_vec2_length(units(0, -300)));
}

void test_length_rounds_sub_lsb_vectors_to_the_nearest_lsb(void) {
  TEST_ASSERT_EQUAL_INT32(1, fxs_vec2_length(fxs_vec2_make(1, 1))); // 1.414
  TEST_ASSERT_EQUAL_INT32(3, fxs_vec2_length(fxs_vec2_make(2, 2))); // 2.828
  TEST_ASSERT_EQUAL_INT32(4, fxs_vec2_length(fxs_vec2_make(2, 3))); // 3.606
  TEST_ASSERT_EQUAL_INT32(4, fxs_vec2_length(fxs_vec2_make(4, 2))); // 4.472
  TEST_ASSERT_EQUAL_INT32(0, fxs_vec2_length(fxs_vec2_zero()));
}

void test_length_is_correctly_rounded_on_random_vectors(void) {
  for (int i = 0; i < 20000; ++i) {
    fxs_vec2 v = next_vector(i & 1);
    long double exact = sqrtl((long double)v.x * v.x + (long double)v.y * v.y);
    if (exact > (long double)FXS_MAX) exact = FXS_MAX;
    long double got = fxs_vec2_length(v);
    TEST_ASSERT_TRUE_MESSAGE(fabsl(got - exact) <= 0.5L, "length not within half an LSB");
  }
}

void test_measure_gives_the_length_and_the_set_length_of_one_square_root(void) {
  fxs_vec2_measure m = fxs_vec2_measure_of(units(3, 4));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(5), m.length);
  fxs_vec2 v = fxs_vec2_set_length_measured(units(3, 4), &m, FXS_INT(10));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(6), v.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(8), v.y);
  TEST_ASSERT_EQUAL_INT32(FXS_MAX, fxs_vec2_measure_of(units(30000, 30000)).length);
  TEST_ASSERT_EQUAL_INT32(3, fxs_vec2_measure_of(fxs_vec2_make(2, 2)).length); // 2.828
  for (int i = 0; i < 20000; ++i) {
    fxs_vec2 r = next_vector(i & 1);
    if (i % 3 == 2) r.x >>= i % 31; // small vectors too
    if (fxs_vec2_is_zero(r)) continue;
    fix16_t target = (fix16_t)(lcg_state >> (1 + i % 31));
    m = fxs_vec2_measure_of(r);
    TEST_ASSERT_EQUAL_INT32(fxs_vec2_length(r), m.length);
    fxs_vec2 got = fxs_vec2_set_length_measured(r, &m, target);
    fxs_vec2 want = fxs_vec2_set_length(r, target);
    TEST_ASSERT_EQUAL_INT32(want.x, got.x);
    TEST_ASSERT_EQUAL_INT32(want.y, got.y);
  }
}

// A vector a little longer than a length (for the shortcuts of vec2_scale.h): a direction
// scaled to it and nudged by up to 2 LSB a component; lengths half a unit on odd i, else from
// 1 LSB up to 2^max_bits (raw). False when the draw is not longer than its length.
typedef struct long_vector {
  fxs_vec2 v;
  fix16_t length;
  uint64_t sq;
} long_vector;

static bool next_long_vector(int i, unsigned max_bits, fxs_vec2 direction, long_vector *out) {
  if (fxs_vec2_is_zero(direction)) return false;
  unsigned low = 32u - max_bits;
  out->length = i % 2 ? FXS_ONE / 2 : (fix16_t)((lcg_state >> (low + i % max_bits)) | 1u);
  fxs_vec2 v = fxs_vec2_set_length(direction, out->length);
  lcg_state = lcg_state * 1664525u + 1013904223u;
  v.x += (fix16_t)((lcg_state >> 8) % 5u) - 2, v.y += (fix16_t)((lcg_state >> 16) % 5u) - 2;
  if (v.x == INT32_MIN || v.y == INT32_MIN) return false;
  out->v = v;
  out->sq = (uint64_t)((int64_t)v.x * v.x + (int64_t)v.y * v.y);
  return out->sq > (uint64_t)out->length * (uint64_t)out->length;
}

// fxs_vec2_set_length_keeps (vec2_scale.h) on vectors a little longer than a length: a
// direction scaled to it and nudged by up to 2 LSB a component, lengths from 1 LSB to 2^26
// (raw). Whenever it says set_length returns v, set_length does; and at the speeds agents use
// (half a unit) it says so for nearly all of those that set_length returns unchanged.
void test_set_length_keeps_only_vectors_it_returns_unchanged(void) {
  uint32_t kept = 0, unchanged = 0, changed = 0;
  for (int i = 0; i < 200000; ++i) {
    long_vector d;
    if (!next_long_vector(i, 26, next_vector(i & 1), &d)) continue;
    fxs_vec2 v = d.v;
    fix16_t length = d.length;
    fxs_vec2 w = fxs_vec2_set_length(v, length);
    bool same = w.x == v.x && w.y == v.y;
    if (fxs_vec2_set_length_keeps(v, d.sq, length)) {
      TEST_ASSERT_TRUE_MESSAGE(same, "kept a vector that set_length changes");
      kept += length == FXS_ONE / 2;
    }
    unchanged += same && length == FXS_ONE / 2;
    changed += !same;
  }
  TEST_ASSERT_GREATER_THAN_UINT32(1000, changed); // the cases it must refuse occurred
  TEST_ASSERT_GREATER_OR_EQUAL_UINT32(unchanged - unchanged / 20, kept);
  // Edges: no length, and the largest one.
  TEST_ASSERT_FALSE(fxs_vec2_set_length_keeps(fxs_vec2_make(1, 0), 1, 0));
  fxs_vec2 big = fxs_vec2_make(INT32_C(1) << 26, 1);
  TEST_ASSERT_TRUE(fxs_vec2_set_length_keeps(big, (UINT64_C(1) << 52) + 1, INT32_C(1) << 26));
  TEST_ASSERT_EQUAL_INT32(INT32_C(1) << 26, fxs_vec2_set_length(big, INT32_C(1) << 26).x);
  TEST_ASSERT_EQUAL_INT32(1, fxs_vec2_set_length(big, INT32_C(1) << 26).y);
  char line[96];
  snprintf(line, sizeof line, "half a unit: %u kept of %u unchanged; %u changed in all",
           (unsigned)kept, (unsigned)unchanged, (unsigned)changed);
  TEST_MESSAGE(line);
}

// fxs_vec2_truncate_takes_one (vec2_scale.h) on vectors a little longer than a length, made as
// above, lengths from 1 LSB to FXS_MAX: whenever it says truncate takes one unit off each
// nonzero component, truncate does; and at half a unit it says so for about nine in ten of
// those that truncate moves by one (the rest are more than a unit too long).
void test_truncate_takes_one_only_where_truncate_moves_each_component_by_one(void) {
  uint32_t said = 0, by_one = 0, other = 0;
  for (int i = 0; i < 200000; ++i) {
    fxs_vec2 direction = next_vector(i & 1);
    if (i % 7 == 3) direction.y = 0; // an axis: one component to move
    long_vector d;
    if (!next_long_vector(i, 31, direction, &d)) continue;
    fix16_t length = d.length;
    // The whole scaling, not fxs_vec2_truncate, which now takes the shortcut itself.
    fxs_vec2 w = fxs_vec2_scale_down(d.v, length, d.sq), one = fxs_vec2_one_toward_zero(d.v);
    fxs_vec2 got = fxs_vec2_truncate(d.v, length); // with the shortcut where it holds
    TEST_ASSERT_TRUE_MESSAGE(got.x == w.x && got.y == w.y, "truncate differs from the scaling");
    bool same = w.x == one.x && w.y == one.y;
    if (fxs_vec2_truncate_takes_one(d.sq, length)) {
      TEST_ASSERT_TRUE_MESSAGE(same, "took one off where truncate takes more");
      said += length == FXS_ONE / 2;
    }
    by_one += same && length == FXS_ONE / 2;
    other += !same;
  }
  TEST_ASSERT_GREATER_THAN_UINT32(1000, other); // the cases it must refuse occurred
  TEST_ASSERT_GREATER_OR_EQUAL_UINT32(by_one - by_one / 8, said);
  // Edges: no length; unit components; the largest length; a long way over.
  TEST_ASSERT_TRUE(fxs_vec2_truncate_takes_one(1, 0)); // a unit vector truncated to zero
  TEST_ASSERT_EQUAL_INT32(0, fxs_vec2_scale_down(fxs_vec2_make(0, -1), 0, 1).y);
  TEST_ASSERT_TRUE(fxs_vec2_truncate_takes_one(2, 1));
  TEST_ASSERT_EQUAL_INT32(0, fxs_vec2_scale_down(fxs_vec2_make(1, -1), 1, 2).x);
  fxs_vec2 big = fxs_vec2_make(FXS_MAX, -1);
  uint64_t big_sq = (uint64_t)FXS_MAX * FXS_MAX + 1u;
  TEST_ASSERT_TRUE(fxs_vec2_truncate_takes_one(big_sq, FXS_MAX));
  TEST_ASSERT_EQUAL_INT32(FXS_MAX - 1, fxs_vec2_scale_down(big, FXS_MAX, big_sq).x);
  TEST_ASSERT_EQUAL_INT32(0, fxs_vec2_scale_down(big, FXS_MAX, big_sq).y);
  TEST_ASSERT_FALSE(fxs_vec2_truncate_takes_one(big_sq, FXS_MAX - 2)); // |v| - length > 1
  // The most negative component: |v| = 2^31 = FXS_MAX + 1.
  TEST_ASSERT_TRUE(fxs_vec2_truncate_takes_one(UINT64_C(1) << 62, FXS_MAX));
  TEST_ASSERT_EQUAL_INT32(
      -FXS_MAX, fxs_vec2_scale_down(fxs_vec2_make(INT32_MIN, 0), FXS_MAX, UINT64_C(1) << 62).x);
  TEST_ASSERT_EQUAL_INT32(-FXS_MAX, fxs_vec2_one_toward_zero(fxs_vec2_make(INT32_MIN, 0)).x);
  TEST_ASSERT_FALSE(fxs_vec2_truncate_takes_one((uint64_t)FXS_INT(5) * FXS_INT(5), FXS_INT(4)));
  char line[96];
  snprintf(line, sizeof line, "half a unit: %u said of %u moved by one; %u moved otherwise",
           (unsigned)said, (unsigned)by_one, (unsigned)other);
  TEST_MESSAGE(line);
}

void test_distance_never_overflows_its_intermediate(void) {
  TEST_ASSERT_EQUAL_INT32(FXS_INT(30000), fxs_vec2_distance(units(-20000, 7), units(10000, 7)));
  TEST_ASSERT_EQUAL_INT32(FXS_MAX,
                          fxs_vec2_distance(fxs_vec2_make(FXS_MIN, 0), fxs_vec2_make(FXS_MAX, 0)));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(500), fxs_vec2_distance(units(1000, 1000), units(1300, 1400)));
}

void test_within_decides_the_boundary_exactly(void) {
  TEST_ASSERT_TRUE(fxs_vec2_within(units(0, 0), units(300, 400), FXS_INT(500)));
  TEST_ASSERT_FALSE(fxs_vec2_within(units(0, 0), units(300, 400), FXS_INT(500) - 1));
  TEST_ASSERT_FALSE(fxs_vec2_within(fxs_vec2_make(FXS_MIN, 0), fxs_vec2_make(FXS_MAX, 0), FXS_MAX));
  TEST_ASSERT_FALSE(fxs_vec2_within(units(0, 0), units(0, 0), -1));
}

void test_dot_and_cross_are_exact_in_q32_32(void) {
  TEST_ASSERT_EQUAL_INT64(INT64_C(39) << 32, fxs_vec2_dot(units(3, 4), units(5, 6)));
  TEST_ASSERT_EQUAL_INT64(-(INT64_C(2) << 32), fxs_vec2_cross(units(3, 4), units(5, 6)));
  TEST_ASSERT_EQUAL_INT64(INT64_C(30000) * 30000 * 2 << 32 >> 0,
                          fxs_vec2_dot(units(30000, 30000), units(30000, 30000)));
  fxs_vec2 m = fxs_vec2_make((fix16_t)0x80000000, (fix16_t)0x80000000);
  TEST_ASSERT_EQUAL_INT64(INT64_MAX, fxs_vec2_dot(m, m)); // 2^63 saturates
  TEST_ASSERT_EQUAL_UINT64(UINT64_C(1) << 63, fxs_vec2_length_sq(m));
}

void test_normalize_keeps_full_precision_for_tiny_vectors(void) {
  fxs_vec2 n = fxs_vec2_normalize(fxs_vec2_make(1, 1));
  TEST_ASSERT_EQUAL_INT32(46341, n.x); // 0.70710678 * 65536 = 46340.95
  TEST_ASSERT_EQUAL_INT32(46341, n.y);
  n = fxs_vec2_normalize(units(-30000, 0));
  TEST_ASSERT_EQUAL_INT32(-FXS_ONE, n.x);
  TEST_ASSERT_EQUAL_INT32(0, n.y);
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(fxs_vec2_normalize(fxs_vec2_zero())));
}

void test_normalize_gives_unit_length_on_random_vectors(void) {
  for (int i = 0; i < 20000; ++i) {
    fxs_vec2 v = next_vector(i & 1);
    if (fxs_vec2_is_zero(v)) continue;
    fxs_vec2 n = fxs_vec2_normalize(v);
    double len = sqrt((double)n.x * n.x + (double)n.y * n.y);
    TEST_ASSERT_TRUE_MESSAGE(fabs(len - 65536.0) <= 1.0, "normalized length off by > 1 LSB");
    // Same direction: the cross product of v and n is tiny relative to |v| |n|.
    double cross = (double)v.x * n.y - (double)v.y * n.x;
    double norm = sqrt((double)v.x * v.x + (double)v.y * v.y) * 65536.0;
    TEST_ASSERT_TRUE(fabs(cross) / norm <= 2.0 / 65536.0);
  }
}

void test_truncate_never_exceeds_the_limit(void) {
  const fix16_t limits[] = {0, 1, FXS_RATIO(1, 3), FXS_ONE, FXS_INT(4), FXS_INT(250), FXS_MAX};
  for (int i = 0; i < 20000; ++i) {
    fxs_vec2 v = next_vector(i & 1);
    fix16_t max = limits[i % 7];
    fxs_vec2 t = fxs_vec2_truncate(v, max);
    TEST_ASSERT_TRUE(fxs_vec2_length_sq(t) <= (uint64_t)max * (uint64_t)max);
    if (fxs_vec2_length_sq(v) <= (uint64_t)max * (uint64_t)max) {
      TEST_ASSERT_TRUE(fxs_vec2_equal(v, t));
    } else if (max >= FXS_ONE) {
      TEST_ASSERT_INT32_WITHIN(2, max, fxs_vec2_length(t)); // scaled, not collapsed
    }
  }
}

void test_truncate_exact_values(void) {
  fxs_vec2 t = fxs_vec2_truncate(units(300, 400), FXS_INT(5));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(3), t.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(4), t.y);
  t = fxs_vec2_truncate(units(3, 4), FXS_INT(5));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(3), t.x);
}

void test_set_length_on_a_pixel_scale_vector(void) {
  fxs_vec2 v = fxs_vec2_set_length(units(600, 800), FXS_INT(7));
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(42, 10), v.x);
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(56, 10), v.y);
}

void test_angles_round_trip(void) {
  TEST_ASSERT_EQUAL_INT32(0, fxs_vec2_angle(units(5, 0)));
  TEST_ASSERT_EQUAL_INT32(FXS_HALF_PI, fxs_vec2_angle(units(0, 5)));
  TEST_ASSERT_EQUAL_INT32(FXS_PI, fxs_vec2_angle(units(-5, 0)));
  fxs_vec2 u = fxs_vec2_from_angle(0);
  TEST_ASSERT_EQUAL_INT32(FXS_ONE, u.x);
  TEST_ASSERT_EQUAL_INT32(0, u.y);
  for (fix16_t a = -FXS_PI + 1; a <= FXS_PI; a += 977) {
    fix16_t back = fxs_vec2_angle(fxs_vec2_set_angle(units(1000, 0), a));
    fix16_t diff = fxs_angle_wrap(back - a);
    TEST_ASSERT_INT32_WITHIN(FXS_ATAN2_MAX_ERROR + 4, 0, diff);
  }
}

void test_rotate_matches_the_double_rotation(void) {
  for (int i = 0; i < 5000; ++i) {
    fxs_vec2 v = next_vector(0);
    fix16_t a = next_component(0) % FXS_TWO_PI;
    fxs_vec2 r = fxs_vec2_rotate(v, a);
    double t = fxs_test_to_double(a);
    double ex = (double)v.x * cos(t) - (double)v.y * sin(t);
    double ey = (double)v.x * sin(t) + (double)v.y * cos(t);
    // 4 LSB of sin/cos error scale with |v| (in units).
    double tol = 1.0 + 8.0 * (fabs((double)v.x) + fabs((double)v.y)) / 65536.0;
    TEST_ASSERT_TRUE(fabs(r.x - ex) <= tol && fabs(r.y - ey) <= tol);
  }
  fxs_vec2 q = fxs_vec2_rotate(units(100, 0), FXS_PI);
  TEST_ASSERT_INT32_WITHIN(1, FXS_INT(-100), q.x);
}

void test_add_sub_negate_saturate(void) {
  fxs_vec2 a = fxs_vec2_add(units(30000, -30000), units(30000, -30000));
  TEST_ASSERT_EQUAL_INT32(FXS_MAX, a.x);
  TEST_ASSERT_EQUAL_INT32(FXS_MIN, a.y);
  fxs_vec2 n = fxs_vec2_negate(fxs_vec2_make((fix16_t)0x80000000, 5));
  TEST_ASSERT_EQUAL_INT32(FXS_MAX, n.x);
  TEST_ASSERT_EQUAL_INT32(-5, n.y);
  fxs_vec2 s = fxs_vec2_sub(units(1, 2), units(3, 5));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(-2), s.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(-3), s.y);
}

void test_lerp_and_scale(void) {
  fxs_vec2 l = fxs_vec2_lerp(units(0, 100), units(1000, -100), FXS_RATIO(1, 4));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(250), l.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(50), l.y);
  fxs_vec2 s = fxs_vec2_scale(units(10, -4), FXS_RATIO(3, 2));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(15), s.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(-6), s.y);
}

void test_closest_point_on_a_segment_clamps_to_its_ends(void) {
  fxs_vec2 a = units(100, 100), b = units(500, 100);
  fxs_vec2 q = fxs_vec2_closest_on_segment(units(300, 40), a, b);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(300), q.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(100), q.y);
  q = fxs_vec2_closest_on_segment(units(-50, 0), a, b);
  TEST_ASSERT_TRUE(fxs_vec2_equal(a, q));
  q = fxs_vec2_closest_on_segment(units(900, 300), a, b);
  TEST_ASSERT_TRUE(fxs_vec2_equal(b, q));
  TEST_ASSERT_TRUE(fxs_vec2_equal(a, fxs_vec2_closest_on_segment(units(7, 7), a, a)));
  // A diagonal wall at pixel scale: (0,0)-(1000,1000), point (1000, 0) -> (500, 500).
  q = fxs_vec2_closest_on_segment(units(1000, 0), units(0, 0), units(1000, 1000));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(500), q.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(500), q.y);
}

void test_closest_point_is_within_an_lsb_of_the_exact_projection(void) {
  for (int i = 0; i < 5000; ++i) {
    fxs_vec2 p = next_vector(0), a = next_vector(0), b = next_vector(0);
    fxs_vec2 q = fxs_vec2_closest_on_segment(p, a, b);
    double ex = (double)b.x - a.x, ey = (double)b.y - a.y;
    double t = (((double)p.x - a.x) * ex + ((double)p.y - a.y) * ey) / (ex * ex + ey * ey);
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    double qx = a.x + ex * t, qy = a.y + ey * t;
    // t is exact to 2^-16 of the segment, so the error is at most |b - a| / 65536 + 1 LSB.
    double tol = sqrt(ex * ex + ey * ey) / 65536.0 + 1.0;
    TEST_ASSERT_TRUE(fabs(q.x - qx) <= tol && fabs(q.y - qy) <= tol);
  }
}
