#include "unity.h"

#include "fixsteer/command_build.h"
#include "fixsteer/snapshot.h"
#include "fixsteer/world.h"
#include "world_nav_fields.h"
#include "fxs_nav_test.h"

// The count of a goal cluster (world_nav_fields.h, fxs_world_nav_fields_sharers): a field
// serves every group whose goal lies in its goal cell (on a mesh: its goal triangle), so its
// member count may add up several groups; the lattice a group settles on (world_cluster.h)
// needs the room of its own group alone, the followers going to its exact goal point.

// 12 agents, a 40 x 40 grid of 10-unit cells, 2 searches, 2 fields.
static const fxs_world_capacity cap = {12, 0, 0, 0, 0, 0, 0, 1600, 2, 400, 16, 2, 0, 0};
static uint64_t memory[60000];
static fxs_world world;

void setUp(void) { nav_world_init(&world, 5, &cap, memory, sizeof memory); }
void tearDown(void) {}

// Groups of `a` and `b` navigators going to (303, 302) and (306, 307): one goal cell, two
// goal points; with `c`, a third group to (100, 300), in a cell of its own.
static void groups(int a, int b, int c) {
  fxs_command g = fxs_command_set_nav_grid(nav_point(0, 0), FXS_INT(10), 40, 40, FXS_INT(8), 4000);
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, g));
  for (int i = 0; i < a; ++i) nav_navigator(&world, 40 + 20 * i, 40, 303, 302);
  for (int i = 0; i < b; ++i) nav_navigator(&world, 40 + 20 * i, 80, 306, 307);
  for (int i = 0; i < c; ++i) nav_navigator(&world, 40 + 20 * i, 120, 100, 300);
}

void test_a_field_counts_each_goal_point_of_its_cell_apart(void) {
  groups(5, 3, 4);
  fxs_world_step(&world, 0, 0, 0);
  // Agents 0..4 go to (303, 302), 5..7 to (306, 307): one field of 8; 8..11 another of 4.
  TEST_ASSERT_EQUAL_UINT32(8, fxs_world_nav_fields_follows(&world, 0));
  TEST_ASSERT_EQUAL_UINT32(8, fxs_world_nav_fields_follows(&world, 5));
  TEST_ASSERT_EQUAL_UINT32(5, fxs_world_nav_fields_sharers(&world, 0, nav_point(303, 302)));
  TEST_ASSERT_EQUAL_UINT32(3, fxs_world_nav_fields_sharers(&world, 7, nav_point(306, 307)));
  TEST_ASSERT_EQUAL_UINT32(4, fxs_world_nav_fields_sharers(&world, 11, nav_point(100, 300)));
  // A point no one of the field goes to: not counted.
  TEST_ASSERT_EQUAL_UINT32(0, fxs_world_nav_fields_sharers(&world, 0, nav_point(304, 302)));
}

void test_a_group_too_small_for_a_field_has_no_count(void) {
  groups(3, 0, 0); // fewer than FXS_NAV_FIELD_GROUP: each goes alone
  fxs_world_step(&world, 0, 0, 0);
  TEST_ASSERT_EQUAL_UINT32(0, fxs_world_nav_fields_follows(&world, 0));
  TEST_ASSERT_EQUAL_UINT32(0, fxs_world_nav_fields_sharers(&world, 0, nav_point(303, 302)));
}

// The counts follow the targets: the next tick, two of the first group retargeted to the
// second's point count there.
void test_the_counts_are_taken_again_every_tick(void) {
  groups(5, 3, 0);
  fxs_world_step(&world, 0, 0, 0);
  for (uint32_t i = 0; i < 2; ++i) {
    fxs_agent_handle h = fxs_world_handle_at(&world, i);
    TEST_ASSERT_EQUAL(FXS_OK,
                      nav_apply(&world, fxs_command_set_target_point(h, nav_point(306, 307))));
  }
  fxs_world_step(&world, 0, 0, 0);
  TEST_ASSERT_EQUAL_UINT32(3, fxs_world_nav_fields_sharers(&world, 2, nav_point(303, 302)));
  TEST_ASSERT_EQUAL_UINT32(5, fxs_world_nav_fields_sharers(&world, 0, nav_point(306, 307)));
}

// A follower whose body is as large as Q16.16 allows (radius 20,000 units: twice it is out of
// range) round its group's goal: the lattice's spacing and gate saturate, and two worlds step
// to the same hash (the sanitizer suite runs this too).
void test_a_body_too_large_for_the_lattice_steps_without_overflow(void) {
  uint64_t hash[2];
  for (int run = 0; run < 2; ++run) {
    nav_world_init(&world, 5, &cap, memory, sizeof memory);
    groups(4, 0, 0);
    world.agents[0].body.radius = FXS_INT(20000);
    for (int t = 0; t < 5; ++t) fxs_world_step(&world, 0, 0, 0);
    hash[run] = fxs_world_hash(&world);
  }
  TEST_ASSERT_EQUAL_HEX64(hash[0], hash[1]);
  TEST_ASSERT_EQUAL_UINT32(4, fxs_world_nav_fields_sharers(&world, 1, nav_point(303, 302)));
}
