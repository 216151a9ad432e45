// Internal: how the world's step steers each agent (phase 3 of fxs_world_step): the steer
// context, the behaviors' steering from the start-of-tick view, the steering manager, and
// the ORCA crowd's shortcuts (a lone ORCA agent without the manager). world_step.c runs the
// phases around it. Not part of the API.
#ifndef FIXSTEER_WORLD_STEER_H
#define FIXSTEER_WORLD_STEER_H

#include <stdbool.h>
#include <stdint.h>

#include "fixsteer/world.h"
#include "world_grid.h"
#include "world_obstacles.h"

// What every phase of one step shares; lives on the stepping thread's stack.
typedef struct fxs_step_context {
  fxs_world *world;
  fxs_grid grid;
  fxs_obstacle_grid obstacle_grid;
  uint32_t obstacle_count;
  uint32_t wall_count;
  bool one_priority;      // every live agent has avoidance priority `priority`
  fix16_t priority;
  bool slow_view;         // an ORCA crowd's view velocities are all within FXS_ORCA_LIMIT
  bool sorted;            // the view is in grid cell order and the grid is built (see sense)
  bool in_place;          // every agent steers into its own slot (world_crowd.h)
} fxs_step_context;

/// Steers the agents of view entries [begin, end) into world->next (into their own slots
/// where step->in_place), on worker `worker`'s scratch; context is the step's
/// fxs_step_context (a task of fxs_world_run_phase).
void fxs_world_steer_range(uint32_t begin, uint32_t end, uint32_t worker, void *context);

#endif
