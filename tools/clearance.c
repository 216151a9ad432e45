// fxs-clearance: runs built-in scenarios tick by tick and reports the smallest clearance
// between any agent's body (a circle of its radius) and any obstacle or wall: the distance
// from the agent's centre to the obstacle's centre minus both radii, or to the wall segment
// minus the agent's radius. Negative means the body overlaps the obstacle or wall.
//
//   bash tools/clearance-check.sh [SCENARIO ...]
//
// Desktop only: doubles are used here to measure the library, never inside it.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixsteer/fixsteer.h"
#include "fixsteer/world.h"
#include "scenario.h"

static double units(fix16_t v) { return (double)v / 65536.0; }

static double segment_distance(double px, double py, const fxs_wall *w) {
  double ax = units(w->a.x), ay = units(w->a.y), bx = units(w->b.x), by = units(w->b.y);
  double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
  double t = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0;
  t = t < 0 ? 0 : (t > 1 ? 1 : t);
  return hypot(px - (ax + t * dx), py - (ay + t * dy));
}

typedef struct worst {
  double clearance;
  uint32_t tick, agent, index;
  char kind;             // 'o' obstacle, 'w' wall
  uint32_t ticks_inside; // ticks with some clearance < 0
} worst;

static void measure(const fxs_world *w, worst *out) {
  bool inside = false;
  for (uint32_t i = 0; i < w->capacity.agents; ++i) {
    const fxs_agent_slot *a = &w->agents[i];
    if (!a->alive) continue;
    double px = units(a->body.position.x), py = units(a->body.position.y),
           ra = units(a->body.radius);
    for (uint32_t k = 0; k < w->capacity.obstacles; ++k) {
      if (!w->obstacle_alive[k]) continue;
      const fxs_obstacle *o = &w->obstacles[k];
      double c = hypot(px - units(o->center.x), py - units(o->center.y)) - units(o->radius) - ra;
      if (c < 0) inside = true;
      if (c < out->clearance) *out = (worst){c, w->tick, i, k, 'o', out->ticks_inside};
    }
    for (uint32_t k = 0; k < w->capacity.walls; ++k) {
      if (!w->wall_alive[k]) continue;
      double c = segment_distance(px, py, &w->walls[k]) - ra;
      if (c < 0) inside = true;
      if (c < out->clearance) *out = (worst){c, w->tick, i, k, 'w', out->ticks_inside};
    }
  }
  out->ticks_inside += inside;
}

static int run(const scenario *sc) {
  fxs_world_def def;
  sc->configure(sc, &def);
  size_t size = fxs_world_memory_size(&sc->capacity);
  void *memory = calloc(1, size);
  fxs_command *commands = malloc(sizeof(fxs_command) * SCENARIO_MAX_COMMANDS);
  scenario_state *state = calloc(1, sizeof *state);
  fxs_world w;
  if (!memory || !commands || !state ||
      fxs_world_init(&w, &def, &sc->capacity, memory, size) != FXS_OK) {
    fprintf(stderr, "fxs-clearance: cannot set up %s\n", sc->name);
    return 2;
  }
  sc->add_paths(sc, &w);
  worst m = {INFINITY, 0, 0, 0, '-', 0};
  for (uint32_t t = 0; t < sc->default_ticks; ++t) {
    uint32_t n = sc->commands(sc, &w, state, commands);
    fxs_world_step(&w, commands, n, 0);
    measure(&w, &m);
  }
  if (m.kind == '-') {
    printf("%-16s no obstacles or walls\n", sc->name);
  } else {
    printf(
        "%-16s min clearance %9.4f at tick %4u, agent %2u, %s %2u; ticks with overlap %u of %u\n",
        sc->name, m.clearance, m.tick, m.agent, m.kind == 'o' ? "obstacle" : "wall", m.index,
        m.ticks_inside, sc->default_ticks);
  }
  free(memory);
  free(commands);
  free(state);
  return m.kind == '-' || m.clearance >= 0 ? 0 : 1;
}

int main(int argc, char **argv) {
  int passed = 0, failed = 0;
  uint32_t n;
  const scenario *list = scenario_list(&n);
  for (uint32_t i = 0; i < n && argc < 2; ++i) {
    if (!list[i].capacity.obstacles && !list[i].capacity.walls) continue;
    if (run(&list[i]) == 0) ++passed;
    else ++failed;
  }
  for (int i = 1; i < argc; ++i) {
    const scenario *sc = scenario_find(argv[i]);
    if (!sc) {
      fprintf(stderr, "fxs-clearance: unknown scenario %s\n", argv[i]);
      return 2;
    }
    if (run(sc) == 0) ++passed;
    else ++failed;
  }
  printf("clearance: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
