// An agent whose one behavior is navigate steers without the manager (world_steer.c,
// steer_lone_navigate; world_crowd.h, fxs_steers_lone_navigate): its bodies against those of
// the same crowd through the manager, with walls, a group to a shared goal, agents alone, and
// agents pressed to the world's bounds (where containment pushes and the manager steers).

#include "unity.h"

#include "vec2.h"
#include "agent.h"
#include "result.h"
#include "command.h"
#include "command_build.h"
#include "world.h"
#include "fxs_nav_test.h"

#define AGENTS 40
#define TICKS 240
static const fxs_world_capacity cap = {AGENTS, 0, 0, 0, 4, 0, 0, 1600, 4, 1600, 64, 4, 0, 0};
static uint64_t memory[262144];
static fxs_world world;
static fxs_agent bodies[2][TICKS][AGENTS];

void setUp(void) {}
void tearDown(void) {}

// The crowd in a world that clamps to its bounds: 20 in a group from the left to (300, 200),
// round a wall; 10 alone, each to a point of its own; 10 along the top bound, sent to points
// beyond their row (containment pushes them back). With `zero_seek` each also seeks at weight
// 0, so its manager combines two contributions where a lone navigate agent's step passes the
// manager by. The slots' bodies after each tick into out; how many agent-steps the
// containment pushed (the agent's own start-of-tick body) into *pushed.
static void crowd_bodies(bool zero_seek, fxs_agent out[TICKS][AGENTS], uint32_t *pushed) {
  fxs_world_def def = fxs_default_world_def();
  def.seed = 3, def.bounds_max = nav_point(400, 400), def.clamp_to_bounds = 1;
  TEST_ASSERT_TRUE(fxs_world_memory_size(&cap) <= sizeof memory);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&world, &def, &cap, memory, sizeof memory));
  nav_grid(&world, 1600);
  nav_wall(&world, 200, 120, 200, 280);
  nav_wall(&world, 120, 60, 180, 60);
  for (int i = 0; i < 20; ++i)
    nav_crowd_walker(&world, 40 + 14 * (i % 5), 160 + 14 * (i / 5), 300, 200);
  for (int i = 0; i < 10; ++i)
    nav_crowd_walker(&world, 60 + 25 * i, 330 - 7 * i, 340 - 20 * i, 40 + 9 * i);
  for (int i = 0; i < 10; ++i) nav_crowd_walker(&world, 30 + 34 * i, 380, 50 + 34 * i, 399);
  fxs_blend none = fxs_default_blend();
  none.weight = 0;
  for (uint32_t s = 0; zero_seek && s < AGENTS; ++s) {
    fxs_command seek = fxs_command_add_seek(fxs_world_handle_at(&world, s), none);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &seek, 0));
  }
  *pushed = 0;
  for (int t = 0; t < TICKS; ++t) {
    for (uint32_t s = 0; s < AGENTS; ++s) {
      fxs_vec2 push = fxs_containment(&world.agents[s].body, &world.def);
      *pushed += !fxs_vec2_equal(push, fxs_vec2_zero());
    }
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&world, 0, 0, 0));
    for (uint32_t s = 0; s < AGENTS; ++s) out[t][s] = world.agents[s].body;
  }
}

void test_a_lone_navigate_agent_steps_as_through_the_manager(void) {
  uint32_t pushed_lone, pushed_managed;
  crowd_bodies(false, bodies[0], &pushed_lone);
  crowd_bodies(true, bodies[1], &pushed_managed);
  uint32_t moved = 0;
  for (int t = 0; t < TICKS; ++t) {
    for (uint32_t s = 0; s < AGENTS; ++s) {
      const fxs_agent *lone = &bodies[0][t][s], *managed = &bodies[1][t][s];
      TEST_ASSERT_EQUAL_INT32(managed->position.x, lone->position.x);
      TEST_ASSERT_EQUAL_INT32(managed->position.y, lone->position.y);
      TEST_ASSERT_EQUAL_INT32(managed->velocity.x, lone->velocity.x);
      TEST_ASSERT_EQUAL_INT32(managed->velocity.y, lone->velocity.y);
      TEST_ASSERT_EQUAL_INT32(managed->orientation, lone->orientation);
      moved += !fxs_vec2_equal(lone->velocity, fxs_vec2_zero());
    }
  }
  // The scene moves, and both ways in are taken: most agent-steps alone, some pushed.
  TEST_ASSERT_TRUE(moved > AGENTS * TICKS / 2);
  TEST_ASSERT_EQUAL_UINT32(pushed_managed, pushed_lone);
  TEST_ASSERT_TRUE(pushed_lone > 20u);
  TEST_ASSERT_TRUE(pushed_lone < AGENTS * TICKS / 4u);
}
