#include "unity.h"

#include "scalar.h"
#include "vec2.h"
#include "agent.h"
#include "manager.h"
#include "behavior.h"
#include "seek.h"
#include "pursuit.h"
#include "flocking.h"
#include "leader.h"
#include "fxs_test_agents.h"

void setUp(void) {}
void tearDown(void) {}

void test_the_point_behind_is_opposite_the_leaders_velocity(void) {
  fxs_agent leader = fxs_test_agent_at(100, 100);
  leader.velocity = fxs_vec2_make(FXS_INT(2), 0);
  fxs_leader_def def = fxs_default_leader_def(); // behind 30
  fxs_vec2 p = fxs_leader_behind_point(&leader, &def);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(70), p.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(100), p.y);
  leader.velocity = fxs_vec2_zero();
  leader.orientation = FXS_HALF_PI; // at rest: behind its facing
  p = fxs_leader_behind_point(&leader, &def);
  TEST_ASSERT_INT32_WITHIN(2, FXS_INT(100), p.x);
  TEST_ASSERT_INT32_WITHIN(2, FXS_INT(70), p.y);
}

void test_a_follower_out_of_sight_only_arrives_behind(void) {
  fxs_agent leader = fxs_test_agent_at(100, 100);
  leader.velocity = fxs_vec2_make(FXS_INT(2), 0);
  fxs_agent f = fxs_test_agent_at(0, 0);
  fxs_leader_def def = fxs_default_leader_def();
  fxs_vec2 force = fxs_follow_leader(&f, 1, &leader, 0, 0, &def);
  fxs_vec2 expected = fxs_arrive(&f, fxs_vec2_make(FXS_INT(70), FXS_INT(100)), def.slowing_radius);
  TEST_ASSERT_EQUAL_INT32(expected.x, force.x);
  TEST_ASSERT_EQUAL_INT32(expected.y, force.y);
}

void test_a_follower_in_the_leaders_sight_also_evades(void) {
  fxs_agent leader = fxs_test_agent_at(100, 100);
  leader.velocity = fxs_vec2_make(FXS_INT(2), 0);
  fxs_agent f = fxs_test_agent_at(135, 105); // near the point ahead (130, 100)
  fxs_leader_def def = fxs_default_leader_def();
  fxs_vec2 force = fxs_follow_leader(&f, 1, &leader, 0, 0, &def);
  fxs_vec2 expected =
      fxs_vec2_add(fxs_arrive(&f, fxs_vec2_make(FXS_INT(70), FXS_INT(100)), def.slowing_radius),
                   fxs_evade(&f, &leader, def.max_prediction, 0));
  TEST_ASSERT_EQUAL_INT32(expected.x, force.x);
  TEST_ASSERT_EQUAL_INT32(expected.y, force.y);
}

void test_followers_gather_behind_a_moving_leader_and_stay_apart(void) {
  enum { N = 6 };
  fxs_agent leader = fxs_test_agent_at(0, 0);
  leader.velocity = fxs_vec2_make(FXS_RATIO(3, 2), 0);
  fxs_agent followers[N];
  fxs_neighbor view[N];
  uint32_t rng = 11;
  for (int i = 0; i < N; ++i) {
    followers[i] = fxs_test_agent_at(0, 0);
    followers[i].position = fxs_test_point(&rng, -300, 300);
  }
  fxs_leader_def def = fxs_default_leader_def();
  fxs_steering_manager m;
  for (int t = 0; t < 800; ++t) {
    for (int i = 0; i < N; ++i) view[i] = fxs_neighbor_of(&followers[i], (uint32_t)i + 1);
    fxs_agent next[N];
    for (int i = 0; i < N; ++i) {
      next[i] = followers[i];
      fxs_manager_begin(&m, FXS_COMBINE_WEIGHTED_SUM);
      fxs_manager_add(&m, FXS_BEHAVIOR_LEADER,
                      fxs_steering_linear(fxs_follow_leader(&followers[i], (uint32_t)i + 1, &leader,
                                                            view, N, &def)),
                      FXS_ONE, 0);
      fxs_manager_update(&m, &next[i]);
    }
    for (int i = 0; i < N; ++i) followers[i] = next[i];
    leader.position = fxs_vec2_add(leader.position, leader.velocity);
  }
  for (int i = 0; i < N; ++i) {
    // Behind the leader, out of its sight, close to the group.
    TEST_ASSERT_TRUE(followers[i].position.x < leader.position.x);
    TEST_ASSERT_FALSE(
        fxs_vec2_within(followers[i].position, leader.position, def.leader_sight_radius));
    TEST_ASSERT_TRUE(fxs_vec2_within(followers[i].position, leader.position, FXS_INT(150)));
    for (int j = i + 1; j < N; ++j) {
      // Bodies of radius 8 never overlap.
      TEST_ASSERT_TRUE(fxs_vec2_distance(followers[i].position, followers[j].position) >
                       FXS_INT(16));
    }
  }
}

void test_queue_brakes_behind_an_agent_ahead(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  a.velocity = fxs_vec2_make(FXS_INT(2), 0);
  fxs_queue_def def = fxs_default_queue_def();            // ahead 20, radius 16, separation 16
  fxs_neighbor ahead[] = {{{FXS_INT(30), 0}, {0, 0}, 5}}; // 10 from the point ahead
  fix16_t scale = 0;
  fxs_vec2 steering = fxs_vec2_make(FXS_ONE, FXS_RATIO(1, 2));
  fxs_vec2 brake = fxs_queue(&a, 1, steering, ahead, 1, 0, 0, &def, &scale);
  // -0.8 * steering - velocity; the neighbor is 30 away: no separation, no crawl.
  // y: raw -52429 * 32768 / 65536 = -26214.5, rounded away from zero.
  TEST_ASSERT_EQUAL_INT32(-FXS_RATIO(8, 10) - FXS_INT(2), brake.x);
  TEST_ASSERT_EQUAL_INT32(-26215, brake.y);
  TEST_ASSERT_EQUAL_INT32(FXS_ONE, scale);
}

void test_queue_crawls_when_the_agent_ahead_is_close_without_a_body_lookup(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  a.velocity = fxs_vec2_make(FXS_INT(2), 0);
  fxs_queue_def def = fxs_default_queue_def();
  fxs_neighbor close[] = {{{FXS_INT(12), 0}, {0, 0}, 5}};
  fix16_t scale = 0;
  fxs_queue(&a, 1, fxs_vec2_zero(), close, 1, 0, 0, &def, &scale);
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(3, 10), scale);
  fxs_neighbor behind[] = {{{-FXS_INT(12), 0}, {0, 0}, 5}};
  TEST_ASSERT_TRUE(
      fxs_vec2_is_zero(fxs_queue(&a, 1, fxs_vec2_zero(), behind, 1, 0, 0, &def, &scale)));
  TEST_ASSERT_EQUAL_INT32(FXS_ONE, scale);
}

// The queue's velocity scale for agent `a` (id 0, at the origin) with one other agent
// (id 1, at rest) at (x, 0); checks that a hold comes with no force.
static fix16_t queue_scale_against(fxs_agent a, int x) {
  fxs_agent bodies[2] = {a, fxs_test_agent_at(x, 0)};
  fxs_neighbor view[2] = {fxs_neighbor_of(&bodies[0], 0), fxs_neighbor_of(&bodies[1], 1)};
  fxs_queue_def def = fxs_default_queue_def();
  fix16_t scale = -1;
  fxs_vec2 f = fxs_queue(&bodies[0], 0, fxs_vec2_make(FXS_ONE, 0), view, 2, fxs_test_body_in,
                         bodies, &def, &scale);
  if (scale == 0) TEST_ASSERT_TRUE(fxs_vec2_is_zero(f));
  return scale;
}

void test_queue_holds_behind_an_agent_within_one_tick_of_touching(void) {
  fxs_agent a = fxs_test_agent_at(0, 0); // both radius 8; max_speed 4: reach 8 + 8 + 4
  a.velocity = fxs_vec2_make(FXS_INT(2), 0);
  TEST_ASSERT_EQUAL_INT32(0, queue_scale_against(a, 20));        // within reach: holds
  TEST_ASSERT_EQUAL_INT32(FXS_ONE, queue_scale_against(a, 21));  // beyond: brakes only
  TEST_ASSERT_EQUAL_INT32(FXS_ONE, queue_scale_against(a, -12)); // behind: nothing
}

void test_a_resting_agent_looks_ahead_along_its_orientation(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  a.orientation = 0; // facing +x, at rest
  TEST_ASSERT_EQUAL_INT32(0, queue_scale_against(a, 12));
  a.orientation = FXS_PI; // facing -x: the agent at +12 is behind it
  TEST_ASSERT_EQUAL_INT32(FXS_ONE, queue_scale_against(a, 12));
}

void test_of_two_agents_meeting_head_on_the_lower_id_goes_first(void) {
  fxs_agent bodies[2] = {fxs_test_agent_at(0, 0), fxs_test_agent_at(17, 0)};
  bodies[0].velocity = fxs_vec2_make(FXS_INT(2), 0);
  bodies[1].velocity = fxs_vec2_make(-FXS_INT(2), 0);
  TEST_ASSERT_FALSE(fxs_queue_must_hold(&bodies[0], 0, &bodies[1], 1));
  TEST_ASSERT_TRUE(fxs_queue_must_hold(&bodies[1], 1, &bodies[0], 0));
  // Following (same heading), the one behind holds whatever the ids.
  bodies[1].velocity = fxs_vec2_make(FXS_INT(2), 0);
  TEST_ASSERT_TRUE(fxs_queue_must_hold(&bodies[0], 0, &bodies[1], 1));
  TEST_ASSERT_FALSE(fxs_queue_must_hold(&bodies[1], 1, &bodies[0], 0));
}

void test_a_held_agent_stands_exactly_still(void) {
  fxs_agent a = fxs_test_agent_at(5, 7);
  a.velocity = fxs_vec2_make(FXS_RATIO(3, 2), -FXS_RATIO(1, 3));
  fxs_vec2 before = a.position;
  fxs_agent_integrate(&a, fxs_steering_linear(fxs_vec2_make(FXS_INT(3), FXS_INT(1))),
                      fxs_vec2_zero(), 0);
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(a.velocity));
  TEST_ASSERT_EQUAL_INT32(before.x, a.position.x);
  TEST_ASSERT_EQUAL_INT32(before.y, a.position.y);
}

// Eight agents in two staggered lines arrive at one point through a queue: they never
// overlap, and all come to exactly zero velocity, each in front of no one or behind someone.
void test_a_queue_through_a_single_point_never_overlaps_and_comes_to_rest(void) {
  enum { N = 8 };
  fxs_agent agents[N];
  fxs_neighbor view[N];
  for (int i = 0; i < N; ++i) {
    agents[i] = fxs_test_agent_at(-40 - 30 * i, (i % 2) ? 6 : -6);
    agents[i].max_speed = FXS_INT(2);
  }
  fxs_vec2 door = fxs_vec2_make(FXS_INT(200), 0);
  fxs_queue_def def = fxs_default_queue_def();
  fxs_steering_manager m;
  fix16_t closest = FXS_MAX;
  int last_move = -1;
  for (int t = 0; t < 600; ++t) {
    for (int i = 0; i < N; ++i) view[i] = fxs_neighbor_of(&agents[i], (uint32_t)i);
    fxs_agent next[N];
    for (int i = 0; i < N; ++i) {
      next[i] = agents[i];
      fxs_manager_begin(&m, FXS_COMBINE_WEIGHTED_SUM);
      fxs_vec2 seek = fxs_arrive(&agents[i], door, FXS_INT(40));
      fxs_manager_add(&m, FXS_BEHAVIOR_ARRIVE, fxs_steering_linear(seek), FXS_ONE, 0);
      fix16_t scale;
      fxs_vec2 brake =
          fxs_queue(&agents[i], (uint32_t)i, seek, view, N, fxs_test_body_in, agents, &def, &scale);
      fxs_manager_add(&m, FXS_BEHAVIOR_QUEUE, fxs_steering_linear(brake), FXS_ONE, 0);
      fxs_manager_scale_velocity(&m, scale);
      fxs_manager_update(&m, &next[i]);
      if (!fxs_vec2_is_zero(next[i].velocity)) last_move = t;
    }
    for (int i = 0; i < N; ++i) agents[i] = next[i];
    for (int i = 0; i < N; ++i) {
      for (int j = i + 1; j < N; ++j) {
        closest = fxs_min(closest, fxs_vec2_distance(agents[i].position, agents[j].position));
      }
    }
  }
  TEST_ASSERT_TRUE(closest >= FXS_INT(16)); // bodies of radius 8 never overlap
  TEST_ASSERT_TRUE(last_move >= 0 &&
                   last_move < 500); // everyone exactly at rest well before the end
}

static uint32_t lcg(uint32_t *s) {
  *s = *s * 1664525u + 1013904223u;
  return *s ^ (*s >> 16);
}

static fix16_t raw_in(uint32_t *s, int units) { // uniform raw value in [-units, units)
  return (fix16_t)((int32_t)(lcg(s) % (uint32_t)(2 * units * 65536)) - units * 65536);
}

void test_known_squared_distances_give_the_measured_leader_and_queue_forces(void) {
  uint32_t s = 77;
  for (int round = 0; round < 1000; ++round) {
    fxs_agent a = fxs_test_agent_at(0, 0), leader = fxs_test_agent_at(0, 0);
    a.position = fxs_vec2_make(raw_in(&s, 200), raw_in(&s, 200));
    a.velocity = fxs_vec2_make(raw_in(&s, 3), raw_in(&s, 3));
    leader.position = fxs_vec2_add(a.position, fxs_vec2_make(raw_in(&s, 60), raw_in(&s, 60)));
    leader.velocity = fxs_vec2_make(raw_in(&s, 3), raw_in(&s, 3));
    fxs_neighbor list[10];
    uint64_t d2[10];
    uint32_t count = lcg(&s) % 11u;
    for (uint32_t i = 0; i < count; ++i) {
      list[i].position = fxs_vec2_add(a.position, fxs_vec2_make(raw_in(&s, 40), raw_in(&s, 40)));
      if (lcg(&s) % 8u == 0) list[i].position = a.position;
      list[i].velocity = fxs_vec2_make(raw_in(&s, 3), raw_in(&s, 3));
      list[i].id = 1u + lcg(&s) % 6u;
      d2[i] = fxs_vec2_length_sq(fxs_vec2_sub(list[i].position, a.position));
    }
    fxs_leader_def ld = fxs_default_leader_def();
    ld.separation_radius = raw_in(&s, 40);
    fxs_vec2 m = fxs_follow_leader(&a, 3, &leader, list, count, &ld);
    fxs_vec2 k = fxs_follow_leader_known(&a, 3, &leader, list, d2, count, &ld);
    TEST_ASSERT_EQUAL_INT32(m.x, k.x);
    TEST_ASSERT_EQUAL_INT32(m.y, k.y);
    fxs_queue_def qd = fxs_default_queue_def();
    qd.separation_radius = raw_in(&s, 40);
    fxs_vec2 steering = fxs_vec2_make(raw_in(&s, 1), raw_in(&s, 1));
    fix16_t ms = 0, ks = 0;
    fxs_agent bodies[7];
    for (uint32_t b = 0; b < 7; ++b) bodies[b] = a;
    for (uint32_t i = 0; i < count; ++i) {
      bodies[list[i].id].position = list[i].position;
      bodies[list[i].id].velocity = list[i].velocity;
    }
    m = fxs_queue(&a, 3, steering, list, count, fxs_test_body_in, bodies, &qd, &ms);
    k = fxs_queue_known(&a, 3, steering, list, d2, count, fxs_test_body_in, bodies, &qd, &ks);
    TEST_ASSERT_EQUAL_INT32(m.x, k.x);
    TEST_ASSERT_EQUAL_INT32(m.y, k.y);
    TEST_ASSERT_EQUAL_INT32(ms, ks);
  }
}
