// Formations on a navigation grid (world_formation.h): squeezed slots, members routed round
// walls, the move command taking a formation whole, determinism across a snapshot.
#include <math.h>
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
#include "world_slots.h"
#include "formation.h"
#include "snapshot.h"
#include "input_limits.h"
#include "fxs_nav_test.h"

// 4 agents, 4 obstacles, 8 walls, a navigation grid of up to 40 x 40 cells, 2 searches of

// 10 agents, 8 walls, a 40 x 40 grid of 10-unit cells, 4 searches of 800 open entries,
// routes of up to 16 waypoints.
static const fxs_world_capacity cap = {10, 0, 0, 0, 8, 0, 0, 1600, 4, 800, 16, 0, 0, 0};
static const fxs_world_capacity no_nav = {10, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0};
static uint64_t memory[60000];
static uint64_t memory2[60000];
static uint8_t snap[65536];
static fxs_world world, other;

void setUp(void) { nav_world_init(&world, 11, &cap, memory, sizeof memory); }
void tearDown(void) {}

static void step(fxs_world *w, int ticks) {
  for (int t = 0; t < ticks; ++t) fxs_world_step(w, 0, 0, 0);
}

// An agent at (x, y), speed 2.5, force 0.25, radius 8.
static fxs_agent_handle body(fxs_world *w, int x, int y) {
  fxs_spawn_def s = fxs_default_spawn_def();
  s.position = nav_point(x, y), s.max_speed = FXS_INT(5) / 2;
  fxs_agent_handle h = {0};
  fxs_command c = fxs_command_spawn(&s);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(w, &c, &h));
  return h;
}

// A member of group 1 following `leader`: `shape`, `spacing` units.
static fxs_agent_handle member(fxs_world *w, int x, int y, fxs_agent_handle leader,
                               fxs_formation_shape shape, int spacing) {
  fxs_agent_handle h = body(w, x, y);
  fxs_formation_def d = fxs_default_formation_def();
  d.shape = shape, d.spacing = FXS_INT(spacing), d.group = 1;
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, fxs_command_add_formation(h, fxs_default_blend(), &d)));
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, fxs_command_set_target_agent(h, leader)));
  return h;
}

// The target agent of h's slot.
static uint32_t leader_of(const fxs_world *w, fxs_agent_handle h) {
  return w->agents[fxs_world_slot_of(w, h.value)].target_agent;
}

static const fxs_agent *agent(const fxs_world *w, fxs_agent_handle h) {
  return fxs_world_agent(w, h);
}

// A member of `group` in a column `spacing` units behind `leader`.
static fxs_agent_handle member_of_group(fxs_world *w, int x, int y, fxs_agent_handle leader,
                                        uint32_t group, int spacing) {
  fxs_agent_handle h = body(w, x, y);
  fxs_formation_def d = fxs_default_formation_def();
  d.shape = FXS_FORMATION_COLUMN, d.spacing = FXS_INT(spacing), d.group = group;
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, fxs_command_add_formation(h, fxs_default_blend(), &d)));
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, fxs_command_set_target_agent(h, leader)));
  return h;
}

// The least distance between the centres of a and b over `ticks` steps, units.
static double closest_over(fxs_world *w, fxs_agent_handle a, fxs_agent_handle b, int ticks) {
  double least = 1e9;
  for (int t = 0; t < ticks; ++t) {
    fxs_world_step(w, 0, 0, 0);
    double dx = fix16_to_dbl(agent(w, a)->position.x) - fix16_to_dbl(agent(w, b)->position.x);
    double dy = fix16_to_dbl(agent(w, a)->position.y) - fix16_to_dbl(agent(w, b)->position.y);
    double d = sqrt(dx * dx + dy * dy);
    least = d < least ? d : least;
  }
  return least;
}

// ------------------------------------------------------------------ squeezed slots

// A column slot 100 units behind a leader at (300, 200) facing +x falls at (200, 200), beyond
// a wall at x = 250. The grid (radius 8, 10-unit cells) blocks columns 24 and 25 (x in
// [240, 260]); the segment is sampled at 21 points, 100/21 units apart, and the 8th, at
// 300 - 800/21 = 261.90476 (cell 26), is the last one the leader's cell sees.
void test_a_slot_beyond_a_wall_is_squeezed_to_the_last_point_the_leader_sees(void) {
  nav_grid(&world, 1000);
  nav_wall(&world, 250, 0, 250, 400);
  fxs_agent_handle leader = body(&world, 300, 200);
  fxs_agent_handle m = member(&world, 320, 260, leader, FXS_FORMATION_COLUMN, 100);
  TEST_ASSERT_NOT_NULL(fxs_world_nav_grid(&world)); // the effective costs, before any step
  fxs_vec2 slot;
  TEST_ASSERT_TRUE(fxs_world_formation_slot(&world, m, &slot));
  // 300 - 800/21 units, rounded to the nearest 1/65536: 19660800 - 2496610 (52428800 / 21
  // = 2496609.52).
  TEST_ASSERT_EQUAL_INT32(17164190, slot.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(200), slot.y);
  // Its cell is walkable and the next sample's is blocked.
  const fxs_nav_grid *g = fxs_world_nav_grid(&world);
  uint32_t cx, cy;
  TEST_ASSERT_TRUE(fxs_nav_grid_cell_of(g, slot, &cx, &cy));
  TEST_ASSERT_EQUAL_UINT32(26, cx);
  TEST_ASSERT_NOT_EQUAL(FXS_NAV_BLOCKED, fxs_nav_grid_cost(g, cx, cy));
  TEST_ASSERT_EQUAL(FXS_NAV_BLOCKED, fxs_nav_grid_cost(g, 25, 20));
  // The leader, the agent itself and a stale handle have no slot.
  TEST_ASSERT_FALSE(fxs_world_formation_slot(&world, leader, &slot));
  fxs_agent_handle stale = {0};
  TEST_ASSERT_FALSE(fxs_world_formation_slot(&world, stale, &slot));
}

// In sight, or without a grid, the slot is the formation's own: fxs_formation_place.
void test_a_slot_in_sight_and_a_slot_without_a_grid_are_the_formations_own(void) {
  nav_grid(&world, 1000);
  nav_wall(&world, 250, 0, 250, 100);
  fxs_agent_handle leader = body(&world, 300, 200);
  fxs_agent_handle m = member(&world, 320, 260, leader, FXS_FORMATION_COLUMN, 100);
  TEST_ASSERT_NOT_NULL(fxs_world_nav_grid(&world)); // the effective costs, before any step
  fxs_vec2 slot;
  TEST_ASSERT_TRUE(fxs_world_formation_slot(&world, m, &slot));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(200), slot.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(200), slot.y);
  nav_world_init(&other, 11, &no_nav, memory2, sizeof memory2);
  nav_wall(&other, 250, 0, 250, 400);
  leader = body(&other, 300, 200);
  m = member(&other, 320, 260, leader, FXS_FORMATION_COLUMN, 100);
  TEST_ASSERT_TRUE(fxs_world_formation_slot(&other, m, &slot));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(200), slot.x); // in the wall: no grid, no squeezing
}

// Formation members' bodies are solid (world_crowd.h, fxs_has_solid_body): two members of
// two groups behind one leader at (200, 200) facing +x have the same slot, (150, 200), and
// come at it head-on from y = 120 and y = 280. Each closes at most half the gap, so their
// bodies (radius 8) overlap by at most the give, (8 + 8) / 40 = 0.4 units, plus their
// slack. An arrive agent in the second member's place is not solid: the member keeps off
// it, but it walks on into the member.
void test_formation_members_keep_their_bodies_apart_and_other_agents_do_not(void) {
  fxs_agent_handle leader = body(&world, 200, 200);
  fxs_agent_handle a = member_of_group(&world, 150, 120, leader, 1, 50);
  fxs_agent_handle b = member_of_group(&world, 150, 280, leader, 2, 50);
  double members = closest_over(&world, a, b, 300);
  TEST_ASSERT_TRUE(members >=
                   16.0 - 0.4 - 2 * fix16_to_dbl(fxs_agent_contact_slack(agent(&world, a))));
  TEST_ASSERT_TRUE(members < 16.5); // they do meet at the slot

  nav_world_init(&other, 11, &cap, memory2, sizeof memory2);
  leader = body(&other, 200, 200);
  a = member_of_group(&other, 150, 120, leader, 1, 50);
  b = body(&other, 150, 280);
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&other, fxs_command_add_arrive(b, fxs_default_blend(), 0)));
  TEST_ASSERT_EQUAL(FXS_OK,
                    nav_apply(&other, fxs_command_set_target_point(b, nav_point(150, 200))));
  TEST_ASSERT_TRUE(closest_over(&other, a, b, 300) < 15.0); // overlapping 1 unit and more
}

// A wedge whose leader stands in a corridor 40 units wide (walls at y = 180 and 220): every
// slot folds into the corridor (its cell walkable, in sight of the leader's) on its own
// segment leader -> slot.
void test_a_wedge_folds_into_the_leaders_corridor(void) {
  nav_grid(&world, 1000);
  nav_wall(&world, 0, 175, 400, 175);
  nav_wall(&world, 0, 225, 400, 225);
  fxs_agent_handle leader = body(&world, 300, 200);
  fxs_agent_handle m[6];
  for (int i = 0; i < 6; ++i) {
    m[i] = member(&world, 250 - 20 * i, 200, leader, FXS_FORMATION_WEDGE, 30);
  }
  const fxs_nav_grid *g = fxs_world_nav_grid(&world); // the effective costs, before any step
  for (int i = 0; i < 6; ++i) {
    fxs_vec2 slot;
    TEST_ASSERT_TRUE(fxs_world_formation_slot(&world, m[i], &slot));
    uint32_t cx, cy;
    TEST_ASSERT_TRUE(fxs_nav_grid_cell_of(g, slot, &cx, &cy));
    TEST_ASSERT_NOT_EQUAL(FXS_NAV_BLOCKED, fxs_nav_grid_cost(g, cx, cy));
    TEST_ASSERT_TRUE(fxs_nav_line_of_sight(g, 30, 20, cx, cy));
    // Between the walls, behind the leader, on the line from the leader to the unsqueezed
    // slot (-r 30, +-r 30): |dy| == |dx| within rounding.
    TEST_ASSERT_TRUE(slot.y > FXS_INT(183) && slot.y < FXS_INT(217));
    int64_t dx = (int64_t)FXS_INT(300) - slot.x, dy = (int64_t)slot.y - FXS_INT(200);
    TEST_ASSERT_TRUE(dx > 0);
    TEST_ASSERT_TRUE(dy - dx <= 1 && dy - dx >= -1 ? true : dy + dx <= 1 && dy + dx >= -1);
  }
}

// ------------------------------------------------------------------ routes

// A member behind a wall (x = 200, y in [0, 300]) with its slot beyond it: it gets a route,
// goes round the wall's end and rests in its slot; its centre never crosses the wall. Without
// a grid the same member presses against the wall.
void test_a_member_behind_a_wall_routes_round_it_into_its_slot(void) {
  nav_grid(&world, 1000);
  fxs_wall wall = {nav_point(200, 0), nav_point(200, 300)};
  nav_wall(&world, 200, 0, 200, 300);
  fxs_agent_handle leader = body(&world, 300, 150);
  fxs_agent_handle m = member(&world, 100, 150, leader, FXS_FORMATION_COLUMN, 40);
  step(&world, 1);
  fxs_vec2 points[16];
  uint32_t next = 0;
  TEST_ASSERT_TRUE(fxs_world_nav_route(&world, m, points, 16, &next) >= 2);
  fxs_vec2 before = agent(&world, m)->position;
  int t = 0;
  for (; t < 600; ++t) {
    step(&world, 1);
    fxs_vec2 now = agent(&world, m)->position;
    TEST_ASSERT_FALSE(nav_crosses(before, now, wall));
    before = now;
    if (fxs_vec2_is_zero(agent(&world, m)->velocity) && t > 10) break;
  }
  TEST_ASSERT_TRUE(t < 600);
  // At rest in its slot (260, 150), within the arrival radius, its route dropped.
  fxs_vec2 slot;
  TEST_ASSERT_TRUE(fxs_world_formation_slot(&world, m, &slot));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(260), slot.x);
  TEST_ASSERT_TRUE(fxs_vec2_within(agent(&world, m)->position, slot, FXS_ONE / 4));
  TEST_ASSERT_EQUAL_UINT32(0, fxs_world_nav_route(&world, m, points, 16, &next));

  nav_world_init(&other, 11, &no_nav, memory2, sizeof memory2);
  nav_wall(&other, 200, 0, 200, 300);
  leader = body(&other, 300, 150);
  m = member(&other, 100, 150, leader, FXS_FORMATION_COLUMN, 40);
  step(&other, 600);
  TEST_ASSERT_TRUE(agent(&other, m)->position.x < FXS_INT(200)); // stuck at the wall
}

// ------------------------------------------------------------------ moves

// A move of the whole group (leader and members, one group tag) or of one member goes to the
// leader: it gets the destination itself, the members keep following it.
void test_a_move_of_formation_members_moves_their_leader(void) {
  nav_grid(&world, 1000);
  fxs_agent_handle leader = body(&world, 100, 100);
  fxs_agent_handle m1 = member(&world, 70, 130, leader, FXS_FORMATION_WEDGE, 30);
  fxs_agent_handle m2 = member(&world, 70, 70, leader, FXS_FORMATION_WEDGE, 30);
  fxs_command moves[3] = {fxs_command_move(leader, 7, nav_point(300, 300), FXS_INT(20)),
                          fxs_command_move(m1, 7, nav_point(300, 300), FXS_INT(20)),
                          fxs_command_move(m2, 7, nav_point(300, 300), FXS_INT(20))};
  fxs_result results[3];
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&world, moves, 3, results));
  for (int i = 0; i < 3; ++i) TEST_ASSERT_EQUAL(FXS_OK, results[i]);
  const fxs_agent_slot *ls = &world.agents[fxs_world_slot_of(&world, leader.value)];
  TEST_ASSERT_EQUAL_INT32(FXS_INT(300), ls->target_point.x); // the destination itself
  TEST_ASSERT_EQUAL_INT32(FXS_INT(300), ls->target_point.y);
  TEST_ASSERT_EQUAL_UINT32(leader.value, leader_of(&world, m1));
  TEST_ASSERT_EQUAL_UINT32(leader.value, leader_of(&world, m2));
  // One member alone: the same.
  fxs_command one = fxs_command_move(m1, 8, nav_point(50, 350), 0);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &one, 0));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(50), ls->target_point.x);
  TEST_ASSERT_EQUAL_UINT32(leader.value, leader_of(&world, m1));
  // The move of a member whose leader another player owns is refused as the leader's would be.
  fxs_spawn_def s = fxs_default_spawn_def();
  s.position = nav_point(200, 200), s.owned = 1;
  fxs_command spawn = fxs_command_spawn(&s);
  spawn.source = 2;
  fxs_agent_handle owned = {0};
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &spawn, &owned));
  fxs_agent_handle m3 = member(&world, 170, 200, owned, FXS_FORMATION_WEDGE, 30);
  fxs_command theirs = fxs_command_move(m3, 9, nav_point(50, 50), 0);
  theirs.source = 1;
  TEST_ASSERT_EQUAL(FXS_ERR_NOT_OWNER, fxs_world_apply(&world, &theirs, 0));
  TEST_ASSERT_EQUAL_UINT32(owned.value, leader_of(&world, m3));
}

// ------------------------------------------------------------------ determinism

// A navigate leader through a door with a wedge of six: saved while members follow routes,
// restored into junk-filled memory, both continue with the same hash every tick; the routes
// members hold are part of the hash.
void test_a_formation_restored_mid_route_into_junk_memory_continues_identically(void) {
  nav_grid(&world, 200);
  nav_wall(&world, 200, 0, 200, 170);
  nav_wall(&world, 200, 230, 200, 400);
  fxs_agent_handle leader = nav_navigator(&world, 100, 100, 330, 300);
  for (int i = 0; i < 6; ++i) {
    member(&world, 60 - 10 * i, 60 + 15 * i, leader, FXS_FORMATION_WEDGE, 30);
  }
  bool routed = false;
  int t = 0;
  for (; t < 400 && !routed; ++t) {
    step(&world, 1);
    for (uint32_t i = 1; i < 7; ++i) {
      routed = routed || world.nav.routes[i].status == FXS_ROUTE_READY;
    }
  }
  TEST_ASSERT_TRUE(routed);
  size_t size = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &size));
  nav_world_init(&other, 11, &cap, memory2, sizeof memory2);
  // Junk in every search (free ones too), the effective costs and the routes.
  size_t search_bytes = fxs_world_nav_search_bytes(&cap) * cap.nav_searches;
  memset(other.internal->nav.search_memory, 0xA5, search_bytes);
  memset(other.internal->nav.scratch, 0xC3, cap.nav_cells * sizeof(uint32_t));
  memset(other.internal->nav.check.check_state, 0x3C, cap.nav_cells);
  memset(other.nav.grid.cost, 0x5A, cap.nav_cells);
  memset(other.nav.routes, 0x3C, sizeof(fxs_nav_route) * cap.agents);
  size_t at = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(&other, snap, size, &at));
  TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), fxs_world_hash(&other));
  // The member routes are state: a member's waypoint changed changes the hash.
  uint32_t i = 1;
  while (i < 7 && other.nav.routes[i].count == 0) ++i;
  TEST_ASSERT_TRUE(i < 7);
  uint32_t *first = &other.nav.waypoints[(size_t)i * cap.nav_waypoints];
  *first ^= 1;
  TEST_ASSERT_NOT_EQUAL(fxs_world_hash(&world), fxs_world_hash(&other));
  *first ^= 1;
  TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), fxs_world_hash(&other));
  for (int k = 0; k < 700; ++k) {
    step(&world, 1);
    step(&other, 1);
    TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), fxs_world_hash(&other));
  }
  // Every member ends within a body radius of its slot, through the door.
  for (uint32_t k = 1; k < 7; ++k) {
    fxs_vec2 slot;
    TEST_ASSERT_TRUE(fxs_world_formation_slot(&world, fxs_world_handle_at(&world, k), &slot));
    TEST_ASSERT_TRUE(fxs_vec2_within(world.agents[k].body.position, slot, FXS_INT(8)));
    TEST_ASSERT_TRUE(world.agents[k].body.position.x > FXS_INT(200));
  }
}
