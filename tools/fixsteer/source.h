// Where the trace, render and stats commands get their states: a scenario run tick by tick
// or a replay re-simulated from its initial snapshot, with every tick's recorded hash checked
// against the re-simulation on the way. Progress is shown on a terminal (progress.h).
#ifndef FIXSTEER_TOOL_SOURCE_H
#define FIXSTEER_TOOL_SOURCE_H

#include <stdbool.h>
#include <stdint.h>

#include "fixsteer/fixsteer.h"
#include "fixsteer/replay.h"
#include "fixsteer/world.h"
#include "cli.h"
#include "files.h"
#include "progress.h"
#include "session.h"

typedef struct source {
  const char *name; // the scenario's name, or the replay's file name
  bool is_replay;
  long ticks;             // ticks source_step will step
  long stepped;           // ticks stepped so far
  const fxs_world *world; // the state after the ticks stepped so far
  uint64_t *hashes;       // replay: the recorded hash after each of its ticks (recorded entries)
  long recorded;          // replay: ticks in the file
  // A replay whose re-simulation on this build differs from its recording stops there.
  bool diverged;
  uint32_t diverged_tick;
  uint64_t expected_hash, actual_hash;
  // Internals.
  session s;
  file f;
  fxs_replay_reader reader;
  fxs_world replay_world;
  void *memory;
  fxs_command *commands;
  progress progress;
} source;

// Opens the scenario of o->scenario (when file_index < 0) or the replay o->files[file_index],
// limited to o->ticks ticks when o->ticks >= 0, with progress for `cmd` unless o->quiet.
// Prints the error and returns EXIT_BAD on failure (nothing to close then), else EXIT_OK.
int source_open(source *src, const char *cmd, const options *o, int file_index);

// Steps one tick. Returns true when a tick was stepped; false at the end, or when a replay
// stopped reproducing its recording (src->diverged is then set; source_report_divergence
// says where).
bool source_step(source *src);

// Ends the progress line, and prints "FILE: DIVERGED at tick N ..." to stderr when the source
// diverged; returns the exit code for it (EXIT_DIVERGED, or EXIT_OK when it did not diverge).
int source_report_divergence(source *src);

void source_close(source *src);

#endif
