// fixsteer: record lockstep sessions of the built-in scenarios and of scene files, and prove
// that a replay reproduces them bit for bit. This file only dispatches: the command line is
// cli.c, the commands are cmd_*.c (commands.h, cmd_net.h). Exit codes: exit_codes.h.
#include <stdio.h>
#include <string.h>

#include "fixsteer/fixsteer.h"
#include "fixsteer/replay.h"
#include "fixsteer/snapshot.h"
#include "cli.h"
#include "cmd_net.h"
#include "commands.h"

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

static const struct {
  const char *name;
  int (*run)(int argc, char **argv);
} commands[] = {
    {"list", cmd_list},     {"record", cmd_record}, {"verify", cmd_verify}, {"diff", cmd_diff},
    {"dump", cmd_dump},     {"trace", cmd_trace},   {"stats", cmd_stats},   {"params", cmd_params},
    {"render", cmd_render}, {"host", cmd_host},     {"join", cmd_join},     {"scale", cmd_scale},
    {"size", cmd_size},
};

int main(int argc, char **argv) {
  if (argc < 2) return print_usage(stderr), EXIT_BAD;
  const char *cmd = argv[1];
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) return print_usage(stdout), EXIT_OK;
  if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
    printf(
        "fixsteer %s (replay format %u, snapshot format %u, math fingerprint 0x%016llx, "
        "simulation version %u)\n",
        FIXSTEER_TOOL_VERSION, FXS_REPLAY_VERSION, FXS_SNAPSHOT_VERSION,
        (unsigned long long)fxs_math_fingerprint(), (unsigned)FXS_SIMULATION_VERSION);
    return printf("features: %s\n", TOOL_FEATURES), EXIT_OK;
  }
  if (strcmp(cmd, "help") == 0) {
    if (argc == 2) return print_usage(stdout), EXIT_OK;
    return print_command_help(argv[2], stdout);
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i) {
    if (strcmp(cmd, commands[i].name) == 0) return commands[i].run(argc - 2, argv + 2);
  }
  fprintf(stderr, "fixsteer: unknown command '%s'\n\n", cmd);
  print_usage(stderr);
  return EXIT_BAD;
}
