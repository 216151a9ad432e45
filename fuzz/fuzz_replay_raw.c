// Replays as they arrive from another player: raw bytes to the reader (open, then every
// chunk, with and without the fingerprint check) and to the verifier. Most mutations stop
// at a checksum; fuzz_replay_fixed.c repairs them to reach the simulation.
#include "replay_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  replay_exercise(data, size);
  return 0;
}
