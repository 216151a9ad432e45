// Internal: obstacle avoidance over the obstacles near an agent. A caller that keeps its
// obstacles in a spatial index (the world's obstacle grid) is asked for those whose centre
// lies in the box the agent's avoidance can reach; every obstacle outside it could never be
// picked, and the candidates come in index order, so the result is the one a scan of all
// obstacles gives. Not part of the API.
#ifndef FIXSTEER_AVOIDANCE_NEAR_H
#define FIXSTEER_AVOIDANCE_NEAR_H

#include <stdint.h>

#include "fixsteer/avoidance.h"

/// A box of raw coordinates, lo <= hi on each axis.
typedef struct fxs_box {
  int64_t lo_x, lo_y, hi_x, hi_y;
} fxs_box;

/// No candidate list: test every obstacle.
#define FXS_ALL_OBSTACLES UINT32_MAX

/// Sets *among to the indices, ascending, of the obstacles whose centre lies in `box` (it may
/// list more) and returns how many; or returns FXS_ALL_OBSTACLES to have them all tested.
typedef uint32_t fxs_obstacle_lookup(void *context, const fxs_box *box, const uint32_t **among);

/// fxs_avoid_obstacles(self, obstacles, count, def), testing only the obstacles `lookup`
/// lists for the box that holds the centre of every obstacle of radius <= max_radius that
/// could be picked. max_radius must be at least the radius of every obstacle.
fxs_vec2 fxs_avoid_obstacles_near(const fxs_agent *self, const fxs_obstacle *obstacles,
                                  uint32_t count, fix16_t max_radius, fxs_obstacle_lookup *lookup,
                                  void *context, const fxs_avoidance_def *def);

#endif
