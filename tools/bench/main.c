// fxs-bench: speed and memory of the world per scenario at 1k to 1M agents, the state hash
// and snapshot against a tick, spawn time, and fixed point against float twins of the same
// loops. Every figure is the median of at least BENCH_REPS repetitions. Prints; never fails
// a build.
//
//   make bench                           the full report: under a minute while a world holds
//                                        at most 65,534 agents (the 100k and 1M rows are
//                                        skipped), about 4-5 minutes once they fit
//   fxs-bench --sizes 1000,65534         other agent counts (at most 8, BENCH_MAX_SIZES)
//   fxs-bench --wall                     wall-clock time instead of the thread's CPU time
//   fxs-bench --kernel NAME --agents N --ticks T
//                                        runs one kernel once, for `make bench-callgrind`
//                                        (NAME: seek-fixed seek-many seek-float seek-world
//                                        avoid-world flock-fixed flock-float; hash-flock: the
//                                        flock after one tick, T state hashes)
//   fxs-bench --kernel workers           only the 1 vs 2 workers section
//   fxs-bench --kernel seek-pair [--sizes 1000,10000]
//                                        only the seek+integrate rows against the float twin
//                                        (one call at a time, then fxs_seek_integrate_many)
//   fxs-bench --kernel nav-field --ticks R   R integration fields over the 512 x 512 grid
//                                        (nav-field-open: the same grid without walls or mud)
//   fxs-bench --kernel nav-astar --ticks S   S A* searches on it
//   fxs-bench --kernel nav-mesh --agents N --ticks R   median of R mesh builds of N walls
//   fxs-bench --kernel nav-crowd         only the navigate crowd section: 1,000 navigate agents
//                                        on shared fields against arrive + orca, the ratio;
//                                        nav-crowd-navigate and nav-crowd-orca --ticks T run
//                                        one side, for tools/bench/callgrind.sh
//   fxs-bench --kernel nav-map           only the map-change section (1024 x 1024 grid)
//   fxs-bench --kernel nav-mesh-grid     only the mesh against the grid on the same maps
//   fxs-bench --kernel circle [--sizes 250,1000,10000] [--ticks T]
//                                        only the ORCA Circle section (library against
//                                        its float twin; --ticks T: at most T ticks of
//                                        every size, the open phase); circle-fixed and circle-float
//                                        with --agents N --ticks T (0: until all are home)
//                                        run one side, for tools/bench/callgrind-circle.sh;
//                                        --margin U: bounds U units beyond the circle
//                                        (default 64; 20000: a crowd on a large map);
//                                        --twin-grid library: the twin searches the
//                                        library's grid instead of its own (own: default)
//   fxs-bench --kernel rts [--sizes 1000,10000] [--walls 0,316,1257] [--ticks T]
//                                        only the RTS section: navigate agents on an 8192 x 8192
//                                        map of rooms, 1 and 2 workers (default 1,000 and 5,000
//                                        agents, 0 and 316 walls, 10 ticks); rts-mesh: on a mesh
//   fxs-bench --kernel rts-move [--sizes 10000] [--walls 316] [--ticks T]
//                                        every agent of the RTS map clicked to one place as
//                                        one move group: ticks until every unit moves (at
//                                        most T, default 60) and ms a tick, by simulation
//                                        version 5's rules and the current one's;
//                                        FXS_BENCH_MESH=1: on a navigation mesh (versions 7
//                                        and the current one)
#define _POSIX_C_SOURCE 199309L // clock_gettime

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "fixsteer/snapshot.h"

// Repetitions per figure: at least BENCH_REPS, more while a row stays under ROW_SECONDS.
#define BENCH_REPS 5
#define MAX_REPS 25
#define ROW_SECONDS 0.6
// A repetition is WINDOW_TICKS ticks from the start (fewer when a tick takes longer than
// REP_SECONDS / WINDOW_TICKS, at least one): the same short window at every N keeps the
// density of the start, about BENCH_DENSITY neighbors, in every figure.
#define WINDOW_TICKS 8
#define REP_SECONDS 0.12
// The extra look-where-going flock row runs up to this size only.
#define LOOK_MAX_AGENTS 100000u
// A size whose spawns take longer than this is skipped (spawn scans for a free slot).
#define SPAWN_BUDGET_SECONDS 20.0

#define SIZE_COUNT BENCH_MAX_SIZES
static uint32_t sizes[SIZE_COUNT] = {1000u, 10000u, 100000u, 1000000u};
static unsigned size_count = 4;

// CPU time of this thread by default: other processes on a shared machine then slow the
// figures only through the caches they share, not through the time slices they take.
// --wall switches to the monotonic wall clock.
static clockid_t bench_clock = CLOCK_THREAD_CPUTIME_ID;

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(bench_clock, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int compare_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

double bench_median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, compare_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Ticks per repetition and repetitions for a step of `seconds_per_tick`.
typedef struct plan {
  uint32_t ticks;
  int reps;
} plan;

static plan plan_for(double seconds_per_tick) {
  plan p;
  double t = seconds_per_tick > 1e-9 ? seconds_per_tick : 1e-9;
  double ticks = REP_SECONDS / t;
  p.ticks = ticks < 1.0 ? 1u : ticks > WINDOW_TICKS ? WINDOW_TICKS : (uint32_t)ticks;
  double reps = ROW_SECONDS / (t * p.ticks);
  p.reps = reps < BENCH_REPS ? BENCH_REPS : reps > MAX_REPS ? MAX_REPS : (int)reps;
  return p;
}

// ------------------------------------------------------------------ one world

// One world per N: the agents are spawned once (the spawn figure) into a capacity that
// fits every scene; each scene restores that state, adds its behaviors and saves its own
// start, which every repetition of the scene restores.
typedef struct world_box {
  fxs_world world;
  void *memory;
  size_t size;
  fxs_agent_handle *handles;
  uint8_t *base, *snapshot; // the spawned agents; the current scene at its start
  size_t base_size, snapshot_size;
  uint32_t n;
} world_box;

static void free_box(world_box *b) {
  free(b->memory), free(b->handles), free(b->base), free(b->snapshot);
  memset(b, 0, sizeof *b);
}

static uint8_t *save_state(const fxs_world *w, size_t *size) {
  *size = fxs_world_snapshot_size(w);
  uint8_t *buffer = malloc(*size);
  if (buffer && fxs_world_save(w, buffer, *size, 0) != FXS_OK) free(buffer), buffer = 0;
  return buffer;
}

static void restore_state(world_box *b, const uint8_t *state, size_t size) {
  if (fxs_world_restore(&b->world, state, size, 0) != FXS_OK) {
    fprintf(stderr, "fxs-bench: restore failed\n");
    exit(1);
  }
}

static void restore(world_box *b) { restore_state(b, b->snapshot, b->snapshot_size); }

// Spawns the n agents into a freshly initialised world; returns the seconds taken, or a
// negative value (and the reason) when the budget ran out or a spawn failed.
static double spawn_all(world_box *b, const fxs_world_capacity *cap, char *why, size_t why_size) {
  fxs_world_def def = bench_scene_def(b->n);
  fxs_result r = fxs_world_init(&b->world, &def, cap, b->memory, b->size);
  double t0 = now_seconds();
  for (uint32_t first = 0; first < b->n && r == FXS_OK; first += 4096u) {
    uint32_t count = b->n - first < 4096u ? b->n - first : 4096u;
    r = bench_scene_spawn(&b->world, b->n, first, count, b->handles);
    if (now_seconds() - t0 > SPAWN_BUDGET_SECONDS) {
      snprintf(why, why_size, "skipped: spawning took over %.0f s (%u of %u agents)",
               SPAWN_BUDGET_SECONDS, (unsigned)(first + count), (unsigned)b->n);
      return -1.0;
    }
  }
  if (r != FXS_OK) snprintf(why, why_size, "skipped: spawn failed (%s)", fxs_result_message(r));
  return r == FXS_OK ? now_seconds() - t0 : -1.0;
}

// Initialises and spawns `reps` times (one spawn time each into spawn[]); keeps the last
// spawned state as the base. The capacity is the scene's, or with `only` ==
// BENCH_SCENE_COUNT one that fits every scene (its 1,000 empty obstacle slots cost the
// sense phase of the other scenes about 1 us per tick). Returns 0 with the reason in `why`
// when the size cannot run.
static int open_world(world_box *b, uint32_t n, bench_scene only, int reps, double *spawn,
                      char *why, size_t why_size) {
  memset(b, 0, sizeof *b);
  int fits = 0;
  fxs_world_capacity cap = only == BENCH_SCENE_COUNT ? bench_base_capacity(n, &fits)
                                                     : bench_scene_capacity(only, n, &fits);
  fxs_world_def def = bench_scene_def(n);
  b->n = n;
  b->size = fits ? fxs_world_memory_size(&cap) : 0;
  b->memory = fits ? malloc(b->size) : 0;
  b->handles = malloc(sizeof *b->handles * n);
  if (!fits || !b->memory || !b->handles ||
      fxs_world_init(&b->world, &def, &cap, b->memory, b->size) != FXS_OK) {
    snprintf(why, why_size, fits && !b->memory ? "skipped: memory" : "skipped: capacity");
    free_box(b);
    return 0;
  }
  for (int r = 0; r < reps; ++r) {
    spawn[r] = spawn_all(b, &cap, why, why_size);
    if (spawn[r] < 0.0) {
      free_box(b);
      return 0;
    }
  }
  b->base = save_state(&b->world, &b->base_size);
  if (!b->base) snprintf(why, why_size, "skipped: snapshot failed");
  return b->base != 0;
}

// Puts the world at the start of `scene`; 0 (and the reason) on failure.
static int prepare_scene(world_box *b, bench_scene scene, char *why, size_t why_size) {
  restore_state(b, b->base, b->base_size);
  fxs_result r = bench_scene_setup(&b->world, scene, b->n, b->handles);
  free(b->snapshot);
  b->snapshot = r == FXS_OK ? save_state(&b->world, &b->snapshot_size) : 0;
  if (r != FXS_OK) snprintf(why, why_size, "skipped: set-up failed (%s)", fxs_result_message(r));
  else if (!b->snapshot) snprintf(why, why_size, "skipped: snapshot failed");
  return b->snapshot != 0;
}

// Median seconds per tick, each repetition replaying the same ticks from the snapshot.
static double time_ticks(world_box *b, plan p) {
  double s[MAX_REPS];
  for (int r = 0; r < p.reps; ++r) {
    restore(b);
    double t0 = now_seconds();
    bench_fixed_world_run(&b->world, p.ticks);
    s[r] = (now_seconds() - t0) / p.ticks;
  }
  return bench_median(s, p.reps);
}

// ------------------------------------------------------------------ measurements

typedef struct flock_extra {
  int ok;
  double tick, hash, save, save_hashed, twin_tick, density;
  size_t snapshot_size;
  plan p;
  double diff1, diff_window; // largest |position difference|, world vs twin
} flock_extra;

static flock_extra flock[SIZE_COUNT];
static double spawn_time[SIZE_COUNT];
static char skip_why[SIZE_COUNT][96];

// Median seconds of one call of `what` (0: fxs_world_hash, 1: fxs_world_save,
// 2: fxs_world_save_hashed).
static double time_state_call(world_box *b, int what, uint8_t *buffer) {
  double s[MAX_REPS];
  uint64_t sink = 0;
  double t0 = now_seconds();
  sink ^= fxs_world_hash(&b->world);
  plan p = plan_for(now_seconds() - t0);
  for (int r = 0; r < p.reps; ++r) {
    t0 = now_seconds();
    for (uint32_t k = 0; k < p.ticks; ++k) {
      uint64_t h = 0;
      if (what == 0) h = fxs_world_hash(&b->world);
      else if (what == 1) fxs_world_save(&b->world, buffer, b->snapshot_size, 0);
      else fxs_world_save_hashed(&b->world, buffer, b->snapshot_size, 0, &h);
      sink ^= h;
    }
    s[r] = (now_seconds() - t0) / p.ticks;
  }
  if (sink == 42u) printf(" ");
  return bench_median(s, p.reps);
}

static double largest_difference(const world_box *b, const bench_fworld *f) {
  double worst = 0.0;
  for (uint32_t i = 0; i < b->n; ++i) {
    const fxs_agent *a = fxs_world_agent(&b->world, b->handles[i]);
    if (!a) return INFINITY;
    double dx = fabs(a->position.x / 65536.0 - f->agents[i].body.px);
    double dy = fabs(a->position.y / 65536.0 - f->agents[i].body.py);
    if (dx > worst) worst = dx;
    if (dy > worst) worst = dy;
  }
  return worst;
}

// The float twin of the flock over the same ticks, and a check that it computes what the
// world computes: the largest position difference after 1 tick and after the window.
static void measure_flock_twin(world_box *b, flock_extra *x) {
  uint32_t n = b->n;
  void *memory = malloc(bench_fworld_memory_size(n));
  if (!memory) return;
  bench_fworld f;
  double s[MAX_REPS];
  bench_fworld_init_flock(&f, n, memory);
  bench_fworld_run(&f, 1); // warm-up, as the world had
  for (int r = 0; r < x->p.reps; ++r) {
    bench_fworld_init_flock(&f, n, memory);
    double t0 = now_seconds();
    bench_fworld_run(&f, x->p.ticks);
    s[r] = (now_seconds() - t0) / x->p.ticks;
  }
  x->twin_tick = bench_median(s, x->p.reps);
  restore(b);
  bench_fworld_init_flock(&f, n, memory);
  x->density = bench_fworld_mean_neighbors(&f);
  bench_fixed_world_run(&b->world, 1);
  bench_fworld_run(&f, 1);
  x->diff1 = largest_difference(b, &f);
  bench_fixed_world_run(&b->world, x->p.ticks - 1u);
  bench_fworld_run(&f, x->p.ticks - 1u);
  x->diff_window = largest_difference(b, &f);
  free(memory);
}

static void measure_flock_extras(world_box *b, flock_extra *x) {
  uint8_t *buffer = malloc(b->snapshot_size);
  if (!buffer) return;
  restore(b);
  x->hash = time_state_call(b, 0, buffer);
  x->save = time_state_call(b, 1, buffer);
  x->save_hashed = time_state_call(b, 2, buffer);
  uint64_t one_pass = 0;
  fxs_world_save_hashed(&b->world, buffer, b->snapshot_size, 0, &one_pass);
  if (one_pass != fxs_world_hash(&b->world)) {
    fprintf(stderr, "fxs-bench: fxs_world_save_hashed and fxs_world_hash disagree\n");
    exit(1);
  }
  x->snapshot_size = b->snapshot_size;
  free(buffer);
  measure_flock_twin(b, x);
  x->ok = 1;
}

static void scene_row(world_box *b, bench_scene scene, unsigned k) {
  uint32_t n = b->n;
  char why[96];
  printf("  %-27s %8u  ", bench_scene_name(scene), (unsigned)n);
  fflush(stdout);
  if (!prepare_scene(b, scene, why, sizeof why)) {
    printf("%s\n", why);
    return;
  }
  int fits = 0;
  fxs_world_capacity cap = bench_scene_capacity(scene, n, &fits);
  double bytes = (double)fxs_world_memory_size(&cap) / n;
  double t0 = now_seconds();
  bench_fixed_world_run(&b->world, 1); // warm-up, and the size of a repetition
  plan p = plan_for(now_seconds() - t0);
  double tick = time_ticks(b, p);
  printf("%9.1f  %10.1f  %9.1f  %3ux%-2d\n", tick * 1e9 / n, 1.0 / tick, bytes, (unsigned)p.ticks,
         p.reps);
  fflush(stdout);
  if (scene == BENCH_FLOCK) {
    flock[k].tick = tick;
    flock[k].p = p;
    measure_flock_extras(b, &flock[k]);
  }
}

static int state_only; // --kernel state: the flocking rows only
static void size_rows(unsigned k) {
  world_box b;
  double spawn[BENCH_REPS];
  if (!open_world(&b, sizes[k], BENCH_SCENE_COUNT, BENCH_REPS, spawn, skip_why[k],
                  sizeof skip_why[k])) {
    for (int s = 0; s < BENCH_SCENE_COUNT; ++s) {
      printf("  %-27s %8u  %s\n", bench_scene_name((bench_scene)s), (unsigned)sizes[k],
             skip_why[k]);
    }
    return;
  }
  spawn_time[k] = bench_median(spawn, BENCH_REPS);
  for (int s = 0; s < BENCH_SCENE_COUNT; ++s) {
    if (s == BENCH_FLOCK_LOOK && sizes[k] > LOOK_MAX_AGENTS) {
      printf("  %-27s %8u  not run above %u agents (time budget)\n",
             bench_scene_name((bench_scene)s), (unsigned)sizes[k], LOOK_MAX_AGENTS);
      continue;
    }
    if (!state_only || s == BENCH_FLOCK) scene_row(&b, (bench_scene)s, k);
  }
  free_box(&b);
}

// ------------------------------------------------------------------ seek + integrate pair

typedef struct seek_arrays {
  fxs_agent *fixed;
  fxs_vec2 *targets;
  bench_fagent *twin;
  float *twin_targets;
} seek_arrays;

static double seek_difference(const seek_arrays *a, uint32_t n) {
  double worst = 0.0;
  for (uint32_t i = 0; i < n; ++i) {
    double dx = fabs(a->fixed[i].position.x / 65536.0 - a->twin[i].px);
    double dy = fabs(a->fixed[i].position.y / 65536.0 - a->twin[i].py);
    worst = dx > worst ? dx : worst;
    worst = dy > worst ? dy : worst;
  }
  return worst;
}

typedef void (*seek_run_fn)(fxs_agent *agents, const fxs_vec2 *targets, uint32_t n, uint32_t ticks);

// Library functions against the float twin on arrays of n agents, the same ticks each: one
// call of fxs_seek and fxs_agent_integrate at a time, or fxs_seek_integrate_many ("many").
static void seek_pair_row(uint32_t n, bool many) {
  seek_run_fn run = many ? bench_fixed_seek_many_run : bench_fixed_seek_run;
  seek_arrays a;
  a.fixed = malloc(sizeof *a.fixed * n), a.targets = malloc(sizeof *a.targets * n);
  a.twin = malloc(sizeof *a.twin * n), a.twin_targets = malloc(sizeof(float) * 2u * n);
  printf("  %-27s %8u  ", many ? "seek+integrate (many)" : "seek+integrate (functions)",
         (unsigned)n);
  if (!a.fixed || !a.targets || !a.twin || !a.twin_targets) {
    printf("skipped: memory\n");
  } else {
    bench_fixed_seek_init(a.fixed, a.targets, n);
    double t0 = now_seconds();
    run(a.fixed, a.targets, n, 1);
    plan p = plan_for(now_seconds() - t0);
    double fs[MAX_REPS], ff[MAX_REPS];
    for (int r = 0; r < p.reps; ++r) { // interleaved, so drift hits both sides alike
      bench_fixed_seek_init(a.fixed, a.targets, n);
      t0 = now_seconds();
      run(a.fixed, a.targets, n, p.ticks);
      fs[r] = (now_seconds() - t0) / ((double)p.ticks * n);
      bench_float_seek_init(a.twin, a.twin_targets, n);
      t0 = now_seconds();
      bench_float_seek_run(a.twin, a.twin_targets, n, p.ticks);
      ff[r] = (now_seconds() - t0) / ((double)p.ticks * n);
    }
    double fixed = bench_median(fs, p.reps), twin = bench_median(ff, p.reps);
    printf("%9.1f  %9.1f  %6.2f  %3ux%-2d  %.4f\n", fixed * 1e9, twin * 1e9, fixed / twin,
           (unsigned)p.ticks, p.reps, seek_difference(&a, n));
  }
  free(a.fixed), free(a.targets), free(a.twin), free(a.twin_targets);
}

// ------------------------------------------------------------------ the report

static void print_state_section(unsigned count) {
  printf(
      "\n== state hash and snapshot, flocking world (fxs_world_hash, fxs_world_save, and both\n"
      "   in one pass: fxs_world_save_hashed), as %% of a tick\n");
  printf("  %8s  %10s  %9s %6s  %9s %6s  %6s  %9s %6s\n", "agents", "tick us", "hash us", "%",
         "save us", "%", "sum %", "one pass", "%");
  for (unsigned k = 0; k < count; ++k) {
    if (!flock[k].ok) {
      printf("  %8u  %s\n", (unsigned)sizes[k], skip_why[k][0] ? skip_why[k] : "skipped");
      continue;
    }
    const flock_extra *x = &flock[k];
    printf(
        "  %8u  %10.1f  %9.1f %5.1f%%  %9.1f %5.1f%%  %5.1f%%  %9.1f %5.1f%%   (snapshot %zu "
        "bytes)\n",
        (unsigned)sizes[k], x->tick * 1e6, x->hash * 1e6, 100.0 * x->hash / x->tick, x->save * 1e6,
        100.0 * x->save / x->tick, 100.0 * (x->hash + x->save) / x->tick, x->save_hashed * 1e6,
        100.0 * x->save_hashed / x->tick, x->snapshot_size);
  }
}

static void print_spawn_section(unsigned count) {
  printf("\n== spawn: N spawn commands through fxs_world_apply into an empty world\n");
  printf("  %8s  %12s  %14s\n", "agents", "total ms", "ns per spawn");
  for (unsigned k = 0; k < count; ++k) {
    if (spawn_time[k] <= 0.0) {
      printf("  %8u  %s\n", (unsigned)sizes[k], skip_why[k]);
      continue;
    }
    printf("  %8u  %12.2f  %14.1f\n", (unsigned)sizes[k], spawn_time[k] * 1e3,
           spawn_time[k] * 1e9 / sizes[k]);
  }
}

static void print_ratio_section(unsigned count) {
  printf("\n== fixed point (the library) against float twins of the same loops\n");
  printf(
      "  ns per agent-update; ratio = fixed / float; diff = largest |position difference|\n"
      "  between the two, world units, after the tk ticks (seek) or after 1 tick / tk ticks\n"
      "  (flock). seek+integrate: fxs_seek + fxs_agent_integrate on an array of fxs_agent\n"
      "  against the twin on an array of float agents (many: the same agents and results\n"
      "  through fxs_seek_integrate_many); flock: fxs_world_step against the\n"
      "  twin's world loop (same grid, 16 nearest, behaviors, manager, integration)\n");
  printf("  %-27s %8s  %9s  %9s  %6s  %6s  %s\n", "pair", "agents", "fixed", "float", "ratio",
         "tk x n", "diff");
  for (unsigned k = 0; k < count; ++k) seek_pair_row(sizes[k], false);
  for (unsigned k = 0; k < count; ++k) seek_pair_row(sizes[k], true);
  for (unsigned k = 0; k < count; ++k) {
    printf("  %-27s %8u  ", "flock (world step)", (unsigned)sizes[k]);
    if (!flock[k].ok) {
      printf("%s\n", skip_why[k][0] ? skip_why[k] : "skipped");
      continue;
    }
    const flock_extra *x = &flock[k];
    printf("%9.1f  %9.1f  %6.2f  %3ux%-2d  %.4f / %.4f\n", x->tick * 1e9 / sizes[k],
           x->twin_tick * 1e9 / sizes[k], x->tick / x->twin_tick, (unsigned)x->p.ticks, x->p.reps,
           x->diff1, x->diff_window);
  }
  printf("  flock density at the start, mean other agents within %d units:", BENCH_NEIGHBOR_RADIUS);
  for (unsigned k = 0; k < count; ++k) {
    if (flock[k].ok) printf(" %.1f (N=%u)", flock[k].density, (unsigned)sizes[k]);
  }
  printf("\n");
}

// A crowd piled on one point: N agents with separation at the very same spot, the first two
// ticks (the neighbor search stops at sixteen agents on the spot, so this costs about what
// a spread crowd costs).
static void print_crowd_section(void) {
  enum { AGENTS = 65534 };
  fxs_world_capacity cap = {AGENTS, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  size_t size = fxs_world_memory_size(&cap);
  void *memory = malloc(size);
  fxs_world w;
  fxs_world_def def = fxs_default_world_def();
  if (!memory || fxs_world_init(&w, &def, &cap, memory, size) != FXS_OK) {
    free(memory);
    return;
  }
  for (uint32_t i = 0; i < AGENTS; ++i) {
    fxs_spawn_def sd = fxs_default_spawn_def();
    sd.position = fxs_vec2_make(FXS_INT(100), FXS_INT(100));
    fxs_command c = fxs_command_spawn(&sd);
    fxs_agent_handle h = {0};
    fxs_world_apply(&w, &c, &h);
    c = fxs_command_add_separation(h, fxs_default_blend(), FXS_INT(24));
    fxs_world_apply(&w, &c, 0);
  }
  double t0 = now_seconds();
  fxs_world_step(&w, 0, 0, 0);
  double t1 = now_seconds();
  fxs_world_step(&w, 0, 0, 0);
  double t2 = now_seconds();
  printf("\n== %u agents on one point, separation only\n  first tick %.1f ms, second %.1f ms\n",
         (unsigned)AGENTS, 1e3 * (t1 - t0), 1e3 * (t2 - t1));
  free(memory);
}

// The integration field over the whole grid and A* between random cells, each a median.
static void print_nav_section(void) {
  bench_nav_box b;
  if (!bench_nav_open(&b, 1)) return;
  enum { SEARCHES = 20 };
  double field[BENCH_REPS], astar[BENCH_REPS];
  uint32_t settled = 0;
  uint64_t expanded = 0;
  for (int r = 0; r < BENCH_REPS; ++r) {
    double t0 = now_seconds();
    settled = bench_nav_field_run(&b.field, &b.grid, BENCH_NAV_GOAL, 1);
    double t1 = now_seconds();
    expanded = bench_nav_astar_run(&b.search, &b.grid, SEARCHES);
    double t2 = now_seconds();
    field[r] = t1 - t0, astar[r] = t2 - t1;
  }
  double f = bench_median(field, BENCH_REPS), a = bench_median(astar, BENCH_REPS);
  printf("\n== navigation, %u x %u grid (walls with doors every 32 columns, mud)\n",
         (unsigned)BENCH_NAV_SIDE, (unsigned)BENCH_NAV_SIDE);
  printf("  integration field: %u cells settled in %.2f ms, %.1f ns a cell\n", (unsigned)settled,
         f * 1e3, f * 1e9 / settled);
  printf("  A*: %d searches, %llu expansions in %.2f ms, %.2f M expansions/s\n", SEARCHES,
         (unsigned long long)expanded, a * 1e3, (double)expanded / a * 1e-6);
  bench_nav_free(&b);
}

static void report(unsigned count) {
  printf(
      "fxs-bench: gcc %s, %zu-bit. Every figure is a median over n >= %d repetitions of\n"
      "tk ticks (column \"tk x n\"), timed with the %s\n",
      __VERSION__, sizeof(void *) * 8, BENCH_REPS,
      bench_clock == CLOCK_MONOTONIC ? "wall clock" : "CPU time of the benchmark thread");
  printf(
      "scenes: uniform start in a square of side sqrt(N * pi * %d^2 / %d) (about %d other\n"
      "agents within the neighbor radius %d), speed 3, force 0.2, fixed orientation unless\n"
      "named; each repetition replays the same ticks from a snapshot\n",
      BENCH_NEIGHBOR_RADIUS, BENCH_DENSITY, BENCH_DENSITY, BENCH_NEIGHBOR_RADIUS);
  printf("\n== world step per scenario (fxs_world_step)\n");
  printf("  %-27s %8s  %9s  %10s  %9s  %6s\n", "scenario", "agents", "ns/update", "ticks/s",
         "bytes/agt", "tk x n");
  for (unsigned k = 0; k < count; ++k) size_rows(k);
  print_state_section(count);
  print_spawn_section(count);
  print_ratio_section(count);
  bench_print_workers();
  print_crowd_section();
  print_nav_section();
  bench_nav_mesh_report(now_seconds);
  bench_nav_crowd_report(now_seconds);
  bench_nav_map_report(now_seconds);
  static const uint32_t circle_sizes[] = {250u, 1000u, 10000u};
  bench_circle_report(circle_sizes, 3u, 0u, now_seconds);
}

// ------------------------------------------------------------------ one kernel (callgrind)

// Runs one kernel once after its set-up, so that a profiler collecting only inside the
// kernel function sees exactly agents * ticks agent-updates; prints the kernel's own time
// (set-up excluded), for quick before/after comparisons.
static int run_kernel(const char *name, uint32_t n, uint32_t ticks) {
  double t0 = 0.0, seconds = 0.0;
  if (strcmp(name, "seek-fixed") == 0 || strcmp(name, "seek-float") == 0 ||
      strcmp(name, "seek-many") == 0) {
    seek_arrays a;
    a.fixed = malloc(sizeof *a.fixed * n), a.targets = malloc(sizeof *a.targets * n);
    a.twin = malloc(sizeof *a.twin * n), a.twin_targets = malloc(sizeof(float) * 2u * n);
    if (!a.fixed || !a.targets || !a.twin || !a.twin_targets) return 1;
    bench_fixed_seek_init(a.fixed, a.targets, n);
    bench_float_seek_init(a.twin, a.twin_targets, n);
    t0 = now_seconds();
    if (strcmp(name, "seek-fixed") == 0) bench_fixed_seek_run(a.fixed, a.targets, n, ticks);
    else if (strcmp(name, "seek-many") == 0)
      bench_fixed_seek_many_run(a.fixed, a.targets, n, ticks);
    else bench_float_seek_run(a.twin, a.twin_targets, n, ticks);
    seconds = now_seconds() - t0;
    free(a.fixed), free(a.targets), free(a.twin), free(a.twin_targets);
  } else if (strcmp(name, "flock-fixed") == 0 || strcmp(name, "seek-world") == 0 ||
             strcmp(name, "avoid-world") == 0 || strcmp(name, "hash-flock") == 0) {
    world_box b;
    double spawn;
    char why[96];
    bench_scene scene = name[0] == 's' ? BENCH_SEEK : name[0] == 'a' ? BENCH_AVOID : BENCH_FLOCK;
    if (!open_world(&b, n, scene, 1, &spawn, why, sizeof why) ||
        !prepare_scene(&b, scene, why, sizeof why)) {
      fprintf(stderr, "fxs-bench: %s\n", why);
      return 1;
    }
    if (name[0] == 'h') { // the flock after one tick, hashed `ticks` times
      bench_fixed_world_run(&b.world, 1);
      t0 = now_seconds();
      uint64_t sink = bench_fixed_hash_run(&b.world, ticks);
      seconds = now_seconds() - t0;
      printf("hash %016llx, sink %016llx\n", (unsigned long long)fxs_world_hash(&b.world),
             (unsigned long long)sink);
    } else {
      t0 = now_seconds();
      bench_fixed_world_run(&b.world, ticks);
      seconds = now_seconds() - t0;
      printf("state hash after the run %016llx\n", (unsigned long long)fxs_world_hash(&b.world));
    }
    free_box(&b);
  } else if (strcmp(name, "nav-field") == 0 || strcmp(name, "nav-field-open") == 0 ||
             strcmp(name, "nav-astar") == 0) {
    // --ticks runs of the field over the whole grid, or --ticks searches
    bench_nav_box b;
    if (!bench_nav_open(&b, strcmp(name, "nav-field-open") != 0)) return 1;
    t0 = now_seconds();
    uint64_t work = name[4] == 'f' ? bench_nav_field_run(&b.field, &b.grid, BENCH_NAV_GOAL, ticks)
                                   : bench_nav_astar_run(&b.search, &b.grid, ticks);
    seconds = now_seconds() - t0;
    printf("%s: %u runs, %llu %s, %.1f ns each\n", name, (unsigned)ticks, (unsigned long long)work,
           name[4] == 'f' ? "cells settled" : "cells expanded", seconds * 1e9 / (double)work);
    bench_nav_free(&b);
    return 0;
  } else if (strcmp(name, "nav-mesh") == 0) {
    return bench_nav_mesh_kernel(n, ticks, now_seconds);
  } else if (strcmp(name, "flock-float") == 0) {
    void *memory = malloc(bench_fworld_memory_size(n));
    bench_fworld f;
    if (!memory) return 1;
    bench_fworld_init_flock(&f, n, memory);
    t0 = now_seconds();
    bench_fworld_run(&f, ticks);
    seconds = now_seconds() - t0;
    free(memory);
  } else {
    fprintf(stderr, "fxs-bench: unknown kernel %s\n", name);
    return 2;
  }
  printf("%s: %u agents x %u ticks = %llu agent-updates", name, (unsigned)n, (unsigned)ticks,
         (unsigned long long)n * ticks);
  if (seconds > 0.0) printf(", %.1f ns each", seconds * 1e9 / ((double)n * ticks));
  printf("\n");
  return 0;
}

// Reads a comma-separated list of at most `capacity` whole numbers in [least, most] into
// out[] and their count into *count; 0 on a malformed list.
static int parse_list(const char *list, uint32_t *out, unsigned capacity, unsigned long least,
                      unsigned long most, unsigned *count) {
  *count = 0;
  while (*list && *count < capacity) {
    char *end;
    unsigned long v = strtoul(list, &end, 10);
    if (end == list || v < least || v > most || (*end && *end != ',')) return 0;
    out[(*count)++] = (uint32_t)v;
    list = *end ? end + 1 : end;
  }
  return *count > 0 && !*list;
}

// Wall counts of --walls (each at most 65535; 0 allowed).
static uint32_t wall_counts[BENCH_MAX_WALL_COUNTS];
static unsigned wall_count;

// A whole number of at most 9 digits (no sign, nothing after it) into *out: the counts of
// --agents, --ticks and --margin. 0 when v is not one.
static int parse_count(const char *v, uint32_t *out) {
  char *end;
  if (*v < '0' || *v > '9' || strlen(v) > 9u) return 0;
  unsigned long n = strtoul(v, &end, 10);
  if (*end) return 0;
  *out = (uint32_t)n;
  return 1;
}

int main(int argc, char **argv) {
  const char *kernel = 0;
  uint32_t agents = 1000, ticks = 10;
  int sizes_given = 0, ticks_given = 0, walls_given = 0, step = 2;
  for (int i = 1; i < argc; i += step) {
    step = 2; // an option and its value; a flag alone sets 1
    const char *v = i + 1 < argc ? argv[i + 1] : 0;
    int ok = v != 0;
    if (ok && strcmp(argv[i], "--kernel") == 0) kernel = v;
    else if (ok && strcmp(argv[i], "--agents") == 0) ok = parse_count(v, &agents);
    else if (ok && strcmp(argv[i], "--ticks") == 0) ok = ticks_given = parse_count(v, &ticks);
    else if (ok && strcmp(argv[i], "--margin") == 0) ok = parse_count(v, &bench_circle_margin);
    else if (ok && strcmp(argv[i], "--twin-grid") == 0) {
      bench_twin_library_grid = strcmp(v, "library") == 0;
      ok = bench_twin_library_grid || strcmp(v, "own") == 0;
    } else if (ok && strcmp(argv[i], "--sizes") == 0)
      ok = sizes_given = parse_list(v, sizes, SIZE_COUNT, 1, 0xFFFFFFFFul, &size_count);
    else if (ok && strcmp(argv[i], "--walls") == 0)
      ok = walls_given = parse_list(v, wall_counts, BENCH_MAX_WALL_COUNTS, 0, 65535ul, &wall_count);
    else if (strcmp(argv[i], "--wall") == 0) bench_clock = CLOCK_MONOTONIC, step = 1, ok = 1;
    else ok = 0;
    if (!ok) {
      fprintf(
          stderr,
          "usage: fxs-bench [--sizes N,N,...] [--wall] | --kernel NAME "
          "[--agents N] [--ticks T] [--margin U] [--twin-grid own|library] [--walls N,N,...]\n");
      return 2;
    }
  }
  if (kernel && strcmp(kernel, "state") == 0) {
    state_only = 1;
    for (unsigned k = 0; k < size_count; ++k) size_rows(k);
    print_state_section(size_count);
    return 0;
  }
  if (kernel && strcmp(kernel, "workers") == 0) {
    bench_print_workers();
    return 0;
  }
  if (kernel && strcmp(kernel, "seek-pair") == 0) {
    static const uint32_t seek_sizes[] = {1000u, 10000u};
    printf("  %-27s %8s  %9s  %9s  %6s  %6s  %s\n", "pair", "agents", "fixed", "float", "ratio",
           "tk x n", "diff");
    for (int many = 0; many <= 1; ++many) {
      for (unsigned k = 0; k < (sizes_given ? size_count : 2u); ++k)
        seek_pair_row(sizes_given ? sizes[k] : seek_sizes[k], many != 0);
    }
    return 0;
  }
  if (kernel && strcmp(kernel, "circle") == 0) {
    static const uint32_t circle_sizes[] = {250u, 1000u, 10000u};
    if (ticks_given && ticks == 0) {
      fprintf(stderr,
              "fxs-bench: --ticks for the circle kernel is at least 1 (at most that "
              "many ticks of each size)\n");
      return 2;
    }
    uint32_t window = ticks_given ? ticks : 0u; // 0: the usual windows
    if (sizes_given) bench_circle_report(sizes, size_count, window, now_seconds);
    else bench_circle_report(circle_sizes, 3u, window, now_seconds);
    return 0;
  }
  if (kernel && strncmp(kernel, "circle-", 7) == 0 &&
      (strcmp(kernel + 7, "fixed") == 0 || strcmp(kernel + 7, "float") == 0)) {
    return bench_circle_kernel(kernel[7] == 'f' && kernel[8] == 'l', agents, ticks);
  }
  if (kernel && (strcmp(kernel, "rts") == 0 || strcmp(kernel, "rts-mesh") == 0)) {
    static const uint32_t rts_sizes[] = {1000u, 5000u}, rts_walls[] = {0u, 316u};
    bench_rts_report(sizes_given ? sizes : rts_sizes, sizes_given ? size_count : 2u,
                     walls_given ? wall_counts : rts_walls, walls_given ? wall_count : 2u,
                     ticks_given ? ticks : 10u, kernel[3] == '-');
    return 0;
  }
  if (kernel && strcmp(kernel, "rts-move") == 0) {
    static const uint32_t move_sizes[] = {10000u}, move_walls[] = {316u};
    bench_rts_move_report(sizes_given ? sizes : move_sizes, sizes_given ? size_count : 1u,
                          walls_given ? wall_counts : move_walls, walls_given ? wall_count : 1u,
                          ticks_given ? ticks : 60u);
    return 0;
  }
  if (kernel && strcmp(kernel, "nav-crowd") == 0) {
    bench_nav_crowd_report(now_seconds);
    return 0;
  }
  if (kernel && strcmp(kernel, "nav-map") == 0) {
    bench_nav_map_report(now_seconds);
    return 0;
  }
  if (kernel && strcmp(kernel, "nav-mesh-grid") == 0) {
    bench_nav_mesh_grid_report(now_seconds);
    return 0;
  }
  if (kernel &&
      (strcmp(kernel, "nav-crowd-navigate") == 0 || strcmp(kernel, "nav-crowd-orca") == 0)) {
    return bench_nav_crowd_kernel(kernel[10] == 'n', ticks);
  }
  if (kernel) return run_kernel(kernel, agents, ticks);
  report(size_count);
  return 0;
}
