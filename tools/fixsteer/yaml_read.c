#define _POSIX_C_SOURCE 200809L

#include "yaml_read.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

// Longest key compared for duplicates. YAML itself allows no longer implicit key (1024
// characters); explicit keys and aliases could be, and comparing them would cost their length
// in every mapping that names them.
#define MAX_KEY_BYTES 1024u

// A sequence or mapping not yet ended.
typedef struct frame {
  uint32_t node;    // its index
  uint32_t pending; // where its children start in reader.pending
  uint32_t anchor;  // its anchor's index, or UINT32_MAX
  uint64_t before;  // reader.nodes before it was opened
} frame;

typedef struct anchor {
  uint64_t hash;
  uint32_t name, length; // its name in reader.names
  uint32_t node;
  uint64_t nodes; // its node with aliases written out; 0 while the node is still open
} anchor;

// A key of the mapping being checked for duplicates.
typedef struct key_ref {
  const char *text;
  uint32_t hash, length;
  uint32_t node; // the scalar (an alias's target), so that two aliases of one key compare fast
  uint32_t at;   // its place among the mapping's keys
} key_ref;

typedef struct reader {
  ydoc *d;
  const char *name;
  const ydoc_limits *limits;
  char *error;
  size_t error_size;
  uint64_t nodes; // so far, aliases written out
  frame *frames;
  uint32_t depth, frame_capacity;
  uint32_t *pending; // children of the open collections, innermost last
  uint32_t pending_count, pending_capacity;
  anchor *anchors;
  uint32_t anchor_count, anchor_capacity;
  uint32_t *slots; // hash table of anchors: index + 1, 0 empty; a power of two long
  uint32_t slot_capacity;
  char *names;
  uint32_t names_size, names_capacity;
  key_ref *keys;
  uint32_t key_capacity;
  int documents;
} reader;

// ------------------------------------------------------------------ helpers

static bool fail(reader *r, yaml_mark_t mark, const char *fmt, ...) {
  int n = snprintf(r->error, r->error_size, "%s:%lu: column %lu: ", r->name,
                   (unsigned long)mark.line + 1, (unsigned long)mark.column + 1);
  va_list ap;
  va_start(ap, fmt);
  if (n >= 0 && (size_t)n < r->error_size) {
    vsnprintf(r->error + n, r->error_size - (size_t)n, fmt, ap);
  }
  va_end(ap);
  return false;
}

static yaml_mark_t mark_of(const ynode *n) {
  yaml_mark_t m = {0, n->line - 1u, n->column - 1u};
  return m;
}

// `p` with room for `need` items of `item` bytes: reallocated, doubling, when *capacity is
// short. *ok is false (and p returned as it was) when the size would not fit a uint32_t count
// or a size_t (32-bit hosts included), or memory runs out.
static void *room(void *p, uint32_t *capacity, uint64_t need, size_t item, bool *ok) {
  *ok = true;
  if (need <= *capacity) return p;
  uint64_t cap = *capacity ? *capacity : 64;
  while (cap < need) cap *= 2;
  void *q = cap <= UINT32_MAX && cap <= SIZE_MAX / item ? realloc(p, (size_t)cap * item) : 0;
  if (!q) return *ok = false, p;
  *capacity = (uint32_t)cap;
  return q;
}

static uint64_t fnv1a(const unsigned char *s, size_t n) {
  uint64_t h = UINT64_C(0xcbf29ce484222325);
  for (size_t i = 0; i < n; ++i) h = (h ^ s[i]) * UINT64_C(0x100000001b3);
  return h;
}

// At most 48 printable ASCII characters of s (others as '?'): names from the file go into
// messages on a terminal.
static const char *printable(const char *s, size_t n, char out[56]) {
  size_t k = 0;
  for (size_t i = 0; i < n && k < 48; ++i) out[k++] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
  strcpy(out + k, n > 48 ? "..." : "");
  return out;
}

// Appends `length` bytes and a NUL to one of the text arenas; its offset, or UINT32_MAX.
static uint32_t store_text(char **arena, uint32_t *size, uint32_t *capacity, const void *s,
                           size_t length) {
  uint64_t need = (uint64_t)*size + length + 1u;
  bool ok = need < UINT32_MAX;
  if (ok) *arena = room(*arena, capacity, need, 1, &ok);
  if (!ok) return UINT32_MAX;
  uint32_t at = *size;
  memcpy(*arena + at, s, length);
  (*arena)[at + length] = '\0';
  *size = (uint32_t)need;
  return at;
}

// ------------------------------------------------------------------ anchors

static uint32_t find_anchor(const reader *r, const char *name, size_t length, uint64_t hash) {
  if (r->slot_capacity == 0) return UINT32_MAX;
  for (uint32_t s = (uint32_t)hash & (r->slot_capacity - 1u);;
       s = (s + 1u) & (r->slot_capacity - 1u)) {
    if (r->slots[s] == 0) return UINT32_MAX;
    const anchor *a = &r->anchors[r->slots[s] - 1u];
    if (a->hash == hash && a->length == length && memcmp(r->names + a->name, name, length) == 0) {
      return r->slots[s] - 1u;
    }
  }
}

// Doubles the table once it is half full, so that a probe ends soon.
static bool grow_slots(reader *r) {
  if ((uint64_t)(r->anchor_count + 1u) * 2u <= r->slot_capacity) return true;
  uint64_t cap = r->slot_capacity ? (uint64_t)r->slot_capacity * 2u : 64u;
  if (cap > UINT32_MAX || cap > SIZE_MAX / sizeof *r->slots) return false;
  uint32_t *slots = calloc((size_t)cap, sizeof *slots);
  if (!slots) return false;
  for (uint32_t i = 0; i < r->anchor_count; ++i) {
    uint32_t s = (uint32_t)r->anchors[i].hash & (uint32_t)(cap - 1u);
    while (slots[s]) s = (s + 1u) & (uint32_t)(cap - 1u);
    slots[s] = i + 1u;
  }
  free(r->slots);
  r->slots = slots;
  r->slot_capacity = (uint32_t)cap;
  return true;
}

// Registers `name` for `node`; its index in *out. Two anchors of one name are refused as
// libyaml's loader refuses them: an alias would otherwise depend on which one it meant.
static bool add_anchor(reader *r, const yaml_char_t *name, yaml_mark_t mark, uint32_t node,
                       uint32_t *out) {
  size_t length = strlen((const char *)name);
  uint64_t hash = fnv1a(name, length);
  uint32_t old = find_anchor(r, (const char *)name, length, hash);
  char shown[56];
  if (old != UINT32_MAX) {
    return fail(r, mark, "anchor '&%s' is defined twice (first at line %u)",
                printable((const char *)name, length, shown),
                r->d->nodes[r->anchors[old].node].line);
  }
  uint32_t at = store_text(&r->names, &r->names_size, &r->names_capacity, name, length);
  bool ok = at != UINT32_MAX && grow_slots(r);
  if (ok) {
    r->anchors =
        room(r->anchors, &r->anchor_capacity, r->anchor_count + 1ull, sizeof *r->anchors, &ok);
  }
  if (!ok) return fail(r, mark, "out of memory");
  anchor *a = &r->anchors[r->anchor_count];
  a->hash = hash, a->name = at, a->length = (uint32_t)length, a->node = node, a->nodes = 0;
  uint32_t s = (uint32_t)hash & (r->slot_capacity - 1u);
  while (r->slots[s]) s = (s + 1u) & (r->slot_capacity - 1u);
  r->slots[s] = ++r->anchor_count;
  *out = r->anchor_count - 1u;
  return true;
}

// ------------------------------------------------------------------ nodes

// Counts `nodes` more nodes, aliases written out; false past the limit.
static bool count_nodes(reader *r, yaml_mark_t mark, uint64_t nodes) {
  r->nodes += nodes;
  if (r->nodes <= r->limits->max_nodes) return true;
  return fail(r, mark,
              "with its aliases written out the file has more than %llu nodes "
              "(raise it with --max-yaml-nodes)",
              (unsigned long long)r->limits->max_nodes);
}

static bool new_node(reader *r, yaml_mark_t mark, uint8_t kind, uint32_t *index) {
  ydoc *d = r->d;
  bool ok;
  d->nodes = room(d->nodes, &d->node_capacity, d->node_count + 1ull, sizeof *d->nodes, &ok);
  if (!ok) return fail(r, mark, "out of memory");
  ynode *n = &d->nodes[d->node_count];
  memset(n, 0, sizeof *n);
  n->line = (uint32_t)mark.line + 1u, n->column = (uint32_t)mark.column + 1u, n->kind = kind;
  *index = d->node_count++;
  return true;
}

// A finished node becomes the next child of the innermost open collection, or the root.
static bool attach(reader *r, uint32_t index) {
  if (r->depth == 0) {
    r->d->root = index;
    return true;
  }
  bool ok;
  r->pending =
      room(r->pending, &r->pending_capacity, r->pending_count + 1ull, sizeof *r->pending, &ok);
  if (!ok) return fail(r, mark_of(&r->d->nodes[index]), "out of memory");
  r->pending[r->pending_count++] = index;
  return true;
}

static bool add_scalar(reader *r, const yaml_event_t *e) {
  const char *value = (const char *)e->data.scalar.value;
  size_t length = e->data.scalar.length;
  if (length && memchr(value, '\0', length)) {
    return fail(r, e->start_mark, "a NUL character inside a scalar");
  }
  uint32_t index, anchor_index;
  if (!count_nodes(r, e->start_mark, 1) || !new_node(r, e->start_mark, YNODE_SCALAR, &index)) {
    return false;
  }
  ynode *n = &r->d->nodes[index];
  n->first = store_text(&r->d->text, &r->d->text_size, &r->d->text_capacity, value, length);
  if (n->first == UINT32_MAX) return fail(r, e->start_mark, "out of memory");
  n->count = (uint32_t)length;
  n->hash = (uint32_t)fnv1a((const unsigned char *)value, length);
  if (e->data.scalar.anchor) {
    if (!add_anchor(r, e->data.scalar.anchor, e->start_mark, index, &anchor_index)) return false;
    r->anchors[anchor_index].nodes = 1;
  }
  return attach(r, index);
}

static bool add_alias(reader *r, const yaml_event_t *e) {
  const char *name = (const char *)e->data.alias.anchor;
  size_t length = strlen(name);
  uint32_t a = find_anchor(r, name, length, fnv1a((const unsigned char *)name, length));
  char shown[56];
  if (a == UINT32_MAX) {
    return fail(r, e->start_mark, "alias '*%s' names no anchor defined before it",
                printable(name, length, shown));
  }
  if (r->anchors[a].nodes == 0) {
    return fail(r, e->start_mark, "an alias refers to a node that contains it");
  }
  uint32_t index;
  if (!count_nodes(r, e->start_mark, r->anchors[a].nodes) ||
      !new_node(r, e->start_mark, YNODE_ALIAS, &index)) {
    return false;
  }
  r->d->nodes[index].first = r->anchors[a].node;
  return attach(r, index);
}

static bool open_collection(reader *r, const yaml_event_t *e) {
  if (r->depth >= r->limits->max_depth) {
    return fail(r, e->start_mark,
                "sequences and mappings nested more than %u deep (raise it with --max-yaml-depth)",
                r->limits->max_depth);
  }
  bool sequence = e->type == YAML_SEQUENCE_START_EVENT;
  const yaml_char_t *anchor_name =
      sequence ? e->data.sequence_start.anchor : e->data.mapping_start.anchor;
  uint64_t before = r->nodes;
  uint32_t index, anchor_index = UINT32_MAX;
  if (!count_nodes(r, e->start_mark, 1) ||
      !new_node(r, e->start_mark, sequence ? YNODE_SEQUENCE : YNODE_MAPPING, &index) ||
      (anchor_name && !add_anchor(r, anchor_name, e->start_mark, index, &anchor_index))) {
    return false;
  }
  bool ok;
  r->frames = room(r->frames, &r->frame_capacity, r->depth + 1ull, sizeof *r->frames, &ok);
  if (!ok) return fail(r, e->start_mark, "out of memory");
  frame *f = &r->frames[r->depth++];
  f->node = index, f->pending = r->pending_count, f->anchor = anchor_index, f->before = before;
  return true;
}

static bool no_duplicate_keys(reader *r, const ynode *map);

static bool close_collection(reader *r, const yaml_event_t *e) {
  ydoc *d = r->d;
  frame f = r->frames[--r->depth];
  uint32_t count = r->pending_count - f.pending;
  if (count) { // an empty one has no children to keep (and d->children may be NULL)
    bool ok;
    d->children = room(d->children, &d->child_capacity, (uint64_t)d->child_count + count,
                       sizeof *d->children, &ok);
    if (!ok) return fail(r, e->start_mark, "out of memory");
    memcpy(d->children + d->child_count, r->pending + f.pending, count * sizeof *d->children);
  }
  ynode *n = &d->nodes[f.node];
  n->first = d->child_count, n->count = count;
  d->child_count += count;
  r->pending_count = f.pending;
  if (f.anchor != UINT32_MAX) r->anchors[f.anchor].nodes = r->nodes - f.before;
  if (n->kind == YNODE_MAPPING && !no_duplicate_keys(r, n)) return false;
  return attach(r, f.node);
}

// ------------------------------------------------------------------ duplicate keys

static int by_hash(const void *pa, const void *pb) {
  const key_ref *a = pa, *b = pb;
  if (a->hash != b->hash) return a->hash < b->hash ? -1 : 1;
  if (a->length != b->length) return a->length < b->length ? -1 : 1;
  return a->at < b->at ? -1 : a->at > b->at;
}

static int by_text(const void *pa, const void *pb) {
  const key_ref *a = pa, *b = pb;
  int c = a->node == b->node ? 0 : memcmp(a->text, b->text, a->length);
  if (c) return c;
  return a->at < b->at ? -1 : a->at > b->at;
}

// Keys are sorted by hash; only keys of one hash and length are compared byte by byte (a
// run longer than two, sorted by text). Of the duplicates, the one given earliest in the file
// is named, with where the key was first given.
static bool no_duplicate_keys(reader *r, const ynode *map) {
  const ydoc *d = r->d;
  uint32_t pairs = map->count / 2u, used = 0;
  if (pairs < 2) return true;
  bool ok;
  r->keys = room(r->keys, &r->key_capacity, pairs, sizeof *r->keys, &ok);
  if (!ok) return fail(r, mark_of(map), "out of memory");
  for (uint32_t i = 0; i < pairs; ++i) {
    const ynode *raw = &d->nodes[d->children[map->first + 2u * i]];
    const ynode *k = ydoc_child(d, map, 2u * i);
    if (k->kind != YNODE_SCALAR) continue; // never a valid key of a scenario file: refused there
    if (k->count > MAX_KEY_BYTES) {
      return fail(r, mark_of(raw), "a key of %u bytes (keys are at most %u)", k->count,
                  MAX_KEY_BYTES);
    }
    key_ref *ref = &r->keys[used++];
    ref->text = d->text + k->first, ref->hash = k->hash, ref->length = k->count;
    ref->node = (uint32_t)(k - d->nodes), ref->at = i;
  }
  qsort(r->keys, used, sizeof *r->keys, by_hash);
  uint32_t first = UINT32_MAX, second = UINT32_MAX;
  for (uint32_t i = 0, j; i < used; i = j) {
    const key_ref *run = &r->keys[i];
    for (j = i + 1u; j < used && r->keys[j].hash == run->hash && r->keys[j].length == run->length;)
      ++j;
    if (j - i > 2u) qsort(r->keys + i, j - i, sizeof *r->keys, by_text);
    for (uint32_t k = i + 1u; k < j; ++k) {
      const key_ref *a = &r->keys[k - 1u], *b = &r->keys[k];
      bool same = a->node == b->node || memcmp(a->text, b->text, a->length) == 0;
      if (same && b->at < second) second = b->at, first = a->at;
    }
  }
  if (second == UINT32_MAX) return true;
  // Equal keys stand in file order, so the pair with the earliest second key starts with
  // the first time that key was given.
  const ynode *k1 = &d->nodes[d->children[map->first + 2u * first]];
  const ynode *k2 = &d->nodes[d->children[map->first + 2u * second]];
  const ynode *key = ydoc_child(d, map, 2u * second);
  char shown[56];
  return fail(r, mark_of(k2), "duplicate key '%s' in a mapping (first at line %u)",
              printable(d->text + key->first, key->count, shown), k1->line);
}

// ------------------------------------------------------------------ the document

static bool on_event(reader *r, const yaml_event_t *e) {
  switch (e->type) {
    case YAML_DOCUMENT_START_EVENT:
      return ++r->documents == 1 ||
             fail(r, e->start_mark, "a second YAML document (a file holds one)");
    case YAML_SCALAR_EVENT:
      return add_scalar(r, e);
    case YAML_ALIAS_EVENT:
      return add_alias(r, e);
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT:
      return open_collection(r, e);
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
      return close_collection(r, e);
    default:
      return true;
  }
}

static bool too_large(const char *name, size_t max, char *error, size_t error_size) {
  snprintf(error, error_size,
           "%s: the file is larger than the limit of %zu bytes (raise it with --max-yaml-bytes)",
           name, max);
  return false;
}

bool ydoc_read(ydoc *d, const char *name, const unsigned char *data, size_t size,
               const ydoc_limits *limits, char *error, size_t error_size) {
  memset(d, 0, sizeof *d);
  d->root = YDOC_NO_ROOT;
  error[0] = '\0';
  if (size > limits->max_bytes) return too_large(name, limits->max_bytes, error, error_size);
  reader r;
  memset(&r, 0, sizeof r);
  r.d = d, r.name = name, r.limits = limits, r.error = error, r.error_size = error_size;
  yaml_parser_t parser;
  bool ok = yaml_parser_initialize(&parser) != 0, end = false;
  if (!ok) snprintf(error, error_size, "%s: out of memory", name);
  if (ok) yaml_parser_set_input_string(&parser, data, size);
  while (ok && !end) {
    yaml_event_t e;
    if (!yaml_parser_parse(&parser, &e)) {
      ok = fail(&r, parser.problem_mark, "YAML syntax error: %s",
                parser.problem ? parser.problem : "unreadable");
      break;
    }
    end = e.type == YAML_STREAM_END_EVENT;
    ok = on_event(&r, &e);
    yaml_event_delete(&e);
  }
  yaml_parser_delete(&parser);
  free(r.frames);
  free(r.pending);
  free(r.anchors);
  free(r.slots);
  free(r.names);
  free(r.keys);
  if (!ok) ydoc_free(d);
  return ok;
}

// The file's bytes in *data (malloc'd), at most max + 1 of them; false with the error written
// when it cannot be read.
static bool read_bytes(const char *path, size_t max, unsigned char **data, size_t *size,
                       char *error, size_t error_size) {
  FILE *f = fopen(path, "rb");
  if (!f) return snprintf(error, error_size, "%s: cannot read the file", path), false;
  // A regular file's size is known before it is read: a file over the limit is refused
  // unread, and the buffer is allocated once. Anything else is read in doubling blocks up to
  // one byte past the limit (a device such as /dev/zero never ends).
  struct stat st;
  size_t capacity = 1u << 16, n;
  if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)) {
    if ((uint64_t)st.st_size > max) return fclose(f), too_large(path, max, error, error_size);
    capacity = (size_t)st.st_size + 1u;
  }
  unsigned char *buffer = malloc(capacity);
  *size = 0;
  while (buffer && *size <= max && (n = fread(buffer + *size, 1, capacity - *size, f)) > 0) {
    *size += n;
    if (*size == capacity && *size <= max) { // room up to one byte past the limit, no more
      size_t more = capacity <= max / 2 ? capacity * 2 : max + 1u;
      unsigned char *grown = realloc(buffer, more);
      if (!grown) free(buffer);
      buffer = grown, capacity = more;
    }
  }
  bool read_error = ferror(f) != 0;
  fclose(f);
  if (!buffer || read_error) {
    snprintf(error, error_size, "%s: %s", path, buffer ? "cannot read the file" : "out of memory");
    free(buffer);
    return false;
  }
  *data = buffer;
  return true;
}

bool ydoc_read_file(ydoc *d, const char *path, const ydoc_limits *limits, char *error,
                    size_t error_size) {
  unsigned char *data = 0;
  size_t size = 0;
  memset(d, 0, sizeof *d);
  d->root = YDOC_NO_ROOT;
  if (!read_bytes(path, limits->max_bytes, &data, &size, error, error_size)) return false;
  bool ok = ydoc_read(d, path, data, size, limits, error, error_size);
  free(data);
  return ok;
}

void ydoc_free(ydoc *d) {
  free(d->nodes);
  free(d->children);
  free(d->text);
  memset(d, 0, sizeof *d);
  d->root = YDOC_NO_ROOT;
}

const ynode *ydoc_root(const ydoc *d) {
  if (d->root == YDOC_NO_ROOT) return 0;
  const ynode *n = &d->nodes[d->root];
  return n->kind == YNODE_ALIAS ? &d->nodes[n->first] : n;
}

const ynode *ydoc_child(const ydoc *d, const ynode *n, uint32_t i) {
  const ynode *c = &d->nodes[d->children[n->first + i]];
  return c->kind == YNODE_ALIAS ? &d->nodes[c->first] : c;
}

const char *ydoc_text(const ydoc *d, const ynode *n) {
  return n && n->kind == YNODE_SCALAR ? d->text + n->first : 0;
}
