// Walls and obstacles are solid: a move of a tick is kept out of them (world_contact.h), the
// part into a wall removed and the part along it kept; and an agent whose forces cancel comes
// to rest instead of flipping its velocity every tick.
#include <string.h>

#include "unity.h"

#include <string.h>
#include "unity.h"
#include "vec2.h"
#include "agent.h"
#include "behavior.h"
#include "manager.h"
#include "avoidance.h"
#include "result.h"
#include "command.h"
#include "behavior_params.h"
#include "world.h"
#include "world_internal.h"
#include "world_grid.h"
#include "world_obstacles.h"
#include "world_contact.h"

// The default body's contact slack (radius 8 / FXS_SLACK_DIVISOR: 1/64 unit) and rest speed
// (max_speed 4 / FXS_REST_SPEED_DIVISOR: 1/16 unit a tick), as agent.h defines them.
#define SLACK (FXS_INT(8) / FXS_SLACK_DIVISOR)
#define REST (FXS_INT(4) / FXS_REST_SPEED_DIVISOR)

static const fxs_world_capacity cap = {8, 8, 0, 0, 8, 0, 0};
static uint64_t memory[16384];
static fxs_world world;
static fxs_contact_world cw;
static fxs_obstacle_grid grid;
static uint32_t scratch[FXS_NEAR_OBSTACLES];

void setUp(void) {
  fxs_world_def def = fxs_default_world_def();
  TEST_ASSERT_TRUE(fxs_world_memory_size(&cap) <= sizeof memory);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&world, &def, &cap, memory, sizeof memory));
  memset(&cw, 0, sizeof cw);
  cw.world = &world;
  cw.grid = &grid;
}
void tearDown(void) {}

static void wall(int ax, int ay, int bx, int by) {
  fxs_wall w = {fxs_vec2_make(FXS_INT(ax), FXS_INT(ay)), fxs_vec2_make(FXS_INT(bx), FXS_INT(by))};
  world.internal->live_walls[cw.wall_count++] = w;
}

static void obstacle(int x, int y, int r) {
  fxs_obstacle o = {fxs_vec2_make(FXS_INT(x), FXS_INT(y)), FXS_INT(r)};
  world.internal->live_obstacles[cw.obstacle_count++] = o;
  grid = fxs_obstacle_grid_build(&world, cw.obstacle_count);
}

// The body of radius 8 at `start` asked to move by (mx, my) (raw); returns it after contact.
static fxs_agent move(fix16_t sx, fix16_t sy, fix16_t mx, fix16_t my) {
  fxs_agent before = fxs_default_agent(); // radius 8, max_speed 4
  before.position = fxs_vec2_make(sx, sy);
  before.velocity = fxs_vec2_make(mx, my);
  fxs_agent a = before;
  a.position = fxs_vec2_make(sx + mx, sy + my);
  fxs_contact_resolve(&cw, &before, &a, scratch, FXS_NEAR_OBSTACLES);
  return a;
}

// Where a body of radius 8 rests against a wall at w: radius and slack away.
static fix16_t resting(int w, int side) { return FXS_INT(w) + side * (FXS_INT(8) + SLACK); }

void test_a_move_into_a_wall_keeps_its_part_along_the_wall(void) {
  wall(0, 500, 4000, 500);
  fxs_agent a = move(FXS_INT(100), FXS_INT(480), FXS_INT(3), FXS_INT(15));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(103), a.position.x);
  TEST_ASSERT_EQUAL_INT32(resting(500, -1), a.position.y);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(3), a.velocity.x);
  TEST_ASSERT_EQUAL_INT32(resting(500, -1) - FXS_INT(480), a.velocity.y);
}

void test_a_body_pressed_straight_into_a_wall_stays_exactly_at_rest(void) {
  wall(0, 500, 4000, 500);
  wall(700, 0, 700, 4000);
  fxs_agent a = move(FXS_INT(100), resting(500, -1), 0, FXS_RATIO(1, 4));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(100), a.position.x);
  TEST_ASSERT_EQUAL_INT32(resting(500, -1), a.position.y);
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(a.velocity));
  a = move(resting(700, 1), FXS_INT(900), -FXS_RATIO(3, 7), 0); // from the other side
  TEST_ASSERT_EQUAL_INT32(resting(700, 1), a.position.x);
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(a.velocity));
}

void test_a_fast_move_cannot_pass_through_a_wall(void) {
  wall(0, 500, 4000, 500);
  fxs_agent a = move(FXS_INT(100), FXS_INT(400), 0, FXS_INT(300));
  TEST_ASSERT_EQUAL_INT32(resting(500, -1), a.position.y);
  a = move(FXS_INT(100), FXS_INT(400), FXS_INT(150), FXS_INT(900)); // long and slanted
  TEST_ASSERT_EQUAL_INT32(resting(500, -1), a.position.y);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(250), a.position.x);
}

void test_a_move_into_an_obstacle_stops_at_its_edge(void) {
  obstacle(200, 200, 10);
  fxs_agent a = move(FXS_INT(170), FXS_INT(200), FXS_INT(20), 0);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(200) - FXS_INT(18) - SLACK, a.position.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(200), a.position.y);
}

void test_a_corner_stops_both_parts_of_a_move(void) {
  wall(0, 500, 500, 500);
  wall(500, 0, 500, 500);
  fxs_agent a = move(FXS_INT(480), FXS_INT(470), FXS_INT(30), FXS_INT(30));
  TEST_ASSERT_EQUAL_INT32(resting(500, -1), a.position.x);
  TEST_ASSERT_EQUAL_INT32(resting(500, -1), a.position.y);
}

void test_a_body_passes_round_the_end_of_a_wall(void) {
  wall(0, 500, 300, 500);
  // Beside the end, moving up past it: nothing in the way, the move is kept as asked.
  fxs_agent a = move(FXS_INT(320), FXS_INT(490), 0, FXS_INT(20));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(320), a.position.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(510), a.position.y);
  // Straight at the end: stops a radius and the slack from it.
  a = move(FXS_INT(320), FXS_INT(500), -FXS_INT(15), 0);
  TEST_ASSERT_EQUAL_INT32(resting(300, 1), a.position.x);
}

void test_a_body_that_starts_inside_an_obstacle_is_moved_out_at_most_max_speed_a_tick(void) {
  obstacle(200, 200, 30);
  fxs_agent a = move(FXS_INT(210), FXS_INT(200), 0, 0);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(214), a.position.x); // max_speed 4, straight out
  TEST_ASSERT_EQUAL_INT32(FXS_INT(200), a.position.y);
}

void test_moves_away_from_every_wall_are_left_alone(void) {
  wall(0, 500, 4000, 500);
  obstacle(100, 400, 20);
  fxs_agent a = move(FXS_INT(130), FXS_INT(480), FXS_INT(3), -FXS_INT(2));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(133), a.position.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(478), a.position.y);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(3), a.velocity.x);
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

static void add_wall_cmd(int ax, int ay, int bx, int by) {
  fxs_command c = fxs_command_make(FXS_CMD_ADD_WALL, 0, 0);
  c.arg[0] = FXS_INT(ax), c.arg[1] = FXS_INT(ay), c.arg[2] = FXS_INT(bx), c.arg[3] = FXS_INT(by);
  command(c);
}

static void behave(fxs_agent_handle h, fxs_behavior kind, uint8_t priority) {
  fxs_behavior_slot b = fxs_behavior_slot_default(kind);
  fxs_command c = fxs_command_make(FXS_CMD_ADD_BEHAVIOR, 0, 0);
  c.agent = h.value, c.ref = (uint32_t)kind | ((uint32_t)priority << 8), c.arg[0] = b.weight;
  for (int i = 0; i < FXS_BEHAVIOR_PARAMS; ++i) c.arg[1 + i] = b.p[i];
  command(c);
}

static void aim(fxs_agent_handle h, int x, int y) {
  fxs_command c = fxs_command_make(FXS_CMD_SET_TARGET_POINT, 0, 0);
  c.agent = h.value, c.arg[0] = FXS_INT(x), c.arg[1] = FXS_INT(y);
  command(c);
}

void test_a_fast_seeker_never_crosses_a_wall_and_rests_against_it(void) {
  add_wall_cmd(0, 500, 1000, 500);
  fxs_agent_handle h = spawn(500, 100, FXS_INT(40), FXS_INT(40), 1);
  behave(h, FXS_BEHAVIOR_SEEK, 0);
  aim(h, 500, 900);
  const fix16_t slack = FXS_INT(1) / FXS_SLACK_DIVISOR; // its radius is 1
  for (int t = 0; t < 40; ++t) {
    fxs_world_step(&world, 0, 0, 0);
    TEST_ASSERT_TRUE(fxs_world_agent(&world, h)->position.y <= FXS_INT(499) - slack);
  }
  const fxs_agent *a = fxs_world_agent(&world, h);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(499) - slack, a->position.y);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(500), a->position.x);
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(a->velocity));
}

// The stalemate: a target straight behind a wall, avoidance first. The agent comes to rest
// against the wall and stays: no velocity reversal at any tick, the heading kept.
void test_a_target_behind_a_wall_ends_in_rest_not_flicker(void) {
  add_wall_cmd(200, 500, 800, 500);
  fxs_agent_handle h = spawn(500, 200, FXS_INT(4), FXS_RATIO(1, 4), 8);
  fxs_command c = fxs_command_make(FXS_CMD_CLEAR_BEHAVIORS, 0, 0);
  c.agent = h.value, c.ref = FXS_COMBINE_PRIORITIZED_SUM;
  command(c);
  behave(h, FXS_BEHAVIOR_AVOID, 0);
  behave(h, FXS_BEHAVIOR_ARRIVE, 1);
  aim(h, 500, 800);
  fxs_vec2 before = fxs_vec2_zero();
  int reversals = 0;
  for (int t = 0; t < 400; ++t) {
    fxs_world_step(&world, 0, 0, 0);
    fxs_vec2 v = fxs_world_agent(&world, h)->velocity;
    if ((int64_t)v.x * before.x + (int64_t)v.y * before.y < 0) reversals++;
    before = v;
  }
  TEST_ASSERT_EQUAL_INT(0, reversals);
  fxs_agent rest = *fxs_world_agent(&world, h);
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(rest.velocity));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(500) - FXS_INT(8) - SLACK, rest.position.y);
  for (int t = 0; t < 100; ++t) {
    fxs_world_step(&world, 0, 0, 0);
    const fxs_agent *a = fxs_world_agent(&world, h);
    TEST_ASSERT_TRUE(fxs_vec2_equal(rest.position, a->position));
    TEST_ASSERT_EQUAL_INT32(rest.orientation, a->orientation);
  }
}

// Static friction: a slide no faster than the rest speed on both axes is no slide.
void test_a_slide_slower_than_the_rest_speed_is_no_slide(void) {
  wall(0, 500, 4000, 500);
  fxs_agent a = move(FXS_INT(100), resting(500, -1), REST, FXS_RATIO(1, 4));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(100), a.position.x);
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(a.velocity));
  a = move(FXS_INT(100), resting(500, -1), REST + 1, FXS_RATIO(1, 4));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(100) + REST + 1, a.position.x);
  TEST_ASSERT_EQUAL_INT32(REST + 1, a.velocity.x);
  TEST_ASSERT_EQUAL_INT32(0, a.velocity.y);
}

// A slide that contact turns back against the agent's velocity of the last tick stops first
// (calm rest): in a sharp corner the projection can point back the way the agent came.
void test_a_slide_that_would_turn_back_stops_instead(void) {
  wall(0, 500, 4000, 500);
  fxs_agent before = fxs_default_agent();
  before.position = fxs_vec2_make(FXS_INT(100), resting(500, -1));
  before.velocity = fxs_vec2_make(-FXS_INT(1), 0); // it was moving in -x
  fxs_agent a = before;
  a.velocity = fxs_vec2_make(FXS_INT(2), FXS_INT(3)); // now asked +x and into the wall
  a.position = fxs_vec2_add(before.position, a.velocity);
  TEST_ASSERT_TRUE(fxs_contact_resolve(&cw, &before, &a, scratch, FXS_NEAR_OBSTACLES));
  TEST_ASSERT_TRUE(fxs_vec2_equal(before.position, a.position));
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(a.velocity));
}

// The slack and the rest speed derive from the body (agent.h): the values above for the
// default agent, and a sixteenth of them for one sixteen times smaller.
void test_the_slack_and_the_rest_speed_scale_with_the_body(void) {
  fxs_agent a = fxs_default_agent();
  TEST_ASSERT_EQUAL_INT32(1024, fxs_agent_contact_slack(&a));
  TEST_ASSERT_EQUAL_INT32(4096, fxs_agent_rest_speed(&a));
  TEST_ASSERT_EQUAL_INT32(FXS_ONE, fxs_agent_touch(&a));
  a.radius = FXS_RATIO(1, 2), a.max_speed = FXS_RATIO(1, 4);
  TEST_ASSERT_EQUAL_INT32(FXS_SLACK_FLOOR, fxs_agent_contact_slack(&a)); // 64 raw: the floor
  TEST_ASSERT_EQUAL_INT32(256, fxs_agent_rest_speed(&a));
  TEST_ASSERT_EQUAL_INT32(FXS_ONE / 16, fxs_agent_touch(&a));
}

// Another agent's body is solid: a move straight into a still body (that does not keep off
// in turn) stops a slack short of touching, less the give (FXS_CONTACT_GIVE_DIVISOR).
static fxs_contact_body body_at(int x, int y, int radius, bool halves) {
  fxs_contact_body b = {fxs_vec2_make(FXS_INT(x), FXS_INT(y)), FXS_INT(radius), (uint8_t)halves};
  return b;
}

void test_a_move_into_another_body_stops_at_it(void) {
  fxs_contact_body b = body_at(120, 100, 8, false);
  cw.bodies = &b, cw.body_count = 1;
  fxs_agent a = move(FXS_INT(100), FXS_INT(100), FXS_INT(6), 0); // asked from 20 apart to 14
  fix16_t give = (FXS_INT(8) + SLACK + FXS_INT(8)) / FXS_CONTACT_GIVE_DIVISOR;
  TEST_ASSERT_EQUAL_INT32(FXS_INT(104) - SLACK + give, a.position.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(100), a.position.y);
  // A move that ends within the give is not changed.
  a = move(FXS_INT(100), FXS_INT(100), FXS_INT(4), 0);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(104), a.position.x);
}

// Two agents that both keep off each other close at most half the gap each: together they
// end apart however fast both move toward each other.
void test_two_bodies_that_keep_off_each_other_close_half_the_gap_each(void) {
  fxs_contact_body b = body_at(120, 100, 8, true);
  cw.bodies = &b, cw.body_count = 1;
  fxs_agent a = move(FXS_INT(100), FXS_INT(100), FXS_INT(6), 0);
  fix16_t give = (FXS_INT(8) + SLACK + FXS_INT(8)) / FXS_CONTACT_GIVE_DIVISOR;
  fix16_t gap = FXS_INT(4) - SLACK + give; // 20 - 16 - slack + give
  TEST_ASSERT_EQUAL_INT32(FXS_INT(100) + gap / 2, a.position.x);
}

// A move along another body, not into it, is not changed.
void test_a_move_past_another_body_is_not_changed(void) {
  fxs_contact_body b = body_at(120, 100, 8, true);
  cw.bodies = &b, cw.body_count = 1;
  fxs_agent a = move(FXS_INT(100), FXS_INT(100), -FXS_INT(3), FXS_INT(1));
  TEST_ASSERT_EQUAL_INT32(FXS_INT(97), a.position.x);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(101), a.position.y);
}
