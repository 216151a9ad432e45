#include "fixsteer/flocking.h"

#include "fixsteer/seek.h"
#include "vec2_measure.h"
#include "wide.h"

fxs_neighbor fxs_neighbor_of(const fxs_agent *agent, uint32_t id) {
  fxs_neighbor n;
  n.position = agent->position;
  n.velocity = agent->velocity;
  n.id = id;
  return n;
}

// Each loop below comes in two forms, from known squared distances (neighbor i is within
// radius when dist_sq[i] <= radius^2, the decision fxs_vec2_within makes, with the radius
// squared once) and measured, so the per-neighbor test has no branch on which. A negative
// radius takes in nothing in either form.

// Reynolds' inverse-distance push, in the units of a desired velocity like seek's:
// max_speed * (radius / d - 1), saturated at FXS_SEPARATION_MAX_PUSH * max_speed (also for
// d == 0). Scaled by the speed, it outweighs seek-like pulls (desired - velocity, up to twice
// the max speed) once bodies come close, which a push of at most max_force never did.
// cap = fxs_mul(max_speed, FXS_INT(FXS_SEPARATION_MAX_PUSH)), computed once per agent.
static fix16_t push_at(fix16_t d, fix16_t radius, fix16_t max_speed, fix16_t cap) {
  if (d <= 0) return cap;
  return fxs_min(fxs_muldiv(fxs_sub(radius, d), max_speed, d), cap);
}

// The push neighbor n gives self: away from it, by push_at of the distance.
static fxs_vec2 push_from(const fxs_agent *self, uint32_t self_id, const fxs_neighbor *n,
                          fix16_t radius, fix16_t cap) {
  fxs_vec2 away = fxs_vec2_sub(self->position, n->position);
  if (fxs_vec2_is_zero(away)) { // on the same spot: apart along x, by id
    away = fxs_vec2_make(self_id < n->id ? -FXS_ONE : FXS_ONE, 0);
    return fxs_vec2_set_length(away, push_at(0, radius, self->max_speed, cap));
  }
  fxs_vec2_measure m = fxs_vec2_measure_of(away); // the distance and the direction from one root
  return fxs_vec2_set_length_measured(away, &m, push_at(m.length, radius, self->max_speed, cap));
}

static fxs_vec2 separation(const fxs_agent *self, uint32_t self_id, const fxs_neighbor *neighbors,
                           const uint64_t *dist_sq, uint32_t count, fix16_t radius) {
  fxs_vec2 force = fxs_vec2_zero();
  if (radius <= 0) return force;
  fix16_t cap = fxs_mul(self->max_speed, FXS_INT(FXS_SEPARATION_MAX_PUSH));
  if (dist_sq) {
    uint64_t radius_sq = (uint64_t)radius * (uint64_t)radius;
    for (uint32_t i = 0; i < count; ++i) {
      if (neighbors[i].id == self_id || dist_sq[i] > radius_sq) continue;
      force = fxs_vec2_add(force, push_from(self, self_id, &neighbors[i], radius, cap));
    }
  } else {
    for (uint32_t i = 0; i < count; ++i) {
      const fxs_neighbor *n = &neighbors[i];
      if (n->id == self_id || !fxs_vec2_within(self->position, n->position, radius)) continue;
      force = fxs_vec2_add(force, push_from(self, self_id, n, radius, cap));
    }
  }
  return force;
}

fxs_vec2 fxs_separation(const fxs_agent *self, uint32_t self_id, const fxs_neighbor *neighbors,
                        uint32_t count, fix16_t radius) {
  return separation(self, self_id, neighbors, 0, count, radius);
}

fxs_vec2 fxs_separation_known(const fxs_agent *self, uint32_t self_id,
                              const fxs_neighbor *neighbors, const uint64_t *dist_sq,
                              uint32_t count, fix16_t radius) {
  FXS_ASSERT(dist_sq != 0 || count == 0);
  return separation(self, self_id, neighbors, dist_sq, count, radius);
}

static void add_neighbor(fxs_neighborhood *h, const fxs_neighbor *n) {
  h->position_x += n->position.x;
  h->position_y += n->position.y;
  h->velocity_x += n->velocity.x;
  h->velocity_y += n->velocity.y;
  h->count += 1;
}

// Sums of the positions and velocities of the neighbors within radius, in 64 bits.
static inline fxs_neighborhood gather(const fxs_agent *self, uint32_t self_id,
                                      const fxs_neighbor *neighbors, const uint64_t *dist_sq,
                                      uint32_t count, fix16_t radius) {
  fxs_neighborhood h = {0, 0, 0, 0, 0};
  if (radius < 0) return h;
  if (dist_sq) {
    uint64_t radius_sq = (uint64_t)radius * (uint64_t)radius;
    for (uint32_t i = 0; i < count; ++i) {
      if (neighbors[i].id != self_id && dist_sq[i] <= radius_sq) add_neighbor(&h, &neighbors[i]);
    }
  } else {
    for (uint32_t i = 0; i < count; ++i) {
      const fxs_neighbor *n = &neighbors[i];
      if (n->id != self_id && fxs_vec2_within(self->position, n->position, radius)) {
        add_neighbor(&h, n);
      }
    }
  }
  return h;
}

fxs_neighborhood fxs_neighborhood_gather(uint32_t self_id, const fxs_neighbor *neighbors,
                                         const uint64_t *dist_sq, uint32_t count, fix16_t radius) {
  FXS_ASSERT(dist_sq != 0 || count == 0);
  if (!dist_sq) count = 0;
  return gather(0, self_id, neighbors, dist_sq, count, radius);
}

static fix16_t average(int64_t sum, int32_t count) {
  return fxs_saturate(fxs_div_round_i64(sum, count));
}

fxs_vec2 fxs_alignment_of(const fxs_agent *self, const fxs_neighborhood *h) {
  if (h->count == 0) return fxs_vec2_zero();
  fxs_vec2 avg = fxs_vec2_make(average(h->velocity_x, h->count), average(h->velocity_y, h->count));
  return fxs_steer_toward(self, avg);
}

fxs_vec2 fxs_cohesion_of(const fxs_agent *self, const fxs_neighborhood *h) {
  if (h->count == 0) return fxs_vec2_zero();
  return fxs_seek(
      self, fxs_vec2_make(average(h->position_x, h->count), average(h->position_y, h->count)));
}

fxs_vec2 fxs_alignment(const fxs_agent *self, uint32_t self_id, const fxs_neighbor *neighbors,
                       uint32_t count, fix16_t radius) {
  fxs_neighborhood h = gather(self, self_id, neighbors, 0, count, radius);
  return fxs_alignment_of(self, &h);
}

fxs_vec2 fxs_cohesion(const fxs_agent *self, uint32_t self_id, const fxs_neighbor *neighbors,
                      uint32_t count, fix16_t radius) {
  fxs_neighborhood h = gather(self, self_id, neighbors, 0, count, radius);
  return fxs_cohesion_of(self, &h);
}
