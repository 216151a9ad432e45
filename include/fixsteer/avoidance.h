/// @file avoidance.h
/// Collision avoidance against circular obstacles (the collision-avoidance part of the
/// series seed 000 introduces): two probes along the velocity, ahead and ahead2 (half as
/// far), both scaled by speed / max_speed; the most threatening obstacle is the nearest one
/// that either probe or the agent itself touches; the force pushes from its centre toward
/// ahead, with length max_avoid_force. The agent's own radius is added to each obstacle's.
/// Once the agent's body touches the obstacle the force is the outward direction from the
/// centre plus the sideways direction (perpendicular to the velocity) away from the centre:
/// ahead - centre alone lets an agent graze into an obstacle beside it, or stall against one
/// it has slowed down at.
#ifndef FIXSTEER_AVOIDANCE_H
#define FIXSTEER_AVOIDANCE_H

#include <stdint.h>

#include "fixsteer/agent.h"

/// A circular obstacle.
typedef struct fxs_obstacle {
  fxs_vec2 center; ///< World units.
  fix16_t radius;  ///< World units, >= 0.
} fxs_obstacle;

/// Avoidance parameters (MAX_SEE_AHEAD, MAX_AVOID_FORCE).
typedef struct fxs_avoidance_def {
  fix16_t max_see_ahead;   ///< Probe length at max speed, world units, >= 0. Default 60.
  fix16_t max_avoid_force; ///< Length of the avoidance force, >= 0. Default 1.
} fxs_avoidance_def;

/// The defaults listed on each field.
fxs_avoidance_def fxs_default_avoidance_def(void);

/// Index of the most threatening obstacle, or -1. Ties in distance keep the lower index.
int fxs_most_threatening_obstacle(const fxs_agent *self, const fxs_obstacle *obstacles,
                                  uint32_t count, const fxs_avoidance_def *def);

/// The avoidance force (zero when nothing threatens).
fxs_vec2 fxs_avoid_obstacles(const fxs_agent *self, const fxs_obstacle *obstacles,
                             uint32_t count, const fxs_avoidance_def *def);

#endif
