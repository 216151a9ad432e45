// fxs-rts-hashes: the RTS map (tools/rts_map.h) with its script (a wall closing a door, a
// click, the wall's removal, while the 32 group fields are built), stepped inline on the grid
// and on a mesh; prints for each the last tick's hash and a digest of every tick's hash. The
// crosscheck runs it on every target and compares its output with the native build's, so
// that the map's navigation at scale (the wall grid, budgeted field and tree builds, moves
// sharing fields) gives the same bits on every CPU, compiler and optimisation level.
//
//   fxs-rts-hashes [--agents N] [--ticks T]   (1,000 agents and RTS_SCRIPT_TICKS, 24, by default)
//
// Exits 0 when both runs complete, 1 when a world could not be built (memory or a command), 2
// on bad arguments.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rts_map.h"

// A digest of a sequence of hashes: each folded in with a 64-bit multiply-xorshift.
static uint64_t fold(uint64_t digest, uint64_t hash) {
  digest ^= hash + 0x9e3779b97f4a7c15ULL + (digest << 6) + (digest >> 2);
  digest *= 0xff51afd7ed558ccdULL;
  return digest ^ (digest >> 33);
}

// The run on the grid (mesh 0) or a mesh; 0 when it could not be built.
static int run(uint32_t agents, uint32_t ticks, int mesh) {
  static rts_world r;
  static fxs_command commands[RTS_SCRIPT_MAX_COMMANDS];
  rts_options o = {.workers = 1u,
                   .spare_walls = RTS_SCRIPT_WALLS,
                   .budget = mesh ? RTS_MESH_BUDGET : 0u,
                   .mesh = mesh};
  if (!rts_open(&r, agents, RTS_WALLS, &o)) {
    printf("rts %s: could not build the map (memory or a command)\n", mesh ? "mesh" : "grid");
    return 0;
  }
  uint64_t digest = 0, hash = 0;
  for (uint32_t t = 0; t < ticks; ++t) {
    uint32_t n = rts_script(&r, t, commands);
    fxs_world_step(&r.world, n ? commands : 0, n, 0);
    hash = fxs_world_hash(&r.world);
    digest = fold(digest, hash);
  }
  printf("rts %s, %u agents, %u walls, %u ticks: last %016llx, every tick %016llx\n",
         mesh ? "mesh" : "grid", (unsigned)r.agents, (unsigned)r.walls, (unsigned)ticks,
         (unsigned long long)hash, (unsigned long long)digest);
  free(r.memory);
  return 1;
}

int main(int argc, char **argv) {
  unsigned long agents = 1000, ticks = RTS_SCRIPT_TICKS;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--help") == 0) {
      printf(
          "usage: fxs-rts-hashes [--agents N] [--ticks T]   (N, T: 1..100000; 1000 and %u by "
          "default)\n",
          (unsigned)RTS_SCRIPT_TICKS);
      return 0;
    }
    unsigned long *into = strcmp(argv[i], "--agents") == 0  ? &agents
                          : strcmp(argv[i], "--ticks") == 0 ? &ticks
                                                            : 0;
    if (!into) {
      fprintf(stderr,
              "fxs-rts-hashes: unknown argument '%s' (expected --agents N, --ticks T, --help)\n",
              argv[i]);
      return 2;
    }
    const char *flag = argv[i], *v = i + 1 < argc ? argv[++i] : "";
    char *end = 0;
    *into = strtoul(v, &end, 10);
    if (*v < '0' || *v > '9' || *end != '\0' || *into == 0 || *into > 100000) {
      fprintf(stderr, "fxs-rts-hashes: %s '%s': expected a whole number from 1 to 100000\n", flag,
              v);
      return 2;
    }
  }
  int ok = run((uint32_t)agents, (uint32_t)ticks, 0) && run((uint32_t)agents, (uint32_t)ticks, 1);
  return ok ? 0 : 1;
}
