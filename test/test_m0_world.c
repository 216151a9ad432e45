// Worlds sized for a 16 KiB Cortex-M0 (the whole RAM: this test's world block, the C
// library, Unity and the stack): the largest flock, ORCA crowd and patrol that fit, stepped
// on every target to the same state hashes (pinned from x86-64), and the stack a step needs,
// measured by painting it (docs/mcu.md).
#include <string.h>

#include "unity.h"

#include "result.h"
#include "world.h"
#include "fxs_m0_scenes.h"
#include "fxs_stack_probe.h"
#include "fxs_test_util.h"
#include "fxs_test_hash_v2.h"

// The agents of each scene: the most for which this test still runs on the M0 board.
#define AGENTS 14u
// Ticks each scene is stepped.
#define TICKS 150u
// The world block, sized for AGENTS with fxs_m0_capacity (the size is checked below).
#define BLOCK_BYTES 9480u
// The most stack a step may take on the MCU boards (measured: docs/mcu.md).
#define STEP_STACK_BUDGET 4096u

static uint64_t memory[BLOCK_BYTES / 8u];
static fxs_world world;

void setUp(void) {}
void tearDown(void) {}

// The state hash after TICKS steps of scene `s` with `agents` agents; the deepest stack of a
// step in *stack.
static uint64_t run_with(fxs_m0_scene s, uint32_t agents, size_t *stack) {
  TEST_ASSERT_EQUAL(FXS_OK, fxs_m0_build(&world, s, agents, memory, sizeof memory));
  TEST_ASSERT_EQUAL_UINT32(agents, fxs_world_agent_count(&world));
  *stack = 0;
  for (uint32_t t = 0; t < TICKS; ++t) {
    volatile uint32_t mark = 0;
    fxs_stack_paint();
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&world, 0, 0, 0));
    size_t used = fxs_stack_used_below(&mark);
    if (used > *stack) *stack = used;
  }
  return hash_v2(&world);
}

static uint64_t run(fxs_m0_scene s, size_t *stack) { return run_with(s, AGENTS, stack); }

static void check(fxs_m0_scene s, const char *name, uint64_t expected) {
  size_t stack;
  uint64_t h = run(s, &stack);
  volatile uint32_t here = 0;
  FXS_TEST_REPORT(
      "%s, %u agents: hash %08lx%08lx after %u ticks; step stack %u bytes, "
      "block %u bytes, %u bytes free below the test",
      name, (unsigned)AGENTS, (unsigned long)(h >> 32), (unsigned long)(h & 0xFFFFFFFFu),
      (unsigned)TICKS, (unsigned)stack, (unsigned)fxs_world_memory_size(&world.capacity),
      (unsigned)fxs_stack_room_below(&here));
  TEST_ASSERT_EQUAL_HEX64(expected, h);
  if (FXS_STACK_PROBE) {
    TEST_ASSERT_TRUE(stack > 0);
    TEST_ASSERT_TRUE(stack <= STEP_STACK_BUDGET);
  }
}

void test_the_block_for_the_agents_fits_the_static_buffer(void) {
  fxs_world_capacity c = fxs_m0_capacity(AGENTS);
  size_t need = fxs_world_memory_size(&c);
  TEST_ASSERT_TRUE(need > 0);
  TEST_ASSERT_TRUE(need <= sizeof memory);
  // Not much more than needed: the buffer is the world's share of the M0's RAM.
  TEST_ASSERT_TRUE(sizeof memory - need < 512u);
  // One agent more does not fit.
  TEST_ASSERT_EQUAL(FXS_ERR_BUFFER_TOO_SMALL,
                    fxs_m0_build(&world, FXS_M0_FLOCK, AGENTS + 1u, memory, sizeof memory));
}

void test_a_flock_reaches_the_pinned_hash(void) {
  check(FXS_M0_FLOCK, "flock", UINT64_C(0x4F502A39A61B3DD9));
}

// (Since simulation version 10 an agent pressed against the wall with its target behind it
// slides round the wall's free end: version 9's hash was 0xF713DFDA7B8FEAC2, checked below.)
void test_an_orca_crowd_round_a_wall_and_an_obstacle_reaches_the_pinned_hash(void) {
  check(FXS_M0_CROWD, "ORCA crowd", UINT64_C(0x68B9128D19AA6179));
}

void test_the_orca_crowd_set_to_simulation_version_9_steps_as_version_9_did(void) {
  TEST_ASSERT_EQUAL(FXS_OK, fxs_m0_build(&world, FXS_M0_CROWD, AGENTS, memory, sizeof memory));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_set_simulation_version(&world, 9));
  for (uint32_t t = 0; t < TICKS; ++t) TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&world, 0, 0, 0));
  TEST_ASSERT_EQUAL_HEX64(UINT64_C(0xF713DFDA7B8FEAC2), hash_v2(&world));
}

void test_a_patrol_on_a_stop_path_reaches_the_pinned_hash(void) {
  check(FXS_M0_PATROL, "patrol", UINT64_C(0xBDA5A903474F0298));
}

// Every array of a step is bounded by a constant (16 neighbors, 8 static lines), so a crowd of
// 4 takes the stack a crowd of 14 does, within a few frames' worth of other paths taken.
void test_the_step_stack_does_not_grow_with_the_agent_count(void) {
  size_t few, many;
  run_with(FXS_M0_CROWD, 4, &few);
  run_with(FXS_M0_CROWD, AGENTS, &many);
  FXS_TEST_REPORT("ORCA crowd step stack: %u bytes with 4 agents, %u with %u", (unsigned)few,
                  (unsigned)many, (unsigned)AGENTS);
  if (FXS_STACK_PROBE) TEST_ASSERT_TRUE(many <= few + 128u);
}

// The world block per agent count, for the RAM table of docs/mcu.md.
void test_the_block_grows_by_a_slot_and_its_grid_per_agent(void) {
  size_t previous = 0;
  for (uint32_t n = 1; n <= 32; ++n) {
    fxs_world_capacity c = fxs_m0_capacity(n);
    size_t size = fxs_world_memory_size(&c);
    TEST_ASSERT_TRUE(size > previous);
    TEST_ASSERT_TRUE(size - previous >= sizeof(fxs_agent_slot));
    if (n == 1 || n % 4 == 0) {
      FXS_TEST_REPORT("block for %u agents: %u bytes", (unsigned)n, (unsigned)size);
    }
    previous = size;
  }
}
