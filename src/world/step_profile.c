// The step's phase marks (step_profile.h); world_step.h marks them.
#include "fixsteer/step_profile.h"

#include "fixsteer/world.h"

fxs_result fxs_world_set_profiler(fxs_world *world, const fxs_step_profiler *profiler) {
  if (!profiler) {
    world->profiler.mark = 0, world->profiler.user_context = 0;
    return FXS_OK;
  }
  if (!profiler->mark) return FXS_ERR_BAD_VALUE;
  world->profiler = *profiler;
  return FXS_OK;
}

const char *fxs_step_phase_name(fxs_step_phase phase) {
  static const char *const names[FXS_PHASE_COUNT] = {
      "step",        "commands",  "plan",        "plan.map",      "plan.progress",
      "plan.fields", "plan.aims", "plan.routes", "plan.searches", "plan.builds",
      "sharers",     "sense",     "steer",       "integrate"};
  if ((unsigned)phase >= FXS_PHASE_COUNT) return 0;
  return names[phase];
}
