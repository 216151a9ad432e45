// Internal: the lattice a goal cluster settles on (docs/crowds.md, "Goal clusters"). The
// followers of a field group sharing one goal rest on the nodes of a triangular lattice round
// it, nodes 2r + r/8 apart (r: the follower's radius; fxs_agent_touch), so a pile of N packs
// as tight as bodies can (about 1.12 r sqrt(N) across a full disc) instead of as loose as
// they happened to touch. Each follower inside its compact disc steps down the lattice: to the
// free node round it nearest the goal, else it lands on its own. Every rule reads the
// start-of-tick state only. Not part of the API.
#ifndef FIXSTEER_WORLD_CLUSTER_H
#define FIXSTEER_WORLD_CLUSTER_H

#include <stdbool.h>

#include "world_steer.h"

/// The turn from the way to the goal of a follower going round the pile (FXS_CLUSTER_ROUND):
/// -pi/3 (clockwise), so it slides along the pile's edge and presses into any gap it passes.
#define FXS_CLUSTER_ROUND_TURN (-68629)

/// The lattice's spacing for agent `a`: 2r + r/8 (fxs_agent_touch).
fix16_t fxs_cluster_step(const fxs_agent *a);

/// Whether agent `a` stands exactly on a node of its lattice round `goal`.
bool fxs_cluster_on_node(const fxs_agent *a, fxs_vec2 goal);

/// The node the follower in `ctx` goes to on the lattice round `goal`: of its nearest node
/// and that node's six neighbours, the free one (no body of the neighbor list overlapping a
/// body there, clear of walls and obstacles by its radius, inside the bounds when they
/// clamp, and, off its own node, reached without crossing a wall) nearest the goal (ties:
/// lower row, then lower column). False when none is free: the caller keeps the pile rules.
typedef enum fxs_cluster_move {
  FXS_CLUSTER_NONE,  ///< no usable node: the pile rules
  FXS_CLUSTER_NODE,  ///< to *node (fxs_cluster_steer: the preferred velocity toward it)
  FXS_CLUSTER_LAND,  ///< fxs_cluster_steer: the exact velocity landing on its node
  FXS_CLUSTER_ROUND, ///< outside the room its group needs: round the pile
} fxs_cluster_move;

fxs_cluster_move fxs_cluster_node(const fxs_steer_context *ctx, fxs_vec2 goal, uint32_t members,
                                  fxs_vec2 *node);

/// The lattice's part in the navigate behavior of the field group's follower in `ctx` on its
/// last leg to `to` (world_steer.c): NONE where it does not serve (no count of its group's
/// goal, or farther than twice its compact disc: the pile rules then); LAND with the exact
/// velocity onto its node when within landing reach of it and no agent within `reach` must
/// pass (fxs_way_mover_near); NODE with the preferred velocity toward its node (arrival
/// within `slowing`), or ROUND with the preferred velocity round the pile (full speed,
/// FXS_CLUSTER_ROUND_TURN off the way to the goal), both for ORCA among its neighbours.
fxs_cluster_move fxs_cluster_steer(const fxs_steer_context *ctx, fxs_vec2 to, fix16_t slowing,
                                   fix16_t reach, fxs_vec2 *velocity);

#endif
