// `fixsteer stats`: figures that say whether a scene looks right, computed from the simulated
// states of a scenario or a replay. Every comparison is exact integer arithmetic on the raw
// Q16.16 state (squares of coordinate differences need up to 66 bits: they are compared as
// 128-bit products); doubles only print.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixsteer/fixsteer.h"
#include "fixsteer/world.h"
#include "cli.h"
#include "commands.h"
#include "source.h"

// A creep is this many consecutive ticks at 0 < |v| <= 1 LSB on both axes.
#define CREEP_TICKS 10
// Pressed against a bound: within the radius plus this much of it (raw: 0.5 units).
#define PRESS_SLACK FXS_RATIO(1, 2)
// Walls beyond this many are not searched for doorways (the search is quadratic).
#define DOOR_SEARCH_WALLS 1024u
#define MAX_DOORS 64
// At rest: slower than this (raw: 0.5 units a tick). A reversal or a heading flip of an agent
// this slow, before and after, is flicker, not a turn.
#define REST_SPEED FXS_RATIO(1, 2)
// A heading flip: the orientation turns by more than pi/2 in one tick. A flip within
// FLICKER_TICKS of the agent's previous one is flicker: a single flip is a turn from rest.
#define FLIP_ANGLE (FXS_PI / 2)
#define FLICKER_TICKS 4
// Stuck: a navigate agent that has not come one unit nearer its target (STUCK_PROGRESS) in
// the last STUCK_TICKS ticks of the run and moved in them (not at rest).
#define STUCK_TICKS 100
#define STUCK_PROGRESS FXS_ONE

// ------------------------------------------------------------------ 128-bit products

typedef struct wide {
  uint64_t hi, lo; // two's complement
} wide;

static wide wide_mul(int64_t a, int64_t b) {
  uint64_t x = a < 0 ? 0u - (uint64_t)a : (uint64_t)a, y = b < 0 ? 0u - (uint64_t)b : (uint64_t)b;
  uint64_t x0 = x & 0xFFFFFFFFu, x1 = x >> 32, y0 = y & 0xFFFFFFFFu, y1 = y >> 32;
  uint64_t p00 = x0 * y0, p01 = x0 * y1, p10 = x1 * y0, p11 = x1 * y1;
  uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
  wide r = {p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32), (mid << 32) | (p00 & 0xFFFFFFFFu)};
  if ((a < 0) != (b < 0)) r = (wide){~r.hi + (r.lo == 0), 0u - r.lo};
  return r;
}

static wide wide_add(wide a, wide b) {
  wide r = {a.hi + b.hi, a.lo + b.lo};
  r.hi += r.lo < a.lo;
  return r;
}

// -1, 0 or 1 as a < b, a == b, a > b.
static int wide_cmp(wide a, wide b) {
  if (a.hi != b.hi) return (int64_t)a.hi < (int64_t)b.hi ? -1 : 1;
  return a.lo < b.lo ? -1 : a.lo > b.lo;
}

// Sign of a.x * b.x + a.y * b.y (differences of raw coordinates: up to 33 bits each).
static int dot_sign(int64_t ax, int64_t ay, int64_t bx, int64_t by) {
  return wide_cmp(wide_add(wide_mul(ax, bx), wide_mul(ay, by)), (wide){0, 0});
}

static int cross_sign(int64_t ax, int64_t ay, int64_t bx, int64_t by) {
  return wide_cmp(wide_mul(ax, by), wide_mul(ay, bx));
}

// ------------------------------------------------------------------ what is measured

typedef struct track {
  bool alive;
  uint16_t generation;
  bool crept; // had a creep run of CREEP_TICKS or more
  long press_run, creep_run;
  long last_moving; // last tick with a non-zero velocity, -1: none since it appeared
  long appeared;
  fxs_vec2 last_velocity;
  fxs_vec2 last_position;
  fix16_t last_orientation;
  bool seen; // last_* hold the previous tick
  long last_flip; // tick of its last heading flip, -1: none
  long corner_ticks, alive_ticks;
  long arrived_since; // first tick of its current run with its body over its target point, -1: none
  int64_t progress_mark; // navigate: its raw distance to its target when it last came 1 unit nearer
  long progress_tick;    // that tick, -1: not measured yet
} track;

typedef struct door {
  fxs_vec2 a, b; // the wall ends either side of the gap
  uint32_t wall_a, wall_b;
} door;

typedef struct figures {
  long ticks, agents, first_tick, last_tick;
  long *overlaps; // per tick stepped
  long overlap_max, overlap_max_tick;
  long press_best, press_agent, press_end, press_agent_ticks;
  long creep_agents, creep_best, creep_agent, creep_end, creep_agent_ticks;
  long reversals, reversal_best, reversal_agent;
  long *agent_reversals;
  long rest_reversals, heading_flips, rest_flips, flicker, flicker_agent, flicker_tick;
  long crossings, crossing_agent, crossing_tick, crossing_wall;
  long corner_best, corner_best_of, corner_agent; // the agent most often in a corner
  long corner_agent_ticks;
  long *reversals_so_far; // per tick stepped: reversals up to and including it
  bool has_clearance;
  int64_t clearance;
  long clearance_tick, clearance_agent, clearance_index;
  const char *clearance_kind;
  long settle; // first tick from which every agent stays at rest, -1: never
  long first_rest, first_rest_agent;
  uint32_t door_count, walls_seen;
  door doors[MAX_DOORS];
  long door_max, door_max_tick, door_max_index;
  bool doors_skipped;
  int64_t overlap_depth; // deepest overlap of two bodies, raw
  long overlap_depth_tick;
  long goal_agents, arrived, arrived_tick; // agents with a target point; arrived at the end; since
  long arrived_behind; // of them, navigate agents at rest behind an arrived one (docs/tool.md)
  long stuck, stuck_agent; // navigate agents moving without progress at the end (STUCK_TICKS)
  long formation_members, in_slot; // members with a slot at the end; of them, body over it
  int64_t slot_gap;                // the largest distance of a member from its slot, raw
} figures;

// ------------------------------------------------------------------ overlapping bodies

typedef struct body_ref {
  fix16_t x;
  uint32_t slot;
} body_ref;

static int by_x(const void *a, const void *b) {
  const body_ref *p = a, *q = b;
  if (p->x != q->x) return p->x < q->x ? -1 : 1;
  return p->slot < q->slot ? -1 : p->slot > q->slot;
}

// The largest r with r * r <= v.
static uint64_t floor_sqrt(uint64_t v) {
  uint64_t r = 0;
  for (uint64_t bit = UINT64_C(1) << 62; bit; bit >>= 2) {
    if (v >= r + bit) v -= r + bit, r = (r >> 1) + bit;
    else r >>= 1;
  }
  return r;
}

// How deep two bodies overlap (raw units, rounded down to the LSB), 0 when they do not.
static int64_t overlap_depth(const fxs_agent *p, const fxs_agent *q) {
  int64_t dx = (int64_t)p->position.x - q->position.x, dy = (int64_t)p->position.y - q->position.y;
  int64_t reach = (int64_t)p->radius + q->radius;
  wide d2 = wide_add(wide_mul(dx, dx), wide_mul(dy, dy));
  if (wide_cmp(d2, wide_mul(reach, reach)) >= 0) return 0;
  int64_t depth = reach - (int64_t)floor_sqrt(d2.lo); // d2 < reach^2 < 2^64: it fits in lo
  return depth > 0 ? depth : 1;
}

// Pairs whose centres are closer than the sum of their radii, by a sweep along x; the
// deepest overlap is kept in f.
static long count_overlaps(figures *f, const fxs_world *w, body_ref *refs) {
  uint32_t n = 0;
  fix16_t widest = 0;
  for (uint32_t i = 0; i < w->capacity.agents; ++i) {
    if (!w->agents[i].alive) continue;
    refs[n++] = (body_ref){w->agents[i].body.position.x, i};
    if (w->agents[i].body.radius > widest) widest = w->agents[i].body.radius;
  }
  qsort(refs, n, sizeof *refs, by_x);
  long pairs = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const fxs_agent *p = &w->agents[refs[i].slot].body;
    int64_t reach = (int64_t)p->radius + widest;
    for (uint32_t j = i + 1; j < n && (int64_t)refs[j].x - refs[i].x < reach; ++j) {
      int64_t depth = overlap_depth(p, &w->agents[refs[j].slot].body);
      if (depth == 0) continue;
      ++pairs;
      if (depth > f->overlap_depth) f->overlap_depth = depth, f->overlap_depth_tick = (long)w->tick;
    }
  }
  return pairs;
}

// ------------------------------------------------------------------ bounds, creep, rest

static bool pressed(const fxs_world_def *d, const fxs_agent *a) {
  int64_t x = a->position.x, y = a->position.y;
  if (x <= d->bounds_min.x || x >= d->bounds_max.x || y <= d->bounds_min.y || y >= d->bounds_max.y) return true;
  if (!d->clamp_to_bounds) return false;
  int64_t near = (int64_t)a->radius + PRESS_SLACK;
  return x - d->bounds_min.x <= near || d->bounds_max.x - x <= near || y - d->bounds_min.y <= near ||
         d->bounds_max.y - y <= near;
}

static bool slower_than(fxs_vec2 v, fix16_t speed) {
  return wide_cmp(wide_add(wide_mul(v.x, v.x), wide_mul(v.y, v.y)), wide_mul(speed, speed)) < 0;
}

// |wrap(b - a)| > FLIP_ANGLE, on raw radians.
static bool turned_over(fix16_t a, fix16_t b) {
  int64_t d = (int64_t)b - a, two_pi = 2 * (int64_t)FXS_PI;
  while (d > FXS_PI) d -= two_pi;
  while (d < -(int64_t)FXS_PI) d += two_pi;
  return d > FLIP_ANGLE || d < -(int64_t)FLIP_ANGLE;
}

// True when the segments p0-p1 and q0-q1 cross: each one's ends strictly on both sides of
// the other's line. A centre that ends on a wall's line, or moves along it, does not cross.
static bool crosses(fxs_vec2 p0, fxs_vec2 p1, fxs_vec2 q0, fxs_vec2 q1) {
  int64_t px = (int64_t)p1.x - p0.x, py = (int64_t)p1.y - p0.y;
  int64_t qx = (int64_t)q1.x - q0.x, qy = (int64_t)q1.y - q0.y;
  int a = cross_sign(px, py, (int64_t)q0.x - p0.x, (int64_t)q0.y - p0.y);
  int b = cross_sign(px, py, (int64_t)q1.x - p0.x, (int64_t)q1.y - p0.y);
  int c = cross_sign(qx, qy, (int64_t)p0.x - q0.x, (int64_t)p0.y - q0.y);
  int d = cross_sign(qx, qy, (int64_t)p1.x - q0.x, (int64_t)p1.y - q0.y);
  return a * b < 0 && c * d < 0;
}

// Wall crossings: the agent's centre went from one side of a wall to the other in one tick.
static void count_crossings(figures *f, const fxs_world *w, fxs_vec2 from, fxs_vec2 to, uint32_t slot, long tick) {
  if (fxs_vec2_equal(from, to)) return;
  for (uint32_t k = 0; k < w->capacity.walls; ++k) {
    if (!w->wall_alive[k] || !crosses(from, to, w->walls[k].a, w->walls[k].b)) continue;
    if (f->crossings++ == 0) f->crossing_agent = slot, f->crossing_tick = tick, f->crossing_wall = k;
  }
}

static bool creeping(fxs_vec2 v) {
  return !fxs_vec2_is_zero(v) && v.x >= -1 && v.x <= 1 && v.y >= -1 && v.y <= 1;
}

// Closes an agent's creep run: one of 10+ ticks makes it a creeping agent.
static void end_creep(figures *f, track *t, uint32_t slot, long tick) {
  if (t->creep_run >= CREEP_TICKS && !t->crept) t->crept = true, ++f->creep_agents;
  if (t->creep_run > f->creep_best) f->creep_best = t->creep_run, f->creep_agent = slot, f->creep_end = tick;
  t->creep_run = 0;
}

// The agent goes to its target point: it has no target agent and a behavior that seeks the
// target point to rest there (arrive, its kinematic twin, ORCA). Kinds added later that do so
// belong here.
static bool has_goal(const fxs_agent_slot *a) {
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
  uint64_t x2 = (uint64_t)(dx * dx), sum = x2 + (uint64_t)(dy * dy); // |d| < 2^32: no overflow
  return sum < x2 ? INT64_C(1) << 32 : (int64_t)floor_sqrt(sum);         // unless the sum's

}

// The agent's body covers the target point it goes to.
static bool over_target(const fxs_agent_slot *a) {
  if (!has_goal(a)) return false;
  int64_t dx = (int64_t)a->body.position.x - a->target_point.x, dy = (int64_t)a->body.position.y - a->target_point.y;
  int64_t r = a->body.radius;
  return wide_cmp(wide_add(wide_mul(dx, dx), wide_mul(dy, dy)), wide_mul(r, r)) <= 0;
}

static void track_agent(figures *f, track *t, const fxs_world *w, uint32_t slot, long tick) {
  const fxs_agent_slot *a = &w->agents[slot];
  if (!t->alive || t->generation != a->generation) {
    memset(t, 0, sizeof *t);
    t->alive = true, t->generation = a->generation, t->last_moving = -1, t->appeared = tick;
    t->last_flip = -1, t->arrived_since = -1, t->progress_tick = -1;
  }
  if (!over_target(a)) t->arrived_since = -1;
  else if (t->arrived_since < 0) t->arrived_since = tick;
  if (has_goal(a) && navigates(a)) {
    int64_t d = target_distance(a);
    if (t->progress_tick < 0 || d <= t->progress_mark - STUCK_PROGRESS) {
      t->progress_mark = d, t->progress_tick = tick;
    }
  }
  fxs_vec2 v = a->body.velocity;
  if (pressed(&w->def, &a->body)) {
    ++f->press_agent_ticks;
    if (++t->press_run > f->press_best) f->press_best = t->press_run, f->press_agent = slot, f->press_end = tick;
  } else {
    t->press_run = 0;
  }
  if (creeping(v)) {
    ++f->creep_agent_ticks;
    ++t->creep_run;
  } else if (t->creep_run) {
    end_creep(f, t, slot, tick - 1);
  }
  bool slow = t->seen && slower_than(v, REST_SPEED) && slower_than(t->last_velocity, REST_SPEED);
  if (dot_sign(v.x, v.y, t->last_velocity.x, t->last_velocity.y) < 0) {
    ++f->reversals;
    if (++f->agent_reversals[slot] > f->reversal_best) f->reversal_best = f->agent_reversals[slot], f->reversal_agent = slot;
    if (slow) ++f->rest_reversals;
  }
  if (t->seen && turned_over(t->last_orientation, a->body.orientation)) {
    ++f->heading_flips;
    if (slow) ++f->rest_flips;
    if (t->last_flip >= 0 && tick - t->last_flip <= FLICKER_TICKS && f->flicker++ == 0) {
      f->flicker_agent = slot, f->flicker_tick = tick;
    }
    t->last_flip = tick;
  }
  if (t->seen) count_crossings(f, w, t->last_position, a->body.position, slot, tick);
  t->last_velocity = v;
  t->last_position = a->body.position;
  t->last_orientation = a->body.orientation;
  t->seen = true;
  ++t->alive_ticks;
  if (!fxs_vec2_is_zero(v)) t->last_moving = tick;
}

// ------------------------------------------------------------------ clearance

static void clearance_to(figures *f, int64_t gap, long tick, uint32_t slot, const char *kind, uint32_t index) {
  if (f->has_clearance && gap >= f->clearance) return;
  f->has_clearance = true;
  f->clearance = gap, f->clearance_tick = tick, f->clearance_agent = slot;
  f->clearance_kind = kind, f->clearance_index = index;
}

// Body edge to obstacle edge, and body edge to wall segment (negative: they overlap). The
// distances are correctly rounded Q16.16; the closest point of a wall is rounded to 1 LSB.
// Directions of the walls (and bounds) a body touches, to tell a corner from a flat wall.
typedef struct touching {
  int64_t dx[4], dy[4];
  int count;
  bool corner; // two touched walls that are not parallel
} touching;

static void touch(touching *t, int64_t dx, int64_t dy) {
  for (int i = 0; i < t->count && !t->corner; ++i) t->corner = cross_sign(t->dx[i], t->dy[i], dx, dy) != 0;
  if (t->count < 4) t->dx[t->count] = dx, t->dy[t->count] = dy, t->count++;
}

// The bounds an agent is kept in count as walls of the corner.
static void touch_bounds(touching *t, const fxs_world_def *d, const fxs_agent *a) {
  if (!d->clamp_to_bounds) return;
  int64_t near = (int64_t)a->radius + PRESS_SLACK, x = a->position.x, y = a->position.y;
  if (x - d->bounds_min.x <= near || d->bounds_max.x - x <= near) touch(t, 0, 1);
  if (y - d->bounds_min.y <= near || d->bounds_max.y - y <= near) touch(t, 1, 0);
}

static bool measure_clearance(figures *f, const fxs_world *w, uint32_t slot, long tick) {
  const fxs_agent *a = &w->agents[slot].body;
  touching near;
  near.count = 0, near.corner = false;
  touch_bounds(&near, &w->def, a);
  for (uint32_t o = 0; o < w->capacity.obstacles; ++o) {
    if (!w->obstacle_alive[o]) continue;
    int64_t gap = (int64_t)fxs_vec2_distance(a->position, w->obstacles[o].center) - a->radius - w->obstacles[o].radius;
    clearance_to(f, gap, tick, slot, "obstacle", o);
  }
  for (uint32_t k = 0; k < w->capacity.walls; ++k) {
    if (!w->wall_alive[k]) continue;
    fxs_vec2 q = fxs_vec2_closest_on_segment(a->position, w->walls[k].a, w->walls[k].b);
    int64_t gap = (int64_t)fxs_vec2_distance(a->position, q) - a->radius;
    clearance_to(f, gap, tick, slot, "wall", k);
    if (gap <= PRESS_SLACK) touch(&near, (int64_t)w->walls[k].b.x - w->walls[k].a.x, (int64_t)w->walls[k].b.y - w->walls[k].a.y);
  }
  if (near.corner) ++f->corner_agent_ticks;
  return near.corner;
}

// ------------------------------------------------------------------ doorways

static bool collinear(fxs_wall p, fxs_vec2 q) {
  return cross_sign((int64_t)p.b.x - p.a.x, (int64_t)p.b.y - p.a.y, (int64_t)q.x - p.a.x, (int64_t)q.y - p.a.y) == 0;
}

// 1 when point q lies beyond end `e` of the segment from `o` to `e` (on the far side of e).
static bool beyond(fxs_vec2 o, fxs_vec2 e, fxs_vec2 q) {
  return dot_sign((int64_t)q.x - e.x, (int64_t)q.y - e.y, (int64_t)e.x - o.x, (int64_t)e.y - o.y) > 0;
}

// Two collinear walls that do not touch leave a doorway between their nearest ends.
static bool door_between(fxs_wall p, fxs_wall q, door *d) {
  if (fxs_vec2_equal(p.a, p.b) || fxs_vec2_equal(q.a, q.b) || !collinear(p, q.a) || !collinear(p, q.b)) return false;
  fxs_vec2 pe[2] = {p.a, p.b}, qe[2] = {q.a, q.b};
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 2; ++j) {
      fxs_vec2 po = pe[1 - i], pend = pe[i], qo = qe[1 - j], qend = qe[j];
      // q lies wholly beyond p's end pend, and p wholly beyond q's end qend: a gap between them.
      if (beyond(po, pend, qend) && beyond(po, pend, qo) && beyond(qo, qend, pend) && beyond(qo, qend, po)) {
        d->a = pend, d->b = qend;
        return true;
      }
    }
  }
  return false;
}

static void find_doors(figures *f, const fxs_world *w) {
  uint32_t live = 0;
  for (uint32_t k = 0; k < w->capacity.walls; ++k) live += w->wall_alive[k];
  if (live == f->walls_seen) return;
  f->walls_seen = live, f->door_count = 0;
  if (live > DOOR_SEARCH_WALLS) {
    f->doors_skipped = true;
    return;
  }
  for (uint32_t i = 0; i < w->capacity.walls; ++i) {
    for (uint32_t j = i + 1; w->wall_alive[i] && j < w->capacity.walls && f->door_count < MAX_DOORS; ++j) {
      door d;
      if (w->wall_alive[j] && door_between(w->walls[i], w->walls[j], &d)) {
        d.wall_a = i, d.wall_b = j;
        f->doors[f->door_count++] = d;
      }
    }
  }
}

// A body centre is in a doorway when it projects strictly between the wall ends and lies
// within its radius of the segment joining them: the body spans the opening.
static bool in_door(const door *d, const fxs_agent *a) {
  fxs_vec2 p = a->position;
  int64_t ux = (int64_t)d->b.x - d->a.x, uy = (int64_t)d->b.y - d->a.y;
  if (dot_sign((int64_t)p.x - d->a.x, (int64_t)p.y - d->a.y, ux, uy) <= 0) return false;
  if (dot_sign((int64_t)p.x - d->b.x, (int64_t)p.y - d->b.y, -ux, -uy) <= 0) return false;
  fxs_vec2 q = fxs_vec2_closest_on_segment(p, d->a, d->b);
  return fxs_vec2_distance(p, q) <= a->radius;
}

static void count_in_doors(figures *f, const fxs_world *w, long tick) {
  for (uint32_t k = 0; k < f->door_count; ++k) {
    long n = 0;
    for (uint32_t i = 0; i < w->capacity.agents; ++i) n += w->agents[i].alive && in_door(&f->doors[k], &w->agents[i].body);
    if (n > f->door_max) f->door_max = n, f->door_max_tick = tick, f->door_max_index = k;
  }
}

// ------------------------------------------------------------------ the run

static void measure_tick(figures *f, track *tracks, body_ref *refs, const fxs_world *w, long index) {
  long tick = (long)w->tick;
  long overlaps = count_overlaps(f, w, refs);
  f->overlaps[index] = overlaps;
  if (overlaps > f->overlap_max) f->overlap_max = overlaps, f->overlap_max_tick = tick;
  bool moving = false;
  long agents = 0;
  for (uint32_t i = 0; i < w->capacity.agents; ++i) {
    if (!w->agents[i].alive) {
      if (tracks[i].alive && tracks[i].creep_run) end_creep(f, &tracks[i], i, tick - 1);
      tracks[i].alive = false;
      continue;
    }
    ++agents;
    track_agent(f, &tracks[i], w, i, tick);
    if (measure_clearance(f, w, i, tick)) ++tracks[i].corner_ticks;
    moving = moving || !fxs_vec2_is_zero(w->agents[i].body.velocity);
  }
  if (agents > f->agents) f->agents = agents;
  if (moving) f->settle = -1;
  else if (f->settle < 0) f->settle = tick;
  find_doors(f, w);
  count_in_doors(f, w, tick);
}

// After the last tick: open creep runs close, creeping agents are counted, and the first
// agent to come to rest for good is named.
static void finish(figures *f, track *tracks, const fxs_world *w) {
  f->first_rest = -1, f->arrived_tick = -1;
  for (uint32_t i = 0; i < w->capacity.agents; ++i) {
    track *t = &tracks[i];
    if (!t->alive) continue;
    if (t->creep_run) end_creep(f, t, i, f->last_tick);
    if (t->alive_ticks && (f->corner_best_of == 0 || t->corner_ticks * f->corner_best_of > f->corner_best * t->alive_ticks)) {
      f->corner_best = t->corner_ticks, f->corner_best_of = t->alive_ticks, f->corner_agent = i;
    }
    long rest = t->last_moving < 0 ? t->appeared : t->last_moving + 1;
    if (has_goal(&w->agents[i])) {
      ++f->goal_agents;
      if (t->arrived_since >= 0 && ++f->arrived && t->arrived_since > f->arrived_tick) f->arrived_tick = t->arrived_since;
    }
    if (rest <= f->last_tick && (f->first_rest < 0 || rest < f->first_rest)) f->first_rest = rest, f->first_rest_agent = i;
    fxs_vec2 slot;
    if (fxs_world_formation_slot(w, fxs_world_handle_at(w, i), &slot)) {
      const fxs_agent *a = &w->agents[i].body;
      int64_t gap = fxs_vec2_distance(a->position, slot);
      ++f->formation_members;
      if (gap <= a->radius) ++f->in_slot;
      if (gap > f->slot_gap) f->slot_gap = gap;
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

// Navigate agents sharing a goal stop against those that got there first (the behavior's own
// rule): one at rest at the end, not over its target, has arrived too when its body touches
// (centres within both radii and one unit; and its radius in a world with shared fields,
// whose followers hold that far back) an arrived agent with the same target point that
// is nearer that point. Taken nearest first, so a whole cluster round the goal counts; the
// tick it arrived is the tick it came to rest for good.
static void arrive_behind(figures *f, track *tracks, const fxs_world *w, waiting *list) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < w->capacity.agents; ++i) {
    const fxs_agent_slot *a = &w->agents[i];
    if (!tracks[i].alive || tracks[i].arrived_since >= 0 || !has_goal(a) || !navigates(a) ||
        !fxs_vec2_is_zero(a->body.velocity)) {
      continue;
    }
    list[n].distance = target_distance(a), list[n++].slot = i;
  }
  qsort(list, n, sizeof *list, by_distance);
  for (uint32_t k = 0; k < n; ++k) {
    const fxs_agent_slot *a = &w->agents[list[k].slot];
    // A group's follower in a world with shared fields stops a body radius short of the one
    // ahead (world_step.c's navigate), so it touches within its radius instead of one unit.
    int64_t gap = w->capacity.nav_fields > 0 && a->body.radius > FXS_ONE ? a->body.radius : FXS_ONE;
    for (uint32_t j = 0; j < w->capacity.agents; ++j) {
      const fxs_agent_slot *b = &w->agents[j];
      if (j == list[k].slot || !tracks[j].alive || tracks[j].arrived_since < 0 ||
          b->target_point.x != a->target_point.x || b->target_point.y != a->target_point.y ||
          target_distance(b) >= list[k].distance) {
        continue;
      }
      int64_t dx = (int64_t)a->body.position.x - b->body.position.x;
      int64_t dy = (int64_t)a->body.position.y - b->body.position.y;
      int64_t reach = (int64_t)a->body.radius + b->body.radius + gap;
      wide d2 = wide_add(wide_mul(dx, dx), wide_mul(dy, dy));
      if (wide_cmp(d2, wide_mul(reach, reach)) > 0) continue;
      track *t = &tracks[list[k].slot];
      t->arrived_since = t->last_moving < 0 ? t->appeared : t->last_moving + 1;
      ++f->arrived, ++f->arrived_behind;
      if (t->arrived_since > f->arrived_tick) f->arrived_tick = t->arrived_since;
      break;
    }
  }
}

// Navigate agents that have not arrived, moved in the last STUCK_TICKS ticks and came no
// STUCK_PROGRESS nearer their target in them.
static void count_stuck(figures *f, const track *tracks, const fxs_world *w) {
  for (uint32_t i = 0; i < w->capacity.agents; ++i) {
    const track *t = &tracks[i];
    if (!t->alive || t->arrived_since >= 0 || !has_goal(&w->agents[i]) || !navigates(&w->agents[i]))
      continue;
    bool moved = t->last_moving > f->last_tick - STUCK_TICKS;
    if (moved && t->progress_tick >= 0 && f->last_tick - t->progress_tick >= STUCK_TICKS &&
        f->stuck++ == 0) {
      f->stuck_agent = i;
    }
  }
}

static int measure(source *src, figures *f) {
  const fxs_world *w = src->world;
  uint32_t slots = w->capacity.agents;
  track *tracks = calloc(slots ? slots : 1, sizeof *tracks);
  body_ref *refs = malloc((slots ? slots : 1) * sizeof *refs);
  f->overlaps = calloc((size_t)(src->ticks ? src->ticks : 1), sizeof *f->overlaps);
  f->agent_reversals = calloc(slots ? slots : 1, sizeof *f->agent_reversals);
  f->reversals_so_far = calloc((size_t)(src->ticks ? src->ticks : 1), sizeof *f->reversals_so_far);
  if (!tracks || !refs || !f->overlaps || !f->agent_reversals || !f->reversals_so_far) {
    free(tracks), free(refs);
    return fprintf(stderr, "fixsteer: %s: out of memory\n", src->name), EXIT_BAD;
  }
  f->settle = -1, f->first_tick = -1;
  while (source_step(src)) {
    if (f->first_tick < 0) f->first_tick = (long)w->tick;
    f->last_tick = (long)w->tick;
    measure_tick(f, tracks, refs, w, f->ticks);
    f->reversals_so_far[f->ticks++] = f->reversals;
  }
  finish(f, tracks, w);
  waiting *list = malloc((slots ? slots : 1) * sizeof *list);
  if (!list) {
    free(tracks), free(refs);
    return fprintf(stderr, "fixsteer: %s: out of memory\n", src->name), EXIT_BAD;
  }
  arrive_behind(f, tracks, w, list);
  count_stuck(f, tracks, w);
  free(list);
  free(tracks);
  free(refs);
  return EXIT_OK;
}

static double units(int64_t raw) { return (double)raw / 65536.0; }

// The "at rest" phase: the last 20 % of the ticks (at least one).
static long rest_ticks(const figures *f) { return f->ticks / 5 > 0 ? f->ticks / 5 : 1; }

// Velocity reversals in the "at rest" phase.
static long rest_reversals(const figures *f) {
  long before = f->ticks - rest_ticks(f) - 1;
  return f->reversals - (before >= 0 ? f->reversals_so_far[before] : 0);
}

static double mean_overlaps(const figures *f, long from, long *max) {
  long sum = 0, count = 0;
  *max = 0;
  for (long i = from; i < f->ticks; ++i) {
    sum += f->overlaps[i], ++count;
    if (f->overlaps[i] > *max) *max = f->overlaps[i];
  }
  return count ? (double)sum / (double)count : 0.0;
}

// The share of its ticks the agent most often in a corner spent there, percent.
static double corner_percent(const figures *f) {
  return f->corner_best_of ? 100.0 * (double)f->corner_best / (double)f->corner_best_of : 0.0;
}

static void print_table(const source *src, const figures *f) {
  long rest_max, all_max;
  double mean = mean_overlaps(f, 0, &all_max), rest = mean_overlaps(f, f->ticks - rest_ticks(f), &rest_max);
  printf("stats %s: %ld ticks (%ld..%ld), %ld agents\n", src->name, f->ticks, f->first_tick, f->last_tick, f->agents);
  if (f->overlap_max == 0) {
    printf("  %-34s none\n", "overlapping pairs per tick");
  } else {
    printf("  %-34s max %ld (tick %ld), mean %.3f; at rest (last %ld ticks): mean %.3f, max %ld; final %ld\n",
           "overlapping pairs per tick", f->overlap_max, f->overlap_max_tick, mean, rest_ticks(f), rest, rest_max,
           f->ticks ? f->overlaps[f->ticks - 1] : 0);
  }
  if (f->overlap_depth) {
    printf("  %-34s %.5f (tick %ld)\n", "deepest overlap of two bodies", units(f->overlap_depth), f->overlap_depth_tick);
  }
  printf("  %-34s %ld of %ld going to a target point", "arrived (body over target, at end)", f->arrived, f->goal_agents);
  if (f->arrived_behind) printf(", %ld of them at rest behind an arrived one", f->arrived_behind);
  if (f->arrived) printf(" (the last since tick %ld)", f->arrived_tick);
  if (f->formation_members) {
    printf("\n  %-34s %ld of %ld formation members, farthest %.5f from its slot", "in their slots (body over, at end)",
           f->in_slot, f->formation_members, units(f->slot_gap));
  }
  printf("\n  %-34s %ld", "stuck (navigate, no progress)", f->stuck);
  if (f->stuck) printf(" (first: agent %ld)", f->stuck_agent);
  printf("\n");
  if (f->press_best) {
    printf("  %-34s longest %ld ticks (agent %ld, ticks %ld..%ld); %ld agent-ticks in all\n", "pressed against a bound",
           f->press_best, f->press_agent, f->press_end - f->press_best + 1, f->press_end, f->press_agent_ticks);
  } else {
    printf("  %-34s never\n", "pressed against a bound");
  }
  printf("  %-34s %ld agents", "creep (0<|v|<=1 LSB, 10+ ticks)", f->creep_agents);
  if (f->creep_best) {
    printf("; longest %ld ticks (agent %ld, ticks %ld..%ld); %ld agent-ticks in all", f->creep_best, f->creep_agent,
           f->creep_end - f->creep_best + 1, f->creep_end, f->creep_agent_ticks);
  }
  printf("\n  %-34s %ld", "velocity reversals (v.v' < 0)", f->reversals);
  if (f->reversals) {
    printf(" (most: agent %ld, %ld); in the last %ld ticks: %ld", f->reversal_agent, f->reversal_best, rest_ticks(f),
           rest_reversals(f));
  }
  printf("\n  %-34s %ld", "reversals at rest (|v| < 0.5)", f->rest_reversals);
  printf("\n  %-34s %ld (at rest, |v| < 0.5: %ld); flicker (again within %d ticks): %ld",
         "heading flips (> pi/2 in a tick)", f->heading_flips, f->rest_flips, FLICKER_TICKS, f->flicker);
  if (f->flicker) printf(" (first: agent %ld, tick %ld)", f->flicker_agent, f->flicker_tick);
  printf("\n  %-34s %ld", "wall crossings (centre)", f->crossings);
  if (f->crossings) printf(" (first: agent %ld, tick %ld, wall %ld)", f->crossing_agent, f->crossing_tick, f->crossing_wall);
  printf("\n  %-34s %.1f %% of its ticks (agent %ld); %ld agent-ticks in all", "in a corner (two walls), most",
         corner_percent(f), f->corner_best_of ? f->corner_agent : -1L, f->corner_agent_ticks);
  if (f->has_clearance) {
    printf("\n  %-34s %.5f (tick %ld, agent %ld, %s %ld)\n", "min clearance to walls/obstacles", units(f->clearance),
           f->clearance_tick, f->clearance_agent, f->clearance_kind, f->clearance_index);
  } else {
    printf("\n  %-34s no walls or obstacles\n", "min clearance to walls/obstacles");
  }
  if (f->settle >= 0) printf("  %-34s tick %ld", "every agent at rest for good", f->settle);
  else printf("  %-34s never", "every agent at rest for good");
  if (f->first_rest >= 0) printf("; first agent at rest for good: agent %ld at tick %ld", f->first_rest_agent, f->first_rest);
  printf("\n");
  if (f->door_count && f->door_max == 0) {
    printf("  %-34s none ever (%u doorway%s)\n", "body centres in a doorway", f->door_count, f->door_count > 1 ? "s" : "");
  } else if (f->door_count) {
    printf("  %-34s %ld at once (tick %ld, doorway %ld of %u: walls %u and %u)\n", "body centres in a doorway",
           f->door_max, f->door_max_tick, f->door_max_index, f->door_count, f->doors[f->door_max_index].wall_a,
           f->doors[f->door_max_index].wall_b);
  } else {
    printf("  %-34s %s\n", "body centres in a doorway", f->doors_skipped ? "not searched (too many walls)" : "no doorway");
  }
}

static void json_string(const char *key, const char *s) {
  printf("  \"%s\": \"", key);
  for (; *s; ++s) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') printf("\\%c", c);
    else if (c < 0x20) printf("\\u%04x", c);
    else putchar(c);
  }
  printf("\",\n");
}

static void json_long(const char *key, long v) { printf("  \"%s\": %ld,\n", key, v); }

// One key per line, no nesting: easy to read from a shell script.
static void print_json(const source *src, const figures *f) {
  long rest_max, all_max;
  double mean = mean_overlaps(f, 0, &all_max), rest = mean_overlaps(f, f->ticks - rest_ticks(f), &rest_max);
  printf("{\n");
  json_string("scene", src->name);
  json_string("source", src->is_replay ? "replay" : "scenario");
  json_long("ticks", f->ticks), json_long("first_tick", f->first_tick), json_long("last_tick", f->last_tick);
  json_long("agents", f->agents);
  json_long("overlap_max", f->overlap_max), json_long("overlap_max_tick", f->overlap_max_tick);
  printf("  \"overlap_mean\": %.6f,\n", mean);
  json_long("overlap_rest_ticks", rest_ticks(f));
  printf("  \"overlap_rest_mean\": %.6f,\n", rest);
  json_long("overlap_rest_max", rest_max);
  json_long("overlap_final", f->ticks ? f->overlaps[f->ticks - 1] : 0);
  printf("  \"overlap_depth_max\": %.5f,\n", units(f->overlap_depth));
  json_long("overlap_depth_tick", f->overlap_depth ? f->overlap_depth_tick : -1);
  json_long("goal_agents", f->goal_agents), json_long("arrived", f->arrived), json_long("arrived_tick", f->arrived_tick);
  json_long("arrived_behind", f->arrived_behind), json_long("stuck", f->stuck);
  json_long("formation_members", f->formation_members), json_long("in_slot", f->in_slot);
  printf("  \"slot_gap_max\": %.5f,\n", units(f->slot_gap));
  json_long("stuck_agent", f->stuck ? f->stuck_agent : -1);
  json_long("press_longest", f->press_best), json_long("press_agent", f->press_best ? f->press_agent : -1);
  json_long("press_end_tick", f->press_best ? f->press_end : -1), json_long("press_agent_ticks", f->press_agent_ticks);
  json_long("creep_agents", f->creep_agents), json_long("creep_longest", f->creep_best);
  json_long("creep_agent", f->creep_best ? f->creep_agent : -1), json_long("creep_agent_ticks", f->creep_agent_ticks);
  json_long("reversals", f->reversals), json_long("reversal_most", f->reversal_best);
  json_long("reversal_agent", f->reversals ? f->reversal_agent : -1);
  json_long("reversals_rest", rest_reversals(f));
  json_long("slow_reversals", f->rest_reversals);
  json_long("heading_flips", f->heading_flips);
  json_long("heading_flips_rest", f->rest_flips);
  json_long("heading_flicker", f->flicker);
  json_long("wall_crossings", f->crossings);
  printf("  \"corner_percent\": %.3f,\n", corner_percent(f));
  json_long("corner_agent", f->corner_best_of ? f->corner_agent : -1);
  if (f->has_clearance) {
    printf("  \"clearance_min\": %.5f,\n", units(f->clearance));
    json_long("clearance_raw", (long)f->clearance);
    json_long("clearance_tick", f->clearance_tick), json_long("clearance_agent", f->clearance_agent);
    json_string("clearance_kind", f->clearance_kind), json_long("clearance_index", f->clearance_index);
  } else {
    printf("  \"clearance_min\": null,\n");
  }
  json_long("settle_tick", f->settle);
  json_long("first_rest_tick", f->first_rest), json_long("first_rest_agent", f->first_rest >= 0 ? f->first_rest_agent : -1);
  json_long("doorways", (long)f->door_count);
  json_long("doorway_max", f->door_count ? f->door_max : -1), json_long("doorway_max_tick", f->door_count ? f->door_max_tick : -1);
  printf("  \"diverged_tick\": %ld\n}\n", src->diverged ? (long)src->diverged_tick : -1L);
}

int cmd_stats(int argc, char **argv) {
  bool json = cli_take_flag(&argc, argv, "--json");
  options o;
  int done = command_options("stats", argc, argv, 1, &o);
  if (done >= 0) return done;
  if ((o.scenario != 0) == (o.file_count == 1)) return fail_usage("stats", "needs --scenario or one replay FILE", 0);
  source src;
  int opened = source_open(&src, "stats", &o, o.scenario ? -1 : 0);
  if (opened != EXIT_OK) return opened;
  figures f;
  memset(&f, 0, sizeof f);
  int code = measure(&src, &f);
  if (code == EXIT_OK) {
    if (json) print_json(&src, &f);
    else print_table(&src, &f);
    code = source_report_divergence(&src);
  }
  free(f.overlaps);
  free(f.agent_reversals);
  free(f.reversals_so_far);
  source_close(&src);
  return code;
}
