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
// FXS_ERR_LIMIT) and returns the tool's exit code for bad input.
int file_bad_input(const file *f, size_t offset, fxs_result r, const fxs_limit_error *limit);

#endif
