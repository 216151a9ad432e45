#include "scenario.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixsteer/manager.h"
#include "scenario_emit.h"

// ------------------------------------------------------------------ hunter and prey
// Seed 000's demo: a hunter picks the closest prey and pursues it while it has stamina, then
// wanders until rested; prey evade a hunter in range, else seek the mouse when it is near,
// else wander.
enum { HUNTERS = 4, PREY = 12, MAX_STAMINA = 300 };
enum { HUNT, REST, P_WANDER, P_EVADE, P_SEEK };

static int32_t closest(const fxs_world *w, fxs_vec2 at, uint32_t first, uint32_t count,
                       fix16_t range) {
  int32_t best = -1;
  fix16_t best_d = FXS_MAX;
  for (uint32_t i = first; i < first + count; ++i) {
    fix16_t d = fxs_vec2_distance(at, w->agents[i].body.position);
    if (d <= range && d < best_d) best = (int32_t)i, best_d = d;
  }
  return best;
}

// Every behavior set of the scene starts with separation: hunters and prey keep their bodies
// apart whatever else they do (the separation push grows as they close in).
static void keep_apart(emitter *e, uint32_t h) {
  clear(e, SRC_GAME, h, FXS_COMBINE_WEIGHTED_SUM);
  behave(e, SRC_GAME, h, FXS_BEHAVIOR_SEPARATION, FXS_INT(2), 0, FXS_INT(30));
}

// Seed 000's Hunter.update(): a hunter that has a prey and is not resting pursues that
// same prey, losing 2 stamina a tick, until it is exhausted (then it drops the prey and
// rests); otherwise it wanders and picks the closest prey in range for later.
static void hunter_logic(const fxs_world *w, scenario_state *s, emitter *e, uint32_t i) {
  const fxs_agent *me = &w->agents[i].body;
  if (s->mode[i] == REST && s->stamina[i]++ >= MAX_STAMINA) s->mode[i] = HUNT;
  uint32_t want = 0;
  if (s->prey[i] != 0 && s->mode[i] == HUNT) {
    want = s->prey[i];
    s->stamina[i] -= 2;
    if (s->stamina[i] <= 0) s->prey[i] = 0, s->mode[i] = REST, want = 0;
  } else {
    int32_t prey = closest(w, me->position, HUNTERS, PREY, FXS_INT(400));
    s->prey[i] = prey >= 0 ? handle_of((uint32_t)prey) : 0;
  }
  if (want == s->target[i]) return;
  s->target[i] = want;
  keep_apart(e, handle_of(i));
  if (want) {
    target_agent(e, SRC_GAME, handle_of(i), want);
    behave(e, SRC_GAME, handle_of(i), FXS_BEHAVIOR_PURSUIT, FXS_ONE, 0, 0);
  } else {
    behave(e, SRC_GAME, handle_of(i), FXS_BEHAVIOR_WANDER, FXS_ONE, 0, 0);
  }
}

static void prey_logic(const fxs_world *w, scenario_state *s, emitter *e, uint32_t i,
                       fxs_vec2 mouse) {
  const fxs_agent *me = &w->agents[i].body;
  int32_t hunter = closest(w, me->position, 0, HUNTERS, FXS_INT(150));
  uint8_t mode = hunter >= 0
                     ? P_EVADE
                     : (fxs_vec2_within(me->position, mouse, FXS_INT(300)) ? P_SEEK : P_WANDER);
  uint32_t h = handle_of(i);
  if (mode == P_SEEK && w->tick % 5 == 0) target_point(e, SRC_GAME, h, mouse);
  uint32_t target = hunter >= 0 ? handle_of((uint32_t)hunter) : 0;
  if (mode == s->mode[i] && target == s->target[i]) return;
  s->mode[i] = mode;
  s->target[i] = target;
  keep_apart(e, h);
  target_agent(e, SRC_GAME, h, target);
  if (mode == P_EVADE) behave(e, SRC_GAME, h, FXS_BEHAVIOR_EVADE, FXS_ONE, 0, 0);
  if (mode == P_SEEK) {
    target_point(e, SRC_GAME, h, mouse);
    behave(e, SRC_GAME, h, FXS_BEHAVIOR_ARRIVE, FXS_ONE, 0, FXS_INT(30));
  }
  if (mode == P_WANDER) behave(e, SRC_GAME, h, FXS_BEHAVIOR_WANDER, FXS_ONE, 0, 0);
}

static uint32_t hunter_prey(const scenario *self, const fxs_world *w, scenario_state *s,
                            fxs_command *out) {
  (void)self;
  emitter e = {out, 0, {0, 0, 0}};
  if (w->tick == 0) {
    for (int i = 0; i < HUNTERS; ++i) {
      spawn(&e, 200 + 400 * i, 150 + 300 * (i % 2), FXS_RATIO(7, 2), FXS_RATIO(1, 5));
      s->mode[i] = REST, s->stamina[i] = MAX_STAMINA - 40 * i;
    }
    for (int i = 0; i < PREY; ++i) {
      spawn(&e, 150 + 120 * i, 500 + 90 * (i % 5), FXS_INT(3), FXS_RATIO(1, 4));
      s->mode[HUNTERS + i] = 255;
    }
    return e.n;
  }
  fxs_vec2 mouse = mouse_at(w->tick, 800, 600, 600, 450);
  for (uint32_t i = 0; i < HUNTERS; ++i) hunter_logic(w, s, &e, i);
  for (uint32_t i = HUNTERS; i < HUNTERS + PREY; ++i) prey_logic(w, s, &e, i, mouse);
  return e.n;
}

// ------------------------------------------------------------------ patrol (seed 004)
static const fxs_vec2 patrol_nodes[6] = {
    {FXS_INT(200), FXS_INT(200)},  {FXS_INT(700), FXS_INT(180)},  {FXS_INT(1100), FXS_INT(420)},
    {FXS_INT(1300), FXS_INT(900)}, {FXS_INT(700), FXS_INT(1000)}, {FXS_INT(300), FXS_INT(700)}};

static void patrol_paths(const scenario *self, fxs_world *world) {
  (void)self;
  fxs_world_add_path(world, patrol_nodes, 6, FXS_PATH_PATROL, FXS_INT(20), 0);
  fxs_world_add_path(world, patrol_nodes, 6, FXS_PATH_LOOP, FXS_INT(30), 0);
  fxs_world_add_path(world, patrol_nodes, 6, FXS_PATH_STOP_AT_END, FXS_INT(15), 0);
}

static uint32_t patrol(const scenario *self, const fxs_world *w, scenario_state *s,
                       fxs_command *out) {
  (void)self;
  (void)s;
  emitter e = {out, 0, {0, 0, 0}};
  if (w->tick != 0) return 0;
  for (uint32_t i = 0; i < 5; ++i) {
    spawn(&e, 100 + 60 * (int)i, 100 + 40 * (int)i, FXS_INT(3), FXS_RATIO(1, 5));
    behave(&e, SRC_SETUP, handle_of(i), FXS_BEHAVIOR_PATH, FXS_ONE, 0, 0);
    use_path(&e, handle_of(i), (uint16_t)(i < 3 ? 0 : i - 2)); // three patrol, one loop, one stop
  }
  return e.n;
}

// ------------------------------------------------------------------ flock
static uint32_t flock(const scenario *self, const fxs_world *w, scenario_state *s,
                      fxs_command *out) {
  (void)self;
  (void)s;
  emitter e = {out, 0, {0, 0, 0}};
  if (w->tick == 0) {
    for (uint32_t i = 0; i < 24; ++i) {
      spawn(&e, 500 + 37 * (int)(i % 6), 400 + 41 * (int)(i / 6), FXS_INT(3), FXS_RATIO(1, 6));
      uint32_t h = handle_of(i);
      behave(&e, SRC_SETUP, h, FXS_BEHAVIOR_SEPARATION, FXS_INT(4), 0, FXS_INT(30));
      behave(&e, SRC_SETUP, h, FXS_BEHAVIOR_ALIGNMENT, FXS_ONE, 0, 0);
      behave(&e, SRC_SETUP, h, FXS_BEHAVIOR_COHESION, FXS_RATIO(1, 2), 0, 0);
      behave(&e, SRC_SETUP, h, FXS_BEHAVIOR_WANDER, FXS_RATIO(1, 4), 0, 0);
      behave(&e, SRC_SETUP, h, FXS_BEHAVIOR_ARRIVE, FXS_RATIO(1, 8), 0, FXS_INT(400));
      target_point(&e, SRC_SETUP, h, fxs_vec2_make(FXS_INT(800), FXS_INT(600)));
    }
  }
  return e.n;
}

// ------------------------------------------------------------------ queue through a doorway
// The agents follow a route through the door: aiming straight at a goal behind a wall
// would hold them against it, a local minimum no local steering can leave.
static const fxs_vec2 door_route[2] = {{FXS_INT(860), FXS_INT(600)}, {FXS_INT(1300), FXS_INT(600)}};

static void door_path(const scenario *self, fxs_world *world) {
  (void)self;
  fxs_world_add_path(world, door_route, 2, FXS_PATH_STOP_AT_END, FXS_INT(4), 0);
}

static uint32_t queue(const scenario *self, const fxs_world *w, scenario_state *s,
                      fxs_command *out) {
  (void)self;
  (void)s;
  emitter e = {out, 0, {0, 0, 0}};
  if (w->tick != 0) return 0;
  add_wall(&e, 900, 200, 900, 560); // two walls with an 80-unit doorway at y = 600
  add_wall(&e, 900, 640, 900, 1000);
  for (uint32_t i = 0; i < 16; ++i) {
    spawn(&e, 300 + 45 * (int)(i % 4), 450 + 90 * (int)(i / 4), FXS_INT(2), FXS_RATIO(1, 5));
    uint32_t h = handle_of(i);
    clear(&e, SRC_SETUP, h, FXS_COMBINE_PRIORITIZED_SUM);
    behave(&e, SRC_SETUP, h, FXS_BEHAVIOR_AVOID, FXS_ONE, 0, 0);
    behave(&e, SRC_SETUP, h, FXS_BEHAVIOR_PATH, FXS_ONE, 1, 0);
    behave(&e, SRC_SETUP, h, FXS_BEHAVIOR_SEPARATION, FXS_INT(2), 1, FXS_INT(18));
    behave(&e, SRC_SETUP, h, FXS_BEHAVIOR_QUEUE, FXS_ONE, 2, 0);
    use_path(&e, h, 0);
  }
  return e.n;
}

// ------------------------------------------------------------------ leader following
static uint32_t leader(const scenario *self, const fxs_world *w, scenario_state *s,
                       fxs_command *out) {
  (void)self;
  (void)s;
  emitter e = {out, 0, {0, 0, 0}};
  if (w->tick != 0) return 0;
  spawn(&e, 200, 200, FXS_INT(2), FXS_RATIO(1, 5));
  behave(&e, SRC_SETUP, handle_of(0), FXS_BEHAVIOR_PATH, FXS_ONE, 0, 0);
  use_path(&e, handle_of(0), 1); // the loop
  for (uint32_t i = 1; i <= 8; ++i) {
    spawn(&e, 100 + 50 * (int)i, 400 + 30 * (int)(i % 3), FXS_INT(3), FXS_RATIO(1, 4));
    target_agent(&e, SRC_SETUP, handle_of(i), handle_of(0));
    behave(&e, SRC_SETUP, handle_of(i), FXS_BEHAVIOR_LEADER, FXS_ONE, 0, 0);
  }
  return e.n;
}

// ------------------------------------------------------------------ obstacle field
static uint32_t obstacle_field(const scenario *self, const fxs_world *w, scenario_state *s,
                               fxs_command *out) {
  (void)self;
  emitter e = {out, 0, {0, 0, 0}};
  if (w->tick == 0) {
    for (int gx = 0; gx < 6; ++gx) {
      for (int gy = 0; gy < 5; ++gy) {
        obstacle(&e, 420 + 140 * gx + 30 * (gy % 2), 200 + 190 * gy + 17 * (gx % 3),
                 28 + 6 * ((gx + gy) % 3));
      }
    }
    for (uint32_t i = 0; i < 6; ++i) {
      spawn(&e, 120, 150 + 180 * (int)i, FXS_INT(3), FXS_RATIO(1, 2));
      uint32_t h = handle_of(i);
      clear(&e, SRC_SETUP, h, FXS_COMBINE_PRIORITIZED_SUM);
      behave(&e, SRC_SETUP, h, FXS_BEHAVIOR_AVOID, FXS_ONE, 0, FXS_INT(80));
      behave(&e, SRC_SETUP, h, FXS_BEHAVIOR_ARRIVE, FXS_ONE, 1, FXS_INT(80));
      target_point(&e, SRC_SETUP, h, fxs_vec2_make(FXS_INT(1480), FXS_INT(1050 - 180 * (int)i)));
      s->mode[i] = 0;
    }
    return e.n;
  }
  for (uint32_t i = 0; i < 6; ++i) { // on arrival, cross back to the other side
    const fxs_agent_slot *a = &w->agents[i];
    if (fxs_vec2_within(a->body.position, a->target_point, FXS_INT(12))) {
      s->mode[i] ^= 1;
      int x = s->mode[i] ? 120 : 1480;
      target_point(&e, SRC_GAME, handle_of(i),
                   fxs_vec2_make(FXS_INT(x), FXS_INT(150 + 180 * (int)i)));
    }
  }
  return e.n;
}

// ------------------------------------------------------------------ dense obstacle field
// 48 obstacles (radius 14 to 32) on a jittered 8 x 6 grid whose rows are shifted by half a
// column, 27 units apart at the narrowest: wider than a body (16), narrower than the capsule
// of the default avoidance at top speed (2 x (8 + 2 x 4) = 32). 20 agents cross it in four
// directions (left-right, right-left, top-bottom, diagonals) at max speeds 2, 3 and 4 and
// max forces 1/4 to 1/2, with default avoidance and separation; each turns back on arrival.
enum { DENSE_AGENTS = 20 };

static uint32_t dense_hash(uint32_t v) { // a fixed integer mix: the layout is part of the scene
  v ^= v >> 16, v *= 0x7feb352du, v ^= v >> 15, v *= 0x846ca68bu, v ^= v >> 16;
  return v;
}

// The two ends of agent i's crossing, in whole units: {x0, y0, x1, y1}.
static void dense_route(uint32_t i, int end[4]) {
  int k = (int)(i % 5);
  switch (i / 5) {
    case 0:
      end[0] = 120, end[1] = 330 + 120 * k, end[2] = 1480, end[3] = 830 - 120 * k;
      break;
    case 1:
      end[0] = 1480, end[1] = 360 + 110 * k, end[2] = 120, end[3] = 380 + 100 * k;
      break;
    case 2:
      end[0] = 450 + 170 * k, end[1] = 80, end[2] = 1150 - 170 * k, end[3] = 1120;
      break;
    default:
      end[0] = k < 3 ? 120 : 1480, end[1] = 80 + 500 * (k % 3);
      end[2] = k < 3 ? 1480 : 120, end[3] = 1120 - 480 * (k % 3);
      break;
  }
}

static fxs_vec2 dense_end(uint32_t i, int which) {
  int end[4];
  dense_route(i, end);
  return fxs_vec2_make(FXS_INT(end[2 * which]), FXS_INT(end[2 * which + 1]));
}

static void dense_setup(emitter *e, scenario_state *s) {
  for (int gx = 0; gx < 8; ++gx) {
    for (int gy = 0; gy < 6; ++gy) {
      uint32_t h = dense_hash((uint32_t)(gx * 6 + gy) + 77u);
      obstacle(e, 420 + 100 * gx + 50 * (gy % 2) + (int)(h % 25u) - 12,
               330 + 100 * gy + (int)((h >> 8) % 25u) - 12, 14 + (int)((h >> 16) % 19u));
    }
  }
  for (uint32_t i = 0; i < DENSE_AGENTS; ++i) {
    int end[4];
    dense_route(i, end);
    spawn(e, end[0], end[1], FXS_INT(2 + (int)(i % 3)), FXS_RATIO(1, 4 - (int)(i % 3)));
    uint32_t h = handle_of(i);
    clear(e, SRC_SETUP, h, FXS_COMBINE_PRIORITIZED_SUM);
    behave(e, SRC_SETUP, h, FXS_BEHAVIOR_AVOID, FXS_ONE, 0, 0);
    behave(e, SRC_SETUP, h, FXS_BEHAVIOR_ARRIVE, FXS_ONE, 1, FXS_INT(60));
    behave(e, SRC_SETUP, h, FXS_BEHAVIOR_SEPARATION, FXS_INT(2), 1, FXS_INT(24));
    target_point(e, SRC_SETUP, h, dense_end(i, 1));
    s->mode[i] = 0;
  }
}

static uint32_t obstacle_dense(const scenario *self, const fxs_world *w, scenario_state *s,
                               fxs_command *out) {
  (void)self;
  emitter e = {out, 0, {0, 0, 0}};
  if (w->tick == 0) {
    dense_setup(&e, s);
    return e.n;
  }
  for (uint32_t i = 0; i < DENSE_AGENTS; ++i) { // on arrival, cross back
    const fxs_agent_slot *a = &w->agents[i];
    if (fxs_vec2_within(a->body.position, a->target_point, FXS_INT(12))) {
      s->mode[i] ^= 1;
      target_point(&e, SRC_GAME, handle_of(i), dense_end(i, s->mode[i] ? 0 : 1));
    }
  }
  return e.n;
}

// ------------------------------------------------------------------ random walker (seed 003)
static uint32_t walker(const scenario *self, const fxs_world *w, scenario_state *s,
                       fxs_command *out) {
  (void)self;
  emitter e = {out, 0, {0, 0, 0}};
  if (w->tick == 0) {
    for (uint32_t i = 0; i < 4; ++i) {
      spawn(&e, 200 + 300 * (int)i, 200, FXS_INT(2), FXS_RATIO(1, 4));
      fxs_behavior_slot d = fxs_behavior_slot_default(FXS_BEHAVIOR_WALKER);
      fxs_command *c = next(&e, FXS_CMD_ADD_BEHAVIOR, SRC_SETUP);
      if (!c) break;
      c->agent = handle_of(i), c->ref = FXS_BEHAVIOR_WALKER, c->arg[0] = FXS_ONE;
      for (int k = 0; k < FXS_BEHAVIOR_PARAMS; ++k) c->arg[1 + k] = d.p[k];
      c->arg[2] = FXS_INT(60), c->arg[3] = FXS_INT(200); // pixel-scale steps and aggro radius
      target_point(&e, SRC_SETUP, handle_of(i),
                   fxs_vec2_make(FXS_INT(1400 - 250 * (int)i), FXS_INT(1000)));
    }
    return e.n;
  }
  for (uint32_t i = 0; i < 4; ++i) { // a new target whenever one is reached
    const fxs_agent_slot *a = &w->agents[i];
    if (fxs_vec2_within(a->body.position, a->target_point, FXS_INT(1)) &&
        fxs_vec2_is_zero(a->body.velocity)) {
      int k = (int)++s->reached[i];
      target_point(&e, SRC_GAME, handle_of(i),
                   fxs_vec2_make(FXS_INT(200 + (k * 373 + 170 * (int)i) % 1200),
                                 FXS_INT(150 + (k * 211 + 90 * (int)i) % 900)));
    }
  }
  return e.n;
}

// ------------------------------------------------------------------ Millington orientation
static uint32_t orientation_demo(const scenario *self, const fxs_world *w, scenario_state *s,
                                 fxs_command *out) {
  (void)self;
  (void)s;
  emitter e = {out, 0, {0, 0, 0}};
  fxs_vec2 mouse = mouse_at(w->tick, 800, 600, 500, 350);
  static const fxs_behavior kinds[8] = {FXS_BEHAVIOR_FACE,
                                        FXS_BEHAVIOR_ALIGN,
                                        FXS_BEHAVIOR_LOOK_WHERE_GOING,
                                        FXS_BEHAVIOR_DYNAMIC_ARRIVE,
                                        FXS_BEHAVIOR_VELOCITY_MATCH,
                                        FXS_BEHAVIOR_KINEMATIC_SEEK,
                                        FXS_BEHAVIOR_KINEMATIC_ARRIVE,
                                        FXS_BEHAVIOR_KINEMATIC_WANDER};
  if (w->tick == 0) {
    for (uint32_t i = 0; i < 8; ++i) {
      spawn(&e, 200 + 150 * (int)i, 300 + 60 * (int)(i % 3), FXS_INT(2), FXS_RATIO(1, 4));
      uint32_t h = handle_of(i);
      orientation(&e, h, i < 3 ? FXS_ORIENT_STEERED : FXS_ORIENT_LOOK_WHERE_GOING);
      behave(&e, SRC_SETUP, h, kinds[i], FXS_ONE, 0,
             kinds[i] == FXS_BEHAVIOR_ALIGN ? FXS_INT(2) : 0);
      if (kinds[i] == FXS_BEHAVIOR_LOOK_WHERE_GOING || kinds[i] == FXS_BEHAVIOR_FACE) {
        behave(&e, SRC_SETUP, h, FXS_BEHAVIOR_ARRIVE, FXS_ONE, 0, FXS_INT(120));
      }
      if (kinds[i] == FXS_BEHAVIOR_VELOCITY_MATCH) target_agent(&e, SRC_SETUP, h, handle_of(3));
    }
    return e.n;
  }
  if (w->tick % 4 == 0) {
    for (uint32_t i = 0; i < 8; ++i) {
      // Each chases its own point of a 4 x 2 grid round the mouse, 48 units apart: on one
      // point they would all pile up.
      fxs_vec2 spot = fxs_vec2_add(
          mouse, fxs_vec2_make(FXS_INT(48 * (int)(i % 4) - 72), FXS_INT(48 * (int)(i / 4) - 24)));
      if (i != 4) target_point(&e, SRC_GAME, handle_of(i), spot);
    }
  }
  return e.n;
}

// ------------------------------------------------------------------ seek and wind (seed 001)
// A ball bounces in a 600 x 400 box at (5, 5) per tick; the seeker follows it with max speed 7
// and a steering limit of 0.3; every 200 ticks a "click" blows a wind of (-12.4, 0) on it.
// A second agent flees the seeker whenever it comes within 150 units.
// The ball is an agent of its own (slot 2, no behaviors: it keeps its velocity; a bounce is
// a force that reverses one component), so the pictures show what the seeker chases. The
// world reaches SEEK_WIND_MARGIN beyond the ball's box: the seeker, slower than the ball
// (7 against 7.07) and turning on a radius of 7^2 / 0.3 = 163 units, swings out past the box
// as in the seed, instead of being held in it by containment, whose braking look-ahead at
// that speed (163 units) spans most of a 400-unit box and turned seek into a scribble.
enum { SEEK_WIND_MARGIN = 200 };

static uint32_t seek_wind(const scenario *self, const fxs_world *w, scenario_state *s,
                          fxs_command *out) {
  (void)self;
  (void)s;
  emitter e = {out, 0, {0, 0, 0}};
  if (w->tick == 0) {
    spawn(&e, 100, 100, FXS_INT(7), FXS_RATIO(3, 10));
    behave(&e, SRC_SETUP, handle_of(0), FXS_BEHAVIOR_SEEK, FXS_ONE, 0, 0);
    target_agent(&e, SRC_SETUP, handle_of(0), handle_of(2));
    spawn(&e, 500, 80, FXS_INT(4), FXS_RATIO(1, 4));
    target_agent(&e, SRC_SETUP, handle_of(1), handle_of(0));
    behave(&e, SRC_SETUP, handle_of(1), FXS_BEHAVIOR_FLEE, FXS_ONE, 0, FXS_INT(150));
    fxs_command *c = next(&e, FXS_CMD_SPAWN, SRC_SPAWN);
    c->arg[0] = FXS_INT(300), c->arg[1] = FXS_INT(300), c->arg[2] = FXS_INT(5),
    c->arg[3] = FXS_INT(5);
    c->arg[4] = FXS_INT(8), c->arg[5] = 0, c->arg[6] = FXS_ONE, c->arg[7] = FXS_INT(5);
    return e.n;
  }
  const fxs_agent *ball = &w->agents[2].body;
  fxs_vec2 bounce = fxs_vec2_zero();
  if ((ball->position.x < 0 && ball->velocity.x < 0) ||
      (ball->position.x > FXS_INT(600) && ball->velocity.x > 0)) {
    bounce.x = -2 * ball->velocity.x;
  }
  if ((ball->position.y < 0 && ball->velocity.y < 0) ||
      (ball->position.y > FXS_INT(400) && ball->velocity.y > 0)) {
    bounce.y = -2 * ball->velocity.y;
  }
  if (!fxs_vec2_is_zero(bounce)) {
    fxs_command *c = next(&e, FXS_CMD_APPLY_FORCE, SRC_GAME);
    c->agent = handle_of(2), c->arg[0] = bounce.x, c->arg[1] = bounce.y;
  }
  if (w->tick % 200 == 0) {
    fxs_command *c = next(&e, FXS_CMD_APPLY_FORCE, SRC_GAME);
    c->agent = handle_of(0), c->arg[0] = -FXS_RATIO(124, 10);
  }
  return e.n;
}

// ------------------------------------------------------------------ crowd crossing
// Two groups of 15 (five rows of three) walk through each other along the same rows, each
// to the mirror of its start. Separation first, then unaligned avoidance (the most
// imminent threat: keep right and, head-on, brake), then Millington's dynamic arrival
// (which brakes to rest inside its target radius), in a prioritized sum.
enum { CROWD_ROWS = 5, CROWD_COLUMNS = 3, CROWD_GROUP = CROWD_ROWS * CROWD_COLUMNS };

static uint32_t crowd_crossing(const scenario *self, const fxs_world *w, scenario_state *s,
                               fxs_command *out) {
  (void)self;
  (void)s;
  emitter e = {out, 0, {0, 0, 0}};
  if (w->tick != 0) return 0;
  for (uint32_t i = 0; i < 2 * CROWD_GROUP; ++i) {
    int group = (int)(i / CROWD_GROUP), k = (int)(i % CROWD_GROUP);
    int x = 250 + 50 * (k % CROWD_COLUMNS), y = 460 + 40 * (k / CROWD_COLUMNS);
    if (group) x = 1600 - x;
    spawn(&e, x, y, FXS_INT(2), FXS_RATIO(1, 4));
    uint32_t h = handle_of(i);
    clear(&e, SRC_SETUP, h, FXS_COMBINE_PRIORITIZED_SUM);
    behave(&e, SRC_SETUP, h, FXS_BEHAVIOR_SEPARATION, FXS_INT(2), 0, FXS_INT(22));
    behave(&e, SRC_SETUP, h, FXS_BEHAVIOR_UNALIGNED_AVOIDANCE, FXS_ONE, 0, 0);
    behave(&e, SRC_SETUP, h, FXS_BEHAVIOR_DYNAMIC_ARRIVE, FXS_ONE, 1, 0);
    target_point(&e, SRC_SETUP, h, fxs_vec2_make(FXS_INT(1600 - x), FXS_INT(y)));
  }
  return e.n;
}

// ------------------------------------------------------------------ hide and seek
// A seeker walks a figure of eight through seven obstacles; when it sees a hider (no obstacle on
// the line between them) within 300 units, or hears one within 150, it pursues it for up to 120
// ticks, then walks on for at least 120. Five hiders hide from it behind the obstacles, each on its
// own ring of spots (16 + 22 i units off an edge), so two behind one obstacle stand apart; they
// avoid the obstacles and keep apart while they move.
enum { HIDERS = 5, SEEK_RANGE = 450, HEAR_RANGE = 250, SEEK_TICKS = 120 };

static const fxs_vec2 seek_round[6] = {{FXS_INT(300), FXS_INT(250)}, {FXS_INT(1300), FXS_INT(250)},
                                       {FXS_INT(800), FXS_INT(620)}, {FXS_INT(1300), FXS_INT(950)},
                                       {FXS_INT(300), FXS_INT(950)}, {FXS_INT(800), FXS_INT(620)}};

static void seek_round_path(const scenario *self, fxs_world *world) {
  (void)self;
  fxs_world_add_path(world, seek_round, 6, FXS_PATH_LOOP, FXS_INT(30), 0);
}

// True when no obstacle of the world lies across the line from a to b.
static bool in_sight(const fxs_world *w, fxs_vec2 a, fxs_vec2 b) {
  for (uint32_t i = 0; i < w->capacity.obstacles; ++i) {
    if (!w->obstacle_alive[i]) continue;
    const fxs_obstacle *o = &w->obstacles[i];
    if (fxs_vec2_within(fxs_vec2_closest_on_segment(o->center, a, b), o->center, o->radius))
      return false;
  }
  return true;
}

static void hide_and_seek_setup(emitter *e) {
  static const int obstacles[7][3] = {{520, 480, 50}, {800, 380, 40}, {1080, 520, 55},
                                      {640, 760, 45}, {940, 780, 50}, {1250, 700, 40},
                                      {380, 650, 35}};
  for (int i = 0; i < 7; ++i) obstacle(e, obstacles[i][0], obstacles[i][1], obstacles[i][2]);
  spawn(e, 300, 250, FXS_INT(3), FXS_RATIO(3, 10));
  clear(e, SRC_SETUP, handle_of(0), FXS_COMBINE_PRIORITIZED_SUM);
  behave(e, SRC_SETUP, handle_of(0), FXS_BEHAVIOR_AVOID, FXS_ONE, 0, 0);
  behave(e, SRC_SETUP, handle_of(0), FXS_BEHAVIOR_PATH, FXS_ONE, 1, 0);
  use_path(e, handle_of(0), 0);
  for (uint32_t i = 1; i <= HIDERS; ++i) {
    spawn(e, 700 + 60 * (int)i, 600 + 20 * (int)(i % 2), FXS_RATIO(5, 2), FXS_RATIO(1, 4));
    uint32_t h = handle_of(i);
    clear(e, SRC_SETUP, h, FXS_COMBINE_PRIORITIZED_SUM);
    behave(e, SRC_SETUP, h, FXS_BEHAVIOR_AVOID, FXS_ONE, 0, 0);
    behave(e, SRC_SETUP, h, FXS_BEHAVIOR_SEPARATION, FXS_INT(2), 0, FXS_INT(20));
    behave(e, SRC_SETUP, h, FXS_BEHAVIOR_HIDE, FXS_ONE, 1, FXS_INT(16 + 22 * ((int)i - 1)));
    target_agent(e, SRC_SETUP, h, handle_of(0));
  }
}

static uint32_t hide_and_seek(const scenario *self, const fxs_world *w, scenario_state *s,
                              fxs_command *out) {
  (void)self;
  emitter e = {out, 0, {0, 0, 0}};
  if (w->tick == 0) {
    hide_and_seek_setup(&e);
    s->mode[0] = REST, s->stamina[0] = 0;
    return e.n;
  }
  const fxs_agent *me = &w->agents[0].body;
  uint32_t seeker = handle_of(0), want = s->target[0];
  if (s->mode[0] == HUNT && --s->stamina[0] <= 0)
    s->mode[0] = REST, s->stamina[0] = SEEK_TICKS, want = 0;
  if (s->mode[0] == REST && s->stamina[0] > 0) s->stamina[0]--;
  if (s->mode[0] == REST && s->stamina[0] == 0) {
    for (uint32_t i = 1; i <= HIDERS && want == 0; ++i) {
      fxs_vec2 p = w->agents[i].body.position;
      bool heard = fxs_vec2_within(me->position, p, FXS_INT(HEAR_RANGE));
      if (heard ||
          (fxs_vec2_within(me->position, p, FXS_INT(SEEK_RANGE)) && in_sight(w, me->position, p))) {
        want = handle_of(i), s->mode[0] = HUNT, s->stamina[0] = SEEK_TICKS;
      }
    }
  }
  if (want == s->target[0]) return e.n;
  s->target[0] = want;
  clear(&e, SRC_GAME, seeker, FXS_COMBINE_PRIORITIZED_SUM);
  behave(&e, SRC_GAME, seeker, FXS_BEHAVIOR_AVOID, FXS_ONE, 0, 0);
  if (want) {
    target_agent(&e, SRC_GAME, seeker, want);
    behave(&e, SRC_GAME, seeker, FXS_BEHAVIOR_PURSUIT, FXS_ONE, 1, 0);
  } else {
    behave(&e, SRC_GAME, seeker, FXS_BEHAVIOR_PATH, FXS_ONE, 1, 0);
  }
  return e.n;
}

static void configure_box(const scenario *self, fxs_world_def *def) {
  configure_default(self, def);
  def->bounds_min = fxs_vec2_make(-FXS_INT(SEEK_WIND_MARGIN), -FXS_INT(SEEK_WIND_MARGIN));
  def->bounds_max = fxs_vec2_make(FXS_INT(600 + SEEK_WIND_MARGIN), FXS_INT(400 + SEEK_WIND_MARGIN));
}

// ------------------------------------------------------------------ flow field (Reynolds)
// A 32 x 24 field of 50-unit cells over the world: a vortex round an island at the centre
// that turns the agents in and round it, and a river band near the top that carries them
// along. Each agent avoids the rocks first, then keeps apart and follows the field (a
// prioritized sum). At tick 700 the vortex reverses: the field is state, so the replay
// carries the change as two commands.
enum { FIELD_AGENTS = 24, FIELD_COLUMNS = 32, FIELD_ROWS = 24, FIELD_CELL = 50 };

// The vortex (swirl +1 or -1, a little inward) and, over it, the river: rows 1-3 of columns
// 2-25 flow the vortex's way along the top, and the vortex takes the agents on at its end.
static void field_fill(emitter *e, uint8_t src, fix16_t swirl) {
  fxs_command *c = next(e, FXS_CMD_FILL_FIELD, src);
  c->ref = FXS_FLOW_FILL_VORTEX, c->arg[0] = FXS_INT(800), c->arg[1] = FXS_INT(600);
  c->arg[2] = swirl, c->arg[3] = FXS_RATIO(1, 8);
  c = next(e, FXS_CMD_SET_FIELD_CELLS, src);
  c->arg[0] = FXS_INT(2), c->arg[1] = FXS_INT(1), c->arg[2] = FXS_INT(24), c->arg[3] = FXS_INT(3);
  c->arg[4] = swirl; // with the vortex: east above it while it turns clockwise on screen
}

static void field_setup(emitter *e) {
  fxs_command *c = next(e, FXS_CMD_SET_FIELD_GRID, SRC_SETUP);
  c->arg[2] = FXS_INT(FIELD_CELL), c->arg[3] = FXS_INT(FIELD_COLUMNS),
  c->arg[4] = FXS_INT(FIELD_ROWS);
  field_fill(e, SRC_SETUP, FXS_ONE);
  obstacle(e, 800, 600, 110); // the island
  obstacle(e, 540, 360, 36);  // rocks, none on a spawn point
  obstacle(e, 1060, 860, 40);
  obstacle(e, 1290, 330, 30);
  obstacle(e, 560, 880, 32);
}

static uint32_t flow_field(const scenario *self, const fxs_world *w, scenario_state *s,
                           fxs_command *out) {
  (void)self;
  (void)s;
  emitter e = {out, 0, {0, 0, 0}};
  if (w->tick == 0) {
    field_setup(&e);
    for (uint32_t i = 0; i < FIELD_AGENTS; ++i) {
      spawn(&e, 150 + 260 * (int)(i % 6), 260 + 200 * (int)(i / 6), FXS_INT(3), FXS_RATIO(1, 4));
      uint32_t h = handle_of(i);
      clear(&e, SRC_SETUP, h, FXS_COMBINE_PRIORITIZED_SUM);
      behave(&e, SRC_SETUP, h, FXS_BEHAVIOR_AVOID, FXS_ONE, 0, 0);
      behave(&e, SRC_SETUP, h, FXS_BEHAVIOR_SEPARATION, FXS_INT(2), 1, FXS_INT(30));
      behave(&e, SRC_SETUP, h, FXS_BEHAVIOR_FLOW_FIELD, FXS_ONE, 1, FXS_INT(4));
    }
    return e.n;
  }
  if (w->tick == 700) field_fill(&e, SRC_GAME, -FXS_ONE);
  return e.n;
}

// ------------------------------------------------------------------ a building mid-match
// Eight navigate agents cross a wall with two doors, the short one in the middle and a long
// way round at the top. At tick NAV_BUILD_AT a building (four walls: the game's input, not
// the scene's) fills the middle door while they walk toward it: the navigation grid changes,
// every route re-plans through the top door. At NAV_RETURN_AT each is sent back west, by the
// player that owns it in network play: the map change and the moves are inputs of a match.
enum { NAV_AGENTS = 8, NAV_CELL = 10, NAV_W = 1000, NAV_H = 800, NAV_BUILD_AT = 120 };
enum { NAV_RETURN_AT = 700 };

static void nav_building_setup(emitter *e) {
  add_wall(e, 500, 0, 500, 330); // the wall, its middle door 330..470 and its top door 650..800
  add_wall(e, 500, 470, 500, 650);
  fxs_command *c = next(e, FXS_CMD_SET_NAV_GRID, SRC_SETUP);
  fxs_command grid = fxs_command_set_nav_grid(fxs_vec2_make(0, 0), FXS_INT(NAV_CELL),
                                              NAV_W / NAV_CELL, NAV_H / NAV_CELL, FXS_INT(8), 2000);
  grid.source = c->source, grid.sequence = c->sequence, *c = grid;
  for (uint32_t i = 0; i < NAV_AGENTS; ++i) {
    spawn(e, 80 + 50 * (int)(i % 2), 260 + 40 * (int)(i / 2), FXS_INT(2), FXS_RATIO(1, 4));
    clear(e, SRC_SETUP, handle_of(i), FXS_COMBINE_WEIGHTED_SUM);
    behave(e, SRC_SETUP, handle_of(i), FXS_BEHAVIOR_NAVIGATE, FXS_ONE, 0, FXS_INT(40));
    fxs_vec2 goal = fxs_vec2_make(FXS_INT(880), FXS_INT(300 + 40 * (int)(i % 4)));
    target_point(e, SRC_SETUP, handle_of(i), goal);
  }
}

static uint32_t nav_building(const scenario *self, const fxs_world *w, scenario_state *s,
                             fxs_command *out) {
  (void)self;
  (void)s;
  emitter e = {out, 0, {0, 0, 0}};
  if (w->tick == 0) nav_building_setup(&e);
  if (w->tick == NAV_BUILD_AT) { // a 60 x 160 building in the middle door, walls of the game
    static const int corner[5][2] = {{470, 320}, {530, 320}, {530, 480}, {470, 480}, {470, 320}};
    for (int k = 0; k < 4; ++k) {
      fxs_command *c = next(&e, FXS_CMD_ADD_WALL, SRC_GAME);
      c->arg[0] = FXS_INT(corner[k][0]), c->arg[1] = FXS_INT(corner[k][1]);
      c->arg[2] = FXS_INT(corner[k + 1][0]), c->arg[3] = FXS_INT(corner[k + 1][1]);
    }
  }
  if (w->tick == NAV_RETURN_AT) {
    for (uint32_t i = 0; i < NAV_AGENTS; ++i) {
      fxs_vec2 home = fxs_vec2_make(FXS_INT(150), FXS_INT(250 + 40 * (int)i));
      target_point(&e, SRC_GAME, handle_of(i), home);
    }
  }
  return e.n;
}

static void configure_nav(const scenario *self, fxs_world_def *def) {
  configure_default(self, def);
  def->bounds_max = fxs_vec2_make(FXS_INT(NAV_W), FXS_INT(NAV_H));
  def->neighbor_radius = FXS_INT(60);
}

// ------------------------------------------------------------------ table

static const scenario scenarios[] = {
    {"hunter_prey",
     "seed 000's demo: hunters with stamina pursue prey; prey evade, seek the mouse or wander",
     {16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
     1200,
     configure_default,
     no_paths,
     hunter_prey,
     0},
    {"patrol",
     "path following: three patrols back and forth, one loop, one that stops at the end",
     {5, 0, 3, 18, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
     1500,
     configure_default,
     patrol_paths,
     patrol,
     0},
    {"flock",
     "24 agents: separation, alignment, cohesion, wander and a weak pull to the centre",
     {24, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
     1200,
     configure_small,
     no_paths,
     flock,
     0},
    {"queue",
     "16 agents queue through an 80-unit doorway between two walls",
     {16, 0, 1, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0},
     1500,
     configure_small,
     door_path,
     queue,
     0},
    {"leader",
     "a leader loops a path; 8 followers stay behind it, out of its sight, apart",
     {9, 0, 3, 18, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
     1200,
     configure_default,
     patrol_paths,
     leader,
     0},
    {"obstacle_field",
     "6 agents cross a field of 30 obstacles back and forth",
     {6, 30, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
     1500,
     configure_default,
     no_paths,
     obstacle_field,
     0},
    {"obstacle_dense",
     "20 agents at speeds 2-4 cross 48 obstacles in four directions and back",
     {20, 48, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
     2000,
     configure_default,
     no_paths,
     obstacle_dense,
     0},
    {"walker",
     "seed 003's random walkers reach targets through random waypoints",
     {4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
     1500,
     configure_default,
     no_paths,
     walker,
     0},
    {"seek_wind",
     "seed 001: seek a bouncing ball (agent 2) under a steering limit, wind on a click; one agent "
     "flees",
     {3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
     600,
     configure_box,
     no_paths,
     seek_wind,
     0},
    {"orientation",
     "Millington: face, align, look where going, dynamic arrive, velocity match, kinematic",
     {8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
     1000,
     configure_default,
     no_paths,
     orientation_demo,
     0},
    {"flow_field",
     "24 agents carried by a flow field: a vortex round an island, a river along the top",
     {FIELD_AGENTS, 5, 0, 0, 0, 0, FIELD_COLUMNS *FIELD_ROWS, 0, 0, 0, 0, 0, 0, 0},
     1500,
     configure_default,
     no_paths,
     flow_field,
     0},
    {"crowd_crossing",
     "two groups of 15 walk through each other: separation, unaligned avoidance, dynamic arrival",
     {30, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
     1000,
     configure_default,
     no_paths,
     crowd_crossing,
     0},
    {"hide_and_seek",
     "a seeker walks a figure of eight through seven obstacles, chasing the hiders it sees; five "
     "hide",
     {6, 7, 1, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
     1500,
     configure_default,
     seek_round_path,
     hide_and_seek,
     0},
    {"nav_match",
     "8 navigate agents; a building closes the short door mid-match, all re-plan; then back west",
     {NAV_AGENTS, 0, 0, 0, 8, 0, 0, (NAV_W / NAV_CELL) * (NAV_H / NAV_CELL), 4, 8000, 64, 0, 0, 0},
     1400,
     configure_nav,
     no_paths,
     nav_building,
     0},
};

const scenario *scenario_list(uint32_t *count) {
  *count = (uint32_t)(sizeof scenarios / sizeof scenarios[0]);
  return scenarios;
}

const scenario *scenario_find(const char *name) {
  uint32_t n;
  const scenario *list = scenario_list(&n);
  for (uint32_t i = 0; i < n; ++i) {
    if (strcmp(list[i].name, name) == 0) return &list[i];
  }
  return 0;
}
