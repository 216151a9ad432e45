// What the step learns about the crowd before it steers (world_crowd.h): the tally of every
// slot, taken in ranges on several workers and merged, is the tally of one pass, and both
// are what the agents make them.
#include "unity.h"
#include "vec2.h"
#include "behavior.h"
#include "manager.h"
#include "orca.h"
#include "result.h"
#include "command.h"
#include "command_build.h"
#include "world.h"
#include "world_steer.h"
#include "world_crowd.h"
#include "fxs_test_world.h"

enum { SLOTS = 600, CASES = 300 };
static uint64_t memory[(512u << 10) / 8u];
static fxs_world world;
static uint64_t seed_state;

void setUp(void) {}
void tearDown(void) {}

static uint32_t below(uint32_t n) {
  seed_state = seed_state * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
  return (uint32_t)(seed_state >> 33) % n;
}

// What spoils the crowd's tally in one slot.
typedef enum spoiler {
  SPOIL_DEAD,     // a free slot: spoils nothing
  SPOIL_CHASING,  // aims at an agent: not in place
  SPOIL_PRIORITY, // another avoidance priority: not one priority
  SPOIL_SEEKER,   // its first behavior is a seek: neither (it does not avoid back)
  SPOIL_PUSHED,   // a force for the tick: not in place
  SPOIL_WEIGHTED, // ORCA at weight 2: not in place (the manager scales it)
  SPOIL_SECOND,   // a second behavior after its ORCA: not in place
  SPOIL_RANKED,   // a prioritized sum: not in place (the manager may drop its ORCA)
  SPOIL_KINDS
} spoiler;

// The step's crowd fields from a tally.
static fxs_step_context taken(fxs_crowd_tally t) {
  fxs_step_context step;
  fxs_step_take_crowd(&step, &t, 1);
  return step;
}

static void spawn_crowd(void) {
  fxs_world_capacity c = {SLOTS, 0, 0, 0, 0, FXS_MAX_WORKERS};
  fxs_test_orca_world(&world, &c, memory, sizeof memory);
  fxs_orca_def orca = fxs_default_orca_def();
  for (uint32_t i = 0; i < SLOTS; ++i) {
    fxs_spawn_def sd = fxs_default_spawn_def();
    sd.position = fxs_vec2_make(FXS_INT(i % 50) * 4, FXS_INT(i / 50) * 4);
    fxs_command spawn = fxs_command_spawn(&sd);
    fxs_agent_handle h;
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &spawn, &h));
    fxs_command add = fxs_command_add_orca(h, fxs_default_blend(), &orca, FXS_INT(2));
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &add, 0));
  }
}

// The slot as spawn_crowd left it (a lone ORCA agent of priority 0 aiming at a point).
static void restore_slot(uint32_t i, const fxs_agent_slot *kept) { world.agents[i] = *kept; }

static void spoil(uint32_t i, spoiler kind) {
  fxs_agent_slot *s = &world.agents[i];
  switch (kind) {
    case SPOIL_DEAD:
      s->alive = 0;
      break;
    case SPOIL_CHASING:
      s->target_agent = fxs_world_handle_at(&world, (i + 1u) % SLOTS).value;
      break;
    case SPOIL_PRIORITY:
      s->behaviors[0].p[5] = FXS_ONE;
      break;
    case SPOIL_SEEKER:
      s->behaviors[0].kind = FXS_BEHAVIOR_SEEK;
      break;
    case SPOIL_PUSHED:
      s->pending_force = fxs_vec2_make(FXS_ONE, 0);
      break;
    case SPOIL_WEIGHTED:
      s->behaviors[0].weight = FXS_INT(2);
      break;
    case SPOIL_SECOND:
      s->behaviors[1] = fxs_behavior_slot_default(FXS_BEHAVIOR_SEEK);
      s->behavior_count = 2;
      break;
    case SPOIL_RANKED:
      s->combine_mode = FXS_COMBINE_PRIORITIZED_SUM;
      break;
    default:
      break;
  }
}

// Seeded crowds with up to three spoiled slots: the tally of one pass says what the spoilers
// make it say, and ranges cut anywhere, tallied apart and merged in any order, say the same.
void test_the_crowd_tally_of_merged_ranges_is_the_tally_of_one_pass(void) {
  spawn_crowd();
  static fxs_agent_slot kept[3];
  uint32_t seen_in_place = 0, seen_one = 0, seen_neither = 0;
  seed_state = 2026;
  for (uint32_t c = 0; c < CASES; ++c) {
    uint32_t spoiled = below(4), at[3];
    bool in_place = true, one = true;
    for (uint32_t k = 0; k < spoiled; ++k) {
      at[k] = below(SLOTS);
      kept[k] = world.agents[at[k]];
      spoiler kind = (spoiler)below(SPOIL_KINDS);
      spoil(at[k], kind);
      in_place = in_place && (kind == SPOIL_DEAD || kind == SPOIL_PRIORITY);
      one = one && kind != SPOIL_PRIORITY && kind != SPOIL_SEEKER;
    }
    fxs_crowd_tally whole = fxs_crowd_tally_none();
    fxs_crowd_tally_range(&world, 0, SLOTS, &whole);
    fxs_step_context a = taken(whole);
    TEST_ASSERT_EQUAL(in_place, a.in_place);
    TEST_ASSERT_EQUAL(one, a.one_priority);
    TEST_ASSERT_EQUAL_INT32(one ? 0 : FXS_ORCA_PASSIVE, a.priority);
    // Up to four cuts; the ranges' tallies merged first to last, and last to first.
    uint32_t cuts[6] = {0, 0, 0, 0, 0, SLOTS}, n = 1u + below(4);
    for (uint32_t k = 1; k <= n; ++k) cuts[k] = cuts[k - 1u] + below(SLOTS - cuts[k - 1u] + 1u);
    cuts[n + 1u] = SLOTS;
    fxs_crowd_tally forward = fxs_crowd_tally_none(), backward = fxs_crowd_tally_none();
    for (uint32_t k = 0; k <= n; ++k) {
      fxs_crowd_tally part = fxs_crowd_tally_none(), back = fxs_crowd_tally_none();
      fxs_crowd_tally_range(&world, cuts[k], cuts[k + 1u], &part);
      fxs_crowd_tally_range(&world, cuts[n - k], cuts[n - k + 1u], &back);
      forward = fxs_crowd_tally_merge(forward, part);
      backward = fxs_crowd_tally_merge(back, backward);
    }
    fxs_step_context f = taken(forward), b = taken(backward);
    TEST_ASSERT_EQUAL(a.in_place, f.in_place);
    TEST_ASSERT_EQUAL(a.one_priority, f.one_priority);
    TEST_ASSERT_EQUAL_INT32(a.priority, f.priority);
    TEST_ASSERT_EQUAL(a.in_place, b.in_place);
    TEST_ASSERT_EQUAL(a.one_priority, b.one_priority);
    TEST_ASSERT_EQUAL_INT32(a.priority, b.priority);
    seen_in_place += in_place && spoiled > 0, seen_one += one && !in_place,
        seen_neither += !one && !in_place;
    for (uint32_t k = spoiled; k-- > 0;) restore_slot(at[k], &kept[k]);
  }
  // The cases reach every outcome.
  TEST_ASSERT_TRUE(seen_in_place > 10 && seen_one > 10 && seen_neither > 10);
}

// Two agents of different priorities in ranges of their own: each range alone has one
// priority, the merge has none.
void test_ranges_of_different_priorities_merge_into_none(void) {
  spawn_crowd();
  world.agents[SLOTS - 1u].behaviors[0].p[5] = FXS_ONE;
  fxs_crowd_tally low = fxs_crowd_tally_none(), high = fxs_crowd_tally_none();
  fxs_crowd_tally_range(&world, 0, SLOTS - 1u, &low);
  fxs_crowd_tally_range(&world, SLOTS - 1u, SLOTS, &high);
  TEST_ASSERT_TRUE(taken(low).one_priority);
  TEST_ASSERT_TRUE(taken(high).one_priority);
  TEST_ASSERT_EQUAL_INT32(FXS_ONE, taken(high).priority);
  TEST_ASSERT_FALSE(taken(fxs_crowd_tally_merge(low, high)).one_priority);
  TEST_ASSERT_FALSE(taken(fxs_crowd_tally_merge(high, low)).one_priority);
  TEST_ASSERT_TRUE(taken(fxs_crowd_tally_merge(low, high)).in_place);
}
