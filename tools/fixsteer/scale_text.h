// The arithmetic and the text editing of `fixsteer scale` (cmd_scale.c): the factor K as an
// exact fraction, a Q16.16 value times K rounded once, the shortest decimal that reads back
// as the same Q16.16 value, and a list of edits applied to the scene file's own text, so that
// its comments, layout and every value that is not a length stay as the author wrote them.
#ifndef FIXSTEER_TOOL_SCALE_TEXT_H
#define FIXSTEER_TOOL_SCALE_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fixsteer/fixsteer.h"
#include "yaml_read.h"

// K = num / den, both in [1, 2^31), reduced.
typedef struct scale_factor {
  int64_t num, den;
} scale_factor;

// Parses "P/Q" (whole numbers) or a decimal ("0.25", "16", at most 9 decimals) greater than
// 0. False for anything else.
bool scale_factor_parse(const char *text, scale_factor *k);

// raw * K rounded to nearest (halves away from zero). False when the result lies outside
// the range a scene file accepts (|value| <= 0x7FFFFFFF raw, as scenario_parse_fix16).
bool scale_raw(fix16_t raw, scale_factor k, fix16_t *out);

// The shortest decimal (at most 9 decimals) that scenario_parse_fix16 reads as `raw`;
// `out` holds at least 24 bytes.
void scale_format(fix16_t raw, char *out, size_t size);

// One change to the file's text: `remove` bytes at `offset` replaced by `insert`.
typedef struct scale_edit {
  size_t offset, remove;
  size_t order; // the edit's place in the list: insertions at one offset keep their order
  char insert[224];
} scale_edit;

// The file being scaled: its bytes, its YAML tree, the edits so far and the first error.
typedef struct scale_doc {
  const char *name;
  const unsigned char *data;
  size_t size;
  ydoc doc;
  size_t *line_start; // byte offset of each line (index 0: line 1)
  uint32_t lines;
  scale_edit *edits;
  size_t edit_count, edit_capacity;
  unsigned char *scaled; // per node: 1 once its value has been scaled (aliases share nodes)
  char error[512];
} scale_doc;

// Reads the file within `limits`, parses it and indexes its lines. On failure the error is
// in d->error and the caller still calls scale_doc_free.
bool scale_doc_open(scale_doc *d, const char *path, const ydoc_limits *limits);
void scale_doc_free(scale_doc *d);

// Writes "FILE:LINE: message" into d->error unless an error is already there; false.
bool scale_fail(scale_doc *d, const ynode *n, const char *fmt, ...);

// The byte offset of a scalar's text in the file, or of a mapping's first character ("{"
// for a flow mapping); false (after the error) when the text there is not the node's.
bool scale_offset(scale_doc *d, const ynode *n, size_t *offset);

// Adds an edit (kept in order of offset when the file is written).
bool scale_add_edit(scale_doc *d, size_t offset, size_t remove, const char *insert);

// The file's text with every edit applied, in a new buffer (malloc) of *size bytes plus a
// NUL; NULL when out of memory.
unsigned char *scale_apply(scale_doc *d, size_t *size);

#endif
