#include "fixsteer/orca.h"

#include "exact.h"
#include "fixsteer/behavior_params.h"
#include "fixsteer/neighbors.h"
#include "orca_geometry.h"
#include "orca_memo.h"
#include "orca_sorted.h"
#include "orca_static.h"
#include "vec2_measure.h"
#include "vec2_scale.h"
#include "wide.h"

// Two unit directions whose determinant is at most 1e-5 (raw Q32.32) count as parallel.
#define PARALLEL_EPSILON INT64_C(42950)

fxs_orca_def fxs_default_orca_def(void) {
  fxs_orca_def d;
  d.time_horizon = fxs_behavior_param_default(FXS_BEHAVIOR_ORCA, 0);
  d.neighbor_distance = fxs_behavior_param_default(FXS_BEHAVIOR_ORCA, 1);
  d.neighbor_radius = fxs_behavior_param_default(FXS_BEHAVIOR_ORCA, 2);
  d.max_neighbors = (uint32_t)(fxs_behavior_param_default(FXS_BEHAVIOR_ORCA, 3) / FXS_ONE);
  d.obstacle_time_horizon = d.time_horizon / 2;
  d.priority = fxs_behavior_param_default(FXS_BEHAVIOR_ORCA, 5);
  return d;
}

// point + t * direction, t in raw Q16.16, saturating to Q16.16 (t is clamped to +-2^40
// first, far beyond any reachable velocity, so the product fits in 64 bits).
static inline fxs_vec2 along(fxs_vec2 point, int64_t t, fxs_vec2 direction) {
  const int64_t far = INT64_C(1) << 40;
  if (t > far) t = far;
  if (t < -far) t = -far;
  return fxs_vec2_make(fxs_saturate(point.x + to_q16(t * direction.x)),
                       fxs_saturate(point.y + to_q16(t * direction.y)));
}

// The relative velocity change u for a pair already overlapping: out of the disc of radius
// r round p (the velocity that would close the gap within one tick), along w = v - p. Only
// for neighbors, whose clamped inputs bound every value (see cone_push): nothing saturates.
static fxs_vec2 overlap_push(fxs_vec2 v, fxs_vec2 p, fix16_t r, bool lower_id, fxs_vec2 *unit) {
  fxs_vec2 w = fxs_vec2_make(v.x - p.x, v.y - p.y); // |.| < 2^28: exact
  int64_t length = 0;
  if (!fxs_vec2_is_zero(w)) { // its direction and length from one square root
    fxs_vec2_measure wm = fxs_vec2_measure_inline(w);
    *unit = fxs_vec2_set_length_measured_inline(w, &wm, FXS_ONE);
    length = wm.length;
  } else if (!fxs_vec2_is_zero(p)) {
    *unit = unit_of(fxs_vec2_make(-p.x, -p.y));
  } else {
    *unit = fxs_vec2_make(lower_id ? -FXS_ONE : FXS_ONE, 0);
  }
  int64_t gap = (int64_t)r - length; // |.| < 2^28.6
  return fxs_vec2_make((fix16_t)to_q16(gap * unit->x), (fix16_t)to_q16(gap * unit->y));
}

fix16_t fxs_orca_share(fix16_t self_priority, fix16_t neighbor_priority) {
  if (neighbor_priority < 0) return FXS_ONE;
  if (neighbor_priority == self_priority) return FXS_ONE / 2; // equal weights: exactly half
  int64_t w_self = (int64_t)fxs_clamp(self_priority, 0, FXS_ORCA_PRIORITY_MAX) + FXS_ONE;
  int64_t w_other = (int64_t)fxs_clamp(neighbor_priority, 0, FXS_ORCA_PRIORITY_MAX) + FXS_ONE;
  return (fix16_t)fxs_div_round_i64(w_other * 65536, w_self + w_other);
}

// What the half-planes of one agent share. The cone's r is the agent's radius plus the
// largest neighbor radius of the program: a pair whose neighbor is smaller gets a cone of its
// own when its line is built (pair_cone), and the bound and the side rule, which take the
// larger r, stay on the safe side (a smaller disc's velocity obstacle lies inside).
typedef struct self_terms {
  fxs_vec2 position;
  fxs_vec2 velocity; // clamped
  cone_terms cone;
  uint32_t id;
  fix16_t radius; // the agent's own, clamped
} self_terms;

// The neighbor radius ORCA assumes where it is not told each neighbor's: the parameter, or
// the agent's own radius when the parameter is 0 (its default: neighbors alike).
static inline fix16_t assumed_radius(const fxs_agent *self, const fxs_orca_def *def) {
  return fxs_clamp(def->neighbor_radius > 0 ? def->neighbor_radius : self->radius, 0, LIMIT);
}

// The radius of a pair's velocity obstacle: both radii and the margin (FXS_ORCA_MARGIN_DIVISOR).
static inline fix16_t cone_radius(fix16_t own, fix16_t other) {
  fix16_t sum = fxs_add(own, fxs_clamp(other, 0, LIMIT));
  return fxs_add(sum, sum / FXS_ORCA_MARGIN_DIVISOR);
}

// The terms for neighbors of radius at most `neighbor_radius`; without `lines`, those of the
// bound only (no r / tau: see cone_bound_terms_of).
ORCA_INLINE self_terms self_terms_with(const fxs_agent *self, uint32_t self_id,
                                       const fxs_orca_def *def, fix16_t neighbor_radius,
                                       bool lines) {
  self_terms s;
  s.position = self->position;
  s.velocity = clamp_vec(self->velocity);
  s.radius = fxs_clamp(self->radius, 0, LIMIT);
  fix16_t r = cone_radius(s.radius, neighbor_radius);
  fix16_t tau = fxs_max(def->time_horizon, FXS_ONE);
  s.cone = lines ? cone_terms_with_reciprocal(r, tau) : cone_bound_terms_of(r, tau);
  s.id = self_id;
  return s;
}

ORCA_INLINE self_terms self_terms_for(const fxs_agent *self, uint32_t self_id,
                                      const fxs_orca_def *def, bool lines) {
  return self_terms_with(self, self_id, def, assumed_radius(self, def), lines);
}

ORCA_INLINE self_terms self_terms_of(const fxs_agent *self, uint32_t self_id,
                                     const fxs_orca_def *def) {
  return self_terms_for(self, self_id, def, true);
}

// The relative velocity against a neighbor of clamped velocity n.
static inline fxs_vec2 relative_to(const self_terms *s, fxs_vec2 n) {
  return fxs_vec2_make(s->velocity.x - n.x, s->velocity.y - n.y); // |.| <= 2^27
}

// The geometry of the pair at clamped offset p and relative velocity v (neighbor id nb_id):
// the relative velocity change u out of its velocity obstacle, and the half-plane's edge
// into *edge. Odd in (p, v) (orca_memo.h).
ORCA_INLINE fxs_vec2 pair_push(const self_terms *s, fxs_vec2 p, fxs_vec2 v, uint32_t nb_id,
                               fxs_vec2 *edge) {
  uint64_t p_sq = length_sq(p);
  if (p_sq > s->cone.r_sq) return cone_push(v, p, p_sq, &s->cone, true, edge);
  fxs_vec2 unit;
  fxs_vec2 u = overlap_push(v, p, s->cone.r, s->id < nb_id, &unit);
  *edge = fxs_vec2_make(unit.y, -unit.x); // |unit.x| <= 2^16
  return u;
}

// The agent's half-plane from its pair's push u and edge: it takes its share of the change
// (1/2 between equals, rounded half away from 0). |u| < 2^28.6, so the point stays below
// 2^29.1 and nothing saturates.
static inline fxs_orca_line share_line(const self_terms *s, fxs_vec2 u, fxs_vec2 edge,
                                       fix16_t share) {
  int64_t k = fxs_clamp(share, 0, FXS_ONE);
  fxs_orca_line line;
  line.point = fxs_vec2_make((fix16_t)(s->velocity.x + to_q16(u.x * k)),
                             (fix16_t)(s->velocity.y + to_q16(u.y * k)));
  line.direction = edge;
  return line;
}

// The half-plane against a neighbor at clamped offset p, relative velocity v and id nb_id.
ORCA_INLINE fxs_orca_line pair_line(const self_terms *s, fxs_vec2 p, fxs_vec2 v, uint32_t nb_id,
                                    fix16_t share) {
  fxs_vec2 edge;
  fxs_vec2 u = pair_push(s, p, v, nb_id, &edge);
  return share_line(s, u, edge, share);
}

// The offset to a neighbor's position, as the half-plane and the side rule see it.
static inline fxs_vec2 offset_to(fxs_vec2 self, fxs_vec2 other) {
  int64_t dx = (int64_t)other.x - self.x, dy = (int64_t)other.y - self.y;
  // Within +-LIMIT neither the halving nor the clamp acts (the common case, two tests).
  if ((int)within_limit(dx) & (int)within_limit(dy)) {
    return fxs_vec2_make((fix16_t)dx, (fix16_t)dy);
  }
  return clamp_vec(fxs_exact_direction(self, other));
}

// offset_to for a neighbor of a program: every one lies within the query's radius, at most
// LIMIT (fxs_orca_velocity_among chooses them by fxs_vec2_within, the world's step by
// fxs_orca_sorted_count on their exact squared distances), so each component of the offset
// is within LIMIT and offset_to's clamp would never act.
static inline fxs_vec2 near_offset(fxs_vec2 self, fxs_vec2 other) {
  return fxs_vec2_make((fix16_t)((int64_t)other.x - self.x), (fix16_t)((int64_t)other.y - self.y));
}

fxs_orca_line fxs_orca_half_plane_shared(const fxs_agent *self, uint32_t self_id,
                                         const fxs_neighbor *neighbor, const fxs_orca_def *def,
                                         fix16_t share) {
  self_terms s = self_terms_of(self, self_id, def);
  return pair_line(&s, offset_to(self->position, neighbor->position),
                   relative_to(&s, clamp_vec(neighbor->velocity)), neighbor->id, share);
}

fxs_orca_line fxs_orca_half_plane(const fxs_agent *self, uint32_t self_id,
                                  const fxs_neighbor *neighbor, const fxs_orca_def *def) {
  return fxs_orca_half_plane_shared(self, self_id, neighbor, def, FXS_ONE / 2);
}

// ------------------------------------------------------------------ lines built when needed
//
// Most neighbor lines hold wherever the program reaches them (a crowd walking side by side or
// apart), and building one (square roots, divisions) costs more than testing it. So a line is
// built when the program reaches it, unless a cheap bound shows it holds there; skipped lines
// are built as soon as a later line is solved or projected against them. The bound says
// "holds" only where the built line holds, so every result is the one of building them all.
//
// The bound. v is the relative velocity, D its distance from the velocity obstacle, k >= 1/2
// the agent's share, x = the agent's velocity + e. The obstacle lies in the half-plane
// y . p >= |p| (|p| - r) / tau, so D >= (|p| - r) / tau - v . p / |p|. The exact line runs
// along the obstacle's boundary at D from v, through the velocity + k u (|u| = D): x holds it
// with k D - |e| to spare. The built line's point is a few raw units off, its direction at
// most 2^-10.9 for a leg (|p| >= 2^10 raw; turning about the apex: (|v| + |e| / k) 2^-10.9 at
// x) and 0.71 / |w| for the cut-off (turning near the boundary point, |w| >= D); where
// rounding takes the other branch the two lines meet at the boundary. With
//   D >= 2 |e| + (|v| + 2 |e|) / 256 + 64 raw (|e|, |v| taken as |x| + |y| >= their lengths),
// k D - |e| >= (|v| + 2 |e|) / 512 + 32: about four times what rounding can take (test_orca
// checks the claim over seeded pairs at every scale, and fails it with |e| for 2 |e|).

// The least |p| (raw) and the slack of the bound, as above.
#define SURE_MIN_OFFSET UINT64_C(1024)
#define SURE_SLACK UINT64_C(64)

// What the bound needs of the program's point x, taken once for the lines tested there:
// 2 |e| + SURE_SLACK and 2 |e| (|e| as |e.x| + |e.y|).
typedef struct point_terms {
  uint64_t need, e2;
} point_terms;

static inline point_terms point_terms_of(const self_terms *s, fxs_vec2 x) {
  uint64_t e = fxs_exact_magnitude((int64_t)x.x - s->velocity.x) +
               fxs_exact_magnitude((int64_t)x.y - s->velocity.y); // < 2^32.1
  point_terms t = {2 * e + SURE_SLACK, 2 * e};
  return t;
}

// True only when pair_line(s, p, v, id, share) would hold at the point x of t, whatever the
// neighbor's id and the share (at least 1/2); false when the bound cannot tell.
ORCA_INLINE bool surely_holds(const self_terms *s, fxs_vec2 p, fxs_vec2 v, point_terms t) {
  uint64_t ax = fxs_exact_magnitude(p.x), ay = fxs_exact_magnitude(p.y);
  uint64_t hi = ax > ay ? ax : ay, lo = ax > ay ? ay : ax;
  if (hi < SURE_MIN_OFFSET) return false;
  // (hi + lo / 2)^2 >= hi^2 + lo^2 for lo <= hi: reach >= |p|, so a <= |p| (|p| - r).
  uint64_t reach = hi + lo / 2 + 1;
  int64_t a = (int64_t)length_sq(p) - (int64_t)s->cone.r * (int64_t)reach; // < 2^54
  if (a <= 0) return false;
  uint64_t speed = fxs_exact_magnitude(v.x) + fxs_exact_magnitude(v.y);
  uint64_t need = t.need + ((speed + t.e2) >> 8); // < 2^34.2
  // D >= need when |p| (|p| - r) 2^16 >= tau (v . p + need |p|) (raw units, tau in ticks
  // times 2^16); a and b bound the two sides.
  int64_t b = dot(v, p) + (int64_t)(need * reach); // < 2^61
  if (b <= 0) return true;
  uint64_t tau = (uint64_t)s->cone.tau;
  // Both products within 64 bits (a < 2^47, b < 2^41, tau < 2^22: 64 ticks) in a crowd.
  if ((((uint64_t)a >> 47) | ((uint64_t)b >> 41) | (tau >> 22)) == 0) {
    return ((uint64_t)a << 16) >= tau * (uint64_t)b;
  }
  return fxs_u128_compare_products((uint64_t)a, 65536, tau, (uint64_t)b) >= 0;
}

bool fxs_orca_surely_holds(const fxs_agent *self, uint32_t self_id, const fxs_neighbor *neighbor,
                           const fxs_orca_def *def, fix16_t share, fxs_vec2 x) {
  self_terms s = self_terms_of(self, self_id, def);
  return share >= FXS_ONE / 2 &&
         surely_holds(&s, offset_to(self->position, neighbor->position),
                      relative_to(&s, clamp_vec(neighbor->velocity)), point_terms_of(&s, x));
}

// The neighbor lines of one program, lines[hard + j] for j < count, of the neighbors
// neighbors[j]. A line not built yet holds its pair's offset in `point` and relative
// velocity in `direction`; the share and the id are found again from the neighbor.
typedef struct lazy_lines {
  fxs_orca_line *lines;
  const self_terms *s;
  const fxs_neighbor *neighbors;
  const fix16_t *priorities; // or NULL: equal shares
  const fix16_t *radii;      // each neighbor's radius, as fxs_orca_radii gave it (NULL: the cone's)
  fix16_t priority;          // the agent's own
  uint32_t hard, count;
  uint32_t halves;  // bit j: the agent's share against line hard + j's neighbor >= 1/2
  uint32_t skipped; // bit j: line hard + j surely holds at the point it was reached, not built
  const fxs_orca_memo *memo; // the worker's pairs built lately (entries NULL: none)
} lazy_lines;

// The share of the agent against neighbors[j] (j indexes the neighbors, as priorities).
static inline fix16_t share_of(fix16_t priority, const fix16_t *priorities, uint32_t j) {
  return priorities ? fxs_orca_share(priority, priorities[j]) : FXS_ONE / 2;
}

// A vector's two components in one word, for comparing.
static inline uint64_t pack(fxs_vec2 v) {
  return (uint64_t)(uint32_t)v.x | (uint64_t)(uint32_t)v.y << 32;
}

// True when e is the neighbor's side of this pair: it was built at offset -p, relative
// velocity -v, of the same cone.
static inline bool mirrors(const fxs_orca_memo_entry *e, const cone_terms *c, fxs_vec2 p,
                           fxs_vec2 v) {
  return ((pack(e->offset) ^ pack(p)) | (pack(e->relative) ^ pack(v)) |
          (pack(fxs_vec2_make(e->r, e->tau)) ^ pack(fxs_vec2_make(c->r, c->tau)))) == 0;
}

// Builds line hard + j from what it holds until then (see lazy_lines): from the memo when
// the neighbor has built the pair's other side, else computed (and kept in the memo). A zero
// offset stays out of the memo: only there can the pair's id order decide the push (and an
// entry never written is all zeros).
static void build(const lazy_lines *z, uint32_t j) {
  fxs_orca_line *l = &z->lines[z->hard + j];
  const self_terms *s = z->s;
  self_terms own; // the pair's cone, for a neighbor smaller than the largest
  if (z->radii) {
    fix16_t r = cone_radius(s->radius, z->radii[j]);
    if (r != s->cone.r) {
      own = *s;
      own.cone = cone_terms_like(r, &s->cone);
      s = &own;
    }
  }
  fxs_vec2 p = l->point, v = l->direction, u, edge;
  uint32_t id = z->neighbors[j].id;
  fxs_orca_memo_entry *e = 0;
  if (z->memo->entries && !fxs_vec2_is_zero(p)) e = fxs_orca_memo_slot(z->memo, s->id, id);
  if (e && mirrors(e, &s->cone, p, v)) {
    u = e->push, edge = e->edge;
  } else {
    u = pair_push(s, p, v, id, &edge);
    if (e) { // the neighbor's side: every value negated (|.| < 2^29: exact)
      e->offset = fxs_vec2_make(-p.x, -p.y), e->relative = fxs_vec2_make(-v.x, -v.y);
      e->r = s->cone.r, e->tau = s->cone.tau;
      e->push = fxs_vec2_make(-u.x, -u.y), e->edge = fxs_vec2_make(-edge.x, -edge.y);
    }
  }
  *l = share_line(s, u, edge, share_of(z->priority, z->priorities, j));
}

// Builds the lines skipped so far.
static void build_skipped(lazy_lines *z) {
  for (uint32_t j = 0, m = z->skipped; m != 0; ++j, m >>= 1) {
    if (m & 1u) build(z, j);
  }
  z->skipped = 0;
}

// Whether the program must test line i at its point (of terms t): a static line, or a
// neighbor line now built; false for a neighbor line that surely holds there, left unbuilt
// (only when `may_skip`).
ORCA_INLINE bool reach_line(lazy_lines *z, uint32_t i, point_terms t, bool may_skip) {
  if (i < z->hard) return true;
  uint32_t j = i - z->hard;
  const fxs_orca_line *held = &z->lines[i];
  if (may_skip && ((z->halves >> j) & 1u) && surely_holds(z->s, held->point, held->direction, t)) {
    z->skipped |= UINT32_C(1) << j;
    return false;
  }
  build(z, j);
  return true;
}

// The linear program: velocities x with det(d_i, x - p_i) >= 0 for every line i, inside
// the disc |x| <= radius. `opt` is the preferred velocity, or with `direction_opt` a unit
// direction to go as far as possible along.
typedef struct program {
  const fxs_orca_line *lines;
  fix16_t radius;
  fxs_vec2 opt;
  bool direction_opt;
} program;

// The program's start point, before any line: the optimum within the disc.
static inline fxs_vec2 start_of(const program *lp) {
  uint64_t sq;
  if (lp->direction_opt) {
    return fxs_vec2_make(fxs_saturate(to_q16((int64_t)lp->opt.x * lp->radius)),
                         fxs_saturate(to_q16((int64_t)lp->opt.y * lp->radius)));
  }
  if ((sq = length_sq(lp->opt)) > (uint64_t)lp->radius * (uint64_t)lp->radius &&
      !fxs_vec2_set_length_keeps(lp->opt, sq, lp->radius)) { // else it scales to itself
    return fxs_vec2_set_length(lp->opt, lp->radius);
  }
  return lp->opt;
}

// Optimum on line i, subject to lines 0..i-1 and the disc. False when line i has no
// feasible point.
static bool solve_on_line(const program *lp, uint32_t i, fxs_vec2 *result) {
  fxs_vec2 p = lp->lines[i].point, d = lp->lines[i].direction;
  // The line's distance from the origin decides whether it crosses the disc; the chord is
  // then -(p . d) -+ sqrt(radius^2 - distance^2) along d.
  int64_t off = to_q16(det(d, p)); // |.| < 2^33
  if (fxs_exact_magnitude(off) > (uint64_t)lp->radius) return false;
  int64_t root = root_round((uint64_t)((int64_t)lp->radius * lp->radius - off * off));
  int64_t pd = to_q16(dot(p, d));
  int64_t t_left = -pd - root, t_right = -pd + root;
  for (uint32_t j = 0; j < i; ++j) {
    const fxs_orca_line *o = &lp->lines[j];
    int64_t den = det(d, o->direction);
    int64_t num = det(o->direction, fxs_vec2_sub(p, o->point)); // |.| < 2^47
    if (fxs_exact_magnitude(den) <= (uint64_t)PARALLEL_EPSILON) {
      if (num < 0) return false; // parallel, and line i lies on j's forbidden side
      continue;
    }
    int64_t t = q16_ratio(num, den);
    if (den > 0) t_right = t < t_right ? t : t_right;
    else t_left = t > t_left ? t : t_left;
    if (t_left > t_right) return false;
  }
  int64_t t;
  if (lp->direction_opt) {
    t = dot(lp->opt, d) > 0 ? t_right : t_left;
  } else {
    t = to_q16(dot(d, fxs_vec2_sub(lp->opt, p)));
    t = t < t_left ? t_left : (t > t_right ? t_right : t);
  }
  *result = along(p, t, d);
  return true;
}

// Incremental 2D program over lines first..count-1 in order, from *result, the program's
// start point (start_of), where the lines before `first` hold. Returns count on success,
// else the index of the first line it could not satisfy (*result then satisfies the lines
// before). With `lazy`, its neighbor lines are built as the program needs them; without
// static lines (lazy->hard == 0) velocity_of has taken their bound at the start point: the
// lines before `first` surely hold there (their bits set in lazy->skipped), and line `first`
// is one that reach_line would build there (its bound failed, or its share is below 1/2):
// built at once. With static lines, `first` is 0.
ORCA_INLINE uint32_t solve_with(const program *lp, uint32_t first, uint32_t count, fxs_vec2 *result,
                                lazy_lines *lazy) {
  point_terms t = {0, 0};
  bool first_fails = lazy && lazy->hard == 0;
  if (lazy) t = point_terms_of(lazy->s, *result);
  for (uint32_t i = first; i < count; ++i) {
    if (lazy) {
      if (first_fails && i == first) {
        build(lazy, i - lazy->hard);
      } else if (!reach_line(lazy, i, t, true)) {
        continue; // surely satisfied
      }
    }
    const fxs_orca_line *l = &lp->lines[i];
    if (det(l->direction, fxs_vec2_sub(l->point, *result)) <= 0) continue; // satisfied
    if (lazy) build_skipped(lazy); // solving on line i reads every line before it
    fxs_vec2 kept = *result;
    if (!solve_on_line(lp, i, result)) {
      *result = kept;
      return i;
    }
    if (lazy) t = point_terms_of(lazy->s, *result);
  }
  return count;
}

// solve_with for velocity_of's program (solve_lazily) and for least_violation's (solve),
// each with one caller: a compiler that inlines puts each in its caller, one that does not
// (-O0) keeps their frames apart.
static uint32_t solve_lazily(const program *lp, uint32_t first, uint32_t count, fxs_vec2 *result,
                             lazy_lines *lazy) {
  return solve_with(lp, first, count, result, lazy);
}

static uint32_t solve(const program *lp, uint32_t count, fxs_vec2 *result) {
  *result = start_of(lp);
  return solve_with(lp, 0, count, result, 0);
}

// No velocity satisfies every line: minimize the largest violation of the neighbor lines
// (from `hard` on) while the static lines 0..hard-1 stay satisfied. For each neighbor line
// violated by more than the current worst, the neighbor lines before it are projected onto
// it (their bisectors with it), the static lines kept as they are, and the 2D program
// pushes as far as possible into it.
static void least_violation(lazy_lines *z, uint32_t first, fix16_t radius, fxs_vec2 *result,
                            fxs_orca_line *projected) {
  const fxs_orca_line *lines = z->lines;
  uint32_t hard = z->hard, count = z->hard + z->count;
  int64_t worst = 0; // Q32.32
  point_terms t = point_terms_of(z->s, *result);
  for (uint32_t i = first; i < count; ++i) {
    // Line `first` is built (the program stopped on it). A later one that surely holds is
    // violated by no more than a worst >= 0, and is built only if a later line is projected.
    if (i > first && !reach_line(z, i, t, worst >= 0)) continue;
    const fxs_orca_line *l = &lines[i];
    if (det(l->direction, fxs_vec2_sub(l->point, *result)) <= worst) continue;
    build_skipped(z); // the lines before it are projected onto it
    uint32_t m = 0;
    for (uint32_t j = 0; j < hard; ++j) projected[m++] = lines[j];
    for (uint32_t j = hard; j < i; ++j) {
      const fxs_orca_line *o = &lines[j];
      int64_t den = det(l->direction, o->direction);
      fxs_orca_line q;
      if (fxs_exact_magnitude(den) <= (uint64_t)PARALLEL_EPSILON) {
        if (dot(l->direction, o->direction) > 0) continue; // same way: no new constraint
        q.point =
            fxs_vec2_make(fxs_saturate(fxs_div_round_i64((int64_t)l->point.x + o->point.x, 2)),
                          fxs_saturate(fxs_div_round_i64((int64_t)l->point.y + o->point.y, 2)));
      } else {
        int64_t num = det(o->direction, fxs_vec2_sub(l->point, o->point));
        q.point = along(l->point, q16_ratio(num, den), l->direction);
      }
      q.direction = fxs_vec2_normalize(fxs_vec2_sub(o->direction, l->direction));
      projected[m++] = q;
    }
    program lp = {projected, radius, fxs_vec2_make(fxs_neg(l->direction.y), l->direction.x), true};
    fxs_vec2 kept = *result;
    if (solve(&lp, m, result) < m) *result = kept; // only by rounding: keep the last good one
    worst = det(l->direction, fxs_vec2_sub(l->point, *result));
    t = point_terms_of(z->s, *result);
  }
}

// The side rule: true when the neighbor at clamped offset p, with clamped velocity nv, lies
// ahead on the preferred course (within the two radii, r^2 = rr, of its line;
// pref_sq = |preferred|^2), does not move along it, and no wall stands between them.
ORCA_INLINE bool face_to_face(const fxs_agent *self, fxs_vec2 preferred, uint64_t pref_sq,
                              fxs_vec2 p, fxs_vec2 nv, uint64_t rr, const fxs_orca_statics *st) {
  if (dot(p, preferred) <= 0 || dot(nv, preferred) > 0) return false;
  // |det(preferred, p)| < r |preferred|, compared squared in 128 bits.
  uint64_t side = fxs_exact_magnitude(det(preferred, p));
  if (fxs_u128_compare_products(side, side, rr, pref_sq) >= 0) return false;
  return !fxs_orca_wall_between(self, p.x, p.y, st);
}

// The side turn: v rotated by -FXS_ORCA_SIDE_TURN, as fxs_vec2_rotate does it, with the
// cosine and sine fxs_cos and fxs_sin give (test_orca checks them).
static fxs_vec2 turn_aside(fxs_vec2 v) {
  const int64_t c = FXS_ORCA_SIDE_TURN_COS, sn = FXS_ORCA_SIDE_TURN_SIN;
  int64_t x = (int64_t)v.x * c - (int64_t)v.y * sn; // |.| <= 2^48
  int64_t y = (int64_t)v.x * sn + (int64_t)v.y * c;
  return fxs_vec2_make(fxs_saturate(to_q16(x)), fxs_saturate(to_q16(y)));
}

// The crowd side rule's turn of `pref` (preferred, clamped) for self: false where it leaves the
// preferred velocity as it is (slowing, at rest or free); else true, with *angle (clockwise, at
// most FXS_ORCA_CROWD_TURN) by which fxs_orca_crowd_side rotates pref.
static bool crowd_turn(const fxs_agent *self, uint32_t self_id, fxs_vec2 pref, fix16_t *angle) {
  uint64_t pref_sq = length_sq(pref); // <= 2^53
  uint64_t top = (uint64_t)fxs_clamp(self->max_speed, 0, LIMIT);
  if (pref_sq == 0 || pref_sq * 16u < top * top) return false; // slowing or at rest
  uint64_t v_sq = length_sq(clamp_vec(self->velocity));
  uint64_t free = pref_sq * FXS_ORCA_CROWD_FREE_NUM; // < 2^57
  if (v_sq * FXS_ORCA_CROWD_FREE_DEN >= free) return false;
  // b = 1 - 16 v^2 / (9 p^2), Q16.16, in (0, 1]: numerator and denominator shifted below
  // 2^40 first so the quotient's shift fits (a relative error below 2^-24).
  uint64_t num = free - v_sq * FXS_ORCA_CROWD_FREE_DEN, den = free;
  while (den >= (UINT64_C(1) << 40)) {
    num >>= 1;
    den >>= 1;
  }
  int64_t b = (int64_t)((num << 16) / den);              // [0, 2^16]
  int64_t f = (b * fxs_orca_crowd_share(self_id)) >> 16; // [0, 2^16)
  *angle = (fix16_t)(-((f * FXS_ORCA_CROWD_TURN) >> 16));
  return true;
}

fxs_vec2 fxs_orca_crowd_side(const fxs_agent *self, uint32_t self_id, fxs_vec2 preferred) {
  fxs_vec2 pref = clamp_vec(preferred);
  fix16_t angle;
  return crowd_turn(self, self_id, pref, &angle) ? fxs_vec2_rotate(pref, angle) : preferred;
}

// fxs_vec2_truncate(v, radius) (radius >= 0), its "already short enough" case without a call.
static inline fxs_vec2 within_radius(fxs_vec2 v, fix16_t radius) {
  uint64_t sq = length_sq(v);
  if (sq <= (uint64_t)radius * (uint64_t)radius) return v;
  // A start point rounded to the speed limit is most often one unit in its last place past it.
  if (fxs_vec2_truncate_takes_one(sq, radius)) return fxs_vec2_one_toward_zero(v);
  return fxs_vec2_truncate_long(v, radius, sq);
}

// Whether one of neighbors[i], i < n (offsets[i].point from the agent, as velocity_of fills
// the lines), lies ahead of the agent along `pref` and moves against it: a counter-flow.
static bool counter_flow(const fxs_neighbor *neighbors, const fxs_orca_line *offsets, uint32_t n,
                         fxs_vec2 pref) {
  for (uint32_t i = 0; i < n; ++i) {
    fxs_vec2 nv = clamp_vec(neighbors[i].velocity), p = offsets[i].point; // |.| < 2^27
    int64_t toward = (int64_t)nv.x * pref.x + (int64_t)nv.y * pref.y;     // |.| < 2^53
    int64_t ahead = (int64_t)p.x * pref.x + (int64_t)p.y * pref.y;
    if (toward < 0 && ahead > 0) return true;
  }
  return false;
}

// The crowd side rule's start (fxs_orca_velocity_crowd): pref turned aside
// (fxs_orca_crowd_side) where the agent is blocked, facing a symmetric crowd (no static line
// near, `walls` false, or a counter-flow among its neighbors: counter_flow) and the pairs'
// lines (lines[i], i < n, as velocity_of fills them before the program: offset and relative
// velocity; `halves` as there) are not all shown to hold at pref's start point; else pref.
static fxs_vec2 crowd_start(const fxs_agent *self, uint32_t self_id, const self_terms *s,
                            const fxs_neighbor *neighbors, const fxs_orca_line *lines, uint32_t n,
                            uint32_t halves, bool walls, fix16_t radius, fxs_vec2 pref) {
  // The turn (a rotation: sine and cosine) is made only where it is returned; a turn that
  // rounds to pref itself returns pref either way.
  fxs_vec2 clamped = clamp_vec(pref);
  fix16_t angle;
  if (!crowd_turn(self, self_id, clamped, &angle)) return pref; // free or slowing
  // Against a wall or an obstacle, only a counter-flow turns it: an agent pressed on a
  // block's corner, or in a pile, by neighbors going its way has no symmetry to break.
  if (walls && !counter_flow(neighbors, lines, n, pref)) return pref;
  program at = {0, radius, pref, false};
  point_terms t = point_terms_of(s, start_of(&at));
  for (uint32_t i = 0; i < n; ++i) {
    if (!((halves >> i) & 1u) || !surely_holds(s, lines[i].point, lines[i].direction, t)) {
      return fxs_vec2_rotate(clamped, angle);
    }
  }
  return pref; // its neighbors let it move as it wants: nothing to break
}

// The new velocity against neighbors[i], i < n (at most FXS_NEIGHBORS_MAX_K, as the lines'
// room), in that order; priorities (or NULL) indexed as the neighbors. `slow`: their
// velocities are known to be within +-LIMIT (clamp_vec would return them as they are).
// `memo`: the worker's pairs (entries NULL: none).
static fxs_vec2 velocity_of(const fxs_agent *self, uint32_t self_id, fxs_vec2 preferred,
                            const fxs_neighbor *neighbors, uint32_t n, const fix16_t *priorities,
                            const fxs_orca_radii *radii, const fxs_orca_statics *statics,
                            const fxs_orca_def *def, bool slow, const fxs_orca_memo *memo,
                            fxs_orca_scratch *scratch, bool crowd) {
  fxs_orca_line *lines = scratch->lines;
  bool any_static = statics && (statics->wall_count != 0 || statics->obstacle_count != 0);
  uint32_t hard = any_static ? fxs_orca_static_lines(self, statics, def, scratch) : 0;
  fxs_vec2 pref = clamp_vec(preferred);
  uint64_t pref_sq = length_sq(pref);
  fix16_t largest = 0, radius_of[FXS_NEIGHBORS_MAX_K]; // each neighbor's, read once
  for (uint32_t i = 0; radii && i < n; ++i) {
    fix16_t r = radius_of[i] = fxs_orca_radius_of(radii, neighbors[i].id);
    largest = r > largest ? r : largest;
  }
  self_terms s = radii ? self_terms_with(self, self_id, def, largest, true)
                       : self_terms_of(self, self_id, def);
  bool turn = false;
  uint32_t halves = ~UINT32_C(0); // equal shares without priorities
  for (uint32_t i = 0; i < n; ++i) {
    const fxs_neighbor *nb = &neighbors[i];
    fix16_t share = share_of(def->priority, priorities, i);
    fxs_vec2 p = near_offset(self->position, nb->position);
    fxs_vec2 nv = slow ? nb->velocity : clamp_vec(nb->velocity);
    // The line's pair until the program builds it (lazy_lines).
    lines[hard + i].point = p;
    lines[hard + i].direction = relative_to(&s, nv);
    if (priorities) halves &= ~((uint32_t)(share < FXS_ONE / 2) << i);
    // Only a neighbor the agent yields to at least half of the way turns it.
    turn = turn ||
           (share >= FXS_ONE / 2 && face_to_face(self, pref, pref_sq, p, nv, s.cone.r_sq, statics));
  }
  if (turn) pref = turn_aside(pref);
  fix16_t radius = fxs_clamp(self->max_speed, 0, LIMIT);
  if (crowd && n != 0) {
    pref =
        crowd_start(self, self_id, &s, neighbors, lines + hard, n, halves, hard != 0, radius, pref);
  }
  program lp = {lines, radius, pref, false};
  fxs_vec2 result = start_of(&lp);
  // Without static lines, the neighbor lines' bound at the start point first, in a pass of
  // its own, up to the first line it does not show to hold. The program would reach those
  // first, at the start point, and skip them: it starts at that line, with them skipped.
  // A crowd walking apart has them all, and then the program, which would build none and
  // keep the start point, is left out.
  uint32_t sure = 0; // stays 0 with static lines
  if (hard == 0) {
    point_terms t = point_terms_of(&s, result);
    while (sure < n && ((halves >> sure) & 1u) &&
           surely_holds(&s, lines[sure].point, lines[sure].direction, t)) {
      ++sure;
    }
  }
  if (hard != 0 || sure < n) {
    uint32_t skipped = (UINT32_C(1) << sure) - 1u; // sure <= n <= FXS_NEIGHBORS_MAX_K (16)
    lazy_lines lazy = {lines,         &s,   neighbors, priorities, radii ? radius_of : 0,
                       def->priority, hard, n,         halves,     skipped,
                       memo};
    uint32_t failed = solve_lazily(&lp, sure, hard + n, &result, &lazy);
    if (failed < hard) {
      // The static lines alone leave nothing (only by rounding: standing still keeps them).
      return fxs_vec2_zero();
    }
    if (failed < hard + n) least_violation(&lazy, failed, radius, &result, scratch->projected);
  }
  return within_radius(result, radius);
}

// The clamped offset and relative velocity of found neighbor i (fxs_orca_found), and its
// clamped velocity into *nv.
ORCA_INLINE fxs_orca_line found_pair(const self_terms *s, const fxs_orca_found *f, uint32_t i,
                                     bool slow, fxs_vec2 *nv) {
  fxs_orca_line pair;
  uint32_t view = f->views[i];
  *nv = slow ? f->velocities[view] : clamp_vec(f->velocities[view]);
  pair.point = near_offset(s->position, f->positions[view]);
  pair.direction = relative_to(s, *nv);
  return pair;
}

bool fxs_orca_velocity_open(const fxs_agent *self, uint32_t self_id, fxs_vec2 preferred,
                            const fxs_orca_found *found, const fxs_orca_def *def, bool slow,
                            fxs_vec2 *velocity) {
  // The neighbors ORCA takes: those within its reach (fxs_orca_sorted_count), all of them
  // (more than its max_neighbors would need their order).
  uint64_t reach = (uint64_t)fxs_clamp(def->neighbor_distance, 0, LIMIT), reach_sq = reach * reach;
  uint32_t k = def->max_neighbors < FXS_NEIGHBORS_MAX_K ? def->max_neighbors : FXS_NEIGHBORS_MAX_K;
  fxs_vec2 pref = clamp_vec(preferred);
  uint64_t pref_sq = length_sq(pref);
  self_terms s = self_terms_for(self, self_id, def, false);
  fix16_t radius = fxs_clamp(self->max_speed, 0, LIMIT);
  program lp = {0, radius, pref, false};
  fxs_vec2 result = start_of(&lp);
  point_terms t = point_terms_of(&s, result);
  // The side rule needs no order either. The bound is taken at the start point without the
  // side turn as the pairs come: where one line is not shown to hold, a crowd, the order may
  // matter, and the caller takes the sorted path without the rest of this work.
  bool turn = false;
  uint32_t n = 0;
  for (uint32_t i = 0; i < found->count; ++i) {
    if (found->dist_sq[i] > reach_sq) continue;
    fxs_vec2 nv;
    fxs_orca_line pair = found_pair(&s, found, i, slow, &nv);
    if (n++ == k || !surely_holds(&s, pair.point, pair.direction, t)) return false;
    turn = turn || face_to_face(self, pref, pref_sq, pair.point, nv, s.cone.r_sq, 0);
  }
  if (turn) { // the start point turns aside: the bound again there
    lp.opt = turn_aside(pref);
    result = start_of(&lp);
    t = point_terms_of(&s, result);
    for (uint32_t i = 0; i < found->count; ++i) {
      if (found->dist_sq[i] > reach_sq) continue;
      fxs_vec2 nv;
      fxs_orca_line pair = found_pair(&s, found, i, slow, &nv);
      if (!surely_holds(&s, pair.point, pair.direction, t)) return false;
    }
  }
  *velocity = within_radius(result, radius);
  return true;
}

fxs_vec2 fxs_orca_velocity_among(const fxs_agent *self, uint32_t self_id, fxs_vec2 preferred,
                                 const fxs_neighbor *neighbors, const fix16_t *priorities,
                                 uint32_t count, const fxs_orca_statics *statics,
                                 const fxs_orca_def *def) {
  fxs_neighbor_query_def query;
  fxs_orca_def own = *def; // its neighbor distance resolved, as the sorted program takes it
  own.neighbor_distance = fxs_orca_reach(self, def->neighbor_distance);
  query.radius = fxs_clamp(own.neighbor_distance, 0, LIMIT);
  query.cos_half_fov = -FXS_ONE;
  query.k = def->max_neighbors;
  uint32_t chosen[FXS_NEIGHBORS_MAX_K];
  uint32_t n = fxs_query_neighbors(self, self_id, neighbors, count, &query, chosen);
  // The chosen ones in their order (and their priorities), so that the program runs on a
  // plain list, as in the world.
  fxs_neighbor near[FXS_NEIGHBORS_MAX_K];
  fix16_t near_priorities[FXS_NEIGHBORS_MAX_K];
  for (uint32_t i = 0; i < n; ++i) {
    near[i] = neighbors[chosen[i]];
    if (priorities) near_priorities[i] = priorities[chosen[i]];
  }
  fxs_orca_scratch scratch;
  return fxs_orca_velocity_sorted(self, self_id, preferred, near, priorities ? near_priorities : 0,
                                  0, n, statics, &own, false, 0, &scratch);
}

fxs_vec2 fxs_orca_velocity_sorted(const fxs_agent *self, uint32_t self_id, fxs_vec2 preferred,
                                  const fxs_neighbor *neighbors, const fix16_t *priorities,
                                  const fxs_orca_radii *radii, uint32_t n,
                                  const fxs_orca_statics *statics, const fxs_orca_def *def,
                                  bool slow, const fxs_orca_memo *memo, fxs_orca_scratch *scratch) {
  return fxs_orca_velocity_crowd(self, self_id, preferred, neighbors, priorities, radii, n, statics,
                                 def, slow, memo, scratch, false);
}

fxs_vec2 fxs_orca_velocity_crowd(const fxs_agent *self, uint32_t self_id, fxs_vec2 preferred,
                                 const fxs_neighbor *neighbors, const fix16_t *priorities,
                                 const fxs_orca_radii *radii, uint32_t n,
                                 const fxs_orca_statics *statics, const fxs_orca_def *def,
                                 bool slow, const fxs_orca_memo *memo, fxs_orca_scratch *scratch,
                                 bool crowd) {
  static const fxs_orca_memo none = {0, 0};
  return velocity_of(self, self_id, preferred, neighbors, n, priorities, radii, statics, def, slow,
                     memo ? memo : &none, scratch, crowd);
}

fxs_vec2 fxs_orca_velocity(const fxs_agent *self, uint32_t self_id, fxs_vec2 preferred,
                           const fxs_neighbor *neighbors, uint32_t count, const fxs_orca_def *def) {
  return fxs_orca_velocity_among(self, self_id, preferred, neighbors, 0, count, 0, def);
}

fxs_vec2 fxs_orca(const fxs_agent *self, uint32_t self_id, fxs_vec2 preferred,
                  const fxs_neighbor *neighbors, uint32_t count, const fxs_orca_def *def) {
  return fxs_steer_toward(self, fxs_orca_velocity(self, self_id, preferred, neighbors, count, def));
}
