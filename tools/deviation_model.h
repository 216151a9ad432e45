// The double-precision mirror of the API that fxs-deviation (tools/deviation.c) measures the
// library against: the same formulas as the behaviors, in doubles. Included by deviation.c
// only (its functions are static); desktop only.
#ifndef FIXSTEER_TOOLS_DEVIATION_MODEL_H
#define FIXSTEER_TOOLS_DEVIATION_MODEL_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "fixsteer/align.h"
#include "fixsteer/avoidance.h"
#include "fixsteer/fixsteer.h"
#include "fixsteer/flocking.h"
#include "fixsteer/flow_field.h"
#include "fixsteer/hide.h"
#include "fixsteer/interpose.h"
#include "fixsteer/kinematic.h"
#include "fixsteer/leader.h"
#include "fixsteer/manager.h"
#include "fixsteer/neighbors.h"
#include "fixsteer/path.h"
#include "fixsteer/pursuit.h"
#include "fixsteer/seek.h"
#include "fixsteer/unaligned_avoidance.h"
#include "fixsteer/velocity_match.h"

// Agents in each scenario.
#define N 4
#define PI 3.14159265358979323846

// ---------------------------------------------------------------- double mirror of the API
typedef struct dv {
  double x, y;
} dv;
typedef struct dagent {
  dv p, v;
  double o, r, mass, radius, max_speed, max_force, max_rot, max_ang, max_turn;
  int mode;
} dagent;

static double d(fix16_t v) { return v / 65536.0; }
static dv dvec(fxs_vec2 v) { return (dv){d(v.x), d(v.y)}; }
static dv add(dv a, dv b) { return (dv){a.x + b.x, a.y + b.y}; }
static dv sub(dv a, dv b) { return (dv){a.x - b.x, a.y - b.y}; }
static dv scale(dv a, double s) { return (dv){a.x * s, a.y * s}; }
static double len(dv a) { return sqrt(a.x * a.x + a.y * a.y); }
static int is_zero(dv a) { return a.x == 0 && a.y == 0; }
static int within(dv a, dv b, double r) { return r >= 0 && len(sub(a, b)) <= r; }
static dv set_len(dv a, double l) {
  double n = len(a);
  return n == 0 || l <= 0 ? (dv){0, 0} : scale(a, l / n);
}
static dv trunc_to(dv a, double m) { return len(a) > m ? set_len(a, m) : a; }
static double wrap(double a) {
  a = fmod(a, 2 * PI);
  if (a > PI) a -= 2 * PI;
  if (a <= -PI) a += 2 * PI;
  return a;
}
static double clampd(double v, double lo, double hi) { return v < lo ? lo : (v > hi ? hi : v); }

static dagent dagent_of(const fxs_agent *a) {
  dagent r = {dvec(a->position),   dvec(a->velocity),
              d(a->orientation),   d(a->rotation),
              d(a->mass),          d(a->radius),
              d(a->max_speed),     d(a->max_force),
              d(a->max_rotation),  d(a->max_angular_acceleration),
              d(a->max_turn_rate), a->orientation_mode};
  return r;
}

static void d_integrate(dagent *a, dv force, double angular, double velocity_scale) {
  if (velocity_scale == 0) force = (dv){0, 0}; // held
  dv acc = scale(trunc_to(force, a->max_force), 1.0 / a->mass);
  a->v = trunc_to(add(scale(a->v, velocity_scale), acc), a->max_speed);
  a->p = add(a->p, a->v);
  if (a->mode == FXS_ORIENT_STEERED) {
    a->r = clampd(a->r + clampd(angular, -a->max_ang, a->max_ang), -a->max_rot, a->max_rot);
    a->o = wrap(a->o + a->r);
  } else if (a->mode == FXS_ORIENT_LOOK_WHERE_GOING) {
    a->r = 0;
    if (len(a->v) < 256 / 65536.0) return;
    double delta = wrap(atan2(a->v.y, a->v.x) - a->o);
    if (a->max_turn > 0) delta = clampd(delta, -a->max_turn, a->max_turn);
    a->r = delta;
    a->o = wrap(a->o + delta);
  }
}

static dv d_arrive(const dagent *a, dv t, double slowing) {
  dv off = sub(t, a->p);
  double dist = len(off), speed = a->max_speed;
  if (slowing > 0 && dist < slowing) speed = a->max_speed * dist / slowing;
  if (slowing > 0 && speed <= 1 / 65536.0) return sub(off, a->v); // seek.h: lands, no creep
  return sub(set_len(off, speed), a->v);
}
static dv d_seek(const dagent *a, dv t) { return d_arrive(a, t, 0); }
static dv d_flee(const dagent *a, dv t, double panic) {
  if (panic > 0 && !within(a->p, t, panic)) return (dv){0, 0};
  dv away = sub(a->p, t);
  if (is_zero(away)) away = is_zero(a->v) ? (dv){1, 0} : a->v;
  return sub(set_len(away, a->max_speed), a->v);
}
static dv d_future(const dagent *a, const dagent *t, double max_pred) {
  double T = a->max_speed > 0 ? fmin(len(sub(t->p, a->p)) / a->max_speed, max_pred) : max_pred;
  return add(t->p, scale(t->v, T));
}
// Swept avoidance (the library's default): the capsule from the position to ahead, radius
// the agent's plus margin * speed; the obstacle the capsule reaches first; a sideways push
// ramped by the contact's distance, or out plus sideways once the body overlaps it.
static dv d_slide_away(const dagent *a, dv c) {
  dv out = set_len(sub(a->p, c), 1), left = set_len((dv){-a->v.y, a->v.x}, 1);
  int c_left = left.x * (c.x - a->p.x) + left.y * (c.y - a->p.y) > 0;
  dv push = add(out, c_left ? scale(left, -1) : left);
  if (is_zero(push)) push = out;
  return is_zero(push) ? (dv){0, 1} : push;
}
static double d_segment_distance(dv q, dv s, dv e) {
  double ee = e.x * e.x + e.y * e.y;
  double t = ee > 0 ? clampd(((q.x - s.x) * e.x + (q.y - s.y) * e.y) / ee, 0, 1) : 0;
  return len(sub(q, add(s, scale(e, t))));
}
static dv d_avoid(const dagent *a, const fxs_obstacle *obs, int n, double see, double force) {
  double speed = len(a->v), margin = 2 * speed;
  double length = see * (a->max_speed > 0 ? fmin(speed / a->max_speed, 1) : 0);
  dv dir = set_len(a->v, 1), dd = scale(dir, length);
  int most = -1;
  double best = 0;
  for (int i = 0; i < n; ++i) {
    dv w = sub(dvec(obs[i].center), a->p);
    double r = d(obs[i].radius) + a->radius + margin, at;
    if (d_segment_distance(dvec(obs[i].center), a->p, dd) > r) continue;
    double along = w.x * dir.x + w.y * dir.y, side = fabs(w.x * dir.y - w.y * dir.x);
    if (len(w) <= d(obs[i].radius) + a->radius) at = 0;
    else if (along * length <= 0) at = length;
    else at = clampd(along - (side < r ? sqrt(r * r - side * side) : 0), 0, length);
    if (most < 0 || at < best) most = i, best = at;
  }
  if (most < 0) return (dv){0, 0};
  dv c = dvec(obs[most].center);
  if (within(c, a->p, d(obs[most].radius) + a->radius)) return set_len(d_slide_away(a, c), force);
  dv left = {-dir.y, dir.x};
  int c_left = dd.x * (c.y - a->p.y) - dd.y * (c.x - a->p.x) > 0;
  double share = length > 0 ? fmax((length - best) / length, 0.25) : 1;
  return set_len(c_left ? scale(left, -1) : left, force * share);
}
// flocking.h's Reynolds push at distance dist: max_speed * (radius / dist - 1), capped.
static double d_push(const dagent *a, double dist, double radius) {
  double cap = a->max_speed * FXS_SEPARATION_MAX_PUSH;
  double push = dist <= 0 ? cap : a->max_speed * (radius - dist) / dist;
  return push < cap ? push : cap;
}

static dv d_separation_of(const dagent *a, int self, const dagent *all, int count, double radius) {
  dv f = {0, 0};
  for (int i = 0; i < count; ++i) {
    if (i == self || !within(a->p, all[i].p, radius)) continue;
    dv away = sub(a->p, all[i].p);
    double dist = len(away);
    if (is_zero(away)) away = (dv){self < i ? -1 : 1, 0};
    f = add(f, set_len(away, d_push(a, dist, radius)));
  }
  return f;
}
static dv d_separation(const dagent *a, int self, const dagent *all, double radius) {
  return d_separation_of(a, self, all, N, radius);
}
static dv d_average(const dagent *a, int self, const dagent *all, double radius, int vel, int *n) {
  dv s = {0, 0};
  *n = 0;
  for (int i = 0; i < N; ++i) {
    if (i == self || !within(a->p, all[i].p, radius)) continue;
    s = add(s, vel ? all[i].v : all[i].p);
    (*n)++;
  }
  return *n ? scale(s, 1.0 / *n) : s;
}
static dv d_velocity_match(const dagent *a, dv target_v, double ttt, double max_acc) {
  return trunc_to(scale(sub(target_v, a->v), 1.0 / ttt), max_acc);
}
static double d_align(const dagent *a, double target, const fxs_align_def *def) {
  double rot = wrap(target - a->o), size = fabs(rot), tr = a->max_rot;
  if (size < d(def->target_radius)) tr = 0;
  else if (size <= d(def->slow_radius)) tr = a->max_rot * size / d(def->slow_radius);
  if (rot < 0) tr = -tr;
  return clampd((tr - a->r) / d(def->time_to_target), -a->max_ang, a->max_ang);
}

static double dot(dv a, dv b) { return a.x * b.x + a.y * b.y; }

// The agent's heading: its velocity, or its orientation at rest.
static dv d_heading(const dagent *a) { return is_zero(a->v) ? (dv){cos(a->o), sin(a->o)} : a->v; }

// The queue's hold (leader.h): another agent in front, within max_speed of touching, unless
// both are in front of each other and this one has the lower index.
static int d_queue_held(const dagent *now, int i) {
  const dagent *a = &now[i];
  for (int k = 0; k < N; ++k) {
    if (k == i || !within(a->p, now[k].p, a->radius + now[k].radius + a->max_speed)) continue;
    dv offset = sub(now[k].p, a->p);
    if (dot(offset, d_heading(a)) <= 0) continue;
    if (i < k && dot(offset, d_heading(&now[k])) < 0) continue;
    return 1;
  }
  return 0;
}
static double cross(dv a, dv b) { return a.x * b.y - a.y * b.x; }
static dv perp(dv a) { return (dv){-a.y, a.x}; } // turned by +pi/2
static dv heading(const dagent *a) {
  return len(a->v) >= 256 / 65536.0 ? set_len(a->v, 1) : (dv){cos(a->o), sin(a->o)};
}
static dv d_offset_pursuit(const dagent *a, const dagent *l, const fxs_offset_pursuit_def *def) {
  dv h = heading(l);
  dv slot = add(l->p, add(scale(h, d(def->offset_forward)), scale(perp(h), d(def->offset_side))));
  double closing = a->max_speed + len(l->v);
  double T = closing > 0 ? fmin(len(sub(slot, a->p)) / closing, d(def->max_prediction)) : 0;
  return d_arrive(a, add(slot, scale(l->v, T)), d(def->slowing_radius));
}
static dv d_interpose(const dagent *s, const dagent *a, const dagent *b,
                      const fxs_interpose_def *def) {
  dv mid = scale(add(a->p, b->p), 0.5);
  double T = s->max_speed > 0 ? fmin(len(sub(mid, s->p)) / s->max_speed, d(def->max_prediction))
                              : d(def->max_prediction);
  dv target = scale(add(add(a->p, scale(a->v, T)), add(b->p, scale(b->v, T))), 0.5);
  return d_arrive(s, target, d(def->slowing_radius));
}
static double seg_dist(dv p, dv a, dv b) { // distance from p to the segment [a, b]
  dv e = sub(b, a);
  double t = dot(e, e) > 0 ? clampd(dot(sub(p, a), e) / dot(e, e), 0, 1) : 0;
  return len(sub(p, add(a, scale(e, t))));
}
static dv d_hide(const dagent *a, const dagent *hunter, const fxs_obstacle *obs, int n,
                 const fxs_hide_def *def) {
  int best = -1;
  dv spot = {0, 0};
  for (int i = 0; i < n; ++i) {
    dv c = dvec(obs[i].center), dir = sub(c, hunter->p);
    if (is_zero(dir)) continue;
    dv s = add(c, set_len(dir, d(obs[i].radius) + d(def->distance_from_boundary)));
    if (best < 0 || len(sub(s, a->p)) < len(sub(spot, a->p))) best = i, spot = s;
  }
  if (best < 0) return d_flee(a, d_future(a, hunter, d(def->max_prediction)), 0);
  dv c = dvec(obs[best].center);
  if (seg_dist(c, a->p, spot) <= d(obs[best].radius) + a->radius &&
      seg_dist(c, a->p, spot) < len(sub(spot, c)) &&
      dot(sub(c, a->p), sub(spot, a->p)) > 0) { // the walk does not start at its nearest point
    dv out = set_len(sub(a->p, c), 1);
    dv side = cross(out, sub(spot, c)) < 0 ? scale(perp(out), -1) : perp(out);
    return d_seek(
        a, add(c, set_len(add(out, side), d(obs[best].radius) + d(def->distance_from_boundary))));
  }
  return d_arrive(a, spot, d(def->slowing_radius));
}
#define FLOW_W 40
#define FLOW_H 40
#define FLOW_CELL 25.0
static dv d_flow_cells[FLOW_W * FLOW_H];
static dv d_flow_vortex(dv cell_center, dv center) { // swirl 1, inward 1/64, unit length
  dv n = set_len(sub(center, cell_center), 1);
  return set_len(add((dv){n.y, -n.x}, scale(n, 1.0 / 64)), 1);
}
static dv d_follow_flow(const dagent *a, double look_ahead) {
  dv probe = add(a->p, scale(a->v, look_ahead));
  double fx = floor(probe.x / FLOW_CELL), fy = floor(probe.y / FLOW_CELL);
  int cx = fx < 0 ? 0 : (fx >= FLOW_W ? FLOW_W - 1 : (int)fx);
  int cy = fy < 0 ? 0 : (fy >= FLOW_H ? FLOW_H - 1 : (int)fy);
  return sub(set_len(d_flow_cells[cy * FLOW_W + cx], a->max_speed), a->v);
}
static dv d_unaligned(const dagent *a, int self, const dagent *all,
                      const fxs_unaligned_avoidance_def *def) {
  int best = -1;
  double best_t = 0, limit = a->radius + d(def->neighbor_radius) + d(def->margin);
  dv best_s = {0, 0};
  for (int i = 0; i < N; ++i) {
    if (i == self) continue;
    dv dp = sub(all[i].p, a->p), dvel = sub(all[i].v, a->v);
    double v2 = dot(dvel, dvel), t = v2 > 0 ? -dot(dp, dvel) / v2 : 0;
    if (t < 0 || t > d(def->time_horizon)) continue;
    dv sep = add(dp, scale(dvel, t));
    if (len(sep) >= limit || (best >= 0 && t >= best_t)) continue;
    best = i, best_t = t, best_s = sep;
  }
  if (best < 0) return (dv){0, 0};
  dv dir, rel = sub(a->v, all[best].v);
  if (len(a->v) >= 256 / 65536.0) {
    dv h = set_len(a->v, 1), right = {h.y, -h.x};
    dir = cross(a->v, best_s) < 0 ? scale(right, -1) : right;
    dv o = all[best].v;
    if (len(o) >= 256 / 65536.0 && dot(a->v, o) < -0.70710678 * len(a->v) * len(o))
      dir = sub(dir, h);
  } else if (!is_zero(rel)) {
    dv h = set_len(rel, 1), right = {h.y, -h.x};
    dir = cross(rel, best_s) < 0 ? scale(right, -1) : right;
  } else {
    dir = is_zero(best_s) ? (dv){self < best ? -1 : 1, 0} : scale(best_s, -1);
  }
  return set_len(dir, d(def->max_avoid_force));
}
// The query's choice: nearest k within radius and in the view, by distance then id.
static int d_query(const dagent *a, int self, const dagent *all, const fxs_neighbor_query_def *q,
                   int *chosen) {
  int n = 0;
  dv h = heading(a);
  for (int i = 0; i < N; ++i) {
    dv o = sub(all[i].p, a->p);
    if (i == self || len(o) > d(q->radius)) continue;
    if (!is_zero(o) && dot(o, h) / len(o) < d(q->cos_half_fov)) continue;
    int j = n++;
    while (j > 0 && len(sub(all[chosen[j - 1]].p, a->p)) > len(o)) chosen[j] = chosen[j - 1], --j;
    chosen[j] = i;
  }
  return n < (int)q->k ? n : (int)q->k;
}

#endif
