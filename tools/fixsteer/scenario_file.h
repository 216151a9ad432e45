// Scenario files: a YAML description of a world (bounds, seed, paths, obstacles, agents with
// their behaviors) and timed events, parsed with libyaml. See scenarios/example.yaml.
//
// Numbers are decimal text converted to Q16.16 with integer arithmetic only, so one file
// means the same world on every machine. Errors name the file and the line.
#ifndef FIXSTEER_TOOL_SCENARIO_FILE_H
#define FIXSTEER_TOOL_SCENARIO_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "scenario.h"

// What a scenario file may ask for. Files come from other people: anchors and aliases let a
// few kilobytes describe millions of nodes, so the document is measured as if every alias
// were written out before anything is built from it.
typedef struct scenario_file_limits {
  size_t max_bytes;   // size of the file; default SCENARIO_FILE_MAX_BYTES
  uint64_t max_nodes; // YAML nodes with every alias expanded; default SCENARIO_FILE_MAX_NODES
} scenario_file_limits;

#define SCENARIO_FILE_MAX_BYTES ((size_t)16 << 20)
#define SCENARIO_FILE_MAX_NODES UINT64_C(1000000)

scenario_file_limits scenario_file_default_limits(void);

// Loads `path` into a scenario (freed with scenario_file_free). On failure returns NULL and
// writes "FILE:LINE: problem" into error. limits NULL: the defaults.
const scenario *scenario_file_load(const char *path, const scenario_file_limits *limits, char *error,
                                   size_t error_size);

// The same from `size` bytes in memory (not NUL-terminated); `name` stands for the file in
// error messages. scenario_file_load reads the file and calls this.
const scenario *scenario_file_load_buffer(const char *name, const unsigned char *data, size_t size,
                                          const scenario_file_limits *limits, char *error,
                                          size_t error_size);

void scenario_file_free(const scenario *sc);

// Parses a decimal number ("-12.375", "3", "0.5") into Q16.16, rounded to nearest, without
// floating point. Returns 0 on success, -1 for text that is not a number or out of range.
int scenario_parse_fix16(const char *text, fix16_t *out);

#endif
