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
#include "cli.h"
#include "cmd_net.h"
#include "commands.h"
#include "files.h"
#include "output.h"
#include "scenario.h"
#include "session.h"

// The tool's version.
#define FIXSTEER_TOOL_VERSION "0.2.0"

// What this build can do: the optional libraries it was linked with (`fixsteer --version`;
// CI checks that a fresh set-up builds a tool with every one of them).
#ifdef FXS_TOOL_NO_ENET
#define FEATURE_NET "no network play (built without ENet)"
#else
#define FEATURE_NET "network play (ENet)"
#endif
#ifdef FXS_TOOL_NO_YAML
#define FEATURE_YAML "no scenario files (built without libyaml)"
#else
#define FEATURE_YAML "scenario files (libyaml)"
#endif
#define TOOL_FEATURES FEATURE_NET ", " FEATURE_YAML

// One line per command: its usage and what it does (also `fixsteer help CMD`).
typedef struct command_help {
  const char *name, *usage, *summary;
} command_help;

static const command_help commands_help[] = {
    {"list", "fixsteer list", "the built-in scenarios"},
    {"record", "fixsteer record --scenario NAME|FILE --out FILE [--ticks N] [--keyframe K] [YAML LIMITS]",
     "run a scenario (built-in or a YAML file) and record its commands and per-tick hashes"},
    {"verify", "fixsteer verify [LIMITS] FILE",
     "re-simulate a replay; check every tick's hash, every keyframe, the keyframe cadence and the END hash"},
    {"diff", "fixsteer diff [LIMITS] A B", "two recordings of one session: the first divergent tick"},
    {"dump", "fixsteer dump [LIMITS] FILE", "header, per-tick commands and hashes"},
    {"trace", "fixsteer trace --scenario NAME|FILE [--ticks N] [YAML LIMITS]", "CSV: tick,agent,x,y,vx,vy,orientation"},
    {"stats", "fixsteer stats [--json] [LIMITS] --scenario NAME|FILE [--ticks N] | FILE",
     "per-scene figures: overlapping bodies, agents pressed on a bound, creep, clearance, settling, doorway"},
    {"render", "fixsteer render [LIMITS] --scenario NAME|FILE [--ticks N] | A [B] --out FILE.svg [--at T,T,...] [--view X0,Y0,X1,Y1] [--no-png]",
     "an SVG (and a PNG beside it) of trajectories, bodies, walls, obstacles and paths; of two replays, where they differ"},
    {"host", CMD_NET_HOST_USAGE, CMD_NET_HOST_SUMMARY},
    {"join", CMD_NET_JOIN_USAGE, CMD_NET_JOIN_SUMMARY},
    {"params", "fixsteer params [--markdown]", "every behavior parameter: name, unit, range, default (the library's table)"},
    {"help", "fixsteer help [COMMAND]", "this text, or one command's"},
};
#define COMMAND_COUNT (sizeof commands_help / sizeof commands_help[0])

static const char *const limits_help =
    "LIMITS (what a replay may ask for; defaults in parentheses):\n"
    "  --max-agents N (65534)  --max-obstacles N (65535)  --max-paths N (65535)  --max-walls N (65535)\n"
    "  --max-path-nodes N (1000000)  --max-ticks N (10000000)  --max-agent-ticks N (256000000)\n"
    "  --max-bytes N (268435456)  --max-field-cells N (1048576)\n";

static void print_usage(FILE *out) {
  fprintf(out, "usage: fixsteer COMMAND [options]   (fixsteer %s)\n\n", FIXSTEER_TOOL_VERSION);
  for (size_t i = 0; i < COMMAND_COUNT; ++i) fprintf(out, "  %-8s %s\n", commands_help[i].name, commands_help[i].summary);
  fprintf(out, "\nOptions take --name VALUE or --name=VALUE. `fixsteer help COMMAND` for one command.\n"
               "Exit codes: 0 ok, 1 divergence, 2 bad usage or input, 3 network failure (host, join).\n");
}

static const command_help *help_of(const char *name) {
  for (size_t i = 0; i < COMMAND_COUNT; ++i) {
    if (strcmp(commands_help[i].name, name) == 0) return &commands_help[i];
  }
  return 0;
}

static int print_command_help(const char *name, FILE *out) {
  const command_help *h = help_of(name);
  if (!h) return fprintf(stderr, "fixsteer: no command '%s'\n", name), EXIT_BAD;
  fprintf(out, "usage: %s\n%s\n", h->usage, h->summary);
  if (strstr(h->usage, "[LIMITS]")) fputs(limits_help, out);
  if (strstr(h->usage, "YAML LIMITS")) {
    fputs("YAML LIMITS (what a scenario file may ask for):\n"
          "  --max-yaml-bytes N (67108864)  --max-yaml-nodes N (1000000, every alias written out)\n"
          "  --max-yaml-depth N (64, sequences and mappings nested)\n", out);
  }
  return EXIT_OK;
}

static double units(fix16_t v) { return v / 65536.0; }

// A usage error of command `cmd`: the problem, then that command's usage only.
int fail_usage(const char *cmd, const char *msg, const char *arg) {
  fprintf(stderr, "fixsteer %s: %s%s%s\n", cmd, msg, arg ? ": " : "", arg ? arg : "");
  const command_help *h = help_of(cmd);
  if (h) fprintf(stderr, "usage: %s\n", h->usage);
  return EXIT_BAD;
}

// A whole number in [min, max], or -1.
static long long parse_count(const char *v, long long min, long long max) {
  char *end = 0;
  errno = 0;
  long long n = strtoll(v, &end, 10);
  if (errno || !*v || *end || n < min || n > max) return -1;
  return n;
}

// Stores a --max-* option into the limits; false when `name` is not one.
static bool limit_option(fxs_limits *l, const char *name, long long n) {
  if (strcmp(name, "--max-agents") == 0) l->max_agents = (uint32_t)n;
  else if (strcmp(name, "--max-obstacles") == 0) l->max_obstacles = (uint32_t)n;
  else if (strcmp(name, "--max-paths") == 0) l->max_paths = (uint32_t)n;
  else if (strcmp(name, "--max-walls") == 0) l->max_walls = (uint32_t)n;
  else if (strcmp(name, "--max-path-nodes") == 0) l->max_path_nodes = (uint32_t)n;
  else if (strcmp(name, "--max-ticks") == 0) l->max_ticks = (uint32_t)n;
  else if (strcmp(name, "--max-agent-ticks") == 0) l->max_agent_ticks = (uint64_t)n;
  else if (strcmp(name, "--max-bytes") == 0) l->max_bytes = (uint64_t)n;
  else if (strcmp(name, "--max-field-cells") == 0) l->max_field_cells = (uint32_t)n;
  else return false;
  return true;
}

// Stores --max-yaml-bytes, -nodes or -depth (`what`: "bytes", "nodes", "depth"); false when
// the value is not a count from 1 to what the field holds.
static bool yaml_limit_option(scenario_file_limits *l, char what, const char *v) {
  long long max = what == 'd' ? (long long)UINT32_MAX
                  : what == 'n' || SIZE_MAX > INT64_MAX ? INT64_MAX : (long long)SIZE_MAX - 1; // room for max + 1
  long long n = parse_count(v, 1, max);
  if (n < 0) return false;
  if (what == 'b') l->max_bytes = (size_t)n;
  else if (what == 'n') l->max_nodes = (uint64_t)n;
  else l->max_depth = (uint32_t)n;
  return true;
}

static int parse_option(const char *cmd, options *o, const char *name, const char *v) {
  if (strcmp(name, "--scenario") == 0) o->scenario = v;
  else if (strcmp(name, "--out") == 0) o->out = v;
  else if (strcmp(name, "--ticks") == 0 || strcmp(name, "--keyframe") == 0) {
    long long n = parse_count(v, name[2] == 't' ? 1 : 0, 10000000);
    if (n < 0) return fail_usage(cmd, name[2] == 't' ? "--ticks needs a whole number from 1 to 10000000"
                                                     : "--keyframe needs a whole number from 0 to 10000000", v);
    if (name[2] == 't') o->ticks = (long)n;
    else o->keyframe = (long)n;
  } else if (strcmp(name, "--max-yaml-bytes") == 0 || strcmp(name, "--max-yaml-nodes") == 0 ||
             strcmp(name, "--max-yaml-depth") == 0) {
    if (!yaml_limit_option(&o->yaml, name[11], v)) return fail_usage(cmd, "not a count", v);
  } else if (strncmp(name, "--max-", 6) == 0) {
    long long n = parse_count(v, 0, strcmp(name, "--max-agent-ticks") == 0 || strcmp(name, "--max-bytes") == 0
                                        ? INT64_MAX : (long long)UINT32_MAX);
    if (n < 0) return fail_usage(cmd, "not a count", v);
    if (!limit_option(&o->limits, name, n)) return fail_usage(cmd, "unknown option", name);
  } else {
    return fail_usage(cmd, "unknown option", name);
  }
  return EXIT_OK;
}

// Parses `--name VALUE`, `--name=VALUE`, --help and up to `max_files` plain arguments.
static int parse_options(const char *cmd, int argc, char **argv, int max_files, options *o) {
  memset(o, 0, sizeof *o);
  o->ticks = -1, o->keyframe = 250, o->limits = fxs_default_limits();
  o->yaml = scenario_file_default_limits();
  for (int i = 0; i < argc; ++i) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      o->help = 1;
      continue;
    }
    if (strncmp(a, "--", 2) != 0) {
      if (o->file_count >= max_files) return fail_usage(cmd, "unexpected argument", a);
      o->files[o->file_count++] = a;
      continue;
    }
    char name[64];
    const char *eq = strchr(a, '=');
    const char *v;
    if (eq) {
      size_t n = (size_t)(eq - a);
      if (n >= sizeof name) return fail_usage(cmd, "unknown option", a);
      memcpy(name, a, n);
      name[n] = '\0';
      v = eq + 1;
    } else {
      snprintf(name, sizeof name, "%s", a);
      if (i + 1 >= argc) return fail_usage(cmd, "missing value for", a);
      v = argv[++i];
    }
    if (parse_option(cmd, o, name, v) != EXIT_OK) return EXIT_BAD;
  }
  return EXIT_OK;
}

// ------------------------------------------------------------------ running a scenario

static bool write_file(void *user, const uint8_t *bytes, size_t size) {
  return fwrite(bytes, 1, size, (FILE *)user) == size;
}

// Parses a command's options; returns -1 to go on, else the exit code (help or an error).
int command_options(const char *cmd, int argc, char **argv, int files, options *o) {
  if (parse_options(cmd, argc, argv, files, o) != EXIT_OK) return EXIT_BAD;
  if (o->help) return print_command_help(cmd, stdout);
  return -1;
}

static int cmd_record(int argc, char **argv) {
  options o;
  int done = command_options("record", argc, argv, 0, &o);
  if (done >= 0) return done;
  if (!o.scenario || !o.out) return fail_usage("record", "needs --scenario and --out", 0);
  session s;
  if (session_start(&s, o.scenario, &o.yaml) != EXIT_OK) return EXIT_BAD;
  long ticks = o.ticks >= 0 ? o.ticks : (long)s.sc->default_ticks;
  output out;
  // The snapshot grows with every agent spawned after tick 0 and with the field's cells once
  // its grid is set.
  size_t scratch_size = fxs_world_snapshot_size(&s.world) + (size_t)s.sc->capacity.agents * 512u +
                        (size_t)s.sc->capacity.field_cells * 8u + (1u << 16);
  uint8_t *scratch = malloc(scratch_size);
  fxs_result r = FXS_ERR_BUFFER_TOO_SMALL;
  fxs_replay_writer w;
  if (scratch && output_open(&out, o.out)) {
    r = fxs_replay_writer_begin(&w, write_file, out.f, &s.world, (uint32_t)o.keyframe, scratch, scratch_size);
    for (long t = 0; t < ticks && r == FXS_OK; ++t) {
      uint32_t n = session_tick(&s);
      r = fxs_replay_writer_tick(&w, &s.world, s.commands, n);
      if (ticks >= 10000 && t % (ticks / 10) == 0) fprintf(stderr, "record: tick %ld of %ld\n", t, ticks);
    }
    if (r == FXS_OK) r = fxs_replay_writer_end(&w, &s.world);
    long bytes = ftell(out.f);
    if (r != FXS_OK) fprintf(stderr, "fixsteer: writing %s failed: %s\n", o.out, fxs_result_message(r));
    if (!output_finish(&out, r == FXS_OK) && r == FXS_OK) r = FXS_ERR_BUFFER_TOO_SMALL;
    if (r == FXS_OK) {
      printf("recorded %s: scenario %s, %ld ticks, %ld bytes, final hash 0x%016llx\n", o.out, s.sc->name,
             ticks, bytes, (unsigned long long)w.last_hash);
    }
  }
  free(scratch);
  session_end(&s);
  return r == FXS_OK ? EXIT_OK : EXIT_BAD;
}

static int cmd_trace(int argc, char **argv) {
  options o;
  int done = command_options("trace", argc, argv, 0, &o);
  if (done >= 0) return done;
  if (!o.scenario) return fail_usage("trace", "needs --scenario", 0);
  session s;
  if (session_start(&s, o.scenario, &o.yaml) != EXIT_OK) return EXIT_BAD;
  long ticks = o.ticks >= 0 ? o.ticks : (long)s.sc->default_ticks;
  printf("tick,agent,x,y,vx,vy,orientation\n");
  for (long t = 0; t < ticks; ++t) {
    session_tick(&s);
    for (uint32_t i = 0; i < s.world.capacity.agents; ++i) {
      const fxs_agent_slot *a = &s.world.agents[i];
      if (!a->alive) continue;
      printf("%u,%u,%.5f,%.5f,%.5f,%.5f,%.5f\n", s.world.tick, i, units(a->body.position.x),
             units(a->body.position.y), units(a->body.velocity.x), units(a->body.velocity.y),
             units(a->body.orientation));
    }
  }
  session_end(&s);
  return EXIT_OK;
}

static int cmd_list(int argc, char **argv) {
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

// ------------------------------------------------------------------ reading replays

static int bad_input(const file *f, size_t offset, fxs_result r) { return file_bad_input(f, offset, r, 0); }

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
  options o;
  int done = command_options("verify", argc, argv, 1, &o);
  if (done >= 0) return done;
  if (o.file_count != 1) return fail_usage("verify", "takes one FILE", 0);
  file f;
  if (!file_read_replay(o.files[0], &o.limits, &f)) return EXIT_BAD;
  size_t need = fxs_replay_verify_memory_size(f.data, f.size, &o.limits);
  void *memory = need ? calloc(1, need) : 0;
  fxs_verify_report rep;
  fxs_replay_verify(f.data, f.size, &o.limits, memory, need, &rep);
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
    code = file_bad_input(&f, rep.error_offset, rep.result, &rep.limit_error);
  }
  file_free(&f);
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

// The replay's world: what it can hold (capacity) apart from what its initial state holds.
static void dump_world(const fxs_replay_reader *r) {
  fxs_world_capacity cap;
  fxs_snapshot_capacity(r->initial.snapshot, r->initial.snapshot_size, &cap);
  printf("capacity: %u agents, %u obstacles, %u walls, %u paths, %u path nodes", cap.agents,
         cap.obstacles, cap.walls, cap.paths, cap.path_nodes);
  if (cap.field_cells) printf(", %u field cells", cap.field_cells);
  printf("; snapshot %zu bytes\n", r->initial.snapshot_size);
  size_t size = fxs_world_memory_size(&cap);
  void *memory = size ? calloc(1, size) : 0;
  fxs_world w;
  fxs_world_def def = fxs_default_world_def();
  if (memory && fxs_world_init(&w, &def, &cap, memory, size) == FXS_OK &&
      fxs_world_restore(&w, r->initial.snapshot, r->initial.snapshot_size, 0) == FXS_OK) {
    uint32_t obstacles = 0, walls = 0;
    for (uint32_t i = 0; i < cap.obstacles; ++i) obstacles += w.obstacle_alive[i];
    for (uint32_t i = 0; i < cap.walls; ++i) walls += w.wall_alive[i];
    printf("at tick %u: %u agents, %u obstacles, %u walls, %u paths, %u path nodes\n", w.tick,
           fxs_world_agent_count(&w), obstacles, walls, w.path_count, w.node_count);
  }
  free(memory);
}

static int cmd_dump(int argc, char **argv) {
  options o;
  int done = command_options("dump", argc, argv, 1, &o);
  if (done >= 0) return done;
  if (o.file_count != 1) return fail_usage("dump", "takes one FILE", 0);
  file f;
  if (!file_read_replay(o.files[0], &o.limits, &f)) return EXIT_BAD;
  fxs_replay_reader r;
  size_t at = 0;
  fxs_result e = fxs_replay_open(&r, f.data, f.size, false, &o.limits, &at);
  if (e != FXS_OK) {
    file_bad_input(&f, at, e, &r.limit_error);
    file_free(&f);
    return EXIT_BAD;
  }
  printf("replay %s: version %u, fingerprint 0x%016llx (%s), keyframe every %u ticks\n", f.name, r.version,
         (unsigned long long)r.fingerprint, r.fingerprint == fxs_math_fingerprint() ? "this build" : "OTHER BUILD",
         r.keyframe_interval);
  dump_world(&r);
  while (!r.ended) {
    fxs_replay_chunk c;
    if ((e = fxs_replay_next(&r, &c, &at)) != FXS_OK) {
      bad_input(&f, at, e);
      file_free(&f);
      return EXIT_BAD;
    }
    if (c.tag == FXS_CHUNK_TICK) {
      printf("tick %u: %u commands, hash 0x%016llx\n", c.tick, c.command_count, (unsigned long long)c.hash);
      for (uint16_t i = 0; i < c.command_count; ++i) dump_command(c.commands + (size_t)i * FXS_COMMAND_BYTES);
    } else if (c.tag == FXS_CHUNK_KEYFRAME) {
      printf("keyframe after tick %u: %zu bytes\n", c.tick, c.snapshot_size);
    } else {
      printf("end: %u ticks, final hash 0x%016llx\n", c.tick, (unsigned long long)c.hash);
    }
  }
  file_free(&f);
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

static int diff_files(const file *pa, const file *pb, const fxs_limits *limits) {
  const file a = *pa, b = *pb;
  fxs_replay_reader ra, rb;
  size_t at = 0;
  fxs_result e = fxs_replay_open(&ra, a.data, a.size, false, limits, &at);
  if (e != FXS_OK) return file_bad_input(&a, at, e, &ra.limit_error);
  if ((e = fxs_replay_open(&rb, b.data, b.size, false, limits, &at)) != FXS_OK) {
    return file_bad_input(&b, at, e, &rb.limit_error);
  }
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
    if (!same_input) {
      fprintf(stderr, "fixsteer: %s and %s are not recordings of the same session: their inputs differ at tick %u\n",
              a.name, b.name, ca.tick);
      return EXIT_BAD;
    }
    if (ca.hash != cb.hash) {
      printf("first divergent tick %u: A 0x%016llx, B 0x%016llx\n", ca.tick, (unsigned long long)ca.hash,
             (unsigned long long)cb.hash);
      diff_keyframes(&ra, &rb, ca.tick);
      return EXIT_DIVERGED;
    }
  }
}

static int cmd_diff(int argc, char **argv) {
  options o;
  int done = command_options("diff", argc, argv, 2, &o);
  if (done >= 0) return done;
  if (o.file_count != 2) return fail_usage("diff", "takes two files", 0);
  file a = {o.files[0], 0, 0}, b = {o.files[1], 0, 0};
  int code = EXIT_BAD;
  if (file_read_replay(o.files[0], &o.limits, &a) && file_read_replay(o.files[1], &o.limits, &b)) {
    code = diff_files(&a, &b, &o.limits);
  }
  file_free(&a);
  file_free(&b);
  return code;
}

int main(int argc, char **argv) {
  if (argc < 2) return print_usage(stderr), EXIT_BAD;
  const char *cmd = argv[1];
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) return print_usage(stdout), EXIT_OK;
  if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
    printf("fixsteer %s (replay format %u, snapshot format %u, math fingerprint 0x%016llx)\n",
           FIXSTEER_TOOL_VERSION, FXS_REPLAY_VERSION, FXS_SNAPSHOT_VERSION,
           (unsigned long long)fxs_math_fingerprint());
    return printf("features: %s\n", TOOL_FEATURES), EXIT_OK;
  }
  if (strcmp(cmd, "help") == 0) {
    if (argc == 2) return print_usage(stdout), EXIT_OK;
    return print_command_help(argv[2], stdout);
  }
  if (strcmp(cmd, "list") == 0) return cmd_list(argc - 2, argv + 2);
  if (strcmp(cmd, "record") == 0) return cmd_record(argc - 2, argv + 2);
  if (strcmp(cmd, "verify") == 0) return cmd_verify(argc - 2, argv + 2);
  if (strcmp(cmd, "diff") == 0) return cmd_diff(argc - 2, argv + 2);
  if (strcmp(cmd, "dump") == 0) return cmd_dump(argc - 2, argv + 2);
  if (strcmp(cmd, "trace") == 0) return cmd_trace(argc - 2, argv + 2);
  if (strcmp(cmd, "stats") == 0) return cmd_stats(argc - 2, argv + 2);
  if (strcmp(cmd, "params") == 0) return cmd_params(argc - 2, argv + 2);
  if (strcmp(cmd, "render") == 0) return cmd_render(argc - 2, argv + 2);
  if (strcmp(cmd, "host") == 0) return cmd_host(argc - 2, argv + 2);
  if (strcmp(cmd, "join") == 0) return cmd_join(argc - 2, argv + 2);
  fprintf(stderr, "fixsteer: unknown command '%s'\n\n", cmd);
  print_usage(stderr);
  return EXIT_BAD;
}
