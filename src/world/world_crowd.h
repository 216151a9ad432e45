// Internal: what the step learns about the whole crowd before it steers (sense, phase 3 of
// fxs_world_step), and the per-agent tests behind it: which agents run ORCA, their avoidance
// priority, and which steer as lone ORCA agents (without the manager). Not part of the API.
#ifndef FIXSTEER_WORLD_CROWD_H
#define FIXSTEER_WORLD_CROWD_H

#include <stdbool.h>
#include <stdint.h>

#include "manager_inline.h"
#include "world_bounds.h"
#include "fixsteer/world.h"
#include "world_steer.h"

/// True for the behaviors that avoid with ORCA (ORCA itself, navigate).
static inline bool fxs_runs_orca(const fxs_behavior_slot *b) {
  return b->kind == FXS_BEHAVIOR_ORCA || b->kind == FXS_BEHAVIOR_NAVIGATE;
}

/// The slot parameter of both crowd behaviors' avoidance priority (the same index in both).
#define FXS_CROWD_PRIORITY FXS_PARAM(ORCA, priority)
typedef char
    fxs_crowd_priority_shared_[FXS_PARAM(NAVIGATE, priority) == FXS_CROWD_PRIORITY ? 1 : -1];

/// The avoidance priority of the agent in slot `index`: its first ORCA behavior's, or
/// FXS_ORCA_PASSIVE when it runs none (it does not avoid back).
static inline fix16_t fxs_orca_priority_of(const fxs_world *world, uint32_t index) {
  const fxs_agent_slot *s = &world->agents[index];
  for (uint8_t i = 0; i < s->behavior_count; ++i) {
    if (fxs_runs_orca(&s->behaviors[i])) return s->behaviors[i].p[FXS_CROWD_PRIORITY];
  }
  return FXS_ORCA_PASSIVE;
}

/// Whether the body of the agent in slot `index` is solid against its neighbors' (contact,
/// world_contact.h): it runs ORCA or navigate, or is a formation member (which keeps its
/// slot through a squeeze, as a crowd does). Other behaviors' bodies may overlap.
static inline bool fxs_has_solid_body(const fxs_world *world, uint32_t index) {
  const fxs_agent_slot *s = &world->agents[index];
  for (uint8_t i = 0; i < s->behavior_count; ++i) {
    uint8_t kind = s->behaviors[i].kind;
    if (fxs_runs_orca(&s->behaviors[i]) || kind == FXS_BEHAVIOR_FORMATION) return true;
  }
  return false;
}

/// Whether the slot's one behavior is `kind`, of weight 1, in a combine mode that keeps one
/// contribution whole (fxs_combine_keeps_one), with no force applied for the tick: its
/// manager would take that behavior's steering as it is (see fxs_steers_lone_orca). As tests
/// without a branch: the crowd's tally takes every slot. A slot without behaviors still has
/// a first one to read (zeroed at init, or a stale one the count rules out).
static inline bool fxs_slot_is_lone(const fxs_agent_slot *s, fxs_behavior kind) {
  const fxs_behavior_slot *b = &s->behaviors[0];
  unsigned lone = (unsigned)(b->kind == kind) & (unsigned)(s->behavior_count == 1) &
                  (unsigned)(b->weight == FXS_ONE) &
                  (unsigned)fxs_combine_keeps_one(s->combine_mode) &
                  (unsigned)fxs_vec2_is_zero(s->pending_force);
  return lone != 0;
}

/// The slot's part of fxs_steers_lone_orca (the world's is no containment).
static inline bool fxs_slot_is_lone_orca(const fxs_agent_slot *s) {
  return fxs_slot_is_lone(s, FXS_BEHAVIOR_ORCA);
}

/// True when the agent's one behavior is ORCA of weight 1 and its manager would keep ORCA's
/// steering whole: a mode that keeps one contribution whole (fxs_combine_keeps_one, the
/// manager's own rule), no force applied for the tick, no containment. The common agent of a
/// crowd. The manager would add the steering whole (weight 1; fxs_steer_toward saturates, so
/// no component is INT32_MIN), combine it into itself and integrate it with no external force
/// at full velocity: the step integrates it so, without the manager.
static inline bool fxs_steers_lone_orca(const fxs_world *world, const fxs_agent_slot *s) {
  // The kind first: most agents that are not lone ORCA ones fail there.
  return s->behaviors[0].kind == FXS_BEHAVIOR_ORCA && fxs_slot_is_lone_orca(s) &&
         !world->def.clamp_to_bounds;
}

/// True for an agent whose one behavior is navigate and whom the manager would steer by that
/// behavior alone this tick (fxs_slot_is_lone, and no containment push: none in a world
/// without bounds, else none this tick): a navigate crowd's agent, nearly always. The step
/// steers it without the manager, on the rule of fxs_steers_lone_orca.
static inline bool fxs_steers_lone_navigate(const fxs_world *world, const fxs_agent_slot *s) {
  if (s->behaviors[0].kind != FXS_BEHAVIOR_NAVIGATE || !fxs_slot_is_lone(s, FXS_BEHAVIOR_NAVIGATE))
    return false;
  return !world->def.clamp_to_bounds ||
         fxs_vec2_is_zero(fxs_containment_inline(&s->body, &world->def));
}

/// What the step learns about the crowd, from a pass over the live agents (sense, in the
/// phase that places them in the grid):
/// - one: every live agent has one avoidance priority >= 0, `priority` (a crowd that all
///   runs one ORCA); then every neighbor of an agent of that priority has it, and no
///   neighbor's slot need be read.
/// - in_place: every live agent steers as a lone ORCA agent and aims at a point, not at an
///   agent. Such an agent reads no other agent's body while it steers (its neighbors come
///   from the view, copied in sense; their radii and behaviors do not change in the step), so
///   it may write its new body into its own slot at once, and the integration phase has
///   nothing left to do: no double buffer to fill and copy back.
/// Tallies of disjoint ranges of slots merge into the tally of their union.
/// - the least and the largest body radius of the live agents: ORCA reads no neighbor's
///   radius in a crowd of one size (each neighbor's is the agent's own).
typedef struct fxs_crowd_tally {
  bool one;
  bool in_place;
  fix16_t priority;                     ///< FXS_ORCA_PASSIVE until a live agent is seen
  fix16_t least_radius, largest_radius; ///< FXS_MAX and FXS_MIN until a live agent is seen
} fxs_crowd_tally;

/// The tally of no agent (both true: nothing contradicts them yet).
static inline fxs_crowd_tally fxs_crowd_tally_none(void) {
  fxs_crowd_tally t = {true, true, FXS_ORCA_PASSIVE, FXS_MAX, FXS_MIN};
  return t;
}

/// Adds the live agents of slots [begin, end) to *t; stops once both are false.
void fxs_crowd_tally_range(const fxs_world *world, uint32_t begin, uint32_t end,
                           fxs_crowd_tally *t);

/// The tally of two disjoint ranges.
fxs_crowd_tally fxs_crowd_tally_merge(fxs_crowd_tally a, fxs_crowd_tally b);

/// The step's crowd fields (one_priority, priority, in_place, one_radius, radius) from the tallies
/// of `count` disjoint ranges that cover every slot.
void fxs_step_take_crowd(fxs_step_context *step, const fxs_crowd_tally *tallies, uint32_t count);

#endif
