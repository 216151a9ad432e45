// Internal: how the world's step steers each agent (phase 4 of fxs_world_step): the steer
// context, the behaviors' steering from the start-of-tick view, the steering manager, and
// the ORCA crowd's shortcuts (a lone ORCA agent without the manager). world_step.c runs the
// phases around it. Not part of the API.
#ifndef FIXSTEER_WORLD_STEER_H
#define FIXSTEER_WORLD_STEER_H

#include <stdbool.h>
#include <stdint.h>

#include "fixsteer/agent.h"
#include "fixsteer/orca.h"
#include "fixsteer/world.h"
#include "world_grid.h"
#include "world_obstacles.h"
#include "world_walls.h"

// What every phase of one step shares; lives on the stepping thread's stack.
typedef struct fxs_step_context {
  fxs_world *world;
  fxs_grid grid;
  fxs_obstacle_grid obstacle_grid;
  uint32_t obstacle_count;
  uint32_t wall_count;
  fxs_wall_grid wall_grid;
  bool one_priority; // every live agent has avoidance priority `priority`
  fix16_t priority;
  bool slow_view;  // an ORCA crowd's view velocities are all within FXS_ORCA_LIMIT
  bool sorted;     // the view is in grid cell order and the grid is built (see sense)
  bool in_place;   // every agent steers into its own slot (world_crowd.h)
  bool one_radius; // every live agent has body radius `radius`
  fix16_t radius;
} fxs_step_context;

/// One agent's steering in phase 4: the start-of-tick view it steers from and what it has
/// found so far (world_steer.c; the crowd's rules of world_way.h read it too).
typedef struct fxs_steer_context {
  const fxs_world *world;
  const fxs_step_context *step;
  fxs_agent_slot *slot;
  uint32_t index;            // slot index
  uint32_t view;             // view index
  const fxs_agent *target;   // target agent or NULL
  fxs_vec2 target_point;     // its position, or the slot's target point
  fxs_world_worker *scratch; // this worker's neighbor list
  bool searched;             // the neighbor list is filled
  bool unsorted;             // it is left as the search found it (fxs_grid_nearest_few)
  uint32_t neighbor_count;
  bool gathered; // hood holds the neighborhood within hood_radius
  fix16_t hood_radius;
  fxs_neighborhood hood;
  fxs_walls_found near_walls; // the walls ORCA found near the agent (contact takes them too)
} fxs_steer_context;

// Searches the agent's neighbors (the list its behaviors read) unless the step has already.
void fxs_world_search_neighbors(fxs_steer_context *ctx);

struct fxs_way_wait; // when static friction may hold the agent (world_way.h)

/// ORCA toward a preferred velocity among the searched neighbors, each with its own priority
/// and body radius, and the walls and obstacles within reach (through their grids), by the
/// crowd side rule (fxs_orca_crowd_side) from simulation version 6 unless `way` (navigate, a
/// goal cluster: their route or lattice picks the way round a crowd); the steering force.
fxs_vec2 fxs_world_orca_toward(fxs_steer_context *ctx, const fxs_orca_def *def, fxs_vec2 preferred,
                               const struct fxs_way_wait *wait, bool way);

/// A behavior's max_neighbors parameter (a whole number in Q16.16) as a count.
static inline uint32_t fxs_whole_neighbors(fix16_t p) { return (uint32_t)p >> 16; }

/// ORCA's parameters (fxs_orca_def) of agent `a` from the slot parameters `p` of a behavior of
/// kind KIND (ORCA or NAVIGATE: the same names at other places). The obstacle time horizon is
/// half the time horizon: the behavior slot has no parameter left for it.
#define FXS_ORCA_DEF_OF(a, p, KIND)                                            \
  {                                                                            \
    (p)[FXS_PARAM(KIND, time_horizon)],                                        \
        fxs_orca_reach((a), (p)[FXS_PARAM(KIND, neighbor_distance)]),          \
        (p)[FXS_PARAM(KIND, neighbor_radius)],                                 \
        fxs_whole_neighbors((p)[FXS_PARAM(KIND, max_neighbors)]),              \
        (p)[FXS_PARAM(KIND, time_horizon)] / 2, (p)[FXS_PARAM(KIND, priority)] \
  }

/// A slowing radius parameter: 0 (the default) is the agent's own (fxs_agent_slowing_radius).
static inline fix16_t fxs_slowing_radius_of(const fxs_agent *a, fix16_t p) {
  return p > 0 ? p : fxs_agent_slowing_radius(a);
}

/// Steers the agents of view entries [begin, end) into world->internal->next (into their own slots
/// where step->in_place), on worker `worker`'s scratch; context is the step's
/// fxs_step_context (a task of fxs_world_run_phase).
void fxs_world_steer_range(uint32_t begin, uint32_t end, uint32_t worker, void *context);

#endif
