// fixsteer list, record and trace (commands.h): scenarios run tick by tick, and for trace
// also a replay re-simulated (source.h).
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fixsteer/fixsteer.h"
#include "fixsteer/replay.h"
#include "fixsteer/world.h"
#include "cli.h"
#include "commands.h"
#include "output.h"
#include "progress.h"
#include "scenario.h"
#include "session.h"
#include "source.h"

static double units(fix16_t v) { return v / 65536.0; }

int cmd_list(int argc, char **argv) {
  options o;
  int done = command_options("list", argc, argv, 0, &o);
  if (done >= 0) return done;
  uint32_t n;
  const scenario *list = scenario_list(&n);
  for (uint32_t i = 0; i < n; ++i) {
    printf("%-15s %5u ticks  %s\n", list[i].name, list[i].default_ticks, list[i].summary);
  }
  return EXIT_OK;
}

static bool write_file(void *user, const uint8_t *bytes, size_t size) {
  return fwrite(bytes, 1, size, (FILE *)user) == size;
}

int cmd_record(int argc, char **argv) {
  options o;
  int done = command_options("record", argc, argv, 0, &o);
  if (done >= 0) return done;
  if (!o.scenario || !o.out) return fail_usage("record", "needs --scenario and --out", 0);
  session s;
  if (session_start(&s, o.scenario, &o.yaml) != EXIT_OK) {
    session_end(&s);
    return EXIT_BAD;
  }
  long ticks = o.ticks >= 0 ? o.ticks : (long)s.sc->default_ticks;
  output out;
  // Room for the fullest state the scenario's capacities allow.
  size_t scratch_size = fxs_world_snapshot_bound(&s.sc->capacity);
  uint8_t *scratch = malloc(scratch_size);
  fxs_result r = FXS_ERR_BUFFER_TOO_SMALL;
  fxs_replay_writer w;
  progress p;
  progress_start(&p, "record", (uint64_t)ticks, o.quiet);
  if (scratch && output_open(&out, o.out)) {
    r = fxs_replay_writer_begin(&w, write_file, out.f, &s.world, (uint32_t)o.keyframe, scratch,
                                scratch_size);
    for (long t = 0; t < ticks && r == FXS_OK; ++t) {
      uint32_t n = session_tick(&s);
      r = fxs_replay_writer_tick(&w, &s.world, s.commands, n);
      progress_show(&p, (uint64_t)t + 1u, s.world.tick);
    }
    if (r == FXS_OK) r = fxs_replay_writer_end(&w, &s.world);
    long bytes = ftell(out.f);
    progress_end(&p);
    if (r != FXS_OK)
      fprintf(stderr, "fixsteer: writing %s failed: %s\n", o.out, fxs_result_message(r));
    if (!output_finish(&out, r == FXS_OK) && r == FXS_OK) r = FXS_ERR_BUFFER_TOO_SMALL;
    if (r == FXS_OK) {
      printf("recorded %s: scenario %s, %ld ticks, %ld bytes, final hash 0x%016llx\n", o.out,
             s.sc->name, ticks, bytes, (unsigned long long)w.last_hash);
    }
  } else if (!scratch) {
    fprintf(stderr, "fixsteer: %s: out of memory for a snapshot of %zu bytes\n", o.scenario,
            scratch_size);
  }
  free(scratch);
  session_end(&s);
  return r == FXS_OK ? EXIT_OK : EXIT_BAD;
}

int cmd_trace(int argc, char **argv) {
  options o;
  int done = command_options("trace", argc, argv, 1, &o);
  if (done >= 0) return done;
  if ((o.scenario != 0) == (o.file_count == 1))
    return fail_usage("trace", "needs --scenario or one replay FILE", 0);
  // On a terminal the rows themselves show how far it got.
  o.quiet = o.quiet || isatty(STDOUT_FILENO);
  source src;
  int opened = source_open(&src, "trace", &o, o.scenario ? -1 : 0);
  if (opened != EXIT_OK) return opened;
  printf("tick,agent,x,y,vx,vy,orientation\n");
  while (source_step(&src)) {
    const fxs_world *w = src.world;
    for (uint32_t i = 0; i < w->capacity.agents; ++i) {
      const fxs_agent_slot *a = &w->agents[i];
      if (!a->alive) continue;
      printf("%u,%u,%.5f,%.5f,%.5f,%.5f,%.5f\n", w->tick, i, units(a->body.position.x),
             units(a->body.position.y), units(a->body.velocity.x), units(a->body.velocity.y),
             units(a->body.orientation));
    }
  }
  fflush(stdout);
  int code = source_report_divergence(&src);
  source_close(&src);
  return code;
}
