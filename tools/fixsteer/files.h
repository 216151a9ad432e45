// Replay files read by the fixsteer tool, within limits: the header is checked before the
// body is read, and nothing past the size limit is ever read. Outputs: output.h.
#ifndef FIXSTEER_TOOL_FILES_H
#define FIXSTEER_TOOL_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fixsteer/fixsteer.h"
#include "fixsteer/input_limits.h"

// A replay file read into memory.
typedef struct file {
  const char *name;
  uint8_t *data;
  size_t size;
} file;

// Reads a replay: refuses what is not a regular file, checks the first chunk (magic,
// version) before reading on, and refuses files larger than limits->max_bytes. Prints the
// error (file, byte offset, what is wrong) and returns false on failure.
bool file_read_replay(const char *name, const fxs_limits *limits, file *out);
void file_free(file *f);

// Prints "fixsteer: FILE: byte N: message" (with the limit's name and value after
// FXS_ERR_LIMIT; both simulation versions after FXS_ERR_SIMULATION_VERSION) and returns the
// tool's exit code: EXIT_VERSION for another simulation version, EXIT_BAD for the rest.
int file_bad_input(const file *f, size_t offset, fxs_result r, const fxs_limit_error *limit);

// The replay format version of a file whose header was read (its bytes 12..13), 0 if none.
uint32_t file_replay_format(const file *f);

// True for a replay of a format recorded before simulation versions existed (2 and 3): one
// that does not reproduce is then reported as such (file_unversioned_note), not as a desync.
bool file_unversioned(const file *f);

// Prints, on `out`, "FILE: recorded before simulation versions existed (replay format N);
// this build runs simulation version V and does not reproduce it" and returns EXIT_VERSION.
int file_unversioned_note(FILE *out, const file *f);

#endif
