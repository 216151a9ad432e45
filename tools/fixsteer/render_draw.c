// The SVG of `fixsteer render` (render.h). World y grows downward in the picture, as on a
// screen (the tutorials' convention); the picture says so. Doubles only place pixels.
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

#define MARGIN 10.0
#define HEADER 62.0
#define FONT "DejaVu Sans, Verdana, sans-serif"
#define MAX_MAP_HEIGHT 900.0
#define LABELLED_AGENTS 64 // more agents than this are not numbered

void text_printf(text *t, const char *format, ...) {
  if (t->failed) return;
  for (;;) {
    va_list args;
    va_start(args, format);
    size_t room = t->capacity - t->size;
    int n = vsnprintf(t->data ? t->data + t->size : 0, t->data ? room : 0, format, args);
    va_end(args);
    if (n < 0) {
      t->failed = true;
      return;
    }
    if ((size_t)n < room) {
      t->size += (size_t)n;
      return;
    }
    size_t want = t->capacity ? t->capacity * 2 : 1u << 16;
    while (want < t->size + (size_t)n + 1) want *= 2;
    char *grown = realloc(t->data, want);
    if (!grown) {
      t->failed = true;
      return;
    }
    t->data = grown, t->capacity = want;
  }
}

void text_free(text *t) {
  free(t->data);
  memset(t, 0, sizeof *t);
}

// Text content with &, < and > escaped.
static void text_escaped(text *t, const char *s) {
  for (; s && *s; ++s) {
    if (*s == '&') text_printf(t, "&amp;");
    else if (*s == '<') text_printf(t, "&lt;");
    else if (*s == '>') text_printf(t, "&gt;");
    else text_printf(t, "%c", *s);
  }
}

// ------------------------------------------------------------------ layout

typedef struct view {
  double min_x, min_y, max_x, max_y; // world units shown
  double scale;                      // pixels per world unit
  double left, top, map_w, map_h;    // the map's place in the picture
  double width, height;              // the whole picture
  bool bounds_shown;
} view;

static double units(int64_t raw) { return (double)raw / 65536.0; }

static double px(const view *v, double x) { return v->left + (x - v->min_x) * v->scale; }
static double py(const view *v, double y) { return v->top + (y - v->min_y) * v->scale; }

typedef struct box {
  double x0, y0, x1, y1;
  bool empty;
} box;

static void box_add(box *b, double x, double y, double r) {
  if (b->empty) {
    *b = (box){x - r, y - r, x + r, y + r, false};
    return;
  }
  if (x - r < b->x0) b->x0 = x - r;
  if (y - r < b->y0) b->y0 = y - r;
  if (x + r > b->x1) b->x1 = x + r;
  if (y + r > b->y1) b->y1 = y + r;
}

static void content_box(const film *f, box *b) {
  for (long i = 0; i < f->frames * (long)f->slots; ++i) {
    const sample *s = &f->samples[i];
    if (s->alive) box_add(b, units(s->x), units(s->y), units(s->radius));
  }
  for (uint32_t i = 0; i < f->wall_count; ++i) {
    box_add(b, units(f->walls[i].a.x), units(f->walls[i].a.y), 0);
    box_add(b, units(f->walls[i].b.x), units(f->walls[i].b.y), 0);
  }
  for (uint32_t i = 0; i < f->obstacle_count; ++i) {
    box_add(b, units(f->obstacles[i].center.x), units(f->obstacles[i].center.y),
            units(f->obstacles[i].radius));
  }
  for (uint32_t p = 0; p < f->path_count; ++p) {
    for (uint32_t i = 0; i < f->paths[p].count; ++i)
      box_add(b, units(f->paths[p].nodes[i].x), units(f->paths[p].nodes[i].y), 0);
  }
}

// The world bounds when the agents are kept in them or they are not much larger than what is
// drawn; else what is drawn, with a margin.
static void layout(const picture *p, double footer, double max_map_height, view *v) {
  const fxs_world_def *d = &p->a->def;
  box b = {0, 0, 0, 0, true};
  content_box(p->a, &b);
  if (p->b) content_box(p->b, &b);
  double bw = units(d->bounds_max.x) - units(d->bounds_min.x),
         bh = units(d->bounds_max.y) - units(d->bounds_min.y);
  double cw = b.x1 - b.x0, ch = b.y1 - b.y0;
  v->bounds_shown = b.empty || d->clamp_to_bounds || bw * bh <= 16.0 * (cw + 1) * (ch + 1);
  if (p->zoom) {
    b = (box){p->zoom_box[0], p->zoom_box[1], p->zoom_box[2], p->zoom_box[3], false};
    v->bounds_shown = b.x0 <= units(d->bounds_min.x) && b.y0 <= units(d->bounds_min.y) &&
                      b.x1 >= units(d->bounds_max.x) && b.y1 >= units(d->bounds_max.y);
  } else if (v->bounds_shown) {
    box_add(&b, units(d->bounds_min.x), units(d->bounds_min.y), 0);
    box_add(&b, units(d->bounds_max.x), units(d->bounds_max.y), 0);
  }
  double pad =
      p->zoom ? 0 : 0.02 * ((b.x1 - b.x0) > (b.y1 - b.y0) ? b.x1 - b.x0 : b.y1 - b.y0) + 1.0;
  v->min_x = b.x0 - pad, v->min_y = b.y0 - pad, v->max_x = b.x1 + pad, v->max_y = b.y1 + pad;
  v->scale = (p->width - 2 * MARGIN) / (v->max_x - v->min_x);
  if ((v->max_y - v->min_y) * v->scale > max_map_height)
    v->scale = max_map_height / (v->max_y - v->min_y);
  v->map_w = (v->max_x - v->min_x) * v->scale, v->map_h = (v->max_y - v->min_y) * v->scale;
  v->left = MARGIN + (p->width - 2 * MARGIN - v->map_w) / 2, v->top = HEADER;
  v->width = p->width, v->height = HEADER + v->map_h + footer;
}

// ------------------------------------------------------------------ colours

// Agent colours: hues a golden angle apart, so neighbours in slot order differ most.
static double magnitude(double x) { return x < 0 ? -x : x; }

static void agent_colour(uint32_t slot, char out[8]) {
  double turns = slot * (137.50776 / 360.0);
  double h = (turns - (double)(long)turns) * 6.0, s = 0.78, l = slot % 2 ? 0.36 : 0.46;
  double c = (1 - magnitude(2 * l - 1)) * s,
         x = c * (1 - magnitude(h - 2.0 * (double)(long)(h / 2.0) - 1)), m = l - c / 2;
  double rgb[3] = {0, 0, 0};
  int sector = (int)h % 6;
  static const int order[6][3] = {{0, 1, 2}, {1, 0, 2}, {2, 0, 1}, {2, 1, 0}, {1, 2, 0}, {0, 2, 1}};
  double vals[3] = {c, x, 0};
  for (int i = 0; i < 3; ++i) rgb[i] = vals[order[sector][i]];
  snprintf(out, 8, "#%02x%02x%02x", (int)((rgb[0] + m) * 255 + 0.5),
           (int)((rgb[1] + m) * 255 + 0.5), (int)((rgb[2] + m) * 255 + 0.5));
}

// ------------------------------------------------------------------ the world

// Cells of a flow field drawn along each side at most: a larger field shows every n-th cell.
#define FIELD_ARROWS_PER_SIDE 48u

// The flow field, faintly: an arrow per (shown) cell from its centre along its vector, 0.4
// of a cell long whatever the vector's length (only its direction is followed); zero cells
// as a dot.
static void draw_field(const fxs_flow_field *fl, const view *v, text *t) {
  uint32_t side = fl->width > fl->height ? fl->width : fl->height;
  uint32_t step = (side + FIELD_ARROWS_PER_SIDE - 1) / FIELD_ARROWS_PER_SIDE;
  double half = 0.2 * units(fl->cell_size) * step * v->scale;
  text_printf(t,
              "<g stroke='#6f8fb0' stroke-opacity='0.45' stroke-width='1' fill='#6f8fb0' "
              "fill-opacity='0.45'>\n");
  for (uint32_t cy = step / 2; cy < fl->height; cy += step) {
    for (uint32_t cx = step / 2; cx < fl->width; cx += step) {
      fxs_vec2 c = fxs_flow_field_cell_center(fl, cx, cy),
               d = fl->cells[(size_t)cy * fl->width + cx];
      double x = px(v, units(c.x)), y = py(v, units(c.y)), dx = units(d.x), dy = units(d.y);
      double n = units(fxs_vec2_length(d)); // exact integer length: no libm in the tool
      if (n == 0) {
        text_printf(t, "<circle cx='%.1f' cy='%.1f' r='1'/>\n", x, y);
        continue;
      }
      dx *= half / n, dy *= half / n;
      double hx = x + dx, hy = y + dy, bx = hx - 0.45 * dx, by = hy - 0.45 * dy;
      text_printf(t,
                  "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f'/><path d='M%.1f %.1fL%.1f "
                  "%.1fL%.1f %.1fz' stroke='none'/>\n",
                  x - dx, y - dy, hx, hy, hx, hy, bx - 0.3 * dy, by + 0.3 * dx, bx + 0.3 * dy,
                  by - 0.3 * dx);
    }
  }
  text_printf(t, "</g>\n");
}

// Blocked cells of the navigation grid, faintly, a rectangle per run of blocked cells in a row.
static void draw_nav_cells(const fxs_nav_grid *g, const view *v, text *t) {
  double size = units(g->cell_size) * v->scale;
  text_printf(t, "<g fill='#e4d9c8' stroke='none'>\n");
  for (uint32_t cy = 0; cy < g->height; ++cy) {
    for (uint32_t cx = 0; cx < g->width;) {
      if (g->cost[(size_t)cy * g->width + cx] != FXS_NAV_BLOCKED) {
        ++cx;
        continue;
      }
      uint32_t end = cx;
      while (end < g->width && g->cost[(size_t)cy * g->width + end] == FXS_NAV_BLOCKED) ++end;
      double x = px(v, units(g->origin.x) + units(g->cell_size) * cx);
      double y = py(v, units(g->origin.y) + units(g->cell_size) * cy);
      text_printf(t, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f'/>\n", x, y,
                  size * (end - cx), size);
      cx = end;
    }
  }
  text_printf(t, "</g>\n");
}

// The navigation mesh's triangles, faintly (a mesh world).
static void draw_nav_mesh(const film *f, const view *v, text *t) {
  text_printf(t, "<g fill='none' stroke='#9fb3c8' stroke-opacity='0.6' stroke-width='0.7'>\n");
  for (uint32_t i = 0; i < f->mesh_triangle_count; ++i) {
    const fxs_vec2 *c = f->mesh_triangles + 3u * (size_t)i;
    text_printf(t, "<polygon points='%.1f,%.1f %.1f,%.1f %.1f,%.1f'/>\n", px(v, units(c[0].x)),
                py(v, units(c[0].y)), px(v, units(c[1].x)), py(v, units(c[1].y)),
                px(v, units(c[2].x)), py(v, units(c[2].y)));
  }
  text_printf(t, "</g>\n");
}

// ------------------------------------------------------------------ integration fields of groups

// Shades of a field's heat map: the integration value in this many bands, darker nearer the goal.
#define FIELD_BANDS 10u

// A colour per field slot (then again from the first).
static const char *field_colour(uint32_t slot) {
  static const char *colours[] = {"#2f6fc4", "#d0761f", "#2e9a58", "#b0408e",
                                  "#7656c8", "#1f9aa0", "#a88a10", "#c83c3c"};
  return colours[slot % (sizeof colours / sizeof colours[0])];
}

static bool field_shown(const picture *p, const film_nav_field *fl) {
  return p->nav_fields == NAV_FIELDS_ALL || p->nav_fields == (int)fl->slot;
}

// The shown field whose value at cell i is least (lowest slot on ties) and that value, or -1.
static int cell_owner(const picture *p, const film *f, size_t i, uint32_t *value) {
  int owner = -1;
  *value = 0; // set whatever the answer (gcc -O3 cannot see that callers read it only then)
  for (uint32_t k = 0; k < f->nav_field_count; ++k) {
    const film_nav_field *fl = &f->nav_fields[k];
    if (!field_shown(p, fl) || fl->value[i] == FXS_NAV_UNREACHED) continue;
    if (owner < 0 || fl->value[i] < *value) owner = (int)k, *value = fl->value[i];
  }
  return owner;
}

// The heat map: each reached cell in its field's colour, a band of FIELD_BANDS by its value
// (of the largest value shown), a rectangle per run of cells with the same field and band.
static void draw_field_heat(const picture *p, const film *f, const view *v, text *t) {
  const fxs_nav_grid *g = &f->nav;
  uint32_t most = 0;
  for (size_t i = 0; i < (size_t)g->width * g->height; ++i) {
    uint32_t value;
    if (cell_owner(p, f, i, &value) >= 0 && value > most) most = value;
  }
  double size = units(g->cell_size) * v->scale;
  text_printf(t, "<g stroke='none'>\n");
  for (uint32_t cy = 0; cy < g->height; ++cy) {
    for (uint32_t cx = 0; cx < g->width;) {
      size_t row = (size_t)cy * g->width;
      uint32_t value = 0, end = cx + 1;
      int owner = cell_owner(p, f, row + cx, &value);
      uint32_t band = (uint32_t)((uint64_t)value * FIELD_BANDS / ((uint64_t)most + 1u));
      for (; end < g->width; ++end) {
        uint32_t next = 0;
        int other = cell_owner(p, f, row + end, &next);
        if (other != owner ||
            (uint32_t)((uint64_t)next * FIELD_BANDS / ((uint64_t)most + 1u)) != band)
          break;
      }
      if (owner >= 0) {
        double x = px(v, units(g->origin.x) + units(g->cell_size) * cx);
        double y = py(v, units(g->origin.y) + units(g->cell_size) * cy);
        text_printf(
            t,
            "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='%s' fill-opacity='%.3f'/>\n",
            x, y, size * (end - cx), size, field_colour(f->nav_fields[owner].slot),
            0.44 - 0.037 * band);
      }
      cx = end;
    }
  }
  text_printf(t, "</g>\n");
}

// The direction field: an arrow every few cells (FIELD_ARROWS_PER_SIDE along the longer side
// at most) in the colour of the cell's field.
static void draw_field_arrows(const picture *p, const film *f, const view *v, text *t) {
  const fxs_nav_grid *g = &f->nav;
  uint32_t side = g->width > g->height ? g->width : g->height;
  uint32_t step = (side + FIELD_ARROWS_PER_SIDE - 1) / FIELD_ARROWS_PER_SIDE;
  double half = 0.32 * units(g->cell_size) * step * v->scale; // half an arrow: 0.64 of the spacing
  text_printf(t, "<g stroke-width='1' stroke-opacity='0.7' fill-opacity='0.7'>\n");
  for (uint32_t cy = step / 2; cy < g->height; cy += step) {
    for (uint32_t cx = step / 2; cx < g->width; cx += step) {
      uint32_t value;
      int owner = cell_owner(p, f, (size_t)cy * g->width + cx, &value);
      if (owner < 0) continue;
      uint32_t dir = f->nav_fields[owner].direction[(size_t)cy * g->width + cx];
      if (dir >= FXS_NAV_DIRECTIONS) continue;
      int32_t sx, sy;
      fxs_nav_direction_step(dir, &sx, &sy);
      double n = sx && sy ? 1.41421356 : 1.0, dx = sx * half / n, dy = sy * half / n;
      fxs_vec2 c = fxs_nav_grid_cell_center(g, cx, cy);
      double x = px(v, units(c.x)), y = py(v, units(c.y)), hx = x + dx, hy = y + dy;
      double bx = hx - 0.45 * dx, by = hy - 0.45 * dy;
      const char *colour = field_colour(f->nav_fields[owner].slot);
      text_printf(t,
                  "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='%s'/><path d='M%.1f "
                  "%.1fL%.1f %.1fL%.1f %.1fz' fill='%s'/>\n",
                  x - dx, y - dy, hx, hy, colour, hx, hy, bx - 0.35 * dy, by + 0.35 * dx,
                  bx + 0.35 * dy, by - 0.35 * dx, colour);
    }
  }
  text_printf(t, "</g>\n");
}

// Each shown field's goal as a ringed dot with its slot (drawn over the agents).
static void draw_field_goals(const picture *p, const film *f, const view *v, text *t) {
  const fxs_nav_grid *g = &f->nav;
  for (uint32_t k = 0; k < f->nav_field_count; ++k) {
    const film_nav_field *fl = &f->nav_fields[k];
    if (!field_shown(p, fl)) continue;
    fxs_vec2 c = fxs_nav_grid_cell_center(g, fl->goal_cell % g->width, fl->goal_cell / g->width);
    double x = px(v, units(c.x)), y = py(v, units(c.y));
    text_printf(t,
                "<circle cx='%.1f' cy='%.1f' r='5' fill='#fff' fill-opacity='0.6' stroke='%s' "
                "stroke-width='1.5'/><circle cx='%.1f' cy='%.1f' r='1.8' fill='%s'/>",
                x, y, field_colour(fl->slot), x, y, field_colour(fl->slot));
    text_printf(t, "<text x='%.1f' y='%.1f' font-size='9' fill='%s'>field %u%s</text>\n", x + 7,
                y + 3, field_colour(fl->slot), fl->slot,
                fl->status == FXS_NAV_FIELD_READY ? "" : " (building)");
  }
}

static bool any_field_shown(const picture *p, const film *f) {
  for (uint32_t k = 0; k < f->nav_field_count; ++k) {
    if (field_shown(p, &f->nav_fields[k])) return true;
  }
  return false;
}

// Each agent's route after the last tick: its waypoints joined by a thin dotted line.
static void draw_routes(const film *f, const view *v, text *t) {
  if (!f->route_counts) return;
  for (uint32_t i = 0; i < f->slots; ++i) {
    uint32_t n = f->route_counts[i] < f->route_stride ? f->route_counts[i] : f->route_stride;
    if (n == 0) continue;
    const fxs_vec2 *w = f->routes + (size_t)i * f->route_stride;
    char colour[8];
    agent_colour(i, colour);
    text_printf(t,
                "<polyline fill='none' stroke='%s' stroke-opacity='0.7' stroke-width='1' "
                "stroke-dasharray='2 2' points='",
                colour);
    for (uint32_t k = 0; k < n; ++k)
      text_printf(t, "%.1f,%.1f ", px(v, units(w[k].x)), py(v, units(w[k].y)));
    text_printf(t, "'/>\n");
    for (uint32_t k = 0; k < n; ++k) {
      text_printf(t, "<circle cx='%.1f' cy='%.1f' r='2' fill='%s' fill-opacity='0.7'/>\n",
                  px(v, units(w[k].x)), py(v, units(w[k].y)), colour);
    }
  }
}

static void draw_layout(const picture *pic, const film *f, const view *v, text *t) {
  const fxs_world_def *d = &f->def;
  {
    double x0 = px(v, units(d->bounds_min.x)), y0 = py(v, units(d->bounds_min.y));
    text_printf(t,
                "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='#ffffff' stroke='#888' "
                "stroke-width='1'/>\n",
                x0, y0, px(v, units(d->bounds_max.x)) - x0, py(v, units(d->bounds_max.y)) - y0);
  }
  if (f->nav.width > 0) draw_nav_cells(&f->nav, v, t);
  if (f->mesh_triangle_count > 0) draw_nav_mesh(f, v, t);
  bool fields = any_field_shown(pic, f);
  if (fields) draw_field_heat(pic, f, v, t);
  if (f->field.width > 0) draw_field(&f->field, v, t);
  for (uint32_t p = 0; p < f->path_count; ++p) {
    const film_path *path = &f->paths[p];
    if (path->count == 0) continue;
    text_printf(t,
                "<polyline fill='none' stroke='#c9d3e0' stroke-opacity='0.45' "
                "stroke-linejoin='round' stroke-linecap='round' stroke-width='%.1f' points='",
                2 * units(path->radius) * v->scale);
    for (uint32_t i = 0; i < path->count; ++i)
      text_printf(t, "%.1f,%.1f ", px(v, units(path->nodes[i].x)), py(v, units(path->nodes[i].y)));
    if (path->mode == FXS_PATH_LOOP)
      text_printf(t, "%.1f,%.1f", px(v, units(path->nodes[0].x)), py(v, units(path->nodes[0].y)));
    text_printf(t,
                "'/>\n<polyline fill='none' stroke='#3b5b8a' stroke-width='1' stroke-dasharray='5 "
                "3' points='");
    for (uint32_t i = 0; i < path->count; ++i)
      text_printf(t, "%.1f,%.1f ", px(v, units(path->nodes[i].x)), py(v, units(path->nodes[i].y)));
    if (path->mode == FXS_PATH_LOOP)
      text_printf(t, "%.1f,%.1f", px(v, units(path->nodes[0].x)), py(v, units(path->nodes[0].y)));
    text_printf(t, "'/>\n");
    for (uint32_t i = 0; i < path->count; ++i) {
      text_printf(t, "<rect x='%.1f' y='%.1f' width='5' height='5' fill='#3b5b8a'/>\n",
                  px(v, units(path->nodes[i].x)) - 2.5, py(v, units(path->nodes[i].y)) - 2.5);
    }
  }
  for (uint32_t i = 0; i < f->obstacle_count; ++i) {
    const fxs_obstacle *o = &f->obstacles[i];
    text_printf(
        t,
        "<circle cx='%.1f' cy='%.1f' r='%.1f' fill='#b8b8b8' stroke='#6a6a6a' stroke-width='1'/>\n",
        px(v, units(o->center.x)), py(v, units(o->center.y)), units(o->radius) * v->scale);
  }
  for (uint32_t i = 0; i < f->wall_count; ++i) {
    const fxs_wall *w = &f->walls[i];
    text_printf(t,
                "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='#222' stroke-width='3.5' "
                "stroke-linecap='round'/>\n",
                px(v, units(w->a.x)), py(v, units(w->a.y)), px(v, units(w->b.x)),
                py(v, units(w->b.y)));
  }
  if (fields) draw_field_arrows(pic, f, v, t);
  draw_routes(f, v, t);
}

// ------------------------------------------------------------------ agents

static const sample *at(const film *f, long frame, uint32_t slot) {
  return &f->samples[(size_t)frame * f->slots + slot];
}

// One polyline per life of the slot (a respawn starts a new one); points closer than 0.7
// pixel to the last one drawn are left out.
static long draw_trajectory(const film *f, uint32_t slot, const view *v, bool dashed, text *t) {
  long points = 0;
  char colour[8];
  agent_colour(slot, colour);
  bool open = false;
  double lx = 0, ly = 0, qx = 0, qy = 0;
  uint16_t generation = 0;
  for (long k = 0; k <= f->frames; ++k) {
    const sample *s = k < f->frames ? at(f, k, slot) : 0;
    bool same = s && s->alive && (!open || s->generation == generation);
    if (open && !same) {
      if (qx != lx || qy != ly) text_printf(t, "%.1f,%.1f", qx, qy);
      text_printf(t, "'/>\n");
      open = false;
    }
    if (!s || !s->alive) continue;
    double x = px(v, units(s->x)), y = py(v, units(s->y));
    if (!open) {
      text_printf(t,
                  "<polyline fill='none' stroke='%s' stroke-width='1.1' stroke-opacity='0.85'%s "
                  "points='%.1f,%.1f ",
                  colour, dashed ? " stroke-dasharray='4 3'" : "", x, y);
      open = true, generation = s->generation, lx = x, ly = y, ++points;
    } else if ((x - lx) * (x - lx) + (y - ly) * (y - ly) >= 0.49) {
      text_printf(t, "%.1f,%.1f ", x, y);
      lx = x, ly = y, ++points;
    }
    qx = x, qy = y;
  }
  return points;
}

// Bodies (circles of the agent's radius) with a heading tick, fainter for earlier ticks.
static void draw_bodies(const film *f, const picture *p, const view *v, bool dashed, text *t) {
  for (int k = 0; k < p->at_count; ++k) {
    long frame = p->at[k] - f->first_tick;
    if (frame < 0 || frame >= f->frames) continue;
    double opacity = p->at_count > 1 ? 0.3 + 0.65 * k / (p->at_count - 1) : 0.95;
    for (uint32_t slot = 0; slot < f->slots; ++slot) {
      const sample *s = at(f, frame, slot);
      if (!s->alive) continue;
      char colour[8];
      agent_colour(slot, colour);
      double x = px(v, units(s->x)), y = py(v, units(s->y)), r = units(s->radius) * v->scale;
      double reach = (r < 1.5 ? 1.5 : r) + 6;
      double ux = units(fxs_cos(s->orientation)), uy = units(fxs_sin(s->orientation));
      text_printf(t,
                  "<g stroke='%s' opacity='%.2f'><circle cx='%.1f' cy='%.1f' r='%.1f' fill='%s' "
                  "fill-opacity='0.25' stroke-width='1.2'%s/>",
                  colour, opacity, x, y, r < 1.5 ? 1.5 : r, colour,
                  dashed ? " stroke-dasharray='2 2'" : "");
      text_printf(t, "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke-width='1.4'/></g>\n", x,
                  y, x + reach * ux, y + reach * uy);
    }
  }
}

// The slot number beside the agent's last body.
static void draw_labels(const film *f, const view *v, text *t) {
  if (f->slots > LABELLED_AGENTS) return;
  for (uint32_t slot = 0; slot < f->slots; ++slot) {
    for (long k = f->frames - 1; k >= 0; --k) {
      const sample *s = at(f, k, slot);
      if (!s->alive) continue;
      char colour[8];
      agent_colour(slot, colour);
      double r = units(s->radius) * v->scale;
      text_printf(t, "<text x='%.1f' y='%.1f' font-size='9' fill='%s'>%u</text>\n",
                  px(v, units(s->x)) + r + 2, py(v, units(s->y)) - r - 1, colour, slot);
      break;
    }
  }
}

// Trajectories with more points than this are drawn without anti-aliasing: a dense picture
// stays readable and its PNG several times smaller.
#define CRISP_POINTS 15000

static void draw_agents(const picture *p, const view *v, text *t) {
  text lines = {0, 0, 0, false};
  long points = 0;
  for (uint32_t slot = 0; slot < p->a->slots; ++slot)
    points += draw_trajectory(p->a, slot, v, false, &lines);
  if (p->b) {
    for (uint32_t slot = 0; slot < p->b->slots; ++slot)
      points += draw_trajectory(p->b, slot, v, true, &lines);
  }
  text_printf(t, "<g%s>\n", points > CRISP_POINTS ? " shape-rendering='crispEdges'" : "");
  if (lines.failed) t->failed = true;
  else if (lines.size) text_printf(t, "%s", lines.data);
  text_printf(t, "</g>\n");
  text_free(&lines);
  draw_bodies(p->a, p, v, false, t);
  if (p->b) draw_bodies(p->b, p, v, true, t);
  draw_labels(p->a, v, t);
}

// ------------------------------------------------------------------ header and legend

static long max_agents(const film *f) {
  long most = 0;
  for (long k = 0; k < f->frames; ++k) {
    long n = 0;
    for (uint32_t slot = 0; slot < f->slots; ++slot) n += at(f, k, slot)->alive;
    if (n > most) most = n;
  }
  return most;
}

static void draw_header(const picture *p, text *t) {
  const film *a = p->a;
  text_printf(t, "<text x='%.0f' y='20' font-size='15' font-weight='bold'>", MARGIN);
  text_escaped(t, a->name);
  if (p->b)
    text_printf(t, " (A, solid) and "), text_escaped(t, p->b->name), text_printf(t, " (B, dashed)");
  text_printf(t, " \xe2\x80\x94 ticks %ld..%ld, %ld agents</text>\n", a->first_tick,
              a->first_tick + a->frames - 1, max_agents(a));
  text_printf(t, "<text x='%.0f' y='37' font-size='11' fill='#333'>", MARGIN);
  if (p->b)
    text_printf(t,
                "two replays re-simulated on this build; the bar below marks the ticks whose "
                "recorded hashes differ");
  else if (a->is_replay)
    text_printf(
        t, "replay re-simulated on this build, every tick's hash checked against the recording");
  else text_escaped(t, a->summary ? a->summary : "scenario");
  text_printf(
      t, "</text>\n<text x='%.0f' y='52' font-size='11' fill='#333'>bodies and headings at ticks ",
      MARGIN);
  for (int k = 0; k < p->at_count; ++k) text_printf(t, "%s%ld", k ? ", " : "", p->at[k]);
  text_printf(
      t, " (fainter = earlier); x \xe2\x86\x92, y \xe2\x86\x93 (world y grows downward)</text>\n");
}

// Where the next legend item goes; items wrap to a new row at the picture's right edge.
typedef struct cursor {
  double x, y, right;
  int rows;
} cursor;

#define LEGEND_ROW 17.0

// A legend glyph and its label (text width estimated at 6.3 pixels a character).
static void legend_item(text *t, cursor *c, const char *glyph, const char *label) {
  double w = 22 + 6.3 * (double)strlen(label);
  if (c->x > MARGIN && c->x + w > c->right) c->x = MARGIN, c->y += LEGEND_ROW, ++c->rows;
  if (t) {
    text_printf(t, "<g transform='translate(%.1f,%.1f)'>%s</g>", c->x, c->y, glyph);
    text_printf(t, "<text x='%.1f' y='%.1f' font-size='11'>", c->x + 22, c->y + 4);
    text_escaped(t, label);
    text_printf(t, "</text>\n");
  }
  c->x += w + 14;
}

// A scale bar of a round length of at least 40 pixels.
static void scale_bar(const view *v, text *t, cursor *c) {
  static const double steps[] = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000};
  double length = steps[0];
  for (size_t i = 0; i < sizeof steps / sizeof steps[0]; ++i) {
    length = steps[i];
    if (steps[i] * v->scale >= 40) break;
  }
  double w = length * v->scale;
  if (c->x > MARGIN && c->x + w + 70 > c->right) c->x = MARGIN, c->y += LEGEND_ROW, ++c->rows;
  if (!t) return;
  text_printf(t, "<path d='M%.1f %.1fv6h%.1fv-6' fill='none' stroke='#222' stroke-width='1.2'/>",
              c->x, c->y - 4, w);
  text_printf(t, "<text x='%.1f' y='%.1f' font-size='11'>%.0f units</text>\n", c->x + w + 6,
              c->y + 4, length);
}

// The legend from y on (t NULL: only measures); returns its rows.
static int draw_legend(const picture *p, const view *v, double y, text *t) {
  cursor c = {MARGIN, y, p->width - MARGIN, 1};
  legend_item(t, &c,
              "<path d='M0 4 l6 -8 l6 6 l6 -6' fill='none' stroke='#c03' stroke-width='1.1'/>",
              p->b ? "trajectory (A solid, B dashed; slot number at its end)"
                   : "trajectory (slot number at its end)");
  legend_item(
      t, &c,
      "<circle cx='8' cy='0' r='5' fill='#c03' fill-opacity='0.25' stroke='#c03' "
      "stroke-width='1.2'/><line x1='8' y1='0' x2='19' y2='0' stroke='#c03' stroke-width='1.4'/>",
      "body, heading");
  if (p->a->path_count) {
    legend_item(
        t, &c,
        "<rect x='0' y='-5' width='18' height='10' fill='#c9d3e0' fill-opacity='0.45'/><line "
        "x1='0' y1='0' x2='18' y2='0' stroke='#3b5b8a' stroke-dasharray='5 3'/><rect x='-2.5' "
        "y='-2.5' width='5' height='5' fill='#3b5b8a'/>",
        "path, nodes, path radius");
  }
  if (p->a->field.width > 0) {
    legend_item(t, &c,
                "<line x1='0' y1='0' x2='14' y2='0' stroke='#6f8fb0' stroke-opacity='0.6'/><path "
                "d='M18 0L12 -3L12 3z' fill='#6f8fb0' fill-opacity='0.6'/>",
                "flow field after the last tick");
  }
  if (p->a->nav.width > 0) {
    legend_item(t, &c, "<rect x='0' y='-5' width='18' height='10' fill='#e4d9c8'/>",
                "blocked navigation cells (walls and obstacles by the radius)");
  }
  if (p->a->mesh_triangle_count > 0)
    legend_item(t, &c, "<path d='M0 5L9 -5L18 5z' fill='none' stroke='#9fb3c8'/>",
                "navigation mesh");
  if (any_field_shown(p, p->a)) {
    char label[160];
    uint32_t shown = 0;
    for (uint32_t k = 0; k < p->a->nav_field_count; ++k)
      shown += field_shown(p, &p->a->nav_fields[k]);
    snprintf(
        label, sizeof label,
        "%s after the last tick: shade = cost to the goal (darker nearer), arrow = direction%s",
        shown == 1 ? "a group's integration field" : "groups' integration fields",
        shown == 1 ? "" : "; each cell shows its cheapest goal");
    legend_item(
        t, &c,
        "<rect x='0' y='-5' width='6' height='10' fill='#2f6fc4' fill-opacity='0.32'/><rect x='6' "
        "y='-5' width='6' height='10' fill='#2f6fc4' fill-opacity='0.2'/><rect x='12' y='-5' "
        "width='6' height='10' fill='#2f6fc4' fill-opacity='0.08'/><path d='M2 0h10M16 0L11 -3L11 "
        "3z' stroke='#2f6fc4' fill='#2f6fc4'/>",
        label);
  }
  if (p->a->route_counts) {
    legend_item(t, &c,
                "<polyline points='0,4 8,-4 18,2' fill='none' stroke='#555' stroke-dasharray='2 "
                "2'/><circle cx='8' cy='-4' r='2' fill='#555'/>",
                "route waypoints after the last tick");
  }
  if (p->a->obstacle_count)
    legend_item(t, &c, "<circle cx='8' cy='0' r='6' fill='#b8b8b8' stroke='#6a6a6a'/>", "obstacle");
  if (p->a->wall_count)
    legend_item(t, &c, "<line x1='0' y1='0' x2='18' y2='0' stroke='#222' stroke-width='3.5'/>",
                "wall");
  const fxs_world_def *d = &p->a->def;
  char bounds[320];
  snprintf(bounds, sizeof bounds, "bounds [%g, %g] x [%g, %g]%s%s", units(d->bounds_min.x),
           units(d->bounds_max.x), units(d->bounds_min.y), units(d->bounds_max.y),
           d->clamp_to_bounds ? ", clamped" : ", not clamped",
           v->bounds_shown ? "" : " (not all in view)");
  if (p->zoom) {
    size_t n = strlen(bounds);
    snprintf(bounds + n, sizeof bounds - n, "; view [%g, %g] x [%g, %g]", p->zoom_box[0],
             p->zoom_box[2], p->zoom_box[1], p->zoom_box[3]);
  }
  legend_item(t, &c, "<rect x='0' y='-5' width='18' height='10' fill='#fff' stroke='#888'/>",
              bounds);
  scale_bar(v, t, &c);
  return c.rows;
}

// Notes under the legend: a replay whose re-simulation stopped matching its recording.
static double draw_notes(const picture *p, double y, text *t) {
  const film *films[2] = {p->a, p->b};
  for (int i = 0; i < 2; ++i) {
    if (!films[i] || !films[i]->diverged) continue;
    text_printf(t, "<text x='%.0f' y='%.1f' font-size='11' fill='#c00'>", MARGIN, y);
    text_escaped(t, films[i]->name);
    text_printf(t,
                ": re-simulated on this build, its hash differs from the recording at tick %ld; "
                "drawn up to there</text>\n",
                films[i]->diverged_tick);
    y += 16;
  }
  return y;
}

// ------------------------------------------------------------------ two replays: where they differ

// 0: same hash, 1: different, 2: only one of them has the tick.
static int tick_state(const film *a, const film *b, long tick) {
  long i = tick - a->first_tick, j = tick - b->first_tick;
  bool in_a = i >= 0 && i < a->hash_count, in_b = j >= 0 && j < b->hash_count;
  if (!in_a || !in_b) return 2;
  return a->hashes[i] != b->hashes[j];
}

static void draw_timeline(const picture *p, double y, text *t) {
  const film *a = p->a, *b = p->b;
  long lo = a->first_tick < b->first_tick ? a->first_tick : b->first_tick;
  long hi_a = a->first_tick + a->hash_count, hi_b = b->first_tick + b->hash_count;
  long hi = (hi_a > hi_b ? hi_a : hi_b) - 1;
  double x0 = MARGIN, w = p->width - 2 * MARGIN, bar = y + 8, per = w / (double)(hi - lo + 1);
  long first = -1, differ = 0;
  text_printf(t,
              "<rect x='%.1f' y='%.1f' width='%.1f' height='12' fill='#dcefdc' stroke='#777' "
              "stroke-width='0.8'/>\n",
              x0, bar, w);
  for (long tick = lo; tick <= hi;) {
    int state = tick_state(a, b, tick);
    long end = tick;
    while (end + 1 <= hi && tick_state(a, b, end + 1) == state) ++end;
    if (state == 1) differ += end - tick + 1;
    if (state == 1 && first < 0) first = tick;
    if (state != 0) {
      double rw = (end - tick + 1) * per;
      text_printf(t, "<rect x='%.2f' y='%.1f' width='%.2f' height='12' fill='%s'/>\n",
                  x0 + (tick - lo) * per, bar, rw < 1 ? 1 : rw, state == 1 ? "#d62728" : "#9a9a9a");
    }
    tick = end + 1;
  }
  text_printf(t,
              "<text x='%.1f' y='%.1f' font-size='10' fill='#333'>recorded state hash after each "
              "tick, A against B (ticks numbered as fixsteer diff does)</text>\n",
              x0, bar - 3);
  text_printf(t, "<text x='%.1f' y='%.1f' font-size='10'>%ld</text>", x0, bar + 24, lo);
  text_printf(t, "<text x='%.1f' y='%.1f' font-size='10' text-anchor='end'>%ld</text>\n", x0 + w,
              bar + 24, hi);
  if (first >= 0) {
    double fx = x0 + (first - lo + 0.5) * per;
    text_printf(t, "<path d='M%.1f %.1fv16' stroke='#000' stroke-width='1.5'/>", fx, bar - 2);
    text_printf(t,
                "<text x='%.1f' y='%.1f' font-size='11' text-anchor='middle'>first divergent tick "
                "%ld; %ld of %ld ticks differ (red; grey: only one replay)</text>\n",
                x0 + w / 2, bar + 24, first, differ, hi - lo + 1);
  } else {
    text_printf(t,
                "<text x='%.1f' y='%.1f' font-size='11' text-anchor='middle'>the recorded hashes "
                "agree at every tick both replays hold</text>\n",
                x0 + w / 2, bar + 24);
  }
}

// ------------------------------------------------------------------ the picture

void render_svg(const picture *p, text *t) {
  int notes = (p->a->diverged ? 1 : 0) + (p->b && p->b->diverged ? 1 : 0);
  view v;
  layout(p, 0, MAX_MAP_HEIGHT, &v);
  int rows = draw_legend(p, &v, 0, 0);
  double below = 14 + LEGEND_ROW * rows + 16.0 * notes + (p->b ? 54 : 0);
  if (p->height > 0) { // the map takes what the header, the legend and the notes leave
    double room = p->height - (v.height - v.map_h) - below;
    layout(p, 0, room > 1 ? room : 1, &v);
    rows = draw_legend(p, &v, 0, 0);
  }
  v.height += below;
  text_printf(t, "<?xml version='1.0' encoding='UTF-8'?>\n");
  text_printf(t,
              "<svg xmlns='http://www.w3.org/2000/svg' width='%.0f' height='%.0f' viewBox='0 0 "
              "%.0f %.0f' font-family='%s'>\n",
              v.width, v.height, v.width, v.height, FONT);
  text_printf(t, "<rect width='100%%' height='100%%' fill='#f4f4f1'/>\n");
  text_printf(
      t, "<clipPath id='map'><rect x='%.1f' y='%.1f' width='%.1f' height='%.1f'/></clipPath>\n",
      v.left, v.top, v.map_w, v.map_h);
  text_printf(t,
              "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='#ececec'/>\n<g "
              "clip-path='url(#map)'>\n",
              v.left, v.top, v.map_w, v.map_h);
  draw_layout(p, p->a, &v, t);
  draw_agents(p, &v, t);
  if (any_field_shown(p, p->a)) draw_field_goals(p, p->a, &v, t);
  text_printf(t, "</g>\n");
  draw_header(p, t);
  double y = v.top + v.map_h + 18;
  draw_legend(p, &v, y, t);
  y = draw_notes(p, y + LEGEND_ROW * rows + 2, t);
  if (p->b) draw_timeline(p, y, t);
  text_printf(t, "</svg>\n");
}
