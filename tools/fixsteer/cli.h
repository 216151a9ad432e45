// The fixsteer tool's command line, shared by its commands: exit codes, the options every
// command parses (each accepts the ones its usage lists) and usage errors. main.c implements
// these from its table of commands, which gives each command's usage line.
#ifndef FIXSTEER_TOOL_CLI_H
#define FIXSTEER_TOOL_CLI_H

#include <stdbool.h>

#include "fixsteer/input_limits.h"
#include "scenario_file.h"

enum { EXIT_OK = 0, EXIT_DIVERGED = 1, EXIT_BAD = 2 };

// Options of every command; each command accepts the ones it lists in its usage.
typedef struct options {
  const char *scenario;
  const char *out;
  long ticks;
  long keyframe;
  int help;
  fxs_limits limits;
  scenario_file_limits yaml; // scenario files
  const char *files[2];
  int file_count;
} options;

// Parses a command's options (up to `files` plain arguments); returns -1 to go on, else the
// exit code (after printing help or a usage error).
int command_options(const char *cmd, int argc, char **argv, int files, options *o);

// A usage error of command `cmd`: prints the problem, then that command's usage; returns 2.
int fail_usage(const char *cmd, const char *msg, const char *arg);

// Takes every `name` flag out of argv (shifting the rest down); true when there was one.
// cli.c, for options that one command alone knows.
bool cli_take_flag(int *argc, char **argv, const char *name);

// Takes `name VALUE` or `name=VALUE` out of argv; returns the (last) value or NULL. *missing
// is set when `name` ends the arguments without a value.
const char *cli_take_value(int *argc, char **argv, const char *name, bool *missing);

#endif
