#include <math.h>

#include "unity.h"

#include "scalar.h"
#include "vec2.h"
#include "agent.h"
#include "manager.h"
#include "behavior.h"
#include "result.h"
#include "flow_field.h"
#include "fxs_test_util.h"
#include "fxs_test_agents.h"

void setUp(void) {}
void tearDown(void) {}

#define FXS_TEST_PI 3.14159265358979323846

static double dx(fix16_t v) { return fxs_test_to_double(v); }

// Cells for every grid of these tests (32 x 32: 8 KiB, so the suite fits a 16 KiB board).
#define SIDE 32u
static fxs_vec2 cells[SIDE * SIDE];

static fxs_flow_field grid(int ox, int oy, int size, uint32_t w, uint32_t h) {
  fxs_flow_field f;
  TEST_ASSERT_EQUAL(FXS_OK,
                    fxs_flow_field_init(&f, cells, SIDE * SIDE, w, h,
                                        fxs_vec2_make(FXS_INT(ox), FXS_INT(oy)), FXS_INT(size)));
  return f;
}

void test_flow_field_defaults_are_the_documented_ones(void) {
  TEST_ASSERT_EQUAL_INT32(0, fxs_default_flow_field_def().look_ahead);
}

void test_init_checks_its_arguments_and_zeroes_the_cells(void) {
  fxs_flow_field f;
  fxs_vec2 small[6];
  for (int i = 0; i < 6; ++i) small[i] = fxs_vec2_make(5, 5);
  fxs_vec2 o = fxs_vec2_zero();
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_flow_field_init(&f, small, 6, 0, 3, o, FXS_ONE));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_flow_field_init(&f, small, 6, 2, 0, o, FXS_ONE));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_flow_field_init(&f, small, 6, 2, 3, o, 0));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_flow_field_init(&f, NULL, 6, 2, 3, o, FXS_ONE));
  TEST_ASSERT_EQUAL(FXS_ERR_BUFFER_TOO_SMALL, fxs_flow_field_init(&f, small, 6, 7, 1, o, FXS_ONE));
  // 65536 * 65536 wraps to 0 in 32 bits; the check is done in 64.
  TEST_ASSERT_EQUAL(FXS_ERR_BUFFER_TOO_SMALL,
                    fxs_flow_field_init(&f, small, 6, 65536, 65536, o, FXS_ONE));
  TEST_ASSERT_EQUAL(FXS_ERR_BUFFER_TOO_SMALL,
                    fxs_flow_field_init(&f, small, 6, UINT32_MAX, UINT32_MAX, o, FXS_ONE));
  TEST_ASSERT_TRUE(fxs_vec2_equal(small[0], fxs_vec2_make(5, 5))); // untouched on failure
  TEST_ASSERT_EQUAL(FXS_OK, fxs_flow_field_init(&f, small, 6, 2, 3, o, FXS_ONE));
  for (int i = 0; i < 6; ++i) TEST_ASSERT_TRUE(fxs_vec2_is_zero(small[i]));
}

void test_positions_map_to_cells_by_floor_and_clamp_outside_the_grid(void) {
  fxs_flow_field f = grid(-100, -50, 10, 20, 10); // x in [-100, 100), y in [-50, 50)
  uint32_t cx, cy;
  fxs_flow_field_cell_of(&f, fxs_vec2_make(-FXS_INT(100), -FXS_INT(50)), &cx, &cy);
  TEST_ASSERT_EQUAL_UINT32(0, cx);
  TEST_ASSERT_EQUAL_UINT32(0, cy);
  fxs_flow_field_cell_of(&f, fxs_vec2_make(-FXS_INT(90) - 1, -FXS_INT(40)), &cx, &cy);
  TEST_ASSERT_EQUAL_UINT32(0, cx); // one LSB short of the next cell
  TEST_ASSERT_EQUAL_UINT32(1, cy);
  fxs_flow_field_cell_of(&f, fxs_vec2_make(FXS_INT(99), FXS_INT(49)), &cx, &cy);
  TEST_ASSERT_EQUAL_UINT32(19, cx);
  TEST_ASSERT_EQUAL_UINT32(9, cy);
  fxs_flow_field_cell_of(&f, fxs_vec2_make(FXS_INT(100), -FXS_INT(51)), &cx, &cy);
  TEST_ASSERT_EQUAL_UINT32(19, cx); // past the last column: clamped
  TEST_ASSERT_EQUAL_UINT32(0, cy);  // before the first row: clamped
  fxs_flow_field_cell_of(&f, fxs_vec2_make(FXS_MIN, FXS_MAX), &cx, &cy);
  TEST_ASSERT_EQUAL_UINT32(0, cx);
  TEST_ASSERT_EQUAL_UINT32(9, cy);
  fxs_vec2 c = fxs_flow_field_cell_center(&f, 0, 0);
  TEST_ASSERT_EQUAL_INT32(-FXS_INT(95), c.x);
  TEST_ASSERT_EQUAL_INT32(-FXS_INT(45), c.y);
  f.cell_size = 3; // 3 raw: the half cell rounds down to 1 raw
  c = fxs_flow_field_cell_center(&f, 2, 1);
  TEST_ASSERT_EQUAL_INT32(-FXS_INT(100) + 7, c.x);
  TEST_ASSERT_EQUAL_INT32(-FXS_INT(50) + 4, c.y);
}

void test_a_field_toward_a_point_holds_unit_vectors_and_a_sink(void) {
  fxs_flow_field f = grid(0, 0, 10, 5, 5);
  fxs_flow_field_fill_toward(&f, fxs_vec2_make(FXS_INT(25), FXS_INT(25))); // centre of (2, 2)
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(cells[2 * 5 + 2]));
  TEST_ASSERT_EQUAL_INT32(46341, cells[0].x); // (5, 5) toward (25, 25): (1, 1) / sqrt 2
  TEST_ASSERT_EQUAL_INT32(46341, cells[0].y);
  TEST_ASSERT_EQUAL_INT32(-FXS_ONE, cells[2 * 5 + 4].x); // (45, 25): straight along -x
  TEST_ASSERT_EQUAL_INT32(0, cells[2 * 5 + 4].y);
}

void test_a_vortex_turns_counter_clockwise_and_spirals_in_with_inward(void) {
  fxs_flow_field f = grid(0, 0, 10, 5, 5);
  fxs_vec2 center = fxs_vec2_make(FXS_INT(25), FXS_INT(25));
  fxs_flow_field_fill_vortex(&f, center, FXS_ONE, 0);
  TEST_ASSERT_EQUAL_INT32(0, cells[2 * 5 + 4].x); // (45, 25), east of the centre: +y
  TEST_ASSERT_EQUAL_INT32(FXS_ONE, cells[2 * 5 + 4].y);
  TEST_ASSERT_EQUAL_INT32(-FXS_ONE, cells[4 * 5 + 2].x); // (25, 45), north: -x
  TEST_ASSERT_EQUAL_INT32(0, cells[4 * 5 + 2].y);
  fxs_flow_field_fill_vortex(&f, center, FXS_ONE, FXS_ONE);
  TEST_ASSERT_EQUAL_INT32(-46341, cells[2 * 5 + 4].x); // (0, 1) + (-1, 0), unit length
  TEST_ASSERT_EQUAL_INT32(46341, cells[2 * 5 + 4].y);
  fxs_flow_field_fill_vortex(&f, center, -FXS_ONE, 0); // clockwise
  TEST_ASSERT_EQUAL_INT32(-FXS_ONE, cells[2 * 5 + 4].y);
  fxs_flow_field_fill_uniform(&f, fxs_vec2_make(FXS_INT(3), FXS_INT(4)));
  TEST_ASSERT_EQUAL_INT32(39322, cells[17].x);
  TEST_ASSERT_EQUAL_INT32(52429, cells[17].y);
}

void test_following_steers_to_the_cells_direction_at_max_speed(void) {
  fxs_flow_field f = grid(0, 0, 10, 5, 5);
  fxs_flow_field_fill_uniform(&f, fxs_vec2_make(FXS_ONE, 0));
  cells[3] = fxs_vec2_make(0, FXS_INT(9)); // cell (3, 0): +y, any length
  cells[4] = fxs_vec2_zero();              // cell (4, 0): a sink
  fxs_agent a = fxs_test_agent_at(5, 5);   // max speed 4
  a.velocity = fxs_vec2_make(0, FXS_INT(2));
  fxs_flow_field_def d = fxs_default_flow_field_def();
  fxs_vec2 force = fxs_follow_flow_field(&a, &f, &d);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(4), force.x);
  TEST_ASSERT_EQUAL_INT32(-FXS_INT(2), force.y);
  a.position = fxs_vec2_make(FXS_INT(25), FXS_INT(5));
  a.velocity = fxs_vec2_make(FXS_INT(3), 0);
  force = fxs_follow_flow_field(&a, &f, &d);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(4) - FXS_INT(3), force.x); // still in cell (2, 0)
  d.look_ahead = FXS_INT(2);                                 // reads (31, 5): cell (3, 0)
  force = fxs_follow_flow_field(&a, &f, &d);
  TEST_ASSERT_EQUAL_INT32(-FXS_INT(3), force.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(4), force.y);
  d.look_ahead = FXS_INT(5); // reads (40, 5): the sink, so the agent brakes
  force = fxs_follow_flow_field(&a, &f, &d);
  TEST_ASSERT_EQUAL_INT32(-FXS_INT(3), force.x);
  TEST_ASSERT_EQUAL_INT32(0, force.y);
  a.position = fxs_vec2_make(-FXS_INT(500), FXS_INT(500)); // outside: the corner cell (0, 4)
  a.velocity = fxs_vec2_zero();
  d.look_ahead = 0;
  force = fxs_follow_flow_field(&a, &f, &d);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(4), force.x);
}

// Seeded grids and positions: the sampled cell is the one double-precision floor and clamp
// pick, the desired velocity is the cell's direction at max speed (zero for a sink), and a
// field toward a point holds unit vectors (within 2 LSB) pointing at it.
void test_flow_field_properties_over_seeded_cases(void) {
  uint32_t rng = 555;
  double worst_angle = 0;
  for (int c = 0; c < 200; ++c) {
    uint32_t w = 1 + fxs_test_lcg(&rng) % SIDE, h = 1 + fxs_test_lcg(&rng) % SIDE;
    fix16_t size = fxs_test_units(&rng, 1, 40);
    fxs_flow_field f;
    TEST_ASSERT_EQUAL(FXS_OK, fxs_flow_field_init(&f, cells, SIDE * SIDE, w, h,
                                                  fxs_test_point(&rng, -1000, 1000), size));
    fxs_vec2 point = fxs_test_point(&rng, -1500, 1500);
    fxs_flow_field_fill_toward(&f, point);
    for (uint32_t i = 0; i < w * h; i += 7) {
      fxs_vec2 v = cells[i];
      if (fxs_vec2_is_zero(v)) continue;
      TEST_ASSERT_INT32_WITHIN(2, FXS_ONE, fxs_vec2_length(v));
      fxs_vec2 cc = fxs_flow_field_cell_center(&f, i % w, i / w);
      double ang = atan2(dx(point.y) - dx(cc.y), dx(point.x) - dx(cc.x)) - atan2(dx(v.y), dx(v.x));
      ang = fabs(remainder(ang, 2 * FXS_TEST_PI));
      worst_angle = ang > worst_angle ? ang : worst_angle;
      TEST_ASSERT_TRUE(ang < 1e-4);
    }
    for (int k = 0; k < 20; ++k) {
      fxs_agent a = fxs_test_agent_at(0, 0);
      a.position = fxs_test_point(&rng, -2500, 2500);
      a.velocity = fxs_vec2_truncate(fxs_test_point(&rng, -4, 4), a.max_speed);
      double fx = floor((dx(a.position.x) - dx(f.origin.x)) / dx(size));
      double fy = floor((dx(a.position.y) - dx(f.origin.y)) / dx(size));
      uint32_t ex = fx < 0 ? 0 : (fx >= w ? w - 1 : (uint32_t)fx);
      uint32_t ey = fy < 0 ? 0 : (fy >= h ? h - 1 : (uint32_t)fy);
      fxs_vec2 cell = cells[ey * w + ex];
      fxs_vec2 s = fxs_flow_field_sample(&f, a.position);
      TEST_ASSERT_TRUE(fxs_vec2_equal(cell, s));
      fxs_flow_field_def d = fxs_default_flow_field_def();
      fxs_vec2 desired = fxs_vec2_add(fxs_follow_flow_field(&a, &f, &d), a.velocity);
      if (fxs_vec2_is_zero(cell)) {
        TEST_ASSERT_TRUE(fxs_vec2_is_zero(desired));
      } else {
        TEST_ASSERT_INT32_WITHIN(2, a.max_speed, fxs_vec2_length(desired));
        TEST_ASSERT_TRUE(fxs_vec2_dot(desired, cell) > 0);
      }
    }
  }
  FXS_TEST_REPORT("flow field toward a point: worst direction error %.2e rad", worst_angle);
}

// Twelve agents scattered over a 640 x 640 field that points at (330, 330) (the centre of a
// cell, so that cell is a sink) gather there: after 500 ticks every one is within 16 units.
void test_agents_following_a_field_toward_a_point_gather_there(void) {
  fxs_flow_field f = grid(0, 0, 20, 32, 32);
  fxs_vec2 point = fxs_vec2_make(FXS_INT(330), FXS_INT(330));
  fxs_flow_field_fill_toward(&f, point);
  fxs_flow_field_def d = fxs_default_flow_field_def();
  uint32_t rng = 12;
  double worst = 0;
  for (int c = 0; c < 12; ++c) {
    fxs_agent a = fxs_test_agent_at(0, 0);
    a.position = fxs_test_point(&rng, 0, 640);
    fxs_steering_manager m;
    for (int t = 0; t < 500; ++t) {
      fxs_manager_begin(&m, FXS_COMBINE_WEIGHTED_SUM);
      fxs_manager_add(&m, FXS_BEHAVIOR_NONE, fxs_steering_linear(fxs_follow_flow_field(&a, &f, &d)),
                      FXS_ONE, 0);
      fxs_manager_update(&m, &a);
    }
    double gap = dx(fxs_vec2_distance(a.position, point));
    worst = gap > worst ? gap : worst;
  }
  FXS_TEST_REPORT("flow field toward a point: every agent within %.2f units after 500 ticks",
                  worst);
  TEST_ASSERT_TRUE(worst < 16.0);
}

// An agent released at rest 200 units from the centre of a vortex circles it. Steering each
// tick toward the tangent under the agent spirals outward on its own (a pure swirl: radius
// 205..285 over 2000 ticks); an inward weight of 1/64 balances that: the radius stays within
// 200 +- 5 for 2000 ticks (about five turns), counter-clockwise.
static void orbit(fix16_t inward, double *lo, double *hi, double *turns) {
  fxs_flow_field f = grid(0, 0, 20, 32, 32);
  fxs_flow_field_fill_vortex(&f, fxs_vec2_make(FXS_INT(320), FXS_INT(320)), FXS_ONE, inward);
  fxs_flow_field_def d = fxs_default_flow_field_def();
  fxs_agent a = fxs_test_agent_at(520, 320);
  fxs_steering_manager m;
  double last = 0;
  *lo = 1e9, *hi = 0, *turns = 0;
  for (int t = 0; t < 2000; ++t) {
    fxs_manager_begin(&m, FXS_COMBINE_WEIGHTED_SUM);
    fxs_manager_add(&m, FXS_BEHAVIOR_NONE, fxs_steering_linear(fxs_follow_flow_field(&a, &f, &d)),
                    FXS_ONE, 0);
    fxs_manager_update(&m, &a);
    double rx = dx(a.position.x) - 320, ry = dx(a.position.y) - 320, r = hypot(rx, ry);
    double ang = atan2(ry, rx);
    *turns += remainder(ang - last, 2 * FXS_TEST_PI) / (2 * FXS_TEST_PI);
    last = ang;
    if (t > 100) *lo = r < *lo ? r : *lo, *hi = r > *hi ? r : *hi;
  }
}

void test_an_agent_in_a_vortex_circles_its_centre(void) {
  double lo, hi, turns, plo, phi, pturns;
  orbit(FXS_RATIO(1, 64), &lo, &hi, &turns);
  orbit(0, &plo, &phi, &pturns);
  FXS_TEST_REPORT(
      "vortex: orbit radius %.1f..%.1f units, %.2f turns in 2000 ticks (pure swirl: "
      "%.1f..%.1f)",
      lo, hi, turns, plo, phi);
  TEST_ASSERT_TRUE(lo > 195.0 && hi < 205.0);
  TEST_ASSERT_TRUE(turns > 4.0);
  TEST_ASSERT_TRUE(phi > 250.0); // the outward drift the inward weight corrects
}

void test_flow_field_is_defined_for_extreme_inputs(void) {
  uint32_t rng = 2718;
  for (int c = 0; c < 300; ++c) {
    fxs_flow_field f;
    fix16_t size = fxs_abs(fxs_test_any_raw(&rng));
    if (size == 0) size = 1;
    uint32_t w = 1 + fxs_test_lcg(&rng) % SIDE, h = 1 + fxs_test_lcg(&rng) % SIDE;
    fxs_vec2 origin = fxs_test_any_point(&rng);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_flow_field_init(&f, cells, SIDE * SIDE, w, h, origin, size));
    fxs_vec2 center = fxs_test_any_point(&rng);
    fix16_t swirl = fxs_test_any_raw(&rng), inward = fxs_test_any_raw(&rng);
    fxs_flow_field_fill_vortex(&f, center, swirl, inward);
    for (uint32_t i = 0; i < w * h; ++i) TEST_ASSERT_TRUE(fxs_vec2_length(cells[i]) <= FXS_ONE + 2);
    for (int k = 0; k < 10; ++k) {
      fxs_agent a = fxs_test_agent_at(0, 0);
      a.position = fxs_test_any_point(&rng);
      a.max_speed = fxs_abs(fxs_test_any_raw(&rng));
      a.velocity = fxs_vec2_truncate(fxs_test_any_point(&rng), a.max_speed);
      fxs_flow_field_def d = {fxs_abs(fxs_test_any_raw(&rng))};
      fxs_vec2 force = fxs_follow_flow_field(&a, &f, &d);
      TEST_ASSERT_NOT_EQUAL(INT32_MIN, force.x);
      TEST_ASSERT_NOT_EQUAL(INT32_MIN, force.y);
    }
  }
}
