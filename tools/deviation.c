// fxs-deviation: runs each non-random behavior for 1000 ticks twice, once with fixsteer in
// Q16.16 and once with the same formulas in double precision, and prints the largest
// distance between the two positions (and orientations) per behavior.
//
//   make deviation && build/bin/fxs-deviation [ticks]
//
// Desktop only: doubles are used here to measure the library, never inside it.
#include <stdio.h>
#include <stdlib.h>

#include "deviation_model.h"

// ---------------------------------------------------------------- scenarios
typedef enum {
  B_SEEK,
  B_FLEE,
  B_ARRIVE,
  B_PURSUIT,
  B_EVADE,
  B_AVOID,
  B_PATH,
  B_SEPARATION,
  B_ALIGNMENT,
  B_COHESION,
  B_LEADER,
  B_QUEUE,
  B_DYN_ARRIVE,
  B_VEL_MATCH,
  B_ALIGN,
  B_FACE,
  B_LOOK,
  B_KIN_SEEK,
  B_KIN_ARRIVE,
  B_OFFSET,
  B_INTERPOSE,
  B_HIDE,
  B_FLOW,
  B_UNALIGNED,
  B_QUERY,
  B_FLOW_AHEAD,
  B_COUNT
} scenario;
static const char *const names[B_COUNT] = {"seek",
                                           "flee",
                                           "arrive",
                                           "pursuit",
                                           "evade",
                                           "obstacle_avoidance",
                                           "path_following",
                                           "separation",
                                           "alignment",
                                           "cohesion",
                                           "leader_following",
                                           "queue",
                                           "dynamic_arrive",
                                           "velocity_match",
                                           "align",
                                           "face",
                                           "look_where_going",
                                           "kinematic_seek",
                                           "kinematic_arrive",
                                           "offset_pursuit",
                                           "interpose",
                                           "hide",
                                           "flow_field",
                                           "unaligned_avoidance",
                                           "neighbor_query",
                                           "flow_field look 4"};

static const fxs_vec2 path_nodes[4] = {{FXS_INT(100), FXS_INT(100)},
                                       {FXS_INT(900), FXS_INT(150)},
                                       {FXS_INT(850), FXS_INT(800)},
                                       {FXS_INT(120), FXS_INT(700)}};
static const fxs_obstacle obstacles[3] = {{{FXS_INT(400), FXS_INT(380)}, FXS_INT(40)},
                                          {{FXS_INT(620), FXS_INT(520)}, FXS_INT(50)},
                                          {{FXS_INT(820), FXS_INT(760)}, FXS_INT(35)}};

typedef struct pair {
  fxs_agent f[N];
  dagent g[N];
  fxs_path_state fp[N];
  int gp_node[N], gp_dir[N];
  fxs_vec2 goal[N]; // unaligned avoidance: each agent walks to another's start
} pair;

static fxs_vec2 goal_of(void) { return fxs_vec2_make(FXS_INT(1000), FXS_INT(900)); }

// The "mouse": a point circling (800, 700) at radius 500 and 5 units per tick, faster than
// any agent (max speed 4), so seeking or pursuing it never passes through it. Computed once
// per tick in fixed point and given to both sides, it is the same input for both.
static fxs_agent mouse_at(int tick) {
  fxs_agent m = fxs_default_agent();
  fix16_t angle = fxs_angle_wrap((fix16_t)(tick * FXS_RATIO(1, 100)));
  fxs_vec2 center = fxs_vec2_make(FXS_INT(800), FXS_INT(700));
  m.position = fxs_vec2_add(center, fxs_vec2_scale(fxs_vec2_from_angle(angle), FXS_INT(500)));
  m.velocity = fxs_vec2_scale(fxs_vec2_from_angle(fxs_add(angle, FXS_HALF_PI)), FXS_INT(5));
  return m;
}
static fxs_agent mouse;
static dagent dmouse;

static dv d_query_flock(const dagent *a, int self, const dagent *all) {
  fxs_neighbor_query_def q = fxs_default_neighbor_query_def();
  int chosen[N], m = d_query(a, self, all, &q, chosen);
  dv f = d_seek(a, dmouse.p), c = {0, 0};
  dagent picked[N];
  for (int j = 0; j < m; ++j) picked[j] = all[chosen[j]];
  dagent me = *a;
  picked[m] = me; // d_separation skips index `m`, the agent itself
  f = add(f, scale(d_separation_of(&picked[m], m, picked, m + 1, 40), 4));
  for (int j = 0; j < m; ++j) c = add(c, all[chosen[j]].p);
  if (m) f = add(f, d_seek(a, scale(c, 1.0 / m)));
  return f;
}

// Followers' slots in the leader's frame (agent 0 leads).
static const int offsets[N][2] = {{0, 0}, {-30, 25}, {-30, -25}, {-60, 0}};
static fxs_offset_pursuit_def offset_def(int i) {
  fxs_offset_pursuit_def def = fxs_default_offset_pursuit_def();
  def.offset_forward = FXS_INT(offsets[i][0]);
  def.offset_side = FXS_INT(offsets[i][1]);
  return def;
}
// A vortex round (500, 450) over a 1000 x 1000 grid of 25-unit cells, both sides alike.
static fxs_vec2 flow_cells[FLOW_W * FLOW_H];
static fxs_flow_field flow;
static void build_flow(void) {
  fxs_vec2 center = fxs_vec2_make(FXS_INT(500), FXS_INT(450));
  fxs_flow_field_init(&flow, flow_cells, FLOW_W * FLOW_H, FLOW_W, FLOW_H, fxs_vec2_zero(),
                      FXS_INT(25));
  fxs_flow_field_fill_vortex(&flow, center, FXS_ONE, FXS_RATIO(1, 64));
  for (int cy = 0; cy < FLOW_H; ++cy) {
    for (int cx = 0; cx < FLOW_W; ++cx) {
      dv c = {(cx + 0.5) * FLOW_CELL, (cy + 0.5) * FLOW_CELL};
      d_flow_cells[cy * FLOW_W + cx] = d_flow_vortex(c, dvec(center));
    }
  }
}
// The query flock in fixed point: separation (40, x4) and cohesion over the chosen neighbors.
static fxs_vec2 query_flock(const fxs_agent *a, int i, const fxs_neighbor *view) {
  fxs_neighbor_query_def q = fxs_default_neighbor_query_def();
  uint32_t idx[FXS_NEIGHBORS_MAX_K];
  fxs_neighbor chosen[FXS_NEIGHBORS_MAX_K];
  uint32_t m = fxs_query_neighbors(a, (uint32_t)i, view, N, &q, idx);
  for (uint32_t j = 0; j < m; ++j) chosen[j] = view[idx[j]];
  fxs_vec2 f = fxs_seek(a, mouse.position);
  f = fxs_vec2_add(
      f, fxs_vec2_scale(fxs_separation(a, (uint32_t)i, chosen, m, FXS_INT(40)), FXS_INT(4)));
  return fxs_vec2_add(f, fxs_cohesion(a, (uint32_t)i, chosen, m, q.radius));
}

// The queue's body lookup: ids are indices into an array of agents.
static const fxs_agent *body_in(uint32_t id, const void *agents) {
  return &((const fxs_agent *)agents)[id];
}

// One fixed-point tick of scenario s for agent i (reading `now`, writing `next`).
static void fixed_step(scenario s, pair *w, const fxs_agent *now, int i, fxs_agent *next) {
  fxs_vec2 goal = goal_of(), f = fxs_vec2_zero();
  fix16_t angular = 0, vscale = FXS_ONE;
  const fxs_agent *a = &now[i];
  fxs_neighbor view[N];
  for (int k = 0; k < N; ++k) view[k] = fxs_neighbor_of(&now[k], (uint32_t)k);
  fxs_avoidance_def adef = fxs_default_avoidance_def();
  fxs_path_def pdef = fxs_default_path_def(path_nodes, 4, FXS_PATH_PATROL);
  fxs_leader_def ldef = fxs_default_leader_def();
  fxs_queue_def qdef = fxs_default_queue_def();
  fxs_align_def al = fxs_default_align_def();
  fxs_dynamic_arrive_def dd = fxs_default_dynamic_arrive_def();
  switch (s) {
    case B_SEEK:
      f = fxs_seek(a, mouse.position);
      break;
    case B_FLEE:
      f = fxs_flee(a, mouse.position, FXS_INT(600));
      break;
    case B_ARRIVE:
      f = fxs_arrive(a, goal, FXS_INT(200));
      break;
    case B_PURSUIT:
      f = fxs_pursuit(a, &mouse, FXS_INT(20));
      break;
    case B_EVADE:
      f = fxs_evade(a, &mouse, FXS_INT(50), FXS_INT(400));
      break;
    case B_AVOID:
      f = fxs_vec2_add(fxs_avoid_obstacles(a, obstacles, 3, &adef),
                       fxs_arrive(a, goal, FXS_INT(200)));
      break;
    case B_PATH:
      f = fxs_follow_path(a, &pdef, &w->fp[i]);
      break;
    case B_SEPARATION:
      f = fxs_vec2_add(
          fxs_vec2_scale(fxs_separation(a, (uint32_t)i, view, N, FXS_INT(80)), FXS_INT(4)),
          fxs_arrive(a, goal, FXS_INT(200)));
      break;
    case B_ALIGNMENT:
      f = fxs_alignment(a, (uint32_t)i, view, N, FXS_INT(2000));
      break;
    case B_COHESION:
      f = fxs_vec2_add(fxs_cohesion(a, (uint32_t)i, view, N, FXS_INT(2000)),
                       fxs_seek(a, mouse.position));
      f = fxs_vec2_add(
          f, fxs_vec2_scale(fxs_separation(a, (uint32_t)i, view, N, FXS_INT(80)), FXS_INT(4)));
      break;
    case B_LEADER:
      f = i ? fxs_follow_leader(a, (uint32_t)i, &now[0], view, N, &ldef)
            : fxs_arrive(a, goal, FXS_INT(200));
      break;
    case B_QUEUE:
      f = fxs_arrive(a, goal, FXS_INT(100));
      f = fxs_vec2_add(f, fxs_queue(a, (uint32_t)i, f, view, N, body_in, now, &qdef, &vscale));
      break;
    case B_DYN_ARRIVE:
      f = fxs_dynamic_arrive(a, goal, &dd);
      break;
    case B_VEL_MATCH:
      f = fxs_velocity_match(a, now[(i + 1) % N].velocity, FXS_INT(4), FXS_RATIO(1, 4));
      break;
    case B_ALIGN:
      angular = fxs_align(a, FXS_INT(2), &al);
      f = fxs_arrive(a, goal, FXS_INT(200));
      break;
    case B_FACE:
      angular = fxs_face(a, mouse.position, &al);
      f = fxs_arrive(a, goal, FXS_INT(200));
      break;
    case B_LOOK:
      angular = fxs_look_where_going(a, &al);
      f = fxs_arrive(a, goal, FXS_INT(200));
      break;
    case B_OFFSET: {
      fxs_offset_pursuit_def od = offset_def(i);
      f = i ? fxs_offset_pursuit(a, &now[0], &od) : fxs_arrive(a, goal, FXS_INT(200));
      break;
    }
    case B_INTERPOSE: {
      fxs_interpose_def id = fxs_default_interpose_def();
      f = fxs_interpose(a, &mouse, &now[(i + 1) % N], &id);
      break;
    }
    case B_HIDE: {
      fxs_hide_def hd = fxs_default_hide_def();
      f = fxs_hide(a, &mouse, obstacles, 3, &hd);
      break;
    }
    case B_FLOW:
    case B_FLOW_AHEAD: { // the world's flow_field slot: look_ahead 0 (default) and 4 ticks
      fxs_flow_field_def fd = fxs_default_flow_field_def();
      fd.look_ahead = s == B_FLOW_AHEAD ? FXS_INT(4) : 0;
      f = fxs_follow_flow_field(a, &flow, &fd);
      break;
    }
    case B_UNALIGNED: {
      fxs_unaligned_avoidance_def ud = fxs_default_unaligned_avoidance_def();
      f = fxs_vec2_add(fxs_unaligned_avoidance(a, (uint32_t)i, view, N, &ud),
                       fxs_arrive(a, w->goal[i], FXS_INT(100)));
      break;
    }
    case B_QUERY:
      f = query_flock(a, i, view);
      break;
    case B_KIN_SEEK:
      fxs_kinematic_apply(next, fxs_kinematic_seek(a, goal));
      return;
    case B_KIN_ARRIVE:
      fxs_kinematic_apply(next, fxs_kinematic_arrive(a, goal, FXS_INT(2), FXS_INT(8)));
      return;
    default:
      break;
  }
  fxs_steering st = fxs_steering_linear(f);
  st.angular = angular;
  fxs_agent_integrate(next, st, fxs_vec2_zero(), vscale);
}

static void d_path(pair *w, int i, const dagent *a, dv *target) {
  int *node = &w->gp_node[i], *dir = &w->gp_dir[i];
  if (within(a->p, dvec(path_nodes[*node]), 10)) {
    int next = *node + *dir;
    if (next < 0 || next > 3) *dir = -*dir, next = *node + *dir;
    *node = next;
  }
  *target = dvec(path_nodes[*node]);
}

// The same tick in double precision.
static void double_step(scenario s, pair *w, const dagent *now, int i, dagent *next) {
  dv goal = dvec(goal_of()), f = {0, 0};
  double angular = 0, vscale = 1;
  const dagent *a = &now[i];
  fxs_align_def al = fxs_default_align_def();
  fxs_leader_def ldef = fxs_default_leader_def();
  fxs_queue_def qdef = fxs_default_queue_def();
  fxs_dynamic_arrive_def dd = fxs_default_dynamic_arrive_def();
  int n;
  switch (s) {
    case B_SEEK:
      f = d_seek(a, dmouse.p);
      break;
    case B_FLEE:
      f = d_flee(a, dmouse.p, 600);
      break;
    case B_ARRIVE:
      f = d_arrive(a, goal, 200);
      break;
    case B_PURSUIT:
      f = d_seek(a, d_future(a, &dmouse, 20));
      break;
    case B_EVADE:
      f = d_flee(a, d_future(a, &dmouse, 50), 400);
      break;
    case B_AVOID:
      f = add(d_avoid(a, obstacles, 3, 60, 1), d_arrive(a, goal, 200));
      break;
    case B_PATH: {
      dv t;
      d_path(w, i, a, &t);
      f = d_seek(a, t);
      break;
    }
    case B_SEPARATION:
      f = add(scale(d_separation(a, i, now, 80), 4), d_arrive(a, goal, 200));
      break;
    case B_ALIGNMENT: {
      dv avg = d_average(a, i, now, 2000, 1, &n);
      f = n ? sub(avg, a->v) : f;
      break;
    }
    case B_COHESION: {
      dv c = d_average(a, i, now, 2000, 0, &n);
      f = add(n ? d_seek(a, c) : f, d_seek(a, dmouse.p));
      f = add(f, scale(d_separation(a, i, now, 80), 4));
      break;
    }
    case B_LEADER: {
      if (!i) {
        f = d_arrive(a, goal, 200);
        break;
      }
      const dagent *l = &now[0];
      dv dir = is_zero(l->v) ? (dv){cos(l->o), sin(l->o)} : l->v;
      dv tv = set_len(dir, d(ldef.leader_behind_dist));
      dv ahead = add(l->p, tv), behind = sub(l->p, tv);
      f = d_arrive(a, behind, d(ldef.slowing_radius));
      if (within(ahead, a->p, d(ldef.leader_sight_radius)) ||
          within(l->p, a->p, d(ldef.leader_sight_radius))) {
        f = add(f, d_flee(a, d_future(a, l, d(ldef.max_prediction)), 0));
      }
      f = add(f,
              scale(d_separation(a, i, now, d(ldef.separation_radius)), d(ldef.separation_weight)));
      break;
    }
    case B_QUEUE: {
      f = d_arrive(a, goal, 100);
      if (d_queue_held(now, i)) {
        f = (dv){0, 0};
        vscale = 0;
        break;
      }
      dv forward = set_len(d_heading(a), d(qdef.max_queue_ahead));
      dv ahead = add(a->p, forward);
      int hit = -1;
      for (int k = 0; k < N && hit < 0; ++k) {
        if (k == i || dot(sub(now[k].p, a->p), forward) <= 0) continue;
        if (within(ahead, now[k].p, d(qdef.max_queue_radius))) hit = k;
      }
      if (hit >= 0) {
        dv brake = add(scale(f, -0.8), scale(a->v, -1));
        brake = add(brake, d_separation(a, i, now, d(qdef.separation_radius)));
        if (within(a->p, now[hit].p, d(qdef.max_queue_radius))) vscale = 0.3;
        f = add(f, brake);
      }
      break;
    }
    case B_DYN_ARRIVE: {
      dv dir = sub(goal, a->p);
      double dist = len(dir), ts = a->max_speed;
      if (dist < d(dd.target_radius)) ts = 0;
      else if (dist <= d(dd.slow_radius)) ts = a->max_speed * dist / d(dd.slow_radius);
      f = d_velocity_match(a, set_len(dir, ts), d(dd.time_to_target), d(dd.max_acceleration));
      break;
    }
    case B_VEL_MATCH:
      f = d_velocity_match(a, now[(i + 1) % N].v, 4, 0.25);
      break;
    case B_ALIGN:
      angular = d_align(a, 2, &al);
      f = d_arrive(a, goal, 200);
      break;
    case B_FACE: {
      dv dir = sub(dmouse.p, a->p);
      angular = is_zero(dir) ? 0 : d_align(a, atan2(dir.y, dir.x), &al);
      f = d_arrive(a, goal, 200);
      break;
    }
    case B_LOOK:
      angular = is_zero(a->v) ? 0 : d_align(a, atan2(a->v.y, a->v.x), &al);
      f = d_arrive(a, goal, 200);
      break;
    case B_OFFSET: {
      fxs_offset_pursuit_def od = offset_def(i);
      f = i ? d_offset_pursuit(a, &now[0], &od) : d_arrive(a, goal, 200);
      break;
    }
    case B_INTERPOSE: {
      fxs_interpose_def id = fxs_default_interpose_def();
      f = d_interpose(a, &dmouse, &now[(i + 1) % N], &id);
      break;
    }
    case B_HIDE: {
      fxs_hide_def hd = fxs_default_hide_def();
      f = d_hide(a, &dmouse, obstacles, 3, &hd);
      break;
    }
    case B_FLOW:
      f = d_follow_flow(a, 0);
      break;
    case B_FLOW_AHEAD:
      f = d_follow_flow(a, 4);
      break;
    case B_UNALIGNED: {
      fxs_unaligned_avoidance_def ud = fxs_default_unaligned_avoidance_def();
      f = add(d_unaligned(a, i, now, &ud), d_arrive(a, dvec(w->goal[i]), 100));
      break;
    }
    case B_QUERY:
      f = d_query_flock(a, i, now);
      break;
    case B_KIN_SEEK:
    case B_KIN_ARRIVE: {
      dv v = sub(goal, a->p);
      if (s == B_KIN_ARRIVE)
        v = within(a->p, goal, 2) ? (dv){0, 0} : trunc_to(scale(v, 1.0 / 8), a->max_speed);
      else v = set_len(v, a->max_speed);
      double o = is_zero(v) ? a->o : atan2(v.y, v.x);
      next->v = trunc_to(v, a->max_speed);
      next->p = add(a->p, next->v);
      next->r = wrap(o - a->o);
      next->o = wrap(a->o + next->r);
      return;
    }
    default:
      break;
  }
  d_integrate(next, f, angular, vscale);
}

static void setup(pair *w, scenario s) {
  for (int i = 0; i < N; ++i) {
    fxs_agent a = fxs_default_agent();
    a.position = fxs_vec2_make(FXS_INT(60 + 90 * i), FXS_INT(40 + 37 * ((i * 7 + (int)s) % 5)));
    a.velocity = fxs_vec2_make(FXS_RATIO(i + 1, 3), -FXS_RATIO(i, 4));
    a.orientation = FXS_RATIO(i, 3);
    a.orientation_mode = (s == B_ALIGN || s == B_FACE || s == B_LOOK) ? FXS_ORIENT_STEERED
                                                                      : FXS_ORIENT_LOOK_WHERE_GOING;
    a.max_turn_rate = FXS_RATIO(1, 8);
    if (s == B_DYN_ARRIVE) a.max_force = FXS_RATIO(1, 4);
    w->f[i] = a;
    w->g[i] = dagent_of(&a);
    w->fp[i] = fxs_path_start();
    w->gp_node[i] = 0;
    w->gp_dir[i] = 1;
  }
  for (int i = 0; i < N; ++i) w->goal[i] = w->f[N - 1 - i].position;
}

static double angle_gap(double a, double b) { return fabs(wrap(a - b)); }

int main(int argc, char **argv) {
  int ticks = argc > 1 ? atoi(argv[1]) : 1000;
  if (ticks <= 0) {
    fprintf(stderr, "usage: fxs-deviation [ticks > 0]\n");
    return 2;
  }
  build_flow();
  printf("%-20s %14s %16s %12s\n", "behavior", "max |dpos|", "max |dorient|", "tick > 0.01");
  int over = 0;
  for (int s = 0; s < B_COUNT; ++s) {
    pair w;
    setup(&w, (scenario)s);
    double worst = 0, worst_o = 0;
    int first_over = -1;
    for (int t = 0; t < ticks; ++t) {
      mouse = mouse_at(t);
      dmouse = dagent_of(&mouse);
      fxs_agent fnow[N], fnext[N];
      dagent gnow[N], gnext[N];
      for (int i = 0; i < N; ++i) fnow[i] = fnext[i] = w.f[i], gnow[i] = gnext[i] = w.g[i];
      for (int i = 0; i < N; ++i) {
        fixed_step((scenario)s, &w, fnow, i, &fnext[i]);
        double_step((scenario)s, &w, gnow, i, &gnext[i]);
      }
      for (int i = 0; i < N; ++i) {
        w.f[i] = fnext[i];
        w.g[i] = gnext[i];
        worst = fmax(worst, len(sub(dvec(w.f[i].position), w.g[i].p)));
        if (worst > 0.01 && first_over < 0) first_over = t;
        worst_o = fmax(worst_o, angle_gap(d(w.f[i].orientation), w.g[i].o));
      }
    }
    over += worst > 0.01;
    if (first_over >= 0) {
      printf("%-20s %14.6f %16.6f %12d\n", names[s], worst, worst_o, first_over);
    } else {
      printf("%-20s %14.6f %16.6f %12s\n", names[s], worst, worst_o, "-");
    }
  }
  printf("%d of %d behaviors within 0.01 world units over %d ticks\n", B_COUNT - over, B_COUNT,
         ticks);
  return 0;
}
