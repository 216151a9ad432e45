#include "world_crowd.h"

void fxs_world_survey_crowd(fxs_step_context *step) {
  const fxs_world *world = step->world;
  bool one = true, in_place = true;
  fix16_t priority = FXS_ORCA_PASSIVE;
  for (uint32_t i = 0; i < world->capacity.agents && (one || in_place); ++i) {
    const fxs_agent_slot *s = &world->agents[i];
    if (!s->alive) continue;
    in_place = in_place && s->target_agent == 0 && fxs_steers_lone_orca(world, s);
    if (!one) continue;
    fix16_t p = fxs_orca_priority_of(world, i);
    if (p < 0 || (priority >= 0 && p != priority)) {
      one = false;
    } else {
      priority = p;
    }
  }
  step->one_priority = one && priority >= 0;
  step->priority = step->one_priority ? priority : FXS_ORCA_PASSIVE;
  step->in_place = in_place;
}
