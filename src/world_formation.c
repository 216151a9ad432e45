#include "world_formation.h"

#include "fixsteer/formation.h"
#include "world_slots.h"

// True when the slot holds a formation behavior of `group`.
static bool in_group(const fxs_agent_slot *s, fix16_t group) {
  for (uint8_t i = 0; i < s->behavior_count; ++i) {
    const fxs_behavior_slot *b = &s->behaviors[i];
    if (b->kind == FXS_BEHAVIOR_FORMATION && b->p[3] == group) return true;
  }
  return false;
}

// The parameters of the agent's formation behavior, its path's nodes as the user's offsets.
static fxs_formation_def def_of(const fxs_world *world, const fxs_agent_slot *s, const fix16_t *p) {
  fxs_formation_def d = fxs_default_formation_def();
  d.shape = (fxs_formation_shape)(p[0] / FXS_ONE);
  d.spacing = p[1], d.slowing_radius = p[2], d.group = (uint32_t)(p[3] / FXS_ONE);
  d.arrival_radius = p[4];
  if (d.shape == FXS_FORMATION_USER && s->path_index < world->path_count) {
    const fxs_world_path *wp = &world->paths[s->path_index];
    d.offsets = &world->nodes[wp->first_node];
    d.offset_count = wp->count;
  }
  return d;
}

fxs_vec2 fxs_world_formation_steering(const fxs_world *world, uint32_t index,
                                      const fxs_agent *leader, const fix16_t *p) {
  const fxs_agent_slot *self = &world->agents[index];
  int32_t leader_slot = leader ? fxs_world_slot_of(world, self->target_agent) : -1;
  const fxs_agent *members[FXS_FORMATION_MAX_MEMBERS];
  uint32_t count = 0, who = FXS_FORMATION_MAX_MEMBERS;
  // The scan stops at the cap: later members take no part, and neither does this agent if it
  // is one of them.
  for (uint32_t i = 0; i < world->capacity.agents && count < FXS_FORMATION_MAX_MEMBERS; ++i) {
    const fxs_agent_slot *s = &world->agents[i];
    if (!s->alive || (int32_t)i == leader_slot || !in_group(s, p[3])) continue;
    if (i == index) who = count;
    members[count++] = &s->body;
  }
  if (who >= count) return fxs_vec2_zero();
  fxs_formation_def d = def_of(world, self, p);
  return fxs_formation(members, count, who, leader, &d);
}
