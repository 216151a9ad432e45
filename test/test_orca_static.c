// ORCA's walls and obstacles (orca_static.c): the half-plane a wall and an obstacle circle
// give, and an agent driven at a wall.
#include "unity.h"

#include "vec2.h"
#include "agent.h"
#include "kinematic.h"
#include "avoidance.h"
#include "orca.h"
#include "fxs_test_util.h"
#include "fxs_test_agents.h"

void setUp(void) {}
void tearDown(void) {}

static double dx(fix16_t v) { return fxs_test_to_double(v); }

// A wall 20 above an agent of radius 8 and max speed 2 (horizon 10 ticks, reach 20): the
// clearance 12 may close by at most 12 / 10 = 1.2 a tick, raw 78643.2 -> 78643. The allowed
// side is the left of -x, i.e. vy <= 1.2.
void test_a_wall_ahead_gives_the_half_plane_that_closes_a_tenth_of_the_clearance_a_tick(void) {
  fxs_agent self = fxs_test_agent_at(0, 0);
  self.max_speed = FXS_INT(2);
  fxs_wall w = {fxs_vec2_make(FXS_INT(-50), FXS_INT(20)), fxs_vec2_make(FXS_INT(50), FXS_INT(20))};
  fxs_orca_def d = fxs_default_orca_def();
  TEST_ASSERT_EQUAL_INT32(FXS_INT(10), d.obstacle_time_horizon);
  fxs_orca_line l;
  TEST_ASSERT_TRUE(fxs_orca_wall_line(&self, &w, &d, &l));
  TEST_ASSERT_EQUAL_INT32(0, l.point.x);
  TEST_ASSERT_EQUAL_INT32(78643, l.point.y);
  TEST_ASSERT_EQUAL_INT32(-FXS_ONE, l.direction.x);
  TEST_ASSERT_EQUAL_INT32(0, l.direction.y);
  // 21 units of clearance is beyond the reach of 20: no line.
  w.a.y = w.b.y = FXS_INT(29) + 1;
  TEST_ASSERT_FALSE(fxs_orca_wall_line(&self, &w, &d, &l));
}

// The wall's bounding box is tested before its closest point (a far wall costs no division):
// the reach is the same as without the box. Agent radius 8, reach 20: an agent exactly 28
// beyond either end of a wall, along either axis, still gets the end's line (its disc is
// touched, not crossed: the line passes through the velocity 0's side); 1 LSB farther, none.
void test_a_wall_end_exactly_at_the_reach_gives_a_line_and_one_lsb_farther_none(void) {
  fxs_orca_def d = fxs_default_orca_def();
  fxs_orca_line l;
  const fxs_wall walls[2] = {
      {fxs_vec2_make(FXS_INT(-50), 0), fxs_vec2_make(FXS_INT(50), 0)},  // along x
      {fxs_vec2_make(0, FXS_INT(50)), fxs_vec2_make(0, FXS_INT(-50))}}; // along y, b below a
  for (int k = 0; k < 2; ++k) {
    for (int end = -1; end <= 1; end += 2) {
      int at = end * (50 + 28);
      fxs_agent self = k == 0 ? fxs_test_agent_at(at, 0) : fxs_test_agent_at(0, at);
      self.max_speed = FXS_INT(2);
      TEST_ASSERT_TRUE(fxs_orca_wall_line(&self, &walls[k], &d, &l));
      if (k == 0) self.position.x += end;
      else self.position.y += end;
      TEST_ASSERT_FALSE(fxs_orca_wall_line(&self, &walls[k], &d, &l));
    }
  }
}

// An obstacle of radius 10 at (30, 0), the agent (radius 8) moving at (2, 0): the velocity
// obstacle's cut-off disc is centred (3, 0) with radius 1.8 (raw 117964.8 -> 117965), the
// relative velocity lies 0.8 inside it, and the agent takes all of it: x <= 1.2.
void test_an_obstacle_circle_gives_its_whole_velocity_obstacle_to_the_agent(void) {
  fxs_agent self = fxs_test_agent_at(0, 0);
  self.max_speed = FXS_INT(2);
  self.velocity = fxs_vec2_make(FXS_INT(2), 0);
  fxs_obstacle o = {fxs_vec2_make(FXS_INT(30), 0), FXS_INT(10)};
  fxs_orca_def d = fxs_default_orca_def();
  fxs_orca_line l;
  TEST_ASSERT_TRUE(fxs_orca_obstacle_line(&self, &o, &d, &l));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(2) - (117965 - FXS_ONE), l.point.x);
  TEST_ASSERT_EQUAL_INT32(0, l.point.y);
  TEST_ASSERT_EQUAL_INT32(0, l.direction.x);
  TEST_ASSERT_EQUAL_INT32(FXS_ONE, l.direction.y);
  fxs_orca_statics st = {0, 0, &o, 0, 1};
  fxs_vec2 v = fxs_orca_velocity_among(&self, 1, self.velocity, 0, 0, 0, &st, &d);
  TEST_ASSERT_EQUAL_INT32(l.point.x, v.x);
}

// Drives one agent (velocity applied directly) toward `goal` for `ticks` among the walls;
// returns its least clearance to them.
static double drive_at_walls(fxs_agent *a, fxs_vec2 goal, const fxs_wall *walls, uint32_t n,
                             int ticks) {
  fxs_orca_def d = fxs_default_orca_def();
  fxs_orca_statics st = {walls, n, 0, 0, 0};
  double least = 1e9;
  for (int t = 0; t < ticks; ++t) {
    fxs_vec2 preferred = fxs_vec2_truncate(fxs_vec2_sub(goal, a->position), a->max_speed);
    fxs_kinematic_output out = {fxs_orca_velocity_among(a, 0, preferred, 0, 0, 0, &st, &d), 0};
    fxs_kinematic_apply(a, out);
    for (uint32_t i = 0; i < n; ++i) {
      fxs_vec2 q = fxs_vec2_closest_on_segment(a->position, walls[i].a, walls[i].b);
      double gap = dx(fxs_vec2_distance(a->position, q)) - dx(a->radius);
      least = gap < least ? gap : least;
    }
  }
  return least;
}

// Straight at a wall the agent stops short of it; at a slant it slides along it, never
// touching (its target lies beyond the wall in both cases).
void test_an_agent_driven_at_a_wall_stops_or_slides_without_touching_it(void) {
  fxs_wall w = {fxs_vec2_make(FXS_INT(-400), FXS_INT(50)),
                fxs_vec2_make(FXS_INT(400), FXS_INT(50))};
  fxs_agent a = fxs_test_agent_at(0, 0);
  a.max_speed = FXS_INT(2);
  double straight = drive_at_walls(&a, fxs_vec2_make(0, FXS_INT(200)), &w, 1, 300);
  fxs_agent b = fxs_test_agent_at(0, 0);
  b.max_speed = FXS_INT(2);
  double slant = drive_at_walls(&b, fxs_vec2_make(FXS_INT(300), FXS_INT(200)), &w, 1, 150);
  FXS_TEST_REPORT(
      "ORCA at a wall: straight, least clearance %.4f, stopped at y %.3f; slant, "
      "least clearance %.4f, slid to x %.1f",
      straight, dx(a.position.y), slant, dx(b.position.x));
  TEST_ASSERT_TRUE(straight > 0.0 && slant > 0.0);
  TEST_ASSERT_TRUE(dx(b.position.x) > 150.0); // slid along the wall toward the target's x
}
