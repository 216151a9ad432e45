// The world's obstacle grid: an agent's avoidance tests only the obstacles near it, and picks
// what a test of every obstacle picks.
#include <string.h>

#include "unity.h"

#include "vec2.h"
#include "agent.h"
#include "avoidance.h"
#include "result.h"
#include "world.h"
#include "world_internal.h"
#include "world_grid.h"
#include "world_obstacles.h"

#define OBSTACLES 600u

static const fxs_world_capacity cap = {4, OBSTACLES, 0, 0, 0};
static uint64_t memory[32768];
static fxs_world world;
static uint64_t seed;

static uint32_t next_random(void) {
  seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
  return (uint32_t)(seed >> 16);
}

// A value in [lo, hi] world units, raw.
static fix16_t between(int lo, int hi) {
  return FXS_INT(lo) + (fix16_t)(next_random() % (uint32_t)(FXS_INT(hi - lo) + 1));
}

void setUp(void) {
  fxs_world_def def = fxs_default_world_def(); // 0..4096 on both axes
  seed = 0x9E3779B97F4A7C15u;
  TEST_ASSERT_TRUE(fxs_world_memory_size(&cap) <= sizeof memory);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(&world, &def, &cap, memory, sizeof memory));
}
void tearDown(void) {}

// n obstacles of radius 2..max_r, centres inside the bounds and up to 100 units outside them.
static void scatter(uint32_t n, int max_r) {
  for (uint32_t i = 0; i < n; ++i) {
    world.internal->live_obstacles[i].center =
        fxs_vec2_make(between(-100, 4196), between(-100, 4196));
    world.internal->live_obstacles[i].radius = between(2, max_r);
  }
}

typedef struct lookup_context {
  const fxs_obstacle_grid *grid;
  uint32_t out[FXS_NEAR_OBSTACLES];
  uint32_t calls, all;
} lookup_context;

static uint32_t grid_lookup(void *context, const fxs_box *box, const uint32_t **among) {
  lookup_context *c = (lookup_context *)context;
  c->calls++;
  *among = c->out;
  uint32_t n = fxs_obstacle_grid_find(&world, c->grid, box, c->out, FXS_NEAR_OBSTACLES);
  if (n == FXS_ALL_OBSTACLES) c->all++;
  return n;
}

// Random agents among n obstacles, in both detection modes: the force from the grid's
// candidates equals the force from all obstacles. Returns how many agents had a force.
static uint32_t agents_avoid_as_with_every_obstacle(uint32_t n, uint32_t agents,
                                                    lookup_context *c) {
  uint32_t pushed = 0;
  for (uint32_t k = 0; k < agents; ++k) {
    fxs_agent a = fxs_default_agent();
    a.position = fxs_vec2_make(between(-50, 4146), between(-50, 4146));
    a.velocity = fxs_vec2_make(between(-6, 6), between(-6, 6));
    a.radius = between(0, 12);
    a.max_speed = FXS_INT(6);
    fxs_avoidance_def d = fxs_default_avoidance_def();
    d.max_see_ahead = between(10, 120);
    d.margin = between(0, 2);
    d.mode = (k & 1u) ? FXS_AVOID_PROBES : FXS_AVOID_SWEPT;
    fxs_vec2 all = fxs_avoid_obstacles(&a, world.internal->live_obstacles, n, &d);
    fxs_vec2 near = fxs_avoid_obstacles_near(&a, world.internal->live_obstacles, n,
                                             c->grid->max_radius, grid_lookup, c, &d);
    TEST_ASSERT_EQUAL_INT32(all.x, near.x);
    TEST_ASSERT_EQUAL_INT32(all.y, near.y);
    pushed += !fxs_vec2_is_zero(all);
  }
  return pushed;
}

void test_avoidance_through_the_obstacle_grid_picks_what_a_scan_of_all_picks(void) {
  scatter(OBSTACLES, 40);
  fxs_obstacle_grid g = fxs_obstacle_grid_build(&world, OBSTACLES);
  lookup_context c = {&g, {0}, 0, 0};
  uint32_t pushed = agents_avoid_as_with_every_obstacle(OBSTACLES, 20000, &c);
  TEST_ASSERT_EQUAL_UINT32(20000, c.calls);
  TEST_ASSERT_TRUE_MESSAGE(pushed > 2000, "few agents met an obstacle: a weak test");
  TEST_ASSERT_TRUE_MESSAGE(c.all < 100, "the grid rarely narrows the search");
}

void test_a_dense_field_with_one_huge_obstacle_falls_back_to_testing_all(void) {
  scatter(OBSTACLES, 6);
  world.internal->live_obstacles[123].radius = FXS_INT(900); // every box becomes huge
  world.internal->live_obstacles[123].center = fxs_vec2_make(FXS_INT(2048), FXS_INT(2048));
  fxs_obstacle_grid g = fxs_obstacle_grid_build(&world, OBSTACLES);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(900), g.max_radius);
  lookup_context c = {&g, {0}, 0, 0};
  uint32_t pushed = agents_avoid_as_with_every_obstacle(OBSTACLES, 3000, &c);
  TEST_ASSERT_TRUE(pushed > 300);
  TEST_ASSERT_TRUE(c.all > 2900);
}

void test_the_grid_finds_every_centre_in_a_box_in_ascending_order(void) {
  scatter(OBSTACLES, 30);
  fxs_obstacle_grid g = fxs_obstacle_grid_build(&world, OBSTACLES);
  for (int k = 0; k < 2000; ++k) {
    fxs_box b;
    b.lo_x = between(-200, 4200), b.lo_y = between(-200, 4200);
    b.hi_x = b.lo_x + between(0, 300), b.hi_y = b.lo_y + between(0, 300);
    uint32_t out[FXS_NEAR_OBSTACLES];
    uint32_t n = fxs_obstacle_grid_find(&world, &g, &b, out, FXS_NEAR_OBSTACLES);
    uint32_t inside = 0;
    for (uint32_t i = 0; i < OBSTACLES; ++i) {
      fxs_vec2 p = world.internal->live_obstacles[i].center;
      inside += p.x >= b.lo_x && p.x <= b.hi_x && p.y >= b.lo_y && p.y <= b.hi_y;
    }
    if (n == FXS_ALL_OBSTACLES) {
      TEST_ASSERT_TRUE(inside > 0);
      continue;
    }
    TEST_ASSERT_TRUE(n >= inside);
    for (uint32_t j = 1; j < n; ++j) TEST_ASSERT_TRUE(out[j - 1] < out[j]);
    uint32_t found = 0;
    for (uint32_t j = 0; j < n; ++j) {
      fxs_vec2 p = world.internal->live_obstacles[out[j]].center;
      found += p.x >= b.lo_x && p.x <= b.hi_x && p.y >= b.lo_y && p.y <= b.hi_y;
    }
    TEST_ASSERT_EQUAL_UINT32(inside, found);
  }
}

void test_a_world_without_obstacles_has_an_empty_grid(void) {
  fxs_obstacle_grid g = fxs_obstacle_grid_build(&world, 0);
  fxs_box b = {INT64_MIN / 4, INT64_MIN / 4, INT64_MAX / 4, INT64_MAX / 4};
  uint32_t out[FXS_NEAR_OBSTACLES];
  TEST_ASSERT_EQUAL_UINT32(0, fxs_obstacle_grid_find(&world, &g, &b, out, FXS_NEAR_OBSTACLES));
  TEST_ASSERT_EQUAL_INT32(0, g.max_radius);
}
