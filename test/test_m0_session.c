// A session on a Cortex-M0's 16 KiB: one peer in SYNCTEST mode, which after every step
// restores the last ticks from its snapshot ring and steps them again, checking each
// re-simulated hash against the first (GGPO's synctest). The same inputs on every target
// reach the state hash pinned from x86-64. (Two peers exchanging packets do not fit in this
// RAM: test_m0_session_pair runs that match on the desktop and the Cortex-M3.)
#include <string.h>

#include "unity.h"

#include "vec2.h"
#include "wander.h"
#include "result.h"
#include "command.h"
#include "command_build.h"
#include "world.h"
#include "snapshot.h"
#include "input_limits.h"
#include "session.h"
#include "fxs_stack_probe.h"
#include "fxs_test_util.h"
#include "fxs_test_hash_v2.h"

#define TICKS 80u
#define DELAY 1u
#define AGENTS 3u
#define WORLD_BYTES 4528u   // fxs_world_memory_size of 3 agents, no obstacles (checked)
#define SNAPSHOT_BYTES 768u // one snapshot slot: the 3-agent world's snapshots (checked)
#define SESSION_BYTES 4280u // checked against fxs_session_memory_size

static const fxs_world_capacity capacity = {AGENTS, 0, 0, 0, 0, 1};
static uint64_t world_memory[WORLD_BYTES / 8u];
static uint64_t session_memory[SESSION_BYTES / 8u];
static fxs_world world;
static fxs_session session;

void setUp(void) {}
void tearDown(void) {}

static fxs_session_def session_def(void) {
  fxs_session_def d = fxs_default_session_def();
  d.mode = FXS_SESSION_SYNCTEST;
  d.players = 1;
  d.delay = DELAY;
  d.synctest_ticks = 2;
  d.window = DELAY + 2u + 2u;
  d.max_commands = 4;
  d.tick_limit = TICKS;
  d.snapshot_bytes = SNAPSHOT_BYTES;
  return d;
}

// The commands of `tick`: three wanderers that flock, then new targets to seek.
static uint32_t inputs(uint32_t tick, fxs_command *out) {
  fxs_blend b = fxs_default_blend();
  if (tick == DELAY) {
    for (uint32_t i = 0; i < AGENTS; ++i) {
      fxs_spawn_def s = fxs_default_spawn_def();
      s.position = fxs_vec2_make(FXS_INT(150 + 30 * (int32_t)i), FXS_INT(200 - 20 * (int32_t)i));
      out[i] = fxs_command_spawn(&s);
    }
    return AGENTS;
  }
  uint32_t k = tick % AGENTS;
  fxs_agent_handle a = {k + 1u};
  if (tick <= DELAY + AGENTS) {
    fxs_wander_def w = fxs_default_wander_def();
    out[0] = fxs_command_add_wander(a, b, &w);
    out[1] = fxs_command_add_separation(a, b, FXS_INT(30));
    out[2] = fxs_command_add_cohesion(a, b, FXS_INT(60));
    out[3] = fxs_command_add_seek(a, b);
    return 4;
  }
  if (tick % 7u == 0) {
    out[0] = fxs_command_set_target_point(
        a, fxs_vec2_make(FXS_INT(40 + 11 * (int32_t)tick), FXS_INT(300 - 3 * (int32_t)tick)));
    return 1;
  }
  return 0;
}

void test_a_synctest_session_resimulates_every_tick_to_the_pinned_hash(void) {
  fxs_world_def wd = fxs_default_world_def();
  wd.seed = 0x5E55u;
  TEST_ASSERT_TRUE(fxs_world_memory_size(&capacity) <= sizeof world_memory);
  TEST_ASSERT_EQUAL(FXS_OK,
                    fxs_world_init(&world, &wd, &capacity, world_memory, sizeof world_memory));
  fxs_session_def d = session_def();
  size_t need = fxs_session_memory_size(&d);
  TEST_ASSERT_TRUE(need > 0 && need <= sizeof session_memory);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_session_init(&session, &d, session_memory, sizeof session_memory));
  uint32_t now = 0;
  size_t largest = 0;
  while (!fxs_session_done(&session)) {
    TEST_ASSERT_TRUE(now < 100000u); // the session ends: no stall
    fxs_command c[4];
    while (fxs_session_wants_input(&session)) {
      uint32_t n = inputs(fxs_session_input_tick(&session), c);
      TEST_ASSERT_EQUAL(FXS_OK, fxs_session_submit(&session, c, n));
    }
    fxs_result r = fxs_session_advance(&session, &world, now);
    TEST_ASSERT_TRUE_MESSAGE(r == FXS_OK || r == FXS_ERR_WAITING || r == FXS_ERR_LIMIT,
                             fxs_result_message(r));
    size_t s = fxs_world_snapshot_size(&world);
    if (s > largest) largest = s;
    now += 16;
  }
  TEST_ASSERT_NULL(fxs_session_desync_report(&session));
  TEST_ASSERT_EQUAL_UINT32(TICKS, world.tick);
  TEST_ASSERT_EQUAL_UINT32(AGENTS, fxs_world_agent_count(&world));
  uint64_t h = hash_v2(&world);
  volatile uint32_t here = 0;
  FXS_TEST_REPORT(
      "synctest: hash %08lx%08lx after %u ticks; world block %u, session block %u, "
      "largest snapshot %u bytes; %u bytes free below the test",
      (unsigned long)(h >> 32), (unsigned long)(h & 0xFFFFFFFFu), (unsigned)TICKS,
      (unsigned)fxs_world_memory_size(&capacity), (unsigned)need, (unsigned)largest,
      (unsigned)fxs_stack_room_below(&here));
  TEST_ASSERT_TRUE(largest <= SNAPSHOT_BYTES);
  TEST_ASSERT_EQUAL_HEX64(UINT64_C(0x23A0F0CB84A34572), h);
}
