// Output files of the fixsteer tool. Each is written to a temporary file that this process
// alone created, in the output's own directory, under a name nobody can guess; only when it is
// complete is it renamed over the output. So a failed or interrupted command leaves neither a
// partial file nor its temporary behind, and nothing a local user planted (a file or a
// symlink at the temporary name, or a symlink at the output path) is ever written through.
#ifndef FIXSTEER_TOOL_OUTPUT_H
#define FIXSTEER_TOOL_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

// Longest temporary path, its terminating zero included.
#define OUTPUT_PATH_MAX 4096

// An output file being written.
typedef struct output {
  const char *name;           // the path asked for
  char temp[OUTPUT_PATH_MAX]; // the temporary file beside it: NAME.tmp- and 12 random characters
  FILE *f;                    // open for reading and writing on the temporary file
  int slot;                   // its place in the list removed on SIGINT, SIGTERM or exit; -1: none
} output;

// Creates the temporary file of `name`: a new file (never an existing one, never through a
// symlink), mode 0666 minus the umask as fopen would give. Until output_finish, SIGINT and
// SIGTERM remove it before ending the process as they would have. Prints why and returns false
// on failure.
bool output_open(output *o, const char *name);

// Closes the temporary file and, when ok, renames it over `name` (a symlink there is replaced,
// not followed); otherwise, or when closing or renaming fails (it says so), removes it. Returns
// whether `name` now holds the output.
bool output_finish(output *o, bool ok);

#endif
