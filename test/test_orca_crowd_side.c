// The crowd side rule (fixsteer/orca.h, fxs_orca_crowd_side; simulation version 6 in the
// world, FXS_RULES_CROWD_SIDE): a blocked agent's preferred velocity turns clockwise in
// proportion to how blocked it is, so that a crowd set out with mirror symmetry does not jam;
// a free agent is left as it is, and so is one beside a wall or an obstacle unless a neighbor
// ahead comes toward it (a counter-flow). A world at version 5 steps as before the rule.

#include <math.h>

#include "unity.h"

#include "vec2.h"
#include "agent.h"
#include "avoidance.h"
#include "orca.h"
#include "orca_sorted.h"
#include "result.h"
#include "version.h"
#include "command.h"
#include "command_build.h"
#include "world.h"
#include "snapshot.h"
#include "fxs_test_world.h"
#include "world_rules.h"
#include "fxs_nav_test.h"

// The last simulation version without the crowd side rule.
#define BEFORE_RULE (FXS_RULES_CROWD_SIDE - 1u)

static uint64_t memory[65536];
static fxs_world world;

void setUp(void) {}
void tearDown(void) {}

static fxs_agent agent_with(fxs_vec2 velocity) {
  fxs_agent a = fxs_default_agent();
  a.max_speed = FXS_ONE, a.max_force = FXS_ONE, a.radius = FXS_INT(8);
  a.velocity = velocity;
  return a;
}

// The angle from `from` to `to`, radians, counterclockwise positive (y up).
static double turn_of(fxs_vec2 from, fxs_vec2 to) {
  double fx = from.x / 65536.0, fy = from.y / 65536.0, tx = to.x / 65536.0, ty = to.y / 65536.0;
  return atan2(fx * ty - fy * tx, fx * tx + fy * ty);
}

void test_a_free_or_slowing_agent_keeps_its_preferred_velocity(void) {
  fxs_vec2 pref = fxs_vec2_make(FXS_RATIO(3, 5), FXS_RATIO(4, 5)); // top speed
  // Moving as it wants, or at 3/4 of it (the edge of the free band): untouched.
  fxs_agent a = agent_with(pref);
  fxs_vec2 out = fxs_orca_crowd_side(&a, 7, pref);
  TEST_ASSERT_EQUAL_INT32(pref.x, out.x);
  TEST_ASSERT_EQUAL_INT32(pref.y, out.y);
  a = agent_with(fxs_vec2_make(FXS_RATIO(9, 20), FXS_RATIO(12, 20)));
  out = fxs_orca_crowd_side(&a, 7, pref);
  TEST_ASSERT_EQUAL_INT32(pref.x, out.x);
  TEST_ASSERT_EQUAL_INT32(pref.y, out.y);
  // Wanting less than a quarter of its top speed (slowing near its target): untouched at rest.
  a = agent_with(fxs_vec2_zero());
  fxs_vec2 slow = fxs_vec2_make(FXS_RATIO(1, 5), 0);
  out = fxs_orca_crowd_side(&a, 7, slow);
  TEST_ASSERT_EQUAL_INT32(slow.x, out.x);
  TEST_ASSERT_EQUAL_INT32(slow.y, out.y);
}

void test_a_blocked_agent_turns_clockwise_by_how_blocked_it_is_and_its_share(void) {
  fxs_vec2 pref = fxs_vec2_make(FXS_ONE, 0);
  for (uint32_t id = 0; id < 16; ++id) {
    double share = fxs_orca_crowd_share(id) / 65536.0;
    TEST_ASSERT_TRUE(share >= 0.5 && share < 1.0);
    // At rest: a quarter turn times its share, clockwise (y up), its length kept.
    fxs_agent a = agent_with(fxs_vec2_zero());
    fxs_vec2 out = fxs_orca_crowd_side(&a, id, pref);
    double want = -share * (FXS_ORCA_CROWD_TURN / 65536.0);
    TEST_ASSERT_DOUBLE_WITHIN(1e-3, want, turn_of(pref, out));
    TEST_ASSERT_DOUBLE_WITHIN(1e-3, 1.0, fxs_vec2_length(out) / 65536.0);
    // At half the wanted speed: b = 1 - (16/9)(1/4) = 5/9 of that.
    a = agent_with(fxs_vec2_make(FXS_ONE / 2, 0));
    out = fxs_orca_crowd_side(&a, id, pref);
    TEST_ASSERT_DOUBLE_WITHIN(1e-3, want * 5.0 / 9.0, turn_of(pref, out));
  }
  // Consecutive ids take different shares.
  TEST_ASSERT_NOT_EQUAL(fxs_orca_crowd_share(1), fxs_orca_crowd_share(2));
}

// `n` ORCA agents of radius 8, top speed 1, evenly on a circle of radius `ring` round
// (100, 100), each heading for the far side, in a world that steps by the rules of `version`.
static void symmetric_crowd(uint32_t version, int n, fix16_t ring) {
  fxs_world_capacity c = {64, 0, 0, 0, 1, FXS_MAX_WORKERS};
  fxs_world_def def = fxs_default_world_def();
  def.bounds_max = fxs_vec2_make(FXS_INT(200), FXS_INT(200));
  def.neighbor_radius = FXS_INT(120);
  TEST_ASSERT_TRUE(fxs_world_memory_size(&c) <= sizeof memory);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&world, &def, &c, memory, sizeof memory));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_set_simulation_version(&world, version));
  fxs_orca_def orca = fxs_default_orca_def();
  for (int i = 0; i < n; ++i) {
    fix16_t angle = (fix16_t)((int64_t)FXS_TWO_PI * i / n);
    fix16_t cs = fxs_mul(ring, fxs_cos(angle)), sn = fxs_mul(ring, fxs_sin(angle));
    fxs_spawn_def sd = fxs_default_spawn_def();
    sd.position = fxs_vec2_make(FXS_INT(100) + cs, FXS_INT(100) + sn);
    sd.max_speed = FXS_ONE, sd.max_force = FXS_ONE, sd.radius = FXS_INT(8);
    fxs_command spawn = fxs_command_spawn(&sd);
    fxs_agent_handle h;
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &spawn, &h));
    fxs_command more[2] = {
        fxs_command_set_target_point(h, fxs_vec2_make(FXS_INT(100) - cs, FXS_INT(100) - sn)),
        fxs_command_add_orca(h, fxs_default_blend(), &orca, FXS_INT(2))};
    for (int k = 0; k < 2; ++k) TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &more[k], 0));
  }
}

// Agents whose centre lies within a quarter radius of their target.
static int on_target(int n, fix16_t ring) {
  int count = 0;
  for (int i = 0; i < n; ++i) {
    fix16_t angle = (fix16_t)((int64_t)FXS_TWO_PI * i / n);
    fxs_vec2 target = fxs_vec2_make(FXS_INT(100) - fxs_mul(ring, fxs_cos(angle)),
                                    FXS_INT(100) - fxs_mul(ring, fxs_sin(angle)));
    fxs_vec2 at = world.agents[i].body.position;
    count += fxs_vec2_within(at, target, FXS_INT(2)) ? 1 : 0;
  }
  return count;
}

// 8 agents swapping through the centre of a circle of radius 40 (bodies of radius 8): by
// version 5's rules they close into a ring at rest round the centre, each pressed by its two
// neighbors, and stay there; by the crowd side rule every agent arrives.
void test_a_symmetric_crowd_swapping_through_the_centre_arrives(void) {
  static const struct {
    int n;
    int ring;
  } cases[] = {{8, 40}};
  for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    int n = cases[k].n;
    fix16_t ring = FXS_INT(cases[k].ring);
    symmetric_crowd(BEFORE_RULE, n, ring);
    for (int t = 0; t < 1500; ++t) TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&world, 0, 0, 0));
    TEST_ASSERT_EQUAL_INT(0, on_target(n, ring));
    symmetric_crowd(FXS_SIMULATION_VERSION, n, ring);
    for (int t = 0; t < 1500; ++t) TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&world, 0, 0, 0));
    TEST_ASSERT_EQUAL_INT(n, on_target(n, ring));
  }
}

// A free agent is left as it is: an ORCA agent alone, setting off from rest at full force
// (its first preferred velocity is its top speed, at rest: blocked by the measure alone), and
// two agents walking apart, step bit for bit as by version 5's rules.
void test_free_agents_step_as_without_the_rule(void) {
  static fxs_agent bodies[2][300][2];
  for (int pass = 0; pass < 2; ++pass) {
    fxs_world_capacity c = {64, 0, 0, 0, 1, FXS_MAX_WORKERS};
    fxs_test_orca_world(&world, &c, memory, sizeof memory);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_set_simulation_version(
                                  &world, pass ? BEFORE_RULE : FXS_SIMULATION_VERSION));
    // A wall far off: the world then takes ORCA's program for every agent (no open path).
    fxs_wall w = {fxs_vec2_make(FXS_INT(10), FXS_INT(190)),
                  fxs_vec2_make(FXS_INT(190), FXS_INT(190))};
    fxs_command add = fxs_command_add_wall(w);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &add, 0));
    fxs_orca_def orca = fxs_default_orca_def();
    for (int i = 0; i < 2; ++i) {
      fxs_spawn_def sd = fxs_default_spawn_def();
      sd.position = fxs_vec2_make(FXS_INT(90 + 20 * i), FXS_INT(100));
      sd.max_speed = FXS_ONE, sd.max_force = FXS_ONE, sd.radius = FXS_INT(4);
      fxs_command spawn = fxs_command_spawn(&sd);
      fxs_agent_handle h;
      TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &spawn, &h));
      fxs_command more[2] = {
          fxs_command_set_target_point(h, fxs_vec2_make(FXS_INT(i ? 190 : 10), FXS_INT(120))),
          fxs_command_add_orca(h, fxs_default_blend(), &orca, FXS_INT(2))};
      for (int k = 0; k < 2; ++k) TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &more[k], 0));
    }
    for (int t = 0; t < 300; ++t) {
      TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&world, 0, 0, 0));
      for (int i = 0; i < 2; ++i) bodies[pass][t][i] = world.agents[i].body;
    }
  }
  for (int t = 0; t < 300; ++t) {
    for (int i = 0; i < 2; ++i) {
      TEST_ASSERT_EQUAL_INT32(bodies[1][t][i].position.x, bodies[0][t][i].position.x);
      TEST_ASSERT_EQUAL_INT32(bodies[1][t][i].position.y, bodies[0][t][i].position.y);
      TEST_ASSERT_EQUAL_INT32(bodies[1][t][i].velocity.x, bodies[0][t][i].velocity.x);
      TEST_ASSERT_EQUAL_INT32(bodies[1][t][i].velocity.y, bodies[0][t][i].velocity.y);
    }
  }
  // They did walk (the comparison is not of two agents standing still).
  TEST_ASSERT_TRUE(bodies[0][299][0].position.x < FXS_INT(40));
}

// A world set to version 5 steps as the library did before the rule: the 8 agents swapping
// through the centre reach the hash main's library (simulation version 5) gave at tick 1,500
// (the same on version 4's rules); by version 6's rules they reach another.
void test_a_world_at_version_5_steps_as_before_the_rule(void) {
  symmetric_crowd(BEFORE_RULE, 8, FXS_INT(40));
  for (int t = 0; t < 1500; ++t) TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&world, 0, 0, 0));
  uint64_t before = fxs_world_hash(&world);
  TEST_ASSERT_EQUAL_HEX64(UINT64_C(0x8d01d4a056b97079), before);
  symmetric_crowd(FXS_RULES_CROWD_SIDE, 8, FXS_INT(40));
  for (int t = 0; t < 1500; ++t) TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&world, 0, 0, 0));
  TEST_ASSERT_TRUE(before != fxs_world_hash(&world));
}

// ORCA's velocity for an agent at rest at the origin (radius 2, top speed 1) that wants its
// top speed along +x, with one neighbor 4.5 ahead on its path moving at `ahead_velocity` and
// `walled`: a wall beside it (4 above, along x: on the side away from the turn), by the crowd side
// rule when `crowd`.
static fxs_vec2 blocked_velocity(fxs_vec2 ahead_velocity, bool walled, bool crowd) {
  fxs_agent self = fxs_default_agent();
  self.max_speed = FXS_ONE, self.max_force = FXS_ONE, self.radius = FXS_INT(2);
  self.position = fxs_vec2_zero(), self.velocity = fxs_vec2_zero();
  fxs_neighbor ahead = {fxs_vec2_make(FXS_RATIO(9, 2), 0), ahead_velocity, 1};
  static const fxs_wall wall = {{FXS_INT(-20), FXS_INT(4)}, {FXS_INT(20), FXS_INT(4)}};
  fxs_orca_statics statics = {&wall, 1, 0, 0, 0};
  fxs_orca_def def = fxs_default_orca_def();
  def.neighbor_distance = FXS_INT(15);
  static fxs_orca_scratch scratch;
  return fxs_orca_velocity_crowd(&self, 0, fxs_vec2_make(FXS_ONE, 0), &ahead, 0, 0, 1,
                                 walled ? &statics : 0, &def, false, 0, &scratch, crowd);
}

static bool same(fxs_vec2 a, fxs_vec2 b) { return a.x == b.x && a.y == b.y; }

// In the open a blocked agent turns whatever its neighbor does; beside a wall only a
// counter-flow turns it (a neighbor ahead coming toward it), not one at rest or going its way
// (a pile at a goal, a queue along a block).
void test_beside_a_wall_only_a_counter_flow_turns_a_blocked_agent(void) {
  fxs_vec2 rest = fxs_vec2_zero(), along = fxs_vec2_make(FXS_ONE / 8, 0),
           toward = fxs_vec2_make(-FXS_ONE / 2, 0);
  // In the open: turned in all three cases, and clockwise (its y below the unturned one's).
  fxs_vec2 cases[3] = {rest, along, toward};
  for (int k = 0; k < 3; ++k) {
    fxs_vec2 plain = blocked_velocity(cases[k], false, false);
    fxs_vec2 turned = blocked_velocity(cases[k], false, true);
    TEST_ASSERT_FALSE(same(plain, turned));
    TEST_ASSERT_TRUE(turned.y < plain.y);
  }
  // Beside the wall: left as it is at rest and going its way, turned against a counter-flow.
  TEST_ASSERT_TRUE(same(blocked_velocity(rest, true, false), blocked_velocity(rest, true, true)));
  TEST_ASSERT_TRUE(same(blocked_velocity(along, true, false), blocked_velocity(along, true, true)));
  TEST_ASSERT_FALSE(
      same(blocked_velocity(toward, true, false), blocked_velocity(toward, true, true)));
}

// Navigate does not take the rule (its route picks the way round a crowd): 8 navigators on a
// ring of radius 120 round a short wall, each bound for the far side, step bit for bit as by
// version 5's rules, tick by tick.
void test_navigate_steps_as_before_the_rule(void) {
  static const fxs_world_capacity c = {16, 0, 0, 0, 8, 0, 0, 1600, 8, 400, 16, 0, 0, 0};
  static uint64_t hashes[600];
  for (int pass = 0; pass < 2; ++pass) {
    nav_world_init(&world, 5, &c, memory, sizeof memory);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_set_simulation_version(
                                  &world, pass ? BEFORE_RULE : FXS_RULES_CROWD_SIDE));
    nav_grid(&world, 400);
    nav_wall(&world, 200, 185, 200, 215);
    for (int i = 0; i < 8; ++i) {
      fix16_t angle = (fix16_t)((int64_t)FXS_TWO_PI * i / 8);
      int x = (int)(fxs_mul(FXS_INT(120), fxs_cos(angle)) / FXS_ONE);
      int y = (int)(fxs_mul(FXS_INT(120), fxs_sin(angle)) / FXS_ONE);
      nav_navigator(&world, 200 + x, 200 + y, 200 - x, 200 - y);
    }
    for (int t = 0; t < 600; ++t) {
      TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&world, 0, 0, 0));
      if (pass == 0) hashes[t] = fxs_world_hash(&world);
      else TEST_ASSERT_EQUAL_HEX64(hashes[t], fxs_world_hash(&world));
    }
  }
}
