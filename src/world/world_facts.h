// Internal: what the steering of phase 4 reads of another agent (a neighbor): its goal, its
// body radius, its avoidance priority, and the flags the making-way, pile and contact rules
// ask. A crowd agent asks these of about ten neighbors, several times a step; each answer from
// the slots is a read of a 320-byte slot elsewhere in memory (and of the goal-group tables),
// from the table a 20-byte entry. Only worlds with navigation keep the table (20 bytes an
// agent slot); the others read the slots. The table is taken for every live slot in phase 3
// (sense, in the pass that places the agents in the neighbor grid) of every step that builds
// that grid; a step without it leaves last tick's entries, and nothing reads them then: the
// readers ask only of neighbors the grid's search found. Derived from the start-of-tick state
// after planning (the goal groups are the plan's): scratch, not state; every answer equals the
// slot's own. Not part of the API.
#ifndef FIXSTEER_WORLD_FACTS_H
#define FIXSTEER_WORLD_FACTS_H

#include <stdbool.h>
#include <stdint.h>

#include "fixsteer/world.h"
#include "orca_sorted.h"
#include "world_crowd.h"
#include "world_internal.h"
#include "world_nav.h"
#include "world_way.h"

/// The flags of an agent's facts.
enum {
  FXS_FACT_NAVIGATES = 1u, ///< It runs navigate (fxs_world_nav_navigates).
  FXS_FACT_RESTS = 2u,     ///< Its velocity is zero.
  /// A navigate agent on a spot of its own: within touch of its goal (fxs_agent_touch), or
  /// at rest on its group's lattice round it (world_cluster.h, since simulation version 8).
  FXS_FACT_ON_SPOT = 4u,
  /// A field group's follower moving, no faster than its rest speed (agent.h): pressed into
  /// a crowd on its way, it crawls (the crush order, since simulation version 5).
  FXS_FACT_CRAWLS = 8u,
  FXS_FACT_SOLID = 16u ///< Its body is solid against its neighbors' (fxs_has_solid_body).
};

/// One slot's facts (meaningful for a live agent only).
typedef struct fxs_agent_facts {
  fxs_vec2 goal;    ///< The point it goes to (fxs_world_nav_target).
  fix16_t radius;   ///< Its body radius, as in its slot.
  fix16_t priority; ///< Its avoidance priority (fxs_orca_priority_of).
  uint8_t flags;    ///< FXS_FACT_* bits.
} fxs_agent_facts;

/// The facts of the agent in slot `index`, read from its slot (and the plan's goal groups).
fxs_agent_facts fxs_agent_facts_read(const fxs_world *world, uint32_t index);

/// Takes the facts of the live agents of slots [begin, end) into the table (disjoint ranges
/// may be taken on different workers); nothing in a world without it. Reads the start-of-tick
/// state only.
void fxs_agent_facts_take(fxs_world *world, uint32_t begin, uint32_t end);

// The facts of the agent in slot `index` (taken this tick), whole or one at a time: from the
// table in a world with navigation (world.c lays it out there: its crowds read the goals and
// flags of their neighbors), else from the slot, as before the table existed.

// The entry itself (no copy of it: read in place, it leaves no store for the reader to wait
// on), or where the world has no table the facts read from the slot into *spare.
static inline const fxs_agent_facts *fxs_facts_at(const fxs_world *world, uint32_t index,
                                                  fxs_agent_facts *spare) {
  const fxs_agent_facts *t = world->internal->facts;
  if (t) return &t[index];
  *spare = fxs_agent_facts_read(world, index);
  return spare;
}

static inline fxs_vec2 fxs_facts_goal(const fxs_world *world, uint32_t index) {
  const fxs_agent_facts *t = world->internal->facts;
  return t ? t[index].goal : fxs_world_nav_target(world, index);
}

static inline fix16_t fxs_facts_radius(const fxs_world *world, uint32_t index) {
  const fxs_agent_facts *t = world->internal->facts;
  return t ? t[index].radius : world->agents[index].body.radius;
}

// The radii of fxs_facts_radius as ORCA reads them, by slot: the table's or the slots'.
static inline fxs_orca_radii fxs_facts_radii(const fxs_world *world) {
  const fxs_agent_facts *t = world->internal->facts;
  fxs_orca_radii r;
  r.first = t ? (const void *)&t[0].radius : (const void *)&world->agents[0].body.radius;
  r.stride = t ? sizeof(fxs_agent_facts) : sizeof(fxs_agent_slot);
  return r;
}

static inline fix16_t fxs_facts_priority(const fxs_world *world, uint32_t index) {
  const fxs_agent_facts *t = world->internal->facts;
  return t ? t[index].priority : fxs_orca_priority_of(world, index);
}

static inline bool fxs_facts_solid(const fxs_world *world, uint32_t index) {
  const fxs_agent_facts *t = world->internal->facts;
  return t ? (t[index].flags & FXS_FACT_SOLID) != 0 : fxs_has_solid_body(world, index);
}

#endif
