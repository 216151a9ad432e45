/// @file avoidance.h
/// Collision avoidance against circular obstacles (the collision-avoidance part of the
/// series seed 000 introduces): two probes along the velocity, ahead and ahead2 (half as
/// far), both scaled by speed / max_speed; the most threatening obstacle is the nearest one
/// that either probe or the agent itself touches; the force pushes from its centre toward
/// ahead, with length max_avoid_force. The agent's own radius is added to each obstacle's.
/// Once the agent's body touches the obstacle the force is the outward direction from the
/// centre plus the sideways direction (perpendicular to the velocity) away from the centre:
/// ahead - centre alone lets an agent graze into an obstacle beside it, or stall against one
/// it has slowed down at. Walls (segments) are avoided the same way.
#ifndef FIXSTEER_AVOIDANCE_H
#define FIXSTEER_AVOIDANCE_H

#include <stdint.h>

#include "fixsteer/agent.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A circular obstacle.
typedef struct fxs_obstacle {
  fxs_vec2 center; ///< World units.
  fix16_t radius;  ///< World units, >= 0.
} fxs_obstacle;

/// A wall: the segment from a to b (zero thickness; the agent's radius keeps it off).
typedef struct fxs_wall {
  fxs_vec2 a; ///< One end, world units.
  fxs_vec2 b; ///< The other end, world units.
} fxs_wall;

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

/// Index of the most threatening wall, or -1: the nearest wall that the probe line from the
/// agent to ahead crosses, or that comes within the agent's radius of the agent, ahead2 or
/// ahead. Ties keep the lower index.
int fxs_most_threatening_wall(const fxs_agent *self, const fxs_wall *walls, uint32_t count,
                              const fxs_avoidance_def *def);

/// Wall avoidance: max_avoid_force along the wall's normal on the agent's side; once the body
/// touches the wall, outward from its closest point plus sideways, as for obstacles.
fxs_vec2 fxs_avoid_walls(const fxs_agent *self, const fxs_wall *walls, uint32_t count,
                         const fxs_avoidance_def *def);

#ifdef __cplusplus
}
#endif

#endif
