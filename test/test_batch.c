// fxs_seek_integrate_many and fxs_arrive_integrate_many: the same agents, bit for bit, as one
// call of the behavior and fxs_agent_integrate at a time, for every count (whole groups and
// a part of one), any limits and masses, every orientation mode, extreme coordinates.
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "unity.h"
#include "vec2.h"
#include "agent.h"
#include "seek.h"
#include "manager.h"
#include "batch.h"
#include "fxs_test_agents.h"

// 25 groups of 8 and a part of one; 5 and a part in the Cortex-M0's 16 KiB of RAM.
#if defined(__ARM_ARCH_6M__)
#define AGENTS 43u
#else
#define AGENTS 203u
#endif

static fxs_agent agents[AGENTS], one_by_one[AGENTS];
static fxs_vec2 targets[AGENTS];

void setUp(void) {}
void tearDown(void) {}

// An agent the library's contracts allow (limits and mass >= 0), often an extreme.
static fxs_agent any_agent(uint32_t *state) {
  fxs_agent a = fxs_default_agent();
  uint32_t far = fxs_test_lcg(state) % 4u;
  if (far == 0) {
    a.position = fxs_test_any_point(state);
  } else {
    a.position = fxs_test_point(state, -500, 500);
  }
  a.velocity = fxs_test_point(state, -3, 3);
  static const fix16_t speeds[] = {0, 1, FXS_RATIO(1, 2), FXS_INT(2), FXS_INT(4), FXS_MAX};
  static const fix16_t forces[] = {0, 1, FXS_RATIO(1, 4), FXS_INT(1), FXS_MAX};
  static const fix16_t masses[] = {FXS_ONE, FXS_ONE, FXS_ONE, FXS_INT(2), FXS_RATIO(1, 3), 0};
  a.max_speed = speeds[fxs_test_lcg(state) % 6u];
  a.max_force = forces[fxs_test_lcg(state) % 5u];
  a.mass = masses[fxs_test_lcg(state) % 6u];
  a.orientation_mode = (uint8_t)(fxs_test_lcg(state) % 3u);
  a.orientation = fxs_test_units(state, -3, 3);
  return a;
}

// n agents and their targets; some targets are the agent's own position (a zero offset).
static void draw_scene(uint32_t seed, uint32_t n) {
  uint32_t state = seed;
  for (uint32_t i = 0; i < n; ++i) {
    agents[i] = any_agent(&state);
    uint32_t kind = fxs_test_lcg(&state) % 5u;
    if (kind == 0) {
      targets[i] = agents[i].position;
    } else if (kind == 1) {
      targets[i] = fxs_test_any_point(&state);
    } else {
      targets[i] = fxs_test_point(&state, -500, 500);
    }
  }
  memcpy(one_by_one, agents, sizeof agents);
}

static void step_one_by_one(uint32_t n, fix16_t slowing_radius, bool seek) {
  for (uint32_t i = 0; i < n; ++i) {
    fxs_vec2 force = seek ? fxs_seek(&one_by_one[i], targets[i])
                          : fxs_arrive(&one_by_one[i], targets[i], slowing_radius);
    fxs_agent_integrate(&one_by_one[i], fxs_steering_linear(force), fxs_vec2_zero(), FXS_ONE);
  }
}

// Every field of two agents (not their padding, which no step writes on purpose).
static bool same_agent(const fxs_agent *a, const fxs_agent *b) {
  return a->position.x == b->position.x && a->position.y == b->position.y &&
         a->velocity.x == b->velocity.x && a->velocity.y == b->velocity.y &&
         a->orientation == b->orientation && a->rotation == b->rotation && a->mass == b->mass &&
         a->radius == b->radius && a->max_speed == b->max_speed && a->max_force == b->max_force &&
         a->max_rotation == b->max_rotation &&
         a->max_angular_acceleration == b->max_angular_acceleration &&
         a->max_turn_rate == b->max_turn_rate && a->orientation_mode == b->orientation_mode;
}

static void assert_same(uint32_t n, uint32_t seed, uint32_t tick) {
  for (uint32_t i = 0; i < n; ++i) {
    if (!same_agent(&agents[i], &one_by_one[i])) {
      char where[96];
      snprintf(where, sizeof where, "seed %u, tick %u, agent %u of %u", (unsigned)seed,
               (unsigned)tick, (unsigned)i, (unsigned)n);
      TEST_ASSERT_EQUAL_INT32_MESSAGE(one_by_one[i].position.x, agents[i].position.x, where);
      TEST_ASSERT_EQUAL_INT32_MESSAGE(one_by_one[i].position.y, agents[i].position.y, where);
      TEST_ASSERT_EQUAL_INT32_MESSAGE(one_by_one[i].velocity.x, agents[i].velocity.x, where);
      TEST_ASSERT_EQUAL_INT32_MESSAGE(one_by_one[i].velocity.y, agents[i].velocity.y, where);
      TEST_ASSERT_EQUAL_INT32_MESSAGE(one_by_one[i].orientation, agents[i].orientation, where);
      TEST_ASSERT_EQUAL_INT32_MESSAGE(one_by_one[i].rotation, agents[i].rotation, where);
      TEST_FAIL_MESSAGE(where); // a limit or the mode, which no step should write
    }
  }
}

void test_seek_many_moves_every_agent_as_one_call_at_a_time(void) {
  for (uint32_t seed = 1; seed <= 12; ++seed) {
    draw_scene(seed, AGENTS);
    for (uint32_t tick = 0; tick < 40; ++tick) {
      fxs_seek_integrate_many(agents, targets, AGENTS);
      step_one_by_one(AGENTS, 0, true);
      assert_same(AGENTS, seed, tick);
    }
  }
}

void test_arrive_many_moves_every_agent_as_one_call_at_a_time(void) {
  static const fix16_t radii[] = {0,           1,       FXS_RATIO(1, 2), FXS_INT(2),
                                  FXS_INT(50), FXS_MAX, -FXS_ONE};
  for (uint32_t r = 0; r < sizeof radii / sizeof radii[0]; ++r) {
    draw_scene(100u + r, AGENTS);
    for (uint32_t tick = 0; tick < 40; ++tick) {
      fxs_arrive_integrate_many(agents, targets, radii[r], AGENTS);
      step_one_by_one(AGENTS, radii[r], false);
      assert_same(AGENTS, 100u + r, tick);
    }
  }
}

// Counts round a group's size (8): the last, partial group is stepped too, and no agent past
// count moves.
void test_every_count_steps_exactly_its_agents(void) {
  for (uint32_t n = 0; n <= 26; ++n) {
    draw_scene(1000u + n, n + 1);
    fxs_agent past = agents[n];
    for (uint32_t tick = 0; tick < 5; ++tick) {
      fxs_seek_integrate_many(agents, targets, n);
      step_one_by_one(n, 0, true);
      assert_same(n, 1000u + n, tick);
    }
    TEST_ASSERT_TRUE(same_agent(&past, &agents[n]));
  }
}

void test_no_agents_need_no_arrays(void) {
  fxs_seek_integrate_many(0, 0, 0);
  fxs_arrive_integrate_many(0, 0, FXS_INT(2), 0);
  TEST_PASS();
}

// Exact values: from rest at the origin toward (10, 0), max_speed 2 and max_force 1 (a unit
// mass): the desired velocity (2, 0) asks a force of 2, limited to 1, so the first tick ends
// at velocity (1, 0), position (1, 0), and the second at (2, 0), (3, 0).
void test_a_seeking_agent_accelerates_by_its_force_limit(void) {
  fxs_agent a[1];
  a[0] = fxs_default_agent();
  a[0].max_speed = FXS_INT(2);
  a[0].max_force = FXS_INT(1);
  a[0].orientation_mode = FXS_ORIENT_FIXED;
  const fxs_vec2 target[1] = {{FXS_INT(10), 0}};
  fxs_seek_integrate_many(a, target, 1);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(1), a[0].velocity.x);
  TEST_ASSERT_EQUAL_INT32(0, a[0].velocity.y);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(1), a[0].position.x);
  fxs_seek_integrate_many(a, target, 1);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(2), a[0].velocity.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(3), a[0].position.x);
  TEST_ASSERT_EQUAL_INT32(0, a[0].position.y);
}
