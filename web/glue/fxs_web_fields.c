// The integration fields of navigate groups for the page (fxs_web.h, fxs_web_nav_fields):
// each cell of the navigation grid packed in one uint32 with the field drawn there.
#include <stdlib.h>

#include "fxs_web.h"

// Packs the shown field of least value at each cell (lowest slot on ties; every live field
// when which < 0, else slot `which` only): bits 0..20 its value (saturated), 21..24 its
// direction (8: none), 25..31 its slot (FXS_WEB_FIELD_NONE: no field reaches the cell).
static void pack_cells(fxs_world *w, const fxs_nav_grid *g, int32_t which, uint32_t *cells) {
  uint32_t count = g->width * g->height;
  for (uint32_t i = 0; i < count; ++i)
    cells[i] = (uint32_t)FXS_WEB_FIELD_NONE << 25 | FXS_WEB_FIELD_VALUE_MAX;
  for (uint32_t k = 0; k < w->capacity.nav_fields; ++k) {
    const fxs_nav_field *f = fxs_world_nav_field(w, k, NULL);
    if (!f || (which >= 0 && (uint32_t)which != k)) continue;
    for (uint32_t i = 0; i < count; ++i) {
      uint32_t cx = i % g->width, cy = i / g->width, value = fxs_nav_field_value(f, cx, cy);
      if (value == FXS_NAV_UNREACHED) continue;
      if (value > FXS_WEB_FIELD_VALUE_MAX) value = FXS_WEB_FIELD_VALUE_MAX;
      bool mine = cells[i] >> 25 == FXS_WEB_FIELD_NONE;
      if (!mine && value >= (cells[i] & FXS_WEB_FIELD_VALUE_MAX)) continue;
      cells[i] = k << 25 | fxs_nav_field_direction(f, cx, cy) << 21 | value;
    }
  }
}

const char *fxs_web_fields_json(fxs_world *w, int32_t which, uint32_t **cells, size_t *capacity) {
  fxs_web_text *t = fxs_web_answer();
  const fxs_nav_grid *g = fxs_world_nav_grid(w); // rebuilds a cache only: the state is untouched
  if (!g || w->capacity.nav_fields == 0) {
    fxs_web_printf(t, "{\"fields\":[],\"cells\":0}");
    return fxs_web_finish(t);
  }
  size_t count = (size_t)g->width * g->height;
  if (*capacity < count) {
    uint32_t *grown = realloc(*cells, count * sizeof **cells);
    if (!grown) return fxs_web_error_answer(t, "out of memory");
    *cells = grown, *capacity = count;
  }
  pack_cells(w, g, which, *cells);
  fxs_web_printf(t, "{\"origin\":[%d,%d],\"cell\":%d,\"columns\":%u,\"rows\":%u,\"fields\":[",
                 (int)g->origin.x, (int)g->origin.y, (int)g->cell_size, g->width, g->height);
  const char *sep = "";
  for (uint32_t k = 0; k < w->capacity.nav_fields; ++k) {
    uint32_t goal;
    const fxs_nav_field *f = fxs_world_nav_field(w, k, &goal);
    if (!f || (which >= 0 && (uint32_t)which != k)) continue;
    fxs_web_printf(t, "%s{\"slot\":%u,\"goal\":[%u,%u],\"ready\":%s}", sep, k, goal % g->width,
                   goal / g->width, f->status == FXS_NAV_FIELD_READY ? "true" : "false");
    sep = ",";
  }
  fxs_web_printf(t, "],\"cells\":%lu}", (unsigned long)(uintptr_t)*cells);
  return fxs_web_finish(t);
}

const char *fxs_web_nav_fields(fxs_web_viewer *v, int32_t which) {
  if (!v->shown) return fxs_web_error_answer(fxs_web_answer(), "no tick is shown");
  return fxs_web_fields_json(&v->world, which, &v->field_cells, &v->field_cell_capacity);
}
