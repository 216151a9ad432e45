// The navigate behavior's steering (world_navigate.h).
#include "world_navigate.h"

#include "fixsteer/orca.h"
#include "world_cluster.h"
#include "world_internal.h"
#include "world_nav.h"
#include "world_rules.h"
#include "world_sharers.h"
#include "world_way.h"
#include "vec2_within.h"

// Navigate (world_nav.h): the route's move; ORCA toward it among the neighbors, except when
// landing on the last point (taken as it is); on the last leg, within the slowing radius,
// an agent touching one that arrived first holds still. Parameters slowing_radius, then
// ORCA's time_horizon, neighbor_distance, neighbor_radius, max_neighbors, priority.
fxs_vec2 fxs_world_navigate_steering(fxs_steer_context *ctx, const fix16_t *p) {
  const fxs_agent *a = &ctx->slot->body;
  fxs_orca_def d = FXS_ORCA_DEF_OF(a, p, NAVIGATE);
  fix16_t slowing = fxs_slowing_radius_of(a, p[FXS_PARAM(NAVIGATE, slowing_radius)]);
  fxs_nav_move m = fxs_world_nav_move(ctx->world, ctx->index, ctx->target_point, slowing);
  fxs_world_search_neighbors(ctx);
  // Landing, unless an agent that must pass comes near: then it makes way (make_way).
  if (m.land && !fxs_way_mover_near(ctx, d.neighbor_distance))
    return fxs_steer_toward(a, m.velocity);
  // A group's follower (a field's) counts neighbours up to half its top speed as arrived,
  // at any distance from the goal: a pile of hundreds is wide and never quite still. It
  // rests only inside its group's compact cluster (fxs_way_in_cluster), there also against
  // any of its group already at rest (arrival by contact); outside it presses on.
  // (Both since simulation version 5; by version 4's a follower rests in any pile, waits anywhere.)
  uint32_t group = fxs_world_goal_group(ctx->world, ctx->index); // (fields', since version 10 any)
  bool clusters = fxs_rules_since(ctx->world, FXS_RULES_GOAL_CLUSTERS);
  bool near = group || fxs_vec2_within_inline(a->position, m.to, slowing);
  bool compact = group && fxs_rules_since(ctx->world, FXS_RULES_COMPACT_CLUSTERS);
  fix16_t slow = fxs_max(a->max_force, 0), gap = fxs_agent_touch(a);
  if (group) slow = fxs_max(slow, fxs_max(a->max_speed, 0) / 2);
  if (group && !compact) gap = fxs_max(a->radius, gap);
  if (compact && m.last) d.neighbor_radius = 0; // world_rules.h: compact clusters
  // On the last leg, round its goal, a group's follower settles on its cluster's lattice
  // (world_cluster.h, since simulation version 8), counting the group going to that point.
  if (m.last && near && compact && fxs_rules_since(ctx->world, FXS_RULES_CLUSTER_LATTICE)) {
    fxs_vec2 v;
    fxs_cluster_move how = fxs_cluster_steer(ctx, m.to, slowing, d.neighbor_distance, &v);
    fxs_way_wait wait = {true, true, m.to, gap};
    if (how == FXS_CLUSTER_LAND) return fxs_steer_toward(a, v);
    if (how != FXS_CLUSTER_NONE) return fxs_world_orca_toward(ctx, &d, v, &wait, true);
  }
  if (m.last && near) {
    bool held;
    if (group && clusters) {
      fix16_t room = compact ? fxs_max(a->radius, 0) : fxs_way_spaced_radius(a, d.neighbor_radius);
      held = fxs_way_in_cluster(a->position, room, m.to, group) &&
             (fxs_way_held_in_pile(ctx, m.to, slow, gap) || fxs_way_touches_rest(ctx, m.to, gap));
    } else {
      held = fxs_way_held_in_pile(ctx, m.to, slow, gap);
    }
    if (held) m.velocity = fxs_vec2_zero();
  }
  // On a last leg past another group's pile, a group's follower goes round it (version 9).
  if (group && m.last && fxs_rules_since(ctx->world, FXS_RULES_ROUND_PILES))
    m.velocity = fxs_way_round_pile(ctx, m.velocity, m.to, group);
  // On its way among other groups' agents, a group's follower keeps to its right (lanes:
  // docs/crowds.md, since simulation version 6).
  if (group && !(m.last && near) && fxs_rules_since(ctx->world, FXS_RULES_KEEP_RIGHT))
    m.velocity = fxs_way_keep_right(ctx, m.velocity, d.neighbor_distance);
  // Pressed into a crowd, a group's follower waits only on its last leg (the pile's static
  // friction) or against one of its group at rest nearer the goal; on the way there it crawls
  // on, so a crush of groups in a crossing keeps flowing. An agent going alone (its own spot,
  // its own route) waits anywhere, as before: crawling, it can press into a door's jamb.
  fxs_way_wait wait = {!group || !clusters || (m.last && near), true, m.to, gap};
  return fxs_world_orca_toward(ctx, &d, m.velocity, &wait, true);
}
