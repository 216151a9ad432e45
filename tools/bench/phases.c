// fxs-bench's profiler of the step (fixsteer/step_profile.h): the time of each phase by the
// caller's clock, summed over the ticks it is attached for.
#include <stdio.h>
#include <string.h>

#include "bench.h"

static void mark(fxs_step_phase phase, int begins, void *user_context) {
  bench_phases *p = (bench_phases *)user_context;
  if ((unsigned)phase >= FXS_PHASE_COUNT) return;
  if (begins) {
    p->started[phase] = p->now();
    return;
  }
  p->spent[phase] += p->now() - p->started[phase];
  p->marked[phase] = 1;
  if (phase == FXS_PHASE_STEP) p->ticks++;
}

void bench_phases_attach(bench_phases *p, fxs_world *world, double (*now)(void)) {
  memset(p, 0, sizeof *p);
  p->now = now;
  fxs_step_profiler profiler = {mark, p};
  fxs_world_set_profiler(world, &profiler);
}

void bench_phases_detach(fxs_world *world) { fxs_world_set_profiler(world, 0); }

// ms a tick of phase k on p.
static double per_tick(const bench_phases *p, unsigned k) {
  return p->ticks ? p->spent[k] * 1e3 / p->ticks : 0;
}

void bench_phases_print(const bench_phases *one, const bench_phases *two) {
  printf("          phases, ms a tick, 1 worker / 2 workers:");
  unsigned column = 50;
  for (unsigned k = FXS_PHASE_COMMANDS; k < FXS_PHASE_COUNT; ++k) {
    if (!one->marked[k] && !two->marked[k]) continue;
    char item[64];
    int n = snprintf(item, sizeof item, " %s %.2f / %.2f", fxs_step_phase_name((fxs_step_phase)k),
                     per_tick(one, k), per_tick(two, k));
    if (column + (unsigned)n > 100) printf("\n           "), column = 11;
    fputs(item, stdout);
    column += (unsigned)n;
  }
  printf("\n");
}
