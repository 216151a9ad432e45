// Escapes that keep room to move: flee and evade bend the away direction toward the open side
// when a wall or a bound lies behind the agent (escape.h), in the behavior functions and in
// the world's step; and hiders in the world take distinct spots.
#include <string.h>
#include "unity.h"
#include <string.h>
#include "unity.h"
#include "scalar.h"
#include "vec2.h"
#include "agent.h"
#include "behavior.h"
#include "seek.h"
#include "pursuit.h"
#include "avoidance.h"
#include "result.h"
#include "command.h"
#include "behavior_params.h"
#include "world.h"
#include "escape.h"
#include "fxs_test_agents.h"

static const fxs_world_capacity cap = {8, 8, 0, 0, 8, 0, 0};
static uint64_t memory[16384];
static fxs_world world;

void setUp(void) {
  fxs_world_def def = fxs_default_world_def();
  TEST_ASSERT_TRUE(fxs_world_memory_size(&cap) <= sizeof memory);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&world, &def, &cap, memory, sizeof memory));
}
void tearDown(void) {}

static fxs_wall wall_of(int ax, int ay, int bx, int by) {
  fxs_wall w = {fxs_vec2_make(FXS_INT(ax), FXS_INT(ay)), fxs_vec2_make(FXS_INT(bx), FXS_INT(by))};
  return w;
}

static fxs_escape_room room_of(const fxs_wall *walls, uint32_t count) {
  fxs_escape_room r;
  memset(&r, 0, sizeof r);
  r.walls = walls, r.wall_count = count;
  return r;
}

// ---------------------------------------------------------------- the behavior functions

// A default agent (radius 8, max speed 4) at rest 10 units above a long wall, the threat 20
// units the other side: straight away is into the wall; along the wall either way has the
// whole look-ahead, and the tie goes counter-clockwise from away (+x).
void test_flee_with_a_wall_behind_runs_along_the_wall(void) {
  fxs_wall w = wall_of(-300, -10, 300, -10);
  fxs_escape_room room = room_of(&w, 1);
  fxs_agent a = fxs_test_agent_at(0, 0);
  fxs_vec2 f = fxs_flee_within(&a, fxs_vec2_make(0, FXS_INT(20)), 0, &room);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(4), f.x);
  TEST_ASSERT_EQUAL_INT32(0, f.y);
}

void test_evade_with_a_wall_behind_runs_along_the_wall(void) {
  fxs_wall w = wall_of(-300, -10, 300, -10);
  fxs_escape_room room = room_of(&w, 1);
  fxs_agent a = fxs_test_agent_at(0, 0);
  fxs_agent hunter = fxs_test_agent_at(0, 40);
  hunter.velocity = fxs_vec2_make(0, -FXS_INT(2));
  fxs_vec2 f = fxs_evade_within(&a, &hunter, FXS_INT(30), 0, &room);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(4), f.x);
  TEST_ASSERT_EQUAL_INT32(0, f.y);
}

// Already running one way along the wall, the agent keeps to that side (-x here).
void test_an_agent_running_along_the_wall_keeps_its_side(void) {
  fxs_wall w = wall_of(-300, -10, 300, -10);
  fxs_escape_room room = room_of(&w, 1);
  fxs_agent a = fxs_test_agent_at(0, 0);
  a.velocity = fxs_vec2_make(-FXS_INT(2), 0);
  fxs_vec2 f = fxs_flee_within(&a, fxs_vec2_make(0, FXS_INT(20)), 0, &room);
  TEST_ASSERT_EQUAL_INT32(-FXS_INT(2), f.x); // desired (-4, 0) - velocity (-2, 0)
  TEST_ASSERT_EQUAL_INT32(0, f.y);
}

// The world's bounds count like walls when the world clamps to them: an agent near the
// lower bound (within the look-ahead, 160 units) runs along it.
void test_flee_near_a_clamped_bound_runs_along_it(void) {
  fxs_escape_room room = room_of(0, 0);
  room.bounded = 1;
  room.bounds_min = fxs_vec2_make(0, 0);
  room.bounds_max = fxs_vec2_make(FXS_INT(1000), FXS_INT(1000));
  fxs_agent a = fxs_test_agent_at(500, 17);
  fxs_vec2 f = fxs_flee_within(&a, fxs_vec2_make(FXS_INT(500), FXS_INT(60)), 0, &room);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(4), f.x);
  TEST_ASSERT_EQUAL_INT32(0, f.y);
}

// With room to run straight away (no wall within the look-ahead), the escape is exactly
// plain flee and plain evade, for many seeded cases.
void test_with_room_to_run_the_escape_is_plain_flee_and_evade(void) {
  fxs_wall w = wall_of(-5000, -5000, 5000, -5000);
  fxs_escape_room room = room_of(&w, 1);
  uint32_t seed = 26;
  for (int i = 0; i < 500; ++i) {
    fxs_agent a = fxs_default_agent();
    a.position = fxs_test_point(&seed, -1000, 1000);
    a.velocity = fxs_vec2_make(fxs_test_units(&seed, -4, 4), fxs_test_units(&seed, -4, 4));
    fxs_agent h = fxs_default_agent();
    h.position = fxs_test_point(&seed, -1000, 1000);
    h.velocity = fxs_vec2_make(fxs_test_units(&seed, -3, 3), 0);
    fxs_vec2 flee = fxs_flee(&a, h.position, 0), within = fxs_flee_within(&a, h.position, 0, &room);
    TEST_ASSERT_TRUE(fxs_vec2_equal(flee, within));
    fxs_vec2 evade = fxs_evade(&a, &h, FXS_INT(30), 0);
    TEST_ASSERT_TRUE(fxs_vec2_equal(evade, fxs_evade_within(&a, &h, FXS_INT(30), 0, &room)));
  }
}

// Any walls, bounds, positions and velocities (extremes included, valid limits): a force
// without the 0x80000000 sentinel, and no undefined behavior (checked under UBSan too).
void test_escape_is_defined_for_extreme_inputs(void) {
  uint32_t seed = 6;
  for (int i = 0; i < 3000; ++i) {
    fxs_wall w[8];
    for (int k = 0; k < 8; ++k) {
      w[k].a = fxs_test_any_point(&seed);
      w[k].b = fxs_test_any_point(&seed);
    }
    fxs_escape_room room = room_of(w, 8);
    room.bounded = (uint8_t)(i & 1);
    room.bounds_min = fxs_test_any_point(&seed);
    room.bounds_max = fxs_test_any_point(&seed);
    fxs_agent a = fxs_default_agent();
    a.position = fxs_test_any_point(&seed);
    a.velocity = fxs_vec2_make(fxs_test_units(&seed, -8, 8), fxs_test_units(&seed, -8, 8));
    a.radius = fxs_abs(fxs_test_any_raw(&seed) / 256);
    fxs_agent h = fxs_default_agent();
    h.position = fxs_test_any_point(&seed);
    fxs_vec2 f = fxs_flee_within(&a, h.position, 0, &room);
    fxs_vec2 e = fxs_evade_within(&a, &h, FXS_INT(30), 0, &room);
    TEST_ASSERT_TRUE(f.x != INT32_MIN && f.y != INT32_MIN && e.x != INT32_MIN && e.y != INT32_MIN);
  }
}

// Into a wall the run is what is left before the body touches it; along it, the look-ahead.
void test_the_run_stops_a_radius_short_of_a_wall(void) {
  fxs_wall w = wall_of(-300, -100, 300, -100);
  fxs_escape_room room = room_of(&w, 1);
  fxs_agent a = fxs_test_agent_at(0, 0);
  fix16_t look = fxs_escape_look_ahead(&a);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(160), look);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(92), fxs_escape_run(&a, fxs_vec2_make(0, -FXS_ONE), &room, look));
  TEST_ASSERT_EQUAL_INT32(look, fxs_escape_run(&a, fxs_vec2_make(FXS_ONE, 0), &room, look));
  TEST_ASSERT_EQUAL_INT32(look, fxs_escape_run(&a, fxs_vec2_make(0, FXS_ONE), &room, look));
}

// ---------------------------------------------------------------- in the world's step

static fxs_agent_handle spawn(int x, int y, fix16_t max_speed, fix16_t max_force, int radius) {
  fxs_agent_handle h = {0};
  fxs_command c = fxs_command_make(FXS_CMD_SPAWN, 0, 0);
  c.arg[0] = FXS_INT(x), c.arg[1] = FXS_INT(y);
  c.arg[4] = max_speed, c.arg[5] = max_force, c.arg[6] = FXS_ONE, c.arg[7] = FXS_INT(radius);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, &h));
  return h;
}

static void command(fxs_command c) { TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(&world, &c, 0)); }

static void add_wall(int ax, int ay, int bx, int by) {
  fxs_command c = fxs_command_make(FXS_CMD_ADD_WALL, 0, 0);
  c.arg[0] = FXS_INT(ax), c.arg[1] = FXS_INT(ay), c.arg[2] = FXS_INT(bx), c.arg[3] = FXS_INT(by);
  command(c);
}

static void behave(fxs_agent_handle h, fxs_behavior kind) {
  fxs_behavior_slot b = fxs_behavior_slot_default(kind);
  fxs_command c = fxs_command_make(FXS_CMD_ADD_BEHAVIOR, 0, 0);
  c.agent = h.value, c.ref = (uint32_t)kind, c.arg[0] = b.weight;
  for (int i = 0; i < FXS_BEHAVIOR_PARAMS; ++i) c.arg[1 + i] = b.p[i];
  command(c);
}

static void chase(fxs_agent_handle h, fxs_agent_handle target) {
  fxs_command c = fxs_command_make(FXS_CMD_SET_TARGET_AGENT, 0, 0);
  c.agent = h.value, c.ref = target.value;
  command(c);
}

// A fleeing agent with a wall right behind it and its threat straight ahead runs off along
// the wall; plain flee pressed it into the wall, where it stood still.
void test_a_fleeing_agent_backed_against_a_wall_slides_away_along_it(void) {
  add_wall(0, 490, 1000, 490);
  fxs_agent_handle h = spawn(500, 480, FXS_INT(4), FXS_RATIO(1, 4), 8);
  behave(h, FXS_BEHAVIOR_FLEE);
  fxs_command c = fxs_command_make(FXS_CMD_SET_TARGET_POINT, 0, 0);
  c.agent = h.value, c.arg[0] = FXS_INT(500), c.arg[1] = FXS_INT(400);
  command(c);
  for (int t = 0; t < 60; ++t) fxs_world_step(&world, 0, 0, 0);
  const fxs_agent *a = fxs_world_agent(&world, h);
  TEST_ASSERT_TRUE(a->position.x < FXS_INT(400)); // along -x, counter-clockwise from away (+y)
  TEST_ASSERT_TRUE(a->position.y <= FXS_INT(482));
}

// An evader cornered by two walls, the hunter coming at it along the corner's diagonal:
// it escapes along a wall and the hunter never touches it; plain evade pressed it into the
// corner and the hunter caught it there.
void test_a_cornered_evader_escapes_along_a_wall(void) {
  add_wall(0, 0, 800, 0);
  add_wall(0, 0, 0, 800);
  fxs_agent_handle prey = spawn(20, 20, FXS_INT(3), FXS_RATIO(1, 4), 8);
  fxs_agent_handle hunter = spawn(120, 120, FXS_INT(2), FXS_RATIO(1, 4), 8);
  behave(prey, FXS_BEHAVIOR_EVADE);
  behave(hunter, FXS_BEHAVIOR_PURSUIT);
  chase(prey, hunter);
  chase(hunter, prey);
  fix16_t closest = FXS_MAX;
  for (int t = 0; t < 200; ++t) {
    fxs_world_step(&world, 0, 0, 0);
    fix16_t d = fxs_vec2_distance(fxs_world_agent(&world, prey)->position,
                                  fxs_world_agent(&world, hunter)->position);
    if (d < closest) closest = d;
  }
  const fxs_agent *a = fxs_world_agent(&world, prey);
  TEST_ASSERT_TRUE(closest > FXS_INT(16));                       // the bodies never touched
  TEST_ASSERT_TRUE(fxs_vec2_length(a->position) > FXS_INT(300)); // far out of the corner
}

static void add_obstacle(int x, int y, int r) {
  fxs_command c = fxs_command_make(FXS_CMD_ADD_OBSTACLE, 0, 0);
  c.arg[0] = FXS_INT(x), c.arg[1] = FXS_INT(y), c.arg[2] = FXS_INT(r);
  command(c);
}

// Two hiders, both nearest to the spot behind obstacle A, hide from a hunter standing at the
// origin: the hider of the lower slot takes A's spot (136, 0), the other B's (0, 136).
// Before, both went to A's spot and stood on top of each other.
void test_two_hiders_take_different_spots(void) {
  add_obstacle(100, 0, 20);
  add_obstacle(0, 100, 20);
  fxs_agent_handle hunter = spawn(0, 0, FXS_INT(2), FXS_RATIO(1, 4), 8);
  fxs_agent_handle first = spawn(140, 10, FXS_INT(3), FXS_RATIO(1, 4), 8);
  fxs_agent_handle second = spawn(130, 5, FXS_INT(3), FXS_RATIO(1, 4), 8);
  behave(first, FXS_BEHAVIOR_HIDE);
  behave(second, FXS_BEHAVIOR_HIDE);
  chase(first, hunter);
  chase(second, hunter);
  for (int t = 0; t < 600; ++t) fxs_world_step(&world, 0, 0, 0);
  const fxs_agent *a = fxs_world_agent(&world, first), *b = fxs_world_agent(&world, second);
  TEST_ASSERT_TRUE(fxs_vec2_within(a->position, fxs_vec2_make(FXS_INT(136), 0), FXS_INT(1)));
  TEST_ASSERT_TRUE(fxs_vec2_within(b->position, fxs_vec2_make(0, FXS_INT(136)), FXS_INT(1)));
}
