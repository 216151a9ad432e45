#include <string.h>

#include "unity.h"

#include "vec2.h"
#include "result.h"
#include "nav_grid.h"
#include "nav_path.h"
#include "bytes.h"
#include "nav_state.h"
#include "nav_sight.h"
#include "fxs_test_util.h"

void setUp(void) {}
void tearDown(void) {}

#define SIDE 16u
#define CELLS (SIDE * SIDE)
static uint8_t costs[CELLS];
static uint64_t memory_a[(CELLS * 25u) / 8u + 64u];
static uint64_t memory_b[(CELLS * 25u) / 8u + 64u];

// A grid drawn as text, top row first (y grows upward): '#' blocked, '.' cost 1, digits
// 1-9 that cost.
static fxs_nav_grid draw(const char *const *rows, uint32_t h) {
  uint32_t w = (uint32_t)strlen(rows[0]);
  fxs_nav_grid g;
  TEST_ASSERT_EQUAL(FXS_OK,
                    fxs_nav_grid_init(&g, costs, CELLS, w, h, fxs_vec2_zero(), FXS_INT(10), 1));
  for (uint32_t r = 0; r < h; ++r) {
    for (uint32_t x = 0; x < w; ++x) {
      char c = rows[r][x];
      uint32_t y = h - 1u - r;
      g.cost[y * w + x] = c == '#' ? 0 : c == '.' ? 1 : (uint8_t)(c - '0');
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

static fxs_nav_search new_search(uint64_t *memory, uint32_t cells, uint32_t open) {
  fxs_nav_search s;
  size_t size = fxs_nav_search_memory_size(cells, open);
  TEST_ASSERT_TRUE(size > 0 && size <= sizeof memory_a);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_search_init(&s, memory, size, cells, open));
  return s;
}

static fxs_nav_status run(fxs_nav_search *s, const fxs_nav_grid *g, uint32_t sx, uint32_t sy,
                          uint32_t gx, uint32_t gy) {
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_search_begin(s, g, sx, sy, gx, gy));
  return fxs_nav_search_step(s, g, UINT32_MAX);
}

// The path as "x,y x,y ...".
static const char *path_text(const fxs_nav_search *s, const fxs_nav_grid *g) {
  static char text[1024];
  uint32_t cells[CELLS];
  uint32_t n = fxs_nav_search_path(s, cells, CELLS);
  size_t at = 0;
  text[0] = 0;
  for (uint32_t i = 0; i < n && at < sizeof text - 16; ++i) {
    at += (size_t)snprintf(text + at, sizeof text - at, i ? " %u,%u" : "%u,%u",
                           (unsigned)(cells[i] % g->width), (unsigned)(cells[i] / g->width));
  }
  return text;
}

void test_memory_size_and_init_refuse_bad_capacities(void) {
  fxs_nav_search s;
  TEST_ASSERT_EQUAL(0, fxs_nav_search_memory_size(0, 1));
  TEST_ASSERT_EQUAL(0, fxs_nav_search_memory_size(10, 0));
  TEST_ASSERT_EQUAL(0, fxs_nav_search_memory_size(10, 11));
  TEST_ASSERT_EQUAL(0, fxs_nav_search_memory_size(FXS_NAV_MAX_CELLS + 1u, 1));
  // 13 bytes a cell (g, heap position, touched list, state) and 8 an open entry, aligned.
  TEST_ASSERT_EQUAL(3u * 40u + 16u + 80u, fxs_nav_search_memory_size(10, 10));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_nav_search_init(&s, memory_a, sizeof memory_a, 0, 1));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_nav_search_init(&s, NULL, sizeof memory_a, 10, 1));
  TEST_ASSERT_EQUAL(FXS_ERR_BUFFER_TOO_SMALL, fxs_nav_search_init(&s, memory_a, 100, 10, 10));
}

void test_begin_refuses_cells_outside_and_grids_too_large(void) {
  fxs_nav_grid g = open_grid(5, 4);
  fxs_nav_search s = new_search(memory_a, 20, 20);
  TEST_ASSERT_EQUAL(FXS_ERR_OUTSIDE_GRID, fxs_nav_search_begin(&s, &g, 5, 0, 0, 0));
  TEST_ASSERT_EQUAL(FXS_ERR_OUTSIDE_GRID, fxs_nav_search_begin(&s, &g, 0, 0, 0, 4));
  TEST_ASSERT_EQUAL(FXS_NAV_IDLE, s.status);
  TEST_ASSERT_EQUAL_UINT32(0, fxs_nav_search_path(&s, NULL, 0));
  fxs_nav_search small = new_search(memory_b, 19, 19);
  TEST_ASSERT_EQUAL(FXS_ERR_CAPACITY, fxs_nav_search_begin(&small, &g, 0, 0, 1, 1));
}

void test_a_straight_path_costs_ten_a_step_and_a_start_on_the_goal_costs_nothing(void) {
  fxs_nav_grid g = open_grid(6, 3);
  fxs_nav_search s = new_search(memory_a, CELLS, CELLS);
  TEST_ASSERT_EQUAL(FXS_NAV_FOUND, run(&s, &g, 0, 1, 5, 1));
  TEST_ASSERT_EQUAL_STRING("0,1 1,1 2,1 3,1 4,1 5,1", path_text(&s, &g));
  TEST_ASSERT_EQUAL_UINT32(50, fxs_nav_search_cost(&s));
  // Expanded: exactly the six cells of the line (each the only one at the least f and h).
  TEST_ASSERT_EQUAL_UINT32(6, s.expanded);
  TEST_ASSERT_EQUAL(FXS_NAV_FOUND, run(&s, &g, 3, 2, 3, 2));
  TEST_ASSERT_EQUAL_STRING("3,2", path_text(&s, &g));
  TEST_ASSERT_EQUAL_UINT32(0, fxs_nav_search_cost(&s));
}

// Start (0,0), goal (9,4) on an open grid: every route of 5 straight and 4 diagonal steps
// costs 106. The lower h of the tie order takes the diagonals first: at (k, k) a diagonal
// step leaves h = 10 (9 - k - 1) + 4 (4 - k - 1) against 10 (8 - k) + 4 (4 - k) straight.
void test_among_equal_routes_the_lower_h_takes_the_diagonals_first(void) {
  fxs_nav_grid g = open_grid(10, 6);
  fxs_nav_search s = new_search(memory_a, CELLS, CELLS);
  TEST_ASSERT_EQUAL(FXS_NAV_FOUND, run(&s, &g, 0, 0, 9, 4));
  TEST_ASSERT_EQUAL_STRING("0,0 1,1 2,2 3,3 4,4 5,4 6,4 7,4 8,4 9,4", path_text(&s, &g));
  TEST_ASSERT_EQUAL_UINT32(106, fxs_nav_search_cost(&s));
  // The mirror image goes the mirrored way.
  TEST_ASSERT_EQUAL(FXS_NAV_FOUND, run(&s, &g, 9, 4, 0, 0));
  TEST_ASSERT_EQUAL_STRING("9,4 8,3 7,2 6,1 5,0 4,0 3,0 2,0 1,0 0,0", path_text(&s, &g));
}

// Around a blocked centre, the two routes (left and right) are equal in f and h cell for
// cell; the lower cell index decides, hand-traced: (1,0) expands (0,0) [index 0] before
// (2,0) [index 2]; (0,1) [f 34, h 14] comes next; then (0,2) and (2,2) tie at f 40, h 10,
// and (0,2) [index 6] wins over (2,2) [index 8]. Diagonals past the centre are corner cuts.
void test_equal_routes_around_a_block_go_by_the_lower_cell_index(void) {
  static const char *const rows[] = {"...", ".#.", "..."};
  fxs_nav_grid g = draw(rows, 3);
  fxs_nav_search s = new_search(memory_a, CELLS, CELLS);
  TEST_ASSERT_EQUAL(FXS_NAV_FOUND, run(&s, &g, 1, 0, 1, 2));
  TEST_ASSERT_EQUAL_STRING("1,0 0,0 0,1 0,2 1,2", path_text(&s, &g));
  TEST_ASSERT_EQUAL_UINT32(40, fxs_nav_search_cost(&s));
  // Left to right around it: row 0 (lower indices) beats row 2.
  TEST_ASSERT_EQUAL(FXS_NAV_FOUND, run(&s, &g, 0, 1, 2, 1));
  TEST_ASSERT_EQUAL_STRING("0,1 0,0 1,0 2,0 2,1", path_text(&s, &g));
}

void test_no_corner_is_cut_past_a_blocked_cell(void) {
  static const char *const rows[] = {"..", ".#"};
  fxs_nav_grid g = draw(rows, 2); // (1, 0) blocked
  fxs_nav_search s = new_search(memory_a, CELLS, CELLS);
  TEST_ASSERT_EQUAL(FXS_NAV_FOUND, run(&s, &g, 0, 0, 1, 1));
  TEST_ASSERT_EQUAL_STRING("0,0 0,1 1,1", path_text(&s, &g));
  TEST_ASSERT_EQUAL_UINT32(20, fxs_nav_search_cost(&s));
}

// Weights: the straight run through mud of cost 5 (4 x 50 + 10 = 210) loses to a detour
// over a cost-1 row (14 + 10 + 10 + 10 + 14 = 58).
void test_weights_send_the_path_round_dear_cells(void) {
  static const char *const rows[] = {"......", ".5555.", "......"};
  fxs_nav_grid g = draw(rows, 3);
  fxs_nav_search s = new_search(memory_a, CELLS, CELLS);
  TEST_ASSERT_EQUAL(FXS_NAV_FOUND, run(&s, &g, 0, 1, 5, 1));
  TEST_ASSERT_EQUAL_UINT32(58, fxs_nav_search_cost(&s));
  // Row 0 has the lower indices: of the two mirror detours it is taken.
  TEST_ASSERT_EQUAL_STRING("0,1 1,0 2,0 3,0 4,0 5,1", path_text(&s, &g));
}

// The goal inside a closed room: the search empties the open list and the path ends on the
// reachable cell of least h, then g, then index. At h 20 from the goal (4, 3) lie (2, 3),
// (6, 3) and (4, 1); (2, 3) is the cheapest to reach (g 20; (4, 1) costs 48).
void test_an_unreachable_goal_gives_the_path_to_the_nearest_reachable_cell(void) {
  static const char *const rows[] = {".......",  // y = 6
                                     "...###.",  // y = 5
                                     "...#.#.",  // y = 4
                                     "...#.#.",  // y = 3
                                     "...###.",  // y = 2
                                     ".......",  // y = 1
                                     "......."}; // y = 0
  fxs_nav_grid g = draw(rows, 7);
  fxs_nav_search s = new_search(memory_a, CELLS, CELLS);
  TEST_ASSERT_EQUAL(FXS_NAV_NEAREST, run(&s, &g, 0, 3, 4, 3));
  TEST_ASSERT_EQUAL_STRING("0,3 1,3 2,3", path_text(&s, &g));
  TEST_ASSERT_EQUAL_UINT32(20, fxs_nav_search_cost(&s));
  // Every reachable cell was expanded (49 cells, 10 walls, 2 enclosed).
  TEST_ASSERT_EQUAL_UINT32(37, s.expanded);
  // A blocked goal is unreachable as well: the path ends beside it.
  g.cost[3 * 7 + 4] = 0;
  TEST_ASSERT_EQUAL(FXS_NAV_NEAREST, run(&s, &g, 0, 3, 4, 3));
  TEST_ASSERT_EQUAL_STRING("0,3 1,3 2,3", path_text(&s, &g));
}

void test_a_full_open_list_ends_the_search_at_the_best_cell_so_far(void) {
  fxs_nav_grid g = open_grid(8, 8);
  fxs_nav_search s = new_search(memory_a, 64, 3);
  TEST_ASSERT_EQUAL(FXS_NAV_OPEN_FULL, run(&s, &g, 0, 0, 7, 0));
  // (0,0) opens (1,0), (0,1) and (1,1); (1,0) (f 70) is expanded next, opens (2,0) and finds
  // no room for (2,1): the best cell so far is (1,0) (h 60 against 70 for the start).
  TEST_ASSERT_EQUAL_STRING("0,0 1,0", path_text(&s, &g));
}

// ------------------------------------------------------------------ reference search

// Dijkstra from the start, O(n^2), with the step rules written out again.
static void reference_costs(const fxs_nav_grid *g, uint32_t start, uint32_t *dist) {
  uint32_t n = g->width * g->height;
  bool done[CELLS];
  for (uint32_t i = 0; i < n; ++i) dist[i] = UINT32_MAX, done[i] = false;
  dist[start] = 0;
  for (;;) {
    uint32_t best = UINT32_MAX;
    for (uint32_t i = 0; i < n; ++i) {
      if (!done[i] && dist[i] != UINT32_MAX && (best == UINT32_MAX || dist[i] < dist[best]))
        best = i;
    }
    if (best == UINT32_MAX) return;
    done[best] = true;
    int x = (int)(best % g->width), y = (int)(best / g->width);
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        if (!dx && !dy) continue;
        int nx = x + dx, ny = y + dy;
        if (fxs_nav_grid_cost(g, nx, ny) == 0) continue;
        if (dx && dy && (fxs_nav_grid_cost(g, nx, y) == 0 || fxs_nav_grid_cost(g, x, ny) == 0))
          continue;
        uint32_t c = (dx && dy ? 14u : 10u) * fxs_nav_grid_cost(g, nx, ny);
        uint32_t ni = (uint32_t)ny * g->width + (uint32_t)nx;
        if (dist[best] + c < dist[ni]) dist[ni] = dist[best] + c;
      }
    }
  }
}

static uint32_t octile(uint32_t a, uint32_t b, uint32_t w) {
  int dx = (int)(a % w) - (int)(b % w), dy = (int)(a / w) - (int)(b / w);
  dx = dx < 0 ? -dx : dx, dy = dy < 0 ? -dy : dy;
  return dx > dy ? 10u * (uint32_t)dx + 4u * (uint32_t)dy : 10u * (uint32_t)dy + 4u * (uint32_t)dx;
}

static uint32_t lcg(uint32_t *s) {
  *s = *s * 1664525u + 1013904223u;
  return *s >> 8;
}

// The path's steps are allowed and their costs add up to the reported cost.
static void check_path(const fxs_nav_search *s, const fxs_nav_grid *g) {
  uint32_t cells[CELLS];
  uint32_t n = fxs_nav_search_path(s, cells, CELLS);
  TEST_ASSERT_TRUE(n >= 1);
  TEST_ASSERT_EQUAL_UINT32(s->start, cells[0]);
  TEST_ASSERT_EQUAL_UINT32(s->end, cells[n - 1]);
  uint32_t total = 0;
  for (uint32_t i = 1; i < n; ++i) {
    uint32_t a = cells[i - 1], b = cells[i];
    int dx = (int)(b % g->width) - (int)(a % g->width),
        dy = (int)(b / g->width) - (int)(a / g->width);
    TEST_ASSERT_TRUE(dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1 && (dx || dy));
    uint32_t dir = 0;
    for (uint32_t d = 0; d < 8; ++d) {
      int32_t sx, sy;
      fxs_nav_direction_step(d, &sx, &sy);
      if (sx == dx && sy == dy) dir = d;
    }
    TEST_ASSERT_TRUE(fxs_nav_grid_can_step(g, a % g->width, a / g->width, dir));
    total += (dx && dy ? 14u : 10u) * g->cost[b];
  }
  TEST_ASSERT_EQUAL_UINT32(fxs_nav_search_cost(s), total);
}

// 400 seeded 12 x 12 grids (a third of the cells blocked, weights 1-4): the path is valid
// and as cheap as the reference's; an unreachable goal gives the reachable cell of least
// (h, cost, index) by the reference's costs.
void test_paths_are_cheapest_and_the_nearest_rule_holds_on_random_grids(void) {
  uint32_t seed = 99u, found = 0, nearest = 0;
  uint32_t dist[CELLS];
  fxs_nav_search s = new_search(memory_a, CELLS, CELLS);
  for (int trial = 0; trial < 400; ++trial) {
    fxs_nav_grid g = open_grid(12, 12);
    for (uint32_t i = 0; i < 144; ++i) {
      uint32_t r = lcg(&seed) % 12u;
      g.cost[i] = r < 4 ? 0 : (uint8_t)(1u + r % 4u);
    }
    uint32_t start = lcg(&seed) % 144u, goal = lcg(&seed) % 144u;
    fxs_nav_status st = run(&s, &g, start % 12, start / 12, goal % 12, goal / 12);
    reference_costs(&g, start, dist);
    check_path(&s, &g);
    if (dist[goal] != UINT32_MAX && g.cost[goal] != 0) {
      TEST_ASSERT_EQUAL(FXS_NAV_FOUND, st);
      TEST_ASSERT_EQUAL_UINT32(dist[goal], fxs_nav_search_cost(&s));
      found++;
      continue;
    }
    TEST_ASSERT_EQUAL(FXS_NAV_NEAREST, st);
    uint32_t best = start;
    for (uint32_t i = 0; i < 144; ++i) {
      if (dist[i] == UINT32_MAX) continue;
      uint32_t hi = octile(i, goal, 12), hb = octile(best, goal, 12);
      if (hi < hb || (hi == hb && (dist[i] < dist[best] || (dist[i] == dist[best] && i < best))))
        best = i;
    }
    TEST_ASSERT_EQUAL_UINT32(best, s.end);
    TEST_ASSERT_EQUAL_UINT32(dist[best], fxs_nav_search_cost(&s));
    nearest++;
  }
  TEST_ASSERT_TRUE(found > 100 && nearest > 50);
}

// ------------------------------------------------------------------ budget and snapshots

static size_t save(const fxs_nav_search *s, uint8_t *buffer, size_t capacity) {
  size_t n = fxs_nav_search_save(s, buffer, capacity);
  TEST_ASSERT_TRUE(n <= capacity);
  return n;
}

void test_a_budgeted_search_expands_the_same_cells_as_one_run(void) {
  static const char *const rows[] = {"..........", ".########.", ".#......#.", ".#.####.#.",
                                     ".#.#..#.#.", ".#.#.##.#.", ".#.#....#.", ".#.######.",
                                     ".#........", ".#########"};
  fxs_nav_grid g = draw(rows, 10);
  fxs_nav_search whole = new_search(memory_a, CELLS, CELLS);
  fxs_nav_search part = new_search(memory_b, CELLS, CELLS);
  TEST_ASSERT_EQUAL(FXS_NAV_FOUND, run(&whole, &g, 0, 0, 4, 5));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_search_begin(&part, &g, 0, 0, 4, 5));
  uint32_t calls = 0;
  while (fxs_nav_search_step(&part, &g, 3) == FXS_NAV_SEARCHING) {
    calls++;
    TEST_ASSERT_EQUAL_UINT32(3u * calls, part.expanded);
  }
  TEST_ASSERT_EQUAL(FXS_NAV_FOUND, part.status);
  TEST_ASSERT_EQUAL_UINT32(whole.expanded, part.expanded);
  TEST_ASSERT_TRUE(calls > 10);
  char want[1024];
  strcpy(want, path_text(&whole, &g));
  TEST_ASSERT_EQUAL_STRING(want, path_text(&part, &g));
  TEST_ASSERT_EQUAL_UINT32(fxs_nav_search_cost(&whole), fxs_nav_search_cost(&part));
  // A budget of 0 does nothing.
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_search_begin(&part, &g, 0, 0, 4, 5));
  TEST_ASSERT_EQUAL(FXS_NAV_SEARCHING, fxs_nav_search_step(&part, &g, 0));
  TEST_ASSERT_EQUAL_UINT32(0, part.expanded);
}

// Snapshot a search mid-way, restore it into memory full of junk, continue both: the saved
// bytes agree after every step and the paths are the same.
void test_a_search_restored_into_junk_memory_continues_identically(void) {
  static const char *const rows[] = {"............", ".##########.", ".#........#.", ".#.######.#.",
                                     ".#.#....#.#.", ".#.#.##.#.#.", ".#.#.#..#.#.", ".#...#.##.#.",
                                     ".#####....#.", "..........#."};
  fxs_nav_grid g = draw(rows, 10);
  static uint8_t bytes_a[8192], bytes_b[8192];
  for (uint32_t stop = 1; stop < 40; stop += 3) {
    fxs_nav_search a = new_search(memory_a, CELLS, CELLS);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_search_begin(&a, &g, 0, 0, 7, 4));
    for (uint32_t k = 0; k < stop; ++k) fxs_nav_search_step(&a, &g, 2);
    size_t n = save(&a, bytes_a, sizeof bytes_a);
    memset(memory_b, 0xA5, sizeof memory_b);
    fxs_nav_search b = new_search(memory_b, CELLS, CELLS);
    memset(memory_b, 0x5A, fxs_nav_search_memory_size(CELLS, CELLS)); // junk after init too
    TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_search_restore(&b, bytes_a, n));
    TEST_ASSERT_EQUAL_MEMORY(bytes_a, bytes_b, save(&b, bytes_b, sizeof bytes_b));
    for (;;) {
      fxs_nav_status sa = fxs_nav_search_step(&a, &g, 2), sb = fxs_nav_search_step(&b, &g, 2);
      TEST_ASSERT_EQUAL(sa, sb);
      size_t na = save(&a, bytes_a, sizeof bytes_a), nb = save(&b, bytes_b, sizeof bytes_b);
      TEST_ASSERT_EQUAL(na, nb);
      TEST_ASSERT_EQUAL_MEMORY(bytes_a, bytes_b, na);
      if (sa != FXS_NAV_SEARCHING) break;
    }
    TEST_ASSERT_EQUAL(FXS_NAV_FOUND, a.status);
    char want[1024];
    strcpy(want, path_text(&a, &g));
    TEST_ASSERT_EQUAL_STRING(want, path_text(&b, &g));
    // A new search on the restored one resets only what the old one touched: still right.
    TEST_ASSERT_EQUAL(FXS_NAV_FOUND, run(&b, &g, 11, 9, 7, 4));
    TEST_ASSERT_EQUAL(FXS_NAV_FOUND, run(&a, &g, 11, 9, 7, 4));
    strcpy(want, path_text(&a, &g));
    TEST_ASSERT_EQUAL_STRING(want, path_text(&b, &g));
  }
}

void test_the_saved_layout_is_little_endian_and_an_idle_search_saves_zeros(void) {
  fxs_nav_search s = new_search(memory_a, CELLS, CELLS);
  uint8_t bytes[256];
  TEST_ASSERT_EQUAL(36, fxs_nav_search_save(&s, NULL, 0));
  TEST_ASSERT_EQUAL(36, save(&s, bytes, sizeof bytes));
  for (int i = 0; i < 36; ++i) TEST_ASSERT_EQUAL_UINT8(0, bytes[i]);
  fxs_nav_grid g = open_grid(3, 2);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_search_begin(&s, &g, 1, 0, 2, 1));
  // width 3, height 2, start 1, goal 5, searching, end 1, 0 expanded, 1 open, 1 touched;
  // cell 1, g 0, state open (0x10); heap: cell 1.
  static const uint8_t want[] = {3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0,    0, 5, 0, 0, 0, 1,
                                 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,    1, 0, 0, 0, 1, 0,
                                 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0x10, 1, 0, 0, 0};
  TEST_ASSERT_EQUAL(sizeof want, save(&s, bytes, sizeof bytes));
  TEST_ASSERT_EQUAL_MEMORY(want, bytes, sizeof want);
  // Too small a buffer: nothing written, the size returned.
  memset(bytes, 0xEE, sizeof bytes);
  TEST_ASSERT_EQUAL(sizeof want, fxs_nav_search_save(&s, bytes, 10));
  TEST_ASSERT_EQUAL_UINT8(0xEE, bytes[0]);
}

// Every truncation and every single-byte change of a saved search mid-way is refused with a
// named result or gives a state that runs to an end within the grid's cells.
void test_hostile_saved_searches_are_refused_or_run_safely(void) {
  static const char *const rows[] = {"......", ".####.", "....#.", "##..#.", "......"};
  fxs_nav_grid g = draw(rows, 5);
  fxs_nav_search a = new_search(memory_a, CELLS, CELLS);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_search_begin(&a, &g, 0, 0, 2, 2));
  fxs_nav_search_step(&a, &g, 6);
  static uint8_t bytes[4096], bad[4096];
  size_t n = save(&a, bytes, sizeof bytes);
  fxs_nav_search b = new_search(memory_b, CELLS, CELLS);
  for (size_t cut = 0; cut < n; ++cut) {
    TEST_ASSERT_EQUAL(FXS_ERR_TRUNCATED, fxs_nav_search_restore(&b, bytes, cut));
    TEST_ASSERT_EQUAL(FXS_NAV_IDLE, b.status);
  }
  memcpy(bad, bytes, n);
  bad[n] = 0;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_LENGTH, fxs_nav_search_restore(&b, bad, n + 1));
  uint32_t refused = 0;
  for (size_t i = 0; i < n; ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      memcpy(bad, bytes, n);
      bad[i] ^= (uint8_t)(1u << bit);
      fxs_result r = fxs_nav_search_restore(&b, bad, n);
      if (r != FXS_OK) {
        TEST_ASSERT_TRUE(r == FXS_ERR_BAD_VALUE || r == FXS_ERR_CAPACITY ||
                         r == FXS_ERR_TRUNCATED || r == FXS_ERR_BAD_LENGTH);
        TEST_ASSERT_EQUAL(FXS_NAV_IDLE, b.status);
        refused++;
        continue;
      }
      fxs_nav_grid other = g;
      other.width = b.width, other.height = b.height;
      if ((uint64_t)b.width * b.height > CELLS) continue;
      fxs_nav_search_step(&b, &other, UINT32_MAX);
      TEST_ASSERT_TRUE(fxs_nav_search_path(&b, NULL, 0) <= b.width * b.height);
    }
  }
  TEST_ASSERT_TRUE(refused >= n);
  // Named corruptions: a width beyond the capacity, a cell outside the grid.
  memcpy(bad, bytes, n);
  bad[0] = 0xFF, bad[1] = 0x7F; // width 32767: 163835 cells
  TEST_ASSERT_EQUAL(FXS_ERR_CAPACITY, fxs_nav_search_restore(&b, bad, n));
  memcpy(bad, bytes, n);
  bad[36] = 200; // the first touched cell: 200 of 30
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_nav_search_restore(&b, bad, n));
}

// Reads `size` bytes into a search with fxs_nav_search_read; the bytes it consumed in *used.
static fxs_result read_into(fxs_nav_search *s, const uint8_t *bytes, size_t size, size_t *used) {
  fxs_reader r = fxs_reader_make(bytes, size);
  fxs_result res = fxs_nav_search_read(s, &r);
  *used = r.position;
  return res;
}

// The checking search (nav_state.h: g and state bits only) against a full one, on the same
// bytes: the same result and bytes read, and when accepted the same numbers, g and state
// bits of every cell; refused, idle with every state bit clear.
static fxs_result assert_check_reads_alike(fxs_nav_search *full, fxs_nav_search *check,
                                           const uint8_t *bytes, size_t size) {
  size_t used_full = 0, used_check = 0;
  fxs_result want = read_into(full, bytes, size, &used_full);
  fxs_result got = read_into(check, bytes, size, &used_check);
  TEST_ASSERT_EQUAL(want, got);
  TEST_ASSERT_EQUAL(used_full, used_check);
  TEST_ASSERT_EQUAL_UINT32(full->status, check->status);
  TEST_ASSERT_EQUAL_UINT32(full->touched_count, check->touched_count);
  TEST_ASSERT_EQUAL_UINT32(full->open_count, check->open_count);
  TEST_ASSERT_EQUAL_UINT32(full->expanded, check->expanded);
  TEST_ASSERT_EQUAL_UINT32(full->end, check->end);
  TEST_ASSERT_EQUAL_MEMORY(full->state, check->state, CELLS);
  for (uint32_t i = 0; i < full->touched_count; ++i) {
    uint32_t c = full->touched[i];
    TEST_ASSERT_EQUAL_UINT32(full->g[c], check->g[c]);
  }
  if (got != FXS_OK) {
    static const uint8_t zero[CELLS];
    TEST_ASSERT_EQUAL(FXS_NAV_IDLE, check->status);
    TEST_ASSERT_EQUAL_MEMORY(zero, check->state, CELLS);
  }
  return got;
}

// A checking search accepts and refuses exactly what a full search does: saved searches at
// several points (idle, begun, mid-way with an open list, found), every truncation and every
// single-bit change of them.
void test_a_checking_search_reads_exactly_as_a_full_search(void) {
  static const char *const rows[] = {"......", ".####.", "....#.", "##..#.", "......"};
  fxs_nav_grid g = draw(rows, 5);
  static uint32_t check_g[CELLS];
  static uint8_t check_state[CELLS];
  static uint8_t bytes[4096], bad[4096];
  memset(check_g, 0xA5, sizeof check_g);
  memset(check_state, 0x5A, sizeof check_state);
  fxs_nav_search check;
  fxs_nav_check_init(&check, check_g, check_state, CELLS, CELLS);
  TEST_ASSERT_NULL(check.touched);
  TEST_ASSERT_NULL(check.open);
  TEST_ASSERT_NULL(check.open_at);
  static const uint8_t zero[CELLS];
  TEST_ASSERT_EQUAL_MEMORY(zero, check_state, CELLS); // cleared by init
  fxs_nav_search full = new_search(memory_b, CELLS, CELLS);
  uint32_t accepted = 0, refused = 0;
  static const int32_t steps[] = {-1, 0, 3, 6, 11, 1000};
  for (size_t k = 0; k < sizeof steps / sizeof steps[0]; ++k) {
    fxs_nav_search a = new_search(memory_a, CELLS, CELLS);
    if (steps[k] >= 0) {
      TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_search_begin(&a, &g, 0, 0, 2, 2));
      fxs_nav_search_step(&a, &g, (uint32_t)steps[k]);
    }
    size_t n = save(&a, bytes, sizeof bytes);
    assert_check_reads_alike(&full, &check, bytes, n);
    TEST_ASSERT_EQUAL(n, save(&full, bad, sizeof bad)); // the full one took it whole
    TEST_ASSERT_EQUAL_MEMORY(bytes, bad, n);
    for (size_t cut = 0; cut < n; ++cut) assert_check_reads_alike(&full, &check, bytes, cut);
    for (size_t i = 0; i < n; ++i) {
      for (int bit = 0; bit < 8; ++bit) {
        memcpy(bad, bytes, n);
        bad[i] ^= (uint8_t)(1u << bit);
        if (assert_check_reads_alike(&full, &check, bad, n) == FXS_OK) {
          accepted++;
        } else {
          refused++;
        }
      }
    }
  }
  TEST_ASSERT_TRUE(refused > 100 && accepted > 100); // both ways were tried
  // A heap out of order: its first cell (the least) and its last swapped.
  fxs_nav_search a = new_search(memory_a, CELLS, CELLS);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_nav_search_begin(&a, &g, 0, 0, 2, 2));
  fxs_nav_search_step(&a, &g, 3);
  TEST_ASSERT_TRUE(a.open_count >= 2);
  size_t n = save(&a, bytes, sizeof bytes), heap = n - 4u * a.open_count;
  memcpy(bad, bytes, n);
  memcpy(bad + heap, bytes + n - 4u, 4);
  memcpy(bad + n - 4u, bytes + heap, 4);
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, assert_check_reads_alike(&full, &check, bad, n));
  // A heap cell listed twice.
  memcpy(bad, bytes, n);
  memcpy(bad + n - 4u, bytes + heap, 4);
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, assert_check_reads_alike(&full, &check, bad, n));
  // Accepted again after the refusals: nothing of them is left in the checking search.
  TEST_ASSERT_EQUAL(FXS_OK, assert_check_reads_alike(&full, &check, bytes, n));
}

// ------------------------------------------------------------------ line of sight

void test_line_of_sight_covers_every_cell_the_line_touches(void) {
  fxs_nav_grid g = open_grid(4, 4);
  // (0,0) -> (2,1) runs through (0,0), (1,0), (1,1), (2,1).
  TEST_ASSERT_TRUE(fxs_nav_line_of_sight(&g, 0, 0, 2, 1));
  g.cost[1 * 4 + 1] = 0;
  TEST_ASSERT_FALSE(fxs_nav_line_of_sight(&g, 0, 0, 2, 1));
  TEST_ASSERT_FALSE(fxs_nav_line_of_sight(&g, 2, 1, 0, 0));
  g.cost[1 * 4 + 1] = 1;
  g.cost[0 * 4 + 2] = 0; // (2, 0): not touched
  g.cost[1 * 4 + 0] = 0; // (0, 1): not touched
  TEST_ASSERT_TRUE(fxs_nav_line_of_sight(&g, 0, 0, 2, 1));
  g.cost[0 * 4 + 1] = 0; // (1, 0): touched
  TEST_ASSERT_FALSE(fxs_nav_line_of_sight(&g, 0, 0, 2, 1));
}

void test_line_of_sight_through_a_corner_needs_both_cells_beside_it(void) {
  fxs_nav_grid g = open_grid(3, 3);
  TEST_ASSERT_TRUE(fxs_nav_line_of_sight(&g, 0, 0, 2, 2));
  g.cost[0 * 3 + 1] = 0; // (1, 0)
  TEST_ASSERT_FALSE(fxs_nav_line_of_sight(&g, 0, 0, 2, 2));
  g.cost[0 * 3 + 1] = 1;
  g.cost[2 * 3 + 1] = 0; // (1, 2), beside the second corner
  TEST_ASSERT_FALSE(fxs_nav_line_of_sight(&g, 0, 0, 2, 2));
  TEST_ASSERT_TRUE(fxs_nav_line_of_sight(&g, 0, 0, 1, 1));
  // The start may be blocked, the end may not.
  g.cost[0] = 0;
  TEST_ASSERT_TRUE(fxs_nav_line_of_sight(&g, 0, 0, 1, 1));
  TEST_ASSERT_FALSE(fxs_nav_line_of_sight(&g, 1, 1, 0, 0));
  TEST_ASSERT_FALSE(fxs_nav_line_of_sight(&g, 0, 0, 3, 0)); // outside
}

// The exact touch test names the very cells the walk needs walkable: on a 9 x 9 grid, for
// every pair of cells and every other cell, the line touches that cell exactly when the line
// of sight fails with that cell alone blocked (corners, both ways, steep and shallow lines).
void test_a_segment_touches_exactly_the_cells_its_line_of_sight_needs(void) {
  fxs_nav_grid g = open_grid(9, 9);
  uint32_t touched = 0, pairs = 0;
  for (uint32_t a = 0; a < 81u; ++a) {
    for (uint32_t b = 0; b < 81u; ++b) {
      for (uint32_t c = 0; c < 81u; ++c) {
        if (c == a) continue;
        g.cost[c] = 0;
        bool hidden = !fxs_nav_line_of_sight(&g, a % 9u, a / 9u, b % 9u, b / 9u);
        g.cost[c] = 1;
        bool touches = fxs_nav_segment_touches_cell(a % 9u, a / 9u, b % 9u, b / 9u, c % 9u, c / 9u);
        TEST_ASSERT_EQUAL(hidden, touches);
        touched += touches, pairs++;
      }
    }
  }
  TEST_ASSERT_TRUE(touched > pairs / 20 && touched < pairs / 2);
}

// The walk's witness: clear exactly when the line of sight holds, else a blocked cell the
// line touches (never the start), on grids with random blocked cells; off the grid, its own
// answer.
void test_the_sight_blocker_names_a_blocked_cell_the_line_touches(void) {
  fxs_nav_grid g = open_grid(SIDE, SIDE);
  uint32_t state = 12345u, blocked = 0;
  for (int round = 0; round < 20; ++round) {
    for (uint32_t c = 0; c < CELLS; ++c) {
      state = state * 1664525u + 1013904223u;
      g.cost[c] = (state >> 24) % 8u == 0 ? 0 : 1;
    }
    for (uint32_t k = 0; k < 2000u; ++k) {
      state = state * 1664525u + 1013904223u;
      uint32_t a = (state >> 8) % CELLS, b = (state >> 20) % CELLS;
      uint32_t x0 = a % SIDE, y0 = a / SIDE, x1 = b % SIDE, y1 = b / SIDE;
      uint32_t at = fxs_nav_sight_blocker(&g, x0, y0, x1, y1);
      TEST_ASSERT_EQUAL(fxs_nav_line_of_sight(&g, x0, y0, x1, y1), at == FXS_NAV_SIGHT_CLEAR);
      if (at == FXS_NAV_SIGHT_CLEAR) continue;
      TEST_ASSERT_TRUE(at < CELLS && at != a);
      TEST_ASSERT_EQUAL_UINT8(0, g.cost[at]);
      TEST_ASSERT_TRUE(fxs_nav_segment_touches_cell(x0, y0, x1, y1, at % SIDE, at / SIDE));
      blocked++;
    }
  }
  TEST_ASSERT_TRUE(blocked > 4000u);
  TEST_ASSERT_EQUAL_UINT32(FXS_NAV_SIGHT_OFF_GRID, fxs_nav_sight_blocker(&g, 0, 0, SIDE, 3));
  TEST_ASSERT_EQUAL_UINT32(FXS_NAV_SIGHT_OFF_GRID, fxs_nav_sight_blocker(&g, 0, SIDE, 3, 3));
}

// Round the end of a wall: the path (0,0) (1,0) (2,0) (3,0) (3,1) (3,2) (2,2) (1,2) (0,2)
// is forced (no corner cutting); from (0,0) the line to (3,1) passes the corner of the
// blocked (2,1), so (3,0) is kept; from there (2,2) is hidden by (2,1), so (3,2) is kept.
void test_string_pulling_keeps_the_corners_only(void) {
  static const char *const rows[] = {"....", "###.", "...."};
  fxs_nav_grid g = draw(rows, 3);
  fxs_nav_search s = new_search(memory_a, CELLS, CELLS);
  TEST_ASSERT_EQUAL(FXS_NAV_FOUND, run(&s, &g, 0, 0, 0, 2));
  TEST_ASSERT_EQUAL_STRING("0,0 1,0 2,0 3,0 3,1 3,2 2,2 1,2 0,2", path_text(&s, &g));
  uint32_t cells[CELLS];
  uint32_t n = fxs_nav_search_path(&s, cells, CELLS);
  TEST_ASSERT_EQUAL_UINT32(4, fxs_nav_pull_string(&g, cells, n));
  TEST_ASSERT_EQUAL_UINT32(0, cells[0]);
  TEST_ASSERT_EQUAL_UINT32(3, cells[1]);
  TEST_ASSERT_EQUAL_UINT32(2 * 4 + 3, cells[2]);
  TEST_ASSERT_EQUAL_UINT32(2 * 4 + 0, cells[3]);
  // An open line stays two cells; short paths are kept as they are.
  uint32_t line[4] = {0, 1, 2, 3};
  TEST_ASSERT_EQUAL_UINT32(2, fxs_nav_pull_string(&g, line, 4));
  TEST_ASSERT_EQUAL_UINT32(3, line[1]);
  TEST_ASSERT_EQUAL_UINT32(2, fxs_nav_pull_string(&g, line, 2));
}

// On the random grids: consecutive kept cells see each other and no kept cell between two
// others could be dropped (the one before it does not see the one after it).
void test_pulled_strings_are_in_sight_and_minimal_on_random_grids(void) {
  uint32_t seed = 4242u, turns = 0;
  fxs_nav_search s = new_search(memory_a, CELLS, CELLS);
  for (int trial = 0; trial < 300; ++trial) {
    fxs_nav_grid g = open_grid(16, 16);
    for (uint32_t i = 0; i < 256; ++i) g.cost[i] = lcg(&seed) % 5u == 0 ? 0 : 1;
    uint32_t start = lcg(&seed) % 256u, goal = lcg(&seed) % 256u;
    g.cost[start] = 1;
    if (run(&s, &g, start % 16, start / 16, goal % 16, goal / 16) != FXS_NAV_FOUND) continue;
    uint32_t cells[CELLS];
    uint32_t n = fxs_nav_search_path(&s, cells, CELLS);
    uint32_t k = fxs_nav_pull_string(&g, cells, n);
    TEST_ASSERT_TRUE(k <= n && k >= (n > 1 ? 2u : 1u));
    TEST_ASSERT_EQUAL_UINT32(start, cells[0]);
    TEST_ASSERT_EQUAL_UINT32(goal, cells[k - 1]);
    for (uint32_t i = 1; i < k; ++i) {
      TEST_ASSERT_TRUE(fxs_nav_line_of_sight(&g, cells[i - 1] % 16, cells[i - 1] / 16,
                                             cells[i] % 16, cells[i] / 16));
    }
    for (uint32_t i = 1; i + 1 < k; ++i) {
      TEST_ASSERT_FALSE(fxs_nav_line_of_sight(&g, cells[i - 1] % 16, cells[i - 1] / 16,
                                              cells[i + 1] % 16, cells[i + 1] / 16));
      turns++;
    }
  }
  TEST_ASSERT_TRUE(turns > 100);
}

// The scene files' default open list, (4 cells + 4) / 5 entries (docs/navigation.md, "The
// scene files' default open list"), holds every search: over 400 seeded grids of up to
// 16 x 16 cells, each cell blocked with probability 1/4 or of cost 1 to 9, searched one
// expansion at a time (reachable goals and not), the open list never passes it, and a search
// with exactly that many entries ends as the one with an entry a cell, on the same path.
void test_an_open_list_of_four_fifths_of_the_cells_never_fills(void) {
  uint64_t seed = 0x9E3779B97F4A7C15u;
  uint32_t largest = 0, largest_cells = 1, full = 0; // the largest share of open cells
  for (uint32_t round = 0; round < 400u; ++round) {
    seed = seed * 6364136223846793005u + 1442695040888963407u;
    uint32_t w = 2u + (uint32_t)(seed >> 60) % (SIDE - 1u),
             h = 2u + (uint32_t)(seed >> 56) % (SIDE - 1u);
    fxs_nav_grid g = open_grid(w, h);
    for (uint32_t c = 0; c < w * h; ++c) {
      seed = seed * 6364136223846793005u + 1442695040888963407u;
      uint32_t r = (uint32_t)(seed >> 33);
      g.cost[c] = r % 4u == 0 ? 0 : (uint8_t)(1u + (r >> 8) % 9u);
    }
    uint32_t start = (uint32_t)(seed >> 40) % (w * h), goal = (uint32_t)(seed >> 20) % (w * h);
    g.cost[start] = 1;
    uint32_t bound = (4u * w * h + 4u) / 5u;
    fxs_nav_search all = new_search(memory_a, w * h, w * h);
    fxs_nav_search some = new_search(memory_b, w * h, bound);
    TEST_ASSERT_EQUAL(FXS_OK,
                      fxs_nav_search_begin(&all, &g, start % w, start / w, goal % w, goal / w));
    TEST_ASSERT_EQUAL(FXS_OK,
                      fxs_nav_search_begin(&some, &g, start % w, start / w, goal % w, goal / w));
    while (fxs_nav_search_step(&all, &g, 1) == FXS_NAV_SEARCHING) {
      if (all.open_count > bound) TEST_FAIL_MESSAGE("an open list passed (4 cells + 4) / 5");
      if (all.open_count * largest_cells > largest * w * h)
        largest = all.open_count, largest_cells = w * h;
    }
    fxs_nav_status end = fxs_nav_search_step(&some, &g, UINT32_MAX);
    full += end == FXS_NAV_OPEN_FULL;
    TEST_ASSERT_EQUAL(all.status, end);
    TEST_ASSERT_EQUAL_UINT32(fxs_nav_search_cost(&all), fxs_nav_search_cost(&some));
    TEST_ASSERT_EQUAL_STRING(path_text(&all, &g), path_text(&some, &g));
  }
  TEST_ASSERT_EQUAL_UINT32(0, full);
  FXS_TEST_REPORT("largest open list: %u of %u cells", (unsigned)largest, (unsigned)largest_cells);
  // The bound is not idle: some search holds a good part of its grid in its open list.
  TEST_ASSERT_TRUE(largest * 4u >= largest_cells);
}
