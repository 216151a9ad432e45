// A rollback session saves the world every tick and restores it when a late input arrives;
// a replay's keyframes and a join do the same. So every state the step and the accepted
// commands leave must save a snapshot that restores into the same hash and steps on the same.
// Random command streams (seeded) over a small navigating world with group fields,
// formations, walls, obstacles, cost changes, grids set and removed, moves and despawns:
// every tick the world is saved and restored into a second world, and both step on with the
// tick's commands.
#include <stdio.h>
#include <string.h>
#include "unity.h"
#include "fxs_test_util.h"
#include "vec2.h"
#include "rng.h"
#include "manager.h"
#include "avoidance.h"
#include "result.h"
#include "command.h"
#include "command_build.h"
#include "world.h"
#include "nav_grid.h"
#include "nav_path.h"
#include "orca.h"
#include "formation.h"
#include "snapshot.h"
#include "input_limits.h"
#include "fxs_nav_test.h"

// 12 agents, 4 obstacles, 6 walls, a flow field and a navigation grid of up to 400 cells,
// 2 searches of 48 open entries (small: searches run out of room), routes of 3 waypoints (cut
// short: re-planned), 2 group fields.
#define AGENTS 12u
static const fxs_world_capacity cap = {AGENTS, 4, 1, 4, 6, 0, 400, 400, 2, 48, 3, 2, 0, 0};
static uint64_t memory[20000];
static uint64_t memory2[20000];
static uint8_t snap[32768];
static fxs_world world, other;
static fxs_rng rng;

void setUp(void) {}
void tearDown(void) {}

static uint32_t below(uint32_t n) { return fxs_rng_below(&rng, n); }
// Every draw in its own statement: the order in which a call's arguments are evaluated is
// the compiler's choice, and the streams must be the same on every platform.
static fxs_vec2 any_point(void) {
  int x = (int)below(400);
  return nav_point(x, (int)below(400));
}

// One of a few shared goals, so that groups form and share fields.
static fxs_vec2 goal_point(void) {
  static const int g[5][2] = {{350, 350}, {30, 370}, {370, 30}, {200, 200}, {100, 100}};
  uint32_t k = below(5);
  return nav_point(g[k][0], g[k][1]);
}

static fxs_command random_grid(void) {
  static const uint32_t shapes[4][3] = {{20, 20, 20}, {10, 10, 40}, {16, 12, 25}, {8, 5, 50}};
  uint32_t k = below(5);
  if (k == 4) return fxs_command_remove_nav_grid();
  fix16_t radius = FXS_INT((int)below(10));
  return fxs_command_set_nav_grid(nav_point(0, 0), FXS_INT(shapes[k][2]), shapes[k][0],
                                  shapes[k][1], radius, 1 + below(40));
}

static fxs_command random_costs(const fxs_world *w) {
  uint32_t gw = w->nav.grid.width ? w->nav.grid.width : 1;
  uint32_t gh = w->nav.grid.height ? w->nav.grid.height : 1;
  uint32_t x = below(gw), y = below(gh);
  uint32_t columns = 1 + below(gw - x), rows = 1 + below(gh - y);
  uint8_t cost = below(3) == 0 ? 0 : (uint8_t)(1 + below(5));
  return fxs_command_set_nav_costs(x, y, columns, rows, cost);
}

static fxs_command random_field(const fxs_world *w) {
  if (below(2)) return fxs_command_fill_field_goal(goal_point());
  const fxs_nav_grid *g = &w->nav.grid;
  return fxs_command_set_field_grid(g->origin, g->cell_size ? g->cell_size : FXS_INT(20),
                                    g->width ? g->width : 20, g->height ? g->height : 20);
}

// A command of any kind the stream uses (some are refused: a removed slot, a bad shape).
static fxs_command random_command(const fxs_world *w) {
  fxs_agent_handle a = fxs_world_handle_at(w, below(AGENTS));
  fxs_orca_def orca = fxs_default_orca_def();
  fxs_formation_def formation = fxs_default_formation_def();
  switch (below(20)) {
    case 0:
    case 1: {
      fxs_spawn_def s = fxs_default_spawn_def();
      s.position = any_point();
      s.max_speed = FXS_INT(1 + (int)below(4));
      s.radius = FXS_INT(2 + (int)below(8));
      return fxs_command_spawn(&s);
    }
    case 2:
      return fxs_command_despawn(a);
    case 3:
    case 4:
      return fxs_command_add_navigate(a, fxs_default_blend(), FXS_INT(20), &orca);
    case 5:
      return fxs_command_clear_behaviors(a, FXS_COMBINE_WEIGHTED_SUM);
    case 6:
    case 7:
      return fxs_command_set_target_point(a, goal_point());
    case 8:
      formation.shape = (fxs_formation_shape)below(4);
      formation.group = below(2);
      return fxs_command_add_formation(a, fxs_default_blend(), &formation);
    case 9:
      return fxs_command_set_target_agent(a, fxs_world_handle_at(w, below(AGENTS)));
    case 10: {
      fxs_wall x;
      x.a = any_point();
      x.b = any_point();
      return fxs_command_add_wall(x);
    }
    case 11:
      return fxs_command_remove_wall(below(6));
    case 12: {
      fxs_obstacle o;
      o.center = any_point();
      o.radius = FXS_INT(5 + (int)below(30));
      return fxs_command_add_obstacle(o);
    }
    case 13:
      return fxs_command_remove_obstacle(below(4));
    case 14:
      return random_grid();
    case 15:
      return random_costs(w);
    case 16: {
      uint32_t group = below(2);
      fxs_vec2 to = goal_point();
      return fxs_command_move(a, group, to, FXS_INT((int)below(4)));
    }
    case 17:
      return random_field(w);
    case 18:
      return fxs_command_add_seek(a, fxs_default_blend());
    default:
      return fxs_command_set_target_point(a, any_point());
  }
}

// What the runs reached, so that the test fails if the streams stop reaching the states that
// matter (a route waiting with a search, routes cut short or ended by a full open list,
// fields ready and being built, a grid removed).
typedef struct reached {
  uint32_t waiting_with_search, partial, open_full, field_ready, field_building, no_grid;
} reached;
static reached seen;
static uint64_t digest; // every run's final hash folded in: the same on every platform

static void count_states(const fxs_world *w) {
  for (uint32_t i = 0; i < AGENTS; ++i) {
    const fxs_nav_route *r = &w->nav.routes[i];
    seen.waiting_with_search += r->status == FXS_ROUTE_WAITING && r->search != 0;
    seen.partial += r->status == FXS_ROUTE_READY && r->partial;
    seen.open_full += r->status == FXS_ROUTE_READY && r->reached == FXS_NAV_OPEN_FULL;
  }
  for (uint32_t k = 0; k < cap.nav_fields; ++k) {
    const fxs_nav_field_slot *f = &w->nav.field_slots[k];
    seen.field_ready += f->live && f->ready;
    seen.field_building += f->live && !f->ready;
  }
  seen.no_grid += w->nav.grid.width == 0;
}

// `ticks` ticks of seed `seed`, up to `most` commands a tick (0: one every 12 ticks or so).
static void run(uint64_t seed, int ticks, uint32_t most) {
  nav_world_init(&world, seed, &cap, memory, sizeof memory);
  nav_world_init(&other, seed, &cap, memory2, sizeof memory2);
  fxs_rng_seed(&rng, seed * 7919u + 3u);
  fxs_command grid = fxs_command_set_nav_grid(nav_point(0, 0), FXS_INT(20), 20, 20, FXS_INT(6), 30);
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, grid));
  for (int i = 0; i < 8; ++i) nav_navigator(&world, 20 + 40 * i, 20 + 30 * i, 350, 350);
  size_t bound = fxs_world_snapshot_bound(&cap);
  char where[96];
  for (int t = 0; t < ticks; ++t) {
    snprintf(where, sizeof where, "seed %u, tick %d", (unsigned)seed, t);
    size_t size = 0, at = 0;
    TEST_ASSERT_EQUAL_MESSAGE(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &size), where);
    TEST_ASSERT_TRUE_MESSAGE(size <= bound, where);
    TEST_ASSERT_EQUAL_MESSAGE(FXS_OK, fxs_world_restore(&other, snap, size, &at), where);
    TEST_ASSERT_EQUAL_HEX64_MESSAGE(fxs_world_hash(&world), fxs_world_hash(&other), where);
    fxs_command a[8], b[8];
    uint32_t n = most == 0 ? (below(12) == 0) : below(most + 1u);
    for (uint32_t k = 0; k < n; ++k) a[k] = b[k] = random_command(&world);
    fxs_world_step(&world, a, n, 0);
    fxs_world_step(&other, b, n, 0);
    TEST_ASSERT_EQUAL_HEX64_MESSAGE(fxs_world_hash(&world), fxs_world_hash(&other), where);
    count_states(&world);
  }
  digest = (digest << 7 | digest >> 57) ^ fxs_world_hash(&world);
}

void test_every_tick_of_random_navigating_worlds_restores_and_steps_on_the_same(void) {
  for (uint64_t seed = 1; seed <= 40; ++seed) run(seed, 300, 3);
  for (uint64_t seed = 100; seed <= 110; ++seed) run(seed, 800, 0);
  FXS_TEST_REPORT(
      "routes waiting with a search %u, cut short %u, ended by a full open list %u; "
      "fields ready %u, being built %u; ticks without a grid %u",
      seen.waiting_with_search, seen.partial, seen.open_full, seen.field_ready, seen.field_building,
      seen.no_grid);
  FXS_TEST_REPORT("final hashes' digest %08x%08x (the same on every platform)",
                  (unsigned)(digest >> 32), (unsigned)digest);
  TEST_ASSERT_TRUE(seen.waiting_with_search > 0 && seen.partial > 0 && seen.open_full > 0);
  TEST_ASSERT_TRUE(seen.field_ready > 0 && seen.field_building > 0 && seen.no_grid > 0);
}
