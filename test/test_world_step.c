// The world's step: the start-of-tick view in grid-cell order, the neighbor search over it,
// and per-agent phases run through a caller's task system with the same results.
#include <stdio.h>
#include <string.h>

#include "unity.h"

#include "vec2.h"
#include "rng.h"
#include "agent.h"
#include "behavior.h"
#include "orca.h"
#include "result.h"
#include "command.h"
#include "command_build.h"
#include "world.h"
#include "world_internal.h"
#include "world_grid.h"
#include "world_slots.h"
#include "snapshot.h"
#include "fxs_test_hash_v2.h"
#include "fxs_test_world.h"

static uint64_t memory[65536];
static fxs_world world;

static void make(uint32_t agents, fix16_t side, fix16_t neighbor_radius) {
  fxs_world_capacity c = {agents, 0, 0, 0, 0, FXS_MAX_WORKERS};
  fxs_world_def def = fxs_default_world_def();
  def.bounds_max = fxs_vec2_make(side, side);
  def.neighbor_radius = neighbor_radius;
  TEST_ASSERT_TRUE(fxs_world_memory_size(&c) <= sizeof memory);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&world, &def, &c, memory, sizeof memory));
}

void setUp(void) {}
void tearDown(void) {}

static fxs_agent_handle spawn_raw(fix16_t x, fix16_t y) { return fxs_test_spawn_raw(&world, x, y); }

static void add(fxs_agent_handle h, fxs_behavior kind, fix16_t p0) {
  fxs_test_add_behavior(&world, h, kind, p0);
}

// The view entry of slot `slot`, after fxs_grid_sort.
static uint32_t view_of(uint32_t slot) {
  for (uint32_t v = 0; v < world.internal->view_count; ++v) {
    if (world.internal->view_slot[v] == slot) return v;
  }
  TEST_FAIL_MESSAGE("slot not in the view");
  return 0;
}

// Overwrites the searches' tally the next grid sizes its cells from (fxs_grid_of): from
// lone agents in many rows to crowds in few, counted in cells from four times smaller to
// four times larger than the radius gives (its shift `base`).
static void scramble_tally(uint32_t *lcg, unsigned base) {
  *lcg = *lcg * 1664525u + 1013904223u;
  uint32_t w = (*lcg >> 8) % world.internal->worker_capacity;
  fxs_search_tally *t = &world.internal->workers[w].searched;
  t->searches = 1u + (*lcg >> 24);
  t->rows = t->searches * (1u + (*lcg >> 4) % 12u);
  t->agents = t->searches * ((*lcg >> 12) % 200u);
  world.internal->searched_shift = base - 2u + (*lcg >> 20) % 5u;
}

// Whether the last search's agents were close (fxs_grid_measure_spread).
static bool last_close;

// slot's neighbor list from the grid, as the step's sense phase lays it out (the spread
// measured on a grid that wraps), in cells of a size a scrambled tally chose (scramble_tally).
static uint32_t search(uint32_t slot, fxs_world_worker *out) {
  static uint32_t lcg = 11;
  scramble_tally(&lcg, fxs_grid_of(&world).shift);
  fxs_grid g = fxs_grid_of(&world);
  fxs_grid_place(&world, &g, 0, world.capacity.agents);
  fxs_grid_sort(&world, &g);
  fxs_grid_copy_view(&world, 0, world.internal->view_count);
  if (g.wraps) fxs_grid_measure_spread(&world, &g);
  last_close = g.close;
  return fxs_grid_neighbors(&world, &g, view_of(slot), out);
}

// Cells are the power of two nearest half the neighbor radius (so at least a third of the
// radius, and a search spans fewer than FXS_GRID_MIN_SIDE of them), and a cell of the plane
// is the floor of the offset over the cell size on either side of the corner.
void test_cells_are_the_power_of_two_nearest_half_the_radius(void) {
  const struct {
    fix16_t radius;
    unsigned shift;
  } cases[] = {
      {FXS_INT(15), 19},     // 7.5 units: 8
      {FXS_INT(11), 18},     // 5.5 units: 4 (6 is the midpoint)
      {FXS_INT(12), 18},     // 6 units: a tie keeps the lower
      {FXS_INT(12) + 2, 19}, // just past it: 8
      {FXS_INT(1), 16},      // below one unit: one unit
      {FXS_INT(64), 21},     // 32 units, exactly a power
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    make(64, FXS_INT(16), cases[i].radius); // small bounds: no doubling
    fxs_grid g = fxs_grid_of(&world);
    TEST_ASSERT_EQUAL_UINT32(cases[i].shift, g.shift);
    TEST_ASSERT_TRUE(3 * (INT64_C(1) << g.shift) >= (int64_t)cases[i].radius ||
                     cases[i].radius < FXS_INT(2));
  }
  for (int64_t d = -5 * FXS_ONE - 3; d <= 5 * FXS_ONE + 3; d += 4099) {
    int64_t want = d >= 0 ? d / FXS_ONE : -((FXS_ONE - 1 - d) / FXS_ONE);
    TEST_ASSERT_EQUAL_INT32((int32_t)want, fxs_grid_index(d + 7, 7, 16));
  }
  TEST_ASSERT_EQUAL_INT32(-1, fxs_grid_index(-1, 0, 16));
  TEST_ASSERT_EQUAL_INT32(-1, fxs_grid_index(-FXS_ONE, 0, 16));
  TEST_ASSERT_EQUAL_INT32(-2, fxs_grid_index(-FXS_ONE - 1, 0, 16));
  TEST_ASSERT_EQUAL_INT32(0, fxs_grid_index(FXS_ONE - 1, 0, 16));
}

void test_the_view_lists_live_agents_by_cell_and_by_slot_within_a_cell(void) {
  make(64, FXS_INT(1000), FXS_INT(100));
  for (int i = 0; i < 40; ++i) spawn_raw(FXS_INT((i * 373) % 1000), FXS_INT((i * 611) % 1000));
  fxs_command d = fxs_command_make(FXS_CMD_DESPAWN, 0, 0);
  d.agent = 8; // slot 7
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &d, 0));
  fxs_grid g = fxs_grid_of(&world);
  fxs_grid_place(&world, &g, 0, world.capacity.agents);
  fxs_grid_sort(&world, &g);
  TEST_ASSERT_EQUAL_UINT32(39, world.internal->view_count);
  for (uint32_t v = 1; v < world.internal->view_count; ++v) {
    const fxs_agent *a = &world.agents[world.internal->view_slot[v - 1u]].body;
    const fxs_agent *b = &world.agents[world.internal->view_slot[v]].body;
    int64_t ca = (a->position.y >> g.shift) * g.w + (a->position.x >> g.shift);
    int64_t cb = (b->position.y >> g.shift) * g.w + (b->position.x >> g.shift);
    TEST_ASSERT_TRUE(
        ca < cb || (ca == cb && world.internal->view_slot[v - 1u] < world.internal->view_slot[v]));
    TEST_ASSERT_NOT_EQUAL(7, world.internal->view_slot[v]);
  }
}

void test_neighbors_are_the_sixteen_nearest_and_ties_go_to_the_lower_slot(void) {
  make(64, FXS_INT(1000), FXS_INT(100));
  spawn_raw(FXS_INT(500), FXS_INT(500)); // slot 0, the agent that searches
  // Slots 1..20 on a ring of radius 50 (all at squared distance 2500), slot 21 at 10 and
  // slot 22 exactly at the neighbor radius, slot 23 just beyond it.
  for (int i = 0; i < 20; ++i) {
    spawn_raw(FXS_INT(500) + (i % 2 ? FXS_INT(50) : -FXS_INT(50)), FXS_INT(500));
  }
  spawn_raw(FXS_INT(510), FXS_INT(500));
  spawn_raw(FXS_INT(500), FXS_INT(600));
  spawn_raw(FXS_INT(600), FXS_INT(500) + 1);
  static fxs_world_worker out;
  TEST_ASSERT_EQUAL_UINT32(FXS_MAX_NEIGHBORS, search(0, &out));
  TEST_ASSERT_EQUAL_UINT32(21, out.neighbors[0].id);
  TEST_ASSERT_EQUAL_UINT64((uint64_t)FXS_INT(10) * FXS_INT(10), out.dist_sq[0]);
  for (uint32_t k = 1; k < FXS_MAX_NEIGHBORS; ++k) {
    TEST_ASSERT_EQUAL_UINT32(k, out.neighbors[k].id); // slots 1..15: ties by lower slot
    TEST_ASSERT_EQUAL_UINT64((uint64_t)FXS_INT(50) * FXS_INT(50), out.dist_sq[k]);
    TEST_ASSERT_EQUAL_INT32(world.agents[k].body.position.x, out.neighbors[k].position.x);
    TEST_ASSERT_EQUAL_INT32(world.agents[k].body.velocity.y, out.neighbors[k].velocity.y);
  }
  // Slot 0 is exactly at the radius from slot 22 (counted) and just beyond it from 23.
  TEST_ASSERT_EQUAL_UINT32(1, search(22, &out));
  TEST_ASSERT_EQUAL_UINT32(0, out.neighbors[0].id);
  TEST_ASSERT_EQUAL_UINT64((uint64_t)FXS_INT(100) * FXS_INT(100), out.dist_sq[0]);
  uint32_t n = search(23, &out);
  TEST_ASSERT_EQUAL_UINT32(11, n); // the ring agents at x = 550 and slot 21, not slot 0
  for (uint32_t k = 0; k < n; ++k) {
    uint32_t id = out.neighbors[k].id; // the ring agents at x = 550 have even slots 2..20
    TEST_ASSERT_TRUE(id == 21 || (id % 2 == 0 && id >= 2 && id <= 20));
  }
}

// A search's list for `self` (n entries in out) against a search over all `count` agents:
// the `want` nearest by (squared distance, slot).
static void expect_full_search(uint32_t count, uint32_t self, uint32_t want,
                               const fxs_world_worker *out, uint32_t n) {
  uint64_t r2 = (uint64_t)world.def.neighbor_radius * (uint64_t)world.def.neighbor_radius;
  uint64_t prev_d = 0;
  uint32_t prev_slot = 0, taken = 0;
  for (uint32_t k = 0; k < want; ++k) {
    uint64_t best_d = UINT64_MAX;
    uint32_t best = UINT32_MAX;
    for (uint32_t j = 0; j < count; ++j) {
      if (j == self) continue;
      uint64_t d = fxs_vec2_length_sq(
          fxs_vec2_sub(world.agents[j].body.position, world.agents[self].body.position));
      bool after = taken == 0 || d > prev_d || (d == prev_d && j > prev_slot);
      if (d <= r2 && after && (d < best_d || (d == best_d && j < best))) best_d = d, best = j;
    }
    if (best == UINT32_MAX) break;
    TEST_ASSERT_EQUAL_UINT32(best, out->neighbors[k].id);
    TEST_ASSERT_EQUAL_UINT64(best_d, out->dist_sq[k]);
    TEST_ASSERT_EQUAL_INT32(world.agents[best].body.position.x, out->neighbors[k].position.x);
    TEST_ASSERT_EQUAL_INT32(world.agents[best].body.velocity.y, out->neighbors[k].velocity.y);
    prev_d = best_d, prev_slot = best, ++taken;
  }
  TEST_ASSERT_EQUAL_UINT32(taken, n);
}

// The search's list for `self` against a search over all `count` agents: the 16 nearest.
static void check_against_full_search(uint32_t count, uint32_t self) {
  static fxs_world_worker out;
  uint32_t n = search(self, &out);
  expect_full_search(count, self, FXS_MAX_NEIGHBORS, &out, n);
}

// A crowd piled on one point, with stragglers near it: every agent's list is the 16 nearest
// by (squared distance, slot), as a search over all agents finds it, though the search stops
// once it holds sixteen agents on the spot (more than FXS_GRID_FOUND within the radius: the
// search goes through its sorted list).
void test_a_crowd_on_one_point_gets_the_same_neighbors_as_a_full_search(void) {
  make(64, FXS_INT(1000), FXS_INT(100));
  for (int i = 0; i < 60; ++i) {
    fix16_t off = i % 3 == 0 ? FXS_INT(i % 7) : 0; // every third agent a few units aside
    spawn_raw(FXS_INT(300) + off, FXS_INT(300) - off / 2);
  }
  for (uint32_t self = 0; self < 60; ++self) check_against_full_search(60, self);
}

// Scattered agents, a few to a few dozen within each radius, with exact distance ties (a
// coarse lattice): every list is the full search's, whether the search orders candidates by
// one packed key (a small radius) or by distance and slot apart (a radius whose square
// leaves no room for the slot bits).
static void scatter_matches_a_full_search(fix16_t side, fix16_t radius, fix16_t step, bool packed) {
  make(200, side, radius);
  fxs_rng rng;
  fxs_rng_seed(&rng, 7);
  for (int i = 0; i < 200; ++i) {
    fix16_t x = (fix16_t)fxs_rng_below(&rng, (uint32_t)(side / step)) * step;
    fix16_t y = (fix16_t)fxs_rng_below(&rng, (uint32_t)(side / step)) * step;
    spawn_raw(x, y);
  }
  fxs_grid g = fxs_grid_of(&world);
  TEST_ASSERT_EQUAL(packed, g.packed);
  for (uint32_t self = 0; self < 200; ++self) check_against_full_search(200, self);
}

void test_scattered_agents_get_the_same_neighbors_as_a_full_search_with_a_packed_key(void) {
  scatter_matches_a_full_search(FXS_INT(400), FXS_INT(60), FXS_INT(10), true);
}

void test_scattered_agents_get_the_same_neighbors_as_a_full_search_without_one(void) {
  scatter_matches_a_full_search(FXS_INT(30000), FXS_INT(5000), FXS_INT(500), false);
}

// With 200 slots (8 slot bits) the key packs while r^2 < 2^55. Agents on a ring just
// inside the radius (r - 1 to r - 2001 raw along both axes, equal distances broken by slot)
// give keys just below 2^63 at radius 2896, where ranking by the sign of a difference would
// first go wrong; at 2897 the same keys would pass 2^63, and the search ranks by the two
// fields instead. One more agent, on a diagonal, makes the centre's count 13 (padded to 16).
static void ring_matches_a_full_search(fix16_t radius, bool packed, bool indexed) {
  make(200, FXS_INT(14000), radius);
  fix16_t c = FXS_INT(7000);
  spawn_raw(c, c), spawn_raw(c + radius / 2, c + radius / 2);
  for (fix16_t k = 0; k < 3; ++k) {
    fix16_t d = radius - 1 - 1000 * k;
    spawn_raw(c + d, c), spawn_raw(c, c - d), spawn_raw(c - d, c), spawn_raw(c, c + d);
  }
  fxs_grid g = fxs_grid_of(&world);
  TEST_ASSERT_EQUAL(packed, g.packed);
  TEST_ASSERT_EQUAL(indexed, g.indexed);
  for (uint32_t self = 0; self < 14; ++self) check_against_full_search(14, self);
}

void test_keys_just_below_2_to_the_63_rank_as_a_full_search(void) {
  ring_matches_a_full_search(FXS_INT(2896), true, false);
}

void test_the_first_radius_whose_keys_would_reach_2_to_the_63_ranks_by_two_fields(void) {
  ring_matches_a_full_search(FXS_INT(2897), false, false);
}

// With 200 slots (8 bits) and the found list's index (4 bits) below the squared distance,
// keys stay below 2^64 up to a radius just under 1024 units, sorted by a network (their top
// bits set, and the pads above them); from 1024 on ranked by their keys; both as a full search.
void test_keys_with_the_found_index_just_below_2_to_the_64_sort_as_a_full_search(void) {
  ring_matches_a_full_search(FXS_INT(1024) - 1, true, true);
}

void test_the_first_radius_whose_indexed_keys_would_reach_2_to_the_64_ranks_them(void) {
  ring_matches_a_full_search(FXS_INT(1024), true, false);
}

// A map far larger than its crowd: the grid keeps cells of the search's scale (under 8/3
// of the radius) and wraps round instead of coarsening them, so far apart cells share a
// column and a row. Every list is still the full search's: a crowd on a lattice (exact
// ties), agents one wrap period away from crowd agents (in the very same cells), agents at
// the bounds' edges and beyond them (their searches wrap past the last column and row),
// and a few far away.
void test_a_crowd_on_a_large_map_gets_the_same_neighbors_as_a_full_search(void) {
  make(200, FXS_INT(30000), FXS_INT(20));
  fxs_grid g = fxs_grid_of(&world);
  TEST_ASSERT_EQUAL_UINT32(21, g.shift); // 10 -> 8 units, doubled twice: still too many
  TEST_ASSERT_TRUE(g.wraps);
  TEST_ASSERT_TRUE(g.w * g.h <= fxs_grid_max_cells(&world.capacity));
  TEST_ASSERT_TRUE((int64_t)g.w << g.shift < FXS_INT(30000)); // it wraps
  TEST_ASSERT_TRUE(g.w >= FXS_GRID_MIN_SIDE && g.h >= FXS_GRID_MIN_SIDE);
  TEST_ASSERT_TRUE((g.w & (g.w - 1u)) == 0 && (g.h & (g.h - 1u)) == 0); // wrapped by a mask
  TEST_ASSERT_EQUAL_UINT32(1600, fxs_grid_max_cells(&world.capacity));
  TEST_ASSERT_EQUAL_UINT32(32, g.w); // 938 cells of 32 a side, as 1024, halved to 32 x 32
  TEST_ASSERT_EQUAL_UINT32(32, g.h);
  int64_t period_x = (int64_t)g.w << g.shift, period_y = (int64_t)g.h << g.shift;
  fxs_rng rng;
  fxs_rng_seed(&rng, 5);
  fix16_t c = FXS_INT(15000);
  for (int i = 0; i < 100; ++i) { // the crowd: 100 on a 12 x 12 lattice of 5 units
    spawn_raw(c + (fix16_t)fxs_rng_below(&rng, 12) * FXS_INT(5),
              c + (fix16_t)fxs_rng_below(&rng, 12) * FXS_INT(5));
  }
  for (uint32_t i = 0; i < 40; ++i) { // crowd agents moved by whole wrap periods
    const fxs_agent *a = &world.agents[i * 2u].body;
    int64_t kx = (int64_t)(i % 5u) - 2, ky = (int64_t)(i % 3u) - 1;
    if (kx == 0 && ky == 0) kx = 1;
    spawn_raw((fix16_t)(a->position.x + kx * period_x), (fix16_t)(a->position.y + ky * period_y));
  }
  for (int i = 0; i < 40; ++i) { // at the edges, inside and beyond them
    fix16_t along = (fix16_t)fxs_rng_below(&rng, 30) * FXS_INT(7);
    fix16_t across = (fix16_t)fxs_rng_below(&rng, 9) * FXS_INT(4) - FXS_INT(16);
    switch (i % 4) {
      case 0:
        spawn_raw(across, along);
        break;
      case 1:
        spawn_raw(along, across);
        break;
      case 2:
        spawn_raw(FXS_INT(30000) + across, FXS_INT(30000) - along);
        break;
      default:
        spawn_raw(FXS_INT(30000) - along, FXS_INT(30000) + across);
        break;
    }
  }
  for (int i = 0; i < 20; ++i) {
    spawn_raw((fix16_t)fxs_rng_below(&rng, 30000) * FXS_ONE,
              (fix16_t)fxs_rng_below(&rng, 30000) * FXS_ONE);
  }
  for (uint32_t self = 0; self < 200; ++self) check_against_full_search(200, self);
  TEST_ASSERT_TRUE(last_close); // searched without the test for a distance past 2^64
}

// A world whose cells fit keeps them near half the radius (doubled while they do not fit),
// over its bounds and not wrapping; agents beyond the bounds count in the edge cells.
void test_a_world_whose_cells_fit_covers_its_bounds_with_them(void) {
  make(200, FXS_INT(1000), FXS_INT(100)); // 16 x 16 cells of 64 (the power of two nearest 50)
  fxs_grid g = fxs_grid_of(&world);
  TEST_ASSERT_FALSE(g.wraps);
  TEST_ASSERT_EQUAL_UINT32(22, g.shift);
  TEST_ASSERT_EQUAL_UINT32(16, g.w);
  TEST_ASSERT_EQUAL_UINT32(16, g.h);
  make(16, FXS_INT(1000), FXS_INT(100)); // 256 of 128 do not fit: cells of 128
  g = fxs_grid_of(&world);
  TEST_ASSERT_FALSE(g.wraps);
  TEST_ASSERT_EQUAL_UINT32(23, g.shift);
  TEST_ASSERT_EQUAL_UINT32(8, g.w);
  make(8, FXS_INT(30), FXS_INT(20)); // cells of 8 (nearest 10)
  g = fxs_grid_of(&world);
  TEST_ASSERT_FALSE(g.wraps);
  TEST_ASSERT_EQUAL_UINT32(19, g.shift);
  TEST_ASSERT_EQUAL_UINT32(4, g.w);
  // Agents of a small world, and beyond it, find the full search's neighbors.
  for (int i = 0; i < 8; ++i) spawn_raw(FXS_INT(i * 9 - 20), FXS_INT(35 - i * 7));
  for (uint32_t self = 0; self < 8; ++self) check_against_full_search(8, self);
}

// An agent beyond the bounds lies in an edge cell wherever it is, and may lie so far from
// a search's point that its squared distance passes 2^64: a search whose box holds an edge
// cell tests for that, one whose box holds none has no such agent to meet. A stray at the
// far corner of the plane, (-2^31, -2^31), is 3,037,000,500 raw from an agent 5 units
// inside the bounds' corner in each axis: its squared distance is 2^64 + 290,948,384, which
// wrapped would put it 0.26 units away. It is no one's neighbor, and the two agents in the
// bounds, 3 units apart, are each other's only one; as they are from the middle of the
// bounds, where a box holds no edge cell.
void test_a_stray_whose_squared_distance_passes_2_to_the_64_is_no_neighbor(void) {
  const fix16_t q = (fix16_t)(3037000500 - 2147483648); // -2^31 + 3,037,000,500
  fxs_world_capacity c = {64, 0, 0, 0, 0, 1};
  fxs_world_def def = fxs_default_world_def();
  def.bounds_min = fxs_vec2_make(q - FXS_INT(5), q - FXS_INT(5));
  def.bounds_max = fxs_vec2_make(q + FXS_INT(195), q + FXS_INT(195)); // 13 x 13 cells of 16
  def.neighbor_radius = FXS_INT(20);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&world, &def, &c, memory, sizeof memory));
  spawn_raw(q, q);
  spawn_raw(q + FXS_INT(3), q);
  spawn_raw(INT32_MIN, INT32_MIN);
  fxs_grid g = fxs_grid_of(&world);
  TEST_ASSERT_FALSE(g.wraps);
  TEST_ASSERT_EQUAL_UINT32(13, g.w);
  static fxs_world_worker out;
  for (int pass = 0; pass < 2; ++pass) {
    TEST_ASSERT_EQUAL_UINT32(1, search(0, &out));
    TEST_ASSERT_EQUAL_UINT32(1, out.neighbors[0].id);
    TEST_ASSERT_EQUAL_UINT32(1, search(1, &out));
    TEST_ASSERT_EQUAL_UINT32(0, out.neighbors[0].id);
    TEST_ASSERT_EQUAL_UINT32(0, search(2, &out));
    // The pair again in the middle of the bounds, the stray as far from them.
    for (uint32_t i = 0; i < 2; ++i) world.agents[i].body.position.x += FXS_INT(100);
    for (uint32_t i = 0; i < 2; ++i) world.agents[i].body.position.y += FXS_INT(100);
  }
}

// On a grid that wraps, far agents share a search's cells. A stray at (-1,766,195,200,
// -2,108,098,374) raw lies in cells of the plane one period (1,024 units) multiple from
// those round an agent at (14000, 19000) units: its squared distance from it is 2^64 +
// 2,150,164,260, which wrapped would put it 0.71 units away. The spread of the agents is
// then 2^31 raw or more, the searches test for it, and the stray is no one's neighbor. Moved
// into the map it is an ordinary agent, the spread small, the test left out. The spread is
// small up to 2^31 - 1 raw in each axis.
void test_a_stray_aliased_into_a_wrapped_search_is_no_neighbor(void) {
  make(200, FXS_INT(30000), FXS_INT(20));
  TEST_ASSERT_TRUE(fxs_grid_of(&world).wraps);
  spawn_raw(FXS_INT(14000), FXS_INT(19000));
  spawn_raw(FXS_INT(14003), FXS_INT(19000));
  spawn_raw(-1766195200, -2108098374);
  static fxs_world_worker out;
  TEST_ASSERT_EQUAL_UINT32(1, search(0, &out));
  TEST_ASSERT_FALSE(last_close);
  TEST_ASSERT_EQUAL_UINT32(1, out.neighbors[0].id);
  TEST_ASSERT_EQUAL_UINT32(0, search(2, &out));
  world.agents[2].body.position = fxs_vec2_make(FXS_INT(14000), FXS_INT(19010));
  TEST_ASSERT_EQUAL_UINT32(2, search(0, &out));
  TEST_ASSERT_TRUE(last_close);
  TEST_ASSERT_EQUAL_UINT32(1, out.neighbors[0].id);
  TEST_ASSERT_EQUAL_UINT32(2, out.neighbors[1].id);
  // The bound: a spread of 2^31 - 1 raw is small, one of 2^31 is not, in either axis.
  world.agents[0].body.position = fxs_vec2_zero();
  for (int axis = 0; axis < 2; ++axis) {
    for (int32_t top = INT32_C(0x3FFFFFFF); top <= INT32_C(0x40000000); ++top) {
      fxs_vec2 a = fxs_vec2_make(axis ? 0 : -INT32_C(0x40000000), axis ? -INT32_C(0x40000000) : 0);
      fxs_vec2 b = fxs_vec2_make(axis ? 0 : top, axis ? top : 0);
      world.agents[1].body.position = a, world.agents[2].body.position = b;
      search(0, &out);
      TEST_ASSERT_EQUAL(top == INT32_C(0x3FFFFFFF), last_close);
    }
  }
}

// The narrowed search (the k nearest within a radius, which shrinks once k are known) gives
// the first entries of the full list that lie within that radius, at most k: scattered
// agents with exact ties, a crowd on one point (more than FXS_GRID_FOUND within reach), every
// k from 0 to 16 and radii from 0 past the world's. Left unsorted (fxs_grid_nearest_few),
// the same agents, and ranked the same list.
void test_the_nearest_k_within_a_radius_are_the_full_lists_prefix(void) {
  static fxs_world_worker full, near;
  make(200, FXS_INT(400), FXS_INT(60));
  fxs_rng rng;
  fxs_rng_seed(&rng, 11);
  for (int i = 0; i < 200; ++i) {
    fix16_t x = (fix16_t)fxs_rng_below(&rng, 40) * FXS_INT(10);
    fix16_t y = (fix16_t)fxs_rng_below(&rng, 40) * FXS_INT(10);
    if (i % 4 == 0) x = y = FXS_INT(200); // a crowd on one point
    spawn_raw(x, y);
  }
  fxs_grid g = fxs_grid_of(&world);
  fxs_grid_place(&world, &g, 0, world.capacity.agents);
  fxs_grid_sort(&world, &g);
  fxs_grid_copy_view(&world, 0, world.internal->view_count);
  static const fix16_t radii[] = {0,           FXS_INT(10), FXS_INT(15), FXS_INT(30) + 1,
                                  FXS_INT(60), FXS_INT(90)};
  uint32_t unsorted = 0; // searches left unsorted with two agents or more
  for (uint32_t v = 0; v < world.internal->view_count; ++v) {
    uint32_t n_full = fxs_grid_neighbors(&world, &g, v, &full);
    for (uint32_t k = 0; k <= FXS_MAX_NEIGHBORS; ++k) {
      for (uint32_t ri = 0; ri < sizeof radii / sizeof radii[0]; ++ri) {
        uint64_t r2 = (uint64_t)radii[ri] * (uint64_t)radii[ri];
        uint32_t expect = 0;
        while (expect < n_full && expect < k && full.dist_sq[expect] <= r2) ++expect;
        // At most k found: the same agents left unsorted, which ranked are the list.
        bool few;
        uint32_t n = fxs_grid_nearest_few(&world, &g, v, k, radii[ri], &near, &few);
        TEST_ASSERT_EQUAL_UINT32(expect, n);
        for (uint32_t i = 0; few && i < n; ++i) {
          uint32_t at = 0, slot = world.internal->view_slot[near.found_view[i]];
          while (at < n && full.neighbors[at].id != slot) ++at;
          TEST_ASSERT_TRUE(at < n);
          TEST_ASSERT_EQUAL_UINT64(full.dist_sq[at], near.found_dist_sq[i]);
        }
        unsorted += few && n > 1;
        if (few) fxs_grid_rank_few(&world, &g, k, n, &near);
        for (uint32_t i = 0; i < n; ++i) {
          TEST_ASSERT_EQUAL_UINT32(full.neighbors[i].id, near.neighbors[i].id);
          TEST_ASSERT_EQUAL_UINT64(full.dist_sq[i], near.dist_sq[i]);
        }
        n = fxs_grid_nearest(&world, &g, v, k, radii[ri], &near);
        TEST_ASSERT_EQUAL_UINT32(expect, n);
        for (uint32_t i = 0; i < n; ++i) {
          TEST_ASSERT_EQUAL_UINT32(full.neighbors[i].id, near.neighbors[i].id);
          TEST_ASSERT_EQUAL_UINT64(full.dist_sq[i], near.dist_sq[i]);
          TEST_ASSERT_EQUAL_INT32(full.neighbors[i].position.x, near.neighbors[i].position.x);
          TEST_ASSERT_EQUAL_INT32(full.neighbors[i].velocity.y, near.neighbors[i].velocity.y);
        }
      }
    }
  }
  if (FXS_GRID_BRANCH_FREE) TEST_ASSERT_TRUE(unsorted > 1000); // Cortex-M: sorted as it goes
}

void test_a_negative_neighbor_radius_finds_no_neighbors_and_zero_finds_agents_on_the_spot(void) {
  make(8, FXS_INT(100), 0);
  spawn_raw(FXS_INT(5), FXS_INT(5));
  spawn_raw(FXS_INT(5), FXS_INT(5));
  world.def.neighbor_radius = -FXS_ONE; // init refuses this definition; the search is safe anyway
  static fxs_world_worker out;
  TEST_ASSERT_EQUAL_UINT32(0, search(0, &out));
  world.def.neighbor_radius = 0;
  spawn_raw(FXS_INT(5), FXS_INT(5) + 1);
  TEST_ASSERT_EQUAL_UINT32(1, search(0, &out));
  TEST_ASSERT_EQUAL_UINT32(1, out.neighbors[0].id);
  TEST_ASSERT_EQUAL_UINT64(0, out.dist_sq[0]);
}

// A task system that runs every phase inline but backwards, in ranges of 1 to 3 items, on
// changing worker indices: the results must not notice.
typedef struct odd_tasks {
  uint32_t calls;
  uint32_t ranges;
} odd_tasks;

static void *odd_enqueue(fxs_task_fn *task, uint32_t count, uint32_t min_range, void *task_context,
                         void *user_context) {
  odd_tasks *t = (odd_tasks *)user_context;
  (void)min_range;
  t->calls++;
  uint32_t end = count;
  while (end > 0) {
    uint32_t size = 1u + (end + t->calls) % 3u;
    uint32_t begin = end > size ? end - size : 0;
    task(begin, end, (t->ranges++ * 7u) % FXS_MAX_WORKERS, task_context);
    end = begin;
  }
  return t->calls % 2 ? t : 0; // sometimes a handle, sometimes "already done"
}

static void odd_finish(void *handle, void *user_context) {
  TEST_ASSERT_EQUAL_PTR(user_context, handle);
}

// A crowded flock with leaders, followers and a queue, stepped 60 ticks; returns a digest of
// the 60 hashes (v2). `resize`: the searches' tally scrambled before each tick
// (scramble_tally), the shifts of the cells the ticks took into *shifts (bit s for 2^s).
static uint64_t mixed_flock_sized(const fxs_task_system *tasks, bool resize, uint64_t *shifts) {
  make(200, FXS_INT(600), FXS_INT(60));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_set_tasks(&world, tasks));
  for (uint32_t i = 0; i < 150; ++i) {
    fxs_agent_handle h = spawn_raw(FXS_INT(200 + (i * 37) % 200), FXS_INT(200 + (i * 53) % 200));
    add(h, FXS_BEHAVIOR_SEPARATION, i % 3 ? 0 : FXS_INT(70));
    add(h, FXS_BEHAVIOR_ALIGNMENT, i % 4 ? 0 : FXS_INT(30));
    add(h, FXS_BEHAVIOR_COHESION, 0);
    add(h, i % 5 ? FXS_BEHAVIOR_WANDER : FXS_BEHAVIOR_QUEUE, 0);
    if (i % 7 == 0) add(h, FXS_BEHAVIOR_LEADER, 0);
    fxs_command t = fxs_command_make(FXS_CMD_SET_TARGET_AGENT, 0, 0);
    t.agent = h.value, t.ref = 1u + (i / 10u) * 10u;
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &t, 0));
  }
  uint64_t h = 0;
  uint32_t lcg = 5;
  unsigned base = fxs_grid_of(&world).shift; // no tally yet: from the radius alone
  for (int t = 0; t < 60; ++t) {
    if (resize) scramble_tally(&lcg, base);
    fxs_world_step(&world, 0, 0, 0);
    if (shifts) *shifts |= UINT64_C(1) << world.internal->searched_shift;
    h = hash_v2(&world) ^ (h * 31u);
  }
  return h;
}

static uint64_t mixed_flock(const fxs_task_system *tasks) {
  return mixed_flock_sized(tasks, false, 0);
}

// The hashes of mixed_flock as the world stepped it when it still searched every agent's
// neighbors in slot order over a slot-order view (before the cell-order view, the known
// distances and the task system), computed with that library and the state hash v2
// (0x2B4919212B6526CC), and again, with that library, when separation became Reynolds'
// inverse-distance push (0x6F010D50501DA48C), and when a velocity that would reverse in one
// tick began to stop instead (calm rest), and when look-where-going turned calmly below a
// quarter of the top speed and rested below a 64th of it (simulation version 2).
#define MIXED_FLOCK_HASH UINT64_C(0x370CE40E5BDED590)

void test_a_crowded_world_steps_as_it_did_before_the_cell_order_view(void) {
  // About 40 agents within each neighbor radius: the 16-neighbor cap and distance ties on
  // the spawn lattice decide who is a neighbor.
  TEST_ASSERT_EQUAL_HEX64(MIXED_FLOCK_HASH, mixed_flock(0));
}

void test_a_task_system_splitting_phases_backwards_gives_the_inline_hashes(void) {
  odd_tasks t = {0, 0};
  fxs_task_system tasks = {odd_enqueue, odd_finish, FXS_MAX_WORKERS, &t};
  TEST_ASSERT_EQUAL_HEX64(MIXED_FLOCK_HASH, mixed_flock(&tasks));
  TEST_ASSERT_TRUE(t.calls >= 3u * 60u);
  TEST_ASSERT_TRUE(t.ranges > t.calls);
}

// The cells are sized to the searches (fxs_grid_of), and the neighbor lists never depend on
// them: whatever the tally says, the flock steps as it does.
void test_a_crowded_world_steps_the_same_whatever_size_its_cells_take(void) {
  uint64_t shifts = 0;
  TEST_ASSERT_EQUAL_HEX64(MIXED_FLOCK_HASH, mixed_flock_sized(0, true, &shifts));
  unsigned sizes = 0;
  for (unsigned s = 16; s < 64; ++s) sizes += (unsigned)((shifts >> s) & 1u);
  TEST_ASSERT_TRUE(sizes >= 3u); // the tallies did size the cells
}

void test_set_tasks_refuses_bad_worker_counts_and_missing_callbacks(void) {
  make(8, FXS_INT(100), FXS_INT(10));
  odd_tasks t = {0, 0};
  fxs_task_system tasks = {odd_enqueue, odd_finish, 0, &t};
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_set_tasks(&world, &tasks));
  tasks.worker_count = FXS_MAX_WORKERS + 1;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_set_tasks(&world, &tasks));
  fxs_world small; // a world that kept scratch for one worker takes no more
  fxs_world_capacity one = {8, 0, 0, 0, 0, 0};
  static uint64_t small_memory[4096];
  fxs_world_def def = fxs_default_world_def();
  TEST_ASSERT_TRUE(fxs_world_memory_size(&one) < fxs_world_memory_size(&world.capacity));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&small, &def, &one, small_memory, sizeof small_memory));
  tasks.worker_count = 2;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_set_tasks(&small, &tasks));
  tasks.worker_count = 1;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_set_tasks(&small, &tasks));
  tasks.worker_count = 2;
  tasks.finish = 0;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_set_tasks(&world, &tasks));
  tasks.finish = odd_finish;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_set_tasks(&world, &tasks));
  TEST_ASSERT_EQUAL_PTR(odd_enqueue, world.tasks.enqueue);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_set_tasks(&world, 0));
  TEST_ASSERT_NULL(world.tasks.enqueue);
}

// ORCA's search (fxs_grid_nearest) starts from the slot's reach, a hint kept from its last
// search: whatever the reach holds (nothing, less than a unit, a radius holding fewer than k,
// exactly enough, more than the radius), the list is the k nearest of a search over all
// agents; the reach it leaves passes the k-th (0 when fewer than k are within the radius).
void test_a_nearest_search_gets_the_full_searchs_list_whatever_reach_it_starts_from(void) {
  make(64, FXS_INT(1000), FXS_INT(100));
  for (int i = 0; i < 40; ++i) { // a lattice (distance ties) and a tight cluster
    fix16_t x = FXS_INT(300 + 20 * (i % 6)), y = FXS_INT(300 + 20 * (i / 6));
    if (i >= 30) x = FXS_INT(420) + FXS_INT(i - 30) / 4, y = FXS_INT(420);
    spawn_raw(x, y);
  }
  spawn_raw(FXS_INT(900), FXS_INT(900)); // slot 40: alone
  fxs_grid g = fxs_grid_of(&world);
  fxs_grid_place(&world, &g, 0, world.capacity.agents);
  fxs_grid_sort(&world, &g);
  fxs_grid_copy_view(&world, 0, world.internal->view_count);
  static fxs_world_worker out;
  const uint32_t ks[] = {1, 3, 10, FXS_MAX_NEIGHBORS};
  const uint32_t reaches[] = {0,           1,           FXS_ONE,      FXS_INT(15),
                              FXS_INT(21), FXS_INT(99), FXS_INT(100), FXS_INT(100) + 1,
                              UINT32_MAX};
  uint32_t kept = 0;
  for (uint32_t self = 0; self < 41; ++self) {
    for (uint32_t i = 0; i < sizeof ks / sizeof ks[0]; ++i) {
      for (uint32_t j = 0; j < sizeof reaches / sizeof reaches[0]; ++j) {
        world.internal->slot_reach[self] = reaches[j];
        uint32_t n = fxs_grid_nearest(&world, &g, view_of(self), ks[i], FXS_INT(100), &out);
        expect_full_search(41, self, ks[i], &out, n);
        uint32_t reach = world.internal->slot_reach[self];
        if (n < ks[i]) {
          TEST_ASSERT_EQUAL_UINT32(0, reach);
        } else {
          TEST_ASSERT_TRUE((uint64_t)reach * reach > out.dist_sq[n - 1u]);
          ++kept;
        }
      }
    }
  }
  TEST_ASSERT_TRUE(kept > 0);
  TEST_ASSERT_EQUAL_UINT32(0, world.internal->slot_reach[40]); // nobody within its radius
}

// The sorting networks of a search's keys, for every count up to 16, by the 0-1 principle: a
// network that sorts every input of 0s and 1s sorts every input. All 2^m of them per count
// (the 1s kept, the pads left above), then distinct keys in reverse.
// (Ceedling's runner calls every test it finds: on Cortex-M, where the scan sorts as it goes
// and the networks are not built, the test says so.)
void test_the_search_keys_networks_sort_every_count_up_to_16(void) {
#if FXS_GRID_BRANCH_FREE
  for (uint32_t m = 0; m <= 16; ++m) {
    for (uint32_t bits = 0; bits < (UINT32_C(1) << m); ++bits) {
      uint64_t k[16];
      uint32_t ones = 0;
      for (uint32_t i = 0; i < m; ++i) k[i] = (bits >> i) & 1u, ones += (bits >> i) & 1u;
      fxs_grid_sort_keys(k, m);
      for (uint32_t i = 0; i < m; ++i) {
        if (k[i] != (i >= m - ones ? 1u : 0u)) {
          char msg[64];
          snprintf(msg, sizeof msg, "%u keys, input %#x, key %u", (unsigned)m, (unsigned)bits,
                   (unsigned)i);
          TEST_FAIL_MESSAGE(msg);
        }
      }
    }
    uint64_t k[16];
    for (uint32_t i = 0; i < m; ++i) k[i] = (uint64_t)(m - i) << 40 | i;
    fxs_grid_sort_keys(k, m);
    for (uint32_t i = 0; i < m; ++i)
      TEST_ASSERT_EQUAL_UINT64((uint64_t)(i + 1u) << 40 | (m - 1u - i), k[i]);
  }
#else
  TEST_IGNORE_MESSAGE("no sorting networks on this target (FXS_GRID_BRANCH_FREE is 0)");
#endif
}

// fxs_view_velocities_within, which lets ORCA leave its clamp of neighbor velocities out:
// true for components at +-FXS_ORCA_LIMIT, false one raw unit past it either way and at the
// extremes of int32, true for an empty view.
void test_the_view_velocities_are_within_the_orca_limit_up_to_its_edge(void) {
  make(8, FXS_INT(100), FXS_INT(10));
  spawn_raw(FXS_INT(10), FXS_INT(10));
  spawn_raw(FXS_INT(20), FXS_INT(10));
  fxs_grid g = fxs_grid_of(&world);
  fxs_grid_place(&world, &g, 0, world.capacity.agents);
  fxs_grid_sort(&world, &g);
  fxs_grid_copy_view(&world, 0, world.internal->view_count);
  TEST_ASSERT_EQUAL_UINT32(2, world.internal->view_count);
  const fix16_t L = FXS_ORCA_LIMIT;
  const fxs_vec2 within[] = {{L, -L}, {-L, L}, {0, 0}};
  const fxs_vec2 past[] = {{L + 1, 0}, {0, -L - 1}, {INT32_MIN, 0}, {0, INT32_MAX}, {-L - 1, L}};
  for (size_t i = 0; i < sizeof within / sizeof within[0]; ++i) {
    world.internal->view_velocity[0] = fxs_vec2_zero(),
    world.internal->view_velocity[1] = within[i];
    TEST_ASSERT_TRUE(fxs_view_velocities_within(&world, L));
  }
  for (size_t i = 0; i < sizeof past / sizeof past[0]; ++i) {
    world.internal->view_velocity[0] = past[i], world.internal->view_velocity[1] = fxs_vec2_zero();
    TEST_ASSERT_FALSE(fxs_view_velocities_within(&world, L));
    world.internal->view_velocity[0] = fxs_vec2_zero(), world.internal->view_velocity[1] = past[i];
    TEST_ASSERT_FALSE(fxs_view_velocities_within(&world, L));
  }
  world.internal->view_count = 0;
  TEST_ASSERT_TRUE(fxs_view_velocities_within(&world, L));
}

// An ORCA agent heading at a neighbor that rushes at it far faster than ORCA's bound, at
// INT32_MIN raw (32768 units) a tick (set in its body, past any spawn's truncation): ORCA
// sees that velocity clamped to the bound, 1024 units, so the agent steers as it does against
// a neighbor at exactly 1024 (which it does not against one at rest). Unclamped, the pair's
// relative velocity would wrap round and the agent would go the other way. Both run one ORCA:
// the step must clamp in this crowd, though its crowds mostly need not.
static fxs_vec2 orca_against_a_rusher(fix16_t velocity_x) {
  make(8, FXS_INT(200), FXS_INT(15));
  fxs_orca_def orca = fxs_default_orca_def();
  orca.neighbor_distance = FXS_INT(15), orca.max_neighbors = 6,
  orca.neighbor_radius = FXS_RATIO(3, 2);
  fxs_spawn_def sd = fxs_default_spawn_def();
  sd.position = fxs_vec2_make(FXS_INT(100), FXS_INT(100));
  sd.max_speed = FXS_RATIO(1, 2), sd.max_force = FXS_INT(4), sd.radius = FXS_RATIO(3, 2);
  fxs_command spawn = fxs_command_spawn(&sd);
  fxs_agent_handle a, b;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &spawn, &a));
  sd.position = fxs_vec2_make(FXS_INT(110), FXS_INT(101));
  spawn = fxs_command_spawn(&sd);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &spawn, &b));
  // Both run one ORCA (a crowd of one priority, where the step would leave the clamp out).
  fxs_command more[4] = {fxs_command_set_target_point(a, fxs_vec2_make(FXS_INT(150), FXS_INT(100))),
                         fxs_command_add_orca(a, fxs_default_blend(), &orca, FXS_INT(2)),
                         fxs_command_set_target_point(b, fxs_vec2_make(FXS_INT(50), FXS_INT(101))),
                         fxs_command_add_orca(b, fxs_default_blend(), &orca, FXS_INT(2))};
  for (int k = 0; k < 4; ++k) TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &more[k], 0));
  world.agents[fxs_world_slot_of(&world, b.value)].body.velocity = fxs_vec2_make(velocity_x, 0);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&world, 0, 0, 0));
  return world.agents[fxs_world_slot_of(&world, a.value)].body.velocity;
}

void test_orca_in_the_step_clamps_a_neighbor_faster_than_its_bound(void) {
  fxs_vec2 at_rest = orca_against_a_rusher(0);
  fxs_vec2 at_bound = orca_against_a_rusher(-FXS_ORCA_LIMIT);
  fxs_vec2 past = orca_against_a_rusher(INT32_MIN);
  TEST_ASSERT_FALSE(fxs_vec2_equal(at_rest, at_bound)); // the rush is seen
  TEST_ASSERT_EQUAL_INT32(at_bound.x, past.x);
  TEST_ASSERT_EQUAL_INT32(at_bound.y, past.y);
}

// The ring of 48 ORCA agents (fxs_test_add_orca_ring), stepped 120 ticks; `scramble`: every
// slot's reach overwritten before each tick (nothing, a raw unit, a unit, huge, any value).
// The world hash of every tick, folded.
static uint64_t orca_crowd(bool scramble) {
  make(64, FXS_INT(200), FXS_INT(15));
  fxs_test_add_orca_ring(&world);
  uint32_t lcg = 99;
  uint64_t folded = 0;
  for (int t = 0; t < 120; ++t) {
    for (uint32_t s = 0; scramble && s < world.capacity.agents; ++s) {
      lcg = lcg * 1664525u + 1013904223u;
      const uint32_t pick[4] = {0, 1, FXS_ONE, UINT32_MAX};
      world.internal->slot_reach[s] = (lcg >> 30) == 0 ? lcg : pick[(lcg >> 28) & 3u];
    }
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&world, 0, 0, 0));
    folded = folded * 1099511628211u ^ fxs_world_hash(&world);
  }
  return folded;
}

// The reach is a hint, not state: scrambling it changes no agent, while the crowd's own
// searches keep reaches (they are in use).
void test_an_orca_crowd_steps_the_same_whatever_its_slots_reaches_hold(void) {
  uint64_t plain = orca_crowd(false);
  uint32_t kept = 0;
  for (uint32_t s = 0; s < 48; ++s) kept += world.internal->slot_reach[s] != 0;
  TEST_ASSERT_TRUE(kept > 0);
  TEST_ASSERT_EQUAL_UINT64(plain, orca_crowd(true));
}
