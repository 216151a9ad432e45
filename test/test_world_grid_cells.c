// The agents' grid sizes its cells to the searches of the last tick (fxs_grid_of): larger
// for few agents in many rows, smaller for crowds, as a row costs about four agents' tests.
// That the neighbor lists never depend on the cells is test_world_step's (a flock stepped at
// the pinned hash whatever size its cells take).
#include "unity.h"

#include "world.h"
#include "world_internal.h"
#include "world_grid.h"
#include "fxs_test_world.h"

static uint64_t memory[16384];
static fxs_world world;

void setUp(void) {}
void tearDown(void) {}

// A world of 64 agents (at most 512 cells) on a square of `side` units with a neighbor
// radius of 15 units.
static void make_on(int32_t side) {
  fxs_world_capacity c = {64, 0, 0, 0, 0, FXS_MAX_WORKERS};
  fxs_world_def def = fxs_default_world_def();
  def.bounds_max = fxs_vec2_make(FXS_INT(side), FXS_INT(side));
  def.neighbor_radius = FXS_INT(15);
  TEST_ASSERT_TRUE(fxs_world_memory_size(&c) <= sizeof memory);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&world, &def, &c, memory, sizeof memory));
}

// The shift of the cells of a world on a square of `side` units (make_on) whose radius alone
// gives cells of shift `plain`, as sized by a tally of `searches` searches in cells of shift
// m that visited `rows` rows holding `agents` agents in all.
static unsigned shift_on(int32_t side, unsigned plain, unsigned m, uint64_t searches, uint64_t rows,
                         uint64_t agents) {
  make_on(side);
  TEST_ASSERT_EQUAL_UINT32(plain, fxs_grid_of(&world).shift); // no tally: the radius alone
  fxs_search_tally *t = &world.internal->workers[1].searched;
  t->searches = searches, t->rows = rows, t->agents = agents;
  world.internal->searched_shift = m;
  unsigned shift = fxs_grid_of(&world).shift;
  TEST_ASSERT_EQUAL_UINT64(0, t->searches + t->rows + t->agents);  // taken and cleared
  TEST_ASSERT_EQUAL_UINT32(shift, world.internal->searched_shift); // the next are in these
  TEST_ASSERT_EQUAL_UINT32(plain, fxs_grid_of(&world).shift);      // nothing tallied since
  return shift;
}

// On a 16-unit square the radius alone gives cells of 8 units (shift 19), and every size
// tried fits.
static unsigned shift_after_tally(unsigned m, uint64_t searches, uint64_t rows, uint64_t agents) {
  return shift_on(16, 19, m, searches, rows, agents);
}

// A row costs about four agents (GRID_ROW_WEIGHT / GRID_AGENT_WEIGHT). A sparse crowd in
// cells of 8 units, 6 rows and 8.4 agents a search (work 32.4): in cells of 16, 3.5 rows and
// 11.4 agents (25.4); of 32, 2.25 rows and 18.9 agents (27.9). With 1 agent a search, cells
// of 32 (11.3). A dense one, 3 rows and 70 agents (82): cells of 4 give 5 rows and 48.6
// agents (68.6). In between, 3 rows and 8 agents (20), cells of 8 stay.
void test_cells_grow_for_searches_of_few_agents_in_many_rows_and_shrink_for_crowds(void) {
  TEST_ASSERT_EQUAL_UINT32(20, shift_after_tally(19, 100, 600, 840));
  TEST_ASSERT_EQUAL_UINT32(21, shift_after_tally(19, 100, 600, 100));
  TEST_ASSERT_EQUAL_UINT32(18, shift_after_tally(19, 100, 300, 7000));
  TEST_ASSERT_EQUAL_UINT32(19, shift_after_tally(19, 100, 300, 800));
  // 3 rows of 4 agents (16): cells of 16 give 2 rows of 7.1 (15.1), by a row's four agents.
  TEST_ASSERT_EQUAL_UINT32(20, shift_after_tally(19, 100, 300, 400));
  // A tally from cells of 16 (the last tick's choice): 3 rows of 2 agents there give 2 rows
  // of 3.6 agents in cells of 32 (11.6), against 14 as they were and 21.4 in cells of 8.
  TEST_ASSERT_EQUAL_UINT32(21, shift_after_tally(20, 100, 300, 200));
  // Cells far from all those tried say nothing of them; nor does no search.
  TEST_ASSERT_EQUAL_UINT32(19, shift_after_tally(27, 100, 300, 200));
  TEST_ASSERT_EQUAL_UINT32(19, shift_after_tally(19, 0, 0, 0));
}

// On a 256-unit square cells of 8 units would number 1,024, more than the 512 the capacity
// allows: they double to 16 (so do cells of 4, twice). The work is weighed for the cells the
// grid will take: a dense crowd tallied in cells of 16 (3 rows of 70 agents), for which cells
// of 8 would do less, gets cells of 16 (those of the radius, on a tie with the smaller ones
// doubled); a sparse one (6 rows of 8.4 agents) gets cells of 32, which fit.
void test_the_work_is_weighed_for_cells_as_they_fit(void) {
  TEST_ASSERT_EQUAL_UINT32(20, shift_on(256, 20, 20, 100, 300, 7000));
  TEST_ASSERT_EQUAL_UINT32(21, shift_on(256, 20, 20, 100, 600, 840));
  // On a 4,096-unit square every size tried doubles twice and wraps: the radius's cells of 8
  // become 32 (shift 21). The sparse crowd tallied there gets cells of 64 (cells of 16 doubled
  // twice: work 25.4), not 128 (cells of 32 doubled: 27.9) as weighing the sizes undoubled
  // would choose.
  TEST_ASSERT_EQUAL_UINT32(22, shift_on(4096, 21, 21, 100, 600, 840));
}

// The tally of every worker since the last grid.
static fxs_search_tally tally(void) {
  fxs_search_tally t = {0, 0, 0};
  for (uint32_t w = 0; w < world.internal->worker_capacity; ++w) {
    const fxs_search_tally *own = &world.internal->workers[w].searched;
    t.searches += own->searches, t.rows += own->rows, t.agents += own->agents;
  }
  return t;
}

// A step's searches for every neighbor within the radius fill the tally, one each (a
// separating agent's); ORCA's searches for its k nearest leave it empty.
void test_a_step_tallies_the_searches_for_every_neighbor_and_not_orcas(void) {
  make_on(200);
  for (int i = 0; i < 20; ++i) {
    fxs_agent_handle h = fxs_test_spawn_raw(&world, FXS_INT(60 + (i % 5) * 7), FXS_INT(60 + i * 3));
    fxs_test_add_behavior(&world, h, FXS_BEHAVIOR_SEPARATION, 0);
  }
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&world, 0, 0, 0));
  fxs_search_tally t = tally();
  TEST_ASSERT_EQUAL_UINT64(20, t.searches);
  TEST_ASSERT_TRUE(t.rows >= t.searches);
  TEST_ASSERT_TRUE(t.agents >= 2u * t.searches); // each row run holds the agent, and more
  fxs_world_capacity c = {64, 0, 0, 0, 0, FXS_MAX_WORKERS};
  fxs_test_orca_ring_world(&world, &c, memory, sizeof memory);
  for (int k = 0; k < 3; ++k) TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&world, 0, 0, 0));
  TEST_ASSERT_EQUAL_UINT64(0, tally().searches);
}
