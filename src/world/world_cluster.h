// Internal: the lattice a goal cluster settles on (docs/crowds.md, "Goal clusters on a
// lattice", simulation version 8). The followers of a field group sharing one goal rest on the
// nodes of a square lattice centred on it, nodes 2r + r/8 apart (r: the follower's radius;
// fxs_agent_touch: one body passes between two nodes a row apart), so a pile of N packs round
// its goal (N nodes fill a disc of about 1.2 r sqrt(N)) instead of as loose as its bodies
// happened to touch. Each follower steps down the lattice to a free node nearer the goal, rests
// on its own node inside the room its group needs, and goes round the pile outside it. Since
// simulation version 9 (FXS_RULES_CLUSTER_FILL) a follower with no free node a step down goes
// a step aside where a free node nearer the goal lies one step on, so the holes a pile leaves
// fill, and one going round that meets a body in its way walks round the pile's edge node by
// node. Every rule reads the start-of-tick state only. Not part of the API.
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

/// What a follower does round its goal (fxs_cluster_node, fxs_cluster_steer).
typedef enum fxs_cluster_move {
  FXS_CLUSTER_NONE,  ///< no usable node: the pile rules
  FXS_CLUSTER_NODE,  ///< to *node (fxs_cluster_steer: the preferred velocity toward it)
  FXS_CLUSTER_LAND,  ///< fxs_cluster_steer: the exact velocity landing on its node
  FXS_CLUSTER_ROUND, ///< outside the room its group needs: round the pile
  FXS_CLUSTER_PAST,  ///< fxs_cluster_node: round the pile through *node, at full speed
} fxs_cluster_move;

/// The follower in `ctx` on the lattice round `goal` of a group of `members`: of its nearest
/// node's four neighbours, the usable one nearest the goal and nearer than its own node (no
/// body of the neighbor list on it, clear of walls, obstacles and clamped bounds by its radius,
/// reached straight past its neighbours, and no one of its group nearer it stepping down
/// there; from outside the room only a node inside it): NODE, to it. Else, since version 9, a
/// usable neighbour from which such a node lies one step on: NODE, to it (a step aside). Else,
/// inside the room (the compact disc 1.3 r sqrt(members), as far as 1.2 members nodes fill):
/// NODE, its own node, or where a body covers that one a usable neighbour inside the room, else
/// ROUND; outside the room ROUND, or since version 9 PAST with the usable neighbour nearest the
/// goal that lies on round it counterclockwise, where there is one; NONE for a body of no size or
/// no speed, or where its nearest node lies outside Q16.16's range.
fxs_cluster_move fxs_cluster_node(const fxs_steer_context *ctx, fxs_vec2 goal, uint32_t members,
                                  fxs_vec2 *node);

/// The lattice's part in the navigate behavior of the field group's follower in `ctx` on its
/// last leg to `to` (world_steer.c): NONE where it does not serve (no count of its group's
/// goal, or farther than twice its compact disc: the pile rules then); LAND with the exact
/// velocity onto its node when within landing reach of it (since version 9 also within half
/// a step with no body within both radii of the way: a hop at its force) and no agent within
/// `reach` must pass (fxs_way_mover_near); NODE with the preferred velocity toward its node
/// (arrival within `slowing`), or ROUND with the preferred velocity round the pile (full speed,
/// FXS_CLUSTER_ROUND_TURN off the way to the goal; since version 9, where a neighbour's body
/// stands in that way a step ahead, toward the next node round the pile's edge instead), both
/// for ORCA among its neighbours.
fxs_cluster_move fxs_cluster_steer(const fxs_steer_context *ctx, fxs_vec2 to, fix16_t slowing,
                                   fix16_t reach, fxs_vec2 *velocity);

#endif
