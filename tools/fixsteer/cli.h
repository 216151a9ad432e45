// The fixsteer tool's command line, shared by its commands: the table of commands (usage,
// what each does, its options with their defaults, an example, its exit codes), the options
// every command parses (each accepts the ones its usage lists), help and usage errors.
#ifndef FIXSTEER_TOOL_CLI_H
#define FIXSTEER_TOOL_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "fixsteer/input_limits.h"
#include "exit_codes.h"
#include "scenario_file.h"

// --keyframe's default: a full snapshot in the replay every this many ticks.
#define CLI_DEFAULT_KEYFRAME 250

// Options of every command; each command accepts the ones it lists in its usage.
typedef struct options {
  const char *scenario;
  const char *out;
  long ticks; // -1: not given
  long keyframe;
  int help;
  bool quiet; // --quiet: no progress on a terminal
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

// `fixsteer --help`: every command in a line, and the exit codes.
void print_usage(FILE *out);

// `fixsteer help CMD`, `fixsteer CMD --help`: its usage, what it does, its options with their
// defaults, an example and its exit codes. Returns the exit code (2 for no such command).
int print_command_help(const char *cmd, FILE *out);

// Takes every `name` flag out of argv (shifting the rest down); true when there was one.
// For options that one command alone knows, before command_options parses the common ones.
bool cli_take_flag(int *argc, char **argv, const char *name);

// Takes `name VALUE` or `name=VALUE` out of argv; returns the (last) value or NULL. *missing
// is set when `name` ends the arguments without a value.
const char *cli_take_value(int *argc, char **argv, const char *name, bool *missing);

#endif
