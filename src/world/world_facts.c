#include "world_facts.h"

#include "world_cluster.h"
#include "world_crowd.h"
#include "world_nav.h"
#include "world_rules.h"
#include "world_sharers.h"
#include "world_way.h"
#include "wide.h"
#include "vec2_within.h"
#include "world_prefetch.h"

// The flags of a navigate agent going to `goal` (its on-spot and crawl rules, world_way.c).
static unsigned navigator_flags(const fxs_world *world, uint32_t index, fxs_vec2 goal, bool rests) {
  const fxs_agent *a = &world->agents[index].body;
  unsigned flags = FXS_FACT_NAVIGATES;
  if (fxs_vec2_within_inline(a->position, goal, fxs_agent_touch(a))) {
    flags |= FXS_FACT_ON_SPOT;
  } else if (rests && fxs_rules_since(world, FXS_RULES_CLUSTER_LATTICE) &&
             fxs_cluster_on_node(a, goal) && fxs_world_goal_group(world, index) != 0) {
    flags |= FXS_FACT_ON_SPOT; // resting on its group's lattice: a spot of its own
  }
  uint64_t rest = (uint64_t)fxs_agent_rest_speed(a);
  if (fxs_rules_since(world, FXS_RULES_CRUSH_ORDER) && !rests &&
      fxs_length_sq_raw(a->velocity.x, a->velocity.y) <= rest * rest &&
      fxs_world_goal_group(world, index) != 0)
    flags |= FXS_FACT_CRAWLS;
  return flags;
}

fxs_agent_facts fxs_agent_facts_read(const fxs_world *world, uint32_t index) {
  const fxs_agent_slot *s = &world->agents[index];
  fxs_agent_facts f;
  bool rests = fxs_vec2_is_zero(s->body.velocity);
  f.goal = fxs_world_nav_target(world, index);
  f.radius = s->body.radius;
  f.priority = fxs_orca_priority_of(world, index);
  unsigned flags =
      (rests ? FXS_FACT_RESTS : 0u) | (fxs_has_solid_body(world, index) ? FXS_FACT_SOLID : 0u);
  if (fxs_world_nav_navigates(s)) flags |= navigator_flags(world, index, f.goal, rests);
  f.flags = (uint8_t)flags;
  return f;
}

void fxs_agent_facts_take(fxs_world *world, uint32_t begin, uint32_t end) {
  fxs_agent_facts *facts = world->internal->facts;
  if (!facts) return;
  for (uint32_t i = begin; i < end; ++i) {
    FXS_PREFETCH_SLOT(world, i, end, body.radius);
    FXS_PREFETCH_SLOT(world, i, end, behaviors);
    if (world->agents[i].alive) facts[i] = fxs_agent_facts_read(world, i);
  }
}
