#include <math.h>

#include "unity.h"

#include "scalar.h"
#include "vec2.h"
#include "rng.h"
#include "agent.h"
#include "behavior.h"
#include "manager.h"
#include "seek.h"
#include "wander.h"
#include "fxs_test_agents.h"

void setUp(void) {}
void tearDown(void) {}

static fxs_steering lin(fix16_t x, fix16_t y) { return fxs_steering_linear(fxs_vec2_make(x, y)); }

void test_weighted_sum_adds_weight_times_force(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  fxs_steering_manager m;
  fxs_manager_begin(&m, FXS_COMBINE_WEIGHTED_SUM);
  fxs_manager_add(&m, FXS_BEHAVIOR_SEEK, lin(FXS_ONE, 0), FXS_RATIO(1, 2), 0);
  fxs_manager_add(&m, FXS_BEHAVIOR_FLEE, lin(0, FXS_INT(2)), FXS_INT(3), 0);
  fxs_steering s = fxs_manager_combine(&m, &a);
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(1, 2), s.linear.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(6), s.linear.y);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(6), m.entries[1].applied.linear.y);
  TEST_ASSERT_EQUAL_STRING("flee", fxs_behavior_name((fxs_behavior)m.entries[1].behavior));
}

void test_prioritized_sum_stops_when_the_budget_is_spent(void) {
  fxs_agent a = fxs_test_agent_at(0, 0); // max force 0.25
  fxs_steering_manager m;
  fxs_manager_begin(&m, FXS_COMBINE_PRIORITIZED_SUM);
  fxs_manager_add(&m, FXS_BEHAVIOR_WANDER, lin(0, FXS_INT(1)), FXS_ONE, 3);           // last
  fxs_manager_add(&m, FXS_BEHAVIOR_AVOID, lin(FXS_RATIO(3, 20), 0), FXS_ONE, 0);      // first
  fxs_manager_add(&m, FXS_BEHAVIOR_SEPARATION, lin(FXS_RATIO(3, 20), 0), FXS_ONE, 1); // second
  fxs_steering s = fxs_manager_combine(&m, &a);
  // 0.15 fits; the second gets the 0.10 left; the third gets nothing.
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(3, 20), m.entries[1].applied.linear.x);
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(1, 4) - FXS_RATIO(3, 20), m.entries[2].applied.linear.x);
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(m.entries[0].applied.linear));
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(1, 4), s.linear.x);
  TEST_ASSERT_EQUAL_INT32(0, s.linear.y);
}

// One contribution, beyond max_force (0.25): the weighted sum and the priority groups keep
// it whole (their own sums of one), the prioritized sum spends only max_force of it; so does
// an angular request. Containment alone is kept whole too (it wins on its axis).
void test_a_single_contribution_is_kept_whole_except_by_the_prioritized_sum(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  const fxs_combine_mode modes[] = {FXS_COMBINE_WEIGHTED_SUM, FXS_COMBINE_PRIORITY_GROUPS,
                                    FXS_COMBINE_PRIORITIZED_SUM};
  for (int i = 0; i < 3; ++i) {
    fxs_steering_manager m;
    fxs_manager_begin(&m, modes[i]);
    fxs_steering request = {fxs_vec2_make(FXS_INT(3), -FXS_INT(4)), FXS_INT(2)};
    fxs_manager_add(&m, FXS_BEHAVIOR_SEEK, request, FXS_RATIO(1, 2), 2);
    fxs_steering s = fxs_manager_combine(&m, &a);
    if (modes[i] == FXS_COMBINE_PRIORITIZED_SUM) {
      // 1.5, -2 (length 2.5) cut to 0.25 along it: 0.15, -0.2 (truncated to the LSB).
      TEST_ASSERT_INT32_WITHIN(1, FXS_RATIO(3, 20), s.linear.x);
      TEST_ASSERT_INT32_WITHIN(1, -FXS_RATIO(1, 5), s.linear.y);
      TEST_ASSERT_TRUE(fxs_vec2_length_sq(s.linear) <=
                       (uint64_t)a.max_force * (uint64_t)a.max_force);
      TEST_ASSERT_EQUAL_INT32(a.max_angular_acceleration, s.angular);
    } else {
      TEST_ASSERT_EQUAL_INT32(FXS_RATIO(3, 2), s.linear.x);
      TEST_ASSERT_EQUAL_INT32(-FXS_INT(2), s.linear.y);
      TEST_ASSERT_EQUAL_INT32(FXS_ONE, s.angular);
    }
    TEST_ASSERT_EQUAL_INT32(s.linear.x, m.entries[0].applied.linear.x);
    TEST_ASSERT_EQUAL_INT32(s.linear.y, m.entries[0].applied.linear.y);
    TEST_ASSERT_EQUAL_INT32(s.angular, m.entries[0].applied.angular);
  }
  fxs_steering_manager m;
  fxs_manager_begin(&m, FXS_COMBINE_WEIGHTED_SUM);
  fxs_manager_add(&m, FXS_BEHAVIOR_CONTAINMENT, lin(-FXS_INT(5), 0), FXS_ONE, 0);
  fxs_steering s = fxs_manager_combine(&m, &a);
  TEST_ASSERT_EQUAL_INT32(-FXS_INT(5), s.linear.x);
  TEST_ASSERT_EQUAL_INT32(0, s.linear.y);
  // A request written into the entry by hand with the sentinel INT32_MIN: the sum saturates
  // it to FXS_MIN, as with any other count.
  for (int c = 0; c < 3; ++c) {
    fxs_manager_begin(&m, FXS_COMBINE_PRIORITY_GROUPS);
    fxs_manager_add(&m, FXS_BEHAVIOR_SEEK, lin(FXS_ONE, FXS_ONE), FXS_ONE, 0);
    fix16_t *field = c == 0   ? &m.entries[0].requested.linear.x
                     : c == 1 ? &m.entries[0].requested.linear.y
                              : &m.entries[0].requested.angular;
    *field = INT32_MIN;
    s = fxs_manager_combine(&m, &a);
    TEST_ASSERT_EQUAL_INT32(c == 0 ? FXS_MIN : FXS_ONE, s.linear.x);
    TEST_ASSERT_EQUAL_INT32(c == 1 ? FXS_MIN : FXS_ONE, s.linear.y);
    TEST_ASSERT_EQUAL_INT32(c == 2 ? FXS_MIN : 0, s.angular);
  }
}

void test_within_a_priority_separation_and_avoidance_spend_before_seek(void) {
  fxs_agent a = fxs_test_agent_at(0, 0); // max_force 0.25
  fxs_steering_manager m;
  fxs_manager_begin(&m, FXS_COMBINE_PRIORITIZED_SUM);
  fxs_manager_add(&m, FXS_BEHAVIOR_SEEK, lin(FXS_ONE, 0), FXS_ONE, 1); // added first
  fxs_manager_add(&m, FXS_BEHAVIOR_SEPARATION, lin(0, FXS_RATIO(3, 20)), FXS_ONE,
                  1);                                                            // spends first
  fxs_manager_add(&m, FXS_BEHAVIOR_AVOID, lin(0, FXS_RATIO(1, 20)), FXS_ONE, 1); // then this
  fxs_steering s = fxs_manager_combine(&m, &a);
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(3, 20), m.entries[1].applied.linear.y);
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(1, 20), m.entries[2].applied.linear.y);
  // Seek gets what is left of the budget's length: 0.25 - 0.2.
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(1, 20), m.entries[0].applied.linear.x);
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(1, 5), s.linear.y);
  TEST_ASSERT_TRUE(fxs_behavior_prevents_collision(FXS_BEHAVIOR_SEPARATION));
  TEST_ASSERT_FALSE(fxs_behavior_prevents_collision(FXS_BEHAVIOR_SEEK));
}

void test_only_neighbor_behaviors_read_the_neighbor_list(void) {
  TEST_ASSERT_TRUE(fxs_behavior_reads_neighbors(FXS_BEHAVIOR_SEPARATION));
  TEST_ASSERT_TRUE(fxs_behavior_reads_neighbors(FXS_BEHAVIOR_QUEUE));
  TEST_ASSERT_TRUE(fxs_behavior_reads_neighbors(FXS_BEHAVIOR_ORCA));
  TEST_ASSERT_TRUE(fxs_behavior_reads_neighbors(FXS_BEHAVIOR_NAVIGATE));
  TEST_ASSERT_FALSE(fxs_behavior_reads_neighbors(FXS_BEHAVIOR_SEEK));
  TEST_ASSERT_FALSE(fxs_behavior_reads_neighbors(FXS_BEHAVIOR_FLOW_FIELD));
  TEST_ASSERT_FALSE(fxs_behavior_reads_neighbors(FXS_BEHAVIOR_FORMATION));
  TEST_ASSERT_TRUE(fxs_behavior_reads_neighbors(FXS_BEHAVIOR_COUNT)); // unknown: searched
}

void test_priority_groups_pick_the_first_non_negligible_group(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  fxs_steering_manager m;
  fxs_manager_begin(&m, FXS_COMBINE_PRIORITY_GROUPS);
  fxs_manager_add(&m, FXS_BEHAVIOR_AVOID, lin(0, 0), FXS_ONE, 0);            // nothing to avoid
  fxs_manager_add(&m, FXS_BEHAVIOR_SEEK, lin(FXS_ONE, 0), FXS_ONE, 1);       // group 1 ...
  fxs_manager_add(&m, FXS_BEHAVIOR_SEPARATION, lin(0, FXS_ONE), FXS_ONE, 1); // ... summed
  fxs_manager_add(&m, FXS_BEHAVIOR_WANDER, lin(FXS_INT(5), 0), FXS_ONE, 2);  // ignored
  fxs_steering s = fxs_manager_combine(&m, &a);
  TEST_ASSERT_EQUAL_INT32(FXS_ONE, s.linear.x);
  TEST_ASSERT_EQUAL_INT32(FXS_ONE, s.linear.y);
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(m.entries[3].applied.linear));
  fxs_manager_begin(&m, FXS_COMBINE_PRIORITY_GROUPS);
  fxs_manager_add(&m, FXS_BEHAVIOR_AVOID, lin(FXS_RATIO(1, 2), 0), FXS_ONE, 0);
  fxs_manager_add(&m, FXS_BEHAVIOR_SEEK, lin(FXS_ONE, 0), FXS_ONE, 1);
  s = fxs_manager_combine(&m, &a);
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(1, 2), s.linear.x);
}

void test_the_manager_refuses_more_than_its_capacity(void) {
  fxs_steering_manager m;
  fxs_manager_begin(&m, FXS_COMBINE_WEIGHTED_SUM);
  for (int i = 0; i < FXS_MANAGER_CAPACITY; ++i) {
    TEST_ASSERT_TRUE(fxs_manager_add(&m, FXS_BEHAVIOR_SEEK, lin(FXS_ONE, 0), FXS_ONE, 0));
  }
  TEST_ASSERT_FALSE(fxs_manager_add(&m, FXS_BEHAVIOR_SEEK, lin(FXS_ONE, 0), FXS_ONE, 0));
  TEST_ASSERT_EQUAL_UINT8(FXS_MANAGER_CAPACITY, m.count);
}

void test_speed_and_force_stay_within_limits_after_every_update(void) {
  uint32_t rng = 99;
  fxs_rng wander_rng;
  fxs_rng_seed(&wander_rng, 4);
  fxs_wander_def wdef = fxs_default_wander_def();
  for (int c = 0; c < 30; ++c) {
    fxs_agent a = fxs_test_agent_at(0, 0);
    fix16_t speed = fxs_test_units(&rng, 1, 12); // two draws, two statements: C leaves the
    a.max_speed = speed / (int)(1 + fxs_test_lcg(&rng) % 3); // order within one unspecified
    a.max_force = a.max_speed / (int)(2 + fxs_test_lcg(&rng) % 20);
    a.mass = FXS_ONE + (fix16_t)(fxs_test_lcg(&rng) % (uint32_t)FXS_INT(3));
    fix16_t angle = 0;
    fxs_steering_manager m;
    for (int t = 0; t < 300; ++t) {
      fxs_vec2 target = fxs_test_point(&rng, -3000, 3000);
      fxs_manager_begin(&m, (fxs_combine_mode)(t % 3));
      fxs_manager_add(&m, FXS_BEHAVIOR_SEEK, fxs_steering_linear(fxs_seek(&a, target)), FXS_INT(2),
                      1);
      fxs_manager_add(&m, FXS_BEHAVIOR_FLEE, fxs_steering_linear(fxs_flee(&a, target, 0)), FXS_ONE,
                      0);
      fxs_manager_add(&m, FXS_BEHAVIOR_WANDER,
                      fxs_steering_linear(fxs_wander(&a, &wdef, &angle, &wander_rng)), FXS_ONE, 2);
      fxs_vec2 before = a.velocity;
      fxs_manager_update(&m, &a);
      TEST_ASSERT_TRUE(fxs_vec2_length_sq(a.velocity) <=
                       (uint64_t)a.max_speed * (uint64_t)a.max_speed);
      // The velocity changed by at most max_force / mass (+ rounding of the division).
      fix16_t limit = fxs_add(fxs_div(a.max_force, a.mass), 2);
      TEST_ASSERT_TRUE(fxs_vec2_distance(a.velocity, before) <= limit);
    }
  }
}

void test_an_external_force_is_not_limited_by_max_force(void) {
  // Seed 001: a click applies a wind of (-12.4, 0) on top of the limited seek.
  fxs_agent a = fxs_test_agent_at(0, 0);
  a.max_speed = FXS_INT(20);
  fxs_steering_manager m;
  fxs_manager_begin(&m, FXS_COMBINE_WEIGHTED_SUM);
  fxs_manager_add_force(&m, fxs_vec2_make(-FXS_RATIO(124, 10), 0));
  fxs_manager_update(&m, &a);
  TEST_ASSERT_EQUAL_INT32(-FXS_RATIO(124, 10), a.velocity.x);
  a.velocity = fxs_vec2_zero();
  a.mass = FXS_INT(2);
  fxs_manager_update(&m, &a);
  TEST_ASSERT_EQUAL_INT32(-FXS_RATIO(62, 10), a.velocity.x);
}

void test_velocity_scaling_happens_before_steering(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  a.velocity = fxs_vec2_make(FXS_INT(2), 0);
  fxs_steering_manager m;
  fxs_manager_begin(&m, FXS_COMBINE_WEIGHTED_SUM);
  fxs_manager_scale_velocity(&m, FXS_RATIO(3, 10));
  fxs_manager_add(&m, FXS_BEHAVIOR_SEEK, lin(0, FXS_RATIO(1, 8)), FXS_ONE, 0);
  fxs_manager_update(&m, &a);
  TEST_ASSERT_EQUAL_INT32(fxs_mul(FXS_INT(2), FXS_RATIO(3, 10)), a.velocity.x);
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(1, 8), a.velocity.y);
}

void test_look_where_going_turns_at_most_the_max_turn_rate(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  a.velocity = fxs_vec2_make(0, FXS_INT(3)); // heading +pi/2
  a.max_turn_rate = FXS_RATIO(1, 10);
  fxs_agent_integrate(&a, lin(0, 0), fxs_vec2_zero(), FXS_ONE);
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(1, 10), a.orientation);
  a.max_turn_rate = 0; // snaps
  fxs_agent_integrate(&a, lin(0, 0), fxs_vec2_zero(), FXS_ONE);
  TEST_ASSERT_EQUAL_INT32(FXS_HALF_PI, a.orientation);
  a.velocity = fxs_vec2_make(100, 0); // below FXS_LOOK_MIN_SPEED: keeps facing
  a.max_speed = FXS_INT(4);
  fxs_agent_integrate(&a, lin(0, 0), fxs_vec2_zero(), FXS_ONE);
  TEST_ASSERT_EQUAL_INT32(FXS_HALF_PI, a.orientation);
}

// Look-where-going keeps the heading up to the agent's rest speed (max_speed 4 /
// FXS_REST_SPEED_DIVISOR = 4096 raw for the default agent, above FXS_LOOK_MIN_SPEED), decided
// on the exact squared length: every velocity with components in a band round it, in every
// quadrant. Above it the agent turns toward its velocity (by at most its calm turn).
void test_look_where_going_keeps_the_heading_up_to_the_rest_speed(void) {
  const int32_t m = FXS_INT(4) / FXS_REST_SPEED_DIVISOR;
  int turned = 0, kept = 0;
  for (int32_t x = -m; x <= m; x += 7) {
    int32_t root = (int32_t)sqrt((double)m * m - (double)x * x); // the circle's y at x
    for (int32_t k = -3; k <= 3; ++k) {
      int32_t y = (k < 0 ? -root : root) + k;
      fxs_agent a = fxs_test_agent_at(0, 0);
      a.orientation_mode = FXS_ORIENT_LOOK_WHERE_GOING;
      a.orientation = FXS_PI;
      a.velocity = fxs_vec2_make(x, y);
      fxs_agent_integrate(&a, lin(0, 0), fxs_vec2_zero(), FXS_ONE);
      bool turns = (int64_t)x * x + (int64_t)y * y > (int64_t)m * m;
      if (turns && fxs_vec2_angle(fxs_vec2_make(x, y)) == FXS_PI) continue; // faces it already
      if (turns) TEST_ASSERT_NOT_EQUAL_INT32(FXS_PI, a.orientation);
      else TEST_ASSERT_EQUAL_INT32(FXS_PI, a.orientation);
      turned += turns, kept += !turns;
    }
  }
  TEST_ASSERT_TRUE(turned > 10 && kept > 10); // both sides of the threshold were tried
}

// Below a quarter of its top speed an agent turns at most pi/2 times its fraction of that
// speed in a tick: at 1/8 of top speed (half of the quarter) pi/4, however far its velocity
// points from its heading; at a quarter or more it turns to its velocity at once.
void test_look_where_going_turns_calmly_when_slow(void) {
  fxs_agent a = fxs_test_agent_at(0, 0); // max_speed 4: the quarter is 1 unit a tick
  a.orientation_mode = FXS_ORIENT_LOOK_WHERE_GOING;
  a.orientation = FXS_HALF_PI;
  a.velocity = fxs_vec2_make(0, -FXS_RATIO(1, 2)); // straight back, at 1/2 unit a tick
  fxs_agent_integrate(&a, lin(0, 0), fxs_vec2_zero(), FXS_ONE);
  fix16_t limit = (fix16_t)(((int64_t)(FXS_PI / 2) * FXS_RATIO(1, 2)) / FXS_ONE);
  TEST_ASSERT_EQUAL_INT32(fxs_angle_wrap(FXS_HALF_PI + limit), a.orientation);
  a.orientation = FXS_HALF_PI;
  a.velocity = fxs_vec2_make(FXS_ONE, 0); // a quarter of top speed: no limit
  fxs_agent_integrate(&a, lin(0, 0), fxs_vec2_zero(), FXS_ONE);
  TEST_ASSERT_EQUAL_INT32(0, a.orientation);
}

void test_fixed_orientation_ignores_angular_steering_and_steered_integrates_it(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  a.orientation_mode = FXS_ORIENT_FIXED;
  fxs_agent_integrate(&a, fxs_steering_angular(FXS_RATIO(1, 20)), fxs_vec2_zero(), FXS_ONE);
  TEST_ASSERT_EQUAL_INT32(0, a.orientation);
  a.orientation_mode = FXS_ORIENT_STEERED; // max angular acceleration 0.05, max rotation 0.2
  for (int t = 0; t < 3; ++t) {
    fxs_agent_integrate(&a, fxs_steering_angular(FXS_ONE), fxs_vec2_zero(), FXS_ONE);
  }
  TEST_ASSERT_EQUAL_INT32(3 * FXS_RATIO(1, 20), a.rotation);
  TEST_ASSERT_EQUAL_INT32(6 * FXS_RATIO(1, 20), a.orientation); // 0.05 + 0.10 + 0.15
  for (int t = 0; t < 10; ++t) {
    fxs_agent_integrate(&a, fxs_steering_angular(FXS_ONE), fxs_vec2_zero(), FXS_ONE);
  }
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(1, 5), a.rotation); // capped at max rotation
}

// Seed 001's wind: an external force is not limited by max_speed; the agent then slows back
// by at most max_force / mass per tick, as 001's limited seek steering would, and is back
// under max_speed once the excess is spent.
void test_an_external_force_pushes_past_max_speed_and_steering_brakes_it_back(void) {
  fxs_agent a = fxs_default_agent(); // max speed 4, max force 0.25, mass 1
  a.velocity = fxs_vec2_make(FXS_INT(4), 0);
  fxs_agent_integrate(&a, fxs_steering_linear(fxs_vec2_make(FXS_INT(1), 0)),
                      fxs_vec2_make(-FXS_RATIO(124, 10), 0), FXS_ONE);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(4) - FXS_RATIO(124, 10), a.velocity.x); // 4 then the gust
  int ticks = 0;
  fix16_t last = fxs_vec2_length(a.velocity);
  while (fxs_vec2_length(a.velocity) > a.max_speed && ticks < 100) {
    fxs_agent_integrate(&a, fxs_steering_linear(fxs_vec2_make(FXS_INT(8), 0)), fxs_vec2_zero(),
                        FXS_ONE);
    fix16_t now = fxs_vec2_length(a.velocity);
    TEST_ASSERT_TRUE(last - now <= a.max_force + 1); // braking within the steering budget
    last = now;
    ++ticks;
  }
  TEST_ASSERT_EQUAL_INT(18, ticks); // from 8.4 down to 4 at 0.25 per tick
}

// Calm rest: a steered velocity that would turn by more than 90 degrees in one tick stops
// instead; the heading (look where going) is kept; the next tick starts the other way.
void test_a_velocity_that_would_reverse_in_one_tick_stops_and_keeps_the_heading(void) {
  fxs_agent a = fxs_default_agent(); // max_force 1/4
  a.velocity = fxs_vec2_make(FXS_RATIO(1, 10), 0);
  a.orientation = 0;
  fxs_agent_integrate(&a, lin(-FXS_RATIO(1, 4), 0), fxs_vec2_zero(), FXS_ONE);
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(a.velocity));
  TEST_ASSERT_EQUAL_INT32(0, a.position.x);
  TEST_ASSERT_EQUAL_INT32(0, a.orientation);
  fxs_agent_integrate(&a, lin(-FXS_RATIO(1, 4), 0), fxs_vec2_zero(), FXS_ONE);
  TEST_ASSERT_EQUAL_INT32(-FXS_RATIO(1, 4), a.velocity.x);
  // A turn of exactly 90 degrees, or one an agent moving faster than its force makes, goes on.
  a.velocity = fxs_vec2_make(FXS_RATIO(1, 10), 0);
  fxs_agent_integrate(&a, lin(-FXS_RATIO(1, 10), FXS_RATIO(1, 8)), fxs_vec2_zero(), FXS_ONE);
  TEST_ASSERT_EQUAL_INT32(0, a.velocity.x);
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(1, 8), a.velocity.y);
  // An external force is not steering: a push may reverse the agent.
  a.velocity = fxs_vec2_make(FXS_RATIO(1, 10), 0);
  fxs_agent_integrate(&a, lin(0, 0), fxs_vec2_make(-FXS_INT(2), 0), FXS_ONE);
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(1, 10) - FXS_INT(2), a.velocity.x);
}
