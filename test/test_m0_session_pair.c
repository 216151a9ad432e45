// A lockstep match between two in-memory peers, as small as the session allows: each peer has
// its own world and session block, packets go straight from one to the other, and both reach
// the state hash pinned from x86-64. It runs on the desktop and the Cortex-M3 but not on the
// 16 KiB Cortex-M0: its static data alone (two fxs_session structs of 1808 bytes, two
// world blocks, two session blocks) overflow that RAM by 276 bytes (docs/mcu.md);
// test_m0_session runs a one-peer synctest session there instead.
#include <string.h>

#include "unity.h"

#include "vec2.h"
#include "result.h"
#include "command.h"
#include "command_build.h"
#include "world.h"
#include "input_limits.h"
#include "session.h"
#include "fxs_stack_probe.h"
#include "fxs_test_util.h"
#include "fxs_test_hash_v2.h"

#define PLAYERS 2u
#define TICKS 60u
#define DELAY 2u
#define WORLD_BYTES 4080u   // fxs_world_memory_size of 2 agents, no obstacles (checked)
#define SESSION_BYTES 1712u // checked against fxs_session_memory_size
#define PACKET_BYTES 256u

static const fxs_world_capacity capacity = {PLAYERS, 0, 0, 0, 0, 1};
static uint64_t world_memory[PLAYERS][WORLD_BYTES / 8u];
static uint64_t session_memory[PLAYERS][SESSION_BYTES / 8u];
static fxs_world worlds[PLAYERS];
static fxs_session sessions[PLAYERS];
static uint8_t packet[PACKET_BYTES];

void setUp(void) {}
void tearDown(void) {}

static fxs_session_def session_def(uint8_t local) {
  fxs_session_def d = fxs_default_session_def();
  d.mode = FXS_SESSION_LOCKSTEP;
  d.players = PLAYERS;
  d.local = local;
  d.delay = DELAY;
  d.window = 5;
  d.max_commands = 3;
  d.max_packet_bytes = PACKET_BYTES;
  d.max_packet_inputs = 4;
  d.max_packet_hashes = 4;
  d.tick_limit = TICKS;
  return d;
}

// Player p's commands for `tick`: spawn its agent, give it arrive and separation, then a new
// target every 10 ticks. Its agent is slot p (spawns are applied in source order).
static uint32_t inputs(uint32_t p, uint32_t tick, fxs_command *out) {
  fxs_agent_handle a = {p + 1u};
  fxs_blend b = fxs_default_blend();
  if (tick == DELAY) {
    fxs_spawn_def s = fxs_default_spawn_def();
    s.position = fxs_vec2_make(FXS_INT(100 + 200 * (int32_t)p), FXS_INT(200));
    out[0] = fxs_command_spawn(&s);
    return 1;
  }
  if (tick == DELAY + 1u) {
    out[0] = fxs_command_add_arrive(a, b, FXS_INT(40));
    out[1] = fxs_command_add_separation(a, b, FXS_INT(30));
    fxs_vec2 goal = fxs_vec2_make(FXS_INT(300 - 200 * (int32_t)p), FXS_INT(220));
    out[2] = fxs_command_set_target_point(a, goal);
    return 3;
  }
  if (tick > DELAY && tick % 10u == 0) {
    int32_t k = (int32_t)(tick / 10u);
    out[0] = fxs_command_set_target_point(
        a, fxs_vec2_make(FXS_INT(60 + 37 * k + 90 * (int32_t)p), FXS_INT(120 + 23 * k)));
    return 1;
  }
  return 0;
}

void test_two_peers_in_lockstep_reach_the_pinned_hash(void) {
  for (uint8_t i = 0; i < PLAYERS; ++i) {
    fxs_world_def wd = fxs_default_world_def();
    wd.seed = 0x5E55u;
    TEST_ASSERT_TRUE(fxs_world_memory_size(&capacity) <= sizeof world_memory[i]);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&worlds[i], &wd, &capacity, world_memory[i],
                                             sizeof world_memory[i]));
    fxs_session_def d = session_def(i);
    size_t need = fxs_session_memory_size(&d);
    FXS_TEST_REPORT("peer %u: world block %u bytes, session block %u bytes", (unsigned)i,
                    (unsigned)fxs_world_memory_size(&capacity), (unsigned)need);
    TEST_ASSERT_TRUE(need > 0 && need <= sizeof session_memory[i]);
    TEST_ASSERT_EQUAL(
        FXS_OK, fxs_session_init(&sessions[i], &d, session_memory[i], sizeof session_memory[i]));
  }
  uint32_t now = 0;
  while (!(fxs_session_done(&sessions[0]) && fxs_session_done(&sessions[1]))) {
    TEST_ASSERT_TRUE(now < 100000u); // the match ends: no stall
    for (uint8_t i = 0; i < PLAYERS; ++i) {
      fxs_command c[3];
      while (fxs_session_wants_input(&sessions[i])) {
        uint32_t n = inputs(i, fxs_session_input_tick(&sessions[i]), c);
        fxs_result s = fxs_session_submit(&sessions[i], c, n);
        if (s == FXS_ERR_FULL) break; // the other peer has not acknowledged yet
        TEST_ASSERT_EQUAL(FXS_OK, s);
      }
      fxs_result r = fxs_session_advance(&sessions[i], &worlds[i], now);
      TEST_ASSERT_TRUE(r == FXS_OK || r == FXS_ERR_WAITING || r == FXS_ERR_LIMIT);
      uint8_t other = (uint8_t)(1u - i);
      size_t len = 0;
      TEST_ASSERT_EQUAL(
          FXS_OK, fxs_session_poll_send(&sessions[i], other, now, packet, sizeof packet, &len));
      if (len) {
        TEST_ASSERT_EQUAL(FXS_OK, fxs_session_receive(&sessions[other], i, packet, len, now));
      }
    }
    now += 4;
  }
  TEST_ASSERT_NULL(fxs_session_desync_report(&sessions[0]));
  TEST_ASSERT_NULL(fxs_session_desync_report(&sessions[1]));
  TEST_ASSERT_EQUAL_UINT32(TICKS, worlds[0].tick);
  TEST_ASSERT_EQUAL_UINT32(TICKS, worlds[1].tick);
  TEST_ASSERT_EQUAL_UINT32(PLAYERS, fxs_world_agent_count(&worlds[0]));
  uint64_t h = hash_v2(&worlds[0]);
  volatile uint32_t here = 0;
  FXS_TEST_REPORT("hash %08lx%08lx after %u ticks at %u ms; %u bytes free below the test",
                  (unsigned long)(h >> 32), (unsigned long)(h & 0xFFFFFFFFu), (unsigned)TICKS,
                  (unsigned)now, (unsigned)fxs_stack_room_below(&here));
  TEST_ASSERT_EQUAL_HEX64(h, hash_v2(&worlds[1]));
  TEST_ASSERT_EQUAL_HEX64(UINT64_C(0x3C7B2BA903A89D94), h);
}
