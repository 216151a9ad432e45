// Progress of long work (record, verify, trace, render, stats), on stderr, only when stderr is
// a terminal and --quiet was not given: one line rewritten in place ("record: 42% (tick 4200 of
// 10000)"), at most once a percent, and wiped when the work ends. Piped or redirected, the
// tool prints nothing of it, so outputs and logs stay as they were.
#ifndef FIXSTEER_TOOL_PROGRESS_H
#define FIXSTEER_TOOL_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct progress {
  const char *what; // the command, at the start of the line
  uint64_t total;   // the units of the whole work (ticks, or bytes of a replay)
  bool in_ticks;    // total counts ticks ("tick 4200 of 10000"), else bytes ("tick 4200")
  int percent;      // last shown, -1: none yet
  bool on;          // stderr is a terminal and not quiet
} progress;

// Starts reporting `ticks` ticks of work for `what`; with `quiet`, or when stderr is not a
// terminal, every later call does nothing.
void progress_start(progress *p, const char *what, uint64_t ticks, bool quiet);

// The same for work measured in `bytes` read (a replay verified).
void progress_start_bytes(progress *p, const char *what, uint64_t bytes, bool quiet);

// `done` units of the total are done (ticks or bytes); `tick` is the tick reached.
void progress_show(progress *p, uint64_t done, uint64_t tick);

// Wipes the line (call it before printing a result or an error).
void progress_end(progress *p);

#endif
