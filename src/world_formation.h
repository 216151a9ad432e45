// Internal: formation steering in a world. The group is found from the start-of-tick agent
// slots (their behavior sets and bodies), which the steer phase never writes, so the result is
// the same for every worker split and after a restore.
#ifndef FIXSTEER_WORLD_FORMATION_H
#define FIXSTEER_WORLD_FORMATION_H

#include <stdint.h>

#include "fixsteer/world.h"

/// Formation steering of the agent in slot `index`, whose behavior parameters are p (the
/// formation's row of behavior_params.h) and whose live target agent (or NULL) is `leader`.
/// Members: live agents, in slot order, holding a formation behavior of the same group, other
/// than the leader; at most FXS_FORMATION_MAX_MEMBERS take part. With the user's shape, the
/// offsets are the nodes of the agent's path (none without a path: no slot, no force).
fxs_vec2 fxs_world_formation_steering(const fxs_world *world, uint32_t index,
                                      const fxs_agent *leader, const fix16_t *p);

#endif
