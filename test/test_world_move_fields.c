#include <string.h>
#include "unity.h"
#include "fxs_test_util.h"
#include "result.h"
#include "command_build.h"
#include "world.h"
#include "snapshot.h"
#include "version.h"
#include "fxs_nav_test.h"
#include "fxs_test_tasks.h"

// Moves that share fields (simulation version 6, world_nav_fields.h "Moves"): the members of
// a move group follow one field toward the destination and leave it for their own spots, so a
// click of hundreds has every unit moving at once; version 5 worlds move as before.

// 200 agents, 4 walls, up to 16 workers, an 80 x 80 grid of 10-unit cells, 2 searches, 2 fields.
static const fxs_world_capacity cap = {200, 0, 0, 0, 4, 16, 0, 6400, 2, 2000, 64, 2, 0, 0};
static uint64_t memory[180000]; // 1.44 MB: the world takes 1,280,584 bytes on 64-bit
static uint64_t memory2[180000];
static uint8_t snap[1u << 16];
static fxs_world world, other;
static fxs_agent_handle units[200];

#define UNITS 200u

static void init(fxs_world *w, uint64_t *mem, size_t size) {
  fxs_world_def def = fxs_default_world_def();
  def.seed = 11;
  def.bounds_max = nav_point(800, 800);
  TEST_ASSERT_TRUE(fxs_world_memory_size(&cap) > 0);
  TEST_ASSERT_TRUE(fxs_world_memory_size(&cap) <= size);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(w, &def, &cap, mem, size));
}

// 200 navigators of radius 3 in a 20 x 10 block west of a wall (x = 500, y 200..600), all at
// rest on their own points; a 80 x 80 grid of 10-unit cells, radius 3, a budget of 4000 cells
// a tick (the field of a click is built in 2 ticks).
static void scene(fxs_world *w, uint32_t version) {
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_set_simulation_version(w, version));
  fxs_command c = fxs_command_set_nav_grid(nav_point(0, 0), FXS_INT(10), 80, 80, FXS_INT(3), 4000);
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, c));
  nav_wall(w, 500, 200, 500, 600);
  for (uint32_t i = 0; i < UNITS; ++i) {
    int x = 60 + 12 * (int)(i % 20u), y = 340 + 12 * (int)(i / 20u);
    fxs_spawn_def s = fxs_default_spawn_def();
    s.position = nav_point(x, y), s.max_speed = FXS_INT(2), s.radius = FXS_INT(3);
    c = fxs_command_spawn(&s);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(w, &c, &units[i]));
    fxs_orca_def d = fxs_default_orca_def();
    TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, fxs_command_add_navigate(units[i], fxs_default_blend(),
                                                                    FXS_INT(20), &d)));
    TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, fxs_command_set_target_point(units[i], s.position)));
  }
}

// The click: every unit to (650, 400), one group, gap 10 (a body passes between two at rest),
// in the next step.
static void click(fxs_world *w) {
  static fxs_command moves[UNITS];
  for (uint32_t i = 0; i < UNITS; ++i)
    moves[i] = fxs_command_move(units[i], 3u, nav_point(650, 400), FXS_INT(10));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(w, moves, UNITS, 0));
}

// Units that have moved (a non-zero velocity after some tick) in `ticks` ticks of w, the click
// in the first.
static uint32_t moving_after(fxs_world *w, uint32_t ticks) {
  static uint8_t moved[UNITS];
  memset(moved, 0, sizeof moved);
  uint32_t count = 0;
  for (uint32_t t = 0; t < ticks; ++t) {
    if (t == 0) click(w);
    else fxs_world_step(w, 0, 0, 0);
    for (uint32_t i = 0; i < UNITS; ++i) {
      const fxs_agent *a = fxs_world_agent(w, units[i]);
      if (!moved[i] && !fxs_vec2_is_zero(a->velocity)) moved[i] = 1, count++;
    }
  }
  return count;
}

void setUp(void) { init(&world, memory, sizeof memory); }
void tearDown(void) {}

void test_every_unit_of_a_200_unit_move_moves_within_5_ticks(void) {
  scene(&world, FXS_SIMULATION_VERSION);
  TEST_ASSERT_EQUAL_UINT32(UNITS, moving_after(&world, 5));
  for (uint32_t i = 0; i < UNITS; ++i) {                 // all on the group's field, none searching
    TEST_ASSERT_EQUAL_UINT32(3265u, world.nav.moves[i]); // (650, 400)'s cell
    TEST_ASSERT_EQUAL(FXS_ROUTE_NONE, world.nav.routes[i].status);
  }
}

void test_by_version_5s_rules_each_unit_waits_for_its_own_search(void) {
  scene(&world, 5);
  uint32_t moving = moving_after(&world, 5);
  TEST_ASSERT_TRUE(moving < UNITS / 4u);
  for (uint32_t i = 0; i < UNITS; ++i) TEST_ASSERT_EQUAL_HEX32(FXS_NAV_NO_MOVE, world.nav.moves[i]);
}

void test_a_version_5_world_steps_the_click_as_before_bit_for_bit(void) {
  // The hashes main computed for this run before moves shared fields (simulation version 5,
  // the library of that commit built and run on this scene): ticks 101 and 401 of the click.
  scene(&world, 5);
  click(&world);
  for (int t = 1; t <= 400; ++t) {
    fxs_world_step(&world, 0, 0, 0);
    if (t == 100) TEST_ASSERT_EQUAL_HEX64(0xc2390d07eea950e7u, fxs_world_hash(&world));
  }
  TEST_ASSERT_EQUAL_HEX64(0x550dfe830ea7a9b5u, fxs_world_hash(&world));
}

void test_members_land_on_their_distinct_spots_round_the_wall(void) {
  scene(&world, FXS_SIMULATION_VERSION);
  moving_after(&world, 1);
  for (int t = 0; t < 900; ++t) fxs_world_step(&world, 0, 0, 0);
  uint32_t landed = 0;
  fxs_wall wall = {nav_point(500, 200), nav_point(500, 600)};
  for (uint32_t i = 0; i < UNITS; ++i) {
    const fxs_agent_slot *s = &world.agents[i];
    for (uint32_t j = 0; j < i; ++j) { // distinct spots
      TEST_ASSERT_FALSE(fxs_vec2_equal(s->target_point, world.agents[j].target_point));
    }
    TEST_ASSERT_TRUE(s->body.position.x > FXS_INT(500)); // round the wall, never through it
    landed += fxs_vec2_equal(s->body.position, s->target_point);
  }
  char line[64];
  snprintf(line, sizeof line, "%u of %u exactly on their spots", (unsigned)landed, UNITS);
  TEST_MESSAGE(line);
  TEST_ASSERT_EQUAL_UINT32(UNITS, landed);
}

void test_a_move_is_state_in_the_hash_and_the_snapshot(void) {
  scene(&world, FXS_SIMULATION_VERSION);
  size_t before = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &before));
  TEST_ASSERT_EQUAL_UINT16(FXS_SNAPSHOT_VERSION_NAV_FIELDS, snap[4] | snap[5] << 8);
  moving_after(&world, 3);
  size_t size = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &size));
  TEST_ASSERT_EQUAL_UINT16(FXS_SNAPSHOT_VERSION_NAV_MOVES, snap[4] | snap[5] << 8);
  uint64_t hash = fxs_world_hash(&world);
  uint32_t kept = world.nav.moves[7];
  world.nav.moves[7] = FXS_NAV_NO_MOVE; // flipped: another state
  TEST_ASSERT_NOT_EQUAL(hash, fxs_world_hash(&world));
  world.nav.moves[7] = kept + 1u;
  TEST_ASSERT_NOT_EQUAL(hash, fxs_world_hash(&world));
  world.nav.moves[7] = kept;
  TEST_ASSERT_EQUAL_HEX64(hash, fxs_world_hash(&world));
  // Restored into junk-filled memory: the same moves and hash, tick after tick.
  memset(memory2, 0xA5, sizeof memory2);
  init(&other, memory2, sizeof memory2);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(&other, snap, size, 0));
  TEST_ASSERT_EQUAL_MEMORY(world.nav.moves, other.nav.moves, sizeof(uint32_t) * UNITS);
  for (int t = 0; t < 60; ++t) {
    fxs_world_step(&world, 0, 0, 0), fxs_world_step(&other, 0, 0, 0);
    TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), fxs_world_hash(&other));
  }
  // A move's cell outside the grid is refused by name, the world untouched.
  size_t at = 0, last = size - 4u * (UNITS - 7u); // unit 7's entry in the moves section
  snap[last] = 0xFE, snap[last + 1] = 0xFF, snap[last + 2] = 0, snap[last + 3] = 0;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_restore(&other, snap, size, &at));
  TEST_ASSERT_EQUAL(last, at);
}

void test_a_new_target_or_a_despawn_forgets_the_move(void) {
  scene(&world, FXS_SIMULATION_VERSION);
  moving_after(&world, 2);
  TEST_ASSERT_NOT_EQUAL(FXS_NAV_NO_MOVE, world.nav.moves[0]);
  TEST_ASSERT_EQUAL(FXS_OK,
                    nav_apply(&world, fxs_command_set_target_point(units[0], nav_point(50, 50))));
  TEST_ASSERT_EQUAL_HEX32(FXS_NAV_NO_MOVE, world.nav.moves[0]);
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_despawn(units[1])));
  TEST_ASSERT_EQUAL_HEX32(FXS_NAV_NO_MOVE, world.nav.moves[1]);
  // A move of one goes alone (its own search), as before.
  fxs_command c = fxs_command_move(units[2], 9u, nav_point(700, 700), 0);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&world, &c, 1, 0));
  TEST_ASSERT_EQUAL_HEX32(FXS_NAV_NO_MOVE, world.nav.moves[2]);
}

// ------------------------------------------------------------------ workers and rollback

// The straight run (inline) and a run on `workers` workers that, every 7 ticks, runs 3 ticks
// ahead, restores the snapshot taken before them and runs them again: the same hash after
// every tick. Returns the straight run's hash at the end.
static uint64_t rollback_run(uint32_t workers) {
  init(&world, memory, sizeof memory);
  init(&other, memory2, sizeof memory2);
  odd_tasks t = {0, 0, workers};
  fxs_task_system tasks = {odd_enqueue, odd_finish, workers, &t};
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_set_tasks(&other, &tasks));
  scene(&world, FXS_SIMULATION_VERSION);
  scene(&other, FXS_SIMULATION_VERSION);
  click(&world);
  click(&other);
  for (uint32_t tick = 0; tick < 300; ++tick) {
    if (tick % 7u == 0) {
      size_t size = 0;
      TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&other, snap, sizeof snap, &size));
      for (int ahead = 0; ahead < 3; ++ahead) fxs_world_step(&other, 0, 0, 0);
      TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(&other, snap, size, 0));
    }
    fxs_world_step(&world, 0, 0, 0);
    fxs_world_step(&other, 0, 0, 0);
    TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), fxs_world_hash(&other));
  }
  return fxs_world_hash(&world);
}

void test_a_move_with_rollbacks_equals_the_straight_run_on_1_2_and_16_workers(void) {
  uint64_t one = rollback_run(1);
  TEST_ASSERT_EQUAL_HEX64(one, rollback_run(2));
  TEST_ASSERT_EQUAL_HEX64(one, rollback_run(16));
}
