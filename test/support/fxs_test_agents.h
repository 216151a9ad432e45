// Shared set-up for behavior tests: a default agent placed somewhere, and a small LCG so
// property tests draw the same cases on every platform.
#ifndef FXS_TEST_AGENTS_H
#define FXS_TEST_AGENTS_H

#include <stdint.h>

#include "agent.h"
#include "flocking.h"

// A neighbor at (x, y) moving at (vx, vy), whole units, with that id.
static inline fxs_neighbor fxs_test_neighbor(int x, int y, int vx, int vy, uint32_t id) {
  fxs_neighbor n;
  n.position = fxs_vec2_make(FXS_INT(x), FXS_INT(y));
  n.velocity = fxs_vec2_make(FXS_INT(vx), FXS_INT(vy));
  n.id = id;
  return n;
}

static inline fxs_agent fxs_test_agent_at(int x, int y) {
  fxs_agent a = fxs_default_agent();
  a.position = fxs_vec2_make(FXS_INT(x), FXS_INT(y));
  return a;
}

// A body lookup (leader.h's fxs_body_lookup) over an array of agents: ids are indices.
static inline const fxs_agent *fxs_test_body_in(uint32_t id, const void *agents) {
  return &((const fxs_agent *)agents)[id];
}

static inline uint32_t fxs_test_lcg(uint32_t *state) {
  *state = *state * 1664525u + 1013904223u;
  return *state >> 8;
}

// A value in [lo, hi] units drawn from the LCG.
static inline fix16_t fxs_test_units(uint32_t *state, int lo, int hi) {
  return FXS_INT(lo + (int)(fxs_test_lcg(state) % (uint32_t)(hi - lo + 1)));
}

// A point with coordinates in [lo, hi] units: x drawn first, then y. (Never put two draws
// in one argument list: C leaves their order unspecified and gcc and clang differ.)
static inline fxs_vec2 fxs_test_point(uint32_t *state, int lo, int hi) {
  fix16_t x = fxs_test_units(state, lo, hi);
  fix16_t y = fxs_test_units(state, lo, hi);
  return fxs_vec2_make(x, y);
}

// Any raw Q16.16 value, often an extreme (FXS_MAX, FXS_MIN, 0), never 0x80000000.
static inline fix16_t fxs_test_any_raw(uint32_t *state) {
  uint32_t pick = fxs_test_lcg(state) % 8u;
  if (pick == 0) return FXS_MAX;
  if (pick == 1) return FXS_MIN;
  if (pick == 2) return 0;
  uint32_t high = fxs_test_lcg(state); // two statements: the draws in one order everywhere
  uint32_t raw = (high << 8) ^ fxs_test_lcg(state);
  return raw == 0x80000000u ? FXS_MIN : (fix16_t)raw;
}

// A point of two fxs_test_any_raw coordinates, x drawn first.
static inline fxs_vec2 fxs_test_any_point(uint32_t *state) {
  fix16_t x = fxs_test_any_raw(state);
  fix16_t y = fxs_test_any_raw(state);
  return fxs_vec2_make(x, y);
}

// A raw speed component in [-4, 4] units a tick, from the LCG.
static inline fix16_t fxs_test_raw_speed(uint32_t *state) {
  return (fix16_t)(fxs_test_lcg(state) % (8u * 65536u + 1u)) - FXS_INT(4);
}

#endif
