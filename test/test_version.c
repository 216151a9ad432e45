#include <stdio.h>
#include <string.h>

#include "unity.h"

#include "fixsteer/replay.h"
#include "fixsteer/snapshot.h"
#include "version.h"

void setUp(void) {}
void tearDown(void) {}

void test_version_string_is_built_from_the_three_numbers(void) {
  char expected[32];
  snprintf(expected, sizeof expected, "%d.%d.%d", FXS_VERSION_MAJOR, FXS_VERSION_MINOR,
           FXS_VERSION_PATCH);
  TEST_ASSERT_EQUAL_STRING(expected, FXS_VERSION_STRING);
}

void test_library_reports_the_version_it_was_built_as(void) {
  TEST_ASSERT_EQUAL_STRING("0.2.0", fxs_version());
  TEST_ASSERT_EQUAL_STRING(FXS_VERSION_STRING, fxs_version());
}

void test_version_number_orders_releases_for_preprocessor_tests(void) {
  TEST_ASSERT_EQUAL_INT(200, FXS_VERSION_NUMBER);
#if FXS_VERSION_NUMBER < 200
  TEST_FAIL_MESSAGE("FXS_VERSION_NUMBER is not usable in #if");
#endif
}

void test_format_versions_are_the_ones_the_readers_accept(void) {
  TEST_ASSERT_EQUAL_UINT32(FXS_REPLAY_VERSION, fxs_replay_format_version());
  TEST_ASSERT_EQUAL_UINT32(FXS_SNAPSHOT_VERSION, fxs_snapshot_format_version());
}

void test_the_library_runs_the_simulation_version_it_was_built_with(void) {
  TEST_ASSERT_EQUAL_UINT32(FXS_SIMULATION_VERSION, fxs_simulation_version());
  TEST_ASSERT_TRUE(FXS_SIMULATION_VERSION >= 1u);
}
