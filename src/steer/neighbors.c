#include "fixsteer/neighbors.h"

#include "exact.h"

fxs_neighbor_query_def fxs_default_neighbor_query_def(void) {
  fxs_neighbor_query_def d;
  d.radius = FXS_INT(60);
  d.cos_half_fov = -FXS_RATIO(7071, 10000);
  d.k = 7;
  return d;
}

// The field-of-view test for a unit heading u (|u_i| <= 2^16).
static bool in_view(fxs_vec2 position, fxs_vec2 u, fxs_vec2 point, fix16_t cos_half_fov) {
  if (cos_half_fov <= -FXS_ONE || fxs_vec2_is_zero(u)) return true;
  int64_t ox = (int64_t)point.x - position.x, oy = (int64_t)point.y - position.y;
  if (fxs_exact_magnitude(ox) > (uint64_t)FXS_MAX || fxs_exact_magnitude(oy) > (uint64_t)FXS_MAX) {
    return false;
  }
  fxs_vec2 o = fxs_vec2_make((fix16_t)ox, (fix16_t)oy);
  if (fxs_vec2_is_zero(o)) return true;
  // cos = d / (|o| 2^16) with d = o . u in raw units of 2^-32: in view when d >= c |o|
  // (c = cos_half_fov raw). The side whose sign settles it returns early; otherwise both
  // sides share a sign and compare by their squares: d^2 < 2^96, c^2 |o|^2 < 2^95.
  int64_t d = (int64_t)o.x * u.x + (int64_t)o.y * u.y; // |.| < 2^48
  if (cos_half_fov >= 0 && d < 0) return false;
  if (cos_half_fov < 0 && d >= 0) return true;
  uint64_t c = fxs_exact_magnitude(cos_half_fov);
  uint64_t m = fxs_exact_magnitude(d);
  int order = fxs_u128_compare(fxs_u128_mul(m, m), fxs_u128_mul(c * c, fxs_vec2_length_sq(o)));
  return cos_half_fov >= 0 ? order >= 0 : order <= 0;
}

bool fxs_in_field_of_view(fxs_vec2 position, fxs_vec2 heading, fxs_vec2 point,
                          fix16_t cos_half_fov) {
  return in_view(position, fxs_vec2_normalize(heading), point, cos_half_fov);
}

typedef struct pick {
  uint64_t distance_sq; // raw units of 2^-32
  uint32_t id;
  uint32_t index;
} pick;

// Order by distance, then id; candidates arrive in index order and equal ones keep it.
static bool before(const pick *a, const pick *b) {
  if (a->distance_sq != b->distance_sq) return a->distance_sq < b->distance_sq;
  return a->id < b->id;
}

uint32_t fxs_query_neighbors(const fxs_agent *self, uint32_t self_id,
                             const fxs_neighbor *candidates, uint32_t count,
                             const fxs_neighbor_query_def *def, uint32_t *chosen) {
  uint32_t k = def->k < FXS_NEIGHBORS_MAX_K ? def->k : FXS_NEIGHBORS_MAX_K;
  if (k == 0 || def->radius < 0) return 0;
  fxs_vec2 u = fxs_agent_heading(self);
  pick best[FXS_NEIGHBORS_MAX_K];
  uint32_t n = 0;
  for (uint32_t i = 0; i < count; ++i) {
    const fxs_neighbor *c = &candidates[i];
    if (c->id == self_id || !fxs_vec2_within(self->position, c->position, def->radius)) continue;
    if (!in_view(self->position, u, c->position, def->cos_half_fov)) continue;
    // Within the radius the offset fits in Q16.16 and its square in 64 bits.
    pick p = {fxs_vec2_length_sq(fxs_vec2_sub(c->position, self->position)), c->id, i};
    if (n == k && !before(&p, &best[k - 1])) continue;
    uint32_t j = n < k ? n++ : k - 1;
    while (j > 0 && before(&p, &best[j - 1])) {
      best[j] = best[j - 1];
      --j;
    }
    best[j] = p;
  }
  for (uint32_t i = 0; i < n; ++i) chosen[i] = best[i].index;
  return n;
}
