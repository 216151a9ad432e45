// The agents' grid sizes its cells to the searches of the last tick (fxs_grid_of): larger
// for few agents in many rows, smaller for crowds, as a row costs about four agents' tests.
// That the neighbor lists never depend on the cells is test_world_step's (a flock stepped at
// the pinned hash whatever size its cells take).
#include "unity.h"

#include "world.h"
#include "world_internal.h"
#include "world_grid.h"

static uint64_t memory[16384];
static fxs_world world;

void setUp(void) {}
void tearDown(void) {}

// A world of 64 agents on a 16-unit square with a neighbor radius of 15 units.
static void make(void) {
  fxs_world_capacity c = {64, 0, 0, 0, 0, FXS_MAX_WORKERS};
  fxs_world_def def = fxs_default_world_def();
  def.bounds_max = fxs_vec2_make(FXS_INT(16), FXS_INT(16));
  def.neighbor_radius = FXS_INT(15);
  TEST_ASSERT_TRUE(fxs_world_memory_size(&c) <= sizeof memory);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&world, &def, &c, memory, sizeof memory));
}

// The shift of cells of half a radius of 15 units (19: cells of 8 units, no doubling) as
// sized by a tally of `searches` searches in cells of shift m that visited `rows` rows holding
// `agents` agents in all.
static unsigned shift_after_tally(unsigned m, uint64_t searches, uint64_t rows, uint64_t agents) {
  make();
  TEST_ASSERT_EQUAL_UINT32(19, fxs_grid_of(&world).shift); // no tally: from the radius alone
  fxs_search_tally *t = &world.internal->workers[1].searched;
  t->searches = searches, t->rows = rows, t->agents = agents;
  world.internal->searched_shift = m;
  unsigned shift = fxs_grid_of(&world).shift;
  TEST_ASSERT_EQUAL_UINT64(0, t->searches + t->rows + t->agents);  // taken and cleared
  TEST_ASSERT_EQUAL_UINT32(shift, world.internal->searched_shift); // the next are in these
  TEST_ASSERT_EQUAL_UINT32(19, fxs_grid_of(&world).shift);         // nothing tallied since
  return shift;
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
  // A tally from cells of 16 (a grid the last tick doubled): 3 rows of 2 agents there give 2
  // rows of 3.6 agents in cells of 32 (11.6), against 14 as they were and 21.4 in cells of 8.
  TEST_ASSERT_EQUAL_UINT32(21, shift_after_tally(20, 100, 300, 200));
  // Cells far from those of the radius say nothing of them; nor does no search.
  TEST_ASSERT_EQUAL_UINT32(19, shift_after_tally(24, 100, 300, 200));
  TEST_ASSERT_EQUAL_UINT32(19, shift_after_tally(19, 0, 0, 0));
}
