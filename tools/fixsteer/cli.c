// The command line of the fixsteer tool (cli.h): the one table of its commands, the common
// options, help and usage errors.
#include "cli.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "net_settings.h"

#define STR_(x) #x
#define STR(x) STR_(x)

// What each exit code means (the index), for the help texts.
static const char *const exit_meanings[] = {
    "success",
    "divergence: a replay that does not reproduce, or two that differ (the tick is named); "
    "host/join: a desync",
    "bad usage or bad input (the file and its line or byte are named)",
    "host/join: a peer lost or not joined in time, a malformed match message, a name that "
    "does not resolve (the replay then ends at the last settled tick)",
    "another simulation version: a replay recorded by one (both versions are named) or "
    "recorded before simulation versions existed and not reproduced; host/join: a peer "
    "running one. Not a desync: re-record, or use a build of that version",
};

// A command's help: its usage line, what it does, its options with their defaults (one a
// line), an example, and the exit codes it can return (bit c for code c).
typedef struct command_help {
  const char *name, *usage, *summary, *options, *example;
  unsigned exits;
} command_help;

// The help texts are laid out as they print.
// clang-format off
#define QUIET_HELP "  --quiet                no progress line (it is shown only when stderr is a terminal)\n"
#define SCENE_HELP "  --scenario NAME|FILE   a built-in scenario (fixsteer list) or a YAML scene file\n"
#define TICKS_HELP                                                                          \
  "  --ticks N              ticks to run, 1..10000000 (default: the scenario's own, as\n"     \
  "                         `fixsteer list` shows, or its file's ticks:)\n"
#define TICKS_REPLAY_HELP                                                                   \
  "  --ticks N              ticks to run, 1..10000000 (default: the scenario's own, as\n"     \
  "                         `fixsteer list` shows, or its file's ticks:; a replay: all it holds)\n"

static const command_help commands_help[] = {
    {"list", "fixsteer list", "the built-in scenarios, with their default ticks", "", "fixsteer list", 0x5},
    {"record", "fixsteer record [YAML LIMITS] --scenario NAME|FILE --out FILE [--ticks N] [--keyframe K] [--quiet]",
     "run a scenario (built-in or a YAML file) and record its commands and per-tick hashes",
     SCENE_HELP "  --out FILE             the replay to write (whole, or not at all)\n" TICKS_HELP
     "  --keyframe K           a full snapshot every K ticks, 0 for none (default " STR(CLI_DEFAULT_KEYFRAME) ")\n"
     QUIET_HELP,
     "fixsteer record --scenario hunter_prey --ticks 1200 --out hunter_prey.fxr", 0x5},
    {"verify", "fixsteer verify [LIMITS] FILE [--quiet]",
     "re-simulate a replay; check every tick's hash, every keyframe, the keyframe cadence and the END hash",
     "  FILE                   a replay (.fxr)\n" QUIET_HELP, "fixsteer verify hunter_prey.fxr", 0x17},
    {"diff", "fixsteer diff [LIMITS] A B", "two recordings of one session: the first divergent tick",
     "  A B                    two replays of the same inputs (exit 2 when their inputs differ),\n"
     "                         lined up by tick: of a player who joined late, the ticks both hold\n",
     "fixsteer diff mine.fxr theirs.fxr", 0x17},
    {"dump", "fixsteer dump [LIMITS] FILE",
     "header, capacity and initial counts, per-tick commands and hashes",
     "  FILE                   a replay (.fxr)\n", "fixsteer dump hunter_prey.fxr | head -n 20", 0x5},
    {"trace", "fixsteer trace [LIMITS] [YAML LIMITS] --scenario NAME|FILE [--ticks N] | FILE [--quiet]",
     "CSV of every live agent after every tick: tick,agent,x,y,vx,vy,orientation, of a scenario or "
     "of a replay (re-simulated, its hashes checked)",
     SCENE_HELP "  FILE                   or a replay (.fxr) instead of --scenario\n" TICKS_REPLAY_HELP QUIET_HELP,
     "fixsteer trace --scenario patrol --ticks 100 > patrol.csv", 0x17},
    {"stats", "fixsteer stats [--json] [--home-distance D] [LIMITS] [YAML LIMITS] --scenario NAME|FILE [--ticks N] | FILE [--quiet]",
     "per-scene figures: overlapping bodies, agents pressed on a bound, creep, clearance, settling, doorway",
     SCENE_HELP "  FILE                   or a replay (.fxr) instead of --scenario\n" TICKS_REPLAY_HELP
     "  --json                 one key a line (default: a table)\n"
     "  --home-distance D      an agent is home within D units of its target point (default: its radius)\n" QUIET_HELP,
     "fixsteer stats --scenario queue --ticks 600", 0x17},
    {"render", "fixsteer render [LIMITS] [YAML LIMITS] --scenario NAME|FILE [--ticks N] | A [B] --out FILE.svg "
               "[--at T,T,...] [--view X0,Y0,X1,Y1] [--size W,H] [--nav-fields all|none|K] [--no-png] [--quiet]",
     "an SVG (and a PNG beside it) of trajectories, bodies, walls, obstacles, paths and navigation; of two "
     "replays, where they differ",
     SCENE_HELP "  A [B]                  or one replay, or two of one session overlaid (A solid, B dashed)\n"
     TICKS_REPLAY_HELP "  --out FILE.svg         the picture; the PNG goes beside it (rsvg-convert)\n"
     "  --at T,T,...           up to 32 ticks to draw bodies at (default: the first tick with an agent,\n"
     "                         three between, the last)\n"
     "  --view X0,Y0,X1,Y1     the world rectangle to show (default: the bounds, or what is drawn when\n"
     "                         the bounds are much larger)\n"
     "  --size W,H             the picture W pixels wide (320..8192) and at most H tall (240..8192): the\n"
     "                         map scaled to fit under the header and above the legend (default: 800\n"
     "                         wide, the map at most 900 tall)\n"
     "  --nav-fields all|none|K the integration fields of navigate groups to draw after the last tick:\n"
     "                         every live one (default), none, or the one in field slot K\n"
     "  --no-png               the SVG only\n" QUIET_HELP,
     "fixsteer render --scenario queue --out queue.svg --at 1,150,300", 0x17},
    {"host",
     "fixsteer host --players N --port P --scenario NAME|FILE --ticks T --out FILE [--delay D] [--rollback] "
     "[--spectators N] [--rejoin-ms MS] [--progress-window-ms MS] [--progress-min-ticks N] [--bind ADDRESS] "
     "[--desync-at TICK] [--tick-ms MS] [--timeout-ms MS]",
     "host a match of a built-in scenario or a scene file for N players (this one is player 0) and its spectators; "
     "every process writes its replay of the match",
     "  --players N            players, 2..8, this one included\n"
     "  --port P               the UDP port to listen on, 1024..65535\n"
     "  --scenario NAME|FILE   a built-in scenario (fixsteer list) or a YAML scene file, which every\n"
     "                         joiner must hold too (the match carries its hash)\n"
     "  --ticks T              ticks to play\n"
     "  --out FILE             this process's replay\n"
     "  --delay D              ticks of input delay, 0..30 (default " STR(NET_DEFAULT_DELAY) ")\n"
     "  --rollback             predict and resimulate instead of waiting (default: lockstep)\n"
     "  --spectators N         watchers that may join, 0..8 (default 0)\n"
     "  --rejoin-ms MS         a player that leaves may come back this long; 0: a loss ends the match\n"
     "                         (default " STR(NET_DEFAULT_REJOIN_MS) ")\n"
     "  --progress-window-ms MS, --progress-min-ticks N   the match must settle N ticks in every window\n"
     "                         or the peers holding it back are dropped (default " STR(NET_DEFAULT_PROGRESS_WINDOW_MS)
     " ms; N: a quarter\n                         of the ticks the window holds at --tick-ms, "
     STR(NET_DEFAULT_PROGRESS_UNPACED) " unpaced)\n"
     "  --bind ADDRESS         the IPv4 address or host name to listen on (default " NET_DEFAULT_BIND ")\n"
     "  --tick-ms MS           ms a tick, 0: as fast as the inputs allow (default " STR(NET_DEFAULT_TICK_MS) ")\n"
     "  --timeout-ms MS        a peer silent this long is lost (default " STR(NET_DEFAULT_TIMEOUT_MS) ")\n"
     "  --desync-at TICK       test: corrupt this process's world at TICK\n",
     "fixsteer host --players 2 --port 7000 --scenario hunter_prey --ticks 600 --out host.fxr", 0x1F},
    {"join", "fixsteer join --host ADDRESS --port P --out FILE [--scenario NAME|FILE] [--spectate] [--bind ADDRESS] [--desync-at TICK] [--timeout-ms MS]",
     "join the match hosted at --host:--port as the next player, in the slot of a player that left "
     "(run it again to come back), or with --spectate as a spectator at any time",
     "  --host ADDRESS         the host's IPv4 address or host name\n"
     "  --port P               the host's port\n"
     "  --out FILE             this process's replay\n"
     "  --scenario NAME|FILE   the scene the host plays: a copy of its scene file (needed; the bytes\n"
     "                         must hash the same) or, optionally, its built-in scenario's name\n"
     "  --spectate             watch instead of play\n"
     "  --bind ADDRESS         where to listen (default: 127.0.0.1 for a host on this machine, else 0.0.0.0)\n"
     "  --timeout-ms MS        a peer silent this long is lost (default " STR(NET_DEFAULT_TIMEOUT_MS) ")\n"
     "  --desync-at TICK       test: corrupt this process's world at TICK\n"
     "  The host chooses the rest (players, scenario, ticks, delay, mode, --rejoin-ms, the progress bound).\n",
     "fixsteer join --host 127.0.0.1 --port 7000 --out join.fxr", 0x1F},
    {"params", "fixsteer params [--markdown]",
     "every behavior parameter: name, unit, range, default (the library's table)",
     "  --markdown             a Markdown table, as docs/behavior-params.md (default: plain text)\n",
     "fixsteer params", 0x5},
    {"scale", "fixsteer scale [YAML LIMITS] FILE K [--out OUT] [--defaults]",
     "the scene file with every length times K (positions, walls, radii, speeds, forces, cell sizes, "
     "length parameters); angles, ticks, counts and weights kept",
     "  FILE                   a YAML scene file\n"
     "  K                      the factor: a fraction P/Q (1/16) or a decimal (0.25, 4), greater than 0\n"
     "  --out OUT              the scaled scene (default: standard output)\n"
     "  --defaults             also write out, scaled, the library's defaults of the length parameters\n"
     "                         a behavior leaves out (to tell an absolute default from other causes)\n"
     "  A value pushed out of Q16.16's range, below its resolution or out of its parameter's\n"
     "  range is refused, naming its key and line. Lengths the file leaves to the tool's or the\n"
     "  agent's defaults (radius, max_speed, max_force, bounds, neighbor_radius, a path's radii)\n"
     "  are written out, scaled; behavior parameters it leaves out keep the library's defaults.\n",
     "fixsteer scale scenarios/nav_door.yaml 1/4 --out nav_door-x1_4.yaml", 0x5},
    {"size", "fixsteer size [YAML LIMITS] FILE|NAME [--ticks N]",
     "the memory of a scene's world and of its snapshots as a function of every capacity, with "
     "advice on the navigation capacities",
     "  FILE|NAME              a YAML scene file or a built-in scenario (or --scenario)\n"
     "  --ticks N              also run N ticks: the largest snapshot, and what the searches used\n"
     "                         (busy at once, the largest open list, full open lists) (default: no run)\n",
     "fixsteer size examples/rts/rts.yaml --ticks 900", 0x5},
    {"help", "fixsteer help [COMMAND]", "this text, or one command's", "", "fixsteer help record", 0x5},
};
// clang-format on
#define COMMAND_COUNT (sizeof commands_help / sizeof commands_help[0])

static const command_help *help_of(const char *name) {
  for (size_t i = 0; i < COMMAND_COUNT; ++i) {
    if (strcmp(commands_help[i].name, name) == 0) return &commands_help[i];
  }
  return 0;
}

void print_usage(FILE *out) {
  fprintf(out, "usage: fixsteer COMMAND [options]   (fixsteer --version)\n\n");
  for (size_t i = 0; i < COMMAND_COUNT; ++i)
    fprintf(out, "  %-8s %s\n", commands_help[i].name, commands_help[i].summary);
  fprintf(out,
          "\nOptions take --name VALUE or --name=VALUE. `fixsteer help COMMAND` for one command:\n"
          "its options with their defaults, an example and its exit codes.\n\nExit codes:\n");
  for (size_t c = 0; c < sizeof exit_meanings / sizeof exit_meanings[0]; ++c)
    fprintf(out, "  %zu  %s\n", c, exit_meanings[c]);
}

int print_command_help(const char *name, FILE *out) {
  const command_help *h = help_of(name);
  if (!h) return fprintf(stderr, "fixsteer: no command '%s'\n", name), EXIT_BAD;
  fprintf(out, "usage: %s\n%s\n", h->usage, h->summary);
  if (h->options[0]) fprintf(out, "\nOptions:\n%s", h->options);
  if (strstr(h->usage, "[LIMITS]")) {
    fxs_limits l = fxs_default_limits();
    fprintf(
        out,
        "LIMITS (what a replay may ask for; defaults in parentheses):\n"
        "  --max-agents N (%u)  --max-obstacles N (%u)  --max-paths N (%u)  --max-walls N (%u)\n"
        "  --max-path-nodes N (%u)  --max-ticks N (%u)  --max-agent-ticks N (%llu)\n"
        "  --max-bytes N (%llu)  --max-field-cells N (%u)\n",
        l.max_agents, l.max_obstacles, l.max_paths, l.max_walls, l.max_path_nodes, l.max_ticks,
        (unsigned long long)l.max_agent_ticks, (unsigned long long)l.max_bytes, l.max_field_cells);
  }
  if (strstr(h->usage, "YAML LIMITS")) {
    scenario_file_limits y = scenario_file_default_limits();
    fprintf(out,
            "YAML LIMITS (what a scenario file may ask for):\n"
            "  --max-yaml-bytes N (%llu)  --max-yaml-nodes N (%llu, every alias written out)\n"
            "  --max-yaml-depth N (%u, sequences and mappings nested)\n",
            (unsigned long long)y.max_bytes, (unsigned long long)y.max_nodes, y.max_depth);
  }
  fprintf(out, "\nExample:\n  %s\n\nExit codes:\n", h->example);
  for (unsigned c = 0; c < sizeof exit_meanings / sizeof exit_meanings[0]; ++c) {
    if (h->exits >> c & 1u) fprintf(out, "  %u  %s\n", c, exit_meanings[c]);
  }
  return EXIT_OK;
}

int fail_usage(const char *cmd, const char *msg, const char *arg) {
  fprintf(stderr, "fixsteer %s: %s%s%s\n", cmd, msg, arg ? ": " : "", arg ? arg : "");
  const command_help *h = help_of(cmd);
  if (h) fprintf(stderr, "usage: %s\n", h->usage);
  return EXIT_BAD;
}

// ------------------------------------------------------------------ the common options

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
                  : what == 'n' || SIZE_MAX > INT64_MAX
                      ? INT64_MAX
                      : (long long)SIZE_MAX - 1; // room for max + 1
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
    if (n < 0)
      return fail_usage(cmd,
                        name[2] == 't' ? "--ticks needs a whole number from 1 to 10000000"
                                       : "--keyframe needs a whole number from 0 to 10000000",
                        v);
    if (name[2] == 't') o->ticks = (long)n;
    else o->keyframe = (long)n;
  } else if (strcmp(name, "--max-yaml-bytes") == 0 || strcmp(name, "--max-yaml-nodes") == 0 ||
             strcmp(name, "--max-yaml-depth") == 0) {
    if (!yaml_limit_option(&o->yaml, name[11], v)) return fail_usage(cmd, "not a count", v);
  } else if (strncmp(name, "--max-", 6) == 0) {
    long long n =
        parse_count(v, 0,
                    strcmp(name, "--max-agent-ticks") == 0 || strcmp(name, "--max-bytes") == 0
                        ? INT64_MAX
                        : (long long)UINT32_MAX);
    if (n < 0) return fail_usage(cmd, "not a count", v);
    if (!limit_option(&o->limits, name, n)) return fail_usage(cmd, "unknown option", name);
  } else {
    return fail_usage(cmd, "unknown option", name);
  }
  return EXIT_OK;
}

// Parses `--name VALUE`, `--name=VALUE`, --help, --quiet and up to `max_files` plain arguments.
static int parse_options(const char *cmd, int argc, char **argv, int max_files, options *o) {
  memset(o, 0, sizeof *o);
  o->ticks = -1, o->keyframe = CLI_DEFAULT_KEYFRAME, o->limits = fxs_default_limits();
  o->yaml = scenario_file_default_limits();
  for (int i = 0; i < argc; ++i) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      o->help = 1;
      continue;
    }
    if (strcmp(a, "--quiet") == 0 && help_of(cmd) && strstr(help_of(cmd)->usage, "[--quiet]")) {
      o->quiet = true;
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

int command_options(const char *cmd, int argc, char **argv, int files, options *o) {
  if (parse_options(cmd, argc, argv, files, o) != EXIT_OK) return EXIT_BAD;
  if (o->help) return print_command_help(cmd, stdout);
  return -1;
}

// ------------------------------------------------------------------ one command's own options

bool cli_take_flag(int *argc, char **argv, const char *name) {
  bool found = false;
  int kept = 0;
  for (int i = 0; i < *argc; ++i) {
    if (strcmp(argv[i], name) == 0) found = true;
    else argv[kept++] = argv[i];
  }
  *argc = kept;
  return found;
}

const char *cli_take_value(int *argc, char **argv, const char *name, bool *missing) {
  const char *value = 0;
  size_t n = strlen(name);
  int kept = 0;
  *missing = false;
  for (int i = 0; i < *argc; ++i) {
    if (strcmp(argv[i], name) == 0) {
      if (i + 1 >= *argc) *missing = true;
      else value = argv[++i];
    } else if (strncmp(argv[i], name, n) == 0 && argv[i][n] == '=') {
      value = argv[i] + n + 1;
    } else {
      argv[kept++] = argv[i];
    }
  }
  *argc = kept;
  return value;
}
