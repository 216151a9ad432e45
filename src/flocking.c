#include "fixsteer/flocking.h"

#include "fixsteer/seek.h"
#include "wide.h"

fxs_neighbor fxs_neighbor_of(const fxs_agent *agent, uint32_t id) {
  fxs_neighbor n;
  n.position = agent->position;
  n.velocity = agent->velocity;
  n.id = id;
  return n;
}

fxs_vec2 fxs_separation(const fxs_agent *self, uint32_t self_id, const fxs_neighbor *neighbors,
                        uint32_t count, fix16_t radius) {
  fxs_vec2 force = fxs_vec2_zero();
  if (radius <= 0) return force;
  for (uint32_t i = 0; i < count; ++i) {
    const fxs_neighbor *n = &neighbors[i];
    if (n->id == self_id || !fxs_vec2_within(self->position, n->position, radius)) continue;
    fxs_vec2 away = fxs_vec2_sub(self->position, n->position);
    fix16_t d = fxs_vec2_length(away);
    if (fxs_vec2_is_zero(away)) away = fxs_vec2_make(self_id < n->id ? -FXS_ONE : FXS_ONE, 0);
    fix16_t strength = fxs_muldiv(fxs_sub(radius, d), self->max_force, radius);
    force = fxs_vec2_add(force, fxs_vec2_set_length(away, strength));
  }
  return force;
}

// Sums of the positions and velocities of the neighbors within radius, in 64 bits.
typedef struct neighborhood {
  int64_t px, py, vx, vy;
  int32_t count;
} neighborhood;

static neighborhood gather(const fxs_agent *self, uint32_t self_id, const fxs_neighbor *neighbors,
                           uint32_t count, fix16_t radius) {
  neighborhood h = {0, 0, 0, 0, 0};
  for (uint32_t i = 0; i < count; ++i) {
    const fxs_neighbor *n = &neighbors[i];
    if (n->id == self_id || !fxs_vec2_within(self->position, n->position, radius)) continue;
    h.px += n->position.x;
    h.py += n->position.y;
    h.vx += n->velocity.x;
    h.vy += n->velocity.y;
    h.count += 1;
  }
  return h;
}

static fix16_t average(int64_t sum, int32_t count) {
  return fxs_saturate(fxs_div_round_i64(sum, count));
}

fxs_vec2 fxs_alignment(const fxs_agent *self, uint32_t self_id, const fxs_neighbor *neighbors,
                       uint32_t count, fix16_t radius) {
  neighborhood h = gather(self, self_id, neighbors, count, radius);
  if (h.count == 0) return fxs_vec2_zero();
  fxs_vec2 avg = fxs_vec2_make(average(h.vx, h.count), average(h.vy, h.count));
  return fxs_steer_toward(self, avg);
}

fxs_vec2 fxs_cohesion(const fxs_agent *self, uint32_t self_id, const fxs_neighbor *neighbors,
                      uint32_t count, fix16_t radius) {
  neighborhood h = gather(self, self_id, neighbors, count, radius);
  if (h.count == 0) return fxs_vec2_zero();
  return fxs_seek(self, fxs_vec2_make(average(h.px, h.count), average(h.py, h.count)));
}
