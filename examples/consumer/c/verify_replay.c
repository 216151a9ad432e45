// A C99 program using an installed fixsteer: loads a replay, re-simulates it with
// fxs_replay_verify and prints the final state hash.
//
//   cc -std=c99 verify_replay.c $(pkg-config --cflags --libs fixsteer) -o verify_replay
//   ./verify_replay hunter_prey.fxr
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixsteer/fixsteer.h"

// Reads a whole file into a malloc'd buffer; NULL on failure.
static unsigned char *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  unsigned char *data = NULL;
  long length = -1;
  if (fseek(f, 0, SEEK_END) == 0) length = ftell(f);
  if (length > 0 && fseek(f, 0, SEEK_SET) == 0) {
    data = malloc((size_t)length);
    if (data && fread(data, 1, (size_t)length, f) != (size_t)length) {
      free(data);
      data = NULL;
    }
  }
  fclose(f);
  *size = (size_t)length;
  return data;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s REPLAY.fxr\n", argv[0]);
    return 2;
  }
  // A program may run with a newer shared library than it was compiled against.
  if (strcmp(fxs_version(), FXS_VERSION_STRING) != 0) {
    fprintf(stderr, "note: compiled against fixsteer %s, running with %s\n", FXS_VERSION_STRING,
            fxs_version());
  }
  // The math this binary runs on must be the pinned one, or peers and replays disagree.
  if (fxs_math_fingerprint() != FXS_MATH_FINGERPRINT_PINNED) {
    fprintf(stderr, "fixsteer was built with a different libfixmath\n");
    return 1;
  }
  size_t size = 0;
  unsigned char *data = read_file(argv[1], &size);
  if (!data) {
    fprintf(stderr, "%s: cannot read\n", argv[1]);
    return 2;
  }
  size_t need = fxs_replay_verify_memory_size(data, size, NULL);
  void *memory = need ? malloc(need) : NULL;
  fxs_verify_report report;
  fxs_result result =
      memory ? fxs_replay_verify(data, size, NULL, memory, need, &report) : FXS_ERR_BAD_MAGIC;
  free(memory);
  free(data);
  if (result != FXS_OK) {
    fprintf(stderr, "%s: %s\n", argv[1], fxs_result_message(result));
    return 1;
  }
  printf("fixsteer %s, replay format %u: %s: %u ticks verified, final hash 0x%016llx\n",
         fxs_version(), (unsigned)fxs_replay_format_version(), argv[1], (unsigned)report.ticks,
         (unsigned long long)report.final_hash);
  return 0;
}
