#include <string.h>
#include "unity.h"
#include "fxs_test_util.h"
#include "vec2.h"
#include "agent.h"
#include "avoidance.h"
#include "result.h"
#include "command.h"
#include "command_build.h"
#include "world.h"
#include "world_internal.h"
#include "nav_grid.h"
#include "nav_path.h"
#include "world_nav.h"
#include "flow_field.h"
#include "snapshot.h"
#include "bytes.h"
#include "input_limits.h"
#include "nav_field.h"
#include "fxs_nav_test.h"

// 4 agents, 4 obstacles, 8 walls, a navigation grid of up to 40 x 40 cells, 2 searches of
// 400 open entries, routes of up to 16 waypoints.
static const fxs_world_capacity cap = {4, 4, 0, 0, 8, 0, 0, 1600, 2, 400, 16, 0, 0, 0};
static uint64_t memory[40000];
static uint64_t memory2[40000];
static uint8_t snap[65536];
static fxs_world world, other;

static void init(fxs_world *w, const fxs_world_capacity *c, uint64_t *mem, size_t size) {
  nav_world_init(w, 11, c, mem, size);
}

void setUp(void) { init(&world, &cap, memory, sizeof memory); }
void tearDown(void) {}

static void step(fxs_world *w, int ticks) {
  for (int t = 0; t < ticks; ++t) fxs_world_step(w, 0, 0, 0);
}

// ------------------------------------------------------------------ commands

void test_capacities_are_checked_and_a_world_without_navigation_refuses_its_commands(void) {
  fxs_world_capacity c = cap;
  c.nav_searches = 0;
  TEST_ASSERT_EQUAL(0, fxs_world_memory_size(&c));
  c = cap, c.nav_open = 1601;
  TEST_ASSERT_EQUAL(0, fxs_world_memory_size(&c));
  c = cap, c.nav_waypoints = 1;
  TEST_ASSERT_EQUAL(0, fxs_world_memory_size(&c));
  c = cap, c.nav_cells = FXS_NAV_MAX_CELLS + 1u;
  TEST_ASSERT_EQUAL(0, fxs_world_memory_size(&c));
  c = cap, c.nav_cells = 0; // the others must be 0 too
  TEST_ASSERT_EQUAL(0, fxs_world_memory_size(&c));
  static const fxs_world_capacity none = {4, 4, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  init(&other, &none, memory2, sizeof memory2);
  TEST_ASSERT_EQUAL(
      FXS_ERR_CAPACITY,
      nav_apply(&other, fxs_command_set_nav_grid(nav_point(0, 0), FXS_INT(10), 4, 4, 0, 10)));
  TEST_ASSERT_EQUAL(FXS_ERR_CAPACITY, nav_apply(&other, fxs_command_set_nav_costs(0, 0, 1, 1, 3)));
  TEST_ASSERT_NULL(fxs_world_nav_grid(&other));
}

void test_set_nav_grid_checks_every_argument(void) {
  uint64_t before = fxs_world_hash(&world);
  TEST_ASSERT_EQUAL(
      FXS_ERR_CAPACITY,
      nav_apply(&world, fxs_command_set_nav_grid(nav_point(0, 0), FXS_INT(10), 41, 40, 0, 10)));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE,
                    nav_apply(&world, fxs_command_set_nav_grid(nav_point(0, 0), 0, 4, 4, 0, 10)));
  TEST_ASSERT_EQUAL(
      FXS_ERR_BAD_VALUE,
      nav_apply(&world, fxs_command_set_nav_grid(nav_point(0, 0), FXS_INT(10), 4, 4, -1, 10)));
  TEST_ASSERT_EQUAL(
      FXS_ERR_BAD_VALUE,
      nav_apply(&world, fxs_command_set_nav_grid(nav_point(0, 0), FXS_INT(10), 4, 4, 0, 0)));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE,
                    nav_apply(&world, fxs_command_set_nav_grid(nav_point(0, 0), FXS_INT(10), 4, 4,
                                                               0, FXS_NAV_MAX_BUDGET + 1u)));
  TEST_ASSERT_EQUAL(
      FXS_ERR_BAD_VALUE,
      nav_apply(&world, fxs_command_set_nav_grid(nav_point(32760, 0), FXS_INT(10), 4, 4, 0, 10)));
  fxs_command c = fxs_command_set_nav_grid(nav_point(0, 0), FXS_INT(10), 4, 4, 0, 10);
  c.arg[3] = FXS_INT(4) + 1; // a fraction of a column
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, nav_apply(&world, c));
  c = fxs_command_set_nav_grid(nav_point(0, 0), FXS_INT(10), 4, 4, 0, 10);
  c.arg[7] = 1; // an unused argument
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, nav_apply(&world, c));
  c = fxs_command_remove_nav_grid();
  c.ref = 1;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, nav_apply(&world, c));
  TEST_ASSERT_EQUAL_HEX64(before, fxs_world_hash(&world)); // nothing changed
  nav_grid(&world, 100);
  const fxs_nav_grid *g = fxs_world_nav_grid(&world);
  TEST_ASSERT_NOT_NULL(g);
  TEST_ASSERT_EQUAL_UINT32(40, g->width);
  for (uint32_t i = 0; i < 1600; ++i) TEST_ASSERT_EQUAL_UINT8(1, g->cost[i]);
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_remove_nav_grid()));
  TEST_ASSERT_NULL(fxs_world_nav_grid(&world));
}

void test_costs_walls_and_obstacles_make_the_effective_grid(void) {
  nav_grid(&world, 100);
  TEST_ASSERT_EQUAL(FXS_ERR_OUTSIDE_GRID,
                    nav_apply(&world, fxs_command_set_nav_costs(39, 0, 2, 1, 3)));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE,
                    nav_apply(&world, fxs_command_set_nav_costs(0, 0, 1, 1, 255)));
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_set_nav_costs(2, 3, 4, 2, 7)));
  nav_wall(&world, 200, 0, 200, 300);
  fxs_obstacle o = {nav_point(100, 350), FXS_INT(12)};
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_add_obstacle(o)));
  const fxs_nav_grid *g = fxs_world_nav_grid(&world);
  // Expected: the same rasterization on a grid of our own.
  static uint8_t mine[1600];
  fxs_nav_grid ref;
  TEST_ASSERT_EQUAL(FXS_OK,
                    fxs_nav_grid_init(&ref, mine, 1600, 40, 40, nav_point(0, 0), FXS_INT(10), 1));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_grid_set_block(&ref, 2, 3, 4, 2, 7));
  fxs_wall w = {nav_point(200, 0), nav_point(200, 300)};
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_grid_block_wall(&ref, &w, FXS_INT(8), 0));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_grid_block_obstacle(&ref, &o, FXS_INT(8), 0));
  TEST_ASSERT_EQUAL_UINT8_ARRAY(mine, g->cost, 1600);
  // The wall x = 200 with radius 8 blocks columns 19 and 20 (their squares touch x = 200)
  // and, within 8 of it, none further: columns 18 and 21 are 10 away.
  TEST_ASSERT_EQUAL_UINT8(0, g->cost[10 * 40 + 19]);
  TEST_ASSERT_EQUAL_UINT8(0, g->cost[10 * 40 + 20]);
  TEST_ASSERT_EQUAL_UINT8(1, g->cost[10 * 40 + 18]);
  TEST_ASSERT_EQUAL_UINT8(7, g->cost[3 * 40 + 2]);
  // Removing the wall frees its cells again.
  fxs_command rm = fxs_command_remove_wall(0);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &rm, 0));
  g = fxs_world_nav_grid(&world);
  TEST_ASSERT_EQUAL_UINT8(1, g->cost[10 * 40 + 19]);
}

// ------------------------------------------------------------------ the hash

// Each piece of navigation state, changed alone, changes the hash; changed back, the hash
// is what it was.
void test_every_piece_of_navigation_state_is_in_the_hash(void) {
  nav_grid(&world, 3);
  nav_wall(&world, 200, 0, 200, 300);
  fxs_agent_handle h = nav_navigator(&world, 100, 150, 300, 150);
  step(&world, 2); // a search in progress (3 cells a tick)
  fxs_world_nav *n = &world.nav;
  uint32_t i = h.value - 1u;
  TEST_ASSERT_EQUAL(FXS_ROUTE_SEARCHING, n->routes[i].status);
  uint64_t base = fxs_world_hash(&world);
#define FLIP(field, delta)                                                 \
  do {                                                                     \
    field += (delta);                                                      \
    TEST_ASSERT_NOT_EQUAL_MESSAGE(base, fxs_world_hash(&world), #field);   \
    field -= (delta);                                                      \
    TEST_ASSERT_EQUAL_HEX64_MESSAGE(base, fxs_world_hash(&world), #field); \
  } while (0)
  FLIP(n->grid.origin.x, 1);
  FLIP(n->grid.origin.y, 1);
  FLIP(n->grid.cell_size, 1);
  FLIP(n->grid.width, 1);
  FLIP(n->radius, 1);
  FLIP(n->budget, 1);
  FLIP(n->version, 1);
  FLIP(n->base[777], 1);
  FLIP(n->routes[i].status, 1);
  FLIP(n->routes[i].version, 1);
  FLIP(n->routes[i].goal_cell, 1);
  FLIP(n->routes[i].search, 1);
  FLIP(n->search_owner[0], 1);
  FLIP(n->searches[0].expanded, 1);
  FLIP(n->searches[0].end, 1);
  FLIP(n->searches[0].g[n->searches[0].touched[1]], 1);
  FLIP(n->searches[0].state[n->searches[0].touched[1]], 1);
  FLIP(n->searches[0].open[0].cell, 1);
  // Once the route is ready: its waypoints, count, next and how it ended.
  step(&world, 400);
  TEST_ASSERT_EQUAL(FXS_ROUTE_READY, n->routes[i].status);
  TEST_ASSERT_TRUE(n->routes[i].count >= 3);
  base = fxs_world_hash(&world);
  FLIP(n->routes[i].count, 1);
  FLIP(n->routes[i].next, 1);
  FLIP(n->routes[i].reached, 1);
  FLIP(n->routes[i].partial, 1);
  FLIP(n->waypoints[i * cap.nav_waypoints + 1], 1);
  FLIP(n->routes[i].stall, 1);
  FLIP(n->routes[i].mark_next, 1);
  FLIP(n->routes[i].mark_distance, 1);
#undef FLIP
  // The effective costs are derived: not in the hash (rebuilt from the state alone).
  fxs_world_nav_grid(&world);
  n->grid.cost[5] ^= 1;
  TEST_ASSERT_EQUAL_HEX64(base, fxs_world_hash(&world));
  n->grid.cost[5] ^= 1;
}

// ------------------------------------------------------------------ navigating

// The wall x = 200 from y = 0 to 300 stands across the straight line: the agent goes round
// its end, never through it, and rests exactly on its target.
void test_an_agent_navigates_round_a_wall_and_rests_exactly_on_its_target(void) {
  nav_grid(&world, 200);
  nav_wall(&world, 200, 0, 200, 300);
  fxs_wall w = {nav_point(200, 0), nav_point(200, 300)};
  fxs_agent_handle h = nav_navigator(&world, 100, 150, 300, 150);
  fxs_vec2 before = fxs_world_agent(&world, h)->position;
  fix16_t highest = 0;
  int rest_tick = -1;
  for (int t = 0; t < 1500; ++t) {
    step(&world, 1);
    const fxs_agent *a = fxs_world_agent(&world, h);
    TEST_ASSERT_FALSE(nav_crosses(before, a->position, w));
    if (a->position.y > highest) highest = a->position.y;
    before = a->position;
    if (rest_tick < 0 && fxs_vec2_equal(a->position, nav_point(300, 150)) &&
        fxs_vec2_is_zero(a->velocity))
      rest_tick = t;
  }
  const fxs_agent *a = fxs_world_agent(&world, h);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(300), a->position.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(150), a->position.y);
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(a->velocity));
  TEST_ASSERT_TRUE(rest_tick > 0);
  // Round the end: above y = 300 + the radius.
  TEST_ASSERT_TRUE(highest > FXS_INT(308));
  FXS_TEST_REPORT("round the wall: at rest on the target from tick %d, highest y %.2f", rest_tick,
                  fxs_test_to_double(highest));
}

// A target inside a closed box: the agent rests on the centre of the reachable cell nearest
// it by the documented order and stays there.
void test_an_unreachable_target_leaves_the_agent_at_rest_on_the_nearest_reachable_cell(void) {
  nav_grid(&world, 400);
  nav_wall(&world, 250, 250, 350, 250);
  nav_wall(&world, 350, 250, 350, 350);
  nav_wall(&world, 350, 350, 250, 350);
  nav_wall(&world, 250, 350, 250, 250);
  fxs_agent_handle h = nav_navigator(&world, 60, 60, 300, 300);
  step(&world, 1500);
  const fxs_agent *a = fxs_world_agent(&world, h);
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(a->velocity));
  uint32_t i = h.value - 1u;
  const fxs_nav_route *r = &world.nav.routes[i];
  TEST_ASSERT_EQUAL(FXS_ROUTE_READY, r->status);
  TEST_ASSERT_EQUAL(FXS_NAV_NEAREST, r->reached);
  uint32_t last = world.nav.waypoints[i * cap.nav_waypoints + r->count - 1u];
  fxs_vec2 c = fxs_nav_grid_cell_center(&world.nav.grid, last % 40, last / 40);
  TEST_ASSERT_EQUAL_INT32(c.x, a->position.x);
  TEST_ASSERT_EQUAL_INT32(c.y, a->position.y);
  // Walls at x, y = 250 and 350 with radius 8 block the cells whose squares touch them:
  // 24, 25 and 34, 35 on each axis. The goal cell is (30, 30); the reachable cells of least
  // octile distance are (36, 30) and (30, 36) at 60 (column 23 is 70 away); by symmetry they
  // cost the same from (6, 6), and the lower index wins: (36, 30), centre (365, 305).
  TEST_ASSERT_EQUAL_UINT32(30 * 40 + 36, last);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(365), a->position.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(305), a->position.y);
  fxs_vec2 then = a->position;
  step(&world, 100);
  TEST_ASSERT_TRUE(fxs_vec2_equal(then, fxs_world_agent(&world, h)->position));
}

// A wall added across the route mid-way: a new map version, a new route round it.
void test_a_wall_added_on_the_way_makes_the_agent_re_plan(void) {
  nav_grid(&world, 400);
  fxs_agent_handle h = nav_navigator(&world, 50, 200, 350, 200);
  step(&world, 30);
  uint32_t i = h.value - 1u;
  uint32_t version = world.nav.version;
  TEST_ASSERT_EQUAL(FXS_ROUTE_READY, world.nav.routes[i].status);
  TEST_ASSERT_EQUAL_UINT16(2, world.nav.routes[i].count); // in sight: its cell and the goal's
  nav_wall(&world, 200, 60, 200, 400);
  fxs_wall w = {nav_point(200, 60), nav_point(200, 400)};
  TEST_ASSERT_EQUAL_UINT32(version + 1u, world.nav.version);
  fxs_vec2 before = fxs_world_agent(&world, h)->position;
  for (int t = 0; t < 1500; ++t) {
    step(&world, 1);
    TEST_ASSERT_FALSE(nav_crosses(before, fxs_world_agent(&world, h)->position, w));
    before = fxs_world_agent(&world, h)->position;
  }
  TEST_ASSERT_EQUAL_UINT32(world.nav.version, world.nav.routes[i].version);
  TEST_ASSERT_TRUE(world.nav.routes[i].count >= 3);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(350), fxs_world_agent(&world, h)->position.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(200), fxs_world_agent(&world, h)->position.y);
}

// An agent that makes no progress on its route (held in place, not on its last leg) counts
// stall ticks, one a tick; at FXS_NAV_STALL_TICKS its route is searched again from where it
// stands (a search of 3 cells a tick: still running a tick later), and the new route starts
// with no stall.
void test_an_agent_without_progress_re_plans_after_the_stall_ticks(void) {
  nav_grid(&world, 3);
  nav_wall(&world, 200, 0, 200, 300);
  fxs_agent_handle h = nav_navigator(&world, 100, 150, 300, 150);
  uint32_t i = h.value - 1u;
  fxs_nav_route *r = &world.nav.routes[i];
  for (int t = 0; t < 1000 && r->status != FXS_ROUTE_READY; ++t) step(&world, 1);
  step(&world, 5); // on its way to the first waypoint
  TEST_ASSERT_EQUAL(FXS_ROUTE_READY, r->status);
  TEST_ASSERT_TRUE(r->count >= 3 && r->next + 1u < r->count);
  TEST_ASSERT_EQUAL_UINT16(0, r->stall); // moving along it
  world.agents[i].body.max_speed = 0;    // held where it stands
  world.agents[i].body.velocity = fxs_vec2_zero();
  step(&world, 1);
  uint16_t s0 = r->stall;
  TEST_ASSERT_TRUE(s0 <= 1);
  for (uint16_t k = 1; s0 + k < FXS_NAV_STALL_TICKS; ++k) {
    step(&world, 1);
    TEST_ASSERT_EQUAL(FXS_ROUTE_READY, r->status);
    TEST_ASSERT_EQUAL_UINT16(s0 + k, r->stall);
  }
  step(&world, 1);
  TEST_ASSERT_EQUAL(FXS_ROUTE_SEARCHING, r->status);
  step(&world, 400);
  TEST_ASSERT_EQUAL(FXS_ROUTE_READY, r->status);
  TEST_ASSERT_TRUE(r->stall < FXS_NAV_STALL_TICKS);
}

// ------------------------------------------------------------------ snapshots

// Two walls in an L and three navigators whose routes must go round them (the snapshot tests),
// searched at `budget` cells a tick.
static void walled_scene(uint32_t budget) {
  nav_grid(&world, budget);
  nav_wall(&world, 200, 0, 200, 300);
  nav_wall(&world, 100, 300, 300, 300);
  nav_navigator(&world, 100, 150, 300, 150);
  nav_navigator(&world, 60, 350, 350, 100);
  nav_navigator(&world, 380, 380, 20, 20);
}

// Snapshot in the middle of budgeted searches, restore into a world whose memory is full of
// junk, continue both: the same hash every tick.
void test_a_world_restored_mid_search_into_junk_memory_continues_identically(void) {
  walled_scene(7);
  step(&world, 5);
  TEST_ASSERT_EQUAL(FXS_ROUTE_SEARCHING, world.nav.routes[0].status);
  size_t size = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &size));
  TEST_ASSERT_EQUAL_UINT16(FXS_SNAPSHOT_VERSION_NAV, fxs_load_le16(snap + 4));
  init(&other, &cap, memory2, sizeof memory2);
  // Junk everywhere the searches and routes live, and the effective costs.
  memset(other.internal->nav.search_memory, 0xA5,
         fxs_world_nav_search_bytes(&cap) * cap.nav_searches);
  // and where the restore checks the searches: the path scratch and the checking state bits
  memset(other.internal->nav.scratch, 0xC3, cap.nav_cells * sizeof(uint32_t));
  memset(other.internal->nav.check.check_state, 0x3C, cap.nav_cells);
  memset(other.nav.grid.cost, 0x5A, cap.nav_cells);
  memset(other.nav.routes, 0x3C, sizeof(fxs_nav_route) * cap.agents);
  size_t at = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(&other, snap, size, &at));
  TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), fxs_world_hash(&other));
  for (int t = 0; t < 600; ++t) {
    step(&world, 1);
    step(&other, 1);
    TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), fxs_world_hash(&other));
  }
}

// More navigators than searches, and a wall added while the later ones search: every route
// goes back to waiting and the searches go to the lowest slots, so a route that searched with
// search 1 waits again without one. Every tick's snapshot restores, into the same hash.
// A restore checks a snapshot's searches in the path scratch and the checking bits
// (nav_state.h) before it changes anything: a world mid-search that refuses corrupt
// searches (bytes of the searches' part flipped) keeps its hash and then runs on exactly as
// its twin that never saw them.
void test_refused_searches_leave_a_world_mid_search_running_as_before(void) {
  walled_scene(7);
  step(&world, 5);
  TEST_ASSERT_EQUAL(FXS_ROUTE_SEARCHING, world.nav.routes[0].status);
  size_t size = 0, at = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &size));
  init(&other, &cap, memory2, sizeof memory2);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(&other, snap, size, &at));
  uint64_t hash = fxs_world_hash(&world);
  // The searches are the snapshot's last part here (no fields): its last 600 bytes hold
  // them and the routes' ends.
  static uint8_t bad[65536];
  uint32_t refused = 0;
  TEST_ASSERT_TRUE(size > 600);
  for (size_t i = size - 600; i < size; ++i) {
    memcpy(bad, snap, size);
    bad[i] ^= 0x41;
    if (fxs_world_restore(&other, bad, size, &at) != FXS_OK) {
      TEST_ASSERT_EQUAL_HEX64(hash, fxs_world_hash(&other));
      refused++;
    } else {
      TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(&other, snap, size, &at));
    }
  }
  TEST_ASSERT_TRUE(refused > 100);
  for (int t = 0; t < 400; ++t) {
    step(&world, 1);
    step(&other, 1);
    TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), fxs_world_hash(&other));
  }
}

void test_every_tick_of_a_re_planning_crowd_saves_a_snapshot_that_restores(void) {
  walled_scene(60);
  nav_navigator(&world, 20, 200, 390, 390);
  init(&other, &cap, memory2, sizeof memory2);
  bool waited_after_searching = false, kept_a_search = false;
  for (int t = 0; t < 200; ++t) {
    if (t == 20 || t == 100) nav_wall(&world, 40 + t, 320, 40 + t, 390);
    step(&world, 1);
    for (uint32_t i = 0; i < cap.agents; ++i) {
      const fxs_nav_route *r = &world.nav.routes[i];
      waited_after_searching |= r->status == FXS_ROUTE_WAITING && i >= cap.nav_searches;
      kept_a_search |= r->status == FXS_ROUTE_WAITING && r->search != 0; // the state at issue
    }
    size_t size = 0, at = 0;
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &size));
    TEST_ASSERT_EQUAL_MESSAGE(FXS_OK, fxs_world_restore(&other, snap, size, &at), "restore");
    TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), fxs_world_hash(&other));
  }
  TEST_ASSERT_TRUE(waited_after_searching);
  TEST_ASSERT_TRUE(kept_a_search);
}

// fxs_world_snapshot_bound covers every state a navigating world passes through: searches
// in progress, full routes, all agents alive; it saturates instead of wrapping.
void test_the_snapshot_bound_covers_every_state_of_a_navigating_world(void) {
  size_t bound = fxs_world_snapshot_bound(&cap);
  walled_scene(7);
  nav_navigator(&world, 20, 200, 390, 390);
  size_t largest = 0;
  for (int t = 0; t < 400; ++t) {
    size_t n = fxs_world_snapshot_size(&world);
    largest = n > largest ? n : largest;
    TEST_ASSERT_TRUE(n <= bound);
    step(&world, 1);
  }
  TEST_ASSERT_TRUE(largest > 2000u); // the base costs alone are 1600 bytes
  fxs_world_capacity huge = cap;
  huge.agents = UINT32_MAX, huge.nav_waypoints = UINT32_MAX;
  TEST_ASSERT_EQUAL_UINT64(SIZE_MAX, fxs_world_snapshot_bound(&huge));
  huge = cap;
  huge.nav_searches = UINT32_MAX, huge.nav_cells = UINT32_MAX;
  TEST_ASSERT_EQUAL_UINT64(SIZE_MAX, fxs_world_snapshot_bound(&huge));
}

void test_corrupt_navigation_sections_are_refused_and_change_nothing(void) {
  nav_grid(&world, 5);
  nav_wall(&world, 200, 0, 200, 300);
  nav_navigator(&world, 100, 150, 300, 150);
  step(&world, 3);
  size_t size = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &size));
  init(&other, &cap, memory2, sizeof memory2);
  uint64_t empty = fxs_world_hash(&other);
  static uint8_t bad[65536];
  for (size_t cut = 0; cut < size; cut += 7) {
    TEST_ASSERT_NOT_EQUAL(FXS_OK, fxs_world_restore(&other, snap, cut, 0));
  }
  uint32_t refused = 0;
  // Every byte of the navigation section (after the walls) flipped in turn: refused with a
  // named result and the world unchanged, or restored to a world that steps safely.
  size_t nav_at = size;
  for (size_t i = 0; i < size; ++i) {
    memcpy(bad, snap, size);
    bad[size - 1 - i] ^= 0x41;
    size_t at = 0;
    fxs_result r = fxs_world_restore(&other, bad, size, &at);
    if (r != FXS_OK) {
      TEST_ASSERT_EQUAL_HEX64(empty, fxs_world_hash(&other));
      refused++;
    } else {
      step(&other, 3);
      init(&other, &cap, memory2, sizeof memory2);
    }
    if (i > 2500) break;
    (void)nav_at;
  }
  TEST_ASSERT_TRUE(refused > 100);
  // A capacity that differs is named.
  fxs_world_capacity c = cap;
  c.nav_waypoints = 17;
  static uint64_t memory3[40000];
  fxs_world third;
  init(&third, &c, memory3, sizeof memory3);
  size_t at = 0;
  TEST_ASSERT_EQUAL(FXS_ERR_CAPACITY, fxs_world_restore(&third, snap, size, &at));
  TEST_ASSERT_EQUAL(59u, at); // the navigation capacities
}

// A ready route always holds the path of a finished search, at least one waypoint. One with
// none (forged: the step never makes it) would hold its agent still for ever, neither moving
// nor counting stall ticks: refused, with the offset of its record.
void test_a_ready_route_without_waypoints_is_refused(void) {
  nav_grid(&world, 400);
  fxs_agent_handle h = nav_navigator(&world, 40, 40, 300, 300);
  fxs_nav_route *r = &world.nav.routes[h.value - 1u];
  for (int t = 0; t < 100 && r->status != FXS_ROUTE_READY; ++t) step(&world, 1);
  TEST_ASSERT_EQUAL(FXS_ROUTE_READY, r->status);
  // The route's record: where a change of its stall count (17 bytes in) shows in the bytes.
  static uint8_t moved[65536];
  size_t size = 0, at = 0, route_at = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &size));
  r->stall ^= 1u;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, moved, sizeof moved, &size));
  r->stall ^= 1u;
  while (snap[route_at] == moved[route_at]) ++route_at;
  route_at -= 17u;
  TEST_ASSERT_EQUAL_UINT8(FXS_ROUTE_READY, snap[route_at]);
  r->count = 0, r->reached = 0, r->next = 0, r->mark_next = 0, r->partial = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &size));
  init(&other, &cap, memory2, sizeof memory2);
  uint64_t empty = fxs_world_hash(&other);
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_restore(&other, snap, size, &at));
  TEST_ASSERT_EQUAL_UINT64(route_at, at);
  TEST_ASSERT_EQUAL_HEX64(empty, fxs_world_hash(&other));
}

// fill_field toward a goal: the world's flow field gets the direction field of the navigation
// grid (the same cells as an integration field built on the effective grid here), and only
// when both grids have one shape.
void test_the_flow_field_fills_with_the_directions_toward_a_goal(void) {
  static const fxs_world_capacity with_field = {4, 4, 0, 0, 8, 0, 1600, 1600, 2, 400, 16, 0, 0, 0};
  static uint64_t memory3[60000];
  fxs_world w;
  init(&w, &with_field, memory3, sizeof memory3);
  nav_grid(&w, 100);
  nav_wall(&w, 200, 0, 200, 300);
  TEST_ASSERT_EQUAL(
      FXS_OK, nav_apply(&w, fxs_command_set_field_grid(nav_point(0, 0), FXS_INT(20), 20, 20)));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE,
                    nav_apply(&w, fxs_command_fill_field_goal(nav_point(300, 150))));
  TEST_ASSERT_EQUAL(
      FXS_OK, nav_apply(&w, fxs_command_set_field_grid(nav_point(0, 0), FXS_INT(10), 40, 40)));
  fxs_command bad = fxs_command_fill_field_goal(nav_point(300, 150));
  bad.arg[2] = 1;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_apply(&w, &bad, 0));
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&w, fxs_command_fill_field_goal(nav_point(300, 150))));
  static uint64_t field_memory[(4806u * 16u + 16384u) / 8u + 8u];
  fxs_nav_field f;
  uint32_t entries = fxs_nav_field_cells(40, 40);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_field_init(&f, field_memory, sizeof field_memory, entries));
  uint32_t goal = 15 * 40 + 30;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_field_begin(&f, fxs_world_nav_grid(&w), &goal, 1));
  TEST_ASSERT_EQUAL(FXS_NAV_FIELD_READY, fxs_nav_field_step(&f, UINT32_MAX));
  static fxs_vec2 cells[1600];
  fxs_flow_field mine;
  TEST_ASSERT_EQUAL(FXS_OK,
                    fxs_flow_field_init(&mine, cells, 1600, 40, 40, nav_point(0, 0), FXS_INT(10)));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_field_fill_flow(&f, &mine));
  for (uint32_t i = 0; i < 1600; ++i) {
    TEST_ASSERT_EQUAL_INT32(cells[i].x, w.field.cells[i].x);
    TEST_ASSERT_EQUAL_INT32(cells[i].y, w.field.cells[i].y);
  }
  // Left of the wall, below its end: the way is round the top (+y) of the wall.
  TEST_ASSERT_TRUE(w.field.cells[15 * 40 + 10].y > 0);
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(w.field.cells[goal]));
}

void test_limits_refuse_navigation_capacities_beyond_them(void) {
  fxs_limits l = fxs_default_limits();
  fxs_limit_error e;
  fxs_world_capacity c = cap;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_limits_check_capacity(&l, &c, &e));
  l.max_nav_cells = 1599;
  TEST_ASSERT_EQUAL(FXS_ERR_LIMIT, fxs_limits_check_capacity(&l, &c, &e));
  TEST_ASSERT_EQUAL_STRING("max_nav_cells", e.field);
  l = fxs_default_limits(), l.max_nav_search_cells = 3199;
  TEST_ASSERT_EQUAL(FXS_ERR_LIMIT, fxs_limits_check_capacity(&l, &c, &e));
  TEST_ASSERT_EQUAL_STRING("max_nav_search_cells", e.field);
  l = fxs_default_limits(), l.max_nav_route_cells = 63;
  TEST_ASSERT_EQUAL(FXS_ERR_LIMIT, fxs_limits_check_capacity(&l, &c, &e));
  TEST_ASSERT_EQUAL_STRING("max_nav_route_cells", e.field);
}

// An RTS map (issue 57): 32 group fields on the largest grid, 1024 x 1024 cells, pass the
// default limits; a 33rd field is refused, naming the limit.
void test_default_limits_take_32_fields_on_the_largest_grid_and_refuse_33(void) {
  fxs_limits l = fxs_default_limits();
  fxs_limit_error e;
  fxs_world_capacity c = cap;
  c.nav_cells = 1024u * 1024u, c.nav_fields = 32;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_limits_check_capacity(&l, &c, &e));
  c.nav_fields = 33;
  TEST_ASSERT_EQUAL(FXS_ERR_LIMIT, fxs_limits_check_capacity(&l, &c, &e));
  TEST_ASSERT_EQUAL_STRING("max_nav_field_cells", e.field);
}
