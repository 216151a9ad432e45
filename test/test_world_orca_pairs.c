// A pair's ORCA half-plane computed once for both agents (world_orca_pairs.h): the records
// only save work. A crowd steps to the same hashes whether its pairs are recalled (inline,
// one range), mostly computed (ranges of 1 to 3 agents on changing workers), or recalled
// from rings filled with junk before every step (no record of an earlier step is read).
#include <string.h>

#include "unity.h"

#include "scalar.h"
#include "vec2.h"
#include "rng.h"
#include "hash.h"
#include "agent.h"
#include "behavior.h"
#include "manager.h"
#include "seek.h"
#include "wander.h"
#include "pursuit.h"
#include "avoidance.h"
#include "path.h"
#include "flocking.h"
#include "leader.h"
#include "kinematic.h"
#include "align.h"
#include "velocity_match.h"
#include "walker.h"
#include "unaligned_avoidance.h"
#include "interpose.h"
#include "hide.h"
#include "neighbors.h"
#include "orca.h"
#include "result.h"
#include "command.h"
#include "behavior_params.h"
#include "world.h"
#include "nav_grid.h"
#include "nav_path.h"
#include "world_nav.h"
#include "world_nav_fields.h"
#include "world_move.h"
#include "nav_field.h"
#include "flow_field.h"
#include "world_field.h"
#include "world_grid.h"
#include "world_obstacles.h"
#include "world_slots.h"
#include "world_step.h"
#include "world_bounds.h"
#include "world_contact.h"
#include "escape.h"
#include "formation.h"
#include "world_formation.h"
#include "snapshot.h"
#include "bytes.h"
#include "command_build.h"
#include "world_orca_pairs.h"

void setUp(void) {}
void tearDown(void) {}

#if FXS_ORCA_PAIR_WINDOW > 0
static uint64_t memory[65536];
static fxs_world world;
static const fix16_t SHORT_HORIZON = FXS_INT(10), LONG_HORIZON = FXS_INT(20);

static fxs_orca_def orca_def(uint32_t i) {
  fxs_orca_def d = fxs_default_orca_def();
  d.time_horizon = i % 6u == 5u ? LONG_HORIZON : SHORT_HORIZON; // two pair keys
  d.neighbor_distance = FXS_INT(15);
  d.neighbor_radius = FXS_ONE;
  d.max_neighbors = 10;
  d.priority = i % 7u == 3u ? FXS_INT(2) : 0; // unequal shares of one pair
  return d;
}

// 48 agents of radius 1 on a circle of radius 14 walk to their antipodes: a dense crossing.
static void make_crossing(const fxs_task_system *tasks) {
  fxs_world_capacity c = {0};
  c.agents = 64, c.workers = FXS_MAX_WORKERS;
  fxs_world_def def = fxs_default_world_def();
  def.bounds_min = fxs_vec2_make(-FXS_INT(40), -FXS_INT(40));
  def.bounds_max = fxs_vec2_make(FXS_INT(40), FXS_INT(40));
  def.neighbor_radius = FXS_INT(15);
  TEST_ASSERT_TRUE(fxs_world_memory_size(&c) <= sizeof memory);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&world, &def, &c, memory, sizeof memory));
  if (tasks) TEST_ASSERT_EQUAL(FXS_OK, fxs_world_set_tasks(&world, tasks));
  for (uint32_t i = 0; i < 48; ++i) {
    fix16_t angle = (fix16_t)((int64_t)FXS_TWO_PI * i / 48);
    fxs_vec2 at = fxs_vec2_make(fxs_mul(FXS_INT(14), fxs_cos(angle)),
                                fxs_mul(FXS_INT(14), fxs_sin(angle)));
    fxs_spawn_def sd = fxs_default_spawn_def();
    sd.position = at;
    sd.max_speed = FXS_ONE / 2, sd.max_force = FXS_ONE, sd.radius = FXS_ONE;
    fxs_agent_handle h;
    fxs_command spawn = fxs_command_spawn(&sd);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &spawn, &h));
    fxs_orca_def d = orca_def(i);
    fxs_command more[2] = {fxs_command_set_target_point(h, fxs_vec2_negate(at)),
                           fxs_command_add_orca(h, fxs_default_blend(), &d, FXS_INT(2))};
    for (int k = 0; k < 2; ++k) TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &more[k], 0));
  }
}

// A task system that runs each phase inline, backwards, in ranges of 1 to 3 items, on
// changing workers.
static uint32_t odd_calls;
static void *odd_enqueue(fxs_task_fn *task, uint32_t count, uint32_t min_range, void *task_context,
                         void *user_context) {
  (void)min_range;
  odd_calls++;
  for (uint32_t end = count; end > 0;) {
    uint32_t size = 1u + (end + odd_calls) % 3u;
    uint32_t begin = end > size ? end - size : 0;
    task(begin, end, (end * 7u) % FXS_MAX_WORKERS, task_context);
    end = begin;
  }
  return user_context;
}
static void odd_finish(void *handle, void *user_context) { (void)handle, (void)user_context; }

// Fills every worker's ring with records that would be read if records of an earlier step
// were: the crowd's pair key, full, naming view entries of this step, with junk pairs.
static void poison_rings(uint32_t *rng) {
  fxs_agent body = fxs_default_agent();
  body.radius = FXS_ONE;
  fxs_orca_def d = orca_def(0);
  fxs_orca_pair_key key = fxs_orca_pair_key_of(&body, &d);
  for (uint32_t w = 0; w < world.worker_capacity; ++w) {
    fxs_world_worker *k = &world.workers[w];
    for (uint32_t r = 0; r < FXS_ORCA_PAIR_WINDOW; ++r) {
      fxs_orca_pair_record *rec = &k->pair_ring[r];
      rec->key = key;
      rec->count = FXS_ORCA_PAIRS_KEPT;
      for (uint32_t j = 0; j < FXS_ORCA_PAIRS_KEPT; ++j) {
        *rng = *rng * 1664525u + 1013904223u;
        rec->view[j] = (*rng >> 8) % 48u;
        rec->pair[j].u = fxs_vec2_make((fix16_t)(*rng >> 12), -(fix16_t)(*rng >> 13));
        rec->pair[j].direction = fxs_vec2_make(FXS_ONE, 0);
      }
    }
  }
}

// Steps the crossing 160 ticks; returns a digest of the hashes and counts the ticks after
// which some worker kept pairs for later neighbors.
static uint64_t crossing_digest(const fxs_task_system *tasks, bool poison, uint32_t *kept_ticks) {
  make_crossing(tasks);
  uint32_t rng = 5;
  uint64_t digest = 0;
  *kept_ticks = 0;
  for (int t = 0; t < 160; ++t) {
    if (poison) poison_rings(&rng);
    fxs_world_step(&world, 0, 0, 0);
    digest = digest * 1099511628211u ^ fxs_world_hash(&world);
    bool kept = false;
    for (uint32_t w = 0; w < world.worker_capacity && !kept; ++w) {
      const fxs_world_worker *k = &world.workers[w];
      for (uint32_t r = 0; r < FXS_ORCA_PAIR_WINDOW && !kept; ++r) {
        kept = k->pair_ring[r].count > 0;
      }
    }
    *kept_ticks += kept;
  }
  return digest;
}

void test_a_crossing_steps_alike_with_pairs_recalled_computed_or_poisoned(void) {
  uint32_t kept_inline, kept_odd, kept_poisoned;
  uint64_t inline_run = crossing_digest(0, false, &kept_inline);
  fxs_task_system odd = {odd_enqueue, odd_finish, FXS_MAX_WORKERS, &odd_calls};
  uint64_t odd_run = crossing_digest(&odd, false, &kept_odd);
  uint64_t poisoned_run = crossing_digest(0, true, &kept_poisoned);
  TEST_ASSERT_EQUAL_HEX64(inline_run, odd_run);
  TEST_ASSERT_EQUAL_HEX64(inline_run, poisoned_run);
  TEST_ASSERT_EQUAL_UINT32(160, kept_inline); // pairs were kept, and so recalled, every tick
}

// The ring's rules: a record is read only by an agent steered after its owner in the same
// range, within the ring, with the same pair key.
void test_a_record_is_read_only_within_its_range_the_ring_and_its_key(void) {
  static fxs_world_worker worker;
  static fxs_orca_scratch scratch;
  const fxs_orca_pair_record *ring = worker.pair_ring;
  const uint32_t far = 3u + FXS_ORCA_PAIR_WINDOW + 1u; // beyond the ring from view 3
  fxs_orca_pair_key key = {FXS_INT(2), FXS_INT(10)}, other = {FXS_INT(2), FXS_INT(11)};
  // The agent at view 3 has neighbors at views 5, 1, far and 4.
  const uint32_t views[4] = {5, 1, far, 4};
  memcpy(worker.neighbor_view, views, sizeof views);
  for (uint32_t i = 0; i < 4; ++i) {
    scratch.pairs[i].u = fxs_vec2_make((fix16_t)(100 + i), -(fix16_t)(200 + i));
    scratch.pairs[i].direction = fxs_vec2_make(0, FXS_ONE);
  }
  fxs_orca_pairs_clear(&worker, 3);
  fxs_orca_pairs_keep(&worker, 3, 4, key, &scratch);
  TEST_ASSERT_EQUAL_UINT32(3, ring[3].count); // 5, far and 4: steered after it
  // The agent at view 5 (range from 0), whose second neighbor is view 3: its pair is 3's,
  // negated.
  const uint32_t five[2] = {7, 3};
  memcpy(worker.neighbor_view, five, sizeof five);
  fxs_orca_pairs_recall(&worker, 0, 5, 2, key, &scratch);
  TEST_ASSERT_EQUAL_UINT32(2u, scratch.known);
  TEST_ASSERT_EQUAL_INT32(-100, scratch.pairs[1].u.x);
  TEST_ASSERT_EQUAL_INT32(200, scratch.pairs[1].u.y);
  TEST_ASSERT_EQUAL_INT32(0, scratch.pairs[1].direction.x);
  TEST_ASSERT_EQUAL_INT32(-FXS_ONE, scratch.pairs[1].direction.y);
  // Not from a range that starts after view 3, nor with another key.
  fxs_orca_pairs_recall(&worker, 4, 5, 2, key, &scratch);
  TEST_ASSERT_EQUAL_UINT32(0, scratch.known);
  fxs_orca_pairs_recall(&worker, 0, 5, 2, other, &scratch);
  TEST_ASSERT_EQUAL_UINT32(0, scratch.known);
  // By view `far`, record 3's place in the ring has been taken.
  const uint32_t three[1] = {3};
  memcpy(worker.neighbor_view, three, sizeof three);
  fxs_orca_pairs_recall(&worker, 0, far, 1, key, &scratch);
  TEST_ASSERT_EQUAL_UINT32(0, scratch.known);
  // View 4 reads it; once view 3's record is cleared (its agent steered again), nothing.
  fxs_orca_pairs_recall(&worker, 0, 4, 1, key, &scratch);
  TEST_ASSERT_EQUAL_UINT32(1u, scratch.known);
  TEST_ASSERT_EQUAL_INT32(-103, scratch.pairs[0].u.x);
  fxs_orca_pairs_clear(&worker, 3u + FXS_ORCA_PAIR_WINDOW); // takes record 3's place
  fxs_orca_pairs_recall(&worker, 0, 4, 1, key, &scratch);
  TEST_ASSERT_EQUAL_UINT32(0, scratch.known);
}
#else
void test_a_crossing_steps_alike_with_pairs_recalled_computed_or_poisoned(void) {
  TEST_IGNORE_MESSAGE("built without ORCA pair records (FXS_ORCA_PAIR_WINDOW 0)");
}
void test_a_record_is_read_only_within_its_range_the_ring_and_its_key(void) {
  TEST_IGNORE_MESSAGE("built without ORCA pair records (FXS_ORCA_PAIR_WINDOW 0)");
}
#endif
