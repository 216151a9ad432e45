#include "world_steer.h"
#include "world_internal.h"

#include "fixsteer/align.h"
#include "fixsteer/kinematic.h"
#include "fixsteer/leader.h"
#include "fixsteer/manager.h"
#include "fixsteer/neighbors.h"
#include "fixsteer/orca.h"
#include "fixsteer/pursuit.h"
#include "fixsteer/seek.h"
#include "fixsteer/unaligned_avoidance.h"
#include "fixsteer/velocity_match.h"
#include "fixsteer/wander.h"
#include "exact.h"
#include "integrate_inline.h"
#include "manager_inline.h"
#include "orca_sorted.h"
#include "seek_inline.h"
#include "vec2_scale.h"
#include "world_bounds.h"
#include "world_cluster.h"
#include "world_contact.h"
#include "world_crowd.h"
#include "world_facts.h"
#include "world_field.h"
#include "world_formation.h"
#include "world_move.h"
#include "world_grid.h"
#include "world_nav.h"
#include "world_nav_fields.h"
#include "world_navigate.h"
#include "world_obstacles.h"
#include "world_prefetch.h"
#include "world_rules.h"
#include "world_sharers.h"
#include "world_slots.h"
#include "world_wall_slide.h"
#include "world_way.h"
#include "world_escape.h"
#include "world_follow.h"

// The agent a slot's behaviors aim at, or NULL.
static const fxs_agent *target_agent_of(const fxs_world *world, const fxs_agent_slot *s) {
  int32_t i = s->target_agent ? fxs_world_slot_of(world, s->target_agent) : -1;
  return i < 0 ? 0 : &world->agents[i].body;
}

// The neighbor search: with `orca_only`, the nearest k within r (what ORCA takes of the
// list), else the full list. With `few` too, at most k found are left unsorted
// (ctx->unsorted; fxs_grid_nearest_few).
FXS_ALWAYS_INLINE void search_for(fxs_steer_context *ctx, bool orca_only, uint32_t k, fix16_t r,
                                  bool few) {
  // sense builds the grid whenever an agent can come here (test_world_view steps every kind).
  FXS_ASSERT(ctx->step->sorted);
  if (!ctx->step->sorted) { // no grid: no neighbors rather than a read of the step's scratch
    ctx->neighbor_count = 0;
    ctx->searched = true;
    return;
  }
  const fxs_grid *g = &ctx->step->grid;
  if (few) {
    ctx->neighbor_count =
        fxs_grid_nearest_few(ctx->world, g, ctx->view, k, r, ctx->scratch, &ctx->unsorted);
  } else {
    ctx->neighbor_count = orca_only ? fxs_grid_nearest(ctx->world, g, ctx->view, k, r, ctx->scratch)
                                    : fxs_grid_neighbors(ctx->world, g, ctx->view, ctx->scratch);
  }
  ctx->searched = true;
}

// The neighbor search runs once per agent, and only for agents with a neighbor behavior.
// When ORCA is the only reader of the list, the search looks for what ORCA takes of it, the
// nearest max_neighbors within neighbor_distance (the largest of its ORCA behaviors'): the
// prefix of the full list it would take anyway (orca_sorted.h), found with less work.
FXS_ALWAYS_INLINE void search(fxs_steer_context *ctx) {
  const fxs_agent_slot *s = ctx->slot;
  uint32_t k = 0;
  fix16_t r = 0;
  bool orca_only = true;
  for (uint8_t i = 0; i < s->behavior_count && orca_only; ++i) {
    const fxs_behavior_slot *b = &s->behaviors[i];
    if (b->kind == FXS_BEHAVIOR_ORCA) {
      uint32_t bk = fxs_whole_neighbors(b->p[FXS_PARAM(ORCA, max_neighbors)]);
      k = bk > k ? bk : k;
      fix16_t reach = fxs_orca_reach(&s->body, b->p[FXS_PARAM(ORCA, neighbor_distance)]);
      r = reach > r ? reach : r;
    } else {
      orca_only = !fxs_behavior_reads_neighbors((fxs_behavior)b->kind);
    }
  }
  search_for(ctx, orca_only, k, r, false);
}

void fxs_world_search_neighbors(fxs_steer_context *ctx) {
  if (!ctx->searched) search(ctx);
}

// Alignment and cohesion of equal radius share one gather.
static const fxs_neighborhood *neighborhood(fxs_steer_context *ctx, fix16_t radius) {
  if (!ctx->gathered || ctx->hood_radius != radius) {
    ctx->hood = fxs_neighborhood_gather(ctx->index, ctx->scratch->neighbors, ctx->scratch->dist_sq,
                                        ctx->neighbor_count, radius);
    ctx->hood_radius = radius;
    ctx->gathered = true;
  }
  return &ctx->hood;
}

// The neighbors a flocking rule with a blind cone or a cap sees: of the search's list, the
// nearest max_neighbors (0: all) within radius and outside the blind cone behind the
// heading, by distance then slot (fxs_query_neighbors), with their squared distances.
static void narrow(const fxs_steer_context *ctx, const fix16_t *p, fxs_view_list *out) {
  fxs_neighbor_query_def q;
  q.radius = p[FXS_PARAM(SEPARATION, radius)];
  q.cos_half_fov = fxs_neg(fxs_cos(p[FXS_PARAM(SEPARATION, blind_angle)] /
                                   2)); // the view's half angle is pi - blind / 2
  q.k = p[FXS_PARAM(SEPARATION, max_neighbors)] != 0
            ? (uint32_t)(p[FXS_PARAM(SEPARATION, max_neighbors)] / FXS_ONE)
            : FXS_MAX_NEIGHBORS;
  const fxs_world_worker *w = ctx->scratch;
  out->count = fxs_query_neighbors(&ctx->slot->body, ctx->index, w->neighbors, ctx->neighbor_count,
                                   &q, out->chosen);
  for (uint32_t i = 0; i < out->count; ++i) {
    out->neighbors[i] = w->neighbors[out->chosen[i]];
    out->dist_sq[i] = w->dist_sq[out->chosen[i]];
  }
}

// Separation, alignment and cohesion; with their defaults (no blind cone, no cap) over the
// search's whole list, as before those parameters existed.
static fxs_vec2 flocking_steering(fxs_steer_context *ctx, const fxs_behavior_slot *b) {
  const fxs_agent *a = &ctx->slot->body;
  const fix16_t *p = b->p;
  if (p[FXS_PARAM(SEPARATION, blind_angle)] == 0 && p[FXS_PARAM(SEPARATION, max_neighbors)] == 0) {
    if (b->kind == FXS_BEHAVIOR_SEPARATION) {
      return fxs_separation_known(a, ctx->index, ctx->scratch->neighbors, ctx->scratch->dist_sq,
                                  ctx->neighbor_count, p[FXS_PARAM(SEPARATION, radius)]);
    }
    const fxs_neighborhood *h = neighborhood(ctx, p[FXS_PARAM(SEPARATION, radius)]);
    return b->kind == FXS_BEHAVIOR_ALIGNMENT ? fxs_alignment_of(a, h) : fxs_cohesion_of(a, h);
  }
  fxs_view_list *v = &ctx->scratch->behavior.view;
  narrow(ctx, p, v);
  if (b->kind == FXS_BEHAVIOR_SEPARATION) {
    return fxs_separation_known(a, ctx->index, v->neighbors, v->dist_sq, v->count,
                                p[FXS_PARAM(SEPARATION, radius)]);
  }
  fxs_neighborhood h = fxs_neighborhood_gather(ctx->index, v->neighbors, v->dist_sq, v->count,
                                               p[FXS_PARAM(SEPARATION, radius)]);
  return b->kind == FXS_BEHAVIOR_ALIGNMENT ? fxs_alignment_of(a, &h) : fxs_cohesion_of(a, &h);
}

// The align family's parameters: align's after its target orientation, face's and
// look-where-going's (the same rows) from the first.
static fxs_align_def align_def_from(const fxs_behavior_slot *b) {
  fxs_align_def d;
  const fix16_t *p = b->p;
  if (b->kind == FXS_BEHAVIOR_ALIGN) {
    d.target_radius = p[FXS_PARAM(ALIGN, target_radius)],
    d.slow_radius = p[FXS_PARAM(ALIGN, slow_radius)];
    d.time_to_target = p[FXS_PARAM(ALIGN, time_to_target)];
  } else {
    d.target_radius = p[FXS_PARAM(FACE, target_radius)],
    d.slow_radius = p[FXS_PARAM(FACE, slow_radius)];
    d.time_to_target = p[FXS_PARAM(FACE, time_to_target)];
  }
  return d;
}

// The start-of-tick state of the agent in slot `id` (the queue asks for the agent ahead).
static const fxs_agent *start_body(uint32_t id, const void *world) {
  return &((const fxs_world *)world)->agents[id].body;
}

static uint32_t near_obstacles(void *context, const fxs_box *box, const uint32_t **among);

// Whether every one of the first n searched neighbors has avoidance priority `priority`
// (>= 0), the common case of a crowd that all runs one ORCA: at once when every live agent
// has it, else from their facts (world_facts.h).
static bool all_of_priority(const fxs_steer_context *ctx, uint32_t n, fix16_t priority) {
  if (ctx->step->one_priority && ctx->step->priority == priority) return true;
  for (uint32_t i = 0; i < n; ++i) {
    if (fxs_facts_priority(ctx->world, ctx->scratch->neighbors[i].id) != priority) return false;
  }
  return true;
}

// |v| at most the agent's rest speed (agent.h), exact, without a call.
static inline bool at_rest_speed(const fxs_agent *a, fxs_vec2 v) {
  uint64_t rest = (uint64_t)fxs_agent_rest_speed(a);
  return fxs_length_sq_raw(v.x, v.y) <= rest * rest;
}

// Static friction (fxs_way_static_friction), its common case (v faster than the agent's
// rest speed: kept) without a call.
static inline fxs_vec2 static_friction(const fxs_steer_context *ctx, fxs_vec2 preferred, fxs_vec2 v,
                                       const fxs_way_wait *wait) {
  if (!at_rest_speed(&ctx->slot->body, v)) return v;
  return fxs_way_static_friction(ctx, preferred, v, wait);
}

// Where ORCA reads the neighbors' radii: NULL where it needs none, the behavior naming one
// radius for every neighbor or every live agent having the agent's own (ORCA's assumption
// without either); else their facts (a radius does not change in the step).
static const fxs_orca_radii *neighbor_radii(const fxs_steer_context *ctx, const fxs_orca_def *def,
                                            fxs_orca_radii *out) {
  if (def->neighbor_radius > 0 || ctx->step->one_radius) return 0;
  *out = fxs_facts_radii(ctx->world);
  return out;
}

fxs_vec2 fxs_world_orca_toward(fxs_steer_context *ctx, const fxs_orca_def *def, fxs_vec2 preferred,
                               const fxs_way_wait *wait, bool way) {
  const fxs_agent *a = &ctx->slot->body;
  const fxs_step_context *step = ctx->step;
  // The search's list is ORCA's order: its choice is a prefix (orca_sorted.h).
  uint32_t chosen = fxs_orca_sorted_count(ctx->scratch->dist_sq, ctx->neighbor_count, def);
  // Neighbors all of the agent's own priority (not a passive one) share every change half
  // and half, as no priorities at all do (fxs_orca_share): then none are passed, and no
  // share is computed.
  fix16_t *priorities = ctx->scratch->behavior.orca.priorities;
  bool all_equal = def->priority >= 0 && all_of_priority(ctx, chosen, def->priority);
  for (uint32_t i = 0; i < chosen && !all_equal; ++i) {
    priorities[i] = fxs_facts_priority(ctx->world, ctx->scratch->neighbors[i].id);
  }
  // Making way is between navigate agents (owes_way): for any other agent it keeps the list as
  // it is, so it is not asked (a goal group's lone ORCA agent steers in place: it must not read
  // other slots' bodies, which fxs_way_make does).
  if (way && fxs_world_nav_navigates(ctx->slot))
    chosen = fxs_way_make(ctx, chosen, def->priority, priorities, &all_equal);
  fxs_orca_statics st = {ctx->world->internal->live_walls, step->wall_count,
                         ctx->world->internal->live_obstacles, 0, 0};
  fxs_walls_near_orca(ctx->world, &step->wall_grid, a, def, ctx->scratch, chosen, &st,
                      &ctx->near_walls);
  if (step->obstacle_count > 0) {
    // Reach: obstacle_time_horizon * max_speed beyond both radii (see fxs_orca_obstacle_line).
    int64_t reach = fxs_mul(fxs_max(def->obstacle_time_horizon, FXS_ONE), fxs_max(a->max_speed, 0));
    reach += (int64_t)fxs_max(a->radius, 0) + step->obstacle_grid.max_radius;
    fxs_box box = {(int64_t)a->position.x - reach, (int64_t)a->position.y - reach,
                   (int64_t)a->position.x + reach, (int64_t)a->position.y + reach};
    const uint32_t *among;
    uint32_t n = near_obstacles(ctx, &box, &among);
    st.obstacle_subset = n == FXS_ALL_OBSTACLES ? 0 : among;
    st.obstacle_count = n == FXS_ALL_OBSTACLES ? step->obstacle_count : n;
  }
  fxs_orca_radii lookup;
  const fxs_orca_radii *radii = neighbor_radii(ctx, def, &lookup);
  // The crowd side rule came with simulation version 6 (world_rules.h); not for navigate.
  bool crowd = fxs_rules_since(ctx->world, FXS_RULES_CROWD_SIDE) && !way;
  fxs_vec2 v = fxs_orca_velocity_crowd(
      a, ctx->index, preferred, ctx->scratch->neighbors, all_equal ? 0 : priorities, radii, chosen,
      &st, def, step->slow_view, &ctx->scratch->pairs, &ctx->scratch->behavior.orca.lines, crowd);
  // Walled off, at rest (world_rules.h): as the crowd side rule, not where a route or a
  // goal's lattice picks the way; no call in a step without walls.
  if (!way && step->wall_count != 0 && fxs_rules_since(ctx->world, FXS_RULES_WALLED_REST))
    v = fxs_way_walled_friction(ctx, v);
  return fxs_steer_toward(a, static_friction(ctx, preferred, v, wait));
}

// Whether the step has walls or obstacles, which keep_out_of_walls keeps agents out of.
static inline bool step_has_solids(const fxs_step_context *step) {
  return step->wall_count != 0 || step->obstacle_count != 0;
}

// Whether a lone ORCA agent of avoidance priority `priority` may leave its search unsorted
// this step (orca_toward_open): no wall or obstacle in the world and every live agent of
// that one priority (>= 0). Never on Cortex-M, whose search ranks as it goes.
static inline bool open_step(const fxs_step_context *step, fix16_t priority) {
  return FXS_GRID_BRANCH_FREE && !step_has_solids(step) && step->one_radius && priority >= 0 &&
         step->one_priority && step->priority == priority;
}

// orca_toward (no wait rule) on a search left unsorted (fxs_grid_nearest_few) in a step
// where open_step holds, when every neighbor's line holds at the program's start point (a
// crowd walking apart, fxs_orca_velocity_open): then the order does not matter. The force
// into *force; false (nothing written) where the order may matter.
static bool orca_toward_open(fxs_steer_context *ctx, const fxs_orca_def *def, fxs_vec2 preferred,
                             fxs_vec2 *force) {
  const fxs_agent *a = &ctx->slot->body;
  fxs_orca_found found = {ctx->world->internal->view_position, ctx->world->internal->view_velocity,
                          ctx->scratch->found_view, ctx->scratch->found_dist_sq,
                          ctx->neighbor_count};
  fxs_vec2 v;
  bool open =
      fxs_orca_velocity_open(a, ctx->index, preferred, &found, def, ctx->step->slow_view, &v);
  if (open) *force = fxs_steer_toward(a, static_friction(ctx, preferred, v, 0));
  return open;
}

// ORCA's parameters from its behavior slot's.
static inline fxs_orca_def orca_def_of(const fxs_agent *a, const fix16_t *p) {
  fxs_orca_def d = FXS_ORCA_DEF_OF(a, p, ORCA);
  return d;
}

// ORCA's preferred velocity toward the target: arrival's desired one (the velocity plus
// arrival's force, within `slowing`: its slowing_radius parameter, fxs_slowing_radius_of).
// `inline_arrival`: arrival without a call (steer_lone_orca; steer_agent keeps the call, and its
// frame stays as it was).
FXS_ALWAYS_INLINE fxs_vec2 orca_preferred(const fxs_steer_context *ctx, fix16_t slowing,
                                          bool inline_arrival) {
  const fxs_agent *a = &ctx->slot->body;
  fxs_vec2 force =
      inline_arrival ? fxs_steer_toward(a, fxs_arrive_desired_inline(a, ctx->target_point, slowing))
                     : fxs_arrive(a, ctx->target_point, slowing);
  return fxs_vec2_add(a->velocity, force);
}

// An ORCA behavior's slowing radius (parameters `p`).
static inline fix16_t orca_slowing(const fxs_steer_context *ctx, const fix16_t *p) {
  return fxs_slowing_radius_of(&ctx->slot->body, p[FXS_PARAM(ORCA, slowing_radius)]);
}

// ORCA's preferred velocity round a wall it is pressed against (world_wall_slide.h, since
// simulation version 10); no call in a step without walls.
static inline fxs_vec2 wall_slide(const fxs_steer_context *ctx, fxs_vec2 preferred) {
  if (ctx->step->wall_count == 0 || !fxs_rules_since(ctx->world, FXS_RULES_WALL_SLIDE))
    return preferred;
  return fxs_wall_slide(ctx, preferred);
}

// The goal group an ORCA behavior's agent settles with (fxs_world_goal_group), since simulation
// version 10: before it, none (not even a group field's, for an agent that navigates too). Since
// version 11 none either where a wall joined at both ends hides its goal from it and it is near
// enough for its group to matter (within twice its compact disc, or near the goal by `slowing`:
// fxs_way_near_goal; FXS_RULES_GOAL_SIGHT): the lattice round a goal walled in has no node it
// could reach, and the pile rule of one without a group lets it rest against the wall.
static inline uint32_t orca_group(const fxs_steer_context *ctx, fix16_t slowing) {
  if (!fxs_rules_since(ctx->world, FXS_RULES_SHARED_GOALS)) return 0;
  uint32_t group = fxs_world_goal_group(ctx->world, ctx->index);
  if (group == 0 || ctx->step->wall_count == 0 ||
      !fxs_rules_since(ctx->world, FXS_RULES_GOAL_SIGHT))
    return group;
  const fxs_agent *a = &ctx->slot->body;
  uint32_t twice = group > UINT32_MAX / 4u ? UINT32_MAX : 4u * group; // twice the disc: 4N
  if (!fxs_way_near_goal(ctx, slowing) &&
      !fxs_way_in_cluster(a->position, fxs_max(a->radius, 0), ctx->target_point, twice))
    return group;
  return fxs_wall_hides_target(ctx) ? 0 : group;
}

// ORCA near its target (both ORCA paths; `group`: fxs_world_goal_group). A group's follower
// (since simulation version 10) settles on its goal's cluster lattice as navigate's do: true,
// with *force, where the lattice steers it; else it rests (*preferred zero) only inside its
// compact cluster, held in the pile or against one of its group at rest nearer the goal, and it
// avoids its neighbours by their real radii. Any other agent within its slowing radius held in
// the pile of those sharing its target prefers to stay where it is (fxs_way_held_in_orca_pile).
static bool orca_goal(fxs_steer_context *ctx, fxs_orca_def *d, fix16_t slowing, uint32_t group,
                      fxs_vec2 *preferred, fxs_vec2 *force) {
  if (group == 0) {
    if (fxs_way_held_in_orca_pile(ctx)) *preferred = fxs_vec2_zero();
    return false;
  }
  const fxs_agent *a = &ctx->slot->body;
  fxs_vec2 to = ctx->target_point, v;
  fix16_t gap = fxs_agent_touch(a);
  d->neighbor_radius = 0; // world_rules.h: compact clusters
  fxs_cluster_move how = fxs_cluster_steer(ctx, to, slowing, d->neighbor_distance, &v);
  fxs_way_wait wait = {true, true, to, gap};
  if (how == FXS_CLUSTER_LAND) *force = fxs_steer_toward(a, v);
  if (how != FXS_CLUSTER_LAND && how != FXS_CLUSTER_NONE)
    *force = fxs_world_orca_toward(ctx, d, v, &wait, true);
  if (how != FXS_CLUSTER_NONE) return true;
  fix16_t slow = fxs_max(fxs_max(a->max_force, 0), fxs_max(a->max_speed, 0) / 2);
  if (fxs_way_in_cluster(a->position, fxs_max(a->radius, 0), to, group) &&
      (fxs_way_held_in_pile(ctx, to, slow, gap) || fxs_way_touches_rest(ctx, to, gap)))
    *preferred = fxs_vec2_zero();
  return false;
}

// ORCA toward the target, near it as orca_goal says.
static fxs_vec2 orca_steering(fxs_steer_context *ctx, const fix16_t *p) {
  fxs_orca_def d = orca_def_of(&ctx->slot->body, p);
  fix16_t slowing = orca_slowing(ctx, p);
  fxs_vec2 preferred = wall_slide(ctx, orca_preferred(ctx, slowing, false)), force;
  uint32_t group = orca_group(ctx, slowing);
  if ((group != 0 || fxs_way_near_goal(ctx, slowing)) &&
      orca_goal(ctx, &d, slowing, group, &preferred, &force))
    return force;
  return fxs_world_orca_toward(ctx, &d, preferred, 0, false);
}

// Behaviors that read the neighbor list: separation, alignment, cohesion, leader, queue,
// unaligned avoidance, ORCA.
static fxs_vec2 neighbor_steering(fxs_steer_context *ctx, const fxs_behavior_slot *b,
                                  fxs_steering_manager *m, fix16_t *velocity_scale) {
  const fxs_agent *a = &ctx->slot->body;
  const fix16_t *p = b->p;
  if (!ctx->searched) search(ctx);
  const fxs_neighbor *nb = ctx->scratch->neighbors;
  uint32_t nc = ctx->neighbor_count;
  switch ((fxs_behavior)b->kind) {
    case FXS_BEHAVIOR_SEPARATION:
    case FXS_BEHAVIOR_ALIGNMENT:
    case FXS_BEHAVIOR_COHESION:
      return flocking_steering(ctx, b);
    case FXS_BEHAVIOR_LEADER: {
      if (!ctx->target) return fxs_vec2_zero();
      fxs_leader_def d = {p[FXS_PARAM(LEADER, behind)],
                          p[FXS_PARAM(LEADER, sight)],
                          p[FXS_PARAM(LEADER, slowing_radius)],
                          p[FXS_PARAM(LEADER, separation_radius)],
                          p[FXS_PARAM(LEADER, separation_weight)],
                          p[FXS_PARAM(LEADER, max_prediction)]};
      return fxs_follow_leader_known(a, ctx->index, ctx->target, nb, ctx->scratch->dist_sq, nc, &d);
    }
    case FXS_BEHAVIOR_QUEUE: {
      fxs_queue_def d = {p[FXS_PARAM(QUEUE, max_queue_ahead)],
                         p[FXS_PARAM(QUEUE, max_queue_radius)],
                         p[FXS_PARAM(QUEUE, separation_radius)]};
      fxs_steering so_far = fxs_manager_combine(m, a); // what the earlier behaviors want
      fix16_t scale = FXS_ONE;
      fxs_vec2 f = fxs_queue_known(a, ctx->index, so_far.linear, nb, ctx->scratch->dist_sq, nc,
                                   start_body, ctx->world, &d, &scale);
      *velocity_scale = fxs_mul(*velocity_scale, scale);
      return f;
    }
    case FXS_BEHAVIOR_ORCA:
      return orca_steering(ctx, p);
    case FXS_BEHAVIOR_NAVIGATE:
      return fxs_world_navigate_steering(ctx, p);
    case FXS_BEHAVIOR_UNALIGNED_AVOIDANCE: {
      fxs_unaligned_avoidance_def d = {p[FXS_PARAM(UNALIGNED_AVOIDANCE, time_horizon)],
                                       p[FXS_PARAM(UNALIGNED_AVOIDANCE, margin)],
                                       p[FXS_PARAM(UNALIGNED_AVOIDANCE, neighbor_radius)],
                                       p[FXS_PARAM(UNALIGNED_AVOIDANCE, max_avoid_force)]};
      return fxs_unaligned_avoidance(a, ctx->index, nb, nc, &d);
    }
    default:
      return fxs_vec2_zero();
  }
}

// Millington's align family: angular output only.
static fix16_t angular_steering(const fxs_steer_context *ctx, const fxs_behavior_slot *b) {
  const fxs_agent *a = &ctx->slot->body;
  fxs_align_def d = align_def_from(b);
  switch ((fxs_behavior)b->kind) {
    case FXS_BEHAVIOR_ALIGN:
      return fxs_align(a, b->p[FXS_PARAM(ALIGN, target_orientation)], &d);
    case FXS_BEHAVIOR_FACE:
      return fxs_face(a, ctx->target_point, &d);
    case FXS_BEHAVIOR_LOOK_WHERE_GOING:
      return fxs_look_where_going(a, &d);
    default:
      return 0;
  }
}

// The obstacles of the obstacle grid near an agent (fxs_obstacle_lookup), into its worker's
// scratch.
static uint32_t near_obstacles(void *context, const fxs_box *box, const uint32_t **among) {
  const fxs_steer_context *ctx = (const fxs_steer_context *)context;
  *among = ctx->scratch->near_obstacles;
  return fxs_obstacle_grid_find(ctx->world, &ctx->step->obstacle_grid, box,
                                ctx->scratch->near_obstacles, FXS_NEAR_OBSTACLES);
}

// Obstacle and wall avoidance; the obstacles through the grid.
static fxs_vec2 avoid_steering(fxs_steer_context *ctx, const fix16_t *p) {
  const fxs_step_context *step = ctx->step;
  const fxs_agent *a = &ctx->slot->body;
  fxs_avoidance_def d = {p[FXS_PARAM(AVOID, max_see_ahead)], p[FXS_PARAM(AVOID, max_avoid_force)],
                         p[FXS_PARAM(AVOID, margin)], p[FXS_PARAM(AVOID, braking)],
                         p[FXS_PARAM(AVOID, mode)]};
  fxs_vec2 obstacles =
      fxs_avoid_obstacles_near(a, ctx->world->internal->live_obstacles, step->obstacle_count,
                               step->obstacle_grid.max_radius, near_obstacles, ctx, &d);
  return fxs_vec2_add(obstacles,
                      fxs_avoid_walls(a, ctx->world->internal->live_walls, step->wall_count, &d));
}

// Linear (and angular) steering of one behavior slot for the agent of `ctx`.
static fxs_steering slot_steering(fxs_steer_context *ctx, const fxs_behavior_slot *b,
                                  fxs_steering_manager *m, fix16_t *velocity_scale) {
  fxs_agent_slot *s = ctx->slot;
  const fxs_agent *a = &s->body;
  const fix16_t *p = b->p;
  switch ((fxs_behavior)b->kind) {
    case FXS_BEHAVIOR_SEEK:
      return fxs_steering_linear(fxs_seek(a, ctx->target_point));
    case FXS_BEHAVIOR_FLEE:
      return fxs_steering_linear(fxs_world_flee_steering(ctx, p));
    case FXS_BEHAVIOR_ARRIVE:
      return fxs_steering_linear(
          fxs_arrive(a, ctx->target_point, p[FXS_PARAM(ARRIVE, slowing_radius)]));
    case FXS_BEHAVIOR_WANDER: {
      fxs_wander_def w = {p[FXS_PARAM(WANDER, circle_distance)],
                          p[FXS_PARAM(WANDER, circle_radius)], p[FXS_PARAM(WANDER, angle_change)]};
      return fxs_steering_linear(fxs_wander(a, &w, &s->wander_angle, &s->rng));
    }
    case FXS_BEHAVIOR_PURSUIT:
    case FXS_BEHAVIOR_EVADE:
      if (!ctx->target) return fxs_steering_linear(fxs_vec2_zero());
      return fxs_steering_linear(
          b->kind == FXS_BEHAVIOR_PURSUIT
              ? fxs_pursuit(a, ctx->target, p[FXS_PARAM(PURSUIT, max_prediction)])
              : fxs_world_evade_steering(ctx, p));
    case FXS_BEHAVIOR_AVOID:
      return fxs_steering_linear(avoid_steering(ctx, p));
    case FXS_BEHAVIOR_PATH:
      return fxs_steering_linear(fxs_world_path_steering(ctx, velocity_scale));
    case FXS_BEHAVIOR_FLOW_FIELD:
      return fxs_steering_linear(
          fxs_world_field_steering(ctx->world, a, p[FXS_PARAM(FLOW_FIELD, look_ahead)]));
    case FXS_BEHAVIOR_HIDE:
      return fxs_steering_linear(fxs_world_hide_steering(ctx, p));
    case FXS_BEHAVIOR_INTERPOSE:
      return fxs_steering_linear(fxs_world_interpose_steering(ctx, p));
    case FXS_BEHAVIOR_FORMATION:
      return fxs_steering_linear(
          fxs_world_formation_steering(ctx->world, ctx->index, ctx->target, p));
    case FXS_BEHAVIOR_OFFSET_PURSUIT: {
      if (!ctx->target) return fxs_steering_linear(fxs_vec2_zero());
      fxs_offset_pursuit_def d = {p[FXS_PARAM(OFFSET_PURSUIT, offset_forward)],
                                  p[FXS_PARAM(OFFSET_PURSUIT, offset_side)],
                                  p[FXS_PARAM(OFFSET_PURSUIT, slowing_radius)],
                                  p[FXS_PARAM(OFFSET_PURSUIT, max_prediction)]};
      return fxs_steering_linear(fxs_offset_pursuit(a, ctx->target, &d));
    }
    case FXS_BEHAVIOR_DYNAMIC_ARRIVE: {
      fxs_dynamic_arrive_def d = {p[FXS_PARAM(DYNAMIC_ARRIVE, target_radius)],
                                  p[FXS_PARAM(DYNAMIC_ARRIVE, slow_radius)],
                                  p[FXS_PARAM(DYNAMIC_ARRIVE, time_to_target)],
                                  p[FXS_PARAM(DYNAMIC_ARRIVE, max_acceleration)]};
      return fxs_steering_linear(fxs_dynamic_arrive(a, ctx->target_point, &d));
    }
    case FXS_BEHAVIOR_VELOCITY_MATCH:
      if (!ctx->target) return fxs_steering_linear(fxs_vec2_zero());
      return fxs_steering_linear(
          fxs_velocity_match(a, ctx->target->velocity, p[FXS_PARAM(VELOCITY_MATCH, time_to_target)],
                             p[FXS_PARAM(VELOCITY_MATCH, max_acceleration)]));
    case FXS_BEHAVIOR_ALIGN:
    case FXS_BEHAVIOR_FACE:
    case FXS_BEHAVIOR_LOOK_WHERE_GOING:
      return fxs_steering_angular(angular_steering(ctx, b));
    case FXS_BEHAVIOR_WALKER: {
      fxs_walker_def d = {p[FXS_PARAM(WALKER, min_step)], p[FXS_PARAM(WALKER, max_step)],
                          p[FXS_PARAM(WALKER, aggro_radius)], p[FXS_PARAM(WALKER, reach_radius)],
                          p[FXS_PARAM(WALKER, slowing_radius)]};
      return fxs_steering_linear(fxs_random_walker(a, ctx->target_point, &d, &s->walker, &s->rng));
    }
    default:
      return fxs_steering_linear(neighbor_steering(ctx, b, m, velocity_scale));
  }
}

// A kinematic behavior (the whole set: add_behavior refuses mixed sets) moves the agent
// directly; an external force of the tick then adds force / mass to that velocity and to the
// position, beyond max_speed, as it does for steered agents. True when one was applied.
static bool apply_kinematic(fxs_steer_context *ctx, const fxs_behavior_slot *b, fxs_agent *next) {
  fxs_agent_slot *s = ctx->slot;
  fxs_kinematic_output out;
  switch ((fxs_behavior)b->kind) {
    case FXS_BEHAVIOR_KINEMATIC_SEEK:
      out = fxs_kinematic_seek(&s->body, ctx->target_point);
      break;
    case FXS_BEHAVIOR_KINEMATIC_ARRIVE:
      out = fxs_kinematic_arrive(&s->body, ctx->target_point,
                                 b->p[FXS_PARAM(KINEMATIC_ARRIVE, radius)],
                                 b->p[FXS_PARAM(KINEMATIC_ARRIVE, time_to_target)]);
      break;
    case FXS_BEHAVIOR_KINEMATIC_WANDER:
      out =
          fxs_kinematic_wander(&s->body, b->p[FXS_PARAM(KINEMATIC_WANDER, max_rotation)], &s->rng);
      break;
    default:
      return false;
  }
  fxs_kinematic_apply(next, fxs_world_contain_kinematic(&s->body, out, &ctx->world->def));
  if (!fxs_vec2_is_zero(s->pending_force)) {
    fxs_vec2 push = fxs_vec2_div(s->pending_force, s->body.mass);
    next->velocity = fxs_vec2_add(next->velocity, push);
    next->position = fxs_vec2_add(next->position, push);
  }
  return true;
}

// Walls, obstacles and (for a crowd agent, one that has searched its neighbors) the
// neighbors' bodies are solid: the agent's move of the tick, whatever moved it, is kept out
// of them (world_contact.h). `before` is the agent's start-of-tick body.
FXS_ALWAYS_INLINE void keep_out(const fxs_steer_context *ctx, const fxs_agent *before,
                                fxs_agent *next, bool crowd) {
  const fxs_step_context *step = ctx->step;
  uint32_t bodies = 0, ahead = 0;
  const fxs_contact_body *near = ctx->scratch->behavior.bodies;
  if (crowd && ctx->searched) {
    int64_t mx = (int64_t)next->position.x - before->position.x;
    int64_t my = (int64_t)next->position.y - before->position.y;
    int64_t move = (mx < 0 ? -mx : mx) + (my < 0 ? -my : my);
    int64_t slack = fxs_agent_contact_slack(next);
    bodies = fxs_way_near_bodies(ctx, before, mx, my, 2 * (move + slack), &ahead);
  }
  // fxs_contact_resolve tests this itself (no walls, obstacles or bodies the move may bind:
  // it leaves the move as it is); tested here, such a move makes no call.
  if (!step_has_solids(step) && ahead == 0) return;
  fxs_contact_world cw = {
      step->world, &step->obstacle_grid, step->obstacle_count, step->wall_count, near,
      ahead,       &step->wall_grid,     &ctx->near_walls};
  if (ahead == bodies) { // nobody left out: one resolve is the whole of it
    fxs_contact_resolve(&cw, before, next, ctx->scratch->near_obstacles, FXS_NEAR_OBSTACLES);
    return;
  }
  fxs_agent asked = *next;
  if (!fxs_contact_resolve(&cw, before, next, ctx->scratch->near_obstacles, FXS_NEAR_OBSTACLES))
    return;
  // Contact turned the move: where it now heads into a body left out, again with every one.
  int64_t x = (int64_t)next->position.x - before->position.x,
          y = (int64_t)next->position.y - before->position.y;
  if (fxs_way_bodies_clear(before, near + ahead, bodies - ahead, x, y)) return;
  *next = asked;
  cw.body_count = bodies;
  fxs_contact_resolve(&cw, before, next, ctx->scratch->near_obstacles, FXS_NEAR_OBSTACLES);
}

// keep_out, a call of its own for the agents steered by the manager and kinematic ones.
static void keep_out_of_walls(const fxs_steer_context *ctx, const fxs_agent *before,
                              fxs_agent *next, bool crowd) {
  keep_out(ctx, before, next, crowd);
}

// The steer context of the agent of view entry v (in slot `index`), and with `next_body` its
// next body set to its body.
FXS_ALWAYS_INLINE void begin_steering(fxs_steer_context *ctx, const fxs_step_context *step,
                                      uint32_t v, uint32_t index, fxs_world_worker *scratch,
                                      bool next_body) {
  fxs_world *world = step->world;
  fxs_agent_slot *s = &world->agents[index];
  if (next_body) world->internal->next[index] = s->body;
  ctx->world = world;
  ctx->step = step;
  ctx->slot = s;
  ctx->index = index;
  ctx->view = v;
  ctx->target = target_agent_of(world, s);
  ctx->target_point = ctx->target ? ctx->target->position : s->target_point;
  ctx->scratch = scratch;
  ctx->searched = false, ctx->unsorted = false, ctx->gathered = false;
  ctx->neighbor_count = 0;
  ctx->near_walls = fxs_walls_found_none();
}

// Where lone ORCA agents try the open path, a hint of the range's loop (not state: both
// paths give the same result). After an agent whose neighbors' order mattered (a crowd), the
// next `left` of the worker's range (near it in cell order, likely in the crowd too) take
// the sorted path at once; each such agent in a row doubles that count, up to
// FXS_OPEN_SKIPS_MAX, and one that takes the open path sets it back to FXS_OPEN_SKIPS. On
// RVO2's Circle at 250 agents, a fixed 3 took 31 instructions an agent-step more (0.6 %).
#define FXS_OPEN_SKIPS 3u
#define FXS_OPEN_SKIPS_MAX 31u
typedef struct open_hint {
  uint32_t left;  // agents left to take the sorted path at once
  uint32_t after; // how many the next agent whose order matters makes
} open_hint;

// Phase 4 for an agent that fxs_steers_lone_orca: what steer_agent does, without the manager. A
// call of its own, as steer_agent, so that neither one's frame adds to the other's stack.
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void
steer_lone_orca(const fxs_step_context *step, uint32_t v, uint32_t index, fxs_world_worker *scratch,
                open_hint *hint) {
  fxs_steer_context ctx;
  // In place, the slot's body is read until the integration below writes it; else the next
  // body starts as a copy of it.
  begin_steering(&ctx, step, v, index, scratch, !step->in_place);
  fxs_agent *next = step->in_place ? &ctx.slot->body : &step->world->internal->next[ctx.index];
  const fix16_t *p = ctx.slot->behaviors[0].p;
  fxs_orca_def d = orca_def_of(&ctx.slot->body, p);
  uint32_t k = d.max_neighbors;
  // Near its target (or in a group) the pile rules read the neighbors in order: no open search.
  fix16_t slowing = orca_slowing(&ctx, p);
  uint32_t group = orca_group(&ctx, slowing);
  bool near = group != 0 || fxs_way_near_goal(&ctx, slowing);
  bool open = hint->left == 0 && !near && open_step(step, d.priority);
  if (hint->left != 0) --hint->left;
  search_for(&ctx, true, k, d.neighbor_distance, open); // search's k and r for it
  fxs_vec2 preferred = wall_slide(&ctx, orca_preferred(&ctx, slowing, true)), force;
  if (near && orca_goal(&ctx, &d, slowing, group, &preferred, &force)) {
    // the goal's lattice steered it
  } else if (ctx.unsorted && orca_toward_open(&ctx, &d, preferred, &force)) {
    hint->after = FXS_OPEN_SKIPS;
  } else {
    if (ctx.unsorted) { // the order matters after all
      ctx.neighbor_count =
          fxs_grid_rank_few(ctx.world, &step->grid, k, ctx.neighbor_count, scratch);
      ctx.unsorted = false;
      hint->left = hint->after;
      hint->after =
          hint->after >= FXS_OPEN_SKIPS_MAX / 2u ? FXS_OPEN_SKIPS_MAX : 2u * hint->after + 1u;
    }
    force = fxs_world_orca_toward(&ctx, &d, preferred, 0, false);
  }
  // keep_out_of_walls reads the start-of-tick body: in place, a copy of it, kept before the
  // integration writes the slot.
  const fxs_agent *before = &ctx.slot->body;
  fxs_agent kept;
  if (step->in_place) {
    kept = ctx.slot->body;
    before = &kept;
  }
  fxs_agent_integrate_linear(next, force);
  keep_out(&ctx, before, next, true);
}

// Phase 4: the agent of view entry v (in slot `index`) steers from the start-of-tick state into
// the world's next[its slot]; it writes nothing else but its own slot's behavior state.
static void steer_agent(const fxs_step_context *step, uint32_t v, uint32_t index,
                        fxs_world_worker *scratch) {
  fxs_world *world = step->world;
  fxs_steer_context ctx;
  begin_steering(&ctx, step, v, index, scratch, true);
  fxs_agent_slot *s = ctx.slot;
  fxs_agent *next = &world->internal->next[ctx.index];
  fxs_steering_manager m;
  fxs_manager_begin_inline(&m, (fxs_combine_mode)s->combine_mode);
  // Priority groups: negligible below the agent's max force / FXS_MANAGER_EPSILON_DIVISOR.
  m.epsilon = fxs_max(s->body.max_force / FXS_MANAGER_EPSILON_DIVISOR, 1);
  fix16_t velocity_scale = FXS_ONE;
  // fxs_containment tests clamp_to_bounds itself; tested here, worlds without it skip it.
  fxs_vec2 contain =
      world->def.clamp_to_bounds ? fxs_containment_inline(&s->body, &world->def) : fxs_vec2_zero();
  if (!fxs_vec2_is_zero(contain)) {
    fxs_manager_add_inline(&m, FXS_BEHAVIOR_CONTAINMENT, fxs_steering_linear(contain), FXS_ONE, 0);
  }
  for (uint8_t i = 0; i < s->behavior_count; ++i) {
    const fxs_behavior_slot *b = &s->behaviors[i];
    if (apply_kinematic(&ctx, b, next)) {
      keep_out_of_walls(&ctx, &s->body, next, false);
      return;
    }
    fxs_steering st = slot_steering(&ctx, b, &m, &velocity_scale);
    fxs_manager_add_inline(&m, (fxs_behavior)b->kind, st, b->weight, b->priority);
  }
  fxs_manager_add_force_inline(&m, s->pending_force);
  fxs_manager_scale_velocity_inline(&m, velocity_scale);
  fxs_manager_update_inline(&m, next);
  bool solid = fxs_has_solid_body(world, index);
  // A formation member whose behaviors read no neighbors searches them for its body here.
  if (solid && !ctx.searched) search_for(&ctx, false, 0, 0, false);
  keep_out_of_walls(&ctx, &s->body, next, solid);
}

// Phase 4 for an agent that fxs_steers_lone_navigate: steer_agent without the manager, as
// steer_lone_orca (a call of its own for the same reason).
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void
steer_lone_navigate(const fxs_step_context *step, uint32_t v, uint32_t index,
                    fxs_world_worker *scratch) {
  fxs_steer_context ctx;
  begin_steering(&ctx, step, v, index, scratch, true);
  fxs_agent *next = &step->world->internal->next[index];
  search(&ctx); // as neighbor_steering, before the behavior
  fxs_vec2 force = fxs_world_navigate_steering(&ctx, ctx.slot->behaviors[0].p);
  fxs_agent_integrate_linear(next, force);
  keep_out(&ctx, &ctx.slot->body, next, true); // navigate's body is solid (fxs_has_solid_body)
}

void fxs_world_steer_range(uint32_t begin, uint32_t end, uint32_t worker, void *context) {
  const fxs_step_context *step = (const fxs_step_context *)context;
  const fxs_world *world = step->world;
  FXS_ASSERT(worker < FXS_MAX_WORKERS);
  if (worker >= FXS_MAX_WORKERS) return;
  const uint32_t *view_slot = world->internal->view_slot;
  fxs_world_worker *scratch = &world->internal->workers[worker];
  open_hint hint = {0, FXS_OPEN_SKIPS};
  if (step->in_place) { // every agent a lone ORCA one (world_crowd.h)
    for (uint32_t v = begin; v < end; ++v) {
      if (end - v > FXS_PREFETCH_AHEAD) {
        FXS_PREFETCH_AGENT(world, view_slot[v + FXS_PREFETCH_AHEAD], true);
      }
      steer_lone_orca(step, v, view_slot[v], scratch, &hint);
    }
    return;
  }
  for (uint32_t v = begin; v < end; ++v) {
    if (end - v > FXS_PREFETCH_AHEAD) {
      FXS_PREFETCH_AGENT(world, view_slot[v + FXS_PREFETCH_AHEAD], false);
    }
    uint32_t index = view_slot[v];
    if (fxs_steers_lone_orca(world, &world->agents[index])) {
      steer_lone_orca(step, v, index, scratch, &hint);
    } else if (fxs_steers_lone_navigate(world, &world->agents[index])) {
      steer_lone_navigate(step, v, index, scratch);
    } else {
      steer_agent(step, v, index, scratch);
    }
  }
}
