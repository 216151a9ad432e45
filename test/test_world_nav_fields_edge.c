#include "unity.h"

#include "fixsteer/command_build.h"
#include "fixsteer/world.h"
#include "fixsteer/version.h"
#include "world_internal.h"
#include "world_nav_fields.h"
#include "world_walls.h"
#include "fxs_nav_test.h"

// Fields for bodies of every radius (simulation version 7, FXS_RULES_FIELD_EDGE): a group's
// follower smaller than the grid's radius, pressed against a wall, stands in a cell deep in
// the margin the raster blocks, where the field gives no direction. It steps to the nearest
// cell round its own that the field reaches and it sees, and stays on the field, instead of
// a full-grid A*.

// 8 agents, 4 walls, a 40 x 40 grid of 10-unit cells, 2 searches, 2 fields.
static const fxs_world_capacity cap = {8, 0, 0, 0, 4, 0, 0, 1600, 2, 400, 16, 2, 0, 0};
static uint64_t memory[60000];
static fxs_world world;

void setUp(void) { nav_world_init(&world, 5, &cap, memory, sizeof memory); }
void tearDown(void) {}

static void step(int ticks) {
  for (int t = 0; t < ticks; ++t) fxs_world_step(&world, 0, 0, 0);
}

// A grid of radius 15 (every cell whose square comes within 15 of a wall is blocked: four
// columns round a wall; the field gives a direction to a blocked cell beside a walkable one,
// so the two columns next to the wall have none), a wall at x =
// wall_x from y = 0 to 300, four navigators of radius 8 at x = 100 and a small one of radius
// `small_radius` (raw) at (x, 100), all going to (100, 380), on the left below the wall's end.
// Returns the small one's slot.
static uint32_t scene(uint32_t version, int wall_x, fix16_t x, fix16_t small_radius) {
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_set_simulation_version(&world, version));
  fxs_command c = fxs_command_set_nav_grid(nav_point(0, 0), FXS_INT(10), 40, 40, FXS_INT(15), 4000);
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, c));
  nav_wall(&world, wall_x, 0, wall_x, 300);
  for (int i = 0; i < 4; ++i) nav_navigator(&world, 100, 60 + 30 * i, 100, 380);
  nav_navigator(&world, 150, 100, 100, 380);
  uint32_t small = 4; // the fifth agent spawned in a fresh world
  world.agents[small].body.position.x = x;
  world.agents[small].body.radius = small_radius;
  return small;
}

// The offset (dx, dy) in cells of an edge follower's first cell.
static void edge_offset(uint32_t k, int *dx, int *dy) {
  uint32_t code = (k >> FXS_NAV_FIELD_EDGE_SHIFT) & FXS_NAV_FIELD_EDGE_CODES;
  *dx = (int)(code % FXS_NAV_FIELD_EDGE_SIDE) - FXS_NAV_FIELD_EDGE_RINGS;
  *dy = (int)(code / FXS_NAV_FIELD_EDGE_SIDE) - FXS_NAV_FIELD_EDGE_RINGS;
}

// Wall at x = 198: columns 18 to 21 blocked, 18 and 21 with directions (to 17 and 22). The
// small one (radius 1) at x = 197, in column 19, has none: ring 1's first cell, (-1, -1) in
// column 18, has one.
void test_a_small_follower_deep_in_a_walls_margin_steps_onto_the_field_instead_of_searching(void) {
  uint32_t small = scene(FXS_SIMULATION_VERSION, 198, FXS_INT(197), FXS_INT(1));
  step(2); // the field is built in the first tick (budget 4000 > 1600 cells)
  TEST_ASSERT_EQUAL_UINT8(1, world.nav.field_slots[0].ready);
  uint32_t k = world.internal->nav.agent_field[small];
  TEST_ASSERT_TRUE((k & FXS_NAV_FIELD_EDGE) != 0);
  TEST_ASSERT_EQUAL_UINT32(0, k & FXS_NAV_FIELD_SLOT);
  int dx, dy;
  edge_offset(k, &dx, &dy);
  TEST_ASSERT_EQUAL_INT(-1, dx);
  TEST_ASSERT_EQUAL_INT(-1, dy);
  TEST_ASSERT_EQUAL(FXS_ROUTE_NONE, world.nav.routes[small].status);
  TEST_ASSERT_EQUAL_UINT32(5, fxs_world_nav_fields_follows(&world, small));
  // It leaves the margin and follows the field from there: no search ever, and it ends in
  // its group's cluster round the goal.
  for (int t = 0; t < 900; ++t) {
    step(1);
    TEST_ASSERT_EQUAL(FXS_ROUTE_NONE, world.nav.routes[small].status);
  }
  fxs_vec2 p = world.agents[small].body.position;
  TEST_ASSERT_TRUE(fxs_test_to_double(p.x) < 198.0);
  TEST_ASSERT_TRUE(fxs_vec2_within(p, nav_point(100, 380), FXS_INT(40)));
}

// Wall at x = 191: columns 17 to 20 blocked, 17 and 20 with directions. The small one (radius
// 1/4) at x = 190.5, in column 19 left of the wall: in ring 1 only column 20 has a direction,
// across the wall: not seen, so passed over; ring 2's first cell, (-2, -2) in column 17, on
// its own side.
// `drop_first`: the first wall slot is removed once the scene is set.
static void check_cell_across_a_wall_not_taken(bool drop_first) {
  uint32_t small = scene(FXS_SIMULATION_VERSION, 191, FXS_INT(190) + FXS_ONE / 2, FXS_ONE / 4);
  if (drop_first) TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_remove_wall(0)));
  step(2);
  uint32_t k = world.internal->nav.agent_field[small];
  TEST_ASSERT_TRUE((k & FXS_NAV_FIELD_EDGE) != 0);
  int dx, dy;
  edge_offset(k, &dx, &dy);
  TEST_ASSERT_EQUAL_INT(-2, dx);
  TEST_ASSERT_EQUAL_INT(-2, dy);
}

void test_a_cell_across_a_wall_is_not_taken(void) { check_cell_across_a_wall_not_taken(false); }

// The same scene in a world whose 40 wall slots keep a wall grid (world_walls.h; 64-unit cells
// over the 400 x 400 map): the edge step's sight test takes the walls near its segment from
// the grid, and still does not take the cell across the wall. The walls come first in 30 far
// off (below on the right), the first of them removed after the scene's: the scene's wall is
// then live wall 29 in slot 30, so a test that took a live index for a slot would miss it.
void test_a_cell_across_a_wall_is_not_taken_with_the_wall_grid(void) {
  static const fxs_world_capacity grid_cap = {8, 0, 0, 0, 40, 0, 0, 1600, 2, 400, 16, 2, 0, 0};
  TEST_ASSERT_TRUE(fxs_wall_grid_kept(&grid_cap));
  nav_world_init(&world, 5, &grid_cap, memory, sizeof memory);
  for (int i = 0; i < 30; ++i)
    nav_wall(&world, 300 + 15 * (i % 6), 10 + 15 * (i / 6), 304 + 15 * (i % 6), 10 + 15 * (i / 6));
  check_cell_across_a_wall_not_taken(true);
}

// By version 6's rules the follower of the first scene leaves the field for A*.
void test_by_version_6_rules_the_same_follower_leaves_the_field_for_a_star(void) {
  uint32_t small = scene(6, 198, FXS_INT(197), FXS_INT(1));
  step(2);
  TEST_ASSERT_EQUAL_UINT32(FXS_NAV_NO_FIELD, world.internal->nav.agent_field[small]);
  TEST_ASSERT_TRUE(world.nav.routes[small].status != FXS_ROUTE_NONE);
}
