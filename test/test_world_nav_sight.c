#include <string.h>
#include "unity.h"
#include "vec2.h"
#include "result.h"
#include "command.h"
#include "command_build.h"
#include "world.h"
#include "nav_grid.h"
#include "nav_path.h"
#include "world_internal.h"
#include "world_nav_raster.h"
#include "world_nav_aims.h"
#include "nav_sight.h"
#include "fxs_nav_test.h"

// The blocked counts of a large grid (world_nav_raster.h) and the sight test that reads them
// (fxs_world_nav_cells_in_sight, world_nav_aims.h): after any sequence of map changes, steps
// and restores, every block's count is the number of blocked cells in it, and the sight test
// answers fxs_nav_line_of_sight for every pair of cells, near blocked cells above all.

void setUp(void) {}
void tearDown(void) {}

#define WALLS 24
#define OBSTACLES 12
#define COLS 300u
#define ROWS 220u // 66,000 cells: at least FXS_NAV_SIGHT_MIN_CELLS
static const fxs_world_capacity cap = {4,          OBSTACLES, 0,  0,  WALLS, 0, 0,
                                       COLS *ROWS, 1,         64, 16, 0,     0, 0};
static uint64_t memory[205000]; // the world takes 1.59 MB on 64-bit hosts
static uint8_t snap[1u << 17];
static fxs_world world;

static const fxs_vec2 grid_origin = {-FXS_INT(100), FXS_INT(20)};
static const fix16_t grid_cell = FXS_INT(4);

static fxs_vec2 random_point(void) {
  fix16_t x = nav_between(grid_origin.x - FXS_INT(20), grid_origin.x + (fix16_t)COLS * grid_cell);
  fix16_t y = nav_between(grid_origin.y - FXS_INT(20), grid_origin.y + (fix16_t)ROWS * grid_cell);
  return fxs_vec2_make(x, y);
}

// A random map command: short and long walls, small obstacles, removals, cost blocks (some
// blocked: cost 0).
static fxs_command random_map_command(void) {
  uint32_t kind = nav_below(10);
  if (kind < 3) {
    fxs_wall wall = {random_point(), random_point()};
    if (nav_below(2) == 0) {
      wall.b = fxs_vec2_add(wall.a, fxs_vec2_make(nav_between(-FXS_INT(30), FXS_INT(30)),
                                                  nav_between(-FXS_INT(30), FXS_INT(30))));
    }
    return fxs_command_add_wall(wall);
  }
  if (kind < 5) {
    fxs_obstacle o = {random_point(), nav_between(0, FXS_INT(12))};
    return fxs_command_add_obstacle(o);
  }
  if (kind < 7) return fxs_command_remove_wall(nav_below(WALLS));
  if (kind < 9) return fxs_command_remove_obstacle(nav_below(OBSTACLES));
  uint32_t x = nav_below(COLS), y = nav_below(ROWS);
  return fxs_command_set_nav_costs(x, y, 1 + nav_below(8), 1 + nav_below(8),
                                   nav_below(3) == 0 ? 0 : 5);
}

static fxs_command set_grid(fix16_t radius) {
  return fxs_command_set_nav_grid(grid_origin, grid_cell, COLS, ROWS, radius, 64);
}

// A grid of another shape of at most COLS x ROWS cells, long and thin ones among them.
static fxs_command set_random_shape(void) {
  static const uint32_t shapes[5][2] = {{COLS, ROWS}, {4000, 16}, {16, 4000}, {255, 257}, {17, 31}};
  const uint32_t *wh = shapes[nav_below(5)];
  return fxs_command_set_nav_grid(grid_origin, grid_cell, wh[0], wh[1],
                                  nav_below(2) ? FXS_INT(3) : 0, 64);
}

// The grid brought up to date, as the next step's planning does first.
static void update(fxs_world *w) {
  if (w->internal->nav.dirty) fxs_world_nav_raster_update(w);
}

static void assert_counts_match_the_cells(const fxs_world *w) {
  const fxs_nav_raster *t = w->internal->nav.raster;
  const fxs_nav_grid *g = &w->nav.grid;
  uint32_t high = (g->height + 15u) / 16u;
  const uint16_t *blocked = fxs_world_nav_blocked(w);
  uint32_t wide = (g->width + 15u) / 16u;
  TEST_ASSERT_NOT_NULL(blocked);
  TEST_ASSERT_EQUAL_UINT32(wide, fxs_world_nav_blocks_wide(g->width));
  TEST_ASSERT_TRUE(t->valid && t->width == g->width && t->height == g->height);
  TEST_ASSERT_TRUE(wide * high <= fxs_world_nav_sight_blocks(cap.nav_cells));
  for (uint32_t by = 0; by < high; ++by) {
    for (uint32_t bx = 0; bx < wide; ++bx) {
      uint32_t n = 0;
      for (uint32_t y = by * 16u; y < by * 16u + 16u && y < g->height; ++y) {
        for (uint32_t x = bx * 16u; x < bx * 16u + 16u && x < g->width; ++x)
          n += g->cost[y * g->width + x] == FXS_NAV_BLOCKED;
      }
      TEST_ASSERT_EQUAL_UINT32(n, blocked[by * wide + bx]);
    }
  }
  // Each sum holds the counts of the blocks above and left of it.
  const uint32_t *sums = fxs_world_nav_blocked_sums(w);
  TEST_ASSERT_NOT_NULL(sums);
  TEST_ASSERT_TRUE((wide + 1u) * (high + 1u) <= fxs_world_nav_sight_sums(cap.nav_cells));
  for (uint32_t by = 0; by <= high; ++by) {
    for (uint32_t bx = 0; bx <= wide; ++bx) {
      uint32_t n = 0;
      for (uint32_t y = 0; y < by; ++y) {
        for (uint32_t x = 0; x < bx; ++x) n += blocked[y * wide + x];
      }
      TEST_ASSERT_EQUAL_UINT32(n, sums[by * (wide + 1u) + bx]);
    }
  }
}

// A cell near a blocked one (within 12 cells), or any cell.
static uint32_t near_blocked(const fxs_nav_grid *g) {
  uint32_t cells = g->width * g->height;
  for (int tries = 0; tries < 40; ++tries) {
    uint32_t c = nav_below(cells);
    if (g->cost[c] != FXS_NAV_BLOCKED) continue;
    int32_t x = (int32_t)(c % g->width) + nav_between(-12, 12);
    int32_t y = (int32_t)(c / g->width) + nav_between(-12, 12);
    if (x >= 0 && y >= 0 && x < (int32_t)g->width && y < (int32_t)g->height)
      return (uint32_t)y * g->width + (uint32_t)x;
  }
  return nav_below(cells);
}

static uint32_t pairs, seen, hinted;

// The sight test with a hint (fxs_world_nav_goal_in_sight) for the line from a to b: the
// walk's answer whatever the hint, here the cell that blocked the last line, a cell next to
// a (the start, which the walk never tests, may be blocked), or a cell anywhere; a line found
// blocked leaves a blocked cell it touches as the next hint.
static void assert_hinted_sight_matches(const fxs_world *w, uint32_t a, uint32_t b, bool walk) {
  static uint32_t hint;
  const fxs_nav_grid *g = &w->nav.grid;
  uint32_t wd = g->width, kind = nav_below(4);
  if (kind == 0) hint = a;
  if (kind == 1) hint = a + (nav_below(2) ? 1u : wd);
  if (kind == 2) hint = nav_below(g->width * g->height + 50u);
  uint32_t before = hint;
  TEST_ASSERT_EQUAL(walk, fxs_world_nav_goal_in_sight(w, a, b, &hint));
  if (!walk && hint != before) {
    TEST_ASSERT_EQUAL_UINT8(FXS_NAV_BLOCKED, g->cost[hint]);
    TEST_ASSERT_TRUE(
        fxs_nav_segment_touches_cell(a % wd, a / wd, b % wd, b / wd, hint % wd, hint / wd));
  }
  hinted += !walk && hint == before; // answered by the hint (or a blocker found again)
}

static void assert_sight_matches_the_walk(const fxs_world *w, uint32_t count) {
  const fxs_nav_grid *g = &w->nav.grid;
  uint32_t cells = g->width * g->height, wd = g->width;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t a = nav_below(3) == 0 ? nav_below(cells) : near_blocked(g);
    uint32_t b = nav_below(2) == 0 ? nav_below(cells) : near_blocked(g);
    bool walk = fxs_nav_line_of_sight(g, a % wd, a / wd, b % wd, b / wd);
    TEST_ASSERT_EQUAL(walk, fxs_world_nav_cells_in_sight(w, a, b));
    assert_hinted_sight_matches(w, a, b, walk);
    // A line from a cell next to a, as a follower's next cell asks about the same goal.
    uint32_t next = a + 1u < cells ? a + 1u : a;
    bool walk_next = fxs_nav_line_of_sight(g, next % wd, next / wd, b % wd, b / wd);
    assert_hinted_sight_matches(w, next, b, walk_next);
    pairs++, seen += walk;
  }
}

void test_blocked_counts_and_sight_match_the_cells_over_random_map_changes(void) {
  pairs = seen = hinted = 0;
  uint32_t restores = 0;
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    *nav_rng() = seed * 0x9E3779B9u;
    TEST_ASSERT_TRUE(fxs_world_memory_size(&cap) <= sizeof memory);
    nav_world_init(&world, 5, &cap, memory, sizeof memory);
    TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, set_grid(nav_below(2) ? FXS_INT(2) : 0)));
    size_t saved = 0;
    for (int op = 0; op < 40; ++op) {
      uint32_t kind = nav_below(100);
      if (kind < 70) {
        nav_apply(&world, random_map_command());
      } else if (kind < 80) {
        fxs_command list[4];
        for (uint32_t k = 0; k < 4; ++k) list[k] = random_map_command();
        fxs_world_step(&world, list, 4, 0);
      } else if (kind < 88) {
        TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &saved));
      } else if (kind < 96) {
        if (saved == 0) continue;
        TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(&world, snap, saved, 0));
        restores++;
      } else { // a grid again, maybe of another shape or radius: rasterized whole (and a
               // restore after it brings another shape back)
        TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, set_random_shape()));
      }
      update(&world);
      assert_counts_match_the_cells(&world);
      assert_sight_matches_the_walk(&world, 150);
    }
  }
  // Both answers came up often, the hints answered a line in twenty, and the restores were
  // exercised.
  TEST_ASSERT_TRUE(seen > pairs / 10 && seen < pairs - pairs / 10);
  TEST_ASSERT_TRUE(hinted > pairs / 20);
  TEST_ASSERT_TRUE(restores > 6);
}

void test_the_sight_test_skips_the_walk_over_blocks_without_blocked_cells(void) {
  nav_world_init(&world, 5, &cap, memory, sizeof memory);
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, set_grid(0)));
  // A wall across the middle column, from the first row to the last: no line crosses it.
  fxs_wall wall = {
      fxs_vec2_add(grid_origin, fxs_vec2_make(150 * grid_cell + FXS_INT(2), -FXS_INT(8))),
      fxs_vec2_add(grid_origin, fxs_vec2_make(150 * grid_cell + FXS_INT(2),
                                              (fix16_t)ROWS * grid_cell + FXS_INT(8)))};
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_add_wall(wall)));
  update(&world);
  uint32_t west = 100u * COLS + 10u, east = 100u * COLS + 290u;
  TEST_ASSERT_FALSE(fxs_world_nav_cells_in_sight(&world, west, east));
  TEST_ASSERT_TRUE(fxs_world_nav_cells_in_sight(&world, west, 5u * COLS + 140u));
  // Counts that say the wall's blocks are clear (wrong on purpose) let the test see through
  // the wall: it took the counts' word without walking.
  uint16_t *blocked = fxs_world_nav_blocked(&world), kept[(ROWS + 15u) / 16u];
  for (uint32_t by = 0; by < (ROWS + 15u) / 16u; ++by) {
    kept[by] = blocked[by * ((COLS + 15u) / 16u) + 150u / 16u];
    blocked[by * ((COLS + 15u) / 16u) + 150u / 16u] = 0;
  }
  TEST_ASSERT_TRUE(fxs_world_nav_cells_in_sight(&world, west, east));
  for (uint32_t by = 0; by < (ROWS + 15u) / 16u; ++by)
    blocked[by * ((COLS + 15u) / 16u) + 150u / 16u] = kept[by];
  TEST_ASSERT_FALSE(fxs_world_nav_cells_in_sight(&world, west, east));
  // So do sums that say every box of blocks is clear (the counts right): the test took the
  // sums' word for the line's box of blocks. A cost changed, they are taken again.
  uint32_t *sums = fxs_world_nav_blocked_sums(&world);
  for (uint32_t i = 0; i < fxs_world_nav_sight_sums(cap.nav_cells); ++i) sums[i] = 0;
  TEST_ASSERT_TRUE(fxs_world_nav_cells_in_sight(&world, west, east));
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_set_nav_costs(0, 0, 1, 1, 0)));
  update(&world);
  TEST_ASSERT_FALSE(fxs_world_nav_cells_in_sight(&world, west, east));
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_set_nav_costs(0, 0, 1, 1, 1)));
  update(&world);
  // Counts taken on another grid's shape are not read. This grid restored over a thin one
  // holds the thin one's costs and counts until the next update: the sight test answers as
  // the walk over those costs, then, updated, as the walk over this grid's again.
  size_t size = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &size));
  fxs_command thin = fxs_command_set_nav_grid(grid_origin, grid_cell, 4000, 16, 0, 64);
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, thin));
  update(&world);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(&world, snap, size, 0));
  for (uint32_t y = 0; y < ROWS; y += 7u) {
    uint32_t a = y * COLS + 3u, b = (ROWS - 1u - y) * COLS + 296u;
    TEST_ASSERT_EQUAL(fxs_nav_line_of_sight(&world.nav.grid, 3, y, 296, ROWS - 1u - y),
                      fxs_world_nav_cells_in_sight(&world, a, b));
  }
  update(&world);
  TEST_ASSERT_FALSE(fxs_world_nav_cells_in_sight(&world, west, east));
}

void test_a_small_grid_keeps_no_blocked_counts(void) {
  TEST_ASSERT_EQUAL_UINT32(0, fxs_world_nav_sight_blocks(FXS_NAV_SIGHT_MIN_CELLS - 1u));
  TEST_ASSERT_EQUAL_UINT32(0, fxs_world_nav_sight_sums(FXS_NAV_SIGHT_MIN_CELLS - 1u));
  // Enough blocks for the shape of a capacity that needs the most (a side as long as a grid
  // may have and the other as long as the cells allow, or any other), and not many more.
  static const uint32_t capacities[4] = {FXS_NAV_SIGHT_MIN_CELLS, 100000u, 777777u,
                                         FXS_NAV_MAX_CELLS};
  for (int i = 0; i < 4; ++i) {
    uint32_t cells = capacities[i], most = 0, most_sums = 0;
    for (uint32_t w = 1; w <= FXS_NAV_MAX_SIDE; ++w) {
      uint32_t h = cells / w < FXS_NAV_MAX_SIDE ? cells / w : FXS_NAV_MAX_SIDE;
      uint32_t blocks = ((w + 15u) / 16u) * ((h + 15u) / 16u);
      uint32_t sums = ((w + 15u) / 16u + 1u) * ((h + 15u) / 16u + 1u);
      if (blocks > most) most = blocks;
      if (sums > most_sums) most_sums = sums;
    }
    TEST_ASSERT_TRUE(fxs_world_nav_sight_blocks(cells) >= most);
    TEST_ASSERT_TRUE(fxs_world_nav_sight_blocks(cells) <= most + most / 4u);
    // And their sums, a row and a column more (at most half again as many).
    TEST_ASSERT_TRUE(fxs_world_nav_sight_sums(cells) >= most_sums);
    TEST_ASSERT_TRUE(fxs_world_nav_sight_sums(cells) <= most_sums + most_sums / 2u);
  }
  static const fxs_world_capacity small = {4, 0, 0, 0, 4, 0, 0, 100 * 100, 1, 64, 16, 0, 0, 0};
  nav_world_init(&world, 5, &small, memory, sizeof memory);
  TEST_ASSERT_NULL(fxs_world_nav_blocked(&world));
  fxs_world_capacity large = small;
  large.nav_cells = FXS_NAV_SIGHT_MIN_CELLS;
  TEST_ASSERT_TRUE(fxs_world_memory_size(&large) <= sizeof memory);
  nav_world_init(&world, 5, &large, memory, sizeof memory);
  TEST_ASSERT_NOT_NULL(fxs_world_nav_blocked(&world));
}

void test_one_blocked_cell_at_a_block_edge_is_seen_by_every_line_that_touches_it(void) {
  nav_world_init(&world, 5, &cap, memory, sizeof memory);
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, set_grid(0)));
  *nav_rng() = 77;
  uint32_t hidden = 0, lines = 0;
  for (int k = 0; k < 300; ++k) {
    // A cell on a block's edge or corner, away from the grid's border.
    uint32_t x =
        32u + 16u * nav_below(14) + (nav_below(2) ? 15u : 0u) + (nav_below(4) == 0 ? 1u : 0u);
    uint32_t y = 32u + 16u * nav_below(9) + (nav_below(2) ? 15u : 0u);
    TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_set_nav_costs(x, y, 1, 1, 0)));
    update(&world);
    for (int i = 0; i < 200; ++i) {
      // Lines between cells on either side of it, mostly steep or shallow, passing close.
      int32_t ax = (int32_t)x + nav_between(-30, 30), ay = (int32_t)y + nav_between(-30, 30);
      int32_t bx = 2 * (int32_t)x - ax + nav_between(-2, 2),
              by = 2 * (int32_t)y - ay + nav_between(-2, 2);
      uint32_t a = (uint32_t)ay * COLS + (uint32_t)ax, b = (uint32_t)by * COLS + (uint32_t)bx;
      bool walk = fxs_nav_line_of_sight(&world.nav.grid, (uint32_t)ax, (uint32_t)ay, (uint32_t)bx,
                                        (uint32_t)by);
      TEST_ASSERT_EQUAL(walk, fxs_world_nav_cells_in_sight(&world, a, b));
      lines++, hidden += !walk;
    }
    TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_set_nav_costs(x, y, 1, 1, 1)));
  }
  TEST_ASSERT_TRUE(hidden > lines / 20 && hidden < lines - lines / 20);
}

// Every pair of cells of a 21 x 21 window round two blocked cells (one on a block's edge, one
// a cell away from another block), and lines from that window to cells far off in every
// direction: the sight test answers as the walk, the counts' answer included (it fails when
// the range of blocks read misses the column the line's rounding can add).
void test_the_sight_test_answers_as_the_walk_for_every_pair_round_blocked_cells(void) {
  nav_world_init(&world, 5, &cap, memory, sizeof memory);
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, set_grid(0)));
  static const uint32_t spots[4][2] = {{47, 63}, {64, 65}, {143, 96}, {160, 111}};
  uint32_t lines = 0, hidden = 0;
  for (int k = 0; k < 4; ++k) {
    uint32_t x = spots[k][0], y = spots[k][1];
    TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_set_nav_costs(x, y, 1, 1, 0)));
    TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_set_nav_costs(x + 2, y + 1, 1, 1, 0)));
    update(&world);
    for (uint32_t a = 0; a < 21u * 21u; ++a) {
      uint32_t ax = x - 10u + a % 21u, ay = y - 10u + a / 21u;
      for (uint32_t b = 0; b < 21u * 21u + 16u; ++b) {
        // The window, then 16 cells far off round it (through it and past its blocked cells).
        uint32_t bx = b < 441u ? x - 10u + b % 21u : x - 40u + 20u * ((b - 441u) % 4u);
        uint32_t by = b < 441u ? y - 10u + b / 21u : y - 40u + 20u * ((b - 441u) / 4u);
        bool walk = fxs_nav_line_of_sight(&world.nav.grid, ax, ay, bx, by);
        TEST_ASSERT_EQUAL(walk,
                          fxs_world_nav_cells_in_sight(&world, ay * COLS + ax, by * COLS + bx));
        lines++, hidden += !walk;
      }
    }
    TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_set_nav_costs(x, y, 1, 1, 1)));
    TEST_ASSERT_EQUAL(FXS_OK, nav_apply(&world, fxs_command_set_nav_costs(x + 2, y + 1, 1, 1, 1)));
  }
  TEST_ASSERT_TRUE(hidden > lines / 20 && hidden < lines - lines / 20);
}
