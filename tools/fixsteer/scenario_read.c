// Reading a scenario file's YAML tree: errors, typed values, names, events (scenario_read.h).
#include "scenario_read.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ------------------------------------------------------------------ numbers without floats

int scenario_parse_fix16(const char *t, fix16_t *out) {
  bool negative = *t == '-';
  if (*t == '-' || *t == '+') ++t;
  int64_t whole = 0, frac = 0, scale = 1;
  int digits = 0;
  for (; *t >= '0' && *t <= '9'; ++t, ++digits) {
    whole = whole * 10 + (*t - '0');
    if (whole > 32767) return -1;
  }
  if (*t == '.') {
    for (++t; *t >= '0' && *t <= '9'; ++t, ++digits) {
      if (scale == 1000000000) return -1; // more than 9 decimals
      frac = frac * 10 + (*t - '0');
      scale *= 10;
    }
  }
  if (*t != '\0' || digits == 0) return -1;
  int64_t raw = whole * 65536 + (frac * 65536 + scale / 2) / scale; // round half up on |x|
  if (raw > 0x7FFFFFFF) return -1;
  *out = (fix16_t)(negative ? -raw : raw);
  return 0;
}

// ------------------------------------------------------------------ YAML helpers

bool sr_fail(ctx *c, const ynode *node, const char *fmt, ...) {
  if (c->error[0]) return false; // keep the first error
  int n = snprintf(c->error, c->error_size, "%s:%lu: ", c->file,
                   node ? (unsigned long)node->line : 1ul);
  va_list ap;
  va_start(ap, fmt);
  if (n >= 0 && (size_t)n < c->error_size)
    vsnprintf(c->error + n, c->error_size - (size_t)n, fmt, ap);
  va_end(ap);
  return false;
}

const char *sr_text(ctx *c, const ynode *n) { return ydoc_text(c->doc, n); }

// The value of `key` in a mapping, or NULL.
const ynode *sr_get(ctx *c, const ynode *map, const char *key) {
  if (!map || map->kind != YNODE_MAPPING) return 0;
  for (uint32_t i = 0; i < map->count; i += 2) {
    const char *k = sr_text(c, ydoc_child(c->doc, map, i));
    if (k && strcmp(k, key) == 0) return ydoc_child(c->doc, map, i + 1);
  }
  return 0;
}

// Every key of `map` must be one of `allowed` (NULL-terminated): a typo is an error.
bool sr_only_keys(ctx *c, const ynode *map, const char *what, const char *const *allowed) {
  if (!map || map->kind != YNODE_MAPPING) return sr_fail(c, map, "%s must be a mapping", what);
  for (uint32_t at = 0; at < map->count; at += 2) {
    const ynode *kn = ydoc_child(c->doc, map, at);
    const char *k = sr_text(c, kn);
    bool ok = false;
    for (int i = 0; k && allowed[i]; ++i) ok = ok || strcmp(k, allowed[i]) == 0;
    if (!ok) return sr_fail(c, kn, "unknown key '%s' in %s", k ? k : "?", what);
  }
  return true;
}

bool sr_fix16(ctx *c, const ynode *n, const char *what, fix16_t *out) {
  const char *s = sr_text(c, n);
  if (!s || scenario_parse_fix16(s, out) != 0) {
    return sr_fail(c, n, "%s: expected a number in [-32767, 32767] with at most 9 decimals", what);
  }
  return true;
}

bool sr_u32(ctx *c, const ynode *n, const char *what, uint32_t max, uint32_t *out) {
  const char *s = sr_text(c, n);
  char *end = 0;
  unsigned long long v = s ? strtoull(s, &end, 10) : 0;
  if (!s || !*s || *end || s[0] == '-' || v > max)
    return sr_fail(c, n, "%s: expected a whole number up to %u", what, max);
  *out = (uint32_t)v;
  return true;
}

bool sr_bool(ctx *c, const ynode *n, const char *what, bool *out) {
  const char *s = sr_text(c, n);
  if (s && strcmp(s, "true") == 0) return *out = true, true;
  if (s && strcmp(s, "false") == 0) return *out = false, true;
  return sr_fail(c, n, "%s: expected true or false", what);
}

// A sequence of `count` numbers, e.g. [x, y].
bool sr_numbers(ctx *c, const ynode *n, const char *what, fix16_t *out, int count) {
  if (!n || n->kind != YNODE_SEQUENCE || n->count != (uint32_t)count) {
    return sr_fail(c, n, "%s: expected a list of %d numbers", what, count);
  }
  for (int i = 0; i < count; ++i) {
    if (!sr_fix16(c, ydoc_child(c->doc, n, (uint32_t)i), what, &out[i])) return false;
  }
  return true;
}

bool sr_vec2(ctx *c, const ynode *n, const char *what, fxs_vec2 *out) {
  fix16_t v[2];
  if (!sr_numbers(c, n, what, v, 2)) return false;
  *out = fxs_vec2_make(v[0], v[1]);
  return true;
}

int sr_choice(ctx *c, const ynode *n, const char *what, const char *const *names, int count) {
  const char *s = sr_text(c, n);
  for (int i = 0; s && i < count; ++i) {
    if (strcmp(s, names[i]) == 0) return i;
  }
  sr_fail(c, n, "%s: '%s' is not one of the accepted values", what, s ? s : "?");
  return -1;
}

bool sr_name(ctx *c, const ynode *n, const char *what, char out[NAME_LEN]) {
  const char *s = sr_text(c, n);
  if (!s || !*s || strlen(s) >= NAME_LEN)
    return sr_fail(c, n, "%s: expected a name of 1 to %d characters", what, NAME_LEN - 1);
  strcpy(out, s);
  return true;
}

static int by_text(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int by_name(const void *a, const void *b) { // equal names in file order
  const char *x = *(const char *const *)a, *y = *(const char *const *)b;
  int c = strcmp(x, y);
  return c ? c : (x > y) - (x < y);
}

// Sorts pointers to the names into *sorted, so that a lookup costs O(log n) however many
// events name agents. Returns the index of the first name given twice (its second place), -1
// when none, -2 out of memory.
long sr_sort_names(char (*names)[NAME_LEN], uint32_t count, const char ***sorted) {
  *sorted = malloc((count ? count : 1u) * sizeof **sorted);
  if (!*sorted) return -2;
  for (uint32_t i = 0; i < count; ++i) (*sorted)[i] = names[i];
  qsort(*sorted, count, sizeof **sorted, by_name);
  long twice = -1;
  for (uint32_t i = 1; i < count; ++i) {
    long at = (long)(((*sorted)[i] - names[0]) / NAME_LEN);
    if (strcmp((*sorted)[i - 1], (*sorted)[i]) == 0 && (twice < 0 || at < twice)) twice = at;
  }
  return twice;
}

int sr_find_name(const char **sorted, char (*names)[NAME_LEN], uint32_t count, const char *name) {
  const char **hit = name && count ? bsearch(&name, sorted, count, sizeof *sorted, by_text) : 0;
  return hit ? (int)((*hit - names[0]) / NAME_LEN) : -1;
}

bool sr_is_list(ctx *c, const ynode *n, const char *what) {
  return (n && n->kind == YNODE_SEQUENCE) || sr_fail(c, n, "%s must be a list", what);
}

// A new command at `tick` from `source`; sequence numbers are given once all are read.
fxs_command *sr_add_event(ctx *c, uint32_t tick, fxs_command_type type, uint8_t source) {
  loaded *L = c->L;
  if (L->event_count == L->event_capacity) {
    uint32_t cap = L->event_capacity ? L->event_capacity * 2 : 64;
    event *grown = realloc(L->events, cap * sizeof *grown);
    if (!grown) return sr_fail(c, 0, "out of memory"), (fxs_command *)0;
    L->events = grown, L->event_capacity = cap;
  }
  event *e = &L->events[L->event_count++];
  e->tick = tick;
  e->command = fxs_command_make(type, source, 0);
  e->where = 0;
  return &e->command;
}
