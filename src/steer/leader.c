#include "fixsteer/leader.h"

#include "fixsteer/behavior_params.h"
#include "fixsteer/pursuit.h"
#include "fixsteer/seek.h"

fxs_leader_def fxs_default_leader_def(void) {
  fxs_leader_def d;
  d.leader_behind_dist = fxs_behavior_param_default(FXS_BEHAVIOR_LEADER, 0);
  d.leader_sight_radius = fxs_behavior_param_default(FXS_BEHAVIOR_LEADER, 1);
  d.slowing_radius = fxs_behavior_param_default(FXS_BEHAVIOR_LEADER, 2);
  d.separation_radius = fxs_behavior_param_default(FXS_BEHAVIOR_LEADER, 3);
  d.separation_weight = fxs_behavior_param_default(FXS_BEHAVIOR_LEADER, 4);
  d.max_prediction = fxs_behavior_param_default(FXS_BEHAVIOR_LEADER, 5);
  return d;
}

fxs_queue_def fxs_default_queue_def(void) {
  fxs_queue_def d;
  d.max_queue_ahead = fxs_behavior_param_default(FXS_BEHAVIOR_QUEUE, 0);
  d.max_queue_radius = fxs_behavior_param_default(FXS_BEHAVIOR_QUEUE, 1);
  d.separation_radius = fxs_behavior_param_default(FXS_BEHAVIOR_QUEUE, 2);
  return d;
}

// An agent's heading scaled to `length`: its velocity, or its orientation at rest.
static fxs_vec2 heading(const fxs_agent *agent, fix16_t length) {
  fxs_vec2 dir =
      fxs_vec2_is_zero(agent->velocity) ? fxs_vec2_from_angle(agent->orientation) : agent->velocity;
  return fxs_vec2_set_length(dir, length);
}

fxs_vec2 fxs_leader_behind_point(const fxs_agent *leader, const fxs_leader_def *def) {
  return fxs_vec2_sub(leader->position, heading(leader, def->leader_behind_dist));
}

// Leader following given the followers' separation force `apart`.
static fxs_vec2 follow(const fxs_agent *self, const fxs_agent *leader, const fxs_leader_def *def,
                       fxs_vec2 apart) {
  fxs_vec2 ahead = fxs_vec2_add(leader->position, heading(leader, def->leader_behind_dist));
  fxs_vec2 force = fxs_arrive(self, fxs_leader_behind_point(leader, def), def->slowing_radius);
  bool on_sight = fxs_vec2_within(ahead, self->position, def->leader_sight_radius) ||
                  fxs_vec2_within(leader->position, self->position, def->leader_sight_radius);
  if (on_sight) force = fxs_vec2_add(force, fxs_evade(self, leader, def->max_prediction, 0));
  return fxs_vec2_add(force, fxs_vec2_scale(apart, def->separation_weight));
}

fxs_vec2 fxs_follow_leader(const fxs_agent *self, uint32_t self_id, const fxs_agent *leader,
                           const fxs_neighbor *neighbors, uint32_t count,
                           const fxs_leader_def *def) {
  return follow(self, leader, def,
                fxs_separation(self, self_id, neighbors, count, def->separation_radius));
}

fxs_vec2 fxs_follow_leader_known(const fxs_agent *self, uint32_t self_id, const fxs_agent *leader,
                                 const fxs_neighbor *neighbors, const uint64_t *dist_sq,
                                 uint32_t count, const fxs_leader_def *def) {
  return follow(
      self, leader, def,
      fxs_separation_known(self, self_id, neighbors, dist_sq, count, def->separation_radius));
}

int fxs_queue_neighbor_ahead(const fxs_agent *self, uint32_t self_id, const fxs_neighbor *neighbors,
                             uint32_t count, const fxs_queue_def *def) {
  fxs_vec2 forward = heading(self, def->max_queue_ahead);
  fxs_vec2 ahead = fxs_vec2_add(self->position, forward);
  for (uint32_t i = 0; i < count; ++i) {
    if (neighbors[i].id == self_id) continue;
    // Only an agent in front counts: the distance test alone also catches agents beside or
    // on top of this one, and two such agents would brake for each other for ever.
    fxs_vec2 offset = fxs_vec2_sub(neighbors[i].position, self->position);
    if (fxs_vec2_dot(offset, forward) <= 0) continue;
    if (fxs_vec2_within(ahead, neighbors[i].position, def->max_queue_radius)) return (int)i;
  }
  return -1;
}

bool fxs_queue_must_hold(const fxs_agent *self, uint32_t self_id, const fxs_agent *other,
                         uint32_t other_id) {
  if (other_id == self_id) return false;
  fix16_t reach = fxs_add(fxs_add(self->radius, other->radius), self->max_speed);
  if (!fxs_vec2_within(self->position, other->position, reach)) return false;
  fxs_vec2 offset = fxs_vec2_sub(other->position, self->position);
  if (fxs_vec2_dot(offset, heading(self, FXS_ONE)) <= 0) return false; // not in front
  // Each in front of the other (meeting head on, or converging): the lower id goes first.
  if (self_id < other_id && fxs_vec2_dot(offset, heading(other, FXS_ONE)) < 0) return false;
  return true;
}

// True when any neighbor makes the agent hold (see fxs_queue_must_hold).
static bool held(const fxs_agent *self, uint32_t self_id, const fxs_neighbor *neighbors,
                 uint32_t count, fxs_body_lookup *body_of, const void *context) {
  if (!body_of) return false;
  for (uint32_t i = 0; i < count; ++i) {
    const fxs_agent *other = body_of(neighbors[i].id, context);
    if (other && fxs_queue_must_hold(self, self_id, other, neighbors[i].id)) return true;
  }
  return false;
}

// The queue with known squared distances (dist_sq) or measured ones (NULL).
static fxs_vec2 queue(const fxs_agent *self, uint32_t self_id, fxs_vec2 steering,
                      const fxs_neighbor *neighbors, const uint64_t *dist_sq, uint32_t count,
                      fxs_body_lookup *body_of, const void *context, const fxs_queue_def *def,
                      fix16_t *velocity_scale) {
  *velocity_scale = FXS_ONE;
  if (held(self, self_id, neighbors, count, body_of, context)) {
    *velocity_scale = 0;
    return fxs_vec2_zero();
  }
  int ahead = fxs_queue_neighbor_ahead(self, self_id, neighbors, count, def);
  if (ahead < 0) return fxs_vec2_zero();
  fxs_vec2 brake = fxs_vec2_scale(steering, -FXS_RATIO(8, 10));
  brake = fxs_vec2_add(brake, fxs_vec2_negate(self->velocity));
  fxs_vec2 apart =
      dist_sq
          ? fxs_separation_known(self, self_id, neighbors, dist_sq, count, def->separation_radius)
          : fxs_separation(self, self_id, neighbors, count, def->separation_radius);
  brake = fxs_vec2_add(brake, apart);
  if (fxs_vec2_within(self->position, neighbors[ahead].position, def->max_queue_radius)) {
    *velocity_scale = FXS_RATIO(3, 10);
  }
  return brake;
}

fxs_vec2 fxs_queue(const fxs_agent *self, uint32_t self_id, fxs_vec2 steering,
                   const fxs_neighbor *neighbors, uint32_t count, fxs_body_lookup *body_of,
                   const void *context, const fxs_queue_def *def, fix16_t *velocity_scale) {
  return queue(self, self_id, steering, neighbors, 0, count, body_of, context, def, velocity_scale);
}

fxs_vec2 fxs_queue_known(const fxs_agent *self, uint32_t self_id, fxs_vec2 steering,
                         const fxs_neighbor *neighbors, const uint64_t *dist_sq, uint32_t count,
                         fxs_body_lookup *body_of, const void *context, const fxs_queue_def *def,
                         fix16_t *velocity_scale) {
  FXS_ASSERT(dist_sq != 0 || count == 0);
  if (!dist_sq) count = 0;
  return queue(self, self_id, steering, neighbors, dist_sq, count, body_of, context, def,
               velocity_scale);
}
