// The behavior parameters' defaults follow the agent (issue 52): length defaults in body
// radii, force defaults in max forces (behavior_params.h, FXS_PARAM_RADII/FORCES), exact
// for the reference agent, and a behavior with the defaults of an agent K times larger
// steers K times harder (no unit of length is special).
#include "unity.h"

#include "agent.h"
#include "avoidance.h"
#include "behavior.h"
#include "behavior_params.h"
#include "flocking.h"
#include "seek.h"
#include "vec2.h"
#include "world.h"
#include "fxs_test_agents.h"

void setUp(void) {}
void tearDown(void) {}

#define P(behavior, name) FXS_BEHAVIOR_##behavior, FXS_PARAM(behavior, name)

static fix16_t def_for(fxs_behavior b, uint32_t i, fix16_t radius, fix16_t force) {
  return fxs_behavior_param_default_for(b, i, radius, force);
}

// The defaults of the reference agent are today's (the values the project's scenes of radius
// 8 were recorded with), and for it the derived defaults are those, row by row.
void test_the_reference_agent_keeps_the_absolute_defaults(void) {
  TEST_ASSERT_EQUAL_INT32(FXS_INT(60), fxs_behavior_param_default(P(AVOID, max_see_ahead)));
  TEST_ASSERT_EQUAL_INT32(FXS_ONE, fxs_behavior_param_default(P(AVOID, max_avoid_force)));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(24), fxs_behavior_param_default(P(SEPARATION, radius)));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(60), fxs_behavior_param_default(P(ALIGNMENT, radius)));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(60), fxs_behavior_param_default(P(COHESION, radius)));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(60), fxs_behavior_param_default(P(LEADER, slowing_radius)));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(100), fxs_behavior_param_default(P(ARRIVE, slowing_radius)));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(6), fxs_behavior_param_default(P(WANDER, circle_distance)));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(24), fxs_behavior_param_default(P(FORMATION, spacing)));
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(1, 4),
                          fxs_behavior_param_default(P(FORMATION, arrival_radius)));
  TEST_ASSERT_EQUAL_INT32(-FXS_INT(30),
                          fxs_behavior_param_default(P(OFFSET_PURSUIT, offset_forward)));
  TEST_ASSERT_EQUAL_INT32(FXS_ONE, fxs_behavior_param_default(P(WALKER, min_step)));
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(1, 4),
                          fxs_behavior_param_default(P(DYNAMIC_ARRIVE, max_acceleration)));
  fxs_agent ref = fxs_default_agent();
  TEST_ASSERT_EQUAL_INT32(FXS_PARAM_REFERENCE_RADIUS, ref.radius);
  TEST_ASSERT_EQUAL_INT32(FXS_PARAM_REFERENCE_FORCE, ref.max_force);
  uint32_t derived = 0;
  for (int k = FXS_BEHAVIOR_SEEK; k < FXS_BEHAVIOR_COUNT; ++k) {
    for (uint32_t i = 0; i < fxs_behavior_param_count((fxs_behavior)k); ++i) {
      const fxs_behavior_param *p = fxs_behavior_param_info((fxs_behavior)k, i);
      TEST_ASSERT_EQUAL_INT32_MESSAGE(
          p->default_value, def_for((fxs_behavior)k, i, ref.radius, ref.max_force), p->name);
      // The reference default is the row's radii or forces times the reference, exactly.
      fix16_t of = p->basis == FXS_PARAM_RADII    ? FXS_PARAM_REFERENCE_RADIUS
                   : p->basis == FXS_PARAM_FORCES ? FXS_PARAM_REFERENCE_FORCE
                                                  : FXS_ONE;
      TEST_ASSERT_EQUAL_INT64_MESSAGE((int64_t)p->per_basis * of,
                                      (int64_t)p->default_value * FXS_ONE, p->name);
      // Every length default other than "0: none or derived later" follows the radius.
      if (p->basis == FXS_PARAM_ABSOLUTE && p->unit[0] == 'u') {
        TEST_ASSERT_EQUAL_INT32_MESSAGE(0, p->default_value, p->name);
      }
      if (p->basis != FXS_PARAM_ABSOLUTE) ++derived;
    }
  }
  TEST_ASSERT_EQUAL_UINT32(36, derived);
}

// Exact derived values for other agents: RVO2's radius 2 with max force 1/16, a radius of
// 1/16 (the least usable), rounding to nearest, the rows' ranges, and a point or an agent
// without force taking the reference's.
void test_defaults_derive_from_the_agents_radius_and_force(void) {
  fix16_t r2 = FXS_INT(2), f = FXS_RATIO(1, 16);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(15), def_for(P(AVOID, max_see_ahead), r2, f));
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(1, 4), def_for(P(AVOID, max_avoid_force), r2, f));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(6), def_for(P(SEPARATION, radius), r2, f));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(15), def_for(P(COHESION, radius), r2, f));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(25), def_for(P(ARRIVE, slowing_radius), r2, f));
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(3, 2), def_for(P(WANDER, circle_distance), r2, f));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(6), def_for(P(FORMATION, spacing), r2, f));
  TEST_ASSERT_EQUAL_INT32(-FXS_RATIO(15, 2), def_for(P(OFFSET_PURSUIT, offset_forward), r2, f));
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(1, 16), def_for(P(VELOCITY_MATCH, max_acceleration), r2, f));
  // Ticks, radians and ORCA's derived-later zeros stay.
  TEST_ASSERT_EQUAL_INT32(FXS_INT(2), def_for(P(AVOID, margin), r2, f));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(30), def_for(P(PURSUIT, max_prediction), r2, f));
  TEST_ASSERT_EQUAL_INT32(0, def_for(P(ORCA, neighbor_distance), r2, f));
  // The least usable radius, 1/16: 7.5 / 16 = 0.46875 units.
  TEST_ASSERT_EQUAL_INT32(30720, def_for(P(AVOID, max_see_ahead), FXS_SCALE_MIN_RADIUS, f));
  // 1 raw radius: 7.5 raw rounds half away to 8; -3.75 raw to -4; 1/8 raw to 0, held at the
  // walker's least step of 1 raw.
  TEST_ASSERT_EQUAL_INT32(8, def_for(P(AVOID, max_see_ahead), 1, f));
  TEST_ASSERT_EQUAL_INT32(-4, def_for(P(OFFSET_PURSUIT, offset_forward), 1, f));
  TEST_ASSERT_EQUAL_INT32(1, def_for(P(WALKER, min_step), 1, f));
  TEST_ASSERT_EQUAL_INT32(0, def_for(P(FORMATION, arrival_radius), 1, f));
  // A huge radius is held in the row's range (formation spacing at most 1024).
  TEST_ASSERT_EQUAL_INT32(FXS_INT(1024), def_for(P(FORMATION, spacing), FXS_INT(400), f));
  // A point, an agent without force: the reference agent's.
  TEST_ASSERT_EQUAL_INT32(FXS_INT(60), def_for(P(AVOID, max_see_ahead), 0, f));
  TEST_ASSERT_EQUAL_INT32(FXS_ONE, def_for(P(AVOID, max_avoid_force), r2, 0));
  TEST_ASSERT_EQUAL_INT32(0, def_for(P(AVOID, max_see_ahead) + 9, r2, f));
  // The slot builder gives the same values, and a weight of 1.
  fxs_behavior_slot s = fxs_behavior_slot_default_for(FXS_BEHAVIOR_AVOID, r2, f);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(15), s.p[0]);
  TEST_ASSERT_EQUAL_INT32(FXS_RATIO(1, 4), s.p[1]);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(2), s.p[2]);
  TEST_ASSERT_EQUAL_INT32(0, s.p[5]);
  TEST_ASSERT_EQUAL_INT32(FXS_ONE, s.weight);
  TEST_ASSERT_EQUAL_UINT8(FXS_BEHAVIOR_AVOID, s.kind);
}

// ------------------------------------------------------------------ scale invariance

static uint32_t rng_state = 12345u;
static int draw(int lo, int hi) { // [lo, hi], a fixed LCG
  rng_state = rng_state * 1664525u + 1013904223u;
  return lo + (int)((rng_state >> 8) % (uint32_t)(hi - lo + 1));
}

static fix16_t times(fix16_t v, fix16_t k) { return (fix16_t)(((int64_t)v * k) / FXS_ONE); }
static fxs_vec2 vtimes(fxs_vec2 v, fix16_t k) {
  return fxs_vec2_make(times(v.x, k), times(v.y, k));
}

static fxs_agent scaled_agent(const fxs_agent *a, fix16_t k) {
  fxs_agent s = *a;
  s.position = vtimes(a->position, k);
  s.velocity = vtimes(a->velocity, k);
  s.radius = times(a->radius, k);
  s.max_speed = times(a->max_speed, k);
  s.max_force = times(a->max_force, k);
  return s;
}

static fxs_avoidance_def avoidance_for(const fxs_agent *a) {
  fxs_avoidance_def d = fxs_default_avoidance_def();
  d.max_see_ahead = def_for(P(AVOID, max_see_ahead), a->radius, a->max_force);
  d.max_avoid_force = def_for(P(AVOID, max_avoid_force), a->radius, a->max_force);
  return d;
}

// |got - want| within `tol` raw on both axes.
static void assert_near(fxs_vec2 want, fxs_vec2 got, int32_t tol, const char *what) {
  TEST_ASSERT_INT32_WITHIN_MESSAGE(tol, want.x, got.x, what);
  TEST_ASSERT_INT32_WITHIN_MESSAGE(tol, want.y, got.y, what);
}

// With the defaults derived from the agent, obstacle avoidance, wall avoidance, arrival and
// separation at K times every length (positions, radii, speeds, forces) give K times the
// force at x1, within rounding, for K = 1/4, 1/2, 2, 4 and 16, on 200 drawn scenes of an
// agent of radius 8 (speed 2 to 4, force 1/8 to 1/2) heading at an obstacle or a wall.
void test_behaviors_with_derived_defaults_scale_with_every_length(void) {
  static const fix16_t ks[] = {FXS_RATIO(1, 4), FXS_RATIO(1, 2), FXS_INT(2), FXS_INT(4),
                               FXS_INT(16)};
  uint32_t nonzero = 0;
  for (int n = 0; n < 200; ++n) {
    fxs_agent a = fxs_test_agent_at(draw(-20, 20), draw(-20, 20));
    a.max_speed = FXS_RATIO(draw(8, 16), 4);
    a.max_force = FXS_RATIO(draw(1, 4), 8);
    a.velocity = fxs_vec2_make(FXS_RATIO(draw(4, 16), 4), FXS_RATIO(draw(-4, 4), 4));
    fxs_obstacle o;
    o.center = fxs_vec2_make(FXS_INT(draw(20, 60)), FXS_INT(draw(-20, 20)));
    o.radius = FXS_INT(draw(4, 16));
    fxs_wall w;
    w.a = fxs_vec2_make(FXS_INT(draw(20, 60)), FXS_INT(-40));
    w.b = fxs_vec2_make(FXS_INT(draw(20, 60)), FXS_INT(40));
    fxs_vec2 goal = fxs_vec2_make(FXS_INT(draw(-80, 80)), FXS_INT(draw(-80, 80)));
    fxs_neighbor nb[2] = {fxs_test_neighbor(draw(-20, 20), draw(-20, 20), 0, 0, 1),
                          fxs_test_neighbor(draw(-20, 20), draw(-20, 20), 1, 0, 2)};
    fxs_avoidance_def d1 = avoidance_for(&a);
    fxs_vec2 obst1 = fxs_avoid_obstacles(&a, &o, 1, &d1);
    fxs_vec2 wall1 = fxs_avoid_walls(&a, &w, 1, &d1);
    fxs_vec2 arr1 = fxs_arrive(&a, goal, def_for(P(ARRIVE, slowing_radius), a.radius, 0));
    fxs_vec2 sep1 =
        fxs_separation(&a, 0, nb, 2, def_for(P(SEPARATION, radius), a.radius, a.max_force));
    nonzero += !fxs_vec2_is_zero(obst1) + !fxs_vec2_is_zero(wall1) + !fxs_vec2_is_zero(sep1);
    for (unsigned j = 0; j < sizeof ks / sizeof ks[0]; ++j) {
      fix16_t k = ks[j];
      fxs_agent b = scaled_agent(&a, k);
      fxs_obstacle ok = o;
      ok.center = vtimes(o.center, k), ok.radius = times(o.radius, k);
      fxs_wall wk = {vtimes(w.a, k), vtimes(w.b, k)};
      fxs_neighbor nk[2] = {nb[0], nb[1]};
      for (int i = 0; i < 2; ++i) {
        nk[i].position = vtimes(nb[i].position, k), nk[i].velocity = vtimes(nb[i].velocity, k);
      }
      fxs_avoidance_def dk = avoidance_for(&b);
      // Rounding: a few raw units at x1 grow by K; below x1 a raw unit is a larger share.
      int32_t tol = 64 + (int32_t)(k > FXS_ONE ? times(64, k) : 0);
      assert_near(vtimes(obst1, k), fxs_avoid_obstacles(&b, &ok, 1, &dk), tol, "obstacle");
      assert_near(vtimes(wall1, k), fxs_avoid_walls(&b, &wk, 1, &dk), tol, "wall");
      assert_near(vtimes(arr1, k),
                  fxs_arrive(&b, vtimes(goal, k), def_for(P(ARRIVE, slowing_radius), b.radius, 0)),
                  tol, "arrive");
      assert_near(
          vtimes(sep1, k),
          fxs_separation(&b, 0, nk, 2, def_for(P(SEPARATION, radius), b.radius, b.max_force)), tol,
          "separation");
    }
  }
  // The drawn scenes exercise the behaviors: most give a force.
  TEST_ASSERT_GREATER_THAN_UINT32(200, nonzero);
}

// The same property fails with the old absolute defaults: at x1/4 a look-ahead of 60 units
// sees an obstacle 4 times farther (in radii) than at x1, so the force is not a quarter.
void test_absolute_defaults_would_not_scale(void) {
  fxs_agent a = fxs_test_agent_at(0, 0);
  a.velocity = fxs_vec2_make(FXS_INT(4), 0);
  fxs_obstacle o;
  o.center = fxs_vec2_make(FXS_INT(100), FXS_INT(4)), o.radius = FXS_INT(8);
  fxs_avoidance_def d = fxs_default_avoidance_def();
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(fxs_avoid_obstacles(&a, &o, 1, &d))); // beyond 60 + 8
  fxs_agent q = scaled_agent(&a, FXS_RATIO(1, 4));
  fxs_obstacle oq = o;
  oq.center = vtimes(o.center, FXS_RATIO(1, 4)), oq.radius = FXS_INT(2);
  TEST_ASSERT_FALSE(fxs_vec2_is_zero(fxs_avoid_obstacles(&q, &oq, 1, &d))); // 60 sees it
  fxs_avoidance_def dq = avoidance_for(&q);
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(fxs_avoid_obstacles(&q, &oq, 1, &dq))); // 15 does not
}
