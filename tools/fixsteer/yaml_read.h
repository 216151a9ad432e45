// Reading a YAML file into a compact tree, one libyaml event at a time, within limits.
//
// Scenario files come from other people. libyaml's scanner spends time quadratic in the
// nesting depth (every token looks at every open flow level), and its document loader about
// 170 bytes a node, a node being as small as two bytes of the file. This reader takes the
// events one at a time and stops at the first one beyond a limit, before reading further:
// nesting deeper than max_depth, more than max_nodes nodes with every alias written out. A
// file is therefore accepted or refused in time linear in its size, and the tree takes about
// 32 bytes a node (at most max_nodes of them) plus the scalars' text.
//
// It also refuses what libyaml lets through and a reader would resolve silently: a key given
// twice in one mapping, a second document, a NUL character inside a scalar. Anchors must be
// unique, and an alias must not refer to a node that contains it.
#ifndef FIXSTEER_TOOL_YAML_READ_H
#define FIXSTEER_TOOL_YAML_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { YNODE_SCALAR = 1, YNODE_SEQUENCE, YNODE_MAPPING, YNODE_ALIAS };

// One node, in document order. ydoc_child resolves aliases, so readers of the tree see only
// scalars, sequences and mappings.
typedef struct ynode {
  uint32_t line, column; // 1-based position of the node's first character
  uint32_t first;        // scalar: offset of its text in ydoc.text; alias: the node it names;
                         // sequence and mapping: offset of its children in ydoc.children
  uint32_t count;        // scalar: bytes of text; sequence: items; mapping: 2 x pairs
  uint32_t hash;         // scalar: hash of its text (for duplicate keys); else 0
  uint8_t kind;          // YNODE_*
} ynode;

typedef struct ydoc {
  ynode *nodes;
  uint32_t node_count, node_capacity;
  uint32_t *children; // a mapping's are key, value, key, value, ...
  uint32_t child_count, child_capacity;
  char *text; // every scalar's text, each followed by a NUL
  uint32_t text_size, text_capacity;
  uint32_t root; // index of the root node; YDOC_NO_ROOT when the file holds no document
} ydoc;

#define YDOC_NO_ROOT UINT32_MAX

typedef struct ydoc_limits {
  size_t max_bytes;   // size of the file
  uint64_t max_nodes; // nodes with every alias written out (an alias counts its whole node)
  uint32_t max_depth; // sequences and mappings open at once (the outermost is depth 1)
} ydoc_limits;

// Reads `size` bytes of YAML (one document at most). On failure frees what it built and
// writes "NAME:LINE: column C: problem" (or "NAME: problem") into error.
bool ydoc_read(ydoc *d, const char *name, const unsigned char *data, size_t size,
               const ydoc_limits *limits, char *error, size_t error_size);

// The same from the file at `path`. A regular file over max_bytes is refused before a byte
// of it is read; anything else (a pipe, a device) is read up to one byte past the limit.
bool ydoc_read_file(ydoc *d, const char *path, const ydoc_limits *limits, char *error,
                    size_t error_size);

void ydoc_free(ydoc *d);

// The root node, or NULL for a file without a document (empty, or only comments).
const ynode *ydoc_root(const ydoc *d);

// Child `i` of a sequence or mapping (i < n->count), aliases resolved.
const ynode *ydoc_child(const ydoc *d, const ynode *n, uint32_t i);

// A scalar's text (NUL-terminated, no NUL inside), or NULL for any other node or NULL.
const char *ydoc_text(const ydoc *d, const ynode *n);

#endif
