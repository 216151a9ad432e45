// Helpers for the test suite: conversions to double for comparisons only.
#ifndef FXS_TEST_UTIL_H
#define FXS_TEST_UTIL_H

#include <stdint.h>
#include <stdio.h>

#include "fixsteer/config.h"

static inline double fxs_test_to_double(fix16_t v) { return (double)v / 65536.0; }

// Prints a measured figure so that it shows in the test log (desktop and MCU).
#define FXS_TEST_REPORT(...)                                    \
  do {                                                          \
    char fxs_test_msg_[160];                                    \
    snprintf(fxs_test_msg_, sizeof fxs_test_msg_, __VA_ARGS__); \
    TEST_MESSAGE(fxs_test_msg_);                                \
  } while (0)

#endif
