// Progress on a terminal (progress.h).
#define _POSIX_C_SOURCE 200809L

#include "progress.h"

#include <stdio.h>
#include <unistd.h>

void progress_start(progress *p, const char *what, uint64_t ticks, bool quiet) {
  p->what = what;
  p->total = ticks ? ticks : 1u;
  p->in_ticks = true;
  p->percent = -1;
  p->on = !quiet && isatty(STDERR_FILENO);
}

void progress_start_bytes(progress *p, const char *what, uint64_t bytes, bool quiet) {
  progress_start(p, what, bytes, quiet);
  p->in_ticks = false;
}

void progress_show(progress *p, uint64_t done, uint64_t tick) {
  if (!p->on) return;
  int percent = (int)(done >= p->total ? 100u : done * 100u / p->total);
  if (percent == p->percent) return;
  p->percent = percent;
  fprintf(stderr, "\r%s: %3d%% (tick %llu", p->what, percent, (unsigned long long)tick);
  if (p->in_ticks) fprintf(stderr, " of %llu", (unsigned long long)p->total);
  fputs(")   ", stderr);
  fflush(stderr);
}

void progress_end(progress *p) {
  if (!p->on || p->percent < 0) return;
  fprintf(stderr, "\r%60s\r", "");
  fflush(stderr);
  p->percent = -1;
}
