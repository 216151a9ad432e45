// The memo of ORCA pairs (src/steer/orca_memo.h): a pair's geometry is odd in its input, so the
// neighbor of an agent that built a pair takes it negated; the memo changes no result.
#include <string.h>

#include "unity.h"

#include "vec2.h"
#include "agent.h"
#include "flocking.h"
#include "orca.h"
#include "orca_sorted.h"
#include "orca_memo.h"
#include "result.h"
#include "world.h"
#include "world_internal.h"
#include "world_crowd.h"
#include "snapshot.h"
#include "fxs_test_agents.h"
#include "fxs_test_world.h"

void setUp(void) {}
void tearDown(void) {}

// An ORCA agent at (x, y) moving at (vx, vy), raw units, radius r raw.
static fxs_agent body(int32_t x, int32_t y, int32_t vx, int32_t vy, fix16_t r) {
  fxs_agent a = fxs_default_agent();
  a.position = fxs_vec2_make(x, y), a.velocity = fxs_vec2_make(vx, vy);
  a.radius = r, a.max_speed = FXS_INT(2);
  return a;
}

static fxs_neighbor as_neighbor(const fxs_agent *a, uint32_t id) {
  fxs_neighbor n;
  n.position = a->position, n.velocity = a->velocity, n.id = id;
  return n;
}

// The push u (the agent taking all of it: point = its velocity + u) and edge of a's
// half-plane against b.
static void geometry(const fxs_agent *a, uint32_t a_id, const fxs_agent *b, uint32_t b_id,
                     const fxs_orca_def *d, fxs_vec2 *u, fxs_vec2 *edge) {
  fxs_neighbor n = as_neighbor(b, b_id);
  fxs_orca_line l = fxs_orca_half_plane_shared(a, a_id, &n, d, FXS_ONE);
  *u = fxs_vec2_make(l.point.x - a->velocity.x, l.point.y - a->velocity.y);
  *edge = l.direction;
}

// A seeded component of magnitude below 2^m raw.
static int32_t below(uint32_t *rng, unsigned m) {
  int32_t v = (int32_t)(fxs_test_lcg(rng) & ((UINT32_C(1) << m) - 1u));
  return (fxs_test_lcg(rng) & 1u) ? -v : v;
}

// Every pair's geometry is the negation of its neighbor's: apart (cut off and on a leg),
// touching, overlapping, on one spot (the ids decide), offsets and speeds at every scale.
void test_a_pairs_push_and_edge_are_its_neighbors_negated(void) {
  uint32_t rng = 7;
  fxs_orca_def d = fxs_default_orca_def();
  uint32_t overlapping = 0, apart = 0;
  for (int i = 0; i < 200000; ++i) {
    unsigned scale = 4u + fxs_test_lcg(&rng) % 22u; // offsets up to 2^25 raw
    fix16_t r = (fix16_t)(fxs_test_lcg(&rng) % (UINT32_C(1) << (scale + 1u)));
    d.neighbor_radius = r;
    d.time_horizon = (fix16_t)(FXS_ONE + fxs_test_lcg(&rng) % (UINT32_C(64) << 16));
    fxs_agent a = body(below(&rng, 20), below(&rng, 20), below(&rng, 18), below(&rng, 18), r);
    fxs_agent b = body(a.position.x + below(&rng, scale), a.position.y + below(&rng, scale),
                       below(&rng, scale), below(&rng, scale), r);
    if (i % 1000 == 0) b.position = a.position;                          // on one spot
    if (i % 1000 == 1) b.position = a.position, b.velocity = a.velocity; // and still apart
    fxs_vec2 ua, ea, ub, eb;
    geometry(&a, 3, &b, 9, &d, &ua, &ea);
    geometry(&b, 9, &a, 3, &d, &ub, &eb);
    TEST_ASSERT_EQUAL_INT32(ua.x, -ub.x);
    TEST_ASSERT_EQUAL_INT32(ua.y, -ub.y);
    TEST_ASSERT_EQUAL_INT32(ea.x, -eb.x);
    TEST_ASSERT_EQUAL_INT32(ea.y, -eb.y);
    uint64_t gap = (uint64_t)fxs_vec2_length_sq(fxs_vec2_sub(b.position, a.position));
    if (gap <= (uint64_t)(2 * (int64_t)r) * (uint64_t)(2 * (int64_t)r)) ++overlapping;
    else ++apart;
  }
  TEST_ASSERT_TRUE(overlapping > 10000 && apart > 10000);
}

// Two agents heading at each other, near (the program builds both lines), each with the
// other as its one neighbor.
static fxs_agent left_agent, right_agent;
static fxs_orca_def pair_def;

static void head_on(void) {
  pair_def = fxs_default_orca_def();
  pair_def.neighbor_radius = FXS_INT(1);
  left_agent = body(FXS_INT(100), FXS_INT(100), FXS_RATIO(1, 2), FXS_RATIO(1, 50), FXS_INT(1));
  right_agent = body(FXS_INT(106), FXS_INT(101), -FXS_RATIO(1, 2), 0, FXS_INT(1));
}

// The agent's velocity against the other, preferring to keep its own, with memo m (or NULL).
static fxs_vec2 steer(const fxs_agent *self, uint32_t self_id, const fxs_agent *other,
                      uint32_t other_id, const fxs_orca_memo *m) {
  static fxs_orca_scratch scratch;
  fxs_neighbor n = as_neighbor(other, other_id);
  return fxs_orca_velocity_sorted(self, self_id, self->velocity, &n, 0, 0, 1, 0, &pair_def, false,
                                  m, &scratch);
}

static fxs_orca_memo_entry entries[16];

static fxs_orca_memo fresh_memo(void) {
  memset(entries, 0, sizeof entries);
  fxs_orca_memo m = {entries, 28};
  return m;
}

// The first agent keeps the pair, the second takes it: both steer as without the memo.
void test_the_second_agent_of_a_pair_takes_the_first_ones_pair_and_steers_the_same(void) {
  head_on();
  fxs_vec2 left = steer(&left_agent, 1, &right_agent, 2, 0);
  fxs_vec2 right = steer(&right_agent, 2, &left_agent, 1, 0);
  TEST_ASSERT_FALSE(left.x == left_agent.velocity.x && left.y == left_agent.velocity.y); // avoids
  fxs_orca_memo m = fresh_memo();
  fxs_vec2 left_m = steer(&left_agent, 1, &right_agent, 2, &m);
  fxs_orca_memo_entry *e = fxs_orca_memo_slot(&m, 2, 1);
  TEST_ASSERT_EQUAL_INT32(left_agent.position.x - right_agent.position.x, e->offset.x); // kept
  fxs_vec2 right_m = steer(&right_agent, 2, &left_agent, 1, &m);
  TEST_ASSERT_EQUAL_INT32(left.x, left_m.x);
  TEST_ASSERT_EQUAL_INT32(left.y, left_m.y);
  TEST_ASSERT_EQUAL_INT32(right.x, right_m.x);
  TEST_ASSERT_EQUAL_INT32(right.y, right_m.y);
}

// The entry is what the second agent uses: a wrong push in it moves that agent. An entry
// whose input differs from the pair's mirror in any field is left alone.
void test_an_entry_is_taken_only_for_the_pairs_exact_mirror(void) {
  head_on();
  fxs_vec2 right = steer(&right_agent, 2, &left_agent, 1, 0);
  fxs_orca_memo m = fresh_memo();
  steer(&left_agent, 1, &right_agent, 2, &m);
  fxs_orca_memo_entry *e = fxs_orca_memo_slot(&m, 1, 2);
  const fxs_orca_memo_entry kept = *e;
  e->push.x += FXS_RATIO(1, 4);
  fxs_vec2 moved = steer(&right_agent, 2, &left_agent, 1, &m);
  TEST_ASSERT_FALSE(moved.x == right.x && moved.y == right.y);
  for (int field = 0; field < 6; ++field) {
    *e = kept;
    e->push.x += FXS_RATIO(1, 4); // wrong, were it taken
    int32_t *key[6] = {&e->offset.x, &e->offset.y, &e->relative.x, &e->relative.y, &e->r, &e->tau};
    *key[field] += 1;
    fxs_vec2 v = steer(&right_agent, 2, &left_agent, 1, &m);
    TEST_ASSERT_EQUAL_INT32(right.x, v.x);
    TEST_ASSERT_EQUAL_INT32(right.y, v.y);
  }
}

// The ring of 48 ORCA agents (fxs_test_add_orca_ring), stepped 150 ticks; with
// `memo` false its worker's memo is switched off, with `clear` it is wiped before
// every tick. The world hash of every tick, folded.
static fxs_world world;
static uint64_t memory[8192];

static uint64_t ring(bool memo, bool clear) {
  fxs_world_capacity c = {64, 0, 0, 0, 0, 1};
  fxs_test_orca_ring_world(&world, &c, memory, sizeof memory);
  if (!memo) world.internal->workers[0].pairs.entries = 0; // the step then builds every pair itself
  uint64_t folded = 0;
  for (int t = 0; t < 150; ++t) {
    if (clear)
      memset(world.internal->orca_memo, 0,
             sizeof(fxs_orca_memo_entry) << world.internal->orca_memo_bits);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&world, 0, 0, 0));
    folded = folded * 1099511628211u ^ fxs_world_hash(&world);
  }
  return folded;
}

// The memo is a cache, not state: a world steps the same with it, without it, and with it
// wiped every tick; and the crowd does keep pairs in it. (On Cortex-M the default memo is
// empty: the three runs are the same there too.)
void test_an_orca_crowd_steps_the_same_with_its_memo_without_it_and_wiped(void) {
  uint64_t with = ring(true, false);
  uint32_t kept = 0;
  for (uint32_t i = 0;
       i < (UINT32_C(1) << world.internal->orca_memo_bits) && world.internal->orca_memo_bits; ++i) {
    kept += !fxs_vec2_is_zero(world.internal->orca_memo[i].offset);
  }
  TEST_ASSERT_TRUE(kept > 0 || FXS_ORCA_MEMO_MAX_ENTRIES == 0);
  TEST_ASSERT_EQUAL_UINT64(with, ring(false, false));
  TEST_ASSERT_EQUAL_UINT64(with, ring(true, true));
}

// A world's memo is sized from its slots: a power of two at or above them, from 64 to
// FXS_ORCA_MEMO_MAX_ENTRIES, for each worker; none for a world of fewer than 64 slots.
void test_a_worlds_memo_is_sized_from_its_slots_and_workers(void) {
  TEST_ASSERT_EQUAL_UINT32(0, fxs_orca_memo_entries(0));
  TEST_ASSERT_EQUAL_UINT32(0, fxs_orca_memo_entries(63));
  if (FXS_ORCA_MEMO_MAX_ENTRIES == 0) {
    TEST_ASSERT_EQUAL_UINT32(0, fxs_orca_memo_entries(250));
    return;
  }
  TEST_ASSERT_EQUAL_UINT32(64, fxs_orca_memo_entries(64));
  TEST_ASSERT_EQUAL_UINT32(128, fxs_orca_memo_entries(65));
  TEST_ASSERT_EQUAL_UINT32(FXS_ORCA_MEMO_MAX_ENTRIES, fxs_orca_memo_entries(100000));
  TEST_ASSERT_EQUAL_UINT32(7, fxs_orca_memo_bits(65));
  fxs_world_capacity one = {100, 0, 0, 0, 0, 1}, three = {100, 0, 0, 0, 0, 3};
  fxs_world_capacity small = {63, 0, 0, 0, 0, 1}, smaller = {62, 0, 0, 0, 0, 1};
  size_t grown = fxs_world_memory_size(&three) - fxs_world_memory_size(&one);
  TEST_ASSERT_TRUE(grown >= 2u * 128u * sizeof(fxs_orca_memo_entry));
  size_t slot = fxs_world_memory_size(&small) - fxs_world_memory_size(&smaller);
  TEST_ASSERT_TRUE(slot < 128u * sizeof(fxs_orca_memo_entry)); // no memo below 64 slots
}
