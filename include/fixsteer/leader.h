/// @file leader.h
/// Leader following and queue (the later parts of the series seed 000 introduces).
/// Leader following: arrive at a point leader_behind_dist behind the leader, evade the
/// leader when standing in its sight (within leader_sight_radius of the leader or of the
/// point ahead of it), and keep apart from the other followers.
/// Queue: when another agent stands within max_queue_radius of the point max_queue_ahead
/// ahead, brake (cancel 80% of the other steering and the velocity), and crawl at 30% speed
/// when that agent is itself within max_queue_radius.
/// Where this goes beyond the tutorial, so that a queue comes to rest:
/// - "Ahead" is along the agent's heading: its velocity, or its orientation when it stands
///   still (a resting agent would otherwise see no one ahead, start, brake, and jitter).
/// - Only an agent in front counts (positive projection on the heading): two agents beside
///   or on top of each other would otherwise brake for each other for ever.
/// - An agent whose body is within one tick of travel (its max_speed) of touching the agent
///   ahead stands still: its velocity and linear steering are dropped for the tick (the
///   manager's hold, velocity scale 0), so a settled queue is exactly at rest, never
///   overlapping and never jittering. Two agents each in front of the other (meeting head
///   on) would hold for ever: the one with the lower id goes first.
#ifndef FIXSTEER_LEADER_H
#define FIXSTEER_LEADER_H

#include "fixsteer/api.h"
#include <stdbool.h>
#include <stdint.h>

#include "fixsteer/agent.h"
#include "fixsteer/flocking.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Leader-following parameters (LEADER_BEHIND_DIST, LEADER_SIGHT_RADIUS).
typedef struct fxs_leader_def {
  fix16_t leader_behind_dist;  ///< World units behind the leader. Default 30.
  fix16_t leader_sight_radius; ///< World units. Default 30.
  fix16_t slowing_radius;      ///< Arrival slowing radius at the point behind. Default 60.
  fix16_t separation_radius;   ///< Followers keep this far apart. Default 30.
  fix16_t separation_weight;   ///< Multiplies the separation force (MAX_SEPARATION). Default 8.
  fix16_t max_prediction;      ///< Look-ahead cap of the evade, ticks. Default 20.
} fxs_leader_def;

/// Queue parameters (MAX_QUEUE_AHEAD, MAX_QUEUE_RADIUS).
typedef struct fxs_queue_def {
  fix16_t max_queue_ahead;   ///< World units ahead of the agent. Default 20.
  fix16_t max_queue_radius;  ///< World units. Default 16.
  fix16_t separation_radius; ///< World units. Default 16.
} fxs_queue_def;

/// The defaults listed on each field.
FXS_API fxs_leader_def fxs_default_leader_def(void);
/// The defaults listed on each field.
FXS_API fxs_queue_def fxs_default_queue_def(void);

/// The point the followers arrive at: leader_behind_dist behind the leader's velocity (its
/// orientation when it stands still).
FXS_API fxs_vec2 fxs_leader_behind_point(const fxs_agent *leader, const fxs_leader_def *def);

/// Leader-following force for one follower. neighbors are the other followers (and may
/// include the leader and the follower itself: ids equal to self_id are skipped).
FXS_API fxs_vec2 fxs_follow_leader(const fxs_agent *self, uint32_t self_id, const fxs_agent *leader,
                                   const fxs_neighbor *neighbors, uint32_t count,
                                   const fxs_leader_def *def);

/// Leader following over followers whose squared distances to self are known (dist_sq as
/// for fxs_separation_known): equals fxs_follow_leader.
FXS_API fxs_vec2 fxs_follow_leader_known(const fxs_agent *self, uint32_t self_id,
                                         const fxs_agent *leader, const fxs_neighbor *neighbors,
                                         const uint64_t *dist_sq, uint32_t count,
                                         const fxs_leader_def *def);

/// The full state of the neighbor with this id (the queue needs the size and heading of the
/// agent ahead). context is the caller's.
typedef const fxs_agent *fxs_body_lookup(uint32_t id, const void *context);

/// Index into neighbors of the first one in front of the agent (positive projection on its
/// heading) within max_queue_radius of the point max_queue_ahead along the heading, or -1.
FXS_API int fxs_queue_neighbor_ahead(const fxs_agent *self, uint32_t self_id,
                                     const fxs_neighbor *neighbors, uint32_t count,
                                     const fxs_queue_def *def);

/// True when self (id self_id) must stand still behind `ahead` (id ahead_id, the agent the
/// queue found ahead): their bodies are within self's max_speed of touching, unless self
/// is also in front of ahead's heading and has the lower id.
FXS_API bool fxs_queue_must_hold(const fxs_agent *self, uint32_t self_id, const fxs_agent *ahead,
                                 uint32_t ahead_id);

/// Queue braking force given the steering other behaviors produced this tick. Sets
/// *velocity_scale to 0 when the agent must hold (the force is then zero), to 0.3 when the
/// agent ahead is within max_queue_radius, else to 1. body_of(id, context) gives the full
/// state of a neighbor; it is asked only for the agent ahead.
FXS_API fxs_vec2 fxs_queue(const fxs_agent *self, uint32_t self_id, fxs_vec2 steering,
                           const fxs_neighbor *neighbors, uint32_t count, fxs_body_lookup *body_of,
                           const void *context, const fxs_queue_def *def, fix16_t *velocity_scale);

/// The queue over neighbors whose squared distances to self are known (dist_sq as for
/// fxs_separation_known): equals fxs_queue.
FXS_API fxs_vec2 fxs_queue_known(const fxs_agent *self, uint32_t self_id, fxs_vec2 steering,
                                 const fxs_neighbor *neighbors, const uint64_t *dist_sq,
                                 uint32_t count, fxs_body_lookup *body_of, const void *context,
                                 const fxs_queue_def *def, fix16_t *velocity_scale);

#ifdef __cplusplus
}
#endif

#endif
