#ifndef FIXSTEER_WORLD_RULES_H
#define FIXSTEER_WORLD_RULES_H

// The rules a world steps by, by simulation version (version.h): each rule that changed
// behavior since FXS_SIMULATION_VERSION_OLDEST is named here with the version that brought
// it, and the step asks fxs_rules_since before applying it, so a world set to an older
// version (fxs_world_set_simulation_version; fxs_replay_verify does it for an older
// replay) computes that version's states, bit for bit. When FXS_SIMULATION_VERSION_OLDEST
// passes a rule's version, the rule's test goes and its older branch with it.

#include <stdbool.h>
#include <stdint.h>

#include "fixsteer/version.h"
#include "world_internal.h"

/// Goal clusters (a field group's follower rests only within its group's compact cluster,
/// there also against one of its group at rest nearer the goal) and crawling (on its way, a
/// field group's follower pressed into a crowd crawls on instead of waiting): docs/crowds.md.
#define FXS_RULES_GOAL_CLUSTERS 5u

/// A crush of groups: of two field groups' followers crawling into each other, the one whose
/// goal comes later (by x, then y) makes way (world_way.c, owes_way): docs/crowds.md.
#define FXS_RULES_CRUSH_ORDER 5u

/// Packed queues: on a stop path a follower holds behind resting followers of its path only
/// once it has almost stopped, so the queue fills the path's width (fxs_path_hold_packed,
/// world_follow.c): docs/behaviors.md.
#define FXS_RULES_PACKED_QUEUES 6u

/// The crowd side rule (fxs_orca_crowd_side, fixsteer/orca.h; fxs_orca_velocity_crowd): the
/// orca behavior turns a blocked agent's preferred velocity clockwise in proportion to how
/// blocked it is (beside a wall or an obstacle only against a counter-flow; navigate never),
/// so that a crowd arranged with mirror symmetry does not jam: docs/crowds.md.
#define FXS_RULES_CROWD_SIDE 6u

/// Moves that share fields: the members of a move group of FXS_NAV_FIELD_GROUP or more (in a
/// world with group fields and a grid) follow one field toward the group's destination and
/// leave it for their own spots once they see them (world_nav_fields.c, "moves"):
/// docs/navigation.md, "Moving groups".
#define FXS_RULES_MOVE_FIELDS 6u

/// Keeping right: a field group's follower on its way, among agents going elsewhere across or
/// against its way, turns 45 degrees to its right, so flows sharing a passage form lanes
/// (world_way.c, fxs_way_keep_right): docs/crowds.md.
#define FXS_RULES_KEEP_RIGHT 6u

/// Fields for bodies of every radius: a group's follower standing where its field gives no
/// direction (a body smaller than the grid's radius, deep in a wall's blocked margin) steps to
/// the nearest cell round its own the field leads on from, in sight, instead of leaving the
/// field for a full-grid A* (world_nav_fields.c, "the edge"): docs/navigation.md.
#define FXS_RULES_FIELD_EDGE 7u

/// Compact goal clusters: a field group's follower on its last leg avoids its neighbours by
/// their real radii (not the behavior's neighbor_radius), counts as touching only those within
/// an eighth of a radius (fxs_agent_touch, not a radius of air) and judges its compact disc by
/// its own radius, so a group sharing a goal rests closer round it (world_steer.c,
/// navigate_steering): docs/crowds.md.
#define FXS_RULES_COMPACT_CLUSTERS 7u

/// Goal clusters on a lattice: a field group's follower on its last leg, near its goal, rests
/// on the nodes of a square lattice round it, steps down it to the free node nearest the goal,
/// and outside the room its group needs goes round the pile (world_cluster.h), so a group's
/// pile packs tight and round: docs/crowds.md.
#define FXS_RULES_CLUSTER_LATTICE 8u

/// Moves that share fields on a mesh: as FXS_RULES_MOVE_FIELDS, in a mesh world with group
/// fields: the members of a move group of FXS_NAV_FIELD_GROUP or more follow one tree toward the
/// group's destination and leave it for their own spots once they see them
/// (world_nav_mesh_fields.h, "Moves"): docs/navigation-mesh.md.
#define FXS_RULES_MESH_MOVE_FIELDS 8u

/// Move spots on a mesh: in a mesh world routing its agents, a move's spot outside the bounds,
/// nearer a live wall than the routing radius or nearer a live obstacle's centre than its radius
/// and the routing radius is skipped as a spot on a blocked cell of the grid is (world_move.c,
/// usable): docs/navigation.md, "Moving groups".
#define FXS_RULES_MESH_MOVE_SPOTS 8u

/// Formations on a mesh: with a mesh and a leader, a member's slot is squeezed toward the
/// leader to the last point the leader sees on the mesh, and a member that does not see its
/// slot follows a mesh route to it, as on the grid (world_formation.h): docs/navigation-mesh.md.
#define FXS_RULES_MESH_FORMATIONS 8u

/// Filling a goal cluster's holes: a follower on the lattice with no free node a step nearer
/// its goal goes one step aside, to a free node from which a free node nearer the goal than its
/// own lies one step on (fill_step); one going round the pile that meets a body in its way
/// walks round the pile's edge node by node (round_step); and one within half a step of its
/// node, with the way there clear of bodies, hops onto it as landing does. So the holes a pile
/// leaves on the side away from where its group came fill and the pile packs round
/// (world_cluster.c): docs/crowds.md.
#define FXS_RULES_CLUSTER_FILL 9u

/// Round other groups' piles: a field group's follower on a last leg (its goal in sight),
/// outside twice its compact disc, that meets the resting pile of another goal a step ahead
/// turns its way as one going round its own pile does, so it slides round that pile instead of
/// pressing into it and waiting there (world_way.c, fxs_way_round_pile): docs/crowds.md.
#define FXS_RULES_ROUND_PILES 9u

/// Groups without fields: FXS_NAV_FIELD_GROUP or more crowd agents (navigate or orca) going to
/// one target point form a group whether or not the world keeps group fields (counted by the
/// step, world_sharers.h). A navigate group's followers keep a field group's rules (on the last
/// leg, the goal cluster and its lattice; on the way, keeping right and crawling); an orca
/// group's settle on the same lattice (world_steer.c, orca_goal). So a crowd sent to one point
/// settles in a compact cluster round it in a world without fields too: docs/crowds.md.
#define FXS_RULES_SHARED_GOALS 10u

/// ORCA alone round a wall: an orca agent pressed against a wall that stands between it and its
/// target slides along the wall toward its open end the shorter way round, instead of resting
/// against it (world_wall_slide.h): docs/crowds.md.
#define FXS_RULES_WALL_SLIDE 10u

/// An orca goal group's lattice only in sight of the goal: an orca agent of a goal group within
/// twice its compact disc of the goal (or its slowing radius), a live wall joined to others at
/// both ends (a face of a box or a block) standing between its centre and the goal, keeps the
/// rules of one without a group (the pile round the goal, world_way.h), as the lattice round a
/// goal walled in has no node it can reach and kept the group moving for ever (world_steer.c,
/// orca_group; world_wall_slide.h, fxs_wall_hides_target). A wall with a free end does not
/// count: the group gets round it, and counting it switched agents near its end between the two
/// rules as they crossed the line of sight. Navigate groups are not concerned: their lattice is
/// centred on their route's last reachable point.
#define FXS_RULES_GOAL_SIGHT 11u

/// ORCA alone round a block: an orca agent pressed against a wall whose ends are both joined to
/// others (a block's face), the wall standing between it and its target, heads for a waypoint
/// out of the block's corner the shorter way round along its chain of walls, from which its
/// target lies clear of the block, instead of resting against the face (world_wall_slide.h).
#define FXS_RULES_BLOCK_ROUND 11u

/// Room in reach in packed queues: a stop path's follower that has almost stopped holds where
/// it is when the straight way to its room beside a resting follower passes through a resting
/// body (fxs_path_hold_reachable, world_follow.c). Room behind a resting follower kept one
/// pressed against a wall by its separation, which spent its whole force budget, swinging to
/// and fro between two resting ones for good (zigzag at x1/4): docs/behaviors.md.
#define FXS_RULES_ROOM_IN_REACH 11u

/// A mesh route's last leg in sight: a tick on which a navigate agent on the last leg of its mesh
/// route, beyond its passing distance of the route's last point, has a wall or an obstacle of the
/// mesh first on the straight way from its centre to that point (FXS_MESH_HIDDEN; a way through a
/// vertex or too long to walk decides nothing) is a stall tick, whether it rests or comes nearer;
/// after FXS_NAV_STALL_TICKS of them its route is searched again from where it stands
/// (world_nav_mesh_plan.c, last_point_hidden). One pushed by the crowd behind a wall's end after
/// it passed the corner rested against the wall, or slid along it toward the point, for ever.
#define FXS_RULES_LAST_LEG_SIGHT 11u

/// Walled off, at rest: an orca agent steering for its target (not navigate, not on a goal's
/// lattice) that a closed chain of walls separates from its target (fxs_wall_encloses_target:
/// a box round the target; a block the target lies behind does not count) and that ORCA leaves
/// no faster than its rest speed rests, unless its body overlaps a neighbor's
/// (fxs_way_walled_friction, world_way.c). No crawl takes it nearer a target walled in, and the
/// half-planes of a pile pressed against the wall balance within the rounding of where a body
/// stands: bodies crawled back and forth by a raw unit, or slid on at a fraction of their rest
/// speed, for good (orca_unreachable at x1/4 and x1/16): docs/crowds.md.
#define FXS_RULES_WALLED_REST 11u

/// True when the world steps by the rules of simulation `version` or a later one.
static inline bool fxs_rules_since(const fxs_world *world, uint32_t version) {
  return world->internal->rules >= version;
}

#endif
