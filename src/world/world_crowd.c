#include "world_crowd.h"

// Whether an agent of avoidance priority p keeps the crowd's one priority: it avoids, with
// the priority seen so far (or the first one, into *priority).
static inline bool keeps_one_priority(fix16_t p, fix16_t *priority) {
  if (p < 0 || (*priority >= 0 && p != *priority)) return false;
  *priority = p;
  return true;
}

// The first slot from i on, before end, of a live agent that might not keep both answers of
// a tally whose crowd has priority p >= 0: any but a lone ORCA agent of priority p that aims at
// a point (fxs_steers_lone_orca, its world test made by the caller). end when there is none.
static uint32_t keeping_both(const fxs_world *world, uint32_t i, uint32_t end, fix16_t p) {
  for (; i < end; ++i) {
    const fxs_agent_slot *s = &world->agents[i];
    unsigned keeps = (unsigned)fxs_slot_is_lone_orca(s) & (unsigned)(s->target_agent == 0) &
                     (unsigned)(s->behaviors[0].p[FXS_CROWD_PRIORITY] == p);
    if (!keeps && s->alive) break;
  }
  return i;
}

// The least and largest radius of the live agents of slots [begin, end) into *t.
static void tally_radii(const fxs_world *world, uint32_t begin, uint32_t end, fxs_crowd_tally *t) {
  fix16_t least = t->least_radius, largest = t->largest_radius;
  for (uint32_t i = begin; i < end; ++i) {
    const fxs_agent_slot *s = &world->agents[i];
    if (!s->alive) continue;
    fix16_t r = s->body.radius;
    least = r < least ? r : least;
    largest = r > largest ? r : largest;
  }
  t->least_radius = least, t->largest_radius = largest;
}

void fxs_crowd_tally_range(const fxs_world *world, uint32_t begin, uint32_t end,
                           fxs_crowd_tally *t) {
  tally_radii(world, begin, end, t);
  bool one = t->one, in_place = t->in_place;
  fix16_t priority = t->priority;
  uint32_t i = begin;
  // Both answers open; then, in a crowd that does not steer in place, the priority alone (a
  // crowd of navigate agents, say, takes this loop for nearly every slot).
  bool free_steering = !world->def.clamp_to_bounds;
  for (; i < end && in_place; ++i) {
    // Once the crowd's priority is known, the agents that keep both answers (the common
    // ones) are a few tests each without a branch; the first that may not goes below.
    if (one && priority >= 0 && free_steering) i = keeping_both(world, i, end, priority);
    if (i == end) break;
    const fxs_agent_slot *s = &world->agents[i];
    if (!s->alive) continue;
    bool lone = fxs_steers_lone_orca(world, s);
    in_place = lone && s->target_agent == 0;
    // A lone agent's one behavior is its ORCA: its priority without the search.
    if (one)
      one = keeps_one_priority(
          lone ? s->behaviors[0].p[FXS_CROWD_PRIORITY] : fxs_orca_priority_of(world, i), &priority);
  }
  for (; one && i < end; ++i) {
    if (world->agents[i].alive && !keeps_one_priority(fxs_orca_priority_of(world, i), &priority)) {
      one = false;
      break;
    }
  }
  t->one = one, t->in_place = in_place, t->priority = priority;
}

fxs_crowd_tally fxs_crowd_tally_merge(fxs_crowd_tally a, fxs_crowd_tally b) {
  fxs_crowd_tally t;
  t.in_place = a.in_place && b.in_place;
  t.one = a.one && b.one && (a.priority < 0 || b.priority < 0 || a.priority == b.priority);
  t.priority = a.priority >= 0 ? a.priority : b.priority;
  t.least_radius = a.least_radius < b.least_radius ? a.least_radius : b.least_radius;
  t.largest_radius = a.largest_radius > b.largest_radius ? a.largest_radius : b.largest_radius;
  return t;
}

void fxs_step_take_crowd(fxs_step_context *step, const fxs_crowd_tally *tallies, uint32_t count) {
  fxs_crowd_tally all = fxs_crowd_tally_none();
  for (uint32_t i = 0; i < count; ++i) all = fxs_crowd_tally_merge(all, tallies[i]);
  step->one_priority = all.one && all.priority >= 0;
  step->priority = step->one_priority ? all.priority : FXS_ORCA_PASSIVE;
  step->in_place = all.in_place;
  step->one_radius = all.least_radius == all.largest_radius;
  step->radius = all.largest_radius;
}
