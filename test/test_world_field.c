// The world's flow field: the commands that set it, the flow_field behavior slot that follows
// it, and its place in the state hash and the snapshot (only for worlds with a field capacity).
#include <string.h>

#include "unity.h"

#include "vec2.h"
#include "agent.h"
#include "behavior.h"
#include "behavior_params.h"
#include "result.h"
#include "command.h"
#include "command_build.h"
#include "world.h"
#include "flow_field.h"
#include "snapshot.h"
#include "bytes.h"
#include "input_limits.h"
#include "replay.h"

// 4 agents, 2 obstacles and a field of up to 48 cells (8 x 6 of the tests below).
static const fxs_world_capacity cap = {4, 2, 0, 0, 0, 0, 48};
static uint64_t memory[4096];
static uint64_t memory2[4096];
static uint8_t snap[8192];
static fxs_world world, other;

static void init(fxs_world *w, const fxs_world_capacity *c, uint64_t *mem, size_t size) {
  fxs_world_def def = fxs_default_world_def();
  def.seed = 7;
  TEST_ASSERT_TRUE(fxs_world_memory_size(c) <= size);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(w, &def, c, mem, size));
}

void setUp(void) { init(&world, &cap, memory, sizeof memory); }
void tearDown(void) {}

static fxs_result apply(fxs_world *w, fxs_command c) { return fxs_world_apply(w, &c, 0); }

static fxs_vec2 v(int x, int y) { return fxs_vec2_make(FXS_INT(x), FXS_INT(y)); }

// An 8 x 6 grid of 100-unit cells from the origin.
static void grid(void) {
  TEST_ASSERT_EQUAL(FXS_OK, apply(&world, fxs_command_set_field_grid(v(0, 0), FXS_INT(100), 8, 6)));
}

// An agent at (x, y), at rest, following the field with `look_ahead`.
static fxs_agent_handle follower(int x, int y, fix16_t look_ahead) {
  fxs_spawn_def s = fxs_default_spawn_def();
  s.position = v(x, y);
  fxs_agent_handle h = {0};
  fxs_command c = fxs_command_spawn(&s);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, &h));
  TEST_ASSERT_EQUAL(FXS_OK,
                    apply(&world, fxs_command_add_flow_field(h, fxs_default_blend(), look_ahead)));
  return h;
}

static void step(fxs_world *w, int ticks) {
  for (int t = 0; t < ticks; ++t) fxs_world_step(w, 0, 0, 0);
}

// ------------------------------------------------------------------ following

void test_an_agent_at_rest_in_an_eastward_field_gains_max_force_eastward(void) {
  grid();
  TEST_ASSERT_EQUAL(FXS_OK, apply(&world, fxs_command_fill_field_uniform(v(3, 0))));
  fxs_agent_handle h = follower(250, 250, 0);
  step(&world, 1);
  const fxs_agent *a = fxs_world_agent(&world, h);
  // desired (4, 0) at max speed, truncated to max_force 0.25 = 16384 raw; mass 1
  TEST_ASSERT_EQUAL_INT32(16384, a->velocity.x);
  TEST_ASSERT_EQUAL_INT32(0, a->velocity.y);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(250) + 16384, a->position.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(250), a->position.y);
}

void test_look_ahead_reads_the_cell_ahead_of_the_agent(void) {
  grid();
  TEST_ASSERT_EQUAL(FXS_OK, apply(&world, fxs_command_fill_field_uniform(v(1, 0))));
  // Column 3 points south: an agent in column 2 moving east at 4 units a tick sees it
  // 10 ticks ahead (290 + 40 = 330), not under itself.
  TEST_ASSERT_EQUAL(FXS_OK, apply(&world, fxs_command_set_field_cells(3, 0, 1, 6, v(0, 5))));
  fxs_spawn_def s = fxs_default_spawn_def();
  s.position = v(290, 250), s.velocity = v(4, 0);
  fxs_agent_handle near = {0}, far = {0};
  fxs_command c = fxs_command_spawn(&s);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, &near));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, &far));
  TEST_ASSERT_EQUAL(FXS_OK,
                    apply(&world, fxs_command_add_flow_field(near, fxs_default_blend(), 0)));
  TEST_ASSERT_EQUAL(
      FXS_OK, apply(&world, fxs_command_add_flow_field(far, fxs_default_blend(), FXS_INT(10))));
  step(&world, 1);
  // near: desired (4, 0) = its velocity, no force; far: desired (0, 4), force (-4, 4)
  // truncated to 0.25: (-0.176777, 0.176777) = (-11585, 11585) raw.
  TEST_ASSERT_EQUAL_INT32(FXS_INT(4), fxs_world_agent(&world, near)->velocity.x);
  TEST_ASSERT_EQUAL_INT32(0, fxs_world_agent(&world, near)->velocity.y);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(4) - 11585, fxs_world_agent(&world, far)->velocity.x);
  TEST_ASSERT_EQUAL_INT32(11585, fxs_world_agent(&world, far)->velocity.y);
}

void test_without_a_field_a_flow_field_slot_gives_no_force(void) {
  fxs_agent_handle h = follower(100, 100, 0);
  step(&world, 5);
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(fxs_world_agent(&world, h)->velocity));
  // A world with no field capacity at all accepts the behavior and does the same.
  static const fxs_world_capacity none = {4, 0, 0, 0, 0, 0, 0};
  init(&world, &none, memory, sizeof memory);
  h = follower(100, 100, 0);
  step(&world, 5);
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(fxs_world_agent(&world, h)->velocity));
}

void test_agents_in_a_field_toward_a_point_gather_round_it(void) {
  grid();
  TEST_ASSERT_EQUAL(FXS_OK, apply(&world, fxs_command_fill_field_toward(v(450, 350))));
  fxs_agent_handle a = follower(50, 50, 0), b = follower(780, 580, FXS_INT(2));
  step(&world, 600);
  // A sink cell has no centre exactly on the point: agents circle within a cell or two of it.
  TEST_ASSERT_TRUE(
      fxs_vec2_within(fxs_world_agent(&world, a)->position, v(450, 350), FXS_INT(150)));
  TEST_ASSERT_TRUE(
      fxs_vec2_within(fxs_world_agent(&world, b)->position, v(450, 350), FXS_INT(150)));
}

void test_the_world_fills_exactly_as_the_pure_fill_functions(void) {
  static fxs_vec2 mine[48];
  fxs_flow_field f;
  grid();
  TEST_ASSERT_EQUAL(FXS_OK, fxs_flow_field_init(&f, mine, 48, 8, 6, v(0, 0), FXS_INT(100)));
  TEST_ASSERT_EQUAL(
      FXS_OK, apply(&world, fxs_command_fill_field_vortex(v(333, 222), FXS_ONE, -FXS_RATIO(1, 3))));
  fxs_flow_field_fill_vortex(&f, v(333, 222), FXS_ONE, -FXS_RATIO(1, 3));
  TEST_ASSERT_EQUAL_MEMORY(mine, world.field.cells, sizeof mine);
  TEST_ASSERT_EQUAL(FXS_OK, apply(&world, fxs_command_fill_field_toward(v(-50, 700))));
  fxs_flow_field_fill_toward(&f, v(-50, 700));
  TEST_ASSERT_EQUAL_MEMORY(mine, world.field.cells, sizeof mine);
  TEST_ASSERT_EQUAL(FXS_OK, apply(&world, fxs_command_fill_field_uniform(v(-2, 2))));
  TEST_ASSERT_EQUAL_INT32(-46341, world.field.cells[47].x); // -1/sqrt(2), correctly rounded
  TEST_ASSERT_EQUAL_INT32(46341, world.field.cells[47].y);
}

void test_a_block_of_cells_is_set_and_nothing_else(void) {
  grid();
  TEST_ASSERT_EQUAL(FXS_OK,
                    apply(&world, fxs_command_set_field_cells(2, 1, 3, 2, fxs_vec2_make(7, -9))));
  for (uint32_t y = 0; y < 6; ++y) {
    for (uint32_t x = 0; x < 8; ++x) {
      bool in = x >= 2 && x < 5 && y >= 1 && y < 3;
      fxs_vec2 c = world.field.cells[y * 8 + x];
      TEST_ASSERT_EQUAL_INT32(in ? 7 : 0, c.x);
      TEST_ASSERT_EQUAL_INT32(in ? -9 : 0, c.y);
    }
  }
  // A new grid zeroes the cells; removing the field leaves no grid.
  TEST_ASSERT_EQUAL(FXS_OK, apply(&world, fxs_command_set_field_grid(v(-10, 5), FXS_ONE, 6, 8)));
  for (uint32_t i = 0; i < 48; ++i) TEST_ASSERT_TRUE(fxs_vec2_is_zero(world.field.cells[i]));
  TEST_ASSERT_EQUAL_UINT32(6, world.field.width);
  TEST_ASSERT_EQUAL_UINT32(8, world.field.height);
  TEST_ASSERT_EQUAL(FXS_OK, apply(&world, fxs_command_remove_field()));
  TEST_ASSERT_EQUAL_UINT32(0, world.field.width);
  TEST_ASSERT_EQUAL_INT32(0, world.field.cell_size);
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, apply(&world, fxs_command_fill_field_uniform(v(1, 0))));
}

// ------------------------------------------------------------------ validation

// Applies a command that must be refused with `expected`, and checks nothing changed.
static void refused(fxs_result expected, fxs_command c, const char *what) {
  uint64_t before = fxs_world_hash(&world);
  TEST_ASSERT_EQUAL_MESSAGE(expected, apply(&world, c), what);
  TEST_ASSERT_EQUAL_HEX64_MESSAGE(before, fxs_world_hash(&world), what);
}

static fxs_command with_arg(fxs_command c, int i, fix16_t value) {
  c.arg[i] = value;
  return c;
}

void test_every_bad_grid_is_refused_and_changes_nothing(void) {
  grid();
  TEST_ASSERT_EQUAL(FXS_OK, apply(&world, fxs_command_fill_field_uniform(v(0, 1))));
  fxs_command ok = fxs_command_set_field_grid(v(0, 0), FXS_INT(10), 4, 3);
  refused(FXS_ERR_BAD_VALUE, with_arg(ok, 2, 0), "cell size 0");
  refused(FXS_ERR_BAD_VALUE, with_arg(ok, 2, -FXS_ONE), "negative cell size");
  refused(FXS_ERR_BAD_VALUE, with_arg(ok, 3, FXS_INT(4) + 1), "fractional columns");
  refused(FXS_ERR_BAD_VALUE, with_arg(ok, 4, -FXS_INT(3)), "negative rows");
  refused(FXS_ERR_BAD_VALUE, with_arg(ok, 3, 0), "no columns, some rows");
  refused(FXS_ERR_BAD_VALUE, with_arg(ok, 4, 0), "some columns, no rows");
  refused(FXS_ERR_BAD_VALUE, fxs_command_set_field_grid(v(0, 0), FXS_ONE, 32768, 1),
          "more columns than the side limit");
  refused(FXS_ERR_BAD_VALUE, fxs_command_set_field_grid(v(0, 0), FXS_ONE, 1, UINT32_MAX),
          "rows beyond 32 bits of Q16.16");
  refused(FXS_ERR_CAPACITY, fxs_command_set_field_grid(v(0, 0), FXS_ONE, 7, 7), "49 cells for 48");
  refused(FXS_ERR_CAPACITY, fxs_command_set_field_grid(v(0, 0), FXS_ONE, 32767, 32767),
          "2^30 cells");
  for (int i = 5; i < FXS_COMMAND_ARGS; ++i)
    refused(FXS_ERR_BAD_VALUE, with_arg(ok, i, 1), "an unused argument");
  fxs_command bad = ok;
  bad.ref = 1;
  refused(FXS_ERR_BAD_VALUE, bad, "a ref");
  bad = ok, bad.agent = 1;
  refused(FXS_ERR_BAD_VALUE, bad, "an agent");
  refused(FXS_ERR_BAD_VALUE, with_arg(fxs_command_remove_field(), 0, 1),
          "a removal with an origin");
  refused(FXS_ERR_BAD_VALUE, with_arg(fxs_command_remove_field(), 2, FXS_ONE),
          "a removal with a cell size");
  TEST_ASSERT_EQUAL(FXS_OK, apply(&world, ok));
}

void test_every_bad_block_of_cells_is_refused_and_changes_nothing(void) {
  refused(FXS_ERR_BAD_VALUE, fxs_command_set_field_cells(0, 0, 1, 1, v(1, 0)), "no grid yet");
  grid(); // 8 x 6
  refused(FXS_ERR_BAD_VALUE, fxs_command_set_field_cells(8, 0, 1, 1, v(1, 0)), "column 8 of 8");
  refused(FXS_ERR_BAD_VALUE, fxs_command_set_field_cells(0, 6, 1, 1, v(1, 0)), "row 6 of 6");
  refused(FXS_ERR_BAD_VALUE, fxs_command_set_field_cells(5, 0, 4, 1, v(1, 0)), "columns 5..8");
  refused(FXS_ERR_BAD_VALUE, fxs_command_set_field_cells(0, 3, 1, 4, v(1, 0)), "rows 3..6");
  refused(FXS_ERR_BAD_VALUE, fxs_command_set_field_cells(0, 0, 0, 1, v(1, 0)), "no columns");
  refused(FXS_ERR_BAD_VALUE, fxs_command_set_field_cells(0, 0, 1, 0, v(1, 0)), "no rows");
  refused(FXS_ERR_BAD_VALUE, fxs_command_set_field_cells(1, 1, 40000, 1, v(1, 0)),
          "a count beyond the side limit");
  fxs_command ok = fxs_command_set_field_cells(1, 1, 2, 2, v(1, 0));
  refused(FXS_ERR_BAD_VALUE, with_arg(ok, 0, FXS_ONE + 1), "a fractional column");
  refused(FXS_ERR_BAD_VALUE, with_arg(ok, 1, -FXS_ONE), "a negative row");
  refused(FXS_ERR_BAD_VALUE, with_arg(ok, 6, 1), "argument 6");
  refused(FXS_ERR_BAD_VALUE, with_arg(ok, 7, 1), "argument 7");
  fxs_command bad = ok;
  bad.ref = 9;
  refused(FXS_ERR_BAD_VALUE, bad, "a ref");
  TEST_ASSERT_EQUAL(
      FXS_OK, apply(&world, fxs_command_set_field_cells(7, 5, 1, 1, v(1, 0)))); // the last cell
  TEST_ASSERT_EQUAL(FXS_OK,
                    apply(&world, fxs_command_set_field_cells(0, 0, 8, 6, v(1, 0)))); // all of them
}

void test_every_bad_fill_is_refused_and_changes_nothing(void) {
  refused(FXS_ERR_BAD_VALUE, fxs_command_fill_field_toward(v(1, 1)), "no grid yet");
  grid();
  fxs_command bad = fxs_command_fill_field_uniform(v(1, 0));
  bad.ref = 3;
  refused(FXS_ERR_BAD_VALUE, bad, "an unknown fill");
  refused(FXS_ERR_BAD_VALUE, with_arg(fxs_command_fill_field_uniform(v(1, 0)), 2, 1),
          "uniform with a third argument");
  refused(FXS_ERR_BAD_VALUE, with_arg(fxs_command_fill_field_toward(v(1, 0)), 3, 1),
          "toward with a fourth argument");
  refused(FXS_ERR_BAD_VALUE, with_arg(fxs_command_fill_field_vortex(v(1, 0), FXS_ONE, 0), 4, 1),
          "vortex with a fifth");
  bad = fxs_command_fill_field_vortex(v(1, 0), FXS_ONE, 0);
  bad.agent = 3;
  refused(FXS_ERR_BAD_VALUE, bad, "an agent");
}

void test_a_flow_field_slot_takes_its_look_ahead_from_the_parameter_table(void) {
  TEST_ASSERT_EQUAL_UINT32(1, fxs_behavior_param_count(FXS_BEHAVIOR_FLOW_FIELD));
  const fxs_behavior_param *p = fxs_behavior_param_info(FXS_BEHAVIOR_FLOW_FIELD, 0);
  TEST_ASSERT_EQUAL_STRING("look_ahead", p->name);
  TEST_ASSERT_EQUAL_STRING("ticks", p->unit);
  TEST_ASSERT_EQUAL_INT32(fxs_default_flow_field_def().look_ahead, p->default_value);
  TEST_ASSERT_TRUE(fxs_behavior_is_slot_kind(FXS_BEHAVIOR_FLOW_FIELD));
  TEST_ASSERT_FALSE(fxs_behavior_is_slot_kind(FXS_BEHAVIOR_CONTAINMENT));
  TEST_ASSERT_FALSE(fxs_behavior_is_slot_kind(FXS_BEHAVIOR_EXTERNAL));
  fxs_spawn_def s = fxs_default_spawn_def();
  fxs_agent_handle h = {0};
  fxs_command c = fxs_command_spawn(&s);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, &h));
  refused(FXS_ERR_BAD_VALUE, fxs_command_add_flow_field(h, fxs_default_blend(), -1),
          "a negative look-ahead");
  fxs_command extra = fxs_command_add_flow_field(h, fxs_default_blend(), 0);
  extra.arg[2] = 1;
  refused(FXS_ERR_BAD_VALUE, extra, "a second parameter");
  TEST_ASSERT_EQUAL(FXS_OK,
                    apply(&world, fxs_command_add_flow_field(h, fxs_default_blend(), FXS_MAX)));
}

// ------------------------------------------------------------------ hash and snapshot

void test_one_flipped_cell_changes_the_state_hash(void) {
  grid();
  TEST_ASSERT_EQUAL(FXS_OK, apply(&world, fxs_command_fill_field_vortex(v(400, 300), FXS_ONE, 0)));
  uint64_t before = fxs_world_hash(&world);
  for (uint32_t i = 0; i < 48; i += 7) {
    world.field.cells[i].y ^= 1; // one LSB of one cell
    TEST_ASSERT_NOT_EQUAL(before, fxs_world_hash(&world));
    world.field.cells[i].y ^= 1;
    TEST_ASSERT_EQUAL_HEX64(before, fxs_world_hash(&world));
  }
  world.field.origin.x ^= 1;
  TEST_ASSERT_NOT_EQUAL(before, fxs_world_hash(&world));
  world.field.origin.x ^= 1;
  // The same change by command, and back.
  fxs_vec2 old = world.field.cells[9];
  TEST_ASSERT_EQUAL(FXS_OK, apply(&world, fxs_command_set_field_cells(
                                              1, 1, 1, 1, fxs_vec2_make(old.x + 1, old.y))));
  TEST_ASSERT_NOT_EQUAL(before, fxs_world_hash(&world));
  TEST_ASSERT_EQUAL(FXS_OK, apply(&world, fxs_command_set_field_cells(1, 1, 1, 1, old)));
  TEST_ASSERT_EQUAL_HEX64(before, fxs_world_hash(&world));
}

void test_a_world_without_a_field_capacity_keeps_snapshot_layout_3(void) {
  static const fxs_world_capacity none = {4, 2, 0, 0, 0, 0, 0};
  init(&other, &none, memory2, sizeof memory2);
  size_t n = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&other, snap, sizeof snap, &n));
  TEST_ASSERT_EQUAL_UINT16(3, fxs_load_le16(snap + 4));
  size_t plain = n;
  // The same world with a field capacity: layout 4, four more bytes of capacity and, with no
  // grid yet, 20 bytes of empty grid.
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &n));
  TEST_ASSERT_EQUAL_UINT16(4, fxs_load_le16(snap + 4));
  TEST_ASSERT_EQUAL_UINT32(48, fxs_load_le32(snap + 55));
  TEST_ASSERT_EQUAL_size_t(plain + 4 + 20, n);
  grid();
  TEST_ASSERT_EQUAL_size_t(plain + 4 + 20 + 48 * 8, fxs_world_snapshot_size(&world));
}

static size_t save_world(void) {
  size_t n = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &n));
  return n;
}

// A world with a field, agents following it and 30 ticks stepped.
static void busy_world(void) {
  grid();
  TEST_ASSERT_EQUAL(
      FXS_OK, apply(&world, fxs_command_fill_field_vortex(v(400, 300), FXS_ONE, FXS_RATIO(1, 8))));
  TEST_ASSERT_EQUAL(FXS_OK, apply(&world, fxs_command_set_field_cells(0, 0, 8, 1, v(1, 0))));
  follower(100, 150, 0);
  follower(600, 500, FXS_INT(3));
  step(&world, 30);
}

void test_a_snapshot_round_trip_restores_the_field_and_the_same_future(void) {
  busy_world();
  size_t n = save_world();
  init(&other, &cap, memory2, sizeof memory2);
  size_t at = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(&other, snap, n, &at));
  TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), fxs_world_hash(&other));
  fxs_world_difference d;
  TEST_ASSERT_FALSE(fxs_world_first_difference(&world, &other, &d));
  TEST_ASSERT_EQUAL_UINT32(8, other.field.width);
  TEST_ASSERT_EQUAL_MEMORY(world.field.cells, other.field.cells, 48 * sizeof(fxs_vec2));
  step(&world, 50);
  step(&other, 50);
  TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), fxs_world_hash(&other));
  fxs_world_capacity read;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_snapshot_capacity(snap, n, &read));
  TEST_ASSERT_EQUAL_UINT32(48, read.field_cells);
  TEST_ASSERT_EQUAL_UINT32(4, read.agents);
}

void test_a_difference_in_the_field_is_named(void) {
  busy_world();
  size_t n = save_world();
  init(&other, &cap, memory2, sizeof memory2);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(&other, snap, n, 0));
  other.field.cells[20].x += 1;
  fxs_world_difference d;
  TEST_ASSERT_TRUE(fxs_world_first_difference(&world, &other, &d));
  TEST_ASSERT_EQUAL_STRING("field.cell.x", d.field);
  TEST_ASSERT_EQUAL_INT32(-1, d.agent);
  TEST_ASSERT_EQUAL_INT64((int64_t)d.a + 1, d.b);
}

// Restores snap[0, n) into `other`; expects `e` at byte `offset` and `other` untouched.
static void restore_fails(size_t n, fxs_result e, size_t offset, const char *what) {
  init(&other, &cap, memory2, sizeof memory2);
  uint64_t before = fxs_world_hash(&other);
  size_t at = 0;
  TEST_ASSERT_EQUAL_MESSAGE(e, fxs_world_restore(&other, snap, n, &at), what);
  TEST_ASSERT_EQUAL_size_t_MESSAGE(offset, at, what);
  TEST_ASSERT_EQUAL_HEX64_MESSAGE(before, fxs_world_hash(&other), what);
}

void test_a_corrupt_field_in_a_snapshot_is_refused_with_its_offset(void) {
  busy_world();
  size_t n = save_world();
  size_t field_at = n - 20 - 48 * 8;        // origin, cell size, columns, rows, then the cells
  fxs_store_le(snap + field_at + 12, 9, 4); // 9 x 6 = 54 cells for a capacity of 48
  restore_fails(n, FXS_ERR_CAPACITY, field_at, "too many cells");
  fxs_store_le(snap + field_at + 12, 0, 4); // 0 columns, 6 rows
  restore_fails(n, FXS_ERR_BAD_VALUE, field_at, "no columns");
  fxs_store_le(snap + field_at + 12, 8, 4);
  fxs_store_le(snap + field_at + 8, 0, 4); // cell size 0
  restore_fails(n, FXS_ERR_BAD_VALUE, field_at, "cell size 0");
  fxs_store_le(snap + field_at + 8, (uint32_t)FXS_INT(100), 4);
  restore_fails(n - 3, FXS_ERR_TRUNCATED, n - 3, "the last cell cut short");
  fxs_store_le(snap + 55, 0, 4); // layout 4 with a zero field capacity: never written
  restore_fails(n, FXS_ERR_BAD_VALUE, 55, "layout 4 without a field capacity");
  fxs_world_capacity read;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_snapshot_capacity(snap, n, &read));
  fxs_store_le(snap + 55, 47, 4);
  restore_fails(n, FXS_ERR_CAPACITY, 55, "another field capacity");
  fxs_store_le(snap + 55, 48, 4);
  fxs_store_le(snap + 4, 11, 2);
  restore_fails(n, FXS_ERR_BAD_VERSION, 4, "layout 11");
  fxs_store_le(snap + 4, 10, 2); // a mesh world with moves: not this world's
  restore_fails(n, FXS_ERR_CAPACITY, 4, "layout 10");
  fxs_store_le(snap + 4, 9, 2); // a mesh world with group fields: not this world's
  restore_fails(n, FXS_ERR_CAPACITY, 4, "layout 9");
  fxs_store_le(snap + 4, 8, 2); // a world with fields and moves: navigation this world lacks
  restore_fails(n, FXS_ERR_CAPACITY, 59, "layout 8");
  fxs_store_le(snap + 4, 7, 2); // a mesh world's layout: not this world's
  restore_fails(n, FXS_ERR_CAPACITY, 4, "layout 7");
  // Layout 5 is a world with navigation: its navigation capacities (read from what follows
  // the field capacity here) are not this world's.
  fxs_store_le(snap + 4, 5, 2);
  restore_fails(n, FXS_ERR_CAPACITY, 59, "layout 5 in a world without navigation");
}

void test_a_snapshot_without_a_field_does_not_restore_into_a_world_with_one(void) {
  static const fxs_world_capacity none = {4, 2, 0, 0, 0, 0, 0};
  static uint64_t plain_memory[4096];
  fxs_world plain;
  init(&plain, &none, plain_memory, sizeof plain_memory);
  size_t n = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&plain, snap, sizeof snap, &n));
  restore_fails(n, FXS_ERR_CAPACITY, 55, "layout 3 into a world with a field");
  // And the other way round.
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &n));
  size_t at = 0;
  TEST_ASSERT_EQUAL(FXS_ERR_CAPACITY, fxs_world_restore(&plain, snap, n, &at));
  TEST_ASSERT_EQUAL_size_t(55, at);
}

void test_the_field_capacity_costs_eight_bytes_a_cell_and_has_a_limit(void) {
  fxs_world_capacity c = cap;
  size_t with = fxs_world_memory_size(&c);
  c.field_cells = 0;
  TEST_ASSERT_EQUAL_size_t(48 * sizeof(fxs_vec2), with - fxs_world_memory_size(&c));
  c.field_cells = UINT32_MAX;
  if (sizeof(size_t) == 4) TEST_ASSERT_EQUAL_size_t(0, fxs_world_memory_size(&c)); // 32 GiB
  fxs_limits l = fxs_default_limits();
  TEST_ASSERT_EQUAL_UINT32(FXS_DEFAULT_MAX_FIELD_CELLS, l.max_field_cells);
  l.max_field_cells = 47;
  fxs_limit_error e;
  TEST_ASSERT_EQUAL(FXS_ERR_LIMIT, fxs_limits_check_capacity(&l, &cap, &e));
  TEST_ASSERT_EQUAL_STRING("max_field_cells", e.field);
  TEST_ASSERT_EQUAL_UINT64(48, e.value);
}

// ------------------------------------------------------------------ replay

typedef struct sink {
  uint8_t data[32768];
  size_t size;
} sink;
static sink out;

static bool append(void *user, const uint8_t *bytes, size_t size) {
  sink *k = (sink *)user;
  if (k->size + size > sizeof k->data) return false;
  memcpy(k->data + k->size, bytes, size);
  k->size += size;
  return true;
}

// 40 ticks recorded from an empty field world: the grid, a fill and agents at tick 0, a
// block of cells at tick 12 and a new fill at tick 25 travel as commands; keyframes every 8.
// flip_tick >= 0 flips one field cell's LSB after that tick, as a faulty peer would.
static void record_field_session(int flip_tick) {
  static uint8_t scratch[4096];
  fxs_replay_writer w;
  out.size = 0;
  TEST_ASSERT_EQUAL(FXS_OK,
                    fxs_replay_writer_begin(&w, append, &out, &world, 8, scratch, sizeof scratch));
  fxs_spawn_def s = fxs_default_spawn_def();
  for (int t = 0; t < 40; ++t) {
    fxs_command c[6];
    uint32_t n = 0;
    if (t == 0) {
      c[n++] = fxs_command_set_field_grid(v(0, 0), FXS_INT(100), 8, 6);
      c[n++] = fxs_command_fill_field_vortex(v(400, 300), FXS_ONE, FXS_RATIO(1, 8));
      s.position = v(120, 80);
      c[n++] = fxs_command_spawn(&s);
    }
    if (t == 1)
      c[n++] = fxs_command_add_flow_field(fxs_world_handle_at(&world, 0), fxs_default_blend(),
                                          FXS_INT(2));
    if (t == 12) c[n++] = fxs_command_set_field_cells(0, 0, 4, 6, v(0, 1));
    if (t == 25) c[n++] = fxs_command_fill_field_uniform(v(-1, 0));
    for (uint32_t i = 0; i < n; ++i) c[i].sequence = (uint16_t)i; // issue order is apply order
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&world, c, n, 0));
    if (t == flip_tick) world.field.cells[13].x ^= 1;
    TEST_ASSERT_EQUAL(FXS_OK, fxs_replay_writer_tick(&w, &world, c, n));
  }
  TEST_ASSERT_EQUAL(FXS_OK, fxs_replay_writer_end(&w, &world));
}

static fxs_verify_report verify_field_session(void) {
  fxs_verify_report rep;
  TEST_ASSERT_TRUE(fxs_replay_verify_memory_size(out.data, out.size, 0) <= sizeof memory2);
  fxs_replay_verify(out.data, out.size, 0, memory2, sizeof memory2, &rep);
  return rep;
}

void test_a_replay_of_a_changing_field_verifies_tick_by_tick(void) {
  record_field_session(-1);
  fxs_verify_report rep = verify_field_session();
  TEST_ASSERT_EQUAL(FXS_OK, rep.result);
  TEST_ASSERT_EQUAL_UINT32(40, rep.ticks);
  TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), rep.final_hash);
  TEST_ASSERT_FALSE(
      fxs_vec2_is_zero(fxs_world_agent(&world, fxs_world_handle_at(&world, 0))->velocity));
}

void test_a_replay_whose_field_was_changed_outside_the_commands_diverges_at_that_tick(void) {
  record_field_session(17);
  fxs_verify_report rep = verify_field_session();
  TEST_ASSERT_EQUAL(FXS_ERR_HASH_MISMATCH, rep.result);
  TEST_ASSERT_EQUAL_UINT32(17, rep.first_bad_tick);
  // The next keyframe (after tick 23; the fill of tick 25 has not overwritten the cell yet)
  // names the cell's field.
  TEST_ASSERT_TRUE(rep.has_difference);
  TEST_ASSERT_EQUAL_STRING("field.cell.x", rep.difference.field);
  TEST_ASSERT_EQUAL_INT32(-1, rep.difference.agent);
}
