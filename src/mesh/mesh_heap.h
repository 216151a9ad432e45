// Internal: the indexed binary heap of the mesh's searches (A* over triangles, its exact node
// search, the group fields' trees). The heap is three things of the caller's: `open`, its
// entries (a type with a uint32_t member `triangle`, the item), `open_at`, per item its
// position in `open` + 1 while it is there and 0 otherwise, and the entry count.
// FXS_MESH_HEAP(name, entry, before) defines, for `before(const entry *, const entry *)` true
// when the first is taken first (a strict total order: the search's documented tie order),
//   name_set(open, open_at, i, e)       puts e at position i;
//   name_sift_up(open, open_at, i)      moves the entry at i up to its place;
//   name_pop(open, open_at, &count)     takes the first entry out.
// Not part of the API.
#ifndef FIXSTEER_MESH_HEAP_H
#define FIXSTEER_MESH_HEAP_H

#include <stdint.h>

#define FXS_MESH_HEAP(name, entry, before)                                             \
  static inline void name##_set(entry *open, uint32_t *open_at, uint32_t i, entry e) { \
    open[i] = e;                                                                       \
    open_at[e.triangle] = i + 1u;                                                      \
  }                                                                                    \
  static inline void name##_sift_up(entry *open, uint32_t *open_at, uint32_t i) {      \
    entry e = open[i];                                                                 \
    while (i > 0) {                                                                    \
      uint32_t p = (i - 1u) / 2u;                                                      \
      if (!before(&e, &open[p])) break;                                                \
      name##_set(open, open_at, i, open[p]);                                           \
      i = p;                                                                           \
    }                                                                                  \
    name##_set(open, open_at, i, e);                                                   \
  }                                                                                    \
  static inline entry name##_pop(entry *open, uint32_t *open_at, uint32_t *count) {    \
    entry top = open[0];                                                               \
    open_at[top.triangle] = 0;                                                         \
    entry e = open[--*count];                                                          \
    uint32_t i = 0, n = *count;                                                        \
    if (n > 0) {                                                                       \
      for (;;) {                                                                       \
        uint32_t c = 2u * i + 1u;                                                      \
        if (c >= n) break;                                                             \
        if (c + 1u < n && before(&open[c + 1u], &open[c])) c++;                        \
        if (!before(&open[c], &e)) break;                                              \
        name##_set(open, open_at, i, open[c]);                                         \
        i = c;                                                                         \
      }                                                                                \
      name##_set(open, open_at, i, e);                                                 \
    }                                                                                  \
    return top;                                                                        \
  }

#endif
