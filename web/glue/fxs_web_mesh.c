// A mesh world's navigation mesh for the pages (fxs_web.h, fxs_web_mesh; fxs_web_live.h,
// fxs_web_live_mesh): a compact copy of its vertices and triangles that the page reads out of
// the module's memory and draws.
#include <stdlib.h>

#include "fxs_web.h"

// The copy the last answer points at (valid until the next call), and its room in words.
static uint32_t *mesh_words;
static size_t mesh_room;

const char *fxs_web_mesh_json(const fxs_world *w) {
  fxs_web_text *t = fxs_web_answer();
  const fxs_nav_mesh *m = fxs_world_nav_mesh(w); // read only: the state is untouched
  if (!m) {
    fxs_web_printf(t, "{\"mesh\":false,\"vertices\":0,\"triangles\":0,\"data\":0}");
    return fxs_web_finish(t);
  }
  size_t words = 2u * (size_t)m->vertex_count + 4u * (size_t)m->triangle_count;
  if (words > mesh_room) {
    uint32_t *grown = realloc(mesh_words, words * sizeof *grown);
    if (!grown) return fxs_web_error_answer(t, "out of memory");
    mesh_words = grown, mesh_room = words;
  }
  uint32_t *out = mesh_words;
  for (uint32_t i = 0; i < m->vertex_count; ++i) {
    *out++ = (uint32_t)m->vertices[i].x;
    *out++ = (uint32_t)m->vertices[i].y;
  }
  for (uint32_t i = 0; i < m->triangle_count; ++i) {
    const fxs_nav_triangle *tr = &m->triangles[i];
    uint32_t flags = tr->constrained & 7u;
    for (uint32_t k = 0; k < 3; ++k) {
      *out++ = tr->v[k];
      if (tr->n[k] != FXS_NAV_MESH_NONE) flags |= 8u << k;
    }
    *out++ = flags;
  }
  fxs_web_printf(t,
                 "{\"mesh\":true,\"vertices\":%u,\"triangles\":%u,\"vertex_capacity\":%u,"
                 "\"triangle_capacity\":%u,\"version\":%u,",
                 m->vertex_count, m->triangle_count, m->vertex_capacity, m->triangle_capacity,
                 w->nav.version);
  fxs_web_printf(t, "\"digest\":\"0x%016llx\",\"canonical_digest\":\"0x%016llx\",\"data\":%lu}",
                 (unsigned long long)fxs_nav_mesh_digest(m),
                 (unsigned long long)fxs_nav_mesh_canonical_digest(m),
                 (unsigned long)(uintptr_t)mesh_words);
  return fxs_web_finish(t);
}

const char *fxs_web_mesh(fxs_web_viewer *v) {
  if (!v->shown) {
    fxs_web_text *t = fxs_web_answer();
    return fxs_web_error_answer(t, fxs_web_last_error());
  }
  return fxs_web_mesh_json(&v->world);
}
