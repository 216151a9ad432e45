#include "fixsteer/escape.h"

#include <stdbool.h>

#include "fixsteer/pursuit.h"
#include "fixsteer/seek.h"
#include "wide.h"

// cos and sin of k * 22.5 degrees, k = 0..8, Q16.16 rounded to nearest.
static const int32_t turn_cos[9] = {65536, 60547, 46341, 25080, 0, -25080, -46341, -60547, -65536};
static const int32_t turn_sin[9] = {0, 25080, 46341, 60547, 65536, 60547, 46341, 25080, 0};

// Ray casts work on coordinates in 1/16 units: a difference of two Q16.16 values is below
// 2^21 there, so the cross products below stay under 2^58.
#define COARSE 4096

fix16_t fxs_escape_look_ahead(const fxs_agent *self) {
  int64_t look = (int64_t)fxs_max(self->max_speed, 0) * FXS_ESCAPE_LOOK_TICKS;
  if (look < FXS_ESCAPE_MIN_LOOK) look = FXS_ESCAPE_MIN_LOOK;
  if (look > FXS_ESCAPE_MAX_LOOK) look = FXS_ESCAPE_MAX_LOOK;
  return (fix16_t)look;
}

// The walls whose bounding box meets the square of half-side `reach` round p: the first
// FXS_ESCAPE_MAX_WALLS of them, by index.
static uint32_t near_walls(fxs_vec2 p, fix16_t reach, const fxs_escape_room *room, uint32_t *out) {
  uint32_t n = 0;
  int64_t lox = (int64_t)p.x - reach, hix = (int64_t)p.x + reach;
  int64_t loy = (int64_t)p.y - reach, hiy = (int64_t)p.y + reach;
  for (uint32_t i = 0; i < room->wall_count && n < FXS_ESCAPE_MAX_WALLS; ++i) {
    const fxs_wall *w = &room->walls[i];
    fix16_t wx0 = fxs_min(w->a.x, w->b.x), wx1 = fxs_max(w->a.x, w->b.x);
    fix16_t wy0 = fxs_min(w->a.y, w->b.y), wy1 = fxs_max(w->a.y, w->b.y);
    if (wx1 < lox || wx0 > hix || wy1 < loy || wy0 > hiy) continue;
    out[n++] = i;
  }
  return n;
}

// Distance (Q16.16) the centre travels from p along the unit direction d before it crosses
// the wall; `limit` when it does not cross it within limit. Walls parallel to d are not
// crossed.
static fix16_t run_to_wall(fxs_vec2 p, fxs_vec2 d, const fxs_wall *w, fix16_t limit) {
  int64_t ax = ((int64_t)w->a.x - p.x) / COARSE, ay = ((int64_t)w->a.y - p.y) / COARSE;
  int64_t ex = ((int64_t)w->b.x - w->a.x) / COARSE, ey = ((int64_t)w->b.y - w->a.y) / COARSE;
  int64_t den = (int64_t)d.x * ey - (int64_t)d.y * ex; // cross(d, e)
  int64_t s_num = ax * d.y - ay * d.x;                 // cross(a - p, d)
  int64_t t_num = ax * ey - ay * ex;                   // cross(a - p, e)
  if (den == 0) return limit;
  if (den < 0) den = -den, s_num = -s_num, t_num = -t_num;
  if (s_num < 0 || s_num > den || t_num < 0) return limit;
  // t = t_num * 2^16 / den in 1/16 units (t_num < 2^42).
  int64_t t = (t_num * 65536) / den;
  if (t >= (int64_t)limit / COARSE) return limit;
  return (fix16_t)(t * COARSE);
}

// One axis of the run to the bounds: the distance along d until the coordinate p comes within
// `margin` of the bound it heads for.
static int64_t run_to_bound(fix16_t p, fix16_t d, fix16_t lo, fix16_t hi, fix16_t margin,
                            int64_t limit) {
  if (d == 0) return limit;
  int64_t gap = d > 0 ? (int64_t)hi - margin - p : (int64_t)p - lo - margin;
  if (gap <= 0) return 0;
  int64_t speed = d > 0 ? d : -(int64_t)d;
  int64_t t = gap * 65536 / speed;
  return t < limit ? t : limit;
}

static fix16_t run_among(const fxs_agent *self, fxs_vec2 d, const fxs_escape_room *room,
                         const uint32_t *walls, uint32_t count, fix16_t limit) {
  fix16_t r = fxs_max(self->radius, 0);
  int64_t run = limit;
  if (room->bounded) {
    fix16_t margin = fxs_add(r, r);
    run = run_to_bound(self->position.x, d.x, room->bounds_min.x, room->bounds_max.x, margin, run);
    run = run_to_bound(self->position.y, d.y, room->bounds_min.y, room->bounds_max.y, margin, run);
  }
  for (uint32_t i = 0; i < count && run > 0; ++i) {
    fix16_t t = run_to_wall(self->position, d, &room->walls[walls[i]], limit);
    if (t < limit && (int64_t)t - r < run) run = (int64_t)t - r;
  }
  return run < 0 ? 0 : (fix16_t)run;
}

fix16_t fxs_escape_run(const fxs_agent *self, fxs_vec2 direction, const fxs_escape_room *room,
                       fix16_t limit) {
  uint32_t walls[FXS_ESCAPE_MAX_WALLS];
  if (limit <= 0) return 0;
  fix16_t reach = fxs_add(limit, fxs_max(self->radius, 0));
  uint32_t n = near_walls(self->position, reach, room, walls);
  return run_among(self, direction, room, walls, n, limit);
}

// u turned by k * 22.5 degrees, k in [-8, 8] (counter-clockwise for k > 0).
static fxs_vec2 turned(fxs_vec2 u, int k) {
  int32_t c = turn_cos[k < 0 ? -k : k];
  int32_t s = k < 0 ? -turn_sin[-k] : turn_sin[k];
  int64_t x = (int64_t)u.x * c - (int64_t)u.y * s;
  int64_t y = (int64_t)u.x * s + (int64_t)u.y * c;
  return fxs_vec2_make((fix16_t)fxs_div_round_i64(x, 65536), (fix16_t)fxs_div_round_i64(y, 65536));
}

// The weight of a direction: 4 (1 + cos to away) + (1 + cos to the velocity), Q16.16.
static int64_t direction_weight(fxs_vec2 d, fxs_vec2 away, fxs_vec2 heading) {
  int64_t along = 65536 + fxs_vec2_dot(d, away) / 65536;
  int64_t keep = 65536 + (fxs_vec2_is_zero(heading) ? 0 : fxs_vec2_dot(d, heading) / 65536);
  return 4 * along + keep;
}

// The run along d is cut short where it would pass the threat: when the threat lies ahead
// within 45 degrees of d, at its distance along d less twice the radius.
static fix16_t past_threat(const fxs_agent *self, fxs_vec2 d, fxs_vec2 threat, fix16_t run) {
  fxs_vec2 q = fxs_vec2_sub(threat, self->position);
  int64_t along = fxs_vec2_dot(q, d) / 65536, across = fxs_vec2_cross(d, q) / 65536;
  if (along <= 0 || (across < 0 ? -across : across) >= along) return run;
  int64_t reach = along - 2 * (int64_t)fxs_max(self->radius, 0);
  if (reach < 0) reach = 0;
  return reach < run ? (fix16_t)reach : run;
}

// True when a bound of the room lies within `reach` of the agent's centre plus the margin of
// twice its radius.
static bool bounds_near(const fxs_agent *self, const fxs_escape_room *room, fix16_t reach) {
  if (!room->bounded) return false;
  int64_t r = fxs_max(self->radius, 0);
  int64_t gap = (int64_t)reach + 2 * r;
  fxs_vec2 p = self->position;
  return (int64_t)p.x - room->bounds_min.x < gap || (int64_t)room->bounds_max.x - p.x < gap ||
         (int64_t)p.y - room->bounds_min.y < gap || (int64_t)room->bounds_max.y - p.y < gap;
}

// The best sampled direction round the unit away direction (see escape.h).
static fxs_vec2 best_direction(const fxs_agent *self, fxs_vec2 threat, fxs_vec2 away,
                               const fxs_escape_room *room, const uint32_t *walls, uint32_t n,
                               fix16_t look) {
  fxs_vec2 heading =
      fxs_vec2_is_zero(self->velocity) ? fxs_vec2_zero() : fxs_vec2_normalize(self->velocity);
  fxs_vec2 best = away;
  int64_t best_score = -1;
  for (int i = 0; i < FXS_ESCAPE_DIRECTIONS; ++i) {
    int k = (i + 1) / 2 * (i % 2 ? 1 : -1); // 0, +1, -1, +2, -2, ..., +7, -7, then 8
    if (i == FXS_ESCAPE_DIRECTIONS - 1) k = 8;
    fxs_vec2 d = k == 0 ? away : turned(away, k);
    int64_t run = past_threat(self, d, threat, run_among(self, d, room, walls, n, look)) / 256;
    int64_t score = run * run * direction_weight(d, away, heading); // < 2^57
    if (score > best_score) best = d, best_score = score;
  }
  return best;
}

// The escape from `threat` along the (not necessarily unit, nonzero) away direction: false
// when the agent has room to run straight away (nothing near at all is the common, cheap
// case), else true with the chosen unit direction in *out.
static bool bend(const fxs_agent *self, fxs_vec2 threat, fxs_vec2 away, const fxs_escape_room *room,
                 fxs_vec2 *out) {
  uint32_t walls[FXS_ESCAPE_MAX_WALLS];
  fix16_t look = fxs_escape_look_ahead(self);
  uint32_t n = near_walls(self->position, fxs_add(look, fxs_max(self->radius, 0)), room, walls);
  if (n == 0 && !bounds_near(self, room, look)) return false;
  away = fxs_vec2_normalize(away);
  if (run_among(self, away, room, walls, n, look) >= look) return false;
  *out = best_direction(self, threat, away, room, walls, n, look);
  return !fxs_vec2_equal(*out, away);
}

fxs_vec2 fxs_escape_direction(const fxs_agent *self, fxs_vec2 threat, fxs_vec2 away,
                              const fxs_escape_room *room) {
  fxs_vec2 d;
  if (!room || fxs_vec2_is_zero(away) || !bend(self, threat, away, room, &d)) return away;
  return d;
}

// The direction flee runs along (before it is bent): away from the target, or along the
// velocity (+x at rest) on the target itself.
static fxs_vec2 flee_away(const fxs_agent *self, fxs_vec2 target) {
  fxs_vec2 away = fxs_vec2_sub(self->position, target);
  if (fxs_vec2_is_zero(away)) {
    away = fxs_vec2_is_zero(self->velocity) ? fxs_vec2_make(FXS_ONE, 0) : self->velocity;
  }
  return away;
}

fxs_vec2 fxs_flee_within(const fxs_agent *self, fxs_vec2 target, fix16_t panic_radius,
                         const fxs_escape_room *room) {
  fxs_vec2 plain = fxs_flee(self, target, panic_radius);
  if (!room || (panic_radius > 0 && !fxs_vec2_within(self->position, target, panic_radius))) {
    return plain;
  }
  fxs_vec2 d;
  if (!bend(self, target, flee_away(self, target), room, &d)) return plain;
  return fxs_steer_toward(self, fxs_vec2_set_length(d, self->max_speed));
}

fxs_vec2 fxs_evade_within(const fxs_agent *self, const fxs_agent *target, fix16_t max_prediction,
                          fix16_t panic_radius, const fxs_escape_room *room) {
  fix16_t t = fxs_prediction_ticks(self, target, max_prediction);
  fxs_vec2 future = fxs_vec2_add(target->position, fxs_vec2_scale(target->velocity, t));
  return fxs_flee_within(self, future, panic_radius, room);
}
