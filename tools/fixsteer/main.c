// fixsteer: record lockstep sessions of the built-in scenarios and prove that a replay
// reproduces them bit for bit.
//
// Exit codes: 0 success, 1 divergence, 2 bad usage or bad input.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixsteer/fixsteer.h"
#include "fixsteer/replay.h"
#include "fixsteer/snapshot.h"
#include "fixsteer/world.h"
#include "scenario.h"
#ifndef FXS_TOOL_NO_YAML
#include "scenario_file.h"
#else
// Built with NO_YAML=1: no scenario files, the built-in scenarios and replays only.
static const scenario *scenario_file_load(const char *path, char *error, size_t size) {
  snprintf(error, size, "%s: this fixsteer was built without scenario files (NO_YAML=1)", path);
  return 0;
}
static void scenario_file_free(const scenario *sc) { (void)sc; }
#endif

enum { EXIT_OK = 0, EXIT_DIVERGED = 1, EXIT_BAD = 2 };

static const char *const usage_text =
    "usage: fixsteer COMMAND [options]\n"
    "\n"
    "  list                                   the built-in scenarios\n"
    "  record --scenario NAME|FILE --out FILE [--ticks N] [--keyframe K]\n"
    "                                         run a scenario (built-in or a YAML file), record it\n"
    "  verify FILE                            re-simulate a replay, check every tick's hash\n"
    "  diff A B                               first tick where two recordings differ\n"
    "  dump FILE                              header, per-tick commands and hashes\n"
    "  trace --scenario NAME|FILE [--ticks N] CSV: tick,agent,x,y,vx,vy,orientation\n"
    "\n"
    "Every command accepts --help. Exit codes: 0 ok, 1 divergence, 2 bad usage or input.\n";

static double units(fix16_t v) { return v / 65536.0; }

static int fail_usage(const char *msg, const char *arg) {
  fprintf(stderr, "fixsteer: %s%s%s\n\n%s", msg, arg ? ": " : "", arg ? arg : "", usage_text);
  return EXIT_BAD;
}

// Options shared by record and trace.
typedef struct options {
  const char *scenario;
  const char *out;
  long ticks;
  long keyframe;
  int help;
} options;

static int parse_options(int argc, char **argv, options *o) {
  o->scenario = 0, o->out = 0, o->ticks = -1, o->keyframe = 250, o->help = 0;
  for (int i = 0; i < argc; ++i) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : 0;
    char *end = 0;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      o->help = 1;
      continue;
    }
    if (!v) return fail_usage("missing value for", a);
    if (strcmp(a, "--scenario") == 0) o->scenario = v;
    else if (strcmp(a, "--out") == 0) o->out = v;
    else if (strcmp(a, "--ticks") == 0 || strcmp(a, "--keyframe") == 0) {
      errno = 0;
      long n = strtol(v, &end, 10);
      if (errno || *end || n < 0 || n > 10000000) return fail_usage("not a count", v);
      if (a[2] == 't') o->ticks = n;
      else o->keyframe = n;
    } else {
      return fail_usage("unknown option", a);
    }
    ++i;
  }
  return EXIT_OK;
}

// ------------------------------------------------------------------ running a scenario

typedef struct session {
  const scenario *sc;
  const scenario *loaded; // a scenario file, freed at the end
  fxs_world world;
  void *memory;
  scenario_state state;
} session;

// A built-in scenario by name, or a scenario file by path.
static int session_start(session *s, const char *name) {
  s->sc = scenario_find(name);
  s->loaded = 0;
  if (!s->sc) {
    FILE *probe = fopen(name, "rb");
    if (!probe) {
      fprintf(stderr, "fixsteer: unknown scenario '%s': not a built-in name (see: fixsteer list) nor a file\n", name);
      return EXIT_BAD;
    }
    fclose(probe);
    char error[512];
    s->sc = s->loaded = scenario_file_load(name, error, sizeof error);
    if (!s->sc) return fprintf(stderr, "fixsteer: %s\n", error), EXIT_BAD;
  }
  fxs_world_def def;
  s->sc->configure(s->sc, &def);
  size_t size = fxs_world_memory_size(&s->sc->capacity);
  s->memory = calloc(1, size);
  memset(&s->state, 0, sizeof s->state);
  if (!s->memory || fxs_world_init(&s->world, &def, &s->sc->capacity, s->memory, size) != FXS_OK) {
    fprintf(stderr, "fixsteer: cannot set up the world of '%s'\n", name);
    return EXIT_BAD;
  }
  s->sc->add_paths(s->sc, &s->world);
  return EXIT_OK;
}

// One tick: the scenario's commands, then the step. Returns the number of commands.
static uint32_t session_tick(session *s, fxs_command *commands) {
  uint32_t n = s->sc->commands(s->sc, &s->world, &s->state, commands);
  fxs_world_step(&s->world, commands, n, 0);
  return n;
}

static bool write_file(void *user, const uint8_t *bytes, size_t size) {
  return fwrite(bytes, 1, size, (FILE *)user) == size;
}

static int cmd_record(int argc, char **argv) {
  options o;
  if (parse_options(argc, argv, &o) != EXIT_OK) return EXIT_BAD;
  if (o.help) return printf("usage: fixsteer record --scenario NAME --out FILE [--ticks N] [--keyframe K]\n"
                            "Runs a built-in scenario and records its commands and per-tick hashes.\n"), EXIT_OK;
  if (!o.scenario || !o.out) return fail_usage("record needs --scenario and --out", 0);
  session s;
  if (session_start(&s, o.scenario) != EXIT_OK) return EXIT_BAD;
  long ticks = o.ticks >= 0 ? o.ticks : (long)s.sc->default_ticks;
  FILE *f = fopen(o.out, "wb");
  if (!f) return fprintf(stderr, "fixsteer: cannot write %s: %s\n", o.out, strerror(errno)), EXIT_BAD;
  size_t scratch_size = 1u << 20;
  uint8_t *scratch = malloc(scratch_size);
  fxs_replay_writer w;
  fxs_result r = fxs_replay_writer_begin(&w, write_file, f, &s.world, (uint32_t)o.keyframe, scratch, scratch_size);
  fxs_command commands[SCENARIO_MAX_COMMANDS];
  for (long t = 0; t < ticks && r == FXS_OK; ++t) {
    uint32_t n = session_tick(&s, commands);
    r = fxs_replay_writer_tick(&w, &s.world, commands, n);
    if (ticks >= 10000 && t % (ticks / 10) == 0) fprintf(stderr, "record: tick %ld of %ld\n", t, ticks);
  }
  if (r == FXS_OK) r = fxs_replay_writer_end(&w, &s.world);
  long bytes = ftell(f);
  if (fclose(f) != 0 && r == FXS_OK) r = FXS_ERR_BUFFER_TOO_SMALL;
  if (r == FXS_OK) {
    printf("recorded %s: scenario %s, %ld ticks, %ld bytes, final hash 0x%016llx\n", o.out, s.sc->name,
           ticks, bytes, (unsigned long long)w.last_hash);
  } else {
    fprintf(stderr, "fixsteer: writing %s failed: %s\n", o.out, fxs_result_message(r));
  }
  free(scratch);
  free(s.memory);
  scenario_file_free(s.loaded);
  if (r != FXS_OK) return EXIT_BAD;
  return EXIT_OK;
}

static int cmd_trace(int argc, char **argv) {
  options o;
  if (parse_options(argc, argv, &o) != EXIT_OK) return EXIT_BAD;
  if (o.help) return printf("usage: fixsteer trace --scenario NAME [--ticks N]\n"
                            "Prints tick,agent,x,y,vx,vy,orientation as CSV, one row per live agent per tick.\n"), EXIT_OK;
  if (!o.scenario) return fail_usage("trace needs --scenario", 0);
  session s;
  if (session_start(&s, o.scenario) != EXIT_OK) return EXIT_BAD;
  long ticks = o.ticks >= 0 ? o.ticks : (long)s.sc->default_ticks;
  fxs_command commands[SCENARIO_MAX_COMMANDS];
  printf("tick,agent,x,y,vx,vy,orientation\n");
  for (long t = 0; t < ticks; ++t) {
    session_tick(&s, commands);
    for (uint32_t i = 0; i < s.world.capacity.agents; ++i) {
      const fxs_agent_slot *a = &s.world.agents[i];
      if (!a->alive) continue;
      printf("%u,%u,%.5f,%.5f,%.5f,%.5f,%.5f\n", s.world.tick, i, units(a->body.position.x),
             units(a->body.position.y), units(a->body.velocity.x), units(a->body.velocity.y),
             units(a->body.orientation));
    }
  }
  free(s.memory);
  scenario_file_free(s.loaded);
  return EXIT_OK;
}

static int cmd_list(void) {
  uint32_t n;
  const scenario *list = scenario_list(&n);
  for (uint32_t i = 0; i < n; ++i) {
    printf("%-15s %5u ticks  %s\n", list[i].name, list[i].default_ticks, list[i].summary);
  }
  return EXIT_OK;
}

// ------------------------------------------------------------------ reading replays

typedef struct file {
  const char *name;
  uint8_t *data;
  size_t size;
} file;

static int read_file(const char *name, file *f) {
  f->name = name, f->data = 0, f->size = 0;
  FILE *in = fopen(name, "rb");
  if (!in) return fprintf(stderr, "fixsteer: cannot read %s: %s\n", name, strerror(errno)), EXIT_BAD;
  size_t cap = 1u << 16;
  f->data = malloc(cap);
  size_t n;
  while (f->data && (n = fread(f->data + f->size, 1, cap - f->size, in)) > 0) {
    f->size += n;
    if (f->size == cap) f->data = realloc(f->data, cap *= 2);
  }
  fclose(in);
  if (!f->data) return fprintf(stderr, "fixsteer: out of memory reading %s\n", name), EXIT_BAD;
  return EXIT_OK;
}

static int bad_input(const file *f, size_t offset, fxs_result r) {
  fprintf(stderr, "fixsteer: %s: byte %zu: %s\n", f->name, offset, fxs_result_message(r));
  return EXIT_BAD;
}

static void print_difference(const char *who, const fxs_world_difference *d, uint32_t tick) {
  if (d->agent >= 0) {
    printf("  at tick %u (keyframe): agent %d, field %s: %s %lld (%.5f), re-simulated %lld (%.5f)\n", tick,
           d->agent, d->field, who, (long long)d->b, d->b / 65536.0, (long long)d->a, d->a / 65536.0);
  } else {
    printf("  at tick %u (keyframe): %s: %s %lld, re-simulated %lld\n", tick, d->field, who,
           (long long)d->b, (long long)d->a);
  }
}

static int cmd_verify(int argc, char **argv) {
  if (argc != 1 || strcmp(argv[0], "--help") == 0) {
    if (argc == 1) return printf("usage: fixsteer verify FILE\nRe-simulates FILE and checks every tick's state hash.\n"), EXIT_OK;
    return fail_usage("verify takes one FILE", 0);
  }
  file f;
  if (read_file(argv[0], &f) != EXIT_OK) return EXIT_BAD;
  size_t need = fxs_replay_verify_memory_size(f.data, f.size, 0);
  void *memory = need ? calloc(1, need) : 0;
  fxs_verify_report rep;
  fxs_replay_verify(f.data, f.size, 0, memory, need, &rep);
  free(memory);
  int code = EXIT_OK;
  if (rep.result == FXS_OK) {
    printf("%s: %u ticks verified, final hash 0x%016llx\n", f.name, rep.ticks, (unsigned long long)rep.final_hash);
  } else if (fxs_verify_diverged(rep.result)) {
    printf("%s: DIVERGED at tick %u (byte %zu): %s", f.name, rep.first_bad_tick, rep.error_offset,
           fxs_result_message(rep.result));
    if (rep.result == FXS_ERR_HASH_MISMATCH || rep.result == FXS_ERR_END_MISMATCH) {
      printf(": recorded hash 0x%016llx, re-simulated 0x%016llx", (unsigned long long)rep.expected_hash,
             (unsigned long long)rep.actual_hash);
    }
    printf("\n");
    if (rep.has_difference) print_difference("recorded", &rep.difference, rep.difference_tick);
    else printf("  no keyframe after the divergence to name the field\n");
    code = EXIT_DIVERGED;
  } else {
    code = bad_input(&f, rep.error_offset, rep.result);
  }
  free(f.data);
  return code;
}

static void dump_command(const uint8_t *bytes) {
  fxs_command c;
  fxs_command_decode(bytes, &c);
  printf("    %-17s src %u seq %u agent 0x%08x ref 0x%x args", fxs_command_name(c.type), c.source,
         c.sequence, c.agent, c.ref);
  for (int i = 0; i < FXS_COMMAND_ARGS; ++i) printf(" %.4f", units(c.arg[i]));
  printf("\n");
}

static int cmd_dump(int argc, char **argv) {
  if (argc != 1 || strcmp(argv[0], "--help") == 0) {
    if (argc == 1) return printf("usage: fixsteer dump FILE\nPrints the header, then every tick's commands and hash.\n"), EXIT_OK;
    return fail_usage("dump takes one FILE", 0);
  }
  file f;
  if (read_file(argv[0], &f) != EXIT_OK) return EXIT_BAD;
  fxs_replay_reader r;
  size_t at = 0;
  fxs_result e = fxs_replay_open(&r, f.data, f.size, false, 0, &at);
  if (e != FXS_OK) return bad_input(&f, at, e);
  fxs_world_capacity cap;
  fxs_snapshot_capacity(r.initial.snapshot, r.initial.snapshot_size, &cap);
  printf("replay %s: version %u, fingerprint 0x%016llx (%s), keyframe every %u ticks\n", f.name, r.version,
         (unsigned long long)r.fingerprint, r.fingerprint == fxs_math_fingerprint() ? "this build" : "OTHER BUILD",
         r.keyframe_interval);
  printf("world: %u agents, %u obstacles, %u paths, %u path nodes; snapshot %zu bytes\n", cap.agents,
         cap.obstacles, cap.paths, cap.path_nodes, r.initial.snapshot_size);
  while (!r.ended) {
    fxs_replay_chunk c;
    if ((e = fxs_replay_next(&r, &c, &at)) != FXS_OK) return bad_input(&f, at, e);
    if (c.tag == FXS_CHUNK_TICK) {
      printf("tick %u: %u commands, hash 0x%016llx\n", c.tick, c.command_count, (unsigned long long)c.hash);
      for (uint16_t i = 0; i < c.command_count; ++i) dump_command(c.commands + (size_t)i * FXS_COMMAND_BYTES);
    } else if (c.tag == FXS_CHUNK_KEYFRAME) {
      printf("keyframe after tick %u: %zu bytes\n", c.tick, c.snapshot_size);
    } else {
      printf("end: %u ticks, final hash 0x%016llx\n", c.tick, (unsigned long long)c.hash);
    }
  }
  free(f.data);
  return EXIT_OK;
}

// The next TICK or KEYF chunk (or END) of a reader; returns the result.
static fxs_result next_chunk(fxs_replay_reader *r, fxs_replay_chunk *c, size_t *at) {
  if (r->ended) {
    memset(c, 0, sizeof *c);
    c->tag = FXS_CHUNK_END;
    return FXS_OK;
  }
  return fxs_replay_next(r, c, at);
}

// Restores the first keyframe at or after `tick` of each replay and names the difference.
static void diff_keyframes(fxs_replay_reader *ra, fxs_replay_reader *rb, uint32_t tick) {
  fxs_replay_chunk ka, kb;
  size_t at;
  memset(&ka, 0, sizeof ka);
  memset(&kb, 0, sizeof kb);
  while (!(ka.tag == FXS_CHUNK_KEYFRAME && ka.tick >= tick) && !ra->ended && next_chunk(ra, &ka, &at) == FXS_OK) {}
  while (!(kb.tag == FXS_CHUNK_KEYFRAME && kb.tick >= tick) && !rb->ended && next_chunk(rb, &kb, &at) == FXS_OK) {}
  if (ka.tag != FXS_CHUNK_KEYFRAME || kb.tag != FXS_CHUNK_KEYFRAME || ka.tick != kb.tick) {
    printf("  no common keyframe after the divergence to name the field\n");
    return;
  }
  fxs_world_capacity cap;
  fxs_snapshot_capacity(ka.snapshot, ka.snapshot_size, &cap);
  size_t size = fxs_world_memory_size(&cap);
  void *ma = calloc(1, size), *mb = calloc(1, size);
  fxs_world wa, wb;
  fxs_world_def def = fxs_default_world_def();
  fxs_world_difference d;
  if (ma && mb && fxs_world_init(&wa, &def, &cap, ma, size) == FXS_OK &&
      fxs_world_init(&wb, &def, &cap, mb, size) == FXS_OK &&
      fxs_world_restore(&wa, ka.snapshot, ka.snapshot_size, 0) == FXS_OK &&
      fxs_world_restore(&wb, kb.snapshot, kb.snapshot_size, 0) == FXS_OK &&
      fxs_world_first_difference(&wb, &wa, &d)) {
    if (d.agent >= 0) {
      printf("  at tick %u (keyframe): agent %d, field %s: A %lld (%.5f), B %lld (%.5f)\n", ka.tick, d.agent,
             d.field, (long long)d.b, d.b / 65536.0, (long long)d.a, d.a / 65536.0);
    } else {
      printf("  at tick %u (keyframe): %s: A %lld, B %lld\n", ka.tick, d.field, (long long)d.b, (long long)d.a);
    }
  }
  free(ma);
  free(mb);
}

static int diff_files(const file *pa, const file *pb) {
  const file a = *pa, b = *pb;
  fxs_replay_reader ra, rb;
  size_t at = 0;
  fxs_result e = fxs_replay_open(&ra, a.data, a.size, false, 0, &at);
  if (e != FXS_OK) return bad_input(&a, at, e);
  if ((e = fxs_replay_open(&rb, b.data, b.size, false, 0, &at)) != FXS_OK) return bad_input(&b, at, e);
  if (ra.fingerprint != rb.fingerprint) {
    printf("math differs: A fingerprint 0x%016llx, B 0x%016llx\n", (unsigned long long)ra.fingerprint,
           (unsigned long long)rb.fingerprint);
  }
  for (;;) {
    fxs_replay_chunk ca, cb;
    do {
      if ((e = next_chunk(&ra, &ca, &at)) != FXS_OK) return bad_input(&a, at, e);
    } while (ca.tag == FXS_CHUNK_KEYFRAME);
    do {
      if ((e = next_chunk(&rb, &cb, &at)) != FXS_OK) return bad_input(&b, at, e);
    } while (cb.tag == FXS_CHUNK_KEYFRAME);
    if (ca.tag == FXS_CHUNK_END || cb.tag == FXS_CHUNK_END) {
      if (ca.tag == cb.tag) return printf("identical: %u ticks, final hash 0x%016llx\n", ca.tick, (unsigned long long)ca.hash), EXIT_OK;
      return printf("lengths differ: one recording ends at tick %u\n", ca.tag == FXS_CHUNK_END ? cb.tick : ca.tick), EXIT_DIVERGED;
    }
    bool same_input = ca.command_count == cb.command_count &&
                      memcmp(ca.commands, cb.commands, (size_t)ca.command_count * FXS_COMMAND_BYTES) == 0;
    if (!same_input) return printf("inputs differ at tick %u: not recordings of the same session\n", ca.tick), EXIT_DIVERGED;
    if (ca.hash != cb.hash) {
      printf("first divergent tick %u: A 0x%016llx, B 0x%016llx\n", ca.tick, (unsigned long long)ca.hash,
             (unsigned long long)cb.hash);
      diff_keyframes(&ra, &rb, ca.tick);
      return EXIT_DIVERGED;
    }
  }
}

static int cmd_diff(int argc, char **argv) {
  if (argc != 2) {
    if (argc == 1 && strcmp(argv[0], "--help") == 0) {
      return printf("usage: fixsteer diff A B\nCompares two recordings of one session, tick by tick.\n"), EXIT_OK;
    }
    return fail_usage("diff takes two files", 0);
  }
  file a = {argv[0], 0, 0}, b = {argv[1], 0, 0};
  int code = EXIT_BAD;
  if (read_file(argv[0], &a) == EXIT_OK && read_file(argv[1], &b) == EXIT_OK) code = diff_files(&a, &b);
  free(a.data);
  free(b.data);
  return code;
}

int main(int argc, char **argv) {
  if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    fputs(usage_text, argc < 2 ? stderr : stdout);
    return argc < 2 ? EXIT_BAD : EXIT_OK;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "list") == 0) return cmd_list();
  if (strcmp(cmd, "record") == 0) return cmd_record(argc - 2, argv + 2);
  if (strcmp(cmd, "verify") == 0) return cmd_verify(argc - 2, argv + 2);
  if (strcmp(cmd, "diff") == 0) return cmd_diff(argc - 2, argv + 2);
  if (strcmp(cmd, "dump") == 0) return cmd_dump(argc - 2, argv + 2);
  if (strcmp(cmd, "trace") == 0) return cmd_trace(argc - 2, argv + 2);
  return fail_usage("unknown command", cmd);
}
