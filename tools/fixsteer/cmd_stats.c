// `fixsteer stats`: figures that say whether a scene looks right, computed from the simulated
// states of a scenario or a replay (stats.h). This file measures every tick: overlapping
// bodies, bounds, creep, rest, reversals, walls, doorways; stats_goals.c judges the arrivals,
// stats_report.c prints.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixsteer/fixsteer.h"
#include "fixsteer/world.h"
#include "cli.h"
#include "commands.h"
#include "source.h"
#include "stats.h"

// Pressed against a bound or touching a wall: within the radius plus a sixteenth of it (half
// a unit at radius 8).
static int64_t press_slack(const fxs_agent *a) { return a->radius / 16; }

// Slow, for a reversal or a heading flip that is flicker rather than a turn: under a
// sixteenth of its radius a tick (half a unit at radius 8) and under a quarter of its top
// speed. Both scale with the unit of length.
static fix16_t rest_speed(const fxs_agent *a) {
  fix16_t by_radius = a->radius / 16, by_speed = a->max_speed / 4;
  return by_radius < by_speed ? by_radius : by_speed;
}

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

// One pair of bodies closer than twice the sum of their radii: the closest approach relative
// to that sum, and when they overlap the deepest overlap, in units and relative to the
// smaller radius, are kept in f. True when they overlap.
static bool measure_pair(figures *f, const fxs_agent *p, const fxs_agent *q, long tick) {
  int64_t dx = (int64_t)p->position.x - q->position.x, dy = (int64_t)p->position.y - q->position.y;
  int64_t reach = (int64_t)p->radius + q->radius;
  wide d2 = wide_add(wide_mul(dx, dx), wide_mul(dy, dy));
  // Beyond 2^64 raw squared the pair is far apart for any radii the world holds.
  if (reach == 0 || d2.hi != 0 || wide_cmp(d2, wide_mul(2 * reach, 2 * reach)) >= 0) return false;
  int64_t d = (int64_t)floor_sqrt(d2.lo);
  if (!f->has_closest ||
      wide_cmp(wide_mul(d, f->closest_reach), wide_mul(f->closest_distance, reach)) < 0) {
    f->has_closest = true;
    f->closest_distance = d, f->closest_reach = reach, f->closest_tick = tick;
  }
  if (wide_cmp(d2, wide_mul(reach, reach)) >= 0) return false;
  int64_t depth = reach - d > 0 ? reach - d : 1;
  if (depth > f->overlap_depth) f->overlap_depth = depth, f->overlap_depth_tick = tick;
  int64_t smaller = p->radius < q->radius ? p->radius : q->radius;
  if (smaller == 0) smaller = 1;
  if (wide_cmp(wide_mul(depth, f->overlap_rel_radius), wide_mul(f->overlap_rel_depth, smaller)) >
      0) {
    f->overlap_rel_depth = depth, f->overlap_rel_radius = smaller, f->overlap_rel_tick = tick;
  }
  return true;
}

// Pairs whose centres are closer than the sum of their radii, by a sweep along x (as far as
// twice the widest reach, for the closest approach).
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
    int64_t reach = 2 * ((int64_t)p->radius + widest);
    for (uint32_t j = i + 1; j < n && (int64_t)refs[j].x - refs[i].x < reach; ++j) {
      pairs += measure_pair(f, p, &w->agents[refs[j].slot].body, (long)w->tick);
    }
  }
  return pairs;
}

// ------------------------------------------------------------------ bounds, creep, rest

static bool pressed(const fxs_world_def *d, const fxs_agent *a) {
  int64_t x = a->position.x, y = a->position.y;
  if (x <= d->bounds_min.x || x >= d->bounds_max.x || y <= d->bounds_min.y || y >= d->bounds_max.y)
    return true;
  if (!d->clamp_to_bounds) return false;
  int64_t near = (int64_t)a->radius + press_slack(a);
  return x - d->bounds_min.x <= near || d->bounds_max.x - x <= near ||
         y - d->bounds_min.y <= near || d->bounds_max.y - y <= near;
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
static void count_crossings(figures *f, const fxs_world *w, fxs_vec2 from, fxs_vec2 to,
                            uint32_t slot, long tick) {
  if (fxs_vec2_equal(from, to)) return;
  for (uint32_t k = 0; k < w->capacity.walls; ++k) {
    if (!w->wall_alive[k] || !crosses(from, to, w->walls[k].a, w->walls[k].b)) continue;
    if (f->crossings++ == 0)
      f->crossing_agent = slot, f->crossing_tick = tick, f->crossing_wall = k;
  }
}

static bool creeping(fxs_vec2 v) {
  return !fxs_vec2_is_zero(v) && v.x >= -1 && v.x <= 1 && v.y >= -1 && v.y <= 1;
}

// Closes an agent's creep run: one of 10+ ticks makes it a creeping agent.
static void end_creep(figures *f, track *t, uint32_t slot, long tick) {
  if (t->creep_run >= CREEP_TICKS && !t->crept) t->crept = true, ++f->creep_agents;
  if (t->creep_run > f->creep_best)
    f->creep_best = t->creep_run, f->creep_agent = slot, f->creep_end = tick;
  t->creep_run = 0;
}

static void track_agent(figures *f, track *t, const fxs_world *w, uint32_t slot, long tick) {
  const fxs_agent_slot *a = &w->agents[slot];
  if (!t->alive || t->generation != a->generation) {
    memset(t, 0, sizeof *t);
    t->alive = true, t->generation = a->generation, t->last_moving = -1, t->appeared = tick;
    t->last_flip = -1, t->arrived_since = -1, t->home_since = -1, t->progress_tick = -1;
  }
  stats_track_goal(f, t, a, tick);
  fxs_vec2 v = a->body.velocity;
  if (pressed(&w->def, &a->body)) {
    ++f->press_agent_ticks;
    if (++t->press_run > f->press_best)
      f->press_best = t->press_run, f->press_agent = slot, f->press_end = tick;
  } else {
    t->press_run = 0;
  }
  if (creeping(v)) {
    ++f->creep_agent_ticks;
    ++t->creep_run;
  } else if (t->creep_run) {
    end_creep(f, t, slot, tick - 1);
  }
  fix16_t rest = rest_speed(&a->body);
  bool slow = t->seen && slower_than(v, rest) && slower_than(t->last_velocity, rest);
  if (dot_sign(v.x, v.y, t->last_velocity.x, t->last_velocity.y) < 0) {
    ++f->reversals;
    if (++f->agent_reversals[slot] > f->reversal_best)
      f->reversal_best = f->agent_reversals[slot], f->reversal_agent = slot;
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

static void clearance_to(figures *f, int64_t gap, long tick, uint32_t slot, const char *kind,
                         uint32_t index) {
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
  for (int i = 0; i < t->count && !t->corner; ++i)
    t->corner = cross_sign(t->dx[i], t->dy[i], dx, dy) != 0;
  if (t->count < 4) t->dx[t->count] = dx, t->dy[t->count] = dy, t->count++;
}

// The bounds an agent is kept in count as walls of the corner.
static void touch_bounds(touching *t, const fxs_world_def *d, const fxs_agent *a) {
  if (!d->clamp_to_bounds) return;
  int64_t near = (int64_t)a->radius + press_slack(a), x = a->position.x, y = a->position.y;
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
    int64_t gap = (int64_t)fxs_vec2_distance(a->position, w->obstacles[o].center) - a->radius -
                  w->obstacles[o].radius;
    clearance_to(f, gap, tick, slot, "obstacle", o);
  }
  for (uint32_t k = 0; k < w->capacity.walls; ++k) {
    if (!w->wall_alive[k]) continue;
    fxs_vec2 q = fxs_vec2_closest_on_segment(a->position, w->walls[k].a, w->walls[k].b);
    int64_t gap = (int64_t)fxs_vec2_distance(a->position, q) - a->radius;
    clearance_to(f, gap, tick, slot, "wall", k);
    if (gap <= press_slack(a))
      touch(&near, (int64_t)w->walls[k].b.x - w->walls[k].a.x,
            (int64_t)w->walls[k].b.y - w->walls[k].a.y);
  }
  if (near.corner) ++f->corner_agent_ticks;
  return near.corner;
}

// ------------------------------------------------------------------ doorways

static bool collinear(fxs_wall p, fxs_vec2 q) {
  return cross_sign((int64_t)p.b.x - p.a.x, (int64_t)p.b.y - p.a.y, (int64_t)q.x - p.a.x,
                    (int64_t)q.y - p.a.y) == 0;
}

// 1 when point q lies beyond end `e` of the segment from `o` to `e` (on the far side of e).
static bool beyond(fxs_vec2 o, fxs_vec2 e, fxs_vec2 q) {
  return dot_sign((int64_t)q.x - e.x, (int64_t)q.y - e.y, (int64_t)e.x - o.x, (int64_t)e.y - o.y) >
         0;
}

// Two collinear walls that do not touch leave a doorway between their nearest ends.
static bool door_between(fxs_wall p, fxs_wall q, door *d) {
  if (fxs_vec2_equal(p.a, p.b) || fxs_vec2_equal(q.a, q.b) || !collinear(p, q.a) ||
      !collinear(p, q.b))
    return false;
  fxs_vec2 pe[2] = {p.a, p.b}, qe[2] = {q.a, q.b};
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 2; ++j) {
      fxs_vec2 po = pe[1 - i], pend = pe[i], qo = qe[1 - j], qend = qe[j];
      // q lies wholly beyond p's end pend, and p wholly beyond q's end qend: a gap between them.
      if (beyond(po, pend, qend) && beyond(po, pend, qo) && beyond(qo, qend, pend) &&
          beyond(qo, qend, po)) {
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
    for (uint32_t j = i + 1; w->wall_alive[i] && j < w->capacity.walls && f->door_count < MAX_DOORS;
         ++j) {
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
    for (uint32_t i = 0; i < w->capacity.agents; ++i)
      n += w->agents[i].alive && in_door(&f->doors[k], &w->agents[i].body);
    if (n > f->door_max) f->door_max = n, f->door_max_tick = tick, f->door_max_index = k;
  }
}

// ------------------------------------------------------------------ the run

static void measure_tick(figures *f, track *tracks, body_ref *refs, const fxs_world *w,
                         long index) {
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
  f->first_rest = -1;
  for (uint32_t i = 0; i < w->capacity.agents; ++i) {
    track *t = &tracks[i];
    if (!t->alive) continue;
    if (t->creep_run) end_creep(f, t, i, f->last_tick);
    if (t->alive_ticks && (f->corner_best_of == 0 ||
                           t->corner_ticks * f->corner_best_of > f->corner_best * t->alive_ticks)) {
      f->corner_best = t->corner_ticks, f->corner_best_of = t->alive_ticks, f->corner_agent = i;
    }
    long rest = t->last_moving < 0 ? t->appeared : t->last_moving + 1;
    if (rest <= f->last_tick && (f->first_rest < 0 || rest < f->first_rest))
      f->first_rest = rest, f->first_rest_agent = i;
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
  stats_judge_paths(f, w);
  if (!stats_judge_goals(f, tracks, w)) {
    free(tracks), free(refs);
    return fprintf(stderr, "fixsteer: %s: out of memory\n", src->name), EXIT_BAD;
  }
  free(tracks);
  free(refs);
  return EXIT_OK;
}

// A distance in units ("20", "0.5"; at most 4 decimals) as raw Q16.16 greater than 0, or -1.
static int64_t parse_distance(const char *t) {
  int64_t whole = 0, frac = 0, scale = 1;
  int digits = 0;
  for (; *t >= '0' && *t <= '9'; ++t, ++digits) {
    whole = whole * 10 + (*t - '0');
    if (whole > 32767) return -1;
  }
  if (*t == '.') {
    for (++t; *t >= '0' && *t <= '9' && scale < 10000; ++t, ++digits) {
      frac = frac * 10 + (*t - '0'), scale *= 10;
    }
  }
  if (*t != '\0' || digits == 0) return -1;
  int64_t raw = whole * 65536 + (frac * 65536 + scale / 2) / scale;
  return raw > 0 ? raw : -1;
}

int cmd_stats(int argc, char **argv) {
  bool json = cli_take_flag(&argc, argv, "--json"), missing;
  const char *home = cli_take_value(&argc, argv, "--home-distance", &missing);
  if (missing) return fail_usage("stats", "missing value for", "--home-distance");
  options o;
  int done = command_options("stats", argc, argv, 1, &o);
  if (done >= 0) return done;
  if ((o.scenario != 0) == (o.file_count == 1))
    return fail_usage("stats", "needs --scenario or one replay FILE", 0);
  figures f;
  memset(&f, 0, sizeof f);
  f.overlap_rel_radius = 1;
  if (home && (f.home_distance = parse_distance(home)) < 0)
    return fail_usage(
        "stats", "--home-distance needs a distance in units greater than 0 (at most 4 decimals)",
        home);
  source src;
  int opened = source_open(&src, "stats", &o, o.scenario ? -1 : 0);
  if (opened != EXIT_OK) return opened;
  int code = measure(&src, &f);
  if (code == EXIT_OK) {
    if (json) stats_print_json(&src, &f);
    else stats_print_table(&src, &f);
    code = source_report_divergence(&src);
  }
  free(f.overlaps);
  free(f.agent_reversals);
  free(f.reversals_so_far);
  source_close(&src);
  return code;
}
