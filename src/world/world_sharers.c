// Goal sharers (world_sharers.h).
#include "world_sharers.h"

#include <string.h>

#include "world_internal.h"
#include "world_crowd.h"
#include "world_nav_fields.h"
#include "world_rules.h"

size_t fxs_world_sharers_entries(const fxs_world_capacity *c) {
  if (c->agents == 0) return 0;
  size_t entries = 1;
  while (entries < 2u * (size_t)c->agents) entries *= 2; // agents <= FXS_MAX_AGENTS < 2^31
  return entries;
}

// The entry a point's probe starts at: its coordinates' bits mixed (a multiply, xor and shift
// finish), masked to the table.
static size_t first_entry(fix16_t x, fix16_t y, size_t mask) {
  uint32_t h = (uint32_t)x * 0x9E3779B1u ^ (uint32_t)y * 0x85EBCA77u;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 12;
  return (size_t)h & mask;
}

// The index of point (x, y)'s entry in the world's table: its own, or the empty one its probe
// reached first (to take it); SIZE_MAX when the probe passed FXS_SHARERS_PROBES entries (or the
// whole table) without either.
static size_t entry_of(const fxs_world *world, fix16_t x, fix16_t y) {
  const fxs_goal_sharer *table = world->internal->nav.sharers;
  size_t mask = world->internal->nav.sharers_mask, at = first_entry(x, y, mask);
  for (uint32_t p = 0; p < FXS_SHARERS_PROBES && p <= mask; ++p, at = (at + 1) & mask) {
    const fxs_goal_sharer *e = &table[at];
    if (e->count == 0) return at;
    fxs_vec2 q = world->agents[e->first].target_point;
    if (q.x == x && q.y == y) return at;
  }
  return SIZE_MAX;
}

// Whether agent slot `index` counts in the table: a crowd agent (ORCA or navigate) aiming at a
// point and given no group field this tick (none to be given without them). Its slot is live.
static bool counts(const fxs_world *world, uint32_t index) {
  const fxs_agent_slot *s = &world->agents[index];
  if (s->target_agent != 0) return false;
  if (world->capacity.nav_fields != 0 &&
      world->internal->nav.agent_field[index] != FXS_NAV_NO_FIELD)
    return false;
  for (uint8_t i = 0; i < s->behavior_count; ++i)
    if (fxs_runs_orca(&s->behaviors[i])) return true;
  return false;
}

void fxs_world_sharers_count(fxs_world *world) {
  size_t entries = fxs_world_sharers_entries(&world->capacity);
  fxs_goal_sharer *table = world->internal->nav.sharers;
  fxs_world_nav_internal *n = &world->internal->nav;
  // Unchanged since the last count (no command, restore or version since, and no group fields
  // assigned again by the plan): the table still holds.
  if (!n->sharers_stale && world->capacity.nav_fields == 0) return;
  n->sharers_grouped = 0;
  if (entries == 0 || !fxs_rules_since(world, FXS_RULES_SHARED_GOALS)) return;
  n->sharers_stale = 0;
  // Emptied only when the last count took an entry: a crowd whose agents all follow fields
  // costs no pass over the table.
  if (n->sharers_taken) memset(table, 0, entries * sizeof *table);
  n->sharers_taken = 0;
  // A field's follower never counts (counts): its entry in the compact agent_field skips it
  // before its slot is read, so a crowd that all follows fields reads no slot.
  const uint32_t *field = world->capacity.nav_fields != 0 ? n->agent_field : 0;
  for (uint32_t i = 0; i < world->capacity.agents; ++i) {
    if (field && field[i] != FXS_NAV_NO_FIELD) continue;
    if (!world->agents[i].alive || !counts(world, i)) continue;
    fxs_vec2 goal = world->agents[i].target_point;
    size_t at = entry_of(world, goal.x, goal.y);
    if (at == SIZE_MAX) continue;
    if (table[at].count == 0) table[at].first = i;
    if (++table[at].count == FXS_NAV_FIELD_GROUP) n->sharers_grouped = 1;
    n->sharers_taken = 1;
  }
}

// The table's count of `goal` (0 where it holds none).
static uint32_t counted(const fxs_world *world, fxs_vec2 goal) {
  size_t at = entry_of(world, goal.x, goal.y);
  return at == SIZE_MAX ? 0 : world->internal->nav.sharers[at].count;
}

uint32_t fxs_world_goal_group_counted(const fxs_world *world, uint32_t index) {
  uint32_t members = world->capacity.nav_fields ? fxs_world_nav_fields_follows(world, index) : 0;
  // No point of the table has a group this tick (always so before version 10): no look-up.
  if (members != 0 || !world->internal->nav.sharers_grouped ||
      !fxs_rules_since(world, FXS_RULES_SHARED_GOALS) || !counts(world, index))
    return members;
  uint32_t n = counted(world, world->agents[index].target_point);
  return n >= FXS_NAV_FIELD_GROUP ? n : 0;
}

uint32_t fxs_world_goal_sharers(const fxs_world *world, uint32_t index, fxs_vec2 goal) {
  if (fxs_world_nav_fields_follows(world, index) != 0)
    return fxs_world_nav_fields_sharers(world, index, goal);
  return fxs_world_goal_group(world, index) != 0 ? counted(world, goal) : 0;
}
