#include "fixsteer/batch.h"

#include "fixsteer/manager.h"
#include "integrate_inline.h"
#include "seek_inline.h"

// Agents a group: each phase runs for the whole group before the next starts, so the
// group's chains (an exact normalisation for the desired velocity, then another for the
// force limit) are in flight together. 16 measured faster than 4 and 8 on x86-64 (docs/
// performance.md); the forces of a group live on the stack (16 x 8 bytes).
#define FXS_BATCH_GROUP 16u

// Arrival (seek when slowing_radius is 0) and integration of agents[0..count), count <=
// FXS_BATCH_GROUP, in three phases over the group: the forces, their limit to max_force (the
// integrator's first step, whatever the mass and orientation mode), the rest of the
// integration. Each agent's force reads only that agent and its target, so the order leaves
// every result as one call at a time gives it.
FXS_ALWAYS_INLINE void arrive_group(fxs_agent *agents, const fxs_vec2 *targets,
                                    fix16_t slowing_radius, uint32_t count) {
  fxs_vec2 force[FXS_BATCH_GROUP];
  for (uint32_t i = 0; i < count; ++i) {
    force[i] = fxs_steer_toward(&agents[i],
                                fxs_arrive_desired_inline(&agents[i], targets[i], slowing_radius));
  }
  for (uint32_t i = 0; i < count; ++i) {
    force[i] = fxs_integrate_limit_force(force[i], agents[i].max_force);
  }
  for (uint32_t i = 0; i < count; ++i) fxs_agent_integrate_limited_linear(&agents[i], force[i]);
}

// The last group, of fewer than FXS_BATCH_GROUP agents: a call, so that the loop over whole
// groups keeps its code to itself.
static void arrive_part(fxs_agent *agents, const fxs_vec2 *targets, fix16_t slowing_radius,
                        uint32_t count) {
  arrive_group(agents, targets, slowing_radius, count);
}

// Inline in both callers: seek's slowing radius is the constant 0, and each whole group has
// the constant count FXS_BATCH_GROUP.
FXS_ALWAYS_INLINE void arrive_many(fxs_agent *agents, const fxs_vec2 *targets,
                                   fix16_t slowing_radius, uint32_t count) {
  FXS_ASSERT(count == 0 || (agents && targets));
  if (count != 0 && (!agents || !targets)) return;
  uint32_t i = 0;
  for (; count - i >= FXS_BATCH_GROUP; i += FXS_BATCH_GROUP) {
    arrive_group(agents + i, targets + i, slowing_radius, FXS_BATCH_GROUP);
  }
  if (i < count) arrive_part(agents + i, targets + i, slowing_radius, count - i);
}

void fxs_seek_integrate_many(fxs_agent *agents, const fxs_vec2 *targets, uint32_t count) {
  arrive_many(agents, targets, 0, count);
}

void fxs_arrive_integrate_many(fxs_agent *agents, const fxs_vec2 *targets, fix16_t slowing_radius,
                               uint32_t count) {
  arrive_many(agents, targets, slowing_radius, count);
}
