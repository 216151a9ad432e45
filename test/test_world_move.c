#include <string.h>
#include "unity.h"
#include "fxs_test_util.h"
#include "vec2.h"
#include "avoidance.h"
#include "result.h"
#include "command.h"
#include "command_build.h"
#include "world.h"
#include "world_move.h"
#include "snapshot.h"
#include "input_limits.h"

// 8 agents, 8 walls, a navigation grid of up to 40 x 40 cells of 10 units over 400 x 400.
static const fxs_world_capacity cap = {8, 4, 0, 0, 8, 0, 0, 1600, 2, 400, 16};
static uint64_t memory[40000];
static fxs_world world;

void setUp(void) {
  fxs_world_def def = fxs_default_world_def();
  def.seed = 5;
  def.bounds_max = fxs_vec2_make(FXS_INT(400), FXS_INT(400));
  TEST_ASSERT_TRUE(fxs_world_memory_size(&cap) <= sizeof memory);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&world, &def, &cap, memory, sizeof memory));
}
void tearDown(void) {}

static fxs_result apply(fxs_command c) { return fxs_world_apply(&world, &c, 0); }
static fxs_vec2 v(int x, int y) { return fxs_vec2_make(FXS_INT(x), FXS_INT(y)); }

// An agent at (x, y), radius 8 (the spawn default), at rest.
static fxs_agent_handle agent_at(int x, int y) {
  fxs_spawn_def s = fxs_default_spawn_def();
  s.position = v(x, y);
  fxs_agent_handle h = {0};
  fxs_command c = fxs_command_spawn(&s);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, &h));
  return h;
}

static fxs_vec2 target_of(fxs_agent_handle h) {
  fxs_agent_targets t;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_agent_targets(&world, h, &t));
  return t.target_point;
}

#define ASSERT_POINT(x_raw, y_raw, p)       \
  do {                                      \
    fxs_vec2 p_ = (p);                      \
    TEST_ASSERT_EQUAL_INT32((x_raw), p_.x); \
    TEST_ASSERT_EQUAL_INT32((y_raw), p_.y); \
  } while (0)

// Steps one tick with these move commands (source 2, sequence in array order).
static void step_moves(fxs_command *c, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) c[i].source = 2, c[i].sequence = (uint16_t)i;
  fxs_result results[16];
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&world, c, n, results));
}

// sqrt(3) / 2 * 20 units, raw: the lattice's row height for a pitch of 20.
#define ROW20 (20 * 56756)

// ------------------------------------------------------------------ the lattice

void test_spots_ring_the_destination_counter_clockwise_from_east(void) {
  fxs_vec2 d = v(100, 100);
  fix16_t p = FXS_INT(20);
  ASSERT_POINT(FXS_INT(100), FXS_INT(100), fxs_world_move_spot(d, p, 0));
  ASSERT_POINT(FXS_INT(120), FXS_INT(100), fxs_world_move_spot(d, p, 1));         // E
  ASSERT_POINT(FXS_INT(110), FXS_INT(100) + ROW20, fxs_world_move_spot(d, p, 2)); // NE
  ASSERT_POINT(FXS_INT(90), FXS_INT(100) + ROW20, fxs_world_move_spot(d, p, 3));  // NW
  ASSERT_POINT(FXS_INT(80), FXS_INT(100), fxs_world_move_spot(d, p, 4));          // W
  ASSERT_POINT(FXS_INT(90), FXS_INT(100) - ROW20, fxs_world_move_spot(d, p, 5));  // SW
  ASSERT_POINT(FXS_INT(110), FXS_INT(100) - ROW20, fxs_world_move_spot(d, p, 6)); // SE
  ASSERT_POINT(FXS_INT(140), FXS_INT(100), fxs_world_move_spot(d, p, 7));         // ring 2, E
  ASSERT_POINT(FXS_INT(130), FXS_INT(100) + ROW20, fxs_world_move_spot(d, p, 8));
  ASSERT_POINT(FXS_INT(120), FXS_INT(100) + 2 * ROW20, fxs_world_move_spot(d, p, 9)); // NE corner
  // The last of ring 3, then ring 4's first.
  ASSERT_POINT(FXS_INT(150), FXS_INT(100) - ROW20, fxs_world_move_spot(d, p, 36));
  ASSERT_POINT(FXS_INT(180), FXS_INT(100), fxs_world_move_spot(d, p, 37));
}

void test_spots_are_distinct_and_at_least_a_pitch_apart(void) {
  fxs_vec2 d = v(-50, 30);
  fix16_t p = FXS_INT(17) + 12345;
  enum { N = 331 }; // rings 0..10
  static fxs_vec2 s[N];
  for (uint32_t i = 0; i < N; ++i) s[i] = fxs_world_move_spot(d, p, i);
  double pitch = fxs_test_to_double(p), nearest_max = 0;
  for (uint32_t i = 0; i < N; ++i) {
    double nearest = 1e30;
    for (uint32_t j = 0; j < N; ++j) {
      if (i == j) continue;
      double dx = fxs_test_to_double(s[i].x) - fxs_test_to_double(s[j].x);
      double dy = fxs_test_to_double(s[i].y) - fxs_test_to_double(s[j].y);
      double dist = dx * dx + dy * dy;
      if (dist < nearest) nearest = dist;
    }
    // Each rounding moves a spot by at most half an LSB per axis.
    TEST_ASSERT_TRUE(nearest >= (pitch - 2e-5) * (pitch - 2e-5));
    if (nearest > nearest_max) nearest_max = nearest;
  }
  TEST_ASSERT_TRUE(nearest_max <= (pitch + 2e-5) * (pitch + 2e-5)); // packed: no holes
  // Ring 10 ends one step short of its east corner: axial (10, -1), x = 9.5 p, y = -row.
  TEST_ASSERT_INT32_WITHIN(1, d.x + (fix16_t)(9.5 * p + 0.5), s[N - 1].x);
}

void test_spots_saturate_far_out(void) {
  fxs_vec2 s = fxs_world_move_spot(fxs_vec2_make(FXS_MAX - FXS_INT(5), 0), FXS_MAX, 1);
  TEST_ASSERT_EQUAL_INT32(FXS_MAX, s.x);
  s = fxs_world_move_spot(fxs_vec2_make(FXS_MIN, FXS_MIN), FXS_MAX, 5); // SW
  ASSERT_POINT(FXS_MIN, FXS_MIN, s);
}

// ------------------------------------------------------------------ one agent, groups

void test_a_group_of_one_goes_to_the_exact_point_and_drops_its_target_agent(void) {
  fxs_agent_handle a = agent_at(10, 10), b = agent_at(50, 50);
  TEST_ASSERT_EQUAL(FXS_OK, apply(fxs_command_set_target_agent(a, b)));
  fxs_vec2 to = fxs_vec2_make(FXS_INT(123) + 7, -FXS_INT(45) - 3);
  TEST_ASSERT_EQUAL(FXS_OK, apply(fxs_command_move(a, 9, to, FXS_INT(3))));
  ASSERT_POINT(FXS_INT(123) + 7, -FXS_INT(45) - 3, target_of(a));
  fxs_agent_targets t;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_agent_targets(&world, a, &t));
  TEST_ASSERT_EQUAL_UINT32(0, t.target_agent.value);
  // In a step too.
  fxs_command c[1] = {fxs_command_move(b, 1, v(300, 200), 0)};
  step_moves(c, 1);
  ASSERT_POINT(FXS_INT(300), FXS_INT(200), target_of(b));
}

void test_the_member_nearest_the_destination_takes_it_and_the_rings_fill_outward(void) {
  // Three agents in file toward (200, 100), radius 8, gap 4: pitch 20, spots 0 (200, 100),
  // then ring 1: 1 (220, 100) and 2 (210, 100 + row). The front agent is nearest: spot 0;
  // then the middle one takes the ring-1 spot nearest to it, 2; the last one spot 1.
  fxs_agent_handle back = agent_at(0, 100), mid = agent_at(20, 100), front = agent_at(40, 100);
  fxs_command c[3] = {fxs_command_move(back, 1, v(200, 100), FXS_INT(4)),
                      fxs_command_move(mid, 1, v(200, 100), FXS_INT(4)),
                      fxs_command_move(front, 1, v(200, 100), FXS_INT(4))};
  step_moves(c, 3);
  ASSERT_POINT(FXS_INT(200), FXS_INT(100), target_of(front));
  ASSERT_POINT(FXS_INT(210), FXS_INT(100) + ROW20, target_of(mid));
  ASSERT_POINT(FXS_INT(220), FXS_INT(100), target_of(back));
}

void test_members_at_equal_distances_choose_in_command_order(void) {
  // Both at (200, 0), equally far from (200, 100): the earlier command chooses first and
  // takes the destination.
  fxs_agent_handle a = agent_at(200, 0), b = agent_at(200, 0);
  fxs_command c[2] = {fxs_command_move(a, 1, v(200, 100), FXS_INT(4)),
                      fxs_command_move(b, 1, v(200, 100), FXS_INT(4))};
  step_moves(c, 2);
  ASSERT_POINT(FXS_INT(200), FXS_INT(100), target_of(a));
  ASSERT_POINT(FXS_INT(220), FXS_INT(100), target_of(b));
  fxs_command d[2] = {fxs_command_move(b, 1, v(200, 100), FXS_INT(4)),
                      fxs_command_move(a, 1, v(200, 100), FXS_INT(4))};
  step_moves(d, 2);
  ASSERT_POINT(FXS_INT(200), FXS_INT(100), target_of(b));
  ASSERT_POINT(FXS_INT(220), FXS_INT(100), target_of(a));
}

void test_spots_at_equal_distances_from_a_member_go_by_spot_index(void) {
  // Five members, spots 0..4 round (200, 100). The one on the destination takes spot 0; the
  // one at (200, 0) is exactly as far from spot 1 (220, 100) as from spot 4 (180, 100), both
  // nearer than spots 2 and 3: it takes spot 1, the lower. The far ones take 2, 3 and 4.
  fxs_agent_handle on = agent_at(200, 100), x = agent_at(200, 0);
  fxs_agent_handle f1 = agent_at(0, 400), f2 = agent_at(400, 400), f3 = agent_at(200, 390);
  fxs_agent_handle all[5] = {f1, x, f2, on, f3};
  fxs_command c[5];
  for (int i = 0; i < 5; ++i) c[i] = fxs_command_move(all[i], 1, v(200, 100), FXS_INT(4));
  step_moves(c, 5);
  ASSERT_POINT(FXS_INT(200), FXS_INT(100), target_of(on));
  ASSERT_POINT(FXS_INT(220), FXS_INT(100), target_of(x));
  // f3 (200, 390) is nearest next: spots 2 and 3 are equally near it: 2 (210, 100 + row).
  ASSERT_POINT(FXS_INT(210), FXS_INT(100) + ROW20, target_of(f3));
  ASSERT_POINT(FXS_INT(190), FXS_INT(100) + ROW20, target_of(f1)); // (0, 400): 3 is nearer
  ASSERT_POINT(FXS_INT(180), FXS_INT(100), target_of(f2));
}

void test_the_pitch_is_twice_the_largest_radius_plus_the_gap(void) {
  fxs_agent_handle a = agent_at(0, 0), b = agent_at(0, 40);
  fxs_agent_limits_def l = fxs_default_agent_limits_def();
  l.radius = FXS_INT(15);
  TEST_ASSERT_EQUAL(FXS_OK, apply(fxs_command_set_limits(b, &l)));
  fxs_command c[2] = {fxs_command_move(a, 3, v(100, 0), FXS_INT(1)),
                      fxs_command_move(b, 3, v(100, 0), FXS_INT(1))};
  step_moves(c, 2);
  // Pitch 31: spots (100, 0) and (131, 0); a is nearer the destination.
  ASSERT_POINT(FXS_INT(100), 0, target_of(a));
  ASSERT_POINT(FXS_INT(131), 0, target_of(b));
}

void test_groups_are_split_by_source_tag_and_arguments(void) {
  fxs_agent_handle a = agent_at(0, 0), b = agent_at(0, 20);
  fxs_agent_handle c0 = agent_at(0, 40), d = agent_at(0, 60);
  fxs_command c[4] = {fxs_command_move(a, 1, v(100, 0), 0), fxs_command_move(b, 2, v(100, 0), 0),
                      fxs_command_move(c0, 1, v(100, 0), FXS_INT(2)),
                      fxs_command_move(d, 1, v(100, 0), 0)};
  for (uint32_t i = 0; i < 4; ++i) c[i].sequence = (uint16_t)i;
  c[0].source = 3, c[1].source = 3, c[2].source = 3, c[3].source = 4;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&world, c, 4, 0));
  // Four groups of one: each goes to the point itself.
  ASSERT_POINT(FXS_INT(100), 0, target_of(a));
  ASSERT_POINT(FXS_INT(100), 0, target_of(b));
  ASSERT_POINT(FXS_INT(100), 0, target_of(c0));
  ASSERT_POINT(FXS_INT(100), 0, target_of(d));
}

void test_an_agent_moved_twice_in_a_tick_keeps_its_last_move(void) {
  fxs_agent_handle a = agent_at(0, 0), b = agent_at(0, 20);
  fxs_command c[3] = {fxs_command_move(a, 1, v(100, 0), 0), fxs_command_move(b, 1, v(100, 0), 0),
                      fxs_command_move(a, 1, v(-100, 0), 0)};
  step_moves(c, 3);
  ASSERT_POINT(-FXS_INT(100), 0, target_of(a));
  ASSERT_POINT(FXS_INT(100), 0, target_of(b)); // alone in its group now
}

void test_the_order_commands_arrive_in_does_not_matter(void) {
  fxs_agent_handle h[6];
  for (int i = 0; i < 6; ++i) h[i] = agent_at(10 + 13 * i, 300 - 29 * i);
  fxs_command c[6];
  for (uint32_t i = 0; i < 6; ++i) {
    c[i] = fxs_command_move(h[i], 4, v(250, 120), FXS_INT(2));
    c[i].source = 1, c[i].sequence = (uint16_t)i;
  }
  fxs_command shuffled[6] = {c[3], c[0], c[5], c[1], c[4], c[2]};
  static uint64_t other_memory[40000];
  fxs_world other;
  fxs_world_def def = world.def;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&other, &def, &cap, other_memory, sizeof other_memory));
  for (int i = 0; i < 6; ++i) {
    fxs_spawn_def s = fxs_default_spawn_def();
    s.position = v(10 + 13 * i, 300 - 29 * i);
    fxs_command sp = fxs_command_spawn(&s);
    TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&other, &sp, 0));
  }
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&world, c, 6, 0));
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&other, shuffled, 6, 0));
  TEST_ASSERT_EQUAL_HEX64(fxs_world_hash(&world), fxs_world_hash(&other));
  // Six distinct spots.
  for (int i = 0; i < 6; ++i) {
    for (int j = i + 1; j < 6; ++j) {
      fxs_vec2 p = target_of(h[i]), q = target_of(h[j]);
      TEST_ASSERT_FALSE(p.x == q.x && p.y == q.y);
    }
  }
}

// ------------------------------------------------------------------ blocked spots

void test_spots_on_blocked_cells_and_outside_the_grid_are_skipped(void) {
  TEST_ASSERT_EQUAL(
      FXS_OK, apply(fxs_command_set_nav_grid(v(0, 0), FXS_INT(10), 40, 40, FXS_INT(8), 1000)));
  fxs_wall w = {v(220, 150), v(220, 250)};
  TEST_ASSERT_EQUAL(FXS_OK, apply(fxs_command_add_wall(w)));
  // Spots round (200, 200), pitch 20: 1 (220, 200) and 2 (210, 217.3) lie on cells within 8
  // of the wall (blocked); 0 and 3 (190, 217.3) are free.
  fxs_agent_handle a = agent_at(100, 200), b = agent_at(100, 220);
  fxs_command c[2] = {fxs_command_move(a, 1, v(200, 200), FXS_INT(4)),
                      fxs_command_move(b, 1, v(200, 200), FXS_INT(4))};
  step_moves(c, 2);
  // a is nearer the destination: spot 0; b the other.
  ASSERT_POINT(FXS_INT(200), FXS_INT(200), target_of(a));
  ASSERT_POINT(FXS_INT(190), FXS_INT(200) + ROW20, target_of(b));
  // At the grid's corner (1, 1): spots 3 to 6 of ring 1 lie outside the grid; the four
  // members get spots 0, 1, 2 and 7 (ring 2's first).
  fxs_agent_handle e = agent_at(100, 100), f = agent_at(120, 100);
  fxs_agent_handle four[4] = {a, b, e, f};
  fxs_command d[4];
  for (int i = 0; i < 4; ++i) d[i] = fxs_command_move(four[i], 2, v(1, 1), FXS_INT(4));
  step_moves(d, 4);
  static const uint32_t expect[4] = {0, 1, 2, 7};
  for (int k = 0; k < 4; ++k) {
    fxs_vec2 s = fxs_world_move_spot(v(1, 1), FXS_INT(20), expect[k]);
    int hits = 0;
    for (int i = 0; i < 4; ++i) {
      fxs_vec2 t = target_of(four[i]);
      hits += t.x == s.x && t.y == s.y;
    }
    TEST_ASSERT_EQUAL_INT(1, hits);
  }
  ASSERT_POINT(FXS_INT(41), FXS_INT(1), fxs_world_move_spot(v(1, 1), FXS_INT(20), 7));
}

void test_a_destination_walled_in_still_gives_every_member_a_spot(void) {
  TEST_ASSERT_EQUAL(
      FXS_OK, apply(fxs_command_set_nav_grid(v(0, 0), FXS_INT(10), 40, 40, FXS_INT(8), 1000)));
  TEST_ASSERT_EQUAL(FXS_OK, apply(fxs_command_set_nav_costs(0, 0, 40, 40, 0))); // all blocked
  fxs_agent_handle h[3] = {agent_at(10, 10), agent_at(30, 10), agent_at(50, 10)};
  fxs_command c[3];
  for (int i = 0; i < 3; ++i) c[i] = fxs_command_move(h[i], 1, v(200, 200), FXS_INT(4));
  step_moves(c, 3);
  // No usable spot among the first 8 * 3 + 64: the first three in index order, 0, 1 and 2.
  fxs_vec2 seen[3];
  for (int i = 0; i < 3; ++i) seen[i] = target_of(h[i]);
  for (uint32_t k = 0; k < 3; ++k) {
    fxs_vec2 s = fxs_world_move_spot(v(200, 200), FXS_INT(20), k);
    int hits = 0;
    for (int i = 0; i < 3; ++i) hits += seen[i].x == s.x && seen[i].y == s.y;
    TEST_ASSERT_EQUAL_INT(1, hits);
  }
}

// ------------------------------------------------------------------ checks and bounds

void test_bad_moves_are_refused_with_their_reason_and_change_nothing(void) {
  fxs_agent_handle a = agent_at(0, 0);
  uint64_t before = fxs_world_hash(&world);
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, apply(fxs_command_move(a, 1, v(5, 5), -1)));
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, apply(fxs_command_move(a, 1, v(5, 5), FXS_INT(1024) + 1)));
  fxs_command c = fxs_command_move(a, 1, v(5, 5), 0);
  c.arg[7] = 1;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, apply(c));
  fxs_agent_handle stale = {a.value + (1u << FXS_HANDLE_INDEX_BITS)};
  TEST_ASSERT_EQUAL(FXS_ERR_STALE_HANDLE, apply(fxs_command_move(stale, 1, v(5, 5), 0)));
  fxs_spawn_def s = fxs_default_spawn_def();
  s.owned = 1;
  fxs_command sp = fxs_command_spawn(&s);
  sp.source = 3;
  fxs_agent_handle owned = {0};
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &sp, &owned));
  before = fxs_world_hash(&world);
  fxs_command m = fxs_command_move(owned, 1, v(5, 5), 0);
  m.source = 4;
  TEST_ASSERT_EQUAL(FXS_ERR_NOT_OWNER, apply(m));
  TEST_ASSERT_EQUAL_HEX64(before, fxs_world_hash(&world));
  m.source = 3;
  TEST_ASSERT_EQUAL(FXS_OK, apply(m));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(5), target_of(owned).x);
}

void test_a_step_reports_each_move_and_the_first_rejection_in_canonical_order(void) {
  fxs_agent_handle a = agent_at(0, 0), b = agent_at(0, 20);
  fxs_command c[3] = {fxs_command_move(a, 1, v(100, 0), 0), fxs_command_despawn(b),
                      fxs_command_move(b, 1, v(100, 0), 0)};
  for (uint32_t i = 0; i < 3; ++i) c[i].sequence = (uint16_t)i;
  fxs_result r[3];
  // The despawn applies before the moves: b's move finds no agent.
  TEST_ASSERT_EQUAL(FXS_ERR_STALE_HANDLE, fxs_world_step(&world, c, 3, r));
  TEST_ASSERT_EQUAL(FXS_OK, r[0]);
  TEST_ASSERT_EQUAL(FXS_OK, r[1]);
  TEST_ASSERT_EQUAL(FXS_ERR_STALE_HANDLE, r[2]);
  ASSERT_POINT(FXS_INT(100), 0, target_of(a)); // a group of one
  // A rejected non-move after a rejected move: the move is first in canonical order.
  fxs_command d[2] = {fxs_command_move(b, 1, v(100, 0), 0), fxs_command_despawn(b)};
  d[0].sequence = 0, d[1].sequence = 1;
  TEST_ASSERT_EQUAL(FXS_ERR_STALE_HANDLE, fxs_world_step(&world, d, 2, r));
  fxs_command e[2] = {fxs_command_move(a, 1, v(100, 0), -5), fxs_command_despawn(b)};
  e[0].sequence = 0, e[1].sequence = 1;
  TEST_ASSERT_EQUAL(FXS_ERR_BAD_VALUE, fxs_world_step(&world, e, 2, r));
  TEST_ASSERT_EQUAL(FXS_ERR_STALE_HANDLE, r[1]);
}

void test_thousands_of_moves_in_one_tick_are_bounded_by_the_agents(void) {
  enum { N = 5000 };
  static fxs_command c[N];
  static fxs_result r[N];
  fxs_agent_handle h[8];
  for (int i = 0; i < 8; ++i) h[i] = agent_at(20 * i, 50);
  for (uint32_t i = 0; i < N; ++i) {
    c[i] = fxs_command_move(h[i % 8], i % 3, v(300, (int)(i % 7) * 40), 0);
    c[i].source = (uint8_t)(i % 5), c[i].sequence = (uint16_t)i;
  }
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_step(&world, c, N, r));
  for (uint32_t i = 0; i < N; ++i) TEST_ASSERT_EQUAL(FXS_OK, r[i]);
  // Each agent keeps its last move in canonical order (source, then sequence): the command
  // of the highest index of source 4 that names it.
  for (int k = 0; k < 8; ++k) {
    uint32_t last = 0;
    for (uint32_t i = 0; i < N; ++i) {
      if (i % 8 == (uint32_t)k && i % 5 == 4) last = i;
    }
    fxs_vec2 t = target_of(h[k]);
    TEST_ASSERT_TRUE(t.x >= FXS_INT(300) - FXS_INT(40) && t.x <= FXS_INT(300) + FXS_INT(40));
    TEST_ASSERT_INT32_WITHIN(FXS_INT(40), FXS_INT((int)(last % 7) * 40), t.y);
  }
}
