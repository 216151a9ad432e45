#include "fixsteer/manager.h"

#include "integrate_inline.h"
#include "manager_inline.h"
#include "vec2_scale.h"
#include "wide.h"

void fxs_manager_begin(fxs_steering_manager *m, fxs_combine_mode mode) {
  fxs_manager_begin_inline(m, mode);
}

bool fxs_manager_add(fxs_steering_manager *m, fxs_behavior behavior, fxs_steering steering,
                     fix16_t weight, uint8_t priority) {
  return fxs_manager_add_inline(m, behavior, steering, weight, priority);
}

void fxs_manager_add_force(fxs_steering_manager *m, fxs_vec2 force) {
  fxs_manager_add_force_inline(m, force);
}

void fxs_manager_scale_velocity(fxs_steering_manager *m, fix16_t factor) {
  fxs_manager_scale_velocity_inline(m, factor);
}

// The smallest priority value above `after` (-1: the smallest of all); -1 when none is left.
static int next_priority(const fxs_steering_manager *m, int after) {
  int best = -1;
  for (unsigned i = 0; i < m->count; ++i) {
    int p = m->entries[i].priority;
    if (p > after && (best < 0 || p < best)) best = p;
  }
  return best;
}

static fxs_steering add_steering(fxs_steering a, fxs_steering b) {
  a.linear = fxs_vec2_add(a.linear, b.linear);
  a.angular = fxs_add(a.angular, b.angular);
  return a;
}

static fxs_steering combine_weighted(fxs_steering_manager *m) {
  fxs_steering total = fxs_steering_linear(fxs_vec2_zero());
  for (unsigned i = 0; i < m->count; ++i) {
    m->entries[i].applied = m->entries[i].requested;
    total = add_steering(total, m->entries[i].requested);
  }
  return total;
}

// Adds as much of `request` to *total as the budget allows; returns what was added.
static fxs_vec2 spend_linear(fxs_vec2 *total, fxs_vec2 request, fix16_t budget) {
  fix16_t left = fxs_sub(budget, fxs_vec2_length(*total));
  if (left <= 0) return fxs_vec2_zero();
  fxs_vec2 part = fxs_vec2_truncate(request, left);
  *total = fxs_vec2_add(*total, part);
  return part;
}

static fix16_t spend_angular(fix16_t *total, fix16_t request, fix16_t budget) {
  fix16_t left = fxs_sub(budget, fxs_abs(*total));
  if (left <= 0) return 0;
  fix16_t part = fxs_clamp(request, -left, left);
  *total = fxs_add(*total, part);
  return part;
}

static fxs_steering combine_prioritized(fxs_steering_manager *m, const fxs_agent *agent) {
  fxs_steering total = fxs_steering_linear(fxs_vec2_zero());
  for (int p = next_priority(m, -1); p >= 0; p = next_priority(m, p)) {
    // Within a priority, what keeps bodies apart spends first (pass 0), then the rest.
    for (int pass = 0; pass < 2; ++pass) {
      for (unsigned i = 0; i < m->count; ++i) {
        fxs_contribution *c = &m->entries[i];
        if (c->priority != p) continue;
        if (fxs_behavior_prevents_collision((fxs_behavior)c->behavior) != (pass == 0)) continue;
        c->applied.linear = spend_linear(&total.linear, c->requested.linear, agent->max_force);
        c->applied.angular =
            spend_angular(&total.angular, c->requested.angular, agent->max_angular_acceleration);
      }
    }
  }
  return total;
}

static fxs_steering combine_groups(fxs_steering_manager *m) {
  fxs_steering group = fxs_steering_linear(fxs_vec2_zero());
  int winner = -1;
  for (int p = next_priority(m, -1); p >= 0; p = next_priority(m, p)) {
    group = fxs_steering_linear(fxs_vec2_zero());
    for (unsigned i = 0; i < m->count; ++i) {
      if (m->entries[i].priority == p) group = add_steering(group, m->entries[i].requested);
    }
    winner = p;
    if (fxs_vec2_length(group.linear) > m->epsilon || fxs_abs(group.angular) > m->epsilon) break;
  }
  // As in Millington's priority steering, when every group is negligible the last one is used.
  for (unsigned i = 0; i < m->count; ++i) {
    fxs_contribution *c = &m->entries[i];
    c->applied = c->priority == winner ? c->requested : fxs_steering_linear(fxs_vec2_zero());
  }
  return group;
}

// On an axis where `push` is not zero, the combined force points the same way at least as
// strongly: what the other behaviors want never pushes an agent through a bound.
static fix16_t at_least(fix16_t combined, fix16_t push) {
  if (push < 0 && combined > push) return push;
  if (push > 0 && combined < push) return push;
  return combined;
}

// A containment contribution wins on its axes (see FXS_BEHAVIOR_CONTAINMENT in manager.h).
static fxs_vec2 contain(fxs_vec2 s, fxs_vec2 push, fix16_t budget) {
  s.x = at_least(s.x, push.x);
  s.y = at_least(s.y, push.y);
  if (push.x != 0 && push.y == 0) {
    fix16_t left = fxs_max(fxs_sub(budget, fxs_abs(s.x)), 0);
    s.y = fxs_clamp(s.y, -left, left);
  }
  if (push.y != 0 && push.x == 0) {
    fix16_t left = fxs_max(fxs_sub(budget, fxs_abs(s.y)), 0);
    s.x = fxs_clamp(s.x, -left, left);
  }
  return s;
}

static fxs_steering combine_any(fxs_steering_manager *m, const fxs_agent *agent) {
  switch ((fxs_combine_mode)m->mode) {
    case FXS_COMBINE_PRIORITIZED_SUM:
      return combine_prioritized(m, agent);
    case FXS_COMBINE_PRIORITY_GROUPS:
      return combine_groups(m);
    case FXS_COMBINE_WEIGHTED_SUM:
    default:
      return combine_weighted(m);
  }
}

fxs_steering fxs_manager_combine(fxs_steering_manager *m, const fxs_agent *agent) {
  // One contribution (a crowd that runs one behavior): the weighted sum and the priority
  // groups both keep it whole, as this does, and so does containment alone; the
  // prioritized sum limits it (fxs_manager_keeps_one).
  if (fxs_manager_keeps_one(m)) return fxs_manager_take_one(m);
  fxs_steering s = combine_any(m, agent);
  for (unsigned i = 0; i < m->count; ++i) {
    const fxs_contribution *c = &m->entries[i];
    if (c->behavior != FXS_BEHAVIOR_CONTAINMENT) continue;
    s.linear = contain(s.linear, c->requested.linear, agent->max_force);
  }
  return s;
}

fxs_steering fxs_manager_update(fxs_steering_manager *m, fxs_agent *agent) {
  return fxs_manager_update_inline(m, agent);
}

// Whether the agent is too slow for look-where-going to turn it at all: |v| at most
// max(FXS_LOOK_MIN_SPEED, max_speed / FXS_REST_SPEED_DIVISOR), compared squared (exact).
static inline bool below_look_speed(const fxs_agent *agent) {
  fix16_t top = agent->max_speed > 0 ? agent->max_speed / FXS_REST_SPEED_DIVISOR : 0;
  uint64_t m = (uint64_t)(top > FXS_LOOK_MIN_SPEED ? top : FXS_LOOK_MIN_SPEED);
  return fxs_length_sq_raw(agent->velocity.x, agent->velocity.y) <= m * m;
}

// The most look-where-going turns an agent in a tick at its speed: pi at or above
// max_speed / FXS_LOOK_SPEED_DIVISOR, below it pi/2 times the fraction of that speed, so
// that the small moves of a body nearly at rest (pressed in a crowd, settling on a spot)
// never turn its heading round in a tick.
static fix16_t calm_turn(const fxs_agent *agent) {
  fix16_t calm = agent->max_speed > 0 ? agent->max_speed / FXS_LOOK_SPEED_DIVISOR : 0;
  uint64_t sq = fxs_length_sq_raw(agent->velocity.x, agent->velocity.y);
  if (calm <= 0 || sq >= (uint64_t)calm * (uint64_t)calm) return FXS_PI;
  fix16_t speed = fxs_vec2_length(agent->velocity); // below calm: no overflow in the ratio
  return (fix16_t)(((int64_t)(FXS_PI / 2) * speed) / calm);
}

// The orientation modes that turn the agent (a call).
static void integrate_turn(fxs_agent *agent, fix16_t angular) {
  switch ((fxs_orientation_mode)agent->orientation_mode) {
    case FXS_ORIENT_STEERED: {
      fix16_t acc =
          fxs_clamp(angular, -agent->max_angular_acceleration, agent->max_angular_acceleration);
      agent->rotation =
          fxs_clamp(fxs_add(agent->rotation, acc), -agent->max_rotation, agent->max_rotation);
      agent->orientation = fxs_angle_wrap(fxs_add(agent->orientation, agent->rotation));
      return;
    }
    case FXS_ORIENT_LOOK_WHERE_GOING: {
      agent->rotation = 0;
      if (below_look_speed(agent)) return;
      fix16_t delta = fxs_angle_wrap(fxs_sub(fxs_vec2_angle(agent->velocity), agent->orientation));
      fix16_t limit = calm_turn(agent);
      if (agent->max_turn_rate > 0 && agent->max_turn_rate < limit) limit = agent->max_turn_rate;
      delta = fxs_clamp(delta, -limit, limit);
      agent->rotation = delta;
      agent->orientation = fxs_angle_wrap(fxs_add(agent->orientation, delta));
      return;
    }
    case FXS_ORIENT_FIXED:
    default:
      agent->rotation = 0;
      return;
  }
}

static inline void integrate_orientation(fxs_agent *agent, fix16_t angular) {
  if (agent->orientation_mode == FXS_ORIENT_FIXED) { // the common case, one test
    agent->rotation = 0;
    return;
  }
  integrate_turn(agent, angular);
}

// The speed the steered velocity may reach this tick: max_speed, or for an agent an
// external force pushed past it, its speed less one tick of its steering budget.
static fix16_t speed_cap_over(const fxs_agent *agent, fxs_vec2 velocity, fix16_t mass) {
  fix16_t brake = fxs_div(agent->max_force, mass);
  return fxs_max(agent->max_speed, fxs_sub(fxs_vec2_length(velocity), brake));
}

// The cap, its common "within max_speed" case without a call.
static inline fix16_t speed_cap(const fxs_agent *agent, fxs_vec2 velocity, fix16_t mass) {
  uint64_t max = (uint64_t)agent->max_speed;
  if (fxs_length_sq_raw(velocity.x, velocity.y) <= max * max) return agent->max_speed;
  return speed_cap_over(agent, velocity, mass);
}

// fxs_vec2_truncate(v, max_length), its common "already short enough" case without a call
// and its squared length taken once.
static inline fxs_vec2 limit(fxs_vec2 v, fix16_t max_length) {
  if (max_length < 0) return fxs_vec2_truncate(v, max_length); // the contract check
  uint64_t max = (uint64_t)max_length;
  uint64_t sq = fxs_length_sq_raw(v.x, v.y);
  if (sq <= max * max) return v;
  return fxs_vec2_truncate_long(v, max_length, sq);
}

fxs_vec2 fxs_integrate_limit_speed(const fxs_agent *agent, fxs_vec2 velocity, fxs_vec2 steered,
                                   fix16_t mass) {
  return limit(steered, speed_cap(agent, velocity, mass));
}

#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void
integrate_any(fxs_agent *agent, fxs_steering steering, fxs_vec2 external_force,
              fix16_t velocity_scale) {
  fix16_t mass = agent->mass > 0 ? agent->mass : FXS_ONE;
  fxs_integrate_with(agent, steering.linear, external_force, velocity_scale, mass);
  integrate_orientation(agent, steering.angular);
}

void fxs_agent_integrate(fxs_agent *agent, fxs_steering steering, fxs_vec2 external_force,
                         fix16_t velocity_scale) {
#if UINTPTR_MAX > 0xFFFFFFFFu
  // Most 64-bit targets (the System V x86-64 and AArch64 conventions) pass the linear part
  // packed in one register: its fields taken apart at once keep it from a round trip through
  // the stack on the common path's chain. 32-bit targets pass each field in a register of its
  // own, where this costs instructions; 64-bit Windows passes the struct by reference, where
  // it changes nothing. Results are the same everywhere.
  steering.linear = fxs_vec2_make(steering.linear.x, steering.linear.y);
#endif
  // The common case, tested once here: a unit scale and mass, no external force and a fixed
  // orientation (integrate_orientation's whole work then is the zero rotation).
  if (velocity_scale == FXS_ONE && agent->mass == FXS_ONE && fxs_vec2_is_zero(external_force) &&
      agent->orientation_mode == FXS_ORIENT_FIXED) {
    fxs_integrate_with(agent, steering.linear, fxs_vec2_zero(), FXS_ONE, FXS_ONE);
    agent->rotation = 0;
    return;
  }
  integrate_any(agent, steering, external_force, velocity_scale);
}
