#include "unity.h"

#include "scalar.h"
#include "vec2.h"
#include "agent.h"
#include "manager.h"
#include "behavior.h"
#include "behavior_params.h"
#include "seek.h"
#include "avoidance.h"
#include "result.h"
#include "fxs_test_util.h"
#include "fxs_test_agents.h"

void setUp(void) {}
void tearDown(void) {}

static fxs_obstacle obstacle(int x, int y, int r) {
  fxs_obstacle o;
  o.center = fxs_vec2_make(FXS_INT(x), FXS_INT(y));
  o.radius = FXS_INT(r);
  return o;
}

static fxs_obstacle obstacle_raw(fix16_t x, fix16_t y, fix16_t r) {
  fxs_obstacle o;
  o.center = fxs_vec2_make(x, y);
  o.radius = r;
  return o;
}

// A default agent (radius 8, max speed 4) at the origin moving along +x at full speed.
static fxs_agent runner(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  a.velocity = fxs_vec2_make(FXS_INT(4), 0);
  return a;
}

static fxs_avoidance_def probes_def(void) {
  fxs_avoidance_def def = fxs_default_avoidance_def();
  def.mode = FXS_AVOID_PROBES;
  return def;
}

void test_the_defaults_are_swept_with_a_two_tick_margin_and_no_braking(void) {
  fxs_avoidance_def def = fxs_default_avoidance_def();
  TEST_ASSERT_EQUAL_INT32(FXS_INT(60), def.max_see_ahead);
  TEST_ASSERT_EQUAL_INT32(FXS_ONE, def.max_avoid_force);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(2), def.margin);
  TEST_ASSERT_EQUAL_INT32(0, def.braking);
  TEST_ASSERT_EQUAL_INT32(FXS_AVOID_SWEPT, def.mode);
}

void test_a_mode_other_than_swept_or_probes_is_refused(void) {
  fix16_t p[FXS_BEHAVIOR_PARAMS] = {FXS_INT(60), FXS_ONE, FXS_INT(2), 0, FXS_ONE, 0};
  uint32_t bad = 99;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_behavior_params_check(FXS_BEHAVIOR_AVOID, FXS_ONE, p, &bad));
  p[4] = FXS_RATIO(1, 2);
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE,
                    fxs_behavior_params_check(FXS_BEHAVIOR_AVOID, FXS_ONE, p, &bad));
  TEST_ASSERT_EQUAL_UINT32(4, bad);
}

void test_the_tutorial_probes_push_from_the_centre_toward_ahead(void) {
  fxs_agent a = fxs_test_agent_at(0, 0); // radius 8, max speed 4
  a.velocity = fxs_vec2_make(FXS_INT(4), 0);
  fxs_avoidance_def def = probes_def();        // see ahead 60, force 1
  fxs_obstacle obs[] = {obstacle(70, 10, 20)}; // |ahead - centre| = 14.1 < 28
  fxs_vec2 f = fxs_avoid_obstacles(&a, obs, 1, &def);
  TEST_ASSERT_EQUAL_INT32(-46341, f.x); // (60, 0) - (70, 10) = (-10, -10), length 1
  TEST_ASSERT_EQUAL_INT32(-46341, f.y);
}

void test_the_look_ahead_scales_with_speed(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  a.velocity = fxs_vec2_make(FXS_INT(1), 0); // quarter speed: ahead at 15
  fxs_avoidance_def def = fxs_default_avoidance_def();
  fxs_obstacle far[] = {obstacle(50, 0, 10)}; // touched only by a full-length probe
  TEST_ASSERT_EQUAL_INT(-1, fxs_most_threatening_obstacle(&a, far, 1, &def));
  a.velocity = fxs_vec2_make(FXS_INT(4), 0);
  TEST_ASSERT_EQUAL_INT(0, fxs_most_threatening_obstacle(&a, far, 1, &def));
}

void test_the_nearest_threat_wins_and_ties_keep_the_lower_index(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  a.velocity = fxs_vec2_make(FXS_INT(4), 0);
  fxs_avoidance_def def = fxs_default_avoidance_def();
  fxs_obstacle obs[] = {obstacle(60, 0, 10), obstacle(30, 0, 10), obstacle(0, 30, 10),
                        obstacle(30, 0, 10)};
  TEST_ASSERT_EQUAL_INT(1, fxs_most_threatening_obstacle(&a, obs, 4, &def));
  fxs_obstacle none[] = {obstacle(0, 200, 10)};
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(fxs_avoid_obstacles(&a, none, 1, &def)));
}

void test_an_agent_crossing_an_obstacle_field_never_overlaps_an_obstacle(void) {
  // A grid of obstacles between the start and the goal, some jittered; prioritized sum puts
  // avoidance first so seek only gets the budget that is left.
  fxs_obstacle field[30];
  uint32_t rng = 5;
  int n = 0;
  for (int gx = 0; gx < 6; ++gx) {
    for (int gy = 0; gy < 5; ++gy) {
      int jx = (int)(fxs_test_lcg(&rng) % 40) - 20, jy = (int)(fxs_test_lcg(&rng) % 40) - 20;
      field[n++] =
          obstacle(200 + gx * 130 + jx, -260 + gy * 130 + jy, 25 + (int)(fxs_test_lcg(&rng) % 20));
    }
  }
  fxs_avoidance_def def = fxs_default_avoidance_def();
  def.max_see_ahead = FXS_INT(80);
  fix16_t worst_clearance = FXS_MAX;
  for (int c = 0; c < 12; ++c) {
    fxs_agent a = fxs_test_agent_at(0, -300 + c * 50);
    a.max_force = FXS_RATIO(1, 2);
    a.radius = FXS_INT(6);
    fxs_vec2 goal = fxs_vec2_make(FXS_INT(1200), FXS_INT(300 - c * 50));
    fxs_steering_manager m;
    int t;
    for (t = 0; t < 2500 && !fxs_vec2_within(a.position, goal, FXS_INT(10)); ++t) {
      fxs_manager_begin(&m, FXS_COMBINE_PRIORITIZED_SUM);
      fxs_manager_add(&m, FXS_BEHAVIOR_AVOID,
                      fxs_steering_linear(fxs_avoid_obstacles(&a, field, 30, &def)), FXS_ONE, 0);
      fxs_manager_add(&m, FXS_BEHAVIOR_ARRIVE,
                      fxs_steering_linear(fxs_arrive(&a, goal, FXS_INT(80))), FXS_ONE, 1);
      fxs_manager_update(&m, &a);
      for (int i = 0; i < 30; ++i) {
        fix16_t gap = fxs_sub(fxs_vec2_distance(a.position, field[i].center), field[i].radius);
        worst_clearance = fxs_min(worst_clearance, fxs_sub(gap, a.radius));
        TEST_ASSERT_TRUE_MESSAGE(gap >= a.radius, "the agent's body overlapped an obstacle");
      }
    }
    TEST_ASSERT_TRUE_MESSAGE(t < 2500, "agent never reached the far side");
  }
  FXS_TEST_REPORT("obstacle field: smallest body-to-obstacle clearance %.2f units",
                  fxs_test_to_double(worst_clearance));
}

static fxs_wall wall(int ax, int ay, int bx, int by) {
  fxs_wall w;
  w.a = fxs_vec2_make(FXS_INT(ax), FXS_INT(ay));
  w.b = fxs_vec2_make(FXS_INT(bx), FXS_INT(by));
  return w;
}

void test_a_wall_across_the_probe_pushes_along_its_normal(void) {
  fxs_agent a = runner(); // probe to (60, 0) crosses x = 50
  fxs_avoidance_def def = probes_def();
  fxs_wall walls[] = {wall(50, 100, 50, -100), wall(-300, 0, -200, 0)};
  TEST_ASSERT_EQUAL_INT(0, fxs_most_threatening_wall(&a, walls, 2, &def));
  fxs_vec2 f = fxs_avoid_walls(&a, walls, 2, &def);
  TEST_ASSERT_EQUAL_INT32(-FXS_ONE, f.x); // back toward the agent's side
  TEST_ASSERT_EQUAL_INT32(0, f.y);
  a.velocity = fxs_vec2_make(0, FXS_INT(4)); // running parallel, far from it: no threat
  TEST_ASSERT_EQUAL_INT(-1, fxs_most_threatening_wall(&a, walls, 2, &def));
}

void test_a_wall_across_the_path_pushes_along_its_normal_harder_as_it_nears(void) {
  fxs_agent a = runner();
  fxs_avoidance_def def = fxs_default_avoidance_def(); // capsule radius 8 + 2 * 4 = 16
  fxs_wall walls[] = {wall(50, 100, 50, -100), wall(-300, 0, -200, 0)};
  TEST_ASSERT_EQUAL_INT(0, fxs_most_threatening_wall(&a, walls, 2, &def));
  fxs_vec2 f = fxs_avoid_walls(&a, walls, 2, &def); // contact at 50 - 16 = 34: share 26/60
  TEST_ASSERT_EQUAL_INT32(-28399, f.x);
  TEST_ASSERT_EQUAL_INT32(0, f.y);
  a.position = fxs_vec2_make(FXS_INT(20), 0); // contact at 14: share 46/60
  f = fxs_avoid_walls(&a, walls, 2, &def);
  TEST_ASSERT_EQUAL_INT32(-50244, f.x);
  TEST_ASSERT_EQUAL_INT32(0, f.y);
  a.position = fxs_vec2_make(FXS_INT(43), FXS_INT(-3)); // body overlaps: out plus sideways
  a.velocity = fxs_vec2_make(FXS_INT(3), FXS_INT(2));   // (left, away from the wall)
  f = fxs_avoid_walls(&a, walls, 2, &def);
  TEST_ASSERT_EQUAL_INT32(-57782, f.x); // normalize((-1, 0) + (-2, 3) / sqrt(13))
  TEST_ASSERT_EQUAL_INT32(30923, f.y);
  a.position = fxs_vec2_zero();
  a.velocity = fxs_vec2_make(0, FXS_INT(4)); // running parallel, far from it: no threat
  TEST_ASSERT_EQUAL_INT(-1, fxs_most_threatening_wall(&a, walls, 2, &def));
}

void test_agents_pulled_toward_a_goal_behind_a_wall_never_cross_it(void) {
  fxs_wall walls[] = {wall(0, -400, 0, 400), wall(0, 400, 300, 600)};
  fxs_avoidance_def def = fxs_default_avoidance_def();
  uint32_t rng = 17;
  for (int c = 0; c < 16; ++c) {
    fxs_agent a = fxs_test_agent_at(0, 0);
    fix16_t sx = fxs_test_units(&rng, -500, -100);
    fix16_t sy = fxs_test_units(&rng, -300, 300);
    a.position = fxs_vec2_make(sx, sy);
    a.max_force = FXS_RATIO(1, 2);
    fix16_t gy = fxs_test_units(&rng, -350, 350);
    fxs_vec2 goal = fxs_vec2_make(FXS_INT(250), gy); // behind the wall
    fxs_steering_manager m;
    for (int t = 0; t < 800; ++t) {
      fxs_vec2 before = a.position;
      fxs_manager_begin(&m, FXS_COMBINE_PRIORITIZED_SUM);
      fxs_manager_add(&m, FXS_BEHAVIOR_AVOID,
                      fxs_steering_linear(fxs_avoid_walls(&a, walls, 2, &def)), FXS_ONE, 0);
      fxs_manager_add(&m, FXS_BEHAVIOR_SEEK, fxs_steering_linear(fxs_seek(&a, goal)), FXS_ONE, 1);
      fxs_manager_update(&m, &a);
      TEST_ASSERT_TRUE_MESSAGE(a.position.x < 0 || before.y > FXS_INT(400),
                               "an agent crossed the wall");
    }
  }
}

// ------------------------------------------------------------------ swept detection

void test_a_small_obstacle_between_the_position_and_ahead2_is_seen_with_the_defaults(void) {
  fxs_agent a = runner();
  fxs_avoidance_def def = fxs_default_avoidance_def();
  fxs_obstacle on_path[] = {obstacle(15, 0, 5)}; // 15 from the position and from ahead2
  fxs_avoidance_def probes = probes_def();
  TEST_ASSERT_EQUAL_INT(-1, fxs_most_threatening_obstacle(&a, on_path, 1, &probes));
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(fxs_avoid_obstacles(&a, on_path, 1, &probes)));
  // Swept: capsule radius 5 + 8 + 8 reaches back past the position: full force, and with the
  // centre exactly on the path line, to the left.
  fxs_vec2 f = fxs_avoid_obstacles(&a, on_path, 1, &def);
  TEST_ASSERT_EQUAL_INT32(0, f.x);
  TEST_ASSERT_EQUAL_INT32(FXS_ONE, f.y);
  fxs_obstacle left_of_path[] = {obstacle(15, 2, 5)};
  f = fxs_avoid_obstacles(&a, left_of_path, 1, &def);
  TEST_ASSERT_EQUAL_INT32(0, f.x);
  TEST_ASSERT_EQUAL_INT32(-FXS_ONE, f.y); // away from it: to the right
  def.margin = 0;                         // capsule radius 13: contact at 15 - 13 = 2, share 58/60
  f = fxs_avoid_obstacles(&a, on_path, 1, &def);
  TEST_ASSERT_EQUAL_INT32(0, f.x);
  TEST_ASSERT_EQUAL_INT32(63351, f.y);
}

void test_a_one_unit_obstacle_ten_units_ahead_of_a_one_unit_agent_is_seen(void) {
  fxs_agent a = runner();
  a.radius = FXS_ONE;
  fxs_avoidance_def def = fxs_default_avoidance_def();
  fxs_avoidance_def probes = probes_def();
  fxs_obstacle on_path[] = {obstacle(10, 0, 1)};
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(fxs_avoid_obstacles(&a, on_path, 1, &probes)));
  fxs_vec2 f = fxs_avoid_obstacles(&a, on_path, 1, &def); // capsule 1 + 1 + 8: contact at 0
  TEST_ASSERT_EQUAL_INT32(0, f.x);
  TEST_ASSERT_EQUAL_INT32(FXS_ONE, f.y);
  fxs_obstacle right_of_path[] = {obstacle_raw(FXS_INT(10), -FXS_RATIO(1, 2), FXS_ONE)};
  f = fxs_avoid_obstacles(&a, right_of_path, 1, &def); // contact at 10 - sqrt(99.75)
  TEST_ASSERT_EQUAL_INT32(0, f.x);
  TEST_ASSERT_EQUAL_INT32(65522, f.y);
  def.margin = 0; // capsule radius 2: contact at 8, share 52/60
  f = fxs_avoid_obstacles(&a, on_path, 1, &def);
  TEST_ASSERT_EQUAL_INT32(0, f.x);
  TEST_ASSERT_EQUAL_INT32(56798, f.y);
}

// The force on a runner from an obstacle of radius 5 centred at (x, side).
static fxs_vec2 force_at(int x, int side) {
  fxs_agent a = runner();
  fxs_avoidance_def def = fxs_default_avoidance_def();
  fxs_obstacle o[] = {obstacle(x, side, 5)};
  return fxs_avoid_obstacles(&a, o, 1, &def);
}

void test_an_obstacle_anywhere_along_the_path_is_pushed_away_harder_as_it_nears(void) {
  // Capsule radius 21 around the segment (0, 0)-(60, 0); the obstacle 3 units to the left:
  // reached for -20.8 <= x <= 60 + sqrt(21^2 - 3^2) = 80.8, overlapping the body for
  // |x| <= 12.
  fix16_t previous = 0;
  for (int x = 90; x >= -30; --x) {
    fxs_vec2 f = force_at(x, 3);
    fxs_vec2 mirrored = force_at(x, -3);
    TEST_ASSERT_EQUAL_INT32(f.x, mirrored.x);
    TEST_ASSERT_EQUAL_INT32(-f.y, mirrored.y);
    if (x > 80 || x < -20) { // beyond reach
      TEST_ASSERT_TRUE(fxs_vec2_is_zero(f));
      continue;
    }
    TEST_ASSERT_TRUE_MESSAGE(f.y < 0, "pushes away, to the right");
    if (x < -12) { // behind, inside the margin only: the least share, sideways
      TEST_ASSERT_EQUAL_INT32(0, f.x);
      TEST_ASSERT_EQUAL_INT32(-FXS_AVOIDANCE_MIN_SHARE, f.y);
      continue;
    }
    if (x <= 12) { // touching: out from the centre plus sideways
      TEST_ASSERT_TRUE(fxs_vec2_dot(f, fxs_vec2_make(FXS_INT(x), FXS_INT(3))) < 0);
      continue;
    }
    TEST_ASSERT_EQUAL_INT32(0, f.x);
    TEST_ASSERT_TRUE(-f.y >= FXS_AVOIDANCE_MIN_SHARE);
    TEST_ASSERT_TRUE_MESSAGE(-f.y >= previous, "grows as the obstacle nears");
    previous = -f.y;
  }
  TEST_ASSERT_EQUAL_INT32(-16384, force_at(80, 3).y); // the least share, 1/4
  TEST_ASSERT_EQUAL_INT32(-22702, force_at(60, 3).y);
  TEST_ASSERT_EQUAL_INT32(-55470, force_at(30, 3).y);
  TEST_ASSERT_EQUAL_INT32(-FXS_ONE, force_at(20, 3).y);
  TEST_ASSERT_EQUAL_INT32(0, force_at(0, 3).x);
  TEST_ASSERT_EQUAL_INT32(-FXS_ONE, force_at(0, 3).y);
}

void test_obstacles_grazing_the_capsule_are_decided_to_the_lsb(void) {
  fxs_agent a = runner(); // capsule radius 16 + the obstacle's
  fxs_avoidance_def def = fxs_default_avoidance_def();
  fxs_obstacle o[1];
  // Beside the segment: the centre exactly 21 from it, then 1 LSB out, then 1 LSB in.
  o[0] = obstacle_raw(FXS_INT(30), FXS_INT(21), FXS_INT(5));
  TEST_ASSERT_EQUAL_INT(0, fxs_most_threatening_obstacle(&a, o, 1, &def));
  o[0].center.y += 1;
  TEST_ASSERT_EQUAL_INT(-1, fxs_most_threatening_obstacle(&a, o, 1, &def));
  o[0].center.y -= 2;
  TEST_ASSERT_EQUAL_INT(0, fxs_most_threatening_obstacle(&a, o, 1, &def));
  // Past the end: 25 from ahead (60, 0) along (15, 20).
  o[0] = obstacle_raw(FXS_INT(75), FXS_INT(20), FXS_INT(9));
  TEST_ASSERT_EQUAL_INT(0, fxs_most_threatening_obstacle(&a, o, 1, &def));
  o[0].center.x += 1;
  TEST_ASSERT_EQUAL_INT(-1, fxs_most_threatening_obstacle(&a, o, 1, &def));
  // A diagonal heading: ahead = (36, 48), margin 2 * 5; the centre 25 from the path's
  // midpoint (18, 24) along its normal (-4/5, 3/5). 1 LSB in x moves it 0.8 LSB off.
  a.max_speed = FXS_INT(5);
  a.velocity = fxs_vec2_make(FXS_INT(3), FXS_INT(4));
  o[0] = obstacle_raw(FXS_INT(-2), FXS_INT(39), FXS_INT(7));
  TEST_ASSERT_EQUAL_INT(0, fxs_most_threatening_obstacle(&a, o, 1, &def));
  o[0].center.x -= 1;
  TEST_ASSERT_EQUAL_INT(-1, fxs_most_threatening_obstacle(&a, o, 1, &def));
  o[0].center.x += 2;
  TEST_ASSERT_EQUAL_INT(0, fxs_most_threatening_obstacle(&a, o, 1, &def));
}

void test_the_nearest_contact_wins_not_the_nearest_centre(void) {
  fxs_agent a = runner();
  fxs_avoidance_def def = fxs_default_avoidance_def();
  // A small obstacle on the path at 50 (contact at 50 - 18 = 32) and a big one whose centre
  // is farther (55) but whose edge reaches the path at 55 - sqrt(56^2 - 50^2) = 29.8.
  fxs_obstacle obs[] = {obstacle(50, 0, 2), obstacle(55, 50, 40)};
  TEST_ASSERT_EQUAL_INT(1, fxs_most_threatening_obstacle(&a, obs, 2, &def));
  fxs_avoidance_def probes = probes_def();
  TEST_ASSERT_EQUAL_INT(0, fxs_most_threatening_obstacle(&a, obs, 2, &probes));
}

void test_braking_tilts_the_push_back_without_making_it_longer(void) {
  fxs_agent a = runner();
  fxs_avoidance_def def = fxs_default_avoidance_def();
  def.braking = FXS_ONE; // 45 degrees back
  fxs_obstacle o[] = {obstacle(30, 3, 5)};
  fxs_vec2 f = fxs_avoid_obstacles(&a, o, 1, &def);
  TEST_ASSERT_EQUAL_INT32(-39223, f.x);
  TEST_ASSERT_EQUAL_INT32(-39223, f.y);
}

void test_nothing_is_seen_by_an_agent_that_stands_still_unless_it_touches(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  fxs_avoidance_def def = fxs_default_avoidance_def();
  fxs_obstacle near[] = {obstacle(14, 0, 5)};
  TEST_ASSERT_EQUAL_INT(-1, fxs_most_threatening_obstacle(&a, near, 1, &def));
  fxs_obstacle touching[] = {obstacle(12, 0, 5)};
  fxs_vec2 f = fxs_avoid_obstacles(&a, touching, 1, &def);
  TEST_ASSERT_EQUAL_INT32(-FXS_ONE, f.x); // straight out
  TEST_ASSERT_EQUAL_INT32(0, f.y);
  fxs_obstacle centred[] = {obstacle(0, 0, 5)}; // on the centre, no velocity: a fixed way out
  f = fxs_avoid_obstacles(&a, centred, 1, &def);
  TEST_ASSERT_EQUAL_INT32(0, f.x);
  TEST_ASSERT_EQUAL_INT32(FXS_ONE, f.y);
}

void test_swept_detection_is_exact_at_the_edges_of_the_q16_range(void) {
  // From the far left edge, a look-ahead of FXS_MAX reaches exactly the origin; an obstacle
  // of radius FXS_MAX centred at the far right edge is reached with 16 units to spare.
  fxs_agent a = runner();
  a.position = fxs_vec2_make(FXS_MIN, 0);
  fxs_avoidance_def def = fxs_default_avoidance_def();
  def.max_see_ahead = FXS_MAX;
  fxs_obstacle o[] = {obstacle_raw(FXS_MAX, 0, FXS_MAX - FXS_INT(16))};
  fxs_vec2 f = fxs_avoid_obstacles(&a, o, 1, &def); // far along the path: the least share
  TEST_ASSERT_EQUAL_INT32(0, f.x);
  TEST_ASSERT_EQUAL_INT32(FXS_AVOIDANCE_MIN_SHARE, f.y);
  o[0].radius -= 1;
  TEST_ASSERT_EQUAL_INT(-1, fxs_most_threatening_obstacle(&a, o, 1, &def));
  // Walls spanning the whole range: one crossing the path, one 1 LSB beyond the capsule.
  fxs_wall walls[] = {{{FXS_MIN, FXS_MAX}, {FXS_MAX, FXS_MIN}},
                      {{FXS_INT(16) + 1, FXS_MIN}, {FXS_INT(16) + 1, FXS_MAX}}};
  TEST_ASSERT_EQUAL_INT(0, fxs_most_threatening_wall(&a, walls, 2, &def));
  TEST_ASSERT_EQUAL_INT(-1, fxs_most_threatening_wall(&a, walls + 1, 1, &def));
  walls[1].a.x -= 1, walls[1].b.x -= 1;
  TEST_ASSERT_EQUAL_INT(0, fxs_most_threatening_wall(&a, walls + 1, 1, &def));
}

// ------------------------------------------------------------------ walls at shallow angles

// A runner heading `degrees` above +x toward the wall y = 16 + 30 sin(angle) (from x = -200
// to 400): the capsule (radius 16) meets the wall's line 30 units along the path.
static fxs_vec2 shallow_wall_force(int degrees, const fxs_avoidance_def *def) {
  fxs_agent a = runner();
  fix16_t angle = fxs_muldiv(FXS_PI, FXS_INT(degrees), FXS_INT(180));
  fxs_vec2 heading = fxs_vec2_from_angle(angle);
  a.velocity = fxs_vec2_scale(heading, FXS_INT(4));
  fix16_t y = fxs_add(FXS_INT(16), fxs_mul(FXS_INT(30), heading.y));
  fxs_wall w[] = {{{FXS_INT(-200), y}, {FXS_INT(400), y}}};
  return fxs_avoid_walls(&a, w, 1, def);
}

void test_walls_at_one_to_ten_degrees_to_the_heading_push_along_their_normal(void) {
  // Share (60 - 30) / 60 of the force (32768, to within the few LSB of the rounded geometry),
  // but never more than the closing speed 4 sin(angle): up to 7 degrees the push exactly
  // stops the approach (4 sin(1 degree) = 4576 raw), from 8 on it is the ramped share.
  static const fix16_t expected[10] = {-4576,  -9152,  -13720, -18288, -22848,
                                       -27404, -31952, -32769, -32769, -32768};
  fxs_avoidance_def def = fxs_default_avoidance_def();
  fxs_avoidance_def probes = probes_def();
  for (int degrees = 1; degrees <= 10; ++degrees) {
    fxs_vec2 f = shallow_wall_force(degrees, &def); // contact at 30: about half the force
    TEST_ASSERT_EQUAL_INT32(0, f.x);
    TEST_ASSERT_EQUAL_INT32(expected[degrees - 1], f.y);
    TEST_ASSERT_TRUE(fxs_vec2_is_zero(shallow_wall_force(degrees, &probes))); // probes miss it
  }
}

void test_an_agent_converging_on_a_shallow_wall_slides_along_it_without_touching(void) {
  for (int degrees = 1; degrees <= 10; ++degrees) {
    // The wall starts 12 above the straight path and descends across it at `degrees`.
    fix16_t angle = fxs_muldiv(FXS_PI, FXS_INT(degrees), FXS_INT(180));
    fxs_vec2 dir = fxs_vec2_from_angle(-angle);
    fxs_wall w[1];
    w[0].a = fxs_vec2_make(FXS_INT(100), FXS_INT(12));
    w[0].b = fxs_vec2_add(w[0].a, fxs_vec2_scale(dir, FXS_INT(500)));
    fxs_agent a = fxs_test_agent_at(0, 0);
    a.max_force = FXS_RATIO(1, 2);
    fxs_vec2 goal = fxs_vec2_make(FXS_INT(900), 0);
    fxs_avoidance_def def = fxs_default_avoidance_def();
    fxs_steering_manager m;
    int t;
    for (t = 0; t < 600 && !fxs_vec2_within(a.position, goal, FXS_INT(10)); ++t) {
      fxs_manager_begin(&m, FXS_COMBINE_PRIORITIZED_SUM);
      fxs_manager_add(&m, FXS_BEHAVIOR_AVOID, fxs_steering_linear(fxs_avoid_walls(&a, w, 1, &def)),
                      FXS_ONE, 0);
      fxs_manager_add(&m, FXS_BEHAVIOR_ARRIVE,
                      fxs_steering_linear(fxs_arrive(&a, goal, FXS_INT(60))), FXS_ONE, 1);
      fxs_manager_update(&m, &a);
      fxs_vec2 c = fxs_vec2_closest_on_segment(a.position, w[0].a, w[0].b);
      // Without the world's contact nothing but avoidance keeps it off: it brakes the
      // approach, and the goal beyond the wall may press the body in by a fraction of a unit.
      TEST_ASSERT_TRUE_MESSAGE(!fxs_vec2_within(c, a.position, a.radius - FXS_RATIO(1, 2)),
                               "the body overlapped the wall by more than half a unit");
      TEST_ASSERT_TRUE_MESSAGE(
          a.position.y < fxs_add(w[0].a.y, fxs_mul(a.position.x - w[0].a.x, dir.y)) ||
              a.position.x > w[0].b.x,
          "the agent crossed the wall");
    }
    TEST_ASSERT_TRUE_MESSAGE(t < 600, "the agent never reached the goal");
  }
}
