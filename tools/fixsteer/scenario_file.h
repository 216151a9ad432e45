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
#include "yaml_read.h"

// What a scenario file may ask for (yaml_read.h): its size, its nesting depth and its nodes
// with every alias written out (anchors and aliases let a few kilobytes describe millions of
// nodes). Files come from other people: each limit is checked before the work it bounds.
typedef ydoc_limits scenario_file_limits;

// 64 MiB: a 100,000-agent scene takes about 10 MB written one agent a line in flow style and
// 22 MB in block style with a few parameters and two behaviors an agent (about 220 bytes).
// Its sections are the world before tick 0 (the scenario's add_paths), not tick 0's input,
// so SCENARIO_MAX_COMMANDS bounds the events of a tick only.
#define SCENARIO_FILE_MAX_BYTES ((size_t)64 << 20)
#define SCENARIO_FILE_MAX_NODES UINT64_C(1000000)
// A scene nests five deep: the file, its agents, an agent, its behaviors, a behavior.
#define SCENARIO_FILE_MAX_DEPTH 64u

scenario_file_limits scenario_file_default_limits(void);

// Loads `path` into a scenario (freed with scenario_file_free). On failure returns NULL and
// writes "FILE:LINE: problem" into error. limits NULL: the defaults.
const scenario *scenario_file_load(const char *path, const scenario_file_limits *limits,
                                   char *error, size_t error_size);

// The same from `size` bytes in memory (not NUL-terminated); `name` stands for the file in
// error messages.
const scenario *scenario_file_load_buffer(const char *name, const unsigned char *data, size_t size,
                                          const scenario_file_limits *limits, char *error,
                                          size_t error_size);

// The scenario a document read by ydoc_read describes (both loaders end here); the document
// stays the caller's.
const scenario *scenario_file_from_document(const char *name, const ydoc *doc, char *error,
                                            size_t error_size);

void scenario_file_free(const scenario *sc);

#endif
