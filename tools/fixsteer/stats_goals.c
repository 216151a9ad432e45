// `fixsteer stats` (stats.h): where the agents going to a target point end. Each ends in one
// of four places, judged against its own radius so that the figures do not depend on the
// unit of length: on its target (centre within a quarter radius), at rest in a goal cluster
// (its target point shared by N agents, centre within 1.3 r sqrt(N) of it: the room N bodies
// need round one point), at rest short of its target, or still moving. An agent short of its
// target is never counted as arrived.
#include <stdlib.h>
#include <string.h>

#include "stats.h"

// ------------------------------------------------------------------ 128-bit products

wide wide_mul(int64_t a, int64_t b) {
  uint64_t x = a < 0 ? 0u - (uint64_t)a : (uint64_t)a, y = b < 0 ? 0u - (uint64_t)b : (uint64_t)b;
  uint64_t x0 = x & 0xFFFFFFFFu, x1 = x >> 32, y0 = y & 0xFFFFFFFFu, y1 = y >> 32;
  uint64_t p00 = x0 * y0, p01 = x0 * y1, p10 = x1 * y0, p11 = x1 * y1;
  uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
  wide r = {p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32), (mid << 32) | (p00 & 0xFFFFFFFFu)};
  if ((a < 0) != (b < 0)) r = (wide){~r.hi + (r.lo == 0), 0u - r.lo};
  return r;
}

wide wide_add(wide a, wide b) {
  wide r = {a.hi + b.hi, a.lo + b.lo};
  r.hi += r.lo < a.lo;
  return r;
}

int wide_cmp(wide a, wide b) {
  if (a.hi != b.hi) return (int64_t)a.hi < (int64_t)b.hi ? -1 : 1;
  return a.lo < b.lo ? -1 : a.lo > b.lo;
}

int dot_sign(int64_t ax, int64_t ay, int64_t bx, int64_t by) {
  return wide_cmp(wide_add(wide_mul(ax, bx), wide_mul(ay, by)), (wide){0, 0});
}

int cross_sign(int64_t ax, int64_t ay, int64_t bx, int64_t by) {
  return wide_cmp(wide_mul(ax, by), wide_mul(ay, bx));
}

uint64_t floor_sqrt(uint64_t v) {
  uint64_t r = 0;
  for (uint64_t bit = UINT64_C(1) << 62; bit; bit >>= 2) {
    if (v >= r + bit) v -= r + bit, r = (r >> 1) + bit;
    else r >>= 1;
  }
  return r;
}

// ------------------------------------------------------------------ one agent

// Behavior kinds that seek the target point to rest there; kinds added later that do so
// belong here.
bool stats_has_goal(const fxs_agent_slot *a) {
  if (a->target_agent != 0) return false;
  for (uint8_t i = 0; i < a->behavior_count && i < FXS_AGENT_BEHAVIORS; ++i) {
    uint8_t k = a->behaviors[i].kind;
    if (k == FXS_BEHAVIOR_ARRIVE || k == FXS_BEHAVIOR_KINEMATIC_ARRIVE || k == FXS_BEHAVIOR_ORCA ||
        k == FXS_BEHAVIOR_NAVIGATE) {
      return true;
    }
  }
  return false;
}

static bool navigates(const fxs_agent_slot *a) {
  for (uint8_t i = 0; i < a->behavior_count && i < FXS_AGENT_BEHAVIORS; ++i) {
    if (a->behaviors[i].kind == FXS_BEHAVIOR_NAVIGATE) return true;
  }
  return false;
}

// The distance from the agent's centre to its target point, raw, rounded down.
static int64_t target_distance(const fxs_agent_slot *a) {
  int64_t dx = (int64_t)a->body.position.x - a->target_point.x;
  int64_t dy = (int64_t)a->body.position.y - a->target_point.y;
  uint64_t x2 = (uint64_t)(dx * dx), sum = x2 + (uint64_t)(dy * dy); // |d| < 2^32
  return sum < x2 ? INT64_C(1) << 32 : (int64_t)floor_sqrt(sum);     // the sum may wrap
}

// |centre - target| * den <= limit (exact: squares as 128-bit products).
static bool within(const fxs_agent_slot *a, int64_t den, int64_t limit) {
  int64_t dx = ((int64_t)a->body.position.x - a->target_point.x) * den;
  int64_t dy = ((int64_t)a->body.position.y - a->target_point.y) * den;
  return wide_cmp(wide_add(wide_mul(dx, dx), wide_mul(dy, dy)), wide_mul(limit, limit)) <= 0;
}

static bool on_target(const fxs_agent_slot *a) { return within(a, 4, a->body.radius); }

static bool home(const figures *f, const fxs_agent_slot *a) {
  return within(a, 1, f->home_distance > 0 ? f->home_distance : a->body.radius);
}

void stats_track_goal(const figures *f, track *t, const fxs_agent_slot *a, long tick) {
  if (!stats_has_goal(a)) {
    t->arrived_since = -1;
    return;
  }
  if (!on_target(a)) t->arrived_since = -1;
  else if (t->arrived_since < 0) t->arrived_since = tick;
  if (t->home_since < 0 && home(f, a)) t->home_since = tick;
  if (navigates(a)) {
    // Progress: an eighth of its radius nearer (1 LSB at least, for a body of no size).
    int64_t d = target_distance(a), step = a->body.radius / 8 > 0 ? a->body.radius / 8 : 1;
    if (t->progress_tick < 0 || d <= t->progress_mark - step) {
      t->progress_mark = d, t->progress_tick = tick;
    }
  }
}

// ------------------------------------------------------------------ at the end

typedef struct goal_ref {
  fxs_vec2 point;
  uint32_t slot;
} goal_ref;

static int by_point(const void *a, const void *b) {
  const goal_ref *p = a, *q = b;
  if (p->point.x != q->point.x) return p->point.x < q->point.x ? -1 : 1;
  if (p->point.y != q->point.y) return p->point.y < q->point.y ? -1 : 1;
  return p->slot < q->slot ? -1 : p->slot > q->slot;
}

// At rest within 1.3 r sqrt(n) of a target point n agents share (n >= 2): (10 d)^2 <=
// 169 r^2 n, with d rounded down.
static bool in_cluster(const fxs_agent_slot *a, long n) {
  if (n < 2 || !fxs_vec2_is_zero(a->body.velocity)) return false;
  int64_t d10 = target_distance(a) * 10, r = a->body.radius;
  return wide_cmp(wide_mul(d10, d10), wide_mul(169 * r, r * (int64_t)n)) <= 0;
}

// The tick the agent came to rest for good (it is at rest at the end).
static long rest_tick(const track *t) {
  return t->last_moving < 0 ? t->appeared : t->last_moving + 1;
}

static void judge_one(figures *f, track *t, const fxs_agent_slot *a, uint32_t slot, long sharing) {
  ++f->goal_agents;
  if (t->arrived_since >= 0) {
    ++f->on_target;
    if (sharing == 1) ++f->on_own_target;
  } else if (in_cluster(a, sharing)) {
    ++f->clustered;
    t->arrived_since = rest_tick(t);
  } else if (fxs_vec2_is_zero(a->body.velocity)) {
    if (f->rest_short++ == 0) f->short_agent = slot;
  } else {
    ++f->goal_moving;
  }
  if (t->arrived_since >= 0 && t->arrived_since > f->arrived_tick)
    f->arrived_tick = t->arrived_since;
  if (home(f, a)) ++f->home_end;
}

// Navigate agents that have not arrived, moved in the last STUCK_TICKS ticks and made no
// progress in them.
static void count_stuck(figures *f, const track *tracks, const fxs_world *w) {
  for (uint32_t i = 0; i < w->capacity.agents; ++i) {
    const track *t = &tracks[i];
    if (!t->alive || t->arrived_since >= 0 || !stats_has_goal(&w->agents[i]) ||
        !navigates(&w->agents[i]))
      continue;
    bool moved = t->last_moving > f->last_tick - STUCK_TICKS;
    if (moved && t->progress_tick >= 0 && f->last_tick - t->progress_tick >= STUCK_TICKS &&
        f->stuck++ == 0) {
      f->stuck_agent = i;
    }
  }
}

typedef struct waiting {
  int64_t distance;
  uint32_t slot;
} waiting;

static int by_distance(const void *a, const void *b) {
  const waiting *p = a, *q = b;
  if (p->distance != q->distance) return p->distance < q->distance ? -1 : 1;
  return p->slot < q->slot ? -1 : p->slot > q->slot;
}

// Does `a` touch `b`: centres within both radii and `gap`?
static bool touches(const fxs_agent *a, const fxs_agent *b, int64_t gap) {
  int64_t dx = (int64_t)a->position.x - b->position.x, dy = (int64_t)a->position.y - b->position.y;
  int64_t reach = (int64_t)a->radius + b->radius + gap;
  return wide_cmp(wide_add(wide_mul(dx, dx), wide_mul(dy, dy)), wide_mul(reach, reach)) <= 0;
}

// Of the agents at rest short of the point goals[first..end) share, those in the pile behind
// it: touching (centres within both radii and an eighth of the radius; the radius in a world
// with shared fields, whose followers hold that far back) one that arrived, or is in the
// pile, and is nearer the point; nearest first. Not arrived: it says where they wait.
static void pile_behind(figures *f, track *tracks, const fxs_world *w, const goal_ref *goals,
                        long first, long end, waiting *list) {
  long n = 0;
  for (long i = first; i < end; ++i) {
    const fxs_agent_slot *a = &w->agents[goals[i].slot];
    if (tracks[goals[i].slot].arrived_since < 0 && fxs_vec2_is_zero(a->body.velocity))
      list[n].distance = target_distance(a), list[n++].slot = goals[i].slot;
  }
  qsort(list, (size_t)n, sizeof *list, by_distance);
  for (long k = 0; k < n; ++k) {
    const fxs_agent *a = &w->agents[list[k].slot].body;
    int64_t gap = w->capacity.nav_fields > 0 ? a->radius : a->radius / 8;
    for (long i = first; i < end; ++i) {
      uint32_t s = goals[i].slot;
      if (s == list[k].slot || (tracks[s].arrived_since < 0 && !tracks[s].behind) ||
          target_distance(&w->agents[s]) >= list[k].distance ||
          !touches(a, &w->agents[s].body, gap)) {
        continue;
      }
      tracks[list[k].slot].behind = true, ++f->rest_behind;
      break;
    }
  }
}

static int by_tick(const void *a, const void *b) {
  long p = *(const long *)a, q = *(const long *)b;
  return p < q ? -1 : p > q;
}

// The first ticks by which 50, 90 and 100 % of the agents going to a target point had come
// home (each counted from the first tick it did), -1 for a share never reached.
static void home_ticks(figures *f, const track *tracks, const goal_ref *goals, long n,
                       long *ticks) {
  static const long shares[HOME_SHARES] = {50, 90, 100};
  long k = 0;
  for (long i = 0; i < n; ++i) {
    if (tracks[goals[i].slot].home_since >= 0) ticks[k++] = tracks[goals[i].slot].home_since;
  }
  qsort(ticks, (size_t)k, sizeof *ticks, by_tick);
  f->home_ever = k;
  for (int s = 0; s < HOME_SHARES; ++s) {
    long need = (n * shares[s] + 99) / 100;
    f->home_tick[s] = need >= 1 && k >= need ? ticks[need - 1] : -1;
  }
}

bool stats_judge_goals(figures *f, track *tracks, const fxs_world *w) {
  uint32_t slots = w->capacity.agents ? w->capacity.agents : 1u;
  goal_ref *goals = malloc(slots * sizeof *goals);
  long *ticks = malloc(slots * sizeof *ticks);
  waiting *list = malloc(slots * sizeof *list);
  if (!goals || !ticks || !list) return free(goals), free(ticks), free(list), false;
  long n = 0;
  for (uint32_t i = 0; i < w->capacity.agents; ++i) {
    if (tracks[i].alive && stats_has_goal(&w->agents[i]))
      goals[n].point = w->agents[i].target_point, goals[n++].slot = i;
  }
  qsort(goals, (size_t)n, sizeof *goals, by_point);
  f->arrived_tick = -1, f->short_agent = -1;
  for (long first = 0, end; first < n; first = end) {
    for (end = first + 1; end < n && fxs_vec2_equal(goals[end].point, goals[first].point);) ++end;
    for (long i = first; i < end; ++i) {
      uint32_t s = goals[i].slot;
      judge_one(f, &tracks[s], &w->agents[s], s, end - first);
    }
    pile_behind(f, tracks, w, goals, first, end, list);
  }
  f->arrived = f->on_target + f->clustered;
  count_stuck(f, tracks, w);
  home_ticks(f, tracks, goals, n, ticks);
  free(goals);
  free(ticks);
  free(list);
  return true;
}

// ------------------------------------------------------------------ path followers

// Squared distance from p to the segment a-b, raw units (the nearest point rounded as the
// library rounds it); *past_start when p projects beyond a, toward b.
static wide segment_distance_sq(fxs_vec2 p, fxs_vec2 a, fxs_vec2 b, bool *past_start) {
  int64_t ux = (int64_t)b.x - a.x, uy = (int64_t)b.y - a.y;
  int64_t px = (int64_t)p.x - a.x, py = (int64_t)p.y - a.y;
  fxs_vec2 q = fxs_vec2_closest_on_segment(p, a, b);
  *past_start = dot_sign(px, py, ux, uy) > 0;
  int64_t dx = (int64_t)p.x - q.x, dy = (int64_t)p.y - q.y;
  return wide_add(wide_mul(dx, dx), wide_mul(dy, dy));
}

void stats_judge_paths(figures *f, const fxs_world *w) {
  for (uint32_t i = 0; i < w->capacity.agents; ++i) {
    const fxs_agent_slot *a = &w->agents[i];
    if (!a->alive || a->path_index >= w->path_count) continue;
    const fxs_world_path *p = &w->paths[a->path_index];
    if (p->mode != FXS_PATH_STOP_AT_END || p->count < 2) continue;
    ++f->path_followers;
    if (!fxs_vec2_is_zero(a->body.velocity)) continue;
    const fxs_vec2 *nodes = &w->nodes[p->first_node];
    // The nearest segment; ties go to the earlier one.
    wide best = {0, 0};
    uint32_t best_k = 0;
    bool past = false;
    for (uint32_t k = 0; k + 1 < p->count; ++k) {
      bool beyond;
      wide d = segment_distance_sq(a->body.position, nodes[k], nodes[k + 1], &beyond);
      if (k == 0 || wide_cmp(d, best) < 0) best = d, best_k = k, past = beyond;
    }
    if (best_k + 2u == p->count && past) ++f->path_last_segment;
  }
}
