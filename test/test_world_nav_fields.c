#include <math.h>
#include <string.h>
#include "unity.h"
#include "fxs_test_util.h"
#include "vec2.h"
#include "agent.h"
#include "avoidance.h"
#include "result.h"
#include "command_build.h"
#include "world.h"
#include "world_internal.h"
#include "nav_grid.h"
#include "nav_path.h"
#include "world_nav_fields.h"
#include "snapshot.h"
#include "bytes.h"
#include "input_limits.h"
#include "nav_field.h"
#include "fxs_nav_test.h"

// Integration fields for groups of navigate agents (world_nav_fields.h): which agents get
// one, the cache's eviction order, map changes, the move along a field, and the fields'
// state in the hash and the snapshot.

// 12 agents, 8 walls, a 40 x 40 grid of 10-unit cells, 2 searches, 2 fields.
static const fxs_world_capacity cap = {12, 0, 0, 0, 8, 0, 0, 1600, 2, 400, 16, 2, 0, 0};
static uint64_t memory[60000];
static uint64_t memory2[60000];
static uint8_t snap[65536];
static fxs_world world, other;

static void init(fxs_world *w, const fxs_world_capacity *c, uint64_t *mem, size_t size) {
  nav_world_init(w, 5, c, mem, size);
}

void setUp(void) { init(&world, &cap, memory, sizeof memory); }
void tearDown(void) {}

// `count` navigators in a column from (x, y0) down by 30, all to (tx, ty).
static void group(fxs_world *w, int count, int x, int y0, int tx, int ty) {
  for (int i = 0; i < count; ++i) nav_navigator(w, x, y0 + 30 * i, tx, ty);
}

static void step(fxs_world *w, int ticks) {
  for (int t = 0; t < ticks; ++t) fxs_world_step(w, 0, 0, 0);
}

static uint32_t cell(int x, int y) { return (uint32_t)(y / 10) * 40u + (uint32_t)(x / 10); }

// ------------------------------------------------------------------ capacity

void test_the_field_capacity_is_checked_and_costs_memory(void) {
  fxs_world_capacity c = cap;
  c.nav_fields = FXS_NAV_MAX_FIELDS + 1u;
  TEST_ASSERT_EQUAL(0, fxs_world_memory_size(&c));
  c = cap, c.nav_cells = c.nav_searches = c.nav_open = c.nav_waypoints = 0; // fields need a grid
  TEST_ASSERT_EQUAL(0, fxs_world_memory_size(&c));
  c = cap, c.nav_fields = 0;
  size_t without = fxs_world_memory_size(&c);
  c.nav_fields = 1;
  size_t one = fxs_world_memory_size(&c);
  // One field: 42 x 42 entries of 16 bytes and 4096 buckets, plus its slot, its struct and
  // an agent_field word per agent slot.
  TEST_ASSERT_TRUE(one - without >= 42u * 42u * 16u + 4096u * 4u + 12u * 4u);
  c.nav_fields = 2;
  TEST_ASSERT_TRUE(fxs_world_memory_size(&c) - one >= 42u * 42u * 16u + 4096u * 4u);
}

// ------------------------------------------------------------------ who gets a field

void test_four_agents_sharing_a_goal_share_one_field_and_run_no_search(void) {
  nav_grid(&world, 400);
  nav_wall(&world, 200, 0, 200, 300);
  fxs_wall w = {nav_point(200, 0), nav_point(200, 300)};
  group(&world, (int)FXS_NAV_FIELD_GROUP, 100, 60, 300, 150);
  fxs_vec2 before[4];
  for (uint32_t i = 0; i < 4; ++i) before[i] = world.agents[i].body.position;
  uint32_t searched = 0;
  for (int t = 0; t < 1200; ++t) {
    step(&world, 1);
    for (uint32_t k = 0; k < cap.nav_searches; ++k)
      searched += world.nav.search_owner[k] != UINT32_MAX;
    for (uint32_t i = 0; i < 4; ++i) {
      TEST_ASSERT_FALSE(nav_crosses(before[i], world.agents[i].body.position, w));
      before[i] = world.agents[i].body.position;
    }
  }
  TEST_ASSERT_EQUAL_UINT32(0, searched);
  TEST_ASSERT_EQUAL_UINT8(1, world.nav.field_slots[0].live);
  TEST_ASSERT_EQUAL_UINT8(0, world.nav.field_slots[1].live);
  TEST_ASSERT_EQUAL_UINT32(cell(300, 150), world.nav.field_slots[0].goal_cell);
  TEST_ASSERT_EQUAL(FXS_NAV_FIELD_READY, world.nav.fields[0].status);
  for (uint32_t i = 0; i < 4; ++i) {
    TEST_ASSERT_EQUAL(FXS_ROUTE_NONE, world.nav.routes[i].status);
    TEST_ASSERT_EQUAL_UINT32(0, world.internal->nav.agent_field[i]);
    // round the wall's end, and at rest near the goal (the first on it, the others behind)
    const fxs_agent *a = &world.agents[i].body;
    TEST_ASSERT_TRUE(fxs_vec2_is_zero(a->velocity));
    TEST_ASSERT_TRUE(fxs_vec2_within(a->position, nav_point(300, 150), FXS_INT(40)));
  }
  FXS_TEST_REPORT("agent 0 at (%.2f, %.2f)", fxs_test_to_double(world.agents[0].body.position.x),
                  fxs_test_to_double(world.agents[0].body.position.y));
}

// A group of 12 sharing a goal rests in its compact cluster (world_way.h): every one within
// 1.3 r sqrt(12) of the goal, none moving, no two bodies overlapping beyond contact's give;
// the plan counts the field's members.
void test_a_group_settles_in_its_compact_cluster(void) {
  nav_grid(&world, 400);
  group(&world, 6, 60, 100, 300, 200);
  group(&world, 6, 100, 100, 300, 200);
  step(&world, 1500);
  const double r = fxs_test_to_double(world.agents[0].body.radius);
  const double cluster = 1.3 * r * sqrt(12.0);
  for (uint32_t i = 0; i < 12; ++i) {
    const fxs_agent *a = &world.agents[i].body;
    TEST_ASSERT_EQUAL_UINT32(12, fxs_world_nav_fields_follows(&world, i));
    TEST_ASSERT_TRUE(fxs_vec2_is_zero(a->velocity));
    double dx = fxs_test_to_double(a->position.x) - 300,
           dy = fxs_test_to_double(a->position.y) - 200;
    TEST_ASSERT_TRUE_MESSAGE(sqrt(dx * dx + dy * dy) <= cluster, "outside the compact cluster");
    for (uint32_t j = 0; j < i; ++j) {
      const fxs_agent *b = &world.agents[j].body;
      double ex = fxs_test_to_double(a->position.x - b->position.x);
      double ey = fxs_test_to_double(a->position.y - b->position.y);
      TEST_ASSERT_TRUE(sqrt(ex * ex + ey * ey) >= 2 * r * (1 - 1.0 / 40) - 1e-3);
    }
  }
  step(&world, 200); // nobody moves once the cluster formed
  for (uint32_t i = 0; i < 12; ++i)
    TEST_ASSERT_TRUE(fxs_vec2_is_zero(world.agents[i].body.velocity));
}

// A crush (world_way.h, making way): two followers of two groups pressed head-on into each
// other, both crawling (slower than their rest speed), touching. The one whose goal comes
// later in the fixed order (x, then y) makes way: it takes the whole of the avoiding and backs
// off or aside, while the other leaves it out of its ORCA and presses on toward its goal.
// Without the rule the two answer symmetrically (each sidesteps half, each presses on as
// much), and in a crowd such symmetric pushing can keep a crush crawling for good.
void test_in_a_crush_of_two_groups_the_later_goal_makes_way(void) {
  nav_grid(&world, 400);
  group(&world, 4, 40, 40, 360, 200); // slots 0..3, east: the later goal
  group(&world, 4, 360, 40, 40, 200); // slots 4..7, west: the earlier goal
  step(&world, 10);
  for (uint32_t i = 0; i < 8; ++i)
    TEST_ASSERT_EQUAL_UINT32(4, fxs_world_nav_fields_follows(&world, i));
  // The two fronts, 17 apart (their bodies touch within an eighth of both radii), crawling
  // into each other at 0.02 a tick (rest speed: 2 / 64); the others far behind, at rest.
  fxs_agent *east = &world.agents[0].body, *west = &world.agents[4].body;
  east->position = nav_point(200, 200), west->position = nav_point(217, 200);
  east->velocity = fxs_vec2_make(FXS_ONE / 50, 0), west->velocity = fxs_vec2_make(-FXS_ONE / 50, 0);
  for (uint32_t i = 1; i < 4; ++i) {
    world.agents[i].body.position = nav_point(40, 60 + 40 * (int)i);
    world.agents[i + 4].body.position = nav_point(360, 60 + 40 * (int)i);
    world.agents[i].body.velocity = world.agents[i + 4].body.velocity = fxs_vec2_zero();
  }
  step(&world, 1);
  FXS_TEST_REPORT("east v (%.4f, %.4f), west v (%.4f, %.4f)", fxs_test_to_double(east->velocity.x),
                  fxs_test_to_double(east->velocity.y), fxs_test_to_double(west->velocity.x),
                  fxs_test_to_double(west->velocity.y));
  // The west front presses on toward its goal; the east one steps aside, pressing east at
  // most an eighth as fast.
  TEST_ASSERT_TRUE(west->velocity.x < 0);
  TEST_ASSERT_TRUE(east->velocity.x < -west->velocity.x / 8);
  TEST_ASSERT_TRUE(east->velocity.y != 0);
  // A few ticks on, the two have passed each other.
  step(&world, 30);
  TEST_ASSERT_TRUE(west->position.x < east->position.x);
}

// The crush at scale: two groups of 12 (three abreast) sent head-on through a corridor 60
// wide (3.75 bodies), each to the far end of the other's side. Without the crush rule they
// crawl in the corridor to the end (none through by tick 3,000); with it they get through
// and settle (all at rest from tick 1,686, 23 of 24 through; under simulation version 7's
// compact clusters all 24 through, at rest from tick 2,607: the piles at the ends pack
// closer, which takes longer).
void test_two_groups_head_on_in_a_corridor_get_through_and_settle(void) {
  static uint64_t mem[120000];
  fxs_world_capacity c = cap;
  c.agents = 24;
  init(&other, &c, mem, sizeof mem);
  nav_grid(&other, 400);
  nav_wall(&other, 100, 170, 300, 170), nav_wall(&other, 100, 230, 300, 230);
  nav_wall(&other, 100, 0, 100, 170), nav_wall(&other, 100, 230, 100, 400);
  nav_wall(&other, 300, 0, 300, 170), nav_wall(&other, 300, 230, 300, 400);
  for (int i = 0; i < 12; ++i)
    nav_navigator(&other, 80 - 20 * (i / 3), 180 + 20 * (i % 3), 360, 200);
  for (int i = 0; i < 12; ++i)
    nav_navigator(&other, 320 + 20 * (i / 3), 180 + 20 * (i % 3), 40, 200);
  int moved = 0; // the last tick any agent moved
  for (int t = 1; t <= 3000; ++t) {
    step(&other, 1);
    for (uint32_t i = 0; i < 24; ++i)
      if (!fxs_vec2_is_zero(other.agents[i].body.velocity)) moved = t;
  }
  uint32_t across = 0;
  for (uint32_t i = 0; i < 24; ++i) {
    fix16_t x = other.agents[i].body.position.x;
    across += i < 12 ? x > FXS_INT(300) : x < FXS_INT(100);
  }
  FXS_TEST_REPORT("all at rest from tick %d, %u of 24 through the corridor", moved + 1, across);
  TEST_ASSERT_TRUE(moved < 2800);
  TEST_ASSERT_TRUE(across >= 23); // 23 under simulation version 5 with the rule, 0 without
}

void test_fewer_agents_than_a_group_run_a_star(void) {
  nav_grid(&world, 400);
  group(&world, (int)FXS_NAV_FIELD_GROUP - 1, 100, 60, 300, 150);
  step(&world, 3);
  TEST_ASSERT_EQUAL_UINT8(0, world.nav.field_slots[0].live);
  for (uint32_t i = 0; i + 1 < FXS_NAV_FIELD_GROUP; ++i) {
    TEST_ASSERT_EQUAL(FXS_ROUTE_READY, world.nav.routes[i].status);
    TEST_ASSERT_EQUAL_UINT32(FXS_NAV_NO_FIELD, world.internal->nav.agent_field[i]);
  }
  // a fourth one with the goal in the same cell (not the same point) makes a group
  nav_navigator(&world, 100, 300, 304, 156);
  step(&world, 1);
  TEST_ASSERT_EQUAL_UINT8(1, world.nav.field_slots[0].live);
  for (uint32_t i = 0; i < FXS_NAV_FIELD_GROUP; ++i)
    TEST_ASSERT_EQUAL_UINT32(0, world.internal->nav.agent_field[i]);
}

// fxs_world_nav_field: a live slot's field and goal, NULL for a free slot or one past the
// capacity; the values read through it are the integration costs (10 a straight step).
void test_a_groups_field_is_read_from_outside_the_world_by_its_slot(void) {
  nav_grid(&world, 400);
  uint32_t goal = 12345;
  TEST_ASSERT_NULL(fxs_world_nav_field(&world, 0, &goal));
  TEST_ASSERT_EQUAL_UINT32(12345, goal); // untouched for a free slot
  group(&world, (int)FXS_NAV_FIELD_GROUP, 100, 60, 300, 150);
  step(&world, 1);
  const fxs_nav_field *f = fxs_world_nav_field(&world, 0, &goal);
  TEST_ASSERT_EQUAL_PTR(&world.nav.fields[0], f);
  TEST_ASSERT_EQUAL_UINT32(cell(300, 150), goal);
  TEST_ASSERT_NULL(fxs_world_nav_field(&world, 1, &goal));
  TEST_ASSERT_NULL(fxs_world_nav_field(&world, cap.nav_fields, &goal));
  TEST_ASSERT_EQUAL_PTR(f, fxs_world_nav_field(&world, 0, NULL));
  step(&world, 5); // 400 cells a tick: the 1,600 cells are settled
  TEST_ASSERT_EQUAL_UINT32(FXS_NAV_FIELD_READY, f->status);
  TEST_ASSERT_EQUAL_UINT32(0, fxs_nav_field_value(f, 30, 15));
  TEST_ASSERT_EQUAL_UINT32(50, fxs_nav_field_value(f, 25, 15));
  TEST_ASSERT_EQUAL_UINT32(5 * 14, fxs_nav_field_value(f, 25, 10));
  TEST_ASSERT_EQUAL_UINT32(0, fxs_nav_field_direction(f, 25, 15)); // east
  TEST_ASSERT_EQUAL_UINT32(FXS_NAV_DIRECTIONS, fxs_nav_field_direction(f, 30, 15));
  fxs_world_capacity c = cap;
  c.nav_fields = 0;
  init(&other, &c, memory2, sizeof memory2);
  nav_grid(&other, 400);
  group(&other, (int)FXS_NAV_FIELD_GROUP, 100, 60, 300, 150);
  step(&other, 1);
  TEST_ASSERT_NULL(fxs_world_nav_field(&other, 0, &goal)); // no fields: A* for everyone
}

// Off the grid's axes, with the goal in sight: each agent keeps to the straight line from
// where it started to the target (no staircase of cell steps) until it meets the others.
void test_an_agent_with_the_goal_in_sight_heads_straight_for_it(void) {
  nav_grid(&world, 4000);
  fxs_vec2 start[4] = {nav_point(40, 40), nav_point(40, 360), nav_point(370, 30),
                       nav_point(360, 370)};
  fxs_vec2 goal = nav_point(213, 187);
  for (int i = 0; i < 4; ++i) nav_navigator(&world, start[i].x >> 16, start[i].y >> 16, 213, 187);
  double worst = 0;
  for (int t = 0; t < 300; ++t) {
    step(&world, 1);
    for (int i = 0; i < 4; ++i) {
      fxs_vec2 p = world.agents[i].body.position;
      if (fxs_vec2_within(p, goal, FXS_INT(60))) continue;
      double ax = fxs_test_to_double(start[i].x), ay = fxs_test_to_double(start[i].y);
      double bx = fxs_test_to_double(goal.x) - ax, by = fxs_test_to_double(goal.y) - ay;
      double px = fxs_test_to_double(p.x) - ax, py = fxs_test_to_double(p.y) - ay;
      double off = (px * by - py * bx) / sqrt(bx * bx + by * by);
      if (off < 0) off = -off;
      if (off > worst) worst = off;
    }
  }
  TEST_ASSERT_EQUAL_UINT32(0, world.internal->nav.agent_field[0]);
  TEST_ASSERT_TRUE(worst < 0.5);
  FXS_TEST_REPORT("farthest from the straight line: %.4f units", worst);
}

// Out of sight the agent seeks the farthest of the next cells of the direction field it can
// see: round a wall's end it cuts the corner smoothly instead of stepping cell by cell.
void test_out_of_sight_an_agent_seeks_the_farthest_field_cell_in_sight(void) {
  nav_grid(&world, 4000);
  nav_wall(&world, 200, 0, 200, 300);
  group(&world, 4, 100, 60, 300, 150);
  step(&world, 2);
  fxs_vec2 to;
  bool last = true;
  TEST_ASSERT_TRUE(fxs_world_nav_fields_point(&world, 0, nav_point(300, 150), &to, &last));
  TEST_ASSERT_FALSE(last);
  // The chain from (10, 6) climbs toward the wall's end; the point is FXS_NAV_FIELD_LOOK
  // cells along it and in sight, so at least a few cells away, on a walkable cell.
  uint32_t cx, cy;
  TEST_ASSERT_TRUE(fxs_nav_grid_cell_of(&world.nav.grid, to, &cx, &cy));
  TEST_ASSERT_NOT_EQUAL(0, world.nav.grid.cost[cy * 40 + cx]);
  uint32_t hx, hy;
  fxs_nav_grid_cell_of(&world.nav.grid, world.agents[0].body.position, &hx, &hy);
  uint32_t dx = cx > hx ? cx - hx : hx - cx, dy = cy > hy ? cy - hy : hy - cy;
  TEST_ASSERT_TRUE((dx > dy ? dx : dy) >= 4);
  TEST_ASSERT_TRUE(fxs_nav_line_of_sight(&world.nav.grid, hx, hy, cx, cy));
  TEST_ASSERT_TRUE(cy > hy); // toward the wall's end at y = 300
}

void test_an_agent_the_field_cannot_reach_from_runs_a_star(void) {
  nav_grid(&world, 4000);
  // the goal in a closed box: every agent is cut off from it
  nav_wall(&world, 250, 250, 350, 250);
  nav_wall(&world, 350, 250, 350, 350);
  nav_wall(&world, 350, 350, 250, 350);
  nav_wall(&world, 250, 350, 250, 250);
  group(&world, 4, 60, 60, 300, 300);
  step(&world, 3);
  TEST_ASSERT_EQUAL_UINT8(1, world.nav.field_slots[0].live);
  TEST_ASSERT_EQUAL_UINT32(FXS_NAV_NO_FIELD, world.internal->nav.agent_field[0]);
  TEST_ASSERT_TRUE(world.nav.routes[0].status != FXS_ROUTE_NONE);
  step(&world, 600);
  TEST_ASSERT_EQUAL(FXS_NAV_NEAREST, world.nav.routes[0].reached);
}

// ------------------------------------------------------------------ the cache

// Two slots, three goals of four agents: the third goal's agents run A* while both fields
// are used; once a goal's agents are gone its field is evicted for the waiting goal; two
// fields unused since the same tick: the lower slot goes first.
void test_the_least_recently_used_field_is_evicted_lowest_slot_first(void) {
  nav_grid(&world, 4000);
  group(&world, 4, 30, 30, 350, 50);  // slots 0..3, goal A
  group(&world, 4, 60, 30, 350, 200); // slots 4..7, goal B
  group(&world, 4, 90, 30, 350, 350); // slots 8..11, goal C
  step(&world, 1);
  TEST_ASSERT_EQUAL_UINT32(cell(350, 50), world.nav.field_slots[0].goal_cell);
  TEST_ASSERT_EQUAL_UINT32(cell(350, 200), world.nav.field_slots[1].goal_cell);
  TEST_ASSERT_EQUAL_UINT32(FXS_NAV_NO_FIELD, world.internal->nav.agent_field[8]);
  TEST_ASSERT_TRUE(world.nav.routes[8].status != FXS_ROUTE_NONE);
  // goal A's agents stop navigating (new targets elsewhere, one each): C takes slot 0
  for (uint32_t i = 0; i < 4; ++i) {
    fxs_agent_handle h = {i + 1u};
    TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_set_target_point(
                                                    h, nav_point(20 + 40 * (int)i, 380))));
  }
  uint32_t tick = world.tick;
  step(&world, 1);
  TEST_ASSERT_EQUAL_UINT32(cell(350, 350), world.nav.field_slots[0].goal_cell);
  TEST_ASSERT_EQUAL_UINT32(tick, world.nav.field_slots[0].used);
  TEST_ASSERT_EQUAL_UINT32(0, world.internal->nav.agent_field[8]);
  TEST_ASSERT_EQUAL_UINT32(1, world.internal->nav.agent_field[4]);
  // B and C both leave for goal D: both fields were last used on the same tick; D gets the
  // lower slot
  for (uint32_t i = 4; i < 12; ++i) {
    fxs_agent_handle h = {i + 1u};
    TEST_ASSERT_EQUAL(FXS_OK,
                      nav_apply(&world, fxs_command_set_target_point(h, nav_point(200, 380))));
  }
  step(&world, 1);
  TEST_ASSERT_EQUAL_UINT32(cell(200, 380), world.nav.field_slots[0].goal_cell);
  TEST_ASSERT_EQUAL_UINT32(cell(350, 200), world.nav.field_slots[1].goal_cell); // kept
  TEST_ASSERT_EQUAL_UINT32(0, world.internal->nav.agent_field[11]);
}

void test_a_map_change_drops_every_field_and_the_group_gets_a_new_one(void) {
  nav_grid(&world, 100);
  group(&world, 4, 100, 60, 300, 150);
  step(&world, 30);
  TEST_ASSERT_EQUAL(FXS_NAV_FIELD_READY, world.nav.fields[0].status);
  nav_wall(&world, 200, 0, 200, 300);
  TEST_ASSERT_EQUAL_UINT8(0, world.nav.field_slots[0].live);
  step(&world, 1);
  TEST_ASSERT_EQUAL_UINT8(1, world.nav.field_slots[0].live);
  // rebuilt over the new map at 100 cells a tick: still in progress, and the wall's cells
  // are blocked in it
  TEST_ASSERT_EQUAL(FXS_NAV_FIELD_BUILDING, world.nav.fields[0].status);
  TEST_ASSERT_EQUAL_UINT32(100, world.nav.fields[0].settled);
  step(&world, 40);
  TEST_ASSERT_EQUAL(FXS_NAV_FIELD_READY, world.nav.fields[0].status);
  TEST_ASSERT_EQUAL_UINT32(FXS_NAV_UNREACHED, fxs_nav_field_value(&world.nav.fields[0], 20, 10));
}

// A group following its field, then the grid removed: no plan runs without a grid, so the
// agents follow no field from then on, and a world restored from a snapshot taken at once
// steps on with the same hash (the field an agent follows is derived, never saved).
void test_a_removed_grid_leaves_no_agent_following_a_field(void) {
  nav_grid(&world, 400);
  group(&world, 5, 40, 40, 300, 300);
  step(&world, 40);
  TEST_ASSERT_TRUE(fxs_world_nav_fields_follows(&world, 0));
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_remove_nav_grid()));
  for (uint32_t i = 0; i < 5; ++i) TEST_ASSERT_FALSE(fxs_world_nav_fields_follows(&world, i));
  size_t size = 0, at = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &size));
  init(&other, &cap, memory2, sizeof memory2);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(&other, snap, size, &at));
  for (int t = 0; t < 300; ++t) {
    step(&world, 1);
    step(&other, 1);
    TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), fxs_world_hash(&other));
  }
}

// ------------------------------------------------------------------ state

void test_every_piece_of_field_state_is_in_the_hash(void) {
  nav_grid(&world, 50);
  group(&world, 4, 100, 60, 300, 150);
  step(&world, 3);
  TEST_ASSERT_EQUAL(FXS_NAV_FIELD_BUILDING, world.nav.fields[0].status);
  uint64_t base = fxs_world_hash(&world);
  fxs_world_nav *n = &world.nav;
#define FLIP(field, bit)                                   \
  do {                                                     \
    field ^= (bit);                                        \
    TEST_ASSERT_NOT_EQUAL(base, fxs_world_hash(&world));   \
    field ^= (bit);                                        \
    TEST_ASSERT_EQUAL_HEX64(base, fxs_world_hash(&world)); \
  } while (0)
  FLIP(n->field_slots[0].live, 1);
  FLIP(n->field_slots[0].goal_cell, 1);
  FLIP(n->field_slots[0].used, 1);
  FLIP(n->field_slots[0].settled, 1);
  FLIP(n->field_slots[0].ready, 1);
  FLIP(n->field_slots[1].live, 1);
#undef FLIP
  // The values, and the field's own counts, are derived: not in the hash.
  n->fields[0].entry[50].value ^= 1;
  n->fields[0].settled ^= 1;
  TEST_ASSERT_EQUAL_HEX64(base, fxs_world_hash(&world));
  n->fields[0].entry[50].value ^= 1;
  n->fields[0].settled ^= 1;
  TEST_ASSERT_EQUAL_UINT32(n->fields[0].settled, n->field_slots[0].settled);
}

// Saved while a field is half built, restored into junk: the same hash every tick after.
void test_a_world_restored_mid_field_build_into_junk_memory_continues_identically(void) {
  nav_grid(&world, 37);
  nav_wall(&world, 200, 0, 200, 300);
  group(&world, 4, 100, 60, 300, 150);
  group(&world, 4, 60, 200, 380, 380);
  step(&world, 9);
  TEST_ASSERT_EQUAL(FXS_NAV_FIELD_BUILDING, world.nav.fields[0].status);
  size_t size = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &size));
  TEST_ASSERT_EQUAL_UINT16(FXS_SNAPSHOT_VERSION_NAV_FIELDS, fxs_load_le16(snap + 4));
  init(&other, &cap, memory2, sizeof memory2);
  memset(other.internal->nav.fields_memory, 0xA5,
         fxs_world_nav_fields_bytes(&cap) * fxs_world_nav_field_builds(&cap));
  memset(other.internal->nav.agent_field, 0x5A, sizeof(uint32_t) * cap.agents);
  memset(other.nav.field_slots, 0x3C, sizeof(fxs_nav_field_slot) * cap.nav_fields);
  memset(other.nav.grid.cost, 0x77, cap.nav_cells);
  size_t at = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(&other, snap, size, &at));
  TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), fxs_world_hash(&other));
  bool ready = false;
  for (int t = 0; t < 800; ++t) {
    step(&world, 1);
    step(&other, 1);
    TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), fxs_world_hash(&other));
    ready = ready || other.nav.fields[1].status == FXS_NAV_FIELD_READY;
  }
  TEST_ASSERT_TRUE(ready);
  // and the agents moved on the rebuilt fields alike, position for position
  for (uint32_t i = 0; i < 8; ++i) {
    TEST_ASSERT_TRUE(fxs_vec2_equal(world.agents[i].body.position, other.agents[i].body.position));
  }
}

void test_corrupt_field_sections_are_refused_and_change_nothing(void) {
  nav_grid(&world, 50);
  group(&world, 4, 100, 60, 300, 150);
  group(&world, 4, 60, 200, 380, 380);
  step(&world, 3);
  size_t size = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &size));
  // the fields section ends the snapshot: slot 0 live (1 + 16 bytes), slot 1 live (1 + 16)
  size_t s0 = size - 34u, s1 = size - 17u;
  TEST_ASSERT_EQUAL_UINT8(1, snap[s0]);
  TEST_ASSERT_EQUAL_UINT8(1, snap[s1]);
  init(&other, &cap, memory2, sizeof memory2);
  uint64_t empty = fxs_world_hash(&other);
  static uint8_t bad[65536];
  struct {
    size_t at;
    uint32_t value;
  } cases[] = {
      {s0, 2},                       // live is 0 or 1
      {s0 + 1, 1600},                // goal outside the grid
      {s0 + 1, cell(380, 380)},      // goal of slot 1 twice
      {s0 + 9, 3},                   // status
      {s0 + 9, FXS_NAV_FIELD_IDLE},  // idle is never live
      {s0 + 13, 1600},               // settled cells beyond the grid
      {s1 + 9, FXS_NAV_FIELD_READY}, // ready with settled cells
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    memcpy(bad, snap, size);
    if (cases[k].at == s0) {
      bad[s0] = (uint8_t)cases[k].value;
    } else {
      for (int b = 0; b < 4; ++b)
        bad[cases[k].at + (size_t)b] = (uint8_t)(cases[k].value >> (8 * b));
    }
    size_t at = 0;
    TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_restore(&other, bad, size, &at));
    TEST_ASSERT_TRUE(at >= s0);
    TEST_ASSERT_EQUAL_HEX64(empty, fxs_world_hash(&other));
  }
  for (size_t cut = size - 40u; cut < size; ++cut) {
    TEST_ASSERT_EQUAL(FXS_ERR_TRUNCATED, fxs_world_restore(&other, snap, cut, 0));
  }
  // A field capacity that differs is refused at the navigation capacities.
  fxs_world_capacity c = cap;
  c.nav_fields = 3;
  static uint64_t memory3[80000];
  fxs_world third;
  init(&third, &c, memory3, sizeof memory3);
  size_t at = 0;
  TEST_ASSERT_EQUAL(FXS_ERR_CAPACITY, fxs_world_restore(&third, snap, size, &at));
  TEST_ASSERT_EQUAL(59u, at);
  fxs_world_capacity read;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_snapshot_capacity(snap, size, &read));
  TEST_ASSERT_EQUAL_UINT32(2, read.nav_fields);
}

void test_a_world_without_fields_keeps_layout_5(void) {
  fxs_world_capacity c = cap;
  c.nav_fields = 0;
  init(&other, &c, memory2, sizeof memory2);
  nav_grid(&other, 50);
  group(&other, 4, 100, 60, 300, 150);
  step(&other, 3);
  size_t size = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&other, snap, sizeof snap, &size));
  TEST_ASSERT_EQUAL_UINT16(FXS_SNAPSHOT_VERSION_NAV, fxs_load_le16(snap + 4));
  TEST_ASSERT_EQUAL(FXS_ROUTE_READY, other.nav.routes[0].status); // A* for everyone
}

// A field said to be in progress after more cells than it has (no world writes one: here the
// goal is blocked, so the field has none) restores, saves back to the same bytes, and is seen
// complete by the next build.
void test_a_field_in_progress_past_its_last_cell_round_trips_and_completes(void) {
  nav_grid(&world, 50);
  nav_wall(&world, 300, 100, 300, 200);
  group(&world, 4, 100, 60, 300, 150); // the goal lies on the wall: blocked
  step(&world, 1);
  TEST_ASSERT_EQUAL_UINT8(1, world.nav.field_slots[0].ready);
  size_t size = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &size));
  size_t s0 = size - 1u - 17u; // slot 0 live (17 bytes), slot 1 free (1 byte)
  TEST_ASSERT_EQUAL_UINT8(1, snap[s0]);
  TEST_ASSERT_EQUAL_UINT8(0, snap[size - 1u]);
  snap[s0 + 9] = FXS_NAV_FIELD_BUILDING;
  snap[s0 + 13] = 7; // settled: 7 cells
  init(&other, &cap, memory2, sizeof memory2);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(&other, snap, size, 0));
  static uint8_t again[65536];
  size_t size2 = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&other, again, sizeof again, &size2));
  TEST_ASSERT_EQUAL_UINT32(size, size2);
  TEST_ASSERT_EQUAL_MEMORY(snap, again, size);
  TEST_ASSERT_EQUAL_UINT8(0, other.nav.field_slots[0].ready);
  step(&other, 1);
  TEST_ASSERT_EQUAL_UINT8(1, other.nav.field_slots[0].ready);
  TEST_ASSERT_EQUAL_UINT32(0, other.nav.field_slots[0].settled);
  TEST_ASSERT_TRUE(other.nav.routes[0].status != FXS_ROUTE_NONE); // cut off: A*
  TEST_ASSERT_EQUAL_UINT32(FXS_NAV_NO_FIELD, other.internal->nav.agent_field[0]);
}
