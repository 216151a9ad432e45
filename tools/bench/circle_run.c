// The ORCA Circle section of fxs-bench: the library's world against the float twin
// (twin_orca.c) on RVO2's Circle, timed in one run, both sides advancing by turns in chunks
// of ticks (which side goes first alternates), so a machine whose speed drifts slows both
// alike. Between ticks, outside the timed calls, every agent's distance to its goal (all
// within its radius: home) and the closest approach of any two agents (centre to centre)
// are measured. Desktop only.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

// Ticks each side steps before the other takes its turn.
#define CHUNK 50u

typedef struct point {
  double x, y;
} point;

static int by_x(const void *a, const void *b) {
  double u = ((const point *)a)->x, v = ((const point *)b)->x;
  return u < v ? -1 : u > v;
}

// Smallest distance between two of the n points (sorts them): a sweep along x.
static double closest_pair(point *p, uint32_t n) {
  qsort(p, n, sizeof *p, by_x);
  double best = INFINITY;
  for (uint32_t i = 0; i < n; ++i) {
    for (uint32_t j = i + 1u; j < n && p[j].x - p[i].x < best; ++j) {
      double d = hypot(p[j].x - p[i].x, p[j].y - p[i].y);
      if (d < best) best = d;
    }
  }
  return best;
}

// One side of the comparison: its state, time and figures.
typedef struct side {
  uint32_t ticks; // stepped so far
  long home_tick; // first tick after which every agent is home, or -1
  double closest; // closest approach so far, units
  double seconds; // time spent in its steps
} side;

typedef struct circle_run {
  uint32_t n;
  fxs_world world;
  void *memory, *twin_memory;
  fxs_agent_handle *handles;
  fxs_vec2 *goals;
  bench_forca twin;
  point *points;
  side fixed, flt;
} circle_run;

static void close_run(circle_run *c) {
  free(c->memory), free(c->twin_memory), free(c->handles), free(c->goals), free(c->points);
}

static int open_run(circle_run *c, uint32_t n) {
  if (!bench_circle_fits(n)) {
    fprintf(stderr,
            "circle: %u agents with a margin of %u units pass the largest coordinate (32767)\n",
            (unsigned)n, (unsigned)bench_circle_margin);
    return 0;
  }
  fxs_world_capacity cap = bench_circle_capacity(n);
  fxs_world_def def = bench_circle_def(n);
  size_t size = fxs_world_memory_size(&cap);
  c->n = n;
  c->memory = malloc(size);
  c->twin_memory = malloc(bench_forca_memory_size(n));
  c->handles = malloc(sizeof *c->handles * n);
  c->goals = malloc(sizeof *c->goals * n);
  c->points = malloc(sizeof *c->points * n);
  if (!c->memory || !c->twin_memory || !c->handles || !c->goals || !c->points ||
      fxs_world_init(&c->world, &def, &cap, c->memory, size) != FXS_OK ||
      bench_circle_setup(&c->world, n, c->handles) != FXS_OK) {
    close_run(c);
    return 0;
  }
  for (uint32_t i = 0; i < n; ++i) {
    fxs_vec2 start;
    bench_circle_start(n, i, &start, &c->goals[i]);
  }
  bench_forca_init(&c->twin, n, c->twin_memory);
  side fresh = {0, -1, INFINITY, 0.0};
  c->fixed = fresh, c->flt = fresh;
  return 1;
}

// Home and closest approach of the library's world after its last tick.
static void observe_fixed(circle_run *c) {
  int home = 1;
  int64_t r = CIRCLE_RADIUS;
  for (uint32_t i = 0; i < c->n; ++i) {
    const fxs_agent *a = fxs_world_agent(&c->world, c->handles[i]);
    int64_t dx = (int64_t)a->position.x - c->goals[i].x;
    int64_t dy = (int64_t)a->position.y - c->goals[i].y;
    home &= dx * dx + dy * dy <= r * r;
    c->points[i].x = a->position.x / 65536.0, c->points[i].y = a->position.y / 65536.0;
  }
  double d = closest_pair(c->points, c->n);
  if (d < c->fixed.closest) c->fixed.closest = d;
  if (home && c->fixed.home_tick < 0) c->fixed.home_tick = (long)c->fixed.ticks;
}

static void observe_twin(circle_run *c) {
  int home = 1;
  double r = CIRCLE_RADIUS / 65536.0;
  const bench_forca *w = &c->twin;
  for (uint32_t i = 0; i < c->n; ++i) {
    double dx = (double)w->px[i] - w->gx[i], dy = (double)w->py[i] - w->gy[i];
    home &= dx * dx + dy * dy <= r * r;
    c->points[i].x = w->px[i], c->points[i].y = w->py[i];
  }
  double d = closest_pair(c->points, c->n);
  if (d < c->flt.closest) c->flt.closest = d;
  if (home && c->flt.home_tick < 0) c->flt.home_tick = (long)c->flt.ticks;
}

// Up to `ticks` ticks of one side, each timed and then observed; stops once it is home.
static void advance(circle_run *c, int twin, uint32_t ticks, double (*now)(void)) {
  side *s = twin ? &c->flt : &c->fixed;
  for (uint32_t t = 0; t < ticks && s->home_tick < 0; ++t) {
    double t0 = now();
    if (twin) bench_forca_step(&c->twin);
    else fxs_world_step(&c->world, 0, 0, 0);
    s->seconds += now() - t0;
    s->ticks++;
    if (twin) observe_twin(c);
    else observe_fixed(c);
  }
}

static void print_arrival(const side *s) {
  if (s->home_tick >= 0) printf("  %6ld", s->home_tick);
  else printf("  %6s", "-");
}

// One row: both sides until every agent is home, for at most `window` ticks when window > 0
// (else 16 n + 2000).
static void circle_row(uint32_t n, uint32_t window, double (*now)(void)) {
  circle_run c;
  printf("  %7u  ", (unsigned)n);
  fflush(stdout);
  if (!open_run(&c, n)) {
    printf("skipped: memory or set-up\n");
    return;
  }
  observe_fixed(&c);
  observe_twin(&c);
  // A straight walk across takes 2 R / 0.5 = 3.2 n ticks; give the crowd five times that.
  uint32_t limit = window > 0 ? window : 16u * n + 2000u;
  for (uint64_t done = 0; done < limit; done += CHUNK) { // 64-bit: no wrap near 2^32
    if (c.fixed.home_tick >= 0 && c.flt.home_tick >= 0) break;
    uint32_t ticks = limit - done < CHUNK ? (uint32_t)(limit - done) : CHUNK;
    uint32_t chunk = (uint32_t)(done / CHUNK);
    advance(&c, (int)(chunk % 2u), ticks, now);
    advance(&c, (int)(1u - chunk % 2u), ticks, now);
  }
  double fixed_ns = c.fixed.seconds * 1e9 / ((double)n * c.fixed.ticks);
  double twin_ns = c.flt.seconds * 1e9 / ((double)n * c.flt.ticks);
  printf("%6u %6u  %9.1f %10.0f  %9.1f %10.0f  %6.2f", (unsigned)c.fixed.ticks,
         (unsigned)c.flt.ticks, fixed_ns, 1e9 / fixed_ns, twin_ns, 1e9 / twin_ns,
         fixed_ns / twin_ns);
  print_arrival(&c.fixed);
  print_arrival(&c.flt);
  printf("  %6.3f %6.3f  %016llx\n", c.fixed.closest, c.flt.closest,
         (unsigned long long)fxs_world_hash(&c.world));
  close_run(&c);
}

void bench_circle_report(const uint32_t *sizes, unsigned count, uint32_t window,
                         double (*now)(void)) {
  printf(
      "\n== ORCA Circle (RVO2's scene): n agents on a circle of radius 200 n / 250 swap to\n"
      "   the antipodes; neighbor distance 15, 10 neighbors, time horizon 40 ticks (10 s of\n"
      "   0.25 s), radius 1.5, max speed 0.5 per tick. fixed: the library's world; float:\n"
      "   the float ORCA twin (tools/bench/twin_orca.c). Both run until every agent is\n"
      "   within its radius of its goal (home), or the first 600 ticks above 1,000 agents\n"
      "   (at most T ticks of every size with --ticks T: the open phase, agents walking\n"
      "   apart), taking turns every %u ticks; the twin searches %s;\n"
      "   ns per agent-step and agent-steps per second of the steps alone; closest = least\n"
      "   centre distance of two agents over the run (2 radii = 3 is touching); hash = the\n"
      "   world's state hash at the end\n",
      (unsigned)CHUNK,
      bench_twin_library_grid ? "the library's grid (--twin-grid library)" : "its own grid");
  printf("  %7s  %6s %6s  %9s %10s  %9s %10s  %6s  %6s %6s  %6s %6s  %s\n", "agents", "ticks",
         "(flt)", "fixed ns", "steps/s", "float ns", "steps/s", "ratio", "home", "(flt)", "closest",
         "(flt)", "hash");
  for (unsigned k = 0; k < count; ++k) {
    uint32_t ticks = window > 0 ? window : sizes[k] > 1000u ? 600u : 0u;
    circle_row(sizes[k], ticks, now);
  }
}

int bench_circle_kernel(int twin, uint32_t n, uint32_t ticks) {
  circle_run c;
  if (!open_run(&c, n)) return 1;
  uint32_t limit = ticks > 0 ? ticks : 16u * n + 2000u;
  side *s = twin ? &c.flt : &c.fixed;
  for (uint32_t t = 0; t < limit && s->home_tick < 0; ++t) {
    if (twin) {
      bench_forca_step(&c.twin);
      s->ticks++;
      observe_twin(&c);
    } else {
      fxs_world_step(&c.world, 0, 0, 0);
      s->ticks++;
      observe_fixed(&c);
    }
  }
  printf("circle-%s: %u agents x %u ticks = %llu agent-steps, home at tick %ld, closest %.3f",
         twin ? "float" : "fixed", (unsigned)n, (unsigned)s->ticks,
         (unsigned long long)n * s->ticks, s->home_tick, s->closest);
  if (!twin) printf(", hash %016llx", (unsigned long long)fxs_world_hash(&c.world));
  printf("\n");
  close_run(&c);
  return 0;
}
