// The arithmetic and the text editing of `fixsteer scale` (scale_text.h). Integers only: a
// scaled scene must read back as exactly the values computed here on every machine.
#include "scale_text.h"

#ifndef FXS_TOOL_NO_YAML

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario_read.h"

#define FACTOR_LIMIT (INT64_C(1) << 31)
#define RAW_LIMIT INT64_C(0x7FFFFFFF) // what scenario_parse_fix16 accepts either side of 0

static int64_t gcd(int64_t a, int64_t b) {
  while (b) {
    int64_t t = a % b;
    a = b, b = t;
  }
  return a;
}

// Digits only, at most 12 of them (so that no product below overflows).
static bool whole(const char *s, const char *end, int64_t *out) {
  if (s == end || end - s > 12) return false;
  int64_t v = 0;
  for (; s < end; ++s) {
    if (*s < '0' || *s > '9') return false;
    v = v * 10 + (*s - '0');
  }
  *out = v;
  return true;
}

bool scale_factor_parse(const char *text, scale_factor *k) {
  const char *slash = strchr(text, '/'), *dot = strchr(text, '.'), *end = text + strlen(text);
  int64_t num, den = 1;
  if (slash) {
    if (!whole(text, slash, &num) || !whole(slash + 1, end, &den)) return false;
  } else if (dot) {
    int64_t frac = 0;
    size_t decimals = (size_t)(end - dot - 1);
    if (decimals == 0 || decimals > 9 || !whole(dot + 1, end, &frac)) return false;
    if (dot == text) num = 0;
    else if (!whole(text, dot, &num)) return false;
    for (size_t i = 0; i < decimals; ++i) den *= 10, num *= 10;
    num += frac;
  } else if (!whole(text, end, &num)) {
    return false;
  }
  if (num <= 0 || den <= 0) return false;
  int64_t g = gcd(num, den);
  num /= g, den /= g;
  if (num >= FACTOR_LIMIT || den >= FACTOR_LIMIT) return false;
  k->num = num, k->den = den;
  return true;
}

bool scale_raw(fix16_t raw, scale_factor k, fix16_t *out) {
  int64_t a = raw < 0 ? -(int64_t)raw : raw; // < 2^31, times num < 2^31: no overflow
  int64_t v = (a * k.num + k.den / 2) / k.den;
  if (v > RAW_LIMIT) return false;
  *out = (fix16_t)(raw < 0 ? -v : v);
  return true;
}

void scale_format(fix16_t raw, char *out, size_t size) {
  int64_t a = raw < 0 ? -(int64_t)raw : raw, p10 = 1;
  for (int n = 0; n <= 9; ++n, p10 *= 10) {
    int64_t v = (a * p10 + 32768) / 65536; // a < 2^31, p10 <= 10^9: below 2^61
    if (n == 0) snprintf(out, size, "%s%lld", raw < 0 ? "-" : "", (long long)v);
    else
      snprintf(out, size, "%s%lld.%0*lld", raw < 0 ? "-" : "", (long long)(v / p10), n,
               (long long)(v % p10));
    fix16_t back;
    if (scenario_parse_fix16(out, &back) == 0 && back == raw) return;
  }
  // 9 decimals always read back: 10^-9 is far below the 2^-16 resolution.
}

// ------------------------------------------------------------------ the file

bool scale_fail(scale_doc *d, const ynode *n, const char *fmt, ...) {
  if (d->error[0]) return false;
  int len =
      snprintf(d->error, sizeof d->error, "%s:%lu: ", d->name, n ? (unsigned long)n->line : 1ul);
  va_list ap;
  va_start(ap, fmt);
  if (len >= 0 && (size_t)len < sizeof d->error)
    vsnprintf(d->error + len, sizeof d->error - (size_t)len, fmt, ap);
  va_end(ap);
  return false;
}

// Reads at most max + 1 bytes: one past the limit tells a file that is too large.
static bool read_all(scale_doc *d, const char *path, size_t max) {
  FILE *f = fopen(path, "rb");
  if (!f) return snprintf(d->error, sizeof d->error, "cannot read %s", path), false;
  size_t cap = 0, size = 0;
  unsigned char *data = 0;
  for (;;) {
    if (size == cap) {
      size_t grown = cap ? cap * 2 : 65536;
      unsigned char *p = realloc(data, grown + 1);
      if (!p) break;
      data = p, cap = grown;
    }
    size_t n = fread(data + size, 1, cap - size, f);
    size += n;
    if (n == 0 || size > max) break;
  }
  bool ok = data && !ferror(f) && size <= max;
  fclose(f);
  if (!ok) {
    free(data);
    snprintf(d->error, sizeof d->error, "%s: %s", path,
             size > max ? "larger than --max-yaml-bytes" : "cannot read it");
    return false;
  }
  data[size] = '\0';
  d->data = data, d->size = size;
  return true;
}

bool scale_doc_open(scale_doc *d, const char *path, const ydoc_limits *limits) {
  memset(d, 0, sizeof *d);
  d->name = path;
  if (!read_all(d, path, limits->max_bytes)) return false;
  if (!ydoc_read(&d->doc, path, d->data, d->size, limits, d->error, sizeof d->error)) {
    memset(&d->doc, 0, sizeof d->doc);
    return false;
  }
  d->lines = 1;
  for (size_t i = 0; i < d->size; ++i) d->lines += d->data[i] == '\n';
  d->line_start = malloc(d->lines * sizeof *d->line_start);
  d->scaled = calloc(d->doc.node_count ? d->doc.node_count : 1u, 1);
  if (!d->line_start || !d->scaled) return scale_fail(d, 0, "out of memory");
  uint32_t line = 0;
  d->line_start[line++] = 0;
  for (size_t i = 0; i < d->size; ++i) {
    if (d->data[i] == '\n') d->line_start[line++] = i + 1;
  }
  return true;
}

void scale_doc_free(scale_doc *d) {
  free((void *)(uintptr_t)d->data);
  if (d->doc.nodes) ydoc_free(&d->doc);
  free(d->line_start);
  free(d->edits);
  free(d->scaled);
  memset(d, 0, sizeof *d);
}

// Where column `column` of `line` starts, counting characters (UTF-8 sequences) when
// `characters`, else bytes: the parser's columns are one or the other depending on its
// version, and the caller checks which finds the node's text.
static size_t column_offset(const scale_doc *d, uint32_t line, uint32_t column, bool characters) {
  size_t at = d->line_start[line - 1];
  for (uint32_t c = 1; c < column && at < d->size && d->data[at] != '\n'; ++c) {
    ++at;
    while (characters && at < d->size && (d->data[at] & 0xC0u) == 0x80u) ++at;
  }
  return at;
}

// The scalar's text starts at `at` (after a quote, for a quoted scalar).
static bool text_at(const scale_doc *d, const ynode *n, size_t *at) {
  const char *text = ydoc_text(&d->doc, n);
  if (*at < d->size && (d->data[*at] == '"' || d->data[*at] == '\'')) ++*at;
  return *at + n->count <= d->size && memcmp(d->data + *at, text, n->count) == 0;
}

bool scale_offset(scale_doc *d, const ynode *n, size_t *offset) {
  if (!n || n->line == 0 || n->line > d->lines)
    return scale_fail(d, n, "no such place in the file");
  for (int characters = 1; characters >= 0; --characters) {
    size_t at = column_offset(d, n->line, n->column, characters != 0);
    if (n->kind != YNODE_SCALAR || text_at(d, n, &at)) {
      *offset = at;
      return true;
    }
  }
  return scale_fail(d, n, "cannot find the text of '%s' in the file (write it as a plain number)",
                    ydoc_text(&d->doc, n));
}

bool scale_add_edit(scale_doc *d, size_t offset, size_t remove, const char *insert) {
  if (d->edit_count == d->edit_capacity) {
    size_t cap = d->edit_capacity ? d->edit_capacity * 2 : 256;
    scale_edit *grown = realloc(d->edits, cap * sizeof *grown);
    if (!grown) return scale_fail(d, 0, "out of memory");
    d->edits = grown, d->edit_capacity = cap;
  }
  scale_edit *e = &d->edits[d->edit_count++];
  e->offset = offset, e->remove = remove, e->order = d->edit_count - 1;
  snprintf(e->insert, sizeof e->insert, "%s", insert);
  return true;
}

// By offset, then in the order they were made (insertions at one place keep their order).
static int by_offset(const void *a, const void *b) {
  const scale_edit *p = a, *q = b;
  if (p->offset != q->offset) return p->offset < q->offset ? -1 : 1;
  return p->order < q->order ? -1 : p->order > q->order;
}

unsigned char *scale_apply(scale_doc *d, size_t *size) {
  scale_edit *sorted = malloc((d->edit_count ? d->edit_count : 1u) * sizeof *sorted);
  size_t total = d->size + 1;
  for (size_t i = 0; i < d->edit_count; ++i) total += strlen(d->edits[i].insert);
  unsigned char *out = malloc(total);
  if (!sorted || !out) return free(sorted), free(out), (unsigned char *)0;
  memcpy(sorted, d->edits, d->edit_count * sizeof *sorted);
  qsort(sorted, d->edit_count, sizeof *sorted, by_offset);
  size_t from = 0, n = 0;
  for (size_t i = 0; i < d->edit_count; ++i) {
    const scale_edit *e = &sorted[i];
    if (e->offset < from) continue; // cannot happen: a node is edited once
    memcpy(out + n, d->data + from, e->offset - from), n += e->offset - from;
    size_t len = strlen(e->insert);
    memcpy(out + n, e->insert, len), n += len;
    from = e->offset + e->remove;
  }
  memcpy(out + n, d->data + from, d->size - from), n += d->size - from;
  out[n] = '\0';
  free(sorted);
  *size = n;
  return out;
}

#endif
