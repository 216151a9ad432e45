// `fixsteer render`: an SVG of a scenario or of one or two replays (render_draw.c draws it)
// and a PNG beside it, made by rsvg-convert (Debian's librsvg2-bin).
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(_WIN32)
#include <io.h>
#include <process.h>
#elif !defined(__wasi__)
#include <spawn.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

#include "cli.h"
#include "commands.h"
#include "output.h"
#include "render.h"
#include "source.h"

#if !defined(_WIN32) && !defined(__wasi__)
extern char **environ;
#endif

// Samples kept in memory at most (slots x frames, 20 bytes each: 160 MiB).
#define MAX_SAMPLES (8u << 20)
#define MAX_AT 32
#define PICTURE_WIDTH 800
// --size's limits: below them the legend and the header no longer fit.
#define PICTURE_MIN_WIDTH 320
#define PICTURE_MIN_HEIGHT 240
#define PICTURE_MAX_SIDE 8192
#define STR_(x) #x
#define STR(x) STR_(x)

static char *copy_text(const char *s) {
  if (!s) return 0;
  size_t n = strlen(s) + 1;
  char *c = malloc(n);
  if (c) memcpy(c, s, n);
  return c;
}

static void film_free(film *f) {
  free((char *)f->name);
  free((char *)f->summary);
  free(f->samples);
  free(f->walls);
  free(f->obstacles);
  free(f->paths);
  free(f->nodes);
  free(f->field.cells);
  free(f->nav.cost);
  free(f->mesh_triangles);
  free(f->routes);
  free(f->route_counts);
  for (uint32_t k = 0; k < f->nav_field_count; ++k) {
    free(f->nav_fields[k].value);
    free(f->nav_fields[k].direction);
  }
  free(f->nav_fields);
  free(f->hashes);
  memset(f, 0, sizeof *f);
}

static void keep_frame(film *f, const fxs_world *w, long frame) {
  for (uint32_t i = 0; i < f->slots; ++i) {
    const fxs_agent_slot *a = &w->agents[i];
    sample *s = &f->samples[(size_t)frame * f->slots + i];
    s->x = a->body.position.x, s->y = a->body.position.y, s->orientation = a->body.orientation;
    s->radius = a->body.radius, s->generation = a->generation, s->alive = a->alive;
  }
}

// The integration fields of groups (fxs_world_nav_field) after the last tick, cell by cell.
static bool keep_nav_fields(film *f, const fxs_world *w) {
  uint32_t slots = w->capacity.nav_fields, width = f->nav.width, height = f->nav.height;
  size_t cells = (size_t)width * height;
  f->nav_fields = calloc(slots ? slots : 1, sizeof *f->nav_fields);
  if (!f->nav_fields) return false;
  for (uint32_t k = 0; k < slots; ++k) {
    uint32_t goal;
    const fxs_nav_field *field = fxs_world_nav_field(w, k, &goal);
    if (!field) continue;
    film_nav_field *kept = &f->nav_fields[f->nav_field_count++];
    kept->slot = k, kept->goal_cell = goal, kept->status = field->status;
    kept->value = malloc(cells * sizeof *kept->value);
    kept->direction = malloc(cells);
    if (!kept->value || !kept->direction) return false;
    for (uint32_t cy = 0; cy < height; ++cy) {
      for (uint32_t cx = 0; cx < width; ++cx) {
        kept->value[(size_t)cy * width + cx] = fxs_nav_field_value(field, cx, cy);
        kept->direction[(size_t)cy * width + cx] = (uint8_t)fxs_nav_field_direction(field, cx, cy);
      }
    }
  }
  return true;
}

// The navigation grid (its effective costs) and every agent's route after the last tick.
static bool keep_navigation(film *f, const fxs_world *w) {
  const fxs_nav_grid *g = fxs_world_nav_grid((fxs_world *)(uintptr_t)w); // rebuilds a cache only
  bool mesh = w->capacity.nav_kind == FXS_NAV_KIND_MESH;
  if (!g && !mesh) return true;
  size_t cells = g ? (size_t)g->width * g->height : 0;
  if (g) f->nav = *g;
  f->nav.cost = malloc(cells ? cells : 1);
  uint32_t slots = w->capacity.agents, cap = w->capacity.nav_waypoints;
  f->route_counts = calloc(slots ? slots : 1, sizeof *f->route_counts);
  f->routes = malloc(((size_t)slots * cap + 1u) * sizeof *f->routes);
  if (!f->nav.cost || !f->route_counts || !f->routes) return false;
  if (g) memcpy(f->nav.cost, g->cost, cells);
  if (mesh) { // the triangles, corner by corner
    const fxs_nav_mesh *m = &w->nav.mesh;
    f->mesh_triangles = malloc(3u * (size_t)m->triangle_count * sizeof *f->mesh_triangles);
    if (!f->mesh_triangles) return false;
    for (uint32_t i = 0; i < m->triangle_count; ++i) {
      for (int k = 0; k < 3; ++k) f->mesh_triangles[3u * i + k] = m->vertices[m->triangles[i].v[k]];
    }
    f->mesh_triangle_count = m->triangle_count;
  }
  f->route_stride = cap;
  for (uint32_t i = 0; i < slots; ++i) {
    uint32_t next;
    f->route_counts[i] =
        fxs_world_nav_route(w, fxs_world_handle_at(w, i), f->routes + (size_t)i * cap, cap, &next);
  }
  return keep_nav_fields(f, w);
}

// The walls, obstacles and paths of the world after the last tick.
static bool keep_layout(film *f, const fxs_world *w) {
  f->def = w->def;
  uint32_t walls = w->capacity.walls, obstacles = w->capacity.obstacles;
  f->walls = malloc((walls ? walls : 1) * sizeof *f->walls);
  f->obstacles = malloc((obstacles ? obstacles : 1) * sizeof *f->obstacles);
  f->paths = malloc((w->path_count ? w->path_count : 1) * sizeof *f->paths);
  f->nodes = malloc((w->node_count ? w->node_count : 1) * sizeof *f->nodes);
  if (!f->walls || !f->obstacles || !f->paths || !f->nodes) return false;
  for (uint32_t i = 0; i < walls; ++i) {
    if (w->wall_alive[i]) f->walls[f->wall_count++] = w->walls[i];
  }
  for (uint32_t i = 0; i < obstacles; ++i) {
    if (w->obstacle_alive[i]) f->obstacles[f->obstacle_count++] = w->obstacles[i];
  }
  if (w->node_count) memcpy(f->nodes, w->nodes, w->node_count * sizeof *f->nodes);
  for (uint32_t p = 0; p < w->path_count; ++p) {
    const fxs_world_path *path = &w->paths[p];
    f->paths[p] = (film_path){f->nodes + path->first_node, path->count, path->radius, path->mode};
  }
  f->path_count = w->path_count;
  if (w->field.width > 0) { // the flow field, drawn under everything
    size_t cells = (size_t)w->field.width * w->field.height;
    f->field = w->field;
    f->field.cells = malloc(cells * sizeof *f->field.cells);
    if (!f->field.cells) return false;
    memcpy(f->field.cells, w->field.cells, cells * sizeof *f->field.cells);
  }
  return keep_navigation(f, w);
}

// Runs a source to its end, keeping every frame. Returns EXIT_OK, or EXIT_BAD after
// printing why.
static int record_film(source *src, film *f) {
  const fxs_world *w = src->world;
  f->slots = w->capacity.agents;
  f->first_tick = (long)w->tick;
  f->is_replay = src->is_replay;
  uint64_t samples = (uint64_t)f->slots * (uint64_t)(src->ticks + 1);
  if (samples > MAX_SAMPLES) {
    fprintf(stderr,
            "fixsteer: %s is too large to render: %u agent slots x %ld frames is more than %u "
            "samples; render fewer ticks with --ticks\n",
            src->name, f->slots, src->ticks + 1, MAX_SAMPLES);
    return EXIT_BAD;
  }
  f->name = copy_text(src->name);
  f->summary = src->is_replay ? 0 : copy_text(src->s.sc->summary);
  f->samples = malloc((size_t)(samples ? samples : 1) * sizeof *f->samples);
  if (!f->name || !f->samples)
    return fprintf(stderr, "fixsteer: %s: out of memory\n", src->name), EXIT_BAD;
  keep_frame(f, w, 0);
  f->frames = 1;
  while (source_step(src)) keep_frame(f, w, f->frames++);
  if (!keep_layout(f, w))
    return fprintf(stderr, "fixsteer: %s: out of memory\n", src->name), EXIT_BAD;
  f->diverged = src->diverged, f->diverged_tick = (long)src->diverged_tick;
  f->hashes = src->hashes, f->hash_count = src->is_replay ? src->ticks : 0;
  src->hashes = 0; // the film owns them now
  return EXIT_OK;
}

// ------------------------------------------------------------------ ticks to show bodies at

static int by_value(const void *a, const void *b) {
  long x = *(const long *)a, y = *(const long *)b;
  return x < y ? -1 : x > y;
}

// The first frame with an agent, three evenly spaced ticks and the last.
static int default_ticks(const film *f, long *at) {
  long first = f->first_tick, last = f->first_tick + f->frames - 1;
  for (long k = 0; k < f->frames; ++k) {
    bool any = false;
    for (uint32_t i = 0; i < f->slots && !any; ++i)
      any = f->samples[(size_t)k * f->slots + i].alive;
    if (any) {
      first = f->first_tick + k;
      break;
    }
  }
  int n = 0;
  for (int k = 0; k <= 4; ++k) {
    long tick = first + (last - first) * k / 4;
    if (n == 0 || at[n - 1] != tick) at[n++] = tick;
  }
  return n;
}

// "--at 0,300,600": ticks within the film, sorted, without repeats. Returns the count, or -1
// after a usage error.
static int parse_at(const char *list, const film *f, long *at) {
  long first = f->first_tick, last = f->first_tick + f->frames - 1;
  int n = 0;
  const char *p = list;
  while (*p) {
    char *end = 0;
    errno = 0;
    long tick = strtol(p, &end, 10);
    if (end == p || errno || (*end && *end != ',') || n >= MAX_AT) {
      return fail_usage("render", "--at needs up to 32 ticks separated by commas", list), -1;
    }
    if (tick < first || tick > last) {
      char range[96];
      snprintf(range, sizeof range, "%ld (the run has ticks %ld..%ld)", tick, first, last);
      return fail_usage("render", "--at names a tick outside the run", range), -1;
    }
    at[n++] = tick;
    p = *end ? end + 1 : end;
  }
  if (n == 0)
    return fail_usage("render", "--at needs up to 32 ticks separated by commas", list), -1;
  qsort(at, (size_t)n, sizeof *at, by_value);
  int kept = 0;
  for (int i = 0; i < n; ++i) {
    if (kept == 0 || at[kept - 1] != at[i]) at[kept++] = at[i];
  }
  return kept;
}

// ------------------------------------------------------------------ files

#if defined(__wasi__)
// WASI starts no processes: under wasm32 the tool writes the SVG only.
static bool svg_to_png(output *svg, output *png) {
  (void)svg;
  fprintf(stderr, "fixsteer: cannot make %s: no rsvg-convert under WASI (--no-png skips the PNG)\n",
          png->name);
  return false;
}
#elif defined(_WIN32)
// Windows has no posix_spawn: rsvg-convert (from MSYS2's mingw-w64 librsvg, on the PATH) is
// started by _spawnlp with this process's standard input and output pointed at the two
// temporary files for the time of the call, then both are put back.
static bool svg_to_png(output *svg, output *png) {
  if (fflush(stdout) != 0 || fflush(svg->f) != 0 || fflush(png->f) != 0 ||
      _lseek(_fileno(svg->f), 0, SEEK_SET) != 0) {
    fprintf(stderr, "fixsteer: cannot make %s: %s\n", png->name, strerror(errno));
    return false;
  }
  int saved_in = _dup(0), saved_out = _dup(1);
  intptr_t status = -1;
  int e = 0;
  if (saved_in >= 0 && saved_out >= 0 && _dup2(_fileno(svg->f), 0) == 0 &&
      _dup2(_fileno(png->f), 1) == 0) {
    status = _spawnlp(_P_WAIT, "rsvg-convert", "rsvg-convert", "--format", "png", (char *)0);
    e = errno;
  } else {
    e = errno;
  }
  if (saved_in >= 0) _dup2(saved_in, 0), _close(saved_in);
  if (saved_out >= 0) _dup2(saved_out, 1), _close(saved_out);
  if (status == -1) {
    fprintf(stderr,
            "fixsteer: cannot make %s: rsvg-convert: %s (put rsvg-convert.exe on the "
            "PATH, or --no-png skips the PNG)\n",
            png->name, strerror(e));
    return false;
  }
  if (status != 0) {
    fprintf(stderr, "fixsteer: cannot make %s: rsvg-convert failed\n", png->name);
    return false;
  }
  return true;
}
#else
// rsvg-convert reads the SVG from its standard input and writes the PNG to its standard
// output: both are descriptors of temporary files this process created exclusively, so it is
// never given a path that someone else could have replaced.
static bool svg_to_png(output *svg, output *png) {
  if (fflush(svg->f) != 0 || fflush(png->f) != 0 || lseek(fileno(svg->f), 0, SEEK_SET) != 0) {
    fprintf(stderr, "fixsteer: cannot make %s: %s\n", png->name, strerror(errno));
    return false;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fileno(svg->f), 0);
  posix_spawn_file_actions_adddup2(&actions, fileno(png->f), 1);
  char *args[] = {"rsvg-convert", "--format", "png", 0};
  pid_t pid;
  int e = posix_spawnp(&pid, "rsvg-convert", &actions, 0, args, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (e != 0) {
    fprintf(stderr,
            "fixsteer: cannot make %s: rsvg-convert: %s (Debian's librsvg2-bin; tools/setup.sh "
            "installs it; --no-png skips the PNG)\n",
            png->name, strerror(e));
    return false;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fprintf(stderr, "fixsteer: cannot make %s: rsvg-convert failed\n", png->name);
    return false;
  }
  return true;
}
#endif

// FILE.svg and, unless no_png, FILE.png beside it: both or neither.
static bool write_outputs(const char *svg_name, const text *svg_text, bool no_png) {
  size_t n = strlen(svg_name);
  char *png_name = malloc(n + 1);
  if (!png_name) return false;
  memcpy(png_name, svg_name, n - 4);
  memcpy(png_name + n - 4, ".png", 5);
  output svg, png;
  png.f = 0;
  bool ok = output_open(&svg, svg_name);
  if (ok)
    ok = fwrite(svg_text->data, 1, svg_text->size, svg.f) == svg_text->size && fflush(svg.f) == 0;
  if (ok && !no_png) ok = output_open(&png, png_name) && svg_to_png(&svg, &png);
  ok = output_finish(&svg, ok);
  if (!no_png && png.f) ok = output_finish(&png, ok) && ok;
  if (ok) printf("wrote %s%s%s\n", svg_name, no_png ? "" : " and ", no_png ? "" : png_name);
  free(png_name);
  return ok;
}

// ------------------------------------------------------------------ the command

// "--view X0,Y0,X1,Y1": the world rectangle to show.
static bool parse_view(const char *list, picture *p) {
  const char *c = list;
  for (int i = 0; i < 4; ++i) {
    char *end = 0;
    p->zoom_box[i] = strtod(c, &end);
    if (end == c || (i < 3 && *end != ',') || (i == 3 && *end)) return false;
    c = end + 1;
  }
  p->zoom = p->zoom_box[2] > p->zoom_box[0] && p->zoom_box[3] > p->zoom_box[1];
  return p->zoom;
}

// "--size W,H": the picture W pixels wide and at most H tall (whole numbers within limits).
static bool parse_size(const char *value, picture *p) {
  long v[2];
  const char *c = value;
  for (int i = 0; i < 2; ++i) {
    char *end = 0;
    if (*c < '0' || *c > '9') return false;
    errno = 0;
    v[i] = strtol(c, &end, 10);
    if (errno || end == c || (i == 0 && *end != ',') || (i == 1 && *end)) return false;
    c = end + 1;
  }
  if (v[0] < PICTURE_MIN_WIDTH || v[0] > PICTURE_MAX_SIDE || v[1] < PICTURE_MIN_HEIGHT ||
      v[1] > PICTURE_MAX_SIDE) {
    return false;
  }
  p->width = (int)v[0], p->height = (int)v[1];
  return true;
}

// "--nav-fields all|none|K": which integration fields of groups to draw (render.h).
static bool parse_nav_fields(const char *value, int *which) {
  if (strcmp(value, "all") == 0) return *which = NAV_FIELDS_ALL, true;
  if (strcmp(value, "none") == 0) return *which = NAV_FIELDS_NONE, true;
  char *end = 0;
  errno = 0;
  long k = strtol(value, &end, 10);
  if (value[0] < '0' || value[0] > '9' || *end || errno || k >= (long)FXS_NAV_MAX_FIELDS)
    return false;
  *which = (int)k;
  return true;
}

// A field slot asked for by --nav-fields must hold a field after the last tick.
static int check_nav_field(const film *f, int which) {
  if (which < 0) return EXIT_OK;
  char live[320] = "none: the run has no field of a group";
  size_t n = 0;
  for (uint32_t k = 0; k < f->nav_field_count; ++k) {
    if (f->nav_fields[k].slot == (uint32_t)which) return EXIT_OK;
    n += (size_t)snprintf(live + n, sizeof live - n, "%s%u", k ? ", " : "", f->nav_fields[k].slot);
  }
  char message[96];
  snprintf(message, sizeof message,
           "--nav-fields %d: no field in that slot after the last tick; live slots", which);
  return fail_usage("render", message, live);
}

static bool ends_with(const char *s, const char *tail) {
  size_t n = strlen(s), m = strlen(tail);
  return n > m && strcmp(s + n - m, tail) == 0;
}

static int check_usage(const options *o) {
  if (!o->out) return fail_usage("render", "needs --out FILE.svg", 0);
  if (!ends_with(o->out, ".svg"))
    return fail_usage("render", "--out must name a .svg file (the PNG goes beside it)", o->out);
  if (o->scenario && o->file_count)
    return fail_usage("render", "takes --scenario or replay files, not both", 0);
  if (!o->scenario && !o->file_count)
    return fail_usage("render", "needs --scenario NAME|FILE or one or two replay files", 0);
  return EXIT_OK;
}

// Records the film of source `index` (-1: the scenario). Returns the exit code so far.
static int film_of(const options *o, int index, film *f) {
  source src;
  int opened = source_open(&src, "render", o, index);
  if (opened != EXIT_OK) return opened;
  int code = record_film(&src, f);
  if (code == EXIT_OK) code = source_report_divergence(&src);
  source_close(&src);
  return code;
}

int cmd_render(int argc, char **argv) {
  bool missing = false;
  bool no_png = cli_take_flag(&argc, argv, "--no-png");
  const char *at_list = cli_take_value(&argc, argv, "--at", &missing);
  if (missing) return fail_usage("render", "missing value for", "--at");
  const char *view_list = cli_take_value(&argc, argv, "--view", &missing);
  if (missing) return fail_usage("render", "missing value for", "--view");
  const char *fields = cli_take_value(&argc, argv, "--nav-fields", &missing);
  if (missing) return fail_usage("render", "missing value for", "--nav-fields");
  const char *size = cli_take_value(&argc, argv, "--size", &missing);
  if (missing) return fail_usage("render", "missing value for", "--size");
  picture p = {0, 0, 0, 0, PICTURE_WIDTH, 0, false, {0, 0, 0, 0}, NAV_FIELDS_ALL};
  if (size && !parse_size(size, &p)) {
    return fail_usage(
        "render",
        "--size needs W,H: whole pixels, W from " STR(PICTURE_MIN_WIDTH) " to " STR(
            PICTURE_MAX_SIDE) ", H from " STR(PICTURE_MIN_HEIGHT) " to " STR(PICTURE_MAX_SIDE),
        size);
  }
  if (view_list && !parse_view(view_list, &p)) {
    return fail_usage("render", "--view needs X0,Y0,X1,Y1 (world units, X0 < X1, Y0 < Y1)",
                      view_list);
  }
  if (fields && !parse_nav_fields(fields, &p.nav_fields)) {
    char message[80];
    snprintf(message, sizeof message, "--nav-fields needs all, none or a field slot 0..%u",
             FXS_NAV_MAX_FIELDS - 1u);
    return fail_usage("render", message, fields);
  }
  options o;
  int done = command_options("render", argc, argv, 2, &o);
  if (done >= 0) return done;
  if (check_usage(&o) != EXIT_OK) return EXIT_BAD;
  film a, b;
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  int code = film_of(&o, o.scenario ? -1 : 0, &a);
  if (code != EXIT_BAD && o.file_count == 2) {
    int second = film_of(&o, 1, &b);
    code = second > code ? second : code;
  }
  long at[MAX_AT];
  int at_count = 0;
  if (code != EXIT_BAD) at_count = at_list ? parse_at(at_list, &a, at) : default_ticks(&a, at);
  if (at_count < 0) code = EXIT_BAD;
  if (code != EXIT_BAD && check_nav_field(&a, p.nav_fields) != EXIT_OK) code = EXIT_BAD;
  if (code != EXIT_BAD) {
    p.a = &a, p.b = o.file_count == 2 ? &b : 0, p.at = at, p.at_count = at_count;
    text svg = {0, 0, 0, false};
    render_svg(&p, &svg);
    if (svg.failed) fprintf(stderr, "fixsteer: out of memory drawing %s\n", o.out);
    if (svg.failed || !write_outputs(o.out, &svg, no_png)) code = EXIT_BAD;
    text_free(&svg);
  }
  film_free(&a);
  film_free(&b);
  return code;
}
