// Scenario files shared between players: YAML through the fixsteer tool's loader (libyaml),
// then a few ticks of the loaded scenario recorded as `fixsteer record` does (configure, add
// paths, the scenario's commands each tick, the step). The recording must verify.
//
// First the YAML reader alone (yaml_read.c), under the default limits and under tight ones
// (depth 4, 64 nodes) that small inputs reach: a tree it accepts must keep its promises,
// checked here the slow and obvious way (every node reached once, no deeper than the limit,
// no key twice in a mapping, aliases naming finished nodes), and a file accepted under the
// tight limits must be accepted under the default ones.
#include "fuzz_common.h"
#include "scenario_file.h"
#include "yaml_read.h"

#define TICKS 8u

static unsigned long refused;

static void report_refused(void) {
  if (refused) {
    fprintf(stderr, "scenario: %lu inputs refused: their world needs more than %zu MiB\n", refused,
            FUZZ_MEMORY_LIMIT >> 20);
  }
}

static void record(const scenario *sc) {
  fxs_world_def def;
  sc->configure(sc, &def);
  fuzz_world fw;
  if (fxs_world_memory_size(&sc->capacity) > FUZZ_MEMORY_LIMIT) {
    refused++;
    return;
  }
  FUZZ_CHECK(fuzz_world_make(&fw, &def, &sc->capacity), "cannot set up the world of a loaded file");
  fxs_world *w = &fw.world;
  sc->add_paths(sc, w);
  static scenario_state state;
  memset(&state, 0, sizeof state);
  size_t scratch_size = fxs_world_snapshot_bound(&sc->capacity);
  uint8_t *scratch = malloc(scratch_size);
  FUZZ_CHECK(scratch != 0, "out of memory");
  fuzz_sink sink = {0, 0, 0};
  fxs_replay_writer rw;
  fxs_result r = fxs_replay_writer_begin(&rw, fuzz_sink_write, &sink, w, 3, scratch, scratch_size);
  static fxs_command commands[SCENARIO_MAX_COMMANDS];
  for (uint32_t t = 0; t < TICKS && r == FXS_OK; ++t) {
    uint32_t n = sc->commands(sc, w, &state, commands);
    FUZZ_CHECK(n <= SCENARIO_MAX_COMMANDS, "%u commands in one tick", n);
    fxs_world_step(w, commands, n, 0);
    r = fxs_replay_writer_tick(&rw, w, commands, n);
  }
  if (r == FXS_OK) r = fxs_replay_writer_end(&rw, w);
  FUZZ_CHECK(r == FXS_OK, "recording failed: %s", fxs_result_message(r));
  fuzz_check_own_replay(&sink, TICKS);
  free(sink.data);
  free(scratch);
  fuzz_world_free(&fw);
}

static bool same_key(const ydoc *d, const ynode *a, const ynode *b) {
  return a->kind == YNODE_SCALAR && b->kind == YNODE_SCALAR && a->count == b->count &&
         memcmp(d->text + a->first, d->text + b->first, a->count) == 0;
}

// Visits node `index` and the nodes it holds (not through aliases, each node of the tree is
// visited once) and returns its nodes with every alias written out, saturated at 2^32, also
// kept in written[index]. An alias must name a node whose count is known: one finished before
// it, not one that holds it.
typedef struct tree_check {
  const ydoc *d;
  uint32_t max_depth, seen;
  uint64_t *written;
} tree_check;

static uint64_t check_node(tree_check *t, uint32_t index, uint32_t depth) {
  const ydoc *d = t->d;
  FUZZ_CHECK(index < d->node_count, "node %u of %u", index, d->node_count);
  const ynode *n = &d->nodes[index];
  ++t->seen;
  if (n->kind == YNODE_SCALAR) {
    FUZZ_CHECK((uint64_t)n->first + n->count < d->text_size &&
                   d->text[n->first + n->count] == '\0' &&
                   !memchr(d->text + n->first, '\0', n->count),
               "scalar text out of place");
    return t->written[index] = 1;
  }
  FUZZ_CHECK(n->kind == YNODE_SEQUENCE || n->kind == YNODE_MAPPING, "node kind %u", n->kind);
  FUZZ_CHECK(depth + 1u <= t->max_depth, "a node nested %u deep, the limit is %u", depth + 1u,
             t->max_depth);
  FUZZ_CHECK((uint64_t)n->first + n->count <= d->child_count, "children out of place");
  FUZZ_CHECK(n->kind == YNODE_SEQUENCE || n->count % 2u == 0, "a mapping with an odd child count");
  uint64_t total = 1;
  for (uint32_t i = 0; i < n->count; ++i) {
    uint32_t c = d->children[n->first + i];
    FUZZ_CHECK(c > index && c < d->node_count, "child %u of node %u", c, index);
    if (d->nodes[c].kind == YNODE_ALIAS) {
      uint32_t target = d->nodes[c].first;
      FUZZ_CHECK(target < c && d->nodes[target].kind != YNODE_ALIAS && t->written[target] != 0,
                 "alias %u names node %u, unfinished or an alias", c, target);
      ++t->seen;
      total += t->written[target];
    } else {
      total += check_node(t, c, depth + 1u);
    }
    if (total > UINT32_MAX) total = UINT32_MAX;
  }
  for (uint32_t i = 0; n->kind == YNODE_MAPPING && i < n->count; i += 2) {
    for (uint32_t j = 0; j < i; j += 2) {
      FUZZ_CHECK(!same_key(d, ydoc_child(d, n, i), ydoc_child(d, n, j)),
                 "key %u given twice in node %u", i / 2, index);
    }
  }
  return t->written[index] = total;
}

// Reads with `limits` into *d; when the file is accepted, checks the whole tree. Returns
// whether it was (*d is then the caller's to free).
static bool read_and_check(ydoc *d, const uint8_t *data, size_t size, const ydoc_limits *limits,
                           char *error, size_t error_size) {
  if (!ydoc_read(d, "fuzz.yaml", data, size, limits, error, error_size)) {
    FUZZ_CHECK(strncmp(error, "fuzz.yaml:", 10) == 0, "a refusal without the file's name: %s",
               error);
    FUZZ_CHECK(d->nodes == 0 && d->children == 0 && d->text == 0, "a refused file left its tree");
    return false;
  }
  if (d->root != YDOC_NO_ROOT) {
    tree_check t = {d, limits->max_depth, 0, calloc(d->node_count, sizeof(uint64_t))};
    FUZZ_CHECK(t.written != 0, "out of memory");
    uint64_t nodes = check_node(&t, d->root, 0);
    FUZZ_CHECK(t.seen == d->node_count, "%u nodes reached of %u", t.seen, d->node_count);
    FUZZ_CHECK(nodes <= limits->max_nodes, "%llu nodes written out, the limit is %llu",
               (unsigned long long)nodes, (unsigned long long)limits->max_nodes);
    free(t.written);
  } else {
    FUZZ_CHECK(d->node_count == 0, "%u nodes and no root", d->node_count);
  }
  return true;
}

// The file through the reader under the default and the tight limits, then the loader on the
// default reading (scenario_file_load_buffer is the two in a row).
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static int registered;
  if (!registered) registered = 1, atexit(report_refused);
  char error[512], tight_error[512];
  scenario_file_limits limits = scenario_file_default_limits(), tight = limits;
  tight.max_depth = 4, tight.max_nodes = 64;
  ydoc d, t;
  bool accepted = read_and_check(&d, data, size, &limits, error, sizeof error);
  if (read_and_check(&t, data, size, &tight, tight_error, sizeof tight_error)) {
    FUZZ_CHECK(accepted, "accepted under the tight limits only");
    ydoc_free(&t);
  } else if (accepted) {
    FUZZ_CHECK(strstr(tight_error, "--max-yaml-depth") || strstr(tight_error, "--max-yaml-nodes"),
               "refused under the tight limits only, not for a limit: %s", tight_error);
  }
  if (!accepted) return 0;
  const scenario *sc = scenario_file_from_document("fuzz.yaml", &d, error, sizeof error);
  ydoc_free(&d);
  if (!sc) {
    FUZZ_CHECK(error[0] != '\0', "a refused file has no error message");
    return 0;
  }
  record(sc);
  scenario_file_free(sc);
  return 0;
}
