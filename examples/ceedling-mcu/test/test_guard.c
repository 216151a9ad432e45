// The guard's behaviour pinned to the raw Q16.16 bit: the same assertions pass on the
// desktop and on the Cortex-M3, because fixsteer computes the same bits on both.
#include "unity.h"

#include "guard.h"

void setUp(void) {}
void tearDown(void) {}

// Three posts: along +x for 100 units, then 60 units along +y.
static const guard_route yard = {
    {{FXS_INT(0), FXS_INT(0)}, {FXS_INT(100), FXS_INT(0)}, {FXS_INT(100), FXS_INT(60)}}, 3};

static void walk(guard *g, int ticks) {
  for (int t = 0; t < ticks; ++t) guard_step(g, NULL);
}

void test_the_installed_fixsteer_is_the_pinned_build_of_the_headers_version(void) {
  TEST_ASSERT_EQUAL_HEX64(FXS_MATH_FINGERPRINT_PINNED, fxs_math_fingerprint());
  TEST_ASSERT_EQUAL_STRING(FXS_VERSION_STRING, fxs_version());
}

void test_a_new_guard_stands_at_the_first_post(void) {
  guard g;
  guard_init(&g, &yard);
  TEST_ASSERT_EQUAL_INT32(0, g.body.position.x);
  TEST_ASSERT_EQUAL_INT32(0, g.body.position.y);
  TEST_ASSERT_TRUE(fxs_vec2_is_zero(g.body.velocity));
  TEST_ASSERT_EQUAL_UINT16(0, g.progress.current_node);
}

void test_the_guard_sets_off_toward_the_second_post_at_its_max_force(void) {
  guard g;
  guard_init(&g, &yard);
  guard_step(&g, NULL);
  TEST_ASSERT_EQUAL_UINT16(1, g.progress.current_node);
  TEST_ASSERT_EQUAL_INT32(8192, g.body.velocity.x); // max force 1/8 per tick
  TEST_ASSERT_EQUAL_INT32(0, g.body.velocity.y);
  TEST_ASSERT_EQUAL_INT32(8192, g.body.position.x);
  guard_step(&g, NULL);
  TEST_ASSERT_EQUAL_INT32(16384, g.body.velocity.x);
  TEST_ASSERT_EQUAL_INT32(24576, g.body.position.x);
}

void test_the_guard_walks_at_its_max_speed_on_a_straight_stretch(void) {
  guard g;
  guard_init(&g, &yard);
  walk(&g, 25);
  TEST_ASSERT_EQUAL_INT32(FXS_INT(2), g.body.velocity.x);
  TEST_ASSERT_EQUAL_INT32(0, g.body.velocity.y);
  TEST_ASSERT_EQUAL_INT32(2293760, g.body.position.x); // 35.0 units
}

void test_the_guard_turns_back_at_the_last_post_and_again_at_the_first(void) {
  guard g;
  guard_init(&g, &yard);
  walk(&g, 100);
  TEST_ASSERT_EQUAL_UINT32(1, g.turnarounds);
  TEST_ASSERT_EQUAL_INT8(-1, g.progress.path_dir);
  TEST_ASSERT_EQUAL_UINT16(1, g.progress.current_node);
  walk(&g, 125);
  TEST_ASSERT_EQUAL_UINT32(2, g.turnarounds);
  TEST_ASSERT_EQUAL_INT8(1, g.progress.path_dir);
}

void test_the_guard_is_at_the_same_bits_after_400_ticks(void) {
  guard g;
  guard_init(&g, &yard);
  walk(&g, 400);
  // Just past the first post (x -10.8), turning for its fifth leg; pinned on the projecting
  // path following (the predicted position projected on the path).
  TEST_ASSERT_EQUAL_INT32(-707937, g.body.position.x);
  TEST_ASSERT_EQUAL_INT32(-1423, g.body.position.y);
  TEST_ASSERT_EQUAL_INT32(-40970, g.body.velocity.x);
  TEST_ASSERT_EQUAL_INT32(-113, g.body.velocity.y);
  TEST_ASSERT_EQUAL_INT32(-205744, g.body.orientation);
  TEST_ASSERT_EQUAL_UINT32(4, g.turnarounds);
}

void test_an_intruder_in_sight_takes_the_whole_force_budget(void) {
  guard g;
  guard_init(&g, &yard);
  const fxs_vec2 intruder = fxs_vec2_make(0, FXS_INT(30));
  guard_step(&g, &intruder);
  TEST_ASSERT_TRUE(g.chasing);
  TEST_ASSERT_EQUAL_INT32(0, g.body.velocity.x);
  TEST_ASSERT_EQUAL_INT32(8192, g.body.velocity.y);
}

void test_sight_ends_exactly_at_its_radius(void) {
  guard g;
  guard_init(&g, &yard);
  fxs_vec2 edge = fxs_vec2_make(0, FXS_INT(40));
  guard_step(&g, &edge);
  TEST_ASSERT_TRUE(g.chasing);
  guard_init(&g, &yard);
  fxs_vec2 beyond = fxs_vec2_make(0, FXS_INT(40) + 1);
  guard_step(&g, &beyond);
  TEST_ASSERT_FALSE(g.chasing);
  TEST_ASSERT_EQUAL_INT32(8192, g.body.velocity.x); // back on the route
  TEST_ASSERT_EQUAL_INT32(0, g.body.velocity.y);
}
