// Helpers for the navigation world tests: a 400 x 400 world, a 40 x 40 grid of 10-unit cells,
// walls, and navigate agents. Assert through Unity; include after unity.h and the library.
#ifndef FXS_NAV_TEST_H
#define FXS_NAV_TEST_H

#include <stdbool.h>

#include "fixsteer/command_build.h"
#include "fixsteer/snapshot.h"
#include "fxs_test_util.h"
#include "fixsteer/world.h"

// A test's own stream of numbers (xorshift32): set *nav_rng() to a seed (not 0), then draw.
static inline uint32_t *nav_rng(void) {
  static uint32_t state = 1;
  return &state;
}
static inline uint32_t nav_next_u32(void) {
  uint32_t *s = nav_rng();
  *s ^= *s << 13;
  *s ^= *s >> 17;
  *s ^= *s << 5;
  return *s;
}
// Uniform enough below n (n > 0), and in [lo, hi].
static inline uint32_t nav_below(uint32_t n) { return nav_next_u32() % n; }
static inline int32_t nav_between(int32_t lo, int32_t hi) {
  return (int32_t)((int64_t)lo + nav_below((uint32_t)((int64_t)hi - lo + 1)));
}

static inline void nav_world_init(fxs_world *w, uint64_t seed, const fxs_world_capacity *c,
                                  uint64_t *mem, size_t size) {
  fxs_world_def def = fxs_default_world_def();
  def.seed = seed;
  def.bounds_max = fxs_vec2_make(FXS_INT(400), FXS_INT(400));
  TEST_ASSERT_TRUE(fxs_world_memory_size(c) > 0);
  TEST_ASSERT_TRUE(fxs_world_memory_size(c) <= size);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_init(w, &def, c, mem, size));
}

static inline fxs_result nav_apply(fxs_world *w, fxs_command c) {
  return fxs_world_apply(w, &c, 0);
}
static inline fxs_vec2 nav_point(int x, int y) { return fxs_vec2_make(FXS_INT(x), FXS_INT(y)); }

// A 40 x 40 grid of 10-unit cells over the 400 x 400 world, radius 8, `budget` a tick.
static inline void nav_grid(fxs_world *w, uint32_t budget) {
  fxs_command c =
      fxs_command_set_nav_grid(nav_point(0, 0), FXS_INT(10), 40, 40, FXS_INT(8), budget);
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, c));
}

static inline void nav_wall(fxs_world *w, int ax, int ay, int bx, int by) {
  fxs_wall x = {nav_point(ax, ay), nav_point(bx, by)};
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, fxs_command_add_wall(x)));
}

// A navigating agent at (x, y) with target (tx, ty): speed 2, force 0.25, radius 8.
static inline fxs_agent_handle nav_navigator(fxs_world *w, int x, int y, int tx, int ty) {
  fxs_spawn_def s = fxs_default_spawn_def();
  s.position = nav_point(x, y), s.max_speed = FXS_INT(2);
  fxs_agent_handle h = {0};
  fxs_command c = fxs_command_spawn(&s);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(w, &c, &h));
  fxs_orca_def d = fxs_default_orca_def();
  c = fxs_command_add_navigate(h, fxs_default_blend(), FXS_INT(40), &d);
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, c));
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, fxs_command_set_target_point(h, nav_point(tx, ty))));
  return h;
}

// The body of scenarios/nav_crowd.yaml's agents at (x, y), without behaviors: radius 5, speed
// 2, force 0.25.
static inline fxs_agent_handle nav_crowd_body(fxs_world *w, int x, int y) {
  fxs_spawn_def s = fxs_default_spawn_def();
  s.position = nav_point(x, y), s.radius = FXS_INT(5), s.max_speed = FXS_INT(2);
  s.max_force = FXS_ONE / 4;
  fxs_agent_handle h = {0};
  fxs_command c = fxs_command_spawn(&s);
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_apply(w, &c, &h));
  return h;
}

// A navigating agent of scenarios/nav_crowd.yaml's kind at (x, y) with target (tx, ty):
// radius 5, speed 2, force 0.25, ORCA's defaults but neighbor_radius 7 (more room than the
// bodies take).
static inline fxs_agent_handle nav_crowd_walker(fxs_world *w, int x, int y, int tx, int ty) {
  fxs_agent_handle h = nav_crowd_body(w, x, y);
  fxs_command c;
  fxs_orca_def d = fxs_default_orca_def();
  d.neighbor_radius = FXS_INT(7);
  c = fxs_command_add_navigate(h, fxs_default_blend(), FXS_INT(40), &d);
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, c));
  TEST_ASSERT_EQUAL(FXS_OK, nav_apply(w, fxs_command_set_target_point(h, nav_point(tx, ty))));
  return h;
}

// Saves w into out, of `capacity` bytes; the snapshot's size.
static inline size_t nav_save(const fxs_world *w, uint8_t *out, size_t capacity) {
  size_t size = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_save(w, out, capacity, &size));
  return size;
}

// Restores w from the snapshot bytes[0, size).
static inline void nav_restore(fxs_world *w, const uint8_t *bytes, size_t size) {
  size_t at = 0;
  TEST_ASSERT_EQUAL(FXS_OK, fxs_world_restore(w, bytes, size, &at));
}

// True when the segment a-b meets the wall (touching counts), in doubles: the test's own
// referee, independent of the library's geometry.
static inline bool nav_crosses(fxs_vec2 a, fxs_vec2 b, fxs_wall w) {
  double ax = fxs_test_to_double(a.x), ay = fxs_test_to_double(a.y);
  double bx = fxs_test_to_double(b.x), by = fxs_test_to_double(b.y);
  double cx = fxs_test_to_double(w.a.x), cy = fxs_test_to_double(w.a.y);
  double dx = fxs_test_to_double(w.b.x), dy = fxs_test_to_double(w.b.y);
  double d1 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  double d2 = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax);
  double d3 = (dx - cx) * (ay - cy) - (dy - cy) * (ax - cx);
  double d4 = (dx - cx) * (by - cy) - (dy - cy) * (bx - cx);
  bool one = (d1 > 0) != (d2 > 0) || d1 == 0 || d2 == 0;
  return one && ((d3 > 0) != (d4 > 0) || d3 == 0 || d4 == 0);
}

#endif
