// Internal: the steering manager's accumulation for a tick (begin, add, add a force, scale
// the velocity) and its update, inline, so that the world's step, which runs them for every
// agent, makes no call for them. The public functions (manager.c) are these: one implementation,
// two ways in. Not part of the API.
#ifndef FIXSTEER_MANAGER_INLINE_H
#define FIXSTEER_MANAGER_INLINE_H

#include "fixsteer/manager.h"
#include "wide.h"

static inline void fxs_manager_begin_inline(fxs_steering_manager *m, fxs_combine_mode mode) {
  m->mode = (uint8_t)mode;
  m->count = 0;
  m->epsilon = FXS_RATIO(1, 1024);
  m->external_force = fxs_vec2_zero();
  m->velocity_scale = FXS_ONE;
}

static inline bool fxs_manager_add_inline(fxs_steering_manager *m, fxs_behavior behavior,
                                          fxs_steering steering, fix16_t weight, uint8_t priority) {
  if (m->count >= FXS_MANAGER_CAPACITY) return false;
  fxs_contribution *c = &m->entries[m->count++];
  c->behavior = (uint8_t)behavior;
  c->priority = priority;
  c->weight = weight;
  if (weight == FXS_ONE && steering.linear.x != INT32_MIN && steering.linear.y != INT32_MIN &&
      steering.angular != INT32_MIN) {
    c->requested = steering; // fxs_mul(v, 1.0) == v for every v but INT32_MIN
  } else {
    c->requested.linear = fxs_vec2_make(fxs_mul_inline(steering.linear.x, weight),
                                        fxs_mul_inline(steering.linear.y, weight));
    c->requested.angular = fxs_mul_inline(steering.angular, weight);
  }
  c->applied = fxs_steering_linear(fxs_vec2_zero());
  return true;
}

static inline void fxs_manager_add_force_inline(fxs_steering_manager *m, fxs_vec2 force) {
  m->external_force = fxs_vec2_add(m->external_force, force);
}

static inline void fxs_manager_scale_velocity_inline(fxs_steering_manager *m, fix16_t factor) {
  fix16_t f = fxs_clamp(factor, 0, FXS_ONE);
  // The first scale of a tick: 1.0 * f is f (fxs_mul is exact for it), with no product.
  m->velocity_scale = m->velocity_scale == FXS_ONE ? f : fxs_mul_inline(m->velocity_scale, f);
}

// Whether a manager in combine mode `mode` keeps a lone contribution whole: every mode but
// the prioritized sum, which limits even one. (The world's step passes the manager by for a
// lone ORCA agent on this rule: world_crowd.h, fxs_steers_lone_orca.)
static inline bool fxs_combine_keeps_one(uint8_t mode) {
  return mode != FXS_COMBINE_PRIORITIZED_SUM;
}

// True when the manager holds one contribution that its mode keeps whole: its sum of one,
// 0 + x, is x for every x but INT32_MIN (which saturates).
static inline bool fxs_manager_keeps_one(const fxs_steering_manager *m) {
  const fxs_steering *one = &m->entries[0].requested;
  return m->count == 1 && fxs_combine_keeps_one(m->mode) && one->linear.x != INT32_MIN &&
         one->linear.y != INT32_MIN && one->angular != INT32_MIN;
}

// The combination of a manager that keeps its one contribution whole.
static inline fxs_steering fxs_manager_take_one(fxs_steering_manager *m) {
  m->entries[0].applied = m->entries[0].requested;
  return m->entries[0].requested;
}

// fxs_manager_combine, its one-contribution case (a crowd that runs one behavior) without
// the call.
static inline fxs_steering fxs_manager_combine_inline(fxs_steering_manager *m,
                                                      const fxs_agent *agent) {
  return fxs_manager_keeps_one(m) ? fxs_manager_take_one(m) : fxs_manager_combine(m, agent);
}

static inline fxs_steering fxs_manager_update_inline(fxs_steering_manager *m, fxs_agent *agent) {
  fxs_steering s = fxs_manager_combine_inline(m, agent);
  fxs_agent_integrate(agent, s, m->external_force, m->velocity_scale);
  return s;
}

#endif
