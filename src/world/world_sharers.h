// Internal: goal sharers. How many crowd agents (ORCA or navigate) without a group field go to
// each exact target point, counted after the plan (phase 2 of the step) from the start-of-tick
// state whenever it may have changed (a command, a restore, a version; every step in a world
// with group fields, whose plan assigns them again), so that agents sharing a goal form a group
// whether or not they navigate and whether or not the world keeps group fields (since simulation
// version 10, FXS_RULES_SHARED_GOALS): such a group's followers settle on their goal's cluster
// lattice (world_cluster.h) and keep the rules of a field's group. Derived, not state: neither
// hashed nor snapshotted; the next step recounts after a restore.
//
// The count is a table of points, open addressing with linear probing over a power of two of
// entries at least twice the agent slots (capacity.agents), so it never fills. A point whose
// probe would pass FXS_SHARERS_PROBES entries is not counted: its agents stay alone, as they
// were before version 10 (the same on every build; a bound on the step's time that input
// chosen to collide cannot break). An agent aiming at another agent (a moving target) is in
// no group.
#ifndef FIXSTEER_WORLD_SHARERS_H
#define FIXSTEER_WORLD_SHARERS_H

#include <stddef.h>
#include <stdint.h>

#include "fixsteer/world.h"
#include "world_internal.h"

/// The most entries a count or a look-up probes.
#define FXS_SHARERS_PROBES 32u

/// One entry of the table: the agents going to one target point, `first` the lowest slot of
/// them (its target point is the entry's; count 0: empty).
typedef struct fxs_goal_sharer {
  uint32_t first, count;
} fxs_goal_sharer;

/// Entries of the table of a world of capacity `c`: 0 without agent slots, else the least power
/// of two at least twice c->agents.
size_t fxs_world_sharers_entries(const fxs_world_capacity *c);

/// Recounts the table (the step, after the plan has assigned group fields): every live agent
/// that runs ORCA or navigate, aims at a point and follows no group field this tick counts at
/// its target point. Nothing before simulation version 10 (the table is left as it was).
void fxs_world_sharers_count(fxs_world *world);

/// The group of agent slot `index`: the number of its field's members when it follows a group
/// field (fxs_world_nav_fields_follows); else, since simulation version 10, when it counts in
/// the table (see fxs_world_sharers_count), the number going to its target point when
/// FXS_NAV_FIELD_GROUP or more do; else 0.
uint32_t fxs_world_goal_group_counted(const fxs_world *world, uint32_t index);
static inline uint32_t fxs_world_goal_group(const fxs_world *world, uint32_t index) {
  // Without group fields, and with no group in the table this tick: none (no call).
  if (world->capacity.nav_fields == 0 && !world->internal->nav.sharers_grouped) return 0;
  return fxs_world_goal_group_counted(world, index);
}

/// Of agent slot `index`'s group, the number going to its own goal point `goal` exactly (the
/// ones that pile round it): fxs_world_nav_fields_sharers for a field's follower; else the
/// table's count of `goal` when the agent is in a group; else 0.
uint32_t fxs_world_goal_sharers(const fxs_world *world, uint32_t index, fxs_vec2 goal);

#endif
