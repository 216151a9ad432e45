// Formations: the slot layouts of every shape in the leader's frame, the nearest-first
// assignment and its tie rule, and the behavior in a world (marching, re-forming after a member
// is despawned or added, arriving and resting, snapshots, the parameter table).
#include <string.h>

#include "unity.h"

#include "scalar.h"
#include "vec2.h"
#include "agent.h"
#include "behavior.h"
#include "path.h"
#include "result.h"
#include "command.h"
#include "command_build.h"
#include "world.h"
#include "formation.h"
#include "snapshot.h"

static const fxs_world_capacity cap = {16, 0, 2, 16, 0, 0, 0};
static uint64_t memory[8192];
static uint64_t memory2[8192];
static fxs_world world;

void setUp(void) {
  fxs_world_def def = fxs_default_world_def();
  def.seed = 11;
  TEST_ASSERT_TRUE(fxs_world_memory_size(&cap) <= sizeof memory);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&world, &def, &cap, memory, sizeof memory));
}
void tearDown(void) {}

// ------------------------------------------------------------------ slot layouts

#define P(x, y) fxs_vec2_make(FXS_INT(x), FXS_INT(y))

static fxs_formation_def shape(fxs_formation_shape s) {
  fxs_formation_def d = fxs_default_formation_def();
  d.shape = s;
  d.spacing = FXS_INT(24);
  return d;
}

// Slot `slot` of `n` around a leader at (100, 100) heading +x (velocity (2, 0)) or +y
// (velocity (0, 2)), in world units.
static fxs_vec2 slot_at(const fxs_formation_def *d, uint32_t slot, uint32_t n, bool up) {
  fxs_agent leader = fxs_default_agent();
  leader.position = P(100, 100);
  leader.velocity = up ? P(0, 2) : P(2, 0);
  return fxs_formation_place(leader.position, fxs_agent_heading(&leader),
                             fxs_formation_offset(d, slot, n, true));
}

// Every slot of a shape at heading 0 is (100, 100) + (forward, left); at heading pi/2 it is
// (100, 100) + (-left, forward): exact, raw Q16.16.
static void expect_slots(const fxs_formation_def *d, uint32_t n, const int (*fl)[2]) {
  for (uint32_t i = 0; i < n; ++i) {
    fxs_vec2 e = slot_at(d, i, n, false), u = slot_at(d, i, n, true);
    TEST_ASSERT_EQUAL_INT32(FXS_INT(100 + fl[i][0]), e.x);
    TEST_ASSERT_EQUAL_INT32(FXS_INT(100 + fl[i][1]), e.y);
    TEST_ASSERT_EQUAL_INT32(FXS_INT(100 - fl[i][1]), u.x);
    TEST_ASSERT_EQUAL_INT32(FXS_INT(100 + fl[i][0]), u.y);
  }
}

void test_a_line_is_one_row_abreast_behind_the_leader_slot_0_leftmost(void) {
  static const int fl[3][2] = {{-24, 24}, {-24, 0}, {-24, -24}};
  fxs_formation_def d = shape(FXS_FORMATION_LINE);
  expect_slots(&d, 3, fl);
  static const int even[2][2] = {{-24, 12}, {-24, -12}};
  expect_slots(&d, 2, even);
}

void test_a_column_files_behind_the_leader(void) {
  static const int fl[3][2] = {{-24, 0}, {-48, 0}, {-72, 0}};
  fxs_formation_def d = shape(FXS_FORMATION_COLUMN);
  expect_slots(&d, 3, fl);
}

void test_a_wedge_opens_behind_the_leader_left_then_right(void) {
  static const int fl[5][2] = {{-24, 24}, {-24, -24}, {-48, 48}, {-48, -48}, {-72, 72}};
  fxs_formation_def d = shape(FXS_FORMATION_WEDGE);
  expect_slots(&d, 5, fl);
}

void test_a_box_fills_rows_of_ceil_sqrt_n_and_centres_the_short_last_row(void) {
  static const int fl[5][2] = {{-24, 24}, {-24, 0}, {-24, -24}, {-48, 12}, {-48, -12}};
  fxs_formation_def d = shape(FXS_FORMATION_BOX);
  expect_slots(&d, 5, fl);
  static const int four[4][2] = {{-24, 12}, {-24, -12}, {-48, 12}, {-48, -12}};
  expect_slots(&d, 4, four);
}

void test_user_offsets_are_used_as_given_and_limit_the_slot_count(void) {
  static const int fl[3][2] = {{10, 0}, {-5, 30}, {-40, -7}};
  fxs_vec2 offsets[3] = {P(10, 0), P(-5, 30), P(-40, -7)};
  fxs_formation_def d = shape(FXS_FORMATION_USER);
  d.offsets = offsets, d.offset_count = 3;
  expect_slots(&d, 3, fl);
  TEST_ASSERT_EQUAL_UINT32(3, fxs_formation_slot_count(&d, 9));
  d.shape = FXS_FORMATION_BOX;
  TEST_ASSERT_EQUAL_UINT32(FXS_FORMATION_MAX_MEMBERS, fxs_formation_slot_count(&d, 40));
}

void test_a_centred_formation_subtracts_the_mean_of_its_offsets(void) {
  fxs_formation_def d = shape(FXS_FORMATION_WEDGE);   // 3 slots: (-24, 24), (-24, -24), (-48, 48)
  fxs_vec2 o = fxs_formation_offset(&d, 2, 3, false); // mean (-32, 16)
  TEST_ASSERT_EQUAL_INT32(-FXS_INT(16), o.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(32), o.y);
  o = fxs_formation_offset(&d, 0, 3, false);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(8), o.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(8), o.y);
}

// ------------------------------------------------------------------ assignment

void test_slots_go_nearest_first_not_by_member_order(void) {
  fxs_vec2 members[3] = {P(0, 100), P(0, 0), P(0, 50)};
  fxs_vec2 slots[3] = {P(0, 2), P(0, 51), P(0, 103)};
  TEST_ASSERT_EQUAL_UINT32(2, fxs_formation_assign(members, slots, 3, 0));
  TEST_ASSERT_EQUAL_UINT32(0, fxs_formation_assign(members, slots, 3, 1));
  TEST_ASSERT_EQUAL_UINT32(1, fxs_formation_assign(members, slots, 3, 2));
  TEST_ASSERT_EQUAL_UINT32(3, fxs_formation_assign(members, slots, 3, 3)); // no such member
}

void test_a_tie_goes_to_the_lower_member_then_the_lower_slot(void) {
  // Both members are 10 from slot 0 (the nearest pair): member 0 takes it, member 1 the other.
  fxs_vec2 members[2] = {P(0, 10), P(0, -10)};
  fxs_vec2 slots[2] = {P(0, 0), P(0, 30)};
  TEST_ASSERT_EQUAL_UINT32(0, fxs_formation_assign(members, slots, 2, 0));
  TEST_ASSERT_EQUAL_UINT32(1, fxs_formation_assign(members, slots, 2, 1));
  // The same with the members swapped in the list: the order decides, not the position.
  fxs_vec2 swapped[2] = {P(0, -10), P(0, 10)};
  TEST_ASSERT_EQUAL_UINT32(0, fxs_formation_assign(swapped, slots, 2, 0));
  // One member 10 from two slots: the lower slot.
  fxs_vec2 mid[2] = {P(0, 0), P(500, 0)};
  fxs_vec2 sides[2] = {P(-10, 0), P(10, 0)};
  TEST_ASSERT_EQUAL_UINT32(0, fxs_formation_assign(mid, sides, 2, 0));
  TEST_ASSERT_EQUAL_UINT32(1, fxs_formation_assign(mid, sides, 2, 1));
}

// ------------------------------------------------------------------ in a world

static void apply(fxs_command c) { TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, 0)); }

static fxs_agent_handle spawn_at(int x, int y, fix16_t max_speed) {
  fxs_spawn_def d = fxs_default_spawn_def();
  d.position = P(x, y);
  d.max_speed = max_speed;
  fxs_agent_handle h = {0};
  fxs_command c = fxs_command_spawn(&d);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, &h));
  return h;
}

static void step(int ticks) {
  for (int t = 0; t < ticks; ++t) fxs_world_step(&world, 0, 0, 0);
}

static const fxs_agent *body(fxs_agent_handle h) { return fxs_world_agent(&world, h); }

// A member of group 1 in `s` formation behind `leader` (or around the centre: 0 handle).
static fxs_agent_handle member(int x, int y, fxs_agent_handle leader, fxs_formation_shape s) {
  fxs_agent_handle h = spawn_at(x, y, FXS_INT(3));
  fxs_formation_def d = shape(s);
  d.group = 1;
  if (leader.value) apply(fxs_command_set_target_agent(h, leader));
  apply(fxs_command_add_formation(h, fxs_default_blend(), &d));
  return h;
}

// A leader at (200, 200) arriving at (x, y) at speed 1.
static fxs_agent_handle leader_to(int x, int y) {
  fxs_agent_handle h = spawn_at(200, 200, FXS_ONE);
  apply(fxs_command_set_target_point(h, P(x, y)));
  apply(fxs_command_add_arrive(h, fxs_default_blend(), FXS_INT(40)));
  return h;
}

// The distance from each member to the nearest of the n slots around the leader (its current
// heading), at most; and every member's velocity is exactly zero when `resting`.
static fix16_t worst_slot_error(fxs_agent_handle leader, const fxs_agent_handle *m, uint32_t n,
                                fxs_formation_shape s) {
  fxs_formation_def d = shape(s);
  const fxs_agent *l = body(leader);
  fix16_t worst = 0;
  for (uint32_t i = 0; i < n; ++i) {
    fix16_t best = FXS_MAX;
    for (uint32_t k = 0; k < n; ++k) {
      fxs_vec2 p = fxs_formation_place(l->position, fxs_agent_heading(l),
                                       fxs_formation_offset(&d, k, n, true));
      best = fxs_min(best, fxs_vec2_distance(p, body(m[i])->position));
    }
    worst = fxs_max(worst, best);
  }
  return worst;
}

void test_members_march_in_their_slots_matching_a_moving_leaders_velocity(void) {
  fxs_agent_handle leader = leader_to(2000, 200);
  fxs_agent_handle m[4];
  for (int i = 0; i < 4; ++i) m[i] = member(100 + 20 * i, 120 + 40 * i, leader, FXS_FORMATION_BOX);
  step(400);
  TEST_ASSERT_EQUAL_INT32(FXS_ONE, body(leader)->velocity.x);
  TEST_ASSERT_TRUE(worst_slot_error(leader, m, 4, FXS_FORMATION_BOX) <= FXS_RATIO(1, 2));
  for (int i = 0; i < 4; ++i) {
    TEST_ASSERT_INT32_WITHIN(FXS_RATIO(1, 256), FXS_ONE, body(m[i])->velocity.x);
    TEST_ASSERT_INT32_WITHIN(FXS_RATIO(1, 256), 0, body(m[i])->velocity.y);
  }
}

void test_members_arrive_and_rest_exactly_with_no_reversal_once_the_leader_stops(void) {
  fxs_agent_handle leader = leader_to(500, 200);
  fxs_agent_handle m[5];
  for (int i = 0; i < 5; ++i) m[i] = member(60 + 30 * i, 300 - 25 * i, leader, FXS_FORMATION_WEDGE);
  fxs_vec2 before[5];
  bool rested[5] = {false};
  for (int t = 0; t < 1200; ++t) {
    for (int i = 0; i < 5; ++i) before[i] = body(m[i])->velocity;
    step(1);
    for (int i = 0; i < 5; ++i) {
      fxs_vec2 v = body(m[i])->velocity;
      TEST_ASSERT_TRUE_MESSAGE(fxs_vec2_dot(before[i], v) >= 0, "a member reversed its velocity");
      if (rested[i]) TEST_ASSERT_TRUE_MESSAGE(fxs_vec2_is_zero(v), "a resting member moved again");
      rested[i] = rested[i] || (fxs_vec2_is_zero(v) && fxs_vec2_is_zero(body(leader)->velocity));
    }
  }
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(body(leader)->velocity));
  for (int i = 0; i < 5; ++i) TEST_ASSERT_TRUE(rested[i]);
  TEST_ASSERT_TRUE(worst_slot_error(leader, m, 5, FXS_FORMATION_WEDGE) <= FXS_RATIO(1, 4));
  fix16_t heading[5];
  for (int i = 0; i < 5; ++i) heading[i] = body(m[i])->orientation;
  step(300); // at rest for good: not an LSB of creep, the heading kept
  for (int i = 0; i < 5; ++i) {
    TEST_ASSERT_TRUE(fxs_vec2_is_zero(body(m[i])->velocity));
    TEST_ASSERT_EQUAL_INT32(heading[i], body(m[i])->orientation);
  }
}

void test_the_formation_re_forms_after_a_member_is_despawned_and_after_a_new_one_joins(void) {
  fxs_agent_handle leader = spawn_at(300, 300, FXS_ONE); // still, facing +x
  fxs_agent_handle m[4];
  for (int i = 0; i < 4; ++i) m[i] = member(200 + 10 * i, 250 + 30 * i, leader, FXS_FORMATION_LINE);
  step(600);
  TEST_ASSERT_TRUE(worst_slot_error(leader, m, 4, FXS_FORMATION_LINE) <= FXS_RATIO(1, 4));
  apply(fxs_command_despawn(m[1])); // a gap in a line of four: three slots re-centred
  m[1] = m[3];
  step(600);
  TEST_ASSERT_TRUE(worst_slot_error(leader, m, 3, FXS_FORMATION_LINE) <= FXS_RATIO(1, 4));
  for (int i = 0; i < 3; ++i) TEST_ASSERT_TRUE(fxs_vec2_is_zero(body(m[i])->velocity));
  m[3] = member(100, 500, leader, FXS_FORMATION_LINE); // a newcomer: four slots again
  step(800);
  TEST_ASSERT_TRUE(worst_slot_error(leader, m, 4, FXS_FORMATION_LINE) <= FXS_RATIO(1, 4));
}

void test_a_member_pushed_away_comes_back_to_a_slot(void) {
  fxs_agent_handle leader = spawn_at(300, 300, FXS_ONE);
  fxs_agent_handle m[3];
  for (int i = 0; i < 3; ++i) m[i] = member(250, 260 + 40 * i, leader, FXS_FORMATION_COLUMN);
  step(600);
  TEST_ASSERT_TRUE(worst_slot_error(leader, m, 3, FXS_FORMATION_COLUMN) <= FXS_RATIO(1, 4));
  apply(fxs_command_apply_force(m[0], P(0, 5))); // a shove: 5 units per tick sideways
  step(12);
  TEST_ASSERT_GREATER_THAN_INT32(FXS_INT(20), worst_slot_error(leader, m, 3, FXS_FORMATION_COLUMN));
  step(800);
  TEST_ASSERT_TRUE(worst_slot_error(leader, m, 3, FXS_FORMATION_COLUMN) <= FXS_RATIO(1, 4));
}

void test_without_a_leader_members_gather_around_their_centre(void) {
  fxs_agent_handle m[4];
  fxs_agent_handle none = {0};
  for (int i = 0; i < 4; ++i) {
    m[i] = member(100 + 50 * i, 100 + 20 * (i % 2), none, FXS_FORMATION_BOX);
  }
  step(800);
  // a 2 x 2 box, 24 apart, its centre where the members' mean is
  int64_t sx = 0, sy = 0;
  for (int i = 0; i < 4; ++i) {
    TEST_ASSERT_TRUE(fxs_vec2_is_zero(body(m[i])->velocity));
    sx += body(m[i])->position.x, sy += body(m[i])->position.y;
  }
  fxs_vec2 c = fxs_vec2_make((fix16_t)(sx / 4), (fix16_t)(sy / 4));
  for (int i = 0; i < 4; ++i) {
    fxs_vec2 r = fxs_vec2_sub(body(m[i])->position, c);
    TEST_ASSERT_INT32_WITHIN(FXS_INT(2), FXS_INT(12), fxs_abs(r.x));
    TEST_ASSERT_INT32_WITHIN(FXS_INT(2), FXS_INT(12), fxs_abs(r.y));
  }
}

void test_user_offsets_come_from_the_agents_path(void) {
  fxs_vec2 offsets[2] = {P(0, 40), P(0, -40)}; // beside the leader, left and right
  uint16_t path = 0;
  TEST_ASSERT_EQUAL(
      FXS_OK, fxs_world_add_path(&world, offsets, 2, FXS_PATH_STOP_AT_END, FXS_INT(4), &path));
  fxs_agent_handle leader = spawn_at(300, 300, FXS_ONE);
  fxs_agent_handle a = member(280, 400, leader, FXS_FORMATION_USER);
  fxs_agent_handle b = member(280, 200, leader, FXS_FORMATION_USER);
  apply(fxs_command_set_path(a, path));
  apply(fxs_command_set_path(b, path));
  step(600);
  TEST_ASSERT_INT32_WITHIN(FXS_ONE, FXS_INT(300), body(a)->position.x);
  TEST_ASSERT_INT32_WITHIN(FXS_ONE, FXS_INT(340), body(a)->position.y);
  TEST_ASSERT_INT32_WITHIN(FXS_ONE, FXS_INT(260), body(b)->position.y);
}

// Saves the world, restores it into a second one, and checks both step on identically.
static void expect_snapshot_round_trip(int ticks) {
  static uint8_t snap[16384];
  size_t n = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(&world, snap, sizeof snap, &n));
  fxs_world other;
  fxs_world_def def = fxs_default_world_def();
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&other, &def, &cap, memory2, sizeof memory2));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(&other, snap, n, 0));
  TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), fxs_world_hash(&other));
  for (int t = 0; t < ticks; ++t) {
    fxs_world_step(&world, 0, 0, 0);
    fxs_world_step(&other, 0, 0, 0);
    TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), fxs_world_hash(&other));
  }
}

void test_a_restored_formation_steps_on_exactly_as_the_straight_run(void) {
  fxs_agent_handle leader = leader_to(800, 600);
  for (int i = 0; i < 6; ++i) member(100 + 15 * i, 300 - 30 * i, leader, FXS_FORMATION_WEDGE);
  step(120);
  expect_snapshot_round_trip(200);
}

static fxs_result add_with(uint32_t index, fix16_t value) {
  fxs_agent_handle h = spawn_at(100, 100, FXS_INT(2));
  fxs_behavior_slot s = fxs_behavior_slot_default(FXS_BEHAVIOR_FORMATION);
  s.p[index] = value;
  fxs_command c = fxs_command_add_behavior(h, &s);
  return fxs_world_apply(&world, &c, 0);
}

void test_formation_parameters_outside_the_table_are_refused(void) {
  TEST_ASSERT_EQUAL(FXS_OK, add_with(0, FXS_INT(4)));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, add_with(0, FXS_INT(5)));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, add_with(0, FXS_RATIO(3, 2)));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, add_with(1, FXS_INT(1024) + 1));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, add_with(2, -1));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, add_with(3, FXS_RATIO(1, 2)));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, add_with(4, -1));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, add_with(5, FXS_ONE));
}
