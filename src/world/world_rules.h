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

/// Keeping right: a field group's follower on its way, among agents going elsewhere across or
/// against its way, turns 45 degrees to its right, so flows sharing a passage form lanes
/// (world_way.c, fxs_way_keep_right): docs/crowds.md.
#define FXS_RULES_KEEP_RIGHT 6u

/// True when the world steps by the rules of simulation `version` or a later one.
static inline bool fxs_rules_since(const fxs_world *world, uint32_t version) {
  return world->internal->rules >= version;
}

#endif
