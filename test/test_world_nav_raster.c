#include <string.h>
#include "unity.h"
#include "vec2.h"
#include "avoidance.h"
#include "result.h"
#include "command.h"
#include "command_build.h"
#include "world.h"
#include "nav_grid.h"
#include "snapshot.h"
#include "nav_grid_spans.h"
#include "fxs_nav_test.h"

// The incremental rasterization of the navigation grid (world_nav_raster.h): after any
// sequence of wall and obstacle additions and removals, cost changes, steps, snapshots and
// restores, the world's effective costs equal a full rasterization of its state, cell by cell.

void setUp(void) {}
void tearDown(void) {}

// ------------------------------------------------------------------ runs vs block_*

#define RUN_SIDE 64
static uint8_t run_cells[RUN_SIDE * RUN_SIDE];
static uint8_t block_cells[RUN_SIDE * RUN_SIDE];
static uint32_t runs_seen, last_row;

static void mark_run(void *context, uint32_t cy, uint32_t c0, uint32_t c1) {
  fxs_nav_grid *g = (fxs_nav_grid *)context;
  TEST_ASSERT_TRUE(c0 <= c1 && c1 < g->width && cy < g->height);
  TEST_ASSERT_TRUE(runs_seen == 0 || cy > last_row); // one run a row, rows in order
  runs_seen++, last_row = cy;
  for (uint32_t x = c0; x <= c1; ++x) run_cells[cy * g->width + x] = FXS_NAV_BLOCKED;
}

static fxs_vec2 random_point(fix16_t lo, fix16_t hi) {
  return fxs_vec2_make(nav_between(lo, hi), nav_between(lo, hi));
}

void test_runs_cover_exactly_the_cells_the_full_rasterization_blocks(void) {
  uint32_t differences = 0, blocked = 0;
  for (uint32_t seed = 1; seed <= 6000; ++seed) {
    *nav_rng() = seed * 2654435761u;
    uint32_t w = 1 + nav_below(RUN_SIDE), h = 1 + nav_below(RUN_SIDE);
    fix16_t cell = seed % 6 == 0   ? nav_between(1, 64)
                   : seed % 3 == 0 ? nav_between(1, FXS_INT(1))
                                   : nav_between(1, FXS_INT(12)); // tiny too
    fxs_vec2 origin = random_point(-FXS_INT(300), FXS_INT(300));
    fxs_nav_grid g;
    TEST_ASSERT_EQUAL(
        FXS_OK, fxs_nav_grid_init(&g, block_cells, sizeof block_cells, w, h, origin, cell, 1));
    memset(run_cells, 1, w * h);
    fix16_t radius = nav_below(4) == 0 ? 0 : nav_between(0, FXS_INT(40));
    if (seed % 3 == 0 && nav_below(2) == 0)
      radius = nav_between(0, cell * 8); // fat and thin in cells
    fix16_t span = (fix16_t)((int64_t)cell * (w > h ? w : h));
    fix16_t lo = origin.x < origin.y ? origin.x : origin.y;
    runs_seen = 0;
    if (seed % 2 == 0) {
      fxs_wall wall = {random_point(lo - span / 4, lo + span + span / 4),
                       random_point(lo - span / 4, lo + span + span / 4)};
      if (seed % 10 == 0) wall.b = wall.a;     // a point
      if (seed % 10 == 2) wall.b.y = wall.a.y; // level
      if (seed % 10 == 4) wall.b.x = wall.a.x; // upright
      fxs_nav_grid_block_wall(&g, &wall, radius, 0);
      fxs_nav_grid_wall_spans(&g, &wall, radius, mark_run, &g);
    } else {
      fxs_obstacle o = {random_point(lo - span / 4, lo + span + span / 4), nav_between(0, span)};
      if (seed % 10 == 1) o.radius = 0;
      fxs_nav_grid_block_obstacle(&g, &o, radius, 0);
      fxs_nav_grid_obstacle_spans(&g, &o, radius, mark_run, &g);
    }
    for (uint32_t i = 0; i < w * h; ++i) {
      differences += run_cells[i] != block_cells[i];
      blocked += block_cells[i] == FXS_NAV_BLOCKED;
    }
  }
  TEST_ASSERT_EQUAL_UINT32(0, differences);
  TEST_ASSERT_TRUE(blocked > 100000); // the shapes did block cells
}

// Walls from far across the Q16.16 range through grids of tiny cells: where a row's x of
// the wall is known only to thousands of cells, the run is found by walking in from its
// candidates, one test a column. The same cells as the full rasterization.
void test_runs_of_far_walls_over_tiny_cells_equal_the_full_rasterization(void) {
  uint32_t differences = 0, blocked = 0;
  for (uint32_t seed = 1; seed <= 400; ++seed) {
    *nav_rng() = seed * 0x85EBCA6Bu;
    uint32_t w = 8 + nav_below(RUN_SIDE - 7), h = 8 + nav_below(RUN_SIDE - 7);
    fix16_t cell = nav_between(1, 256);
    fxs_vec2 origin = random_point(-FXS_INT(100), FXS_INT(100));
    fxs_nav_grid g;
    TEST_ASSERT_EQUAL(
        FXS_OK, fxs_nav_grid_init(&g, block_cells, sizeof block_cells, w, h, origin, cell, 1));
    memset(run_cells, 1, w * h);
    // Through a point of the grid, from a far point to its mirror image (or to the point).
    fxs_vec2 p = fxs_vec2_make(origin.x + (fix16_t)nav_below(w * (uint32_t)cell),
                               origin.y + (fix16_t)nav_below(h * (uint32_t)cell));
    fxs_vec2 far = random_point(FXS_MIN + 2, FXS_MAX - 1);
    int64_t bx = 2 * (int64_t)p.x - far.x, by = 2 * (int64_t)p.y - far.y;
    fxs_wall wall = {far, p};
    if (bx > FXS_MIN && bx < FXS_MAX && by > FXS_MIN && by < FXS_MAX)
      wall.b = fxs_vec2_make((fix16_t)bx, (fix16_t)by);
    fix16_t radius = nav_between(0, cell * 12);
    runs_seen = 0;
    fxs_nav_grid_block_wall(&g, &wall, radius, 0);
    fxs_nav_grid_wall_spans(&g, &wall, radius, mark_run, &g);
    for (uint32_t i = 0; i < w * h; ++i) {
      differences += run_cells[i] != block_cells[i];
      blocked += block_cells[i] == FXS_NAV_BLOCKED;
    }
  }
  TEST_ASSERT_EQUAL_UINT32(0, differences);
  TEST_ASSERT_TRUE(blocked > 10000);
}

void test_negative_radii_give_no_runs(void) {
  fxs_nav_grid g;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_grid_init(&g, block_cells, sizeof block_cells, 8, 8,
                                              fxs_vec2_zero(), FXS_INT(1), 1));
  fxs_wall wall = {fxs_vec2_zero(), nav_point(8, 8)};
  fxs_obstacle o = {nav_point(4, 4), FXS_INT(2)};
  runs_seen = 0;
  fxs_nav_grid_wall_spans(&g, &wall, -1, mark_run, &g);
  fxs_nav_grid_obstacle_spans(&g, &o, -1, mark_run, &g);
  o.radius = -1;
  fxs_nav_grid_obstacle_spans(&g, &o, 0, mark_run, &g);
  TEST_ASSERT_EQUAL_UINT32(0, runs_seen);
}

// ------------------------------------------------------------------ the world

#define WALLS 12
#define OBSTACLES 12
#define COLS 50
#define ROWS 37
static const fxs_world_capacity cap = {4,          OBSTACLES, 0,   0,  WALLS, 0, 0,
                                       COLS *ROWS, 2,         400, 16, 0,     0, 0};
static uint64_t memory[2][40000];
static fxs_world worlds[2];
static uint8_t reference_cost[COLS * ROWS];
static uint8_t snaps[3][24000];
static size_t snap_size[3];

static const fxs_vec2 grid_origin = {-FXS_INT(37) - 16384, FXS_INT(13) + 32768};
static const fix16_t grid_cell = FXS_INT(7) + 49152; // 7.75

// base costs, every live wall and obstacle blocked with the old whole-map functions.
static void full_rasterization(const fxs_world *w, uint8_t *out) {
  fxs_nav_grid g = w->nav.grid;
  g.cost = out;
  memcpy(out, w->nav.base, (size_t)g.width * g.height);
  for (uint32_t i = 0; i < w->capacity.walls; ++i) {
    if (w->wall_alive[i]) fxs_nav_grid_block_wall(&g, &w->walls[i], w->nav.radius, 0);
  }
  for (uint32_t i = 0; i < w->capacity.obstacles; ++i) {
    if (w->obstacle_alive[i]) fxs_nav_grid_block_obstacle(&g, &w->obstacles[i], w->nav.radius, 0);
  }
}

static uint32_t compared;

static void assert_grid_is_full_rasterization(fxs_world *w) {
  const fxs_nav_grid *g = fxs_world_nav_grid(w);
  TEST_ASSERT_NOT_NULL(g);
  full_rasterization(w, reference_cost);
  TEST_ASSERT_EQUAL_UINT8_ARRAY(reference_cost, g->cost, (size_t)g->width * g->height);
  compared++;
}

static fxs_command set_grid(fix16_t radius) {
  return fxs_command_set_nav_grid(grid_origin, grid_cell, COLS, ROWS, radius, 64);
}

static fix16_t random_radius(void) {
  static const fix16_t radii[4] = {0, FXS_INT(3), FXS_INT(8) + 32768, FXS_INT(21)};
  return radii[nav_below(4)];
}

// A random map command: mostly additions and removals, some cost blocks.
static fxs_command random_map_command(const fxs_world *w) {
  fix16_t lo = grid_origin.x - FXS_INT(40), hi = grid_origin.x + COLS * grid_cell + FXS_INT(40);
  uint32_t kind = nav_below(10);
  if (kind < 3) {
    fxs_wall wall = {random_point(lo, hi), random_point(lo, hi)};
    if (nav_below(3) == 0) { // a short one
      wall.b = fxs_vec2_add(wall.a, fxs_vec2_make(nav_between(-FXS_INT(20), FXS_INT(20)),
                                                  nav_between(-FXS_INT(20), FXS_INT(20))));
    }
    return fxs_command_add_wall(wall);
  }
  if (kind < 5) {
    fxs_obstacle o = {random_point(lo, hi), nav_below(3) == 0 ? nav_between(0, FXS_INT(150))
                                                              : nav_between(0, FXS_INT(20))};
    return fxs_command_add_obstacle(o);
  }
  if (kind < 7) {
    uint32_t i = nav_below(WALLS);
    return w->wall_alive[i] || nav_below(4) != 0 ? fxs_command_remove_wall(i)
                                                 : fxs_command_remove_wall(nav_below(WALLS));
  }
  if (kind < 9) return fxs_command_remove_obstacle(nav_below(OBSTACLES));
  uint32_t x = nav_below(COLS), y = nav_below(ROWS);
  return fxs_command_set_nav_costs(x, y, 1 + nav_below(COLS - x), 1 + nav_below(ROWS - y),
                                   nav_below(255));
}

static void init_world(fxs_world *w, uint64_t *mem) {
  TEST_ASSERT_TRUE(fxs_world_memory_size(&cap) <= sizeof memory[0]);
  nav_world_init(w, 3, &cap, mem, sizeof memory[0]);
}

void test_incremental_grid_equals_full_rasterization_over_random_sequences(void) {
  uint32_t restores = 0, applied = 0;
  compared = 0;
  for (uint32_t seed = 1; seed <= 60; ++seed) {
    *nav_rng() = seed * 0x9E3779B9u;
    fxs_world *w = &worlds[0];
    init_world(w, memory[0]);
    TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, set_grid(random_radius())));
    memset(snap_size, 0, sizeof snap_size);
    for (int op = 0; op < 300; ++op) {
      uint32_t kind = nav_below(100);
      if (kind < 60) {
        fxs_command c = random_map_command(w);
        applied += nav_apply(w, c) == FXS_OK;
      } else if (kind < 75) { // a tick with several map commands
        fxs_command list[6];
        uint32_t n = 1 + nav_below(6);
        for (uint32_t k = 0; k < n; ++k) list[k] = random_map_command(w);
        fxs_world_step(w, list, n, 0);
      } else if (kind < 83) {
        uint32_t k = nav_below(3);
        TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(w, snaps[k], sizeof snaps[k], &snap_size[k]));
      } else if (kind < 93) {
        uint32_t k = nav_below(3);
        if (snap_size[k] == 0) continue;
        TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(w, snaps[k], snap_size[k], 0));
        restores++;
      } else if (kind < 96) { // the same grid again, maybe another radius: everything anew
        TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, set_grid(random_radius())));
      } else {
        fxs_world_step(w, 0, 0, 0);
      }
      if (nav_below(3) != 0) assert_grid_is_full_rasterization(w); // else changes pile up
    }
    assert_grid_is_full_rasterization(w);
    // The same state restored into a fresh world (rasterized whole) and into one that holds
    // another map (brought over slot by slot): the same costs.
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(w, snaps[0], sizeof snaps[0], &snap_size[0]));
    init_world(&worlds[1], memory[1]);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(&worlds[1], snaps[0], snap_size[0], 0));
    assert_grid_is_full_rasterization(&worlds[1]);
    TEST_ASSERT_EQUAL_UINT8_ARRAY(w->nav.grid.cost, worlds[1].nav.grid.cost, COLS * ROWS);
  }
  TEST_ASSERT_TRUE(compared > 10000);
  TEST_ASSERT_TRUE(restores > 1000);
  TEST_ASSERT_TRUE(applied > 3000);
}

// A map change touches only its cells: adding an obstacle leaves every other cell's cover
// as it was, and removing it gives back the very costs from before.
void test_an_obstacle_added_then_removed_gives_back_the_same_costs(void) {
  fxs_world *w = &worlds[0];
  init_world(w, memory[0]);
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, set_grid(FXS_INT(3))));
  fxs_obstacle big = {fxs_vec2_make(FXS_INT(150), FXS_INT(150)), FXS_INT(100)};
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, fxs_command_add_obstacle(big)));
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, fxs_command_set_nav_costs(0, 0, 10, 10, 7)));
  uint8_t before[COLS * ROWS];
  memcpy(before, fxs_world_nav_grid(w)->cost, sizeof before);
  fxs_obstacle small = {fxs_vec2_make(-FXS_INT(20), FXS_INT(280)), FXS_INT(10)};
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, fxs_command_add_obstacle(small)));
  const fxs_nav_grid *g = fxs_world_nav_grid(w);
  uint32_t changed = 0;
  for (uint32_t i = 0; i < COLS * ROWS; ++i) changed += g->cost[i] != before[i];
  TEST_ASSERT_TRUE(changed > 0); // it blocked cells the big one had not
  assert_grid_is_full_rasterization(w);
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, fxs_command_remove_obstacle(1)));
  TEST_ASSERT_EQUAL_UINT8_ARRAY(before, fxs_world_nav_grid(w)->cost, COLS * ROWS);
}

// ------------------------------------------------------------------ rollback

// The map commands of tick t (the same for the straight run and the rollback run).
static uint32_t tick_commands(uint32_t t, const fxs_world *w, fxs_command *list) {
  *nav_rng() = 0x1234567u + t * 7919u;
  uint32_t n = 0;
  if (t % 3 == 0) {
    for (uint32_t k = 0; k < 1 + t % 4; ++k) list[n++] = random_map_command(w);
  }
  return n;
}

// Navigators route over a map that changes every few ticks; one run goes straight, the other
// rolls back 4 ticks every 5 and simulates them again from its snapshot ring (the map's
// raster then holds the later map and is brought back slot by slot). The same hash every tick,
// and its costs are always the full rasterization.
void test_rollback_over_map_changes_equals_the_straight_run(void) {
  fxs_world *a = &worlds[0], *b = &worlds[1];
  init_world(a, memory[0]);
  init_world(b, memory[1]);
  for (int k = 0; k < 2; ++k) {
    fxs_world *w = k ? b : a;
    TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, set_grid(FXS_INT(8))));
    nav_navigator(w, 10, 30, 300, 250);
    nav_navigator(w, 300, 20, 10, 250);
  }
  static uint8_t ring[5][24000];
  static size_t ring_size[5];
  uint64_t hashes[200];
  fxs_command list[8];
  for (uint32_t t = 0; t < 200; ++t) {
    uint32_t n = tick_commands(t, a, list);
    fxs_world_step(a, list, n, 0);
    hashes[t] = fxs_world_hash(a);
  }
  uint32_t rollbacks = 0;
  for (uint32_t t = 0; t < 200; ++t) {
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(b, ring[t % 5], sizeof ring[0], &ring_size[t % 5]));
    uint32_t n = tick_commands(t, b, list);
    fxs_world_step(b, list, n, 0);
    TEST_ASSERT_EQUAL_HEX64(hashes[t], fxs_world_hash(b));
    if (t % 5 == 4) { // back to the start of tick t - 3, then forward again
      uint32_t from = t - 3;
      TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(b, ring[from % 5], ring_size[from % 5], 0));
      for (uint32_t u = from; u <= t; ++u) {
        n = tick_commands(u, b, list);
        fxs_world_step(b, list, n, 0);
        TEST_ASSERT_EQUAL_HEX64(hashes[u], fxs_world_hash(b));
      }
      rollbacks++;
    }
    assert_grid_is_full_rasterization(b);
  }
  TEST_ASSERT_EQUAL_UINT32(40, rollbacks);
}
