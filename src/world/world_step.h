// Internal: how the world's step runs its phases. A per-item phase goes through the
// caller's task system (fxs_world_set_tasks) or runs inline; each item writes only its own
// outputs, so how the items are split between workers never changes a result.
#ifndef FIXSTEER_WORLD_STEP_H
#define FIXSTEER_WORLD_STEP_H

#include <stdint.h>

#include "fixsteer/world.h"

/// Runs task over the items [0, count) through the world's task system (ranges of at least
/// min_range items) and waits for it; inline on worker 0 when the world has none.
void fxs_world_run_phase(fxs_world *world, fxs_task_fn *task, uint32_t count, uint32_t min_range,
                         void *context);

/// Tells the world's profiler (step_profile.h), if it has one, that `phase` begins or ends.
static inline void fxs_world_mark(const fxs_world *world, fxs_step_phase phase, int begins) {
  if (world->profiler.mark) world->profiler.mark(phase, begins, world->profiler.user_context);
}

/// Runs the statement `work` between the marks of `phase`.
#define FXS_WORLD_MARKED(world, phase, work) \
  do {                                       \
    fxs_world_mark(world, phase, 1);         \
    work;                                    \
    fxs_world_mark(world, phase, 0);         \
  } while (0)

#endif
