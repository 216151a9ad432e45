#include <string.h>

#include "unity.h"

#include "vec2.h"
#include "result.h"
#include "flow_field.h"
#include "nav_grid.h"
#include "nav_path.h"
#include "nav_field.h"
#include "nav_state.h"
#include "fxs_test_util.h"

void setUp(void) {}
void tearDown(void) {}

#define SIDE 16u
#define CELLS (SIDE * SIDE)
static uint8_t costs[CELLS];
#define ENTRIES ((SIDE + 2u) * (SIDE + 2u))
static uint64_t memory_a[(ENTRIES * 16u + 4096u * 4u) / 8u];
static uint64_t memory_b[(ENTRIES * 16u + 4096u * 4u) / 8u];
static uint64_t search_memory[(CELLS * 25u) / 8u + 64u];

#define U FXS_NAV_UNREACHED

static fxs_nav_grid draw(const char *const *rows, uint32_t h) {
  uint32_t w = (uint32_t)strlen(rows[0]);
  fxs_nav_grid g;
  TEST_ASSERT_EQUAL(FXS_OK,
                    fxs_nav_grid_init(&g, costs, CELLS, w, h, fxs_vec2_zero(), FXS_INT(10), 1));
  for (uint32_t r = 0; r < h; ++r) {
    for (uint32_t x = 0; x < w; ++x) {
      char c = rows[r][x];
      g.cost[(h - 1u - r) * w + x] = c == '#' ? 0 : c == '.' ? 1 : (uint8_t)(c - '0');
    }
  }
  return g;
}

static fxs_nav_grid open_grid(uint32_t w, uint32_t h) {
  fxs_nav_grid g;
  TEST_ASSERT_EQUAL(FXS_OK,
                    fxs_nav_grid_init(&g, costs, CELLS, w, h, fxs_vec2_zero(), FXS_INT(10), 1));
  return g;
}

static fxs_nav_field new_field(uint64_t *memory, uint32_t cells) {
  fxs_nav_field f;
  size_t size = fxs_nav_field_memory_size(cells);
  TEST_ASSERT_TRUE(size > 0 && size <= sizeof memory_a);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_field_init(&f, memory, size, cells));
  return f;
}

static void build(fxs_nav_field *f, const fxs_nav_grid *g, const uint32_t *goals, uint32_t n) {
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_field_begin(f, g, goals, n));
  TEST_ASSERT_EQUAL(FXS_NAV_FIELD_READY, fxs_nav_field_step(f, UINT32_MAX));
}

// The value of grid cell i.
static uint32_t val(const fxs_nav_field *f, uint32_t i) {
  return fxs_nav_field_value(f, i % f->width, i / f->width);
}

// Every cell's value into out.
static void values(const fxs_nav_field *f, uint32_t *out) {
  for (uint32_t i = 0; i < f->width * f->height; ++i) out[i] = val(f, i);
}

void test_memory_size_and_init_refuse_bad_capacities(void) {
  fxs_nav_field f;
  TEST_ASSERT_EQUAL(0, fxs_nav_field_memory_size(0));
  TEST_ASSERT_EQUAL(0, fxs_nav_field_memory_size(FXS_NAV_FIELD_MAX_CELLS + 1u));
  // 16 bytes an entry and the buckets; a 3 x 2 grid has 5 x 4 entries.
  TEST_ASSERT_EQUAL(10u * 16u + 4096u * 4u, fxs_nav_field_memory_size(10));
  TEST_ASSERT_EQUAL_UINT32(20, fxs_nav_field_cells(3, 2));
  TEST_ASSERT_EQUAL_UINT32(0, fxs_nav_field_cells(0, 2));
  TEST_ASSERT_EQUAL_UINT32(0, fxs_nav_field_cells(2048, 1024));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_nav_field_init(&f, NULL, sizeof memory_a, 10));
  TEST_ASSERT_EQUAL(FXS_ERR_BUFFER_TOO_SMALL, fxs_nav_field_init(&f, memory_a, 1000, 10));
}

// Goal (0, 0) on an open 3 x 3 grid: straight steps 10, diagonals 14, (2, 1) = 14 + 10.
void test_an_open_grid_integrates_octile_costs(void) {
  fxs_nav_grid g = open_grid(3, 3);
  fxs_nav_field f = new_field(memory_a, CELLS);
  uint32_t goal = 0;
  build(&f, &g, &goal, 1);
  static const uint32_t want[9] = {0, 10, 20, 10, 14, 24, 20, 24, 28};
  uint32_t got[CELLS];
  values(&f, got);
  TEST_ASSERT_EQUAL_UINT32_ARRAY(want, got, 9);
  TEST_ASSERT_EQUAL_UINT32(9, f.settled);
  TEST_ASSERT_EQUAL_UINT32(24, fxs_nav_field_value(&f, 1, 2));
  TEST_ASSERT_EQUAL_UINT32(U, fxs_nav_field_value(&f, 3, 0));
}

// A step costs the weight of the cell entered on the way to the goal: from (1,0) into a
// goal of cost 3 costs 30; into (1,0) (cost 2) then the goal costs 20 + 30.
void test_weights_count_for_the_cell_entered(void) {
  static const char *const rows[] = {"3211"};
  fxs_nav_grid g = draw(rows, 1);
  fxs_nav_field f = new_field(memory_a, CELLS);
  uint32_t goal = 0;
  build(&f, &g, &goal, 1);
  static const uint32_t want[4] = {0, 30, 50, 60};
  uint32_t got[CELLS];
  values(&f, got);
  TEST_ASSERT_EQUAL_UINT32_ARRAY(want, got, 4);
}

void test_walls_cut_corners_and_enclosed_cells_stay_unreached(void) {
  static const char *const rows[] = {".#...",  // y = 3
                                     ".#.#.",  // y = 2
                                     "...#.",  // y = 1
                                     "####."}; // y = 0
  fxs_nav_grid g = draw(rows, 4);
  fxs_nav_field f = new_field(memory_a, CELLS);
  uint32_t goal = 3 * 5 + 0; // (0, 3)
  build(&f, &g, &goal, 1);
  // Down column 0, across row 1, up column 2, across row 3, down column 4. No diagonal
  // passes a wall cell: (0,2) -> (1,1) has (1,2) beside it, (1,1) -> (2,2) too, (2,2) ->
  // (3,3) has (3,2), (3,3) -> (4,2) has (3,2).
  static const uint32_t want[20] = {U,  U,  U,  U,  110, // y = 0
                                    20, 30, 40, U,  100, // y = 1
                                    10, U,  50, U,  90,  // y = 2
                                    0,  U,  60, 70, 80}; // y = 3
  uint32_t got[CELLS];
  values(&f, got);
  TEST_ASSERT_EQUAL_UINT32_ARRAY(want, got, 20);
}

static uint32_t lcg(uint32_t *s) {
  *s = *s * 1664525u + 1013904223u;
  return *s >> 8;
}

// 60 random 12 x 12 grids: every cell's value is what A* finds from it to the goal, and
// unreached exactly where A* cannot reach the goal. One implementation of the step rules,
// two searches that must agree.
void test_values_are_the_costs_a_star_finds_on_random_grids(void) {
  uint32_t seed = 7u, compared = 0;
  fxs_nav_field f = new_field(memory_a, CELLS);
  fxs_nav_search s;
  size_t size = fxs_nav_search_memory_size(CELLS, CELLS);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_search_init(&s, search_memory, size, CELLS, CELLS));
  for (int trial = 0; trial < 60; ++trial) {
    fxs_nav_grid g = open_grid(12, 12);
    for (uint32_t i = 0; i < 144; ++i) {
      uint32_t r = lcg(&seed) % 10u;
      g.cost[i] = r < 3 ? 0 : (uint8_t)(1u + (lcg(&seed) % 254u) * (r == 9));
    }
    uint32_t goal = lcg(&seed) % 144u;
    g.cost[goal] = 1;
    build(&f, &g, &goal, 1);
    for (uint32_t i = 0; i < 144; ++i) {
      if (g.cost[i] == 0) {
        TEST_ASSERT_EQUAL_UINT32(U, val(&f, i));
        continue;
      }
      TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_search_begin(&s, &g, i % 12, i / 12, goal % 12, goal / 12));
      fxs_nav_status st = fxs_nav_search_step(&s, &g, UINT32_MAX);
      if (st == FXS_NAV_FOUND) {
        TEST_ASSERT_EQUAL_UINT32(fxs_nav_search_cost(&s), val(&f, i));
      } else {
        TEST_ASSERT_EQUAL_UINT32(U, val(&f, i));
      }
      compared++;
    }
  }
  TEST_ASSERT_TRUE(compared > 5000);
}

void test_several_goals_give_the_cost_to_the_nearest_and_blocked_goals_are_ignored(void) {
  fxs_nav_grid g = open_grid(7, 1);
  fxs_nav_field f = new_field(memory_a, CELLS);
  uint32_t goals[4] = {0, 6, 6, 3};
  g.cost[3] = 0;
  build(&f, &g, goals, 4);
  static const uint32_t want[7] = {0, 10, 20, U, 20, 10, 0};
  uint32_t got[CELLS];
  values(&f, got);
  TEST_ASSERT_EQUAL_UINT32_ARRAY(want, got, 7);
  // Only a blocked goal: nothing reached, ready at once.
  uint32_t blocked = 3;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_field_begin(&f, &g, &blocked, 1));
  TEST_ASSERT_EQUAL(FXS_NAV_FIELD_READY, f.status);
  for (uint32_t i = 0; i < 7; ++i) TEST_ASSERT_EQUAL_UINT32(U, val(&f, i));
}

void test_begin_refuses_goals_outside_and_grids_too_large(void) {
  fxs_nav_grid g = open_grid(4, 4);
  fxs_nav_field f = new_field(memory_a, 36);
  uint32_t goals[2] = {3, 16};
  TEST_ASSERT_EQUAL(FXS_ERR_OUTSIDE_GRID, fxs_nav_field_begin(&f, &g, goals, 2));
  TEST_ASSERT_EQUAL(FXS_NAV_FIELD_IDLE, f.status);
  fxs_nav_field small = new_field(memory_b, 35);
  TEST_ASSERT_EQUAL(FXS_ERR_CAPACITY, fxs_nav_field_begin(&small, &g, goals, 1));
}

// Ties in the direction field: goals (0,1) and (2,1) on a 3 x 3 grid. From (1,1) west and
// east both total 10: east (direction 0) wins; from (1,0) north-east and north-west both
// total 14: north-east (4) wins over north-west (5).
void test_direction_ties_go_to_the_lower_direction(void) {
  fxs_nav_grid g = open_grid(3, 3);
  fxs_nav_field f = new_field(memory_a, CELLS);
  uint32_t goals[2] = {3, 5};
  build(&f, &g, goals, 2);
  TEST_ASSERT_EQUAL_UINT32(0, fxs_nav_field_direction(&f, 1, 1));
  TEST_ASSERT_EQUAL_UINT32(4, fxs_nav_field_direction(&f, 1, 0));
  TEST_ASSERT_EQUAL_UINT32(6, fxs_nav_field_direction(&f, 1, 2)); // SW (6) over SE (7)
  TEST_ASSERT_EQUAL_UINT32(FXS_NAV_DIRECTIONS, fxs_nav_field_direction(&f, 0, 1)); // goal
  TEST_ASSERT_EQUAL_UINT32(3, fxs_nav_field_direction(&f, 0, 2)); // S onto the goal
  TEST_ASSERT_EQUAL_UINT32(FXS_NAV_DIRECTIONS, fxs_nav_field_direction(&f, 3, 0));
}

// The direction leads along a cheapest path: following it from every reached cell ends on
// a goal after exactly value / (least step) steps at most, the values falling by the step
// costs. A cell standing in a wall (blocked) still gets the way out.
void test_following_directions_descends_to_the_goal(void) {
  static const char *const rows[] = {"........", ".######.", ".#....#.", ".#.##.#.",
                                     ".#.#..#.", ".#.#.##.", "...#....", "###....."};
  fxs_nav_grid g = draw(rows, 8);
  fxs_nav_field f = new_field(memory_a, CELLS);
  uint32_t goal = 3 * 8 + 4; // (4, 3), inside the spiral
  build(&f, &g, &goal, 1);
  for (uint32_t i = 0; i < 64; ++i) {
    if (val(&f, i) == U) continue;
    uint32_t c = i, steps = 0;
    while (val(&f, c) != 0) {
      uint32_t dir = fxs_nav_field_direction(&f, c % 8, c / 8);
      TEST_ASSERT_TRUE(dir < 8);
      int32_t dx, dy;
      fxs_nav_direction_step(dir, &dx, &dy);
      uint32_t n = (uint32_t)((int32_t)(c / 8) + dy) * 8u + (uint32_t)((int32_t)(c % 8) + dx);
      TEST_ASSERT_EQUAL_UINT32(val(&f, c), val(&f, n) + (dir < 4 ? 10u : 14u) * g.cost[n]);
      c = n;
      TEST_ASSERT_TRUE(++steps < 64);
    }
  }
  // A blocked cell beside reached ones points to the cheapest of them.
  TEST_ASSERT_EQUAL_UINT32(0, g.cost[2 * 8 + 1]); // '#' at (1, 2)
  uint32_t dir = fxs_nav_field_direction(&f, 1, 2);
  TEST_ASSERT_TRUE(dir < 8);
  int32_t dx, dy;
  fxs_nav_direction_step(dir, &dx, &dy);
  uint32_t n = (uint32_t)(2 + dy) * 8u + (uint32_t)(1 + dx);
  for (uint32_t d = 0; d < 8; ++d) {
    if (!fxs_nav_grid_can_step(&g, 1, 2, d)) continue;
    int32_t ex, ey;
    fxs_nav_direction_step(d, &ex, &ey);
    uint32_t m = (uint32_t)(2 + ey) * 8u + (uint32_t)(1 + ex);
    if (val(&f, m) == U) continue;
    TEST_ASSERT_TRUE(val(&f, n) + (dir < 4 ? 10u : 14u) <= val(&f, m) + (d < 4 ? 10u : 14u));
  }
}

void test_the_flow_field_is_filled_with_unit_directions(void) {
  fxs_nav_grid g = open_grid(3, 3);
  fxs_nav_field f = new_field(memory_a, CELLS);
  uint32_t goal = 4; // centre
  build(&f, &g, &goal, 1);
  fxs_vec2 cells[9];
  fxs_flow_field flow;
  TEST_ASSERT_EQUAL(FXS_OK,
                    fxs_flow_field_init(&flow, cells, 9, 3, 3, fxs_vec2_zero(), FXS_INT(10)));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_field_fill_flow(&f, &flow));
  TEST_ASSERT_EQUAL_INT32(46341, cells[0].x); // (0,0): north-east
  TEST_ASSERT_EQUAL_INT32(46341, cells[0].y);
  TEST_ASSERT_EQUAL_INT32(FXS_ONE, cells[3].x); // (0,1): east
  TEST_ASSERT_EQUAL_INT32(0, cells[3].y);
  TEST_ASSERT_EQUAL_INT32(0, cells[4].x); // the goal: a sink
  TEST_ASSERT_EQUAL_INT32(0, cells[4].y);
  TEST_ASSERT_EQUAL_INT32(-46341, cells[8].x); // (2,2): south-west
  TEST_ASSERT_EQUAL_INT32(-46341, cells[8].y);
  TEST_ASSERT_EQUAL_INT32(-FXS_ONE, cells[7].y); // (1,2): south
  fxs_flow_field wrong = flow;
  wrong.width = 2;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_nav_field_fill_flow(&f, &wrong));
}

static size_t save(const fxs_nav_field *f, uint8_t *buffer, size_t capacity) {
  size_t n = fxs_nav_field_save(f, buffer, capacity);
  TEST_ASSERT_TRUE(n <= capacity);
  return n;
}

void test_a_budgeted_field_matches_one_run(void) {
  static const char *const rows[] = {"..........", ".########.", ".#......#.", ".#.####.#.",
                                     ".#.#..#.#.", ".#.#.##.#.", ".#.#....#.", ".#.######.",
                                     ".#.....2..", ".#########"};
  fxs_nav_grid g = draw(rows, 10);
  fxs_nav_field whole = new_field(memory_a, CELLS), part = new_field(memory_b, CELLS);
  uint32_t goal = 5 * 10 + 4;
  build(&whole, &g, &goal, 1);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_field_begin(&part, &g, &goal, 1));
  uint32_t calls = 0;
  while (fxs_nav_field_step(&part, 4) == FXS_NAV_FIELD_BUILDING) {
    calls++;
    TEST_ASSERT_EQUAL_UINT32(4u * calls, part.settled);
  }
  TEST_ASSERT_TRUE(calls > 10);
  uint32_t a[CELLS], b[CELLS];
  values(&whole, a);
  values(&part, b);
  TEST_ASSERT_EQUAL_UINT32_ARRAY(a, b, 100);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_field_begin(&part, &g, &goal, 1));
  TEST_ASSERT_EQUAL(FXS_NAV_FIELD_BUILDING, fxs_nav_field_step(&part, 0));
  TEST_ASSERT_EQUAL_UINT32(0, part.settled);
}

// A field built seven cells a call over a seeded grid of walls and weights toward three
// goals: the bytes saved after every call (values, and the queue in its order) hash to the
// value the first implementation (one array of entries) gave. A change of the queue's order
// or of what a half-built field holds changes it.
void test_half_built_fields_keep_the_pinned_bytes_call_after_call(void) {
  uint32_t s = 2026u;
  for (uint32_t i = 0; i < CELLS; ++i) {
    s = s * 1664525u + 1013904223u;
    uint32_t r = (s >> 24) % 100u;
    costs[i] = r < 20u ? 0u : r < 35u ? (uint8_t)(2u + (s >> 8) % 253u) : 1u;
  }
  fxs_nav_grid g = {fxs_vec2_zero(), FXS_INT(10), SIDE, SIDE, costs};
  fxs_nav_field f = new_field(memory_a, ENTRIES);
  uint32_t goals[3] = {5u * SIDE + 6u, 200u, 13u};
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_field_begin(&f, &g, goals, 3));
  static uint8_t bytes[CELLS * 16u + 64u];
  uint64_t h = UINT64_C(14695981039346656037);
  uint32_t calls = 0;
  fxs_nav_field_status status;
  do {
    status = fxs_nav_field_step(&f, 7);
    size_t n = save(&f, bytes, sizeof bytes);
    for (size_t i = 0; i < n; ++i) h = (h ^ bytes[i]) * UINT64_C(1099511628211);
    calls++;
  } while (status == FXS_NAV_FIELD_BUILDING);
  TEST_ASSERT_EQUAL_UINT32(29, calls);
  TEST_ASSERT_EQUAL_UINT32(203, f.settled);
  TEST_ASSERT_EQUAL_HEX64(UINT64_C(0xeb4968ff851f6ffe), h);
}

// Snapshot a field half built, restore it into junk memory, continue both: the same bytes
// after every step, the same values at the end.
void test_a_field_restored_into_junk_memory_continues_identically(void) {
  static const char *const rows[] = {"............", ".##########.", ".#...3....#.", ".#.######.#.",
                                     ".#.#....#.#.", ".#.#.##.#.#.", ".#.#.#..#.#.", ".#...#.##.#.",
                                     ".#####....#.", "..........#."};
  fxs_nav_grid g = draw(rows, 10);
  static uint8_t bytes_a[8192], bytes_b[8192];
  uint32_t goals[2] = {4 * 12 + 7, 11};
  for (uint32_t stop = 1; stop < 30; stop += 4) {
    fxs_nav_field a = new_field(memory_a, CELLS);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_field_begin(&a, &g, goals, 2));
    for (uint32_t k = 0; k < stop; ++k) fxs_nav_field_step(&a, 2);
    TEST_ASSERT_EQUAL(FXS_NAV_FIELD_BUILDING, a.status);
    size_t n = save(&a, bytes_a, sizeof bytes_a);
    memset(memory_b, 0xA5, sizeof memory_b);
    fxs_nav_field b = new_field(memory_b, CELLS);
    memset(memory_b, 0x3C, fxs_nav_field_memory_size(CELLS));
    TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_field_restore(&b, &g, bytes_a, n));
    TEST_ASSERT_EQUAL(n, save(&b, bytes_b, sizeof bytes_b));
    TEST_ASSERT_EQUAL_MEMORY(bytes_a, bytes_b, n);
    for (;;) {
      fxs_nav_field_status sa = fxs_nav_field_step(&a, 3), sb = fxs_nav_field_step(&b, 3);
      TEST_ASSERT_EQUAL(sa, sb);
      size_t na = save(&a, bytes_a, sizeof bytes_a), nb = save(&b, bytes_b, sizeof bytes_b);
      TEST_ASSERT_EQUAL(na, nb);
      TEST_ASSERT_EQUAL_MEMORY(bytes_a, bytes_b, na);
      if (sa != FXS_NAV_FIELD_BUILDING) break;
    }
    uint32_t va[CELLS], vb[CELLS];
    values(&a, va);
    values(&b, vb);
    TEST_ASSERT_EQUAL_UINT32_ARRAY(va, vb, 120);
  }
}

void test_hostile_saved_fields_are_refused_or_run_safely(void) {
  static const char *const rows[] = {"......", ".####.", "....#.", "##..#.", "......"};
  fxs_nav_grid g = draw(rows, 5);
  fxs_nav_field a = new_field(memory_a, CELLS);
  uint32_t goal = 2 * 6 + 2;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_field_begin(&a, &g, &goal, 1));
  fxs_nav_field_step(&a, 5);
  static uint8_t bytes[4096], bad[4096];
  size_t n = save(&a, bytes, sizeof bytes);
  fxs_nav_field b = new_field(memory_b, CELLS);
  for (size_t cut = 0; cut < n; ++cut) {
    TEST_ASSERT_EQUAL(FXS_ERR_TRUNCATED, fxs_nav_field_restore(&b, &g, bytes, cut));
    TEST_ASSERT_EQUAL(FXS_NAV_FIELD_IDLE, b.status);
  }
  memcpy(bad, bytes, n);
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_LENGTH, fxs_nav_field_restore(&b, &g, bad, n + 1));
  uint32_t refused = 0;
  for (size_t i = 0; i < n; ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      memcpy(bad, bytes, n);
      bad[i] ^= (uint8_t)(1u << bit);
      fxs_result r = fxs_nav_field_restore(&b, &g, bad, n);
      if (r != FXS_OK) {
        TEST_ASSERT_TRUE(r == FXS_ERR_BAD_VALUE || r == FXS_ERR_CAPACITY ||
                         r == FXS_ERR_TRUNCATED || r == FXS_ERR_BAD_LENGTH);
        TEST_ASSERT_EQUAL(FXS_NAV_FIELD_IDLE, b.status);
        refused++;
        continue;
      }
      fxs_nav_field_step(&b, UINT32_MAX);
      TEST_ASSERT_TRUE(b.status == FXS_NAV_FIELD_READY || b.status == FXS_NAV_FIELD_IDLE);
    }
  }
  TEST_ASSERT_TRUE(refused >= n);
  memcpy(bad, bytes, n);
  bad[0] = 0xFF, bad[1] = 0x7F; // another width than the grid's
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_nav_field_restore(&b, &g, bad, n));
  fxs_nav_field tiny = new_field(memory_a, 20);
  TEST_ASSERT_EQUAL(FXS_ERR_CAPACITY, fxs_nav_field_restore(&tiny, &g, bytes, n));
}

// ------------------------------------------------------------------ packed fields

// A ready field packed (nav_state.h, a world's group fields once ready) answers every value,
// direction, flow vector and saved byte as the field it was packed from, on random grids of
// walls, dear cells and cut-off pockets, with one goal or several; a goal on a blocked cell
// packs as the empty field begin makes of it.
void test_a_packed_field_reads_as_the_field_it_was_packed_from(void) {
  static uint8_t packed[CELLS], saved_a[CELLS * 4u + 64u], saved_b[CELLS * 4u + 64u];
  static fxs_vec2 flow_a[CELLS], flow_b[CELLS];
  uint32_t seed = 11u, compared = 0, finite = 0, sinks = 0;
  fxs_nav_field f = new_field(memory_a, ENTRIES);
  for (int trial = 0; trial < 80; ++trial) {
    uint32_t w = 3u + lcg(&seed) % 14u, h = 2u + lcg(&seed) % 15u;
    fxs_nav_grid g = open_grid(w, h);
    for (uint32_t i = 0; i < w * h; ++i) {
      uint32_t r = lcg(&seed) % 10u;
      g.cost[i] = r < 3 ? 0 : (uint8_t)(1u + (lcg(&seed) % 254u) * (r == 9));
    }
    uint32_t goals[2] = {lcg(&seed) % (w * h), lcg(&seed) % (w * h)};
    if (trial % 7 != 0) g.cost[goals[0]] = 1; // now and then a blocked goal
    build(&f, &g, goals, 1u + (uint32_t)(trial % 3 == 0));
    fxs_nav_field p;
    memset(packed, 0xEE, sizeof packed); // junk: every byte is written
    fxs_nav_field_pack(&f, &g, packed, &p);
    TEST_ASSERT_NULL(p.entry);
    TEST_ASSERT_EQUAL_UINT32(f.settled, p.settled);
    TEST_ASSERT_EQUAL(FXS_NAV_FIELD_READY, p.status);
    for (uint32_t i = 0; i < w * h; ++i) {
      uint32_t v = fxs_nav_field_value(&f, i % w, i / w);
      uint32_t d = fxs_nav_field_direction(&f, i % w, i / w);
      TEST_ASSERT_EQUAL_UINT32(v, fxs_nav_field_value(&p, i % w, i / w));
      TEST_ASSERT_EQUAL_UINT32(d, fxs_nav_field_direction(&p, i % w, i / w));
      TEST_ASSERT_EQUAL_UINT8(0, packed[i] >> 4); // the world's four bits left clear
      finite += v != U, sinks += v == U && g.cost[i] != 0, compared++;
    }
    TEST_ASSERT_EQUAL_UINT32(U, fxs_nav_field_value(&p, w, 0)); // outside
    TEST_ASSERT_EQUAL_UINT32(FXS_NAV_DIRECTIONS, fxs_nav_field_direction(&p, 0, h));
    fxs_flow_field ff_a, ff_b;
    TEST_ASSERT_EQUAL(FXS_OK,
                      fxs_flow_field_init(&ff_a, flow_a, CELLS, w, h, fxs_vec2_zero(), FXS_ONE));
    TEST_ASSERT_EQUAL(FXS_OK,
                      fxs_flow_field_init(&ff_b, flow_b, CELLS, w, h, fxs_vec2_zero(), FXS_ONE));
    TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_field_fill_flow(&f, &ff_a));
    TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_field_fill_flow(&p, &ff_b));
    TEST_ASSERT_EQUAL_MEMORY(flow_a, flow_b, sizeof(fxs_vec2) * w * h);
    size_t n = fxs_nav_field_save(&f, saved_a, sizeof saved_a);
    TEST_ASSERT_EQUAL_size_t(n, fxs_nav_field_save(&p, saved_b, sizeof saved_b));
    TEST_ASSERT_EQUAL_MEMORY(saved_a, saved_b, n);
    if (g.cost[goals[0]] == 0 && (trial % 3 != 0)) { // one blocked goal: the empty field
      fxs_nav_field e;
      memset(&e, 0, sizeof e);
      fxs_nav_field_pack_empty(&e, &g, packed);
      TEST_ASSERT_EQUAL_UINT32(f.current, e.current);
      TEST_ASSERT_EQUAL_UINT32(f.queued, e.queued);
      TEST_ASSERT_EQUAL_UINT32(f.settled, e.settled);
      TEST_ASSERT_EQUAL_UINT32(f.status, e.status);
      for (uint32_t i = 0; i < w * h; ++i) {
        TEST_ASSERT_EQUAL_UINT32(U, fxs_nav_field_value(&e, i % w, i / w));
        TEST_ASSERT_EQUAL_UINT32(fxs_nav_field_direction(&f, i % w, i / w),
                                 fxs_nav_field_direction(&e, i % w, i / w));
      }
    }
  }
  TEST_ASSERT_TRUE(compared > 5000 && finite > 2000 && sinks > 50);
}
