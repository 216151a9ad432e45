// Internal: how crowd agents give way to each other (docs/crowds.md), read by the steering of
// phase 4 (world_steer.c): piles round a shared goal (an agent held in the notch between
// agents that got there first rests), agents resting on spots of their own making way for
// ones that must pass, and the nearby bodies that contact keeps each agent off. Every rule
// reads the start-of-tick state only, so both agents of a pair come to the same answer. Not
// part of the API.
#ifndef FIXSTEER_WORLD_WAY_H
#define FIXSTEER_WORLD_WAY_H

#include <stdbool.h>
#include <stdint.h>

#include "world_steer.h"

/// Body radii from its target within which a pile round a shared target may hold an ORCA
/// agent: a pile of about (16 / 1.3)^2 = 150 agents (docs/crowds.md).
#define FXS_PILE_RADII 16

/// Whether the agent is within `slowing` (its slowing radius) or FXS_PILE_RADII body radii
/// of its target: where a pile round a shared target may hold an ORCA agent. (Inline, as
/// fxs_vec2_within's answer: every ORCA agent asks it a step.)
static inline bool fxs_way_near_goal(const fxs_steer_context *ctx, fix16_t slowing) {
  const fxs_agent *a = &ctx->slot->body;
  int64_t pile = (int64_t)fxs_max(a->radius, 0) * FXS_PILE_RADII;
  fix16_t reach = fxs_max(slowing, pile > FXS_MAX ? FXS_MAX : (fix16_t)pile);
  int64_t x = (int64_t)a->position.x - ctx->target_point.x;
  int64_t y = (int64_t)a->position.y - ctx->target_point.y;
  uint64_t dx = (uint64_t)(x < 0 ? -x : x), dy = (uint64_t)(y < 0 ? -y : y);
  if (reach < 0 || dx > (uint64_t)reach || dy > (uint64_t)reach) return false;
  return dx * dx + dy * dy <= (uint64_t)reach * (uint64_t)reach;
}

/// The pile rule: true when searched neighbors no faster than `slow`, going to the same point
/// `to`, touch the agent (centres within both radii and `gap`), lie nearer `to` and hold it
/// on both sides of its way there (within 60 degrees of it), or one of them touches it and
/// stands on `to` itself: it rests there, as a grain settles in a pile. One held on one side
/// only slides on round it (ORCA), so a pile grows compact round its goal, not in a line
/// along the way the agents came. Agents going to spots of their own pass by.
bool fxs_way_held_in_pile(const fxs_steer_context *ctx, fxs_vec2 to, fix16_t slow, fix16_t gap);

/// ORCA's pile rule: fxs_way_held_in_pile toward the agent's target with ORCA's own slow
/// speed (max_force) and gap (fxs_agent_touch); no group: ORCA agents share no field.
bool fxs_way_held_in_orca_pile(const fxs_steer_context *ctx);

/// The radius a body of a pile takes up: its own, or half way to the neighbor radius ORCA
/// assumes (`neighbor_radius`, when positive) where that keeps the bodies farther apart.
static inline fix16_t fxs_way_spaced_radius(const fxs_agent *a, fix16_t neighbor_radius) {
  fix16_t r = fxs_max(a->radius, 0);
  return neighbor_radius > r ? (fix16_t)(((int64_t)r + neighbor_radius) / 2) : r;
}

/// The compact cluster of a group of N agents sharing one goal: a disc of 1.3 r sqrt(N)
/// round it (docs/crowds.md), less 5 %: an agent of radius r rests in its group's pile only
/// within sqrt(FXS_CLUSTER_AREA_NUM / FXS_CLUSTER_AREA_DEN) r sqrt(N) of its goal
/// (1.235 r sqrt(N)); farther out it keeps pressing toward the goal, so the pile fills in
/// compact instead of growing a tail along the way the group came.
#define FXS_CLUSTER_AREA_NUM 61
#define FXS_CLUSTER_AREA_DEN 40

/// Whether a body at `at` lies within the compact cluster round `to` of a group of `members`
/// bodies of radius `radius` (FXS_CLUSTER_AREA_NUM), exactly.
bool fxs_way_in_cluster(fxs_vec2 at, fix16_t radius, fxs_vec2 to, uint32_t members);

/// Arrival by contact: true when a searched neighbor at rest (zero velocity) going to the
/// agent's own goal, nearer `to` than the agent, touches it (centres within both radii and
/// `gap`): inside the compact cluster (fxs_way_in_cluster) the agent then rests against the
/// cluster that formed; outside it, pressed against it, it waits (static friction).
bool fxs_way_touches_rest(const fxs_steer_context *ctx, fxs_vec2 to, fix16_t gap);

/// When a navigate agent pressed into a crowd waits (fxs_way_static_friction): `always`, or,
/// with `pile`, when one of its group at rest nearer `to` touches it within `gap`
/// (fxs_way_touches_rest, asked only where static friction needs the answer).
typedef struct fxs_way_wait {
  bool always;
  bool pile;
  fxs_vec2 to;
  fix16_t gap;
} fxs_way_wait;

/// Static friction, as for contact with walls: an agent that would rest (its preferred
/// velocity no faster than its rest speed, agent.h) and that its neighbors' half-planes leave
/// as slow (ORCA's velocity v) rests, instead of crawling a few LSB a tick against them;
/// unless its body overlaps a neighbor's and the crawl is what separates them. Where `wait`
/// (or NULL) says so, an agent its neighbors leave no faster than that rests whatever it
/// prefers: one pressed against a pile waits instead of creeping into it; unless within
/// ORCA's margin of a neighbor, where the crawl reopens the margin (else a crush of them
/// waits for good). Returns the velocity kept.
fxs_vec2 fxs_way_static_friction(const fxs_steer_context *ctx, fxs_vec2 preferred, fxs_vec2 v,
                                 const fxs_way_wait *wait);

/// Static friction of an agent walled off from its target (FXS_RULES_WALLED_REST): where ORCA
/// leaves it (velocity v) no faster than its rest speed and a closed chain of walls separates it
/// from its target (fxs_wall_encloses_target), it rests, whatever it prefers, instead of
/// crawling in the pile it is pressed into; unless its body overlaps a neighbor's, where the
/// crawl is what separates them. Returns the velocity kept.
fxs_vec2 fxs_way_walled_friction(const fxs_steer_context *ctx, fxs_vec2 v);

/// Whether a searched neighbor within `reach` is one the agent makes way for: it rests on a
/// spot of its own and the neighbor (a navigate agent going elsewhere) does not, or it rests
/// on the neighbor's spot, or both crawl in a crush (followers of two groups' fields, moving
/// no faster than their rest speed, touching within both radii and an eighth of them) and
/// the neighbor's goal comes first in a fixed order (x, then y); and the neighbor owes it no
/// way back (docs/crowds.md, a crush of groups).
bool fxs_way_mover_near(const fxs_steer_context *ctx, fix16_t reach);

/// Making way among the first `chosen` neighbors of a navigate agent: against a neighbor it
/// makes way for (fxs_way_mover_near's rule) the agent takes the whole of the avoiding (that
/// neighbor's priority becomes FXS_ORCA_PASSIVE in priorities[], filled from `priority`
/// where *all_equal was true); a neighbor that makes way for the agent is left out of its
/// ORCA (contact alone keeps them apart), moved behind the others with its distance. Returns
/// how many neighbors ORCA takes.
uint32_t fxs_way_make(fxs_steer_context *ctx, uint32_t chosen, fix16_t priority,
                      fix16_t *priorities, bool *all_equal);

/// The searched neighbors whose bodies the move (mx, my), raw, of the agent whose
/// start-of-tick body is `a` (in place, the slot already holds the new one) could reach,
/// into the worker's scratch (behavior.bodies) for contact; their count. `reach` (raw)
/// bounds the gap a move can close beyond both radii: contact's projections only shorten a
/// move, so no body farther than that can bind. The first *ahead of them are those the move
/// itself may bind; the others (behind the move, or too far along it) can bind only if
/// contact turns the move toward them (fxs_way_bodies_clear).
uint32_t fxs_way_near_bodies(const fxs_steer_context *ctx, const fxs_agent *a, int64_t mx,
                             int64_t my, int64_t reach, uint32_t *ahead);

/// True when none of bodies[0..count) may bind the move (mx, my) of the agent whose
/// start-of-tick body is `a` (false where it cannot tell).
bool fxs_way_bodies_clear(const fxs_agent *a, const fxs_contact_body *bodies, uint32_t count,
                          int64_t mx, int64_t my);

/// Keeping right among other flows: a field group's follower on its way, moving faster than
/// its rest speed (a crawler is in a crush, which the crush order settles), with a searched
/// neighbor within `reach` going elsewhere (another goal) and moving across or against its
/// way (its velocity more than 45 degrees from `preferred`) turns its preferred velocity 45
/// degrees to its right (clockwise, y up), keeping its length; `preferred` itself otherwise.
/// Flows of several groups sharing a passage so take its two sides, each its right, and meet
/// in a crossing as round a roundabout, instead of filling every passage with inbound agents
/// (docs/crowds.md, keeping right). Reads the start-of-tick state only.
fxs_vec2 fxs_way_keep_right(const fxs_steer_context *ctx, fxs_vec2 preferred, fix16_t reach);

/// Round another group's pile: a field group's follower of a group of `members` on a last leg
/// to `to` that passes another goal's pile, outside twice its own compact disc
/// (fxs_way_in_cluster), with a searched neighbor at rest on its own goal or on its group's lattice
/// round it (fxs_cluster_on_node), going elsewhere, whose body lies in its way
/// within one lattice step ahead (fxs_cluster_step: the two bodies within both radii of the
/// segment from it along `preferred`), turns `preferred` by FXS_CLUSTER_ROUND_TURN, keeping its
/// length, so it slides round the pile's edge instead of pressing into it; `preferred` itself
/// otherwise (docs/crowds.md). Reads the start-of-tick state only.
fxs_vec2 fxs_way_round_pile(const fxs_steer_context *ctx, fxs_vec2 preferred, fxs_vec2 to,
                            uint32_t members);

#endif
