// An agent whose one behavior is ORCA steers without the manager (world_steer.c,
// steer_lone_orca): its bodies against those of the same crowd through the manager.

#include "unity.h"

#include "vec2.h"
#include "agent.h"
#include "avoidance.h"
#include "orca.h"
#include "result.h"
#include "command.h"
#include "command_build.h"
#include "world.h"
#include "fxs_test_world.h"

static uint64_t memory[65536];
static fxs_world world;

void setUp(void) {}
void tearDown(void) {}

// The ring of 48 ORCA agents (fxs_test_add_orca_ring), with a wall across its middle when
// `wall` (they slide along it); with `zero_seek` each agent also seeks at weight 0, so that
// its manager combines two contributions, ORCA's and 0, where a lone ORCA agent's step
// passes the manager by. The bodies of the ring's slots after each tick.
enum { RING_AGENTS = 48, RING_TICKS = 160 };
static fxs_agent ring_bodies[2][RING_TICKS][RING_AGENTS];
static bool resting_rows; // the scene: the ring, or the resting rows
static bool chasing;      // each ring agent aims at the next one, not at a point

// Two rows of 24 agents of radius 2 resting a few LSB off their targets, ORCA taking them
// for radius 1/2 (so that their lines hold where their bodies overlap): in the first row,
// 3.95 units apart, bodies overlap by 1/20 unit, within contact's give (1/10 unit for two
// bodies of radius 2, FXS_CONTACT_GIVE_DIVISOR), and crawl home (static friction lets an
// overlapping agent creep); in the second, 6 units apart, they rest.
static void add_resting_rows(void) {
  fxs_orca_def orca = fxs_default_orca_def();
  orca.neighbor_distance = FXS_INT(15), orca.max_neighbors = 6,
  orca.neighbor_radius = FXS_RATIO(1, 2);
  for (int i = 0; i < RING_AGENTS; ++i) {
    fxs_spawn_def sd = fxs_default_spawn_def();
    int row = i / 24, at = i % 24;
    fix16_t spacing = row ? FXS_INT(6) : FXS_RATIO(79, 20);
    sd.position = fxs_vec2_make(FXS_INT(20) + at * spacing, FXS_INT(60 + 80 * row));
    sd.max_speed = FXS_RATIO(1, 2), sd.max_force = FXS_ONE, sd.radius = FXS_INT(2);
    fxs_command spawn = fxs_command_spawn(&sd);
    fxs_agent_handle h;
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &spawn, &h));
    fxs_vec2 target = fxs_vec2_make(sd.position.x + (at % 2 ? 300 : -300), sd.position.y + 200);
    fxs_command more[2] = {fxs_command_set_target_point(h, target),
                           fxs_command_add_orca(h, fxs_default_blend(), &orca, FXS_INT(2))};
    for (int k = 0; k < 2; ++k) TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &more[k], 0));
  }
}

static void orca_ring_bodies(bool wall, bool zero_seek, fxs_agent out[RING_TICKS][RING_AGENTS]) {
  fxs_world_capacity c = {64, 0, 0, 0, 1, FXS_MAX_WORKERS};
  fxs_test_orca_world(&world, &c, memory, sizeof memory);
  if (resting_rows) {
    add_resting_rows();
  } else {
    fxs_test_add_orca_ring(&world);
  }
  if (wall) {
    fxs_wall w = {fxs_vec2_make(FXS_INT(90), FXS_INT(60)),
                  fxs_vec2_make(FXS_INT(110), FXS_INT(140))};
    fxs_command add = fxs_command_add_wall(w);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &add, 0));
  }
  fxs_blend none = fxs_default_blend();
  none.weight = 0;
  for (uint32_t s = 0; zero_seek && s < RING_AGENTS; ++s) {
    fxs_agent_handle h = fxs_world_handle_at(&world, s);
    fxs_command seek = fxs_command_add_seek(h, none);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &seek, 0));
  }
  for (uint32_t s = 0; chasing && s < RING_AGENTS; ++s) {
    fxs_command aim = fxs_command_set_target_agent(
        fxs_world_handle_at(&world, s), fxs_world_handle_at(&world, (s + 1) % RING_AGENTS));
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &aim, 0));
  }
  for (int t = 0; t < RING_TICKS; ++t) {
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&world, 0, 0, 0));
    for (uint32_t s = 0; s < RING_AGENTS; ++s) out[t][s] = world.agents[s].body;
  }
}

static uint32_t lone_orca_matches_the_manager(bool wall) {
  orca_ring_bodies(wall, false, ring_bodies[0]);
  orca_ring_bodies(wall, true, ring_bodies[1]);
  uint32_t moved = 0;
  for (int t = 0; t < RING_TICKS; ++t) {
    for (uint32_t s = 0; s < RING_AGENTS; ++s) {
      const fxs_agent *lone = &ring_bodies[0][t][s], *managed = &ring_bodies[1][t][s];
      TEST_ASSERT_EQUAL_INT32(managed->position.x, lone->position.x);
      TEST_ASSERT_EQUAL_INT32(managed->position.y, lone->position.y);
      TEST_ASSERT_EQUAL_INT32(managed->velocity.x, lone->velocity.x);
      TEST_ASSERT_EQUAL_INT32(managed->velocity.y, lone->velocity.y);
      moved += !fxs_vec2_equal(lone->velocity, fxs_vec2_zero());
    }
  }
  return moved;
}

// An agent whose one behavior is ORCA steers without the manager (world_steer.c,
// steer_lone_orca): the same bodies, tick by tick, as through it.
void test_a_lone_orca_agent_steps_as_through_the_manager(void) {
  resting_rows = false;
  TEST_ASSERT_TRUE(lone_orca_matches_the_manager(false) >
                   RING_AGENTS * RING_TICKS / 2); // under way
}

void test_a_lone_orca_agent_against_a_wall_steps_as_through_the_manager(void) {
  resting_rows = false;
  TEST_ASSERT_TRUE(lone_orca_matches_the_manager(true) > RING_AGENTS * RING_TICKS / 2);
}

// Agents near rest, whose lines hold (the lone step's open path, without sorting their
// neighbors): static friction lets the overlapping ones crawl home and holds the others.
void test_lone_orca_agents_at_rest_step_as_through_the_manager(void) {
  resting_rows = true;
  uint32_t moved = lone_orca_matches_the_manager(false);
  resting_rows = false;
  uint32_t crawled = 0, held = 0; // the first tick: each row's agents
  for (uint32_t s = 0; s < RING_AGENTS; ++s) {
    bool still = fxs_vec2_equal(ring_bodies[0][0][s].velocity, fxs_vec2_zero());
    crawled += s < 24 && !still, held += s >= 24 && still;
  }
  TEST_ASSERT_EQUAL_UINT32(24, crawled);
  TEST_ASSERT_EQUAL_UINT32(24, held);
  TEST_ASSERT_TRUE(moved < RING_AGENTS * RING_TICKS / 2);
}

// Agents that aim at other agents read those agents' start-of-tick positions: a crowd of
// lone ORCA agents steers into its own slots only where every one aims at a point
// (world_crowd.h); chasing ones go through the next bodies, as through the manager.
void test_lone_orca_agents_chasing_each_other_step_as_through_the_manager(void) {
  resting_rows = false, chasing = true;
  uint32_t moved = lone_orca_matches_the_manager(false);
  chasing = false;
  TEST_ASSERT_TRUE(moved > RING_AGENTS * RING_TICKS / 2);
}
