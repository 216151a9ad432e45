#include "fixsteer/flow_field.h"

#include <stddef.h>

#include "exact.h"

fxs_flow_field_def fxs_default_flow_field_def(void) {
  fxs_flow_field_def d;
  d.look_ahead = 0;
  return d;
}

static bool field_valid(const fxs_flow_field *field) {
  return field->cells != NULL && field->width > 0 && field->height > 0 && field->cell_size > 0;
}

// Number of cells; init checked that it fits the caller's uint32 capacity.
static uint32_t cell_count(const fxs_flow_field *field) {
  return (uint32_t)((uint64_t)field->width * field->height);
}

fxs_result fxs_flow_field_init(fxs_flow_field *field, fxs_vec2 *cells, uint32_t capacity,
                               uint32_t width, uint32_t height, fxs_vec2 origin,
                               fix16_t cell_size) {
  if (cells == NULL || width == 0 || height == 0 || cell_size <= 0) return FXS_ERR_BAD_VALUE;
  if ((uint64_t)width * height > capacity) return FXS_ERR_BUFFER_TOO_SMALL;
  field->origin = origin;
  field->cell_size = cell_size;
  field->width = width;
  field->height = height;
  field->cells = cells;
  for (uint32_t i = 0; i < cell_count(field); ++i) cells[i] = fxs_vec2_zero();
  return FXS_OK;
}

// floor((p - origin) / size) clamped to [0, n - 1]; p - origin is exact in 64 bits.
static uint32_t clamped_index(fix16_t p, fix16_t origin, fix16_t size, uint32_t n) {
  int64_t offset = (int64_t)p - origin;
  if (offset < 0) return 0;
  uint64_t q = (uint64_t)offset / (uint64_t)size;
  return q >= n ? n - 1 : (uint32_t)q;
}

void fxs_flow_field_cell_of(const fxs_flow_field *field, fxs_vec2 position, uint32_t *cx,
                            uint32_t *cy) {
  FXS_ASSERT(field_valid(field));
  *cx = 0;
  *cy = 0;
  if (!field_valid(field)) return;
  *cx = clamped_index(position.x, field->origin.x, field->cell_size, field->width);
  *cy = clamped_index(position.y, field->origin.y, field->cell_size, field->height);
}

// origin + index * size + size / 2: below 2^63 for any index < 2^32 and size < 2^31.
static fix16_t center_of(fix16_t origin, uint32_t index, fix16_t size) {
  return fxs_saturate((int64_t)origin + (int64_t)index * size + size / 2);
}

fxs_vec2 fxs_flow_field_cell_center(const fxs_flow_field *field, uint32_t cx, uint32_t cy) {
  return fxs_vec2_make(center_of(field->origin.x, cx, field->cell_size),
                       center_of(field->origin.y, cy, field->cell_size));
}

fxs_vec2 fxs_flow_field_sample(const fxs_flow_field *field, fxs_vec2 position) {
  FXS_ASSERT(field_valid(field));
  if (!field_valid(field)) return fxs_vec2_zero();
  uint32_t cx, cy;
  fxs_flow_field_cell_of(field, position, &cx, &cy);
  return field->cells[(size_t)cy * field->width + cx];
}

fxs_vec2 fxs_follow_flow_field(const fxs_agent *self, const fxs_flow_field *field,
                               const fxs_flow_field_def *def) {
  FXS_ASSERT(field_valid(field));
  if (!field_valid(field)) return fxs_vec2_zero();
  fxs_vec2 probe = self->position;
  if (def->look_ahead > 0) {
    probe = fxs_vec2_add(probe, fxs_vec2_scale(self->velocity, def->look_ahead));
  }
  fxs_vec2 flow = fxs_flow_field_sample(field, probe);
  return fxs_steer_toward(self, fxs_vec2_set_length(flow, fxs_max(self->max_speed, 0)));
}

void fxs_flow_field_fill_uniform(fxs_flow_field *field, fxs_vec2 direction) {
  FXS_ASSERT(field_valid(field));
  if (!field_valid(field)) return;
  fxs_vec2 unit = fxs_vec2_normalize(direction);
  for (uint32_t i = 0; i < cell_count(field); ++i) field->cells[i] = unit;
}

void fxs_flow_field_fill_toward(fxs_flow_field *field, fxs_vec2 point) {
  fxs_flow_field_fill_vortex(field, point, 0, FXS_ONE);
}

void fxs_flow_field_fill_vortex(fxs_flow_field *field, fxs_vec2 center, fix16_t swirl,
                                fix16_t inward) {
  FXS_ASSERT(field_valid(field));
  if (!field_valid(field)) return;
  for (uint32_t cy = 0; cy < field->height; ++cy) {
    for (uint32_t cx = 0; cx < field->width; ++cx) {
      fxs_vec2 c = fxs_flow_field_cell_center(field, cx, cy);
      fxs_vec2 n = fxs_vec2_normalize(fxs_exact_direction(c, center));
      fxs_vec2 t = fxs_vec2_make(n.y, fxs_neg(n.x)); // n turned by -pi/2
      fxs_vec2 v = fxs_vec2_add(fxs_vec2_scale(t, swirl), fxs_vec2_scale(n, inward));
      field->cells[(size_t)cy * field->width + cx] = fxs_vec2_normalize(v);
    }
  }
}
