#include "world_field.h"

#include "command_args.h"
#include "world_nav.h"

#include <stddef.h>

fxs_result fxs_world_field_grid_check(fxs_vec2 origin, fix16_t cell_size, uint32_t width,
                                      uint32_t height, uint32_t capacity) {
  if (width == 0 && height == 0) {
    return cell_size == 0 && origin.x == 0 && origin.y == 0 ? FXS_OK : FXS_ERR_BAD_VALUE;
  }
  if (cell_size <= 0 || width < 1 || height < 1 || width > FXS_MAX_FIELD_SIDE ||
      height > FXS_MAX_FIELD_SIDE) {
    return FXS_ERR_BAD_VALUE;
  }
  return (uint64_t)width * height > capacity ? FXS_ERR_CAPACITY : FXS_OK;
}

static fxs_result set_grid(fxs_world *world, const fxs_command *c) {
  uint32_t width, height;
  if (!fxs_arg_whole(c->arg[3], &width) || !fxs_arg_whole(c->arg[4], &height) ||
      !fxs_args_unused_zero(c, 5)) {
    return FXS_ERR_BAD_VALUE;
  }
  fxs_vec2 origin = fxs_vec2_make(c->arg[0], c->arg[1]);
  fxs_result r =
      fxs_world_field_grid_check(origin, c->arg[2], width, height, world->capacity.field_cells);
  if (r != FXS_OK) return r;
  fxs_flow_field *f = &world->field;
  if (width == 0) {
    f->origin = fxs_vec2_zero(), f->cell_size = 0, f->width = 0, f->height = 0;
    return FXS_OK;
  }
  // Checked above: the init cannot fail, and it zeroes the width * height cells.
  return fxs_flow_field_init(f, f->cells, world->capacity.field_cells, width, height, origin,
                             c->arg[2]);
}

static fxs_result set_cells(fxs_world *world, const fxs_command *c) {
  fxs_flow_field *f = &world->field;
  uint32_t x, y, w, h;
  if (!fxs_arg_whole(c->arg[0], &x) || !fxs_arg_whole(c->arg[1], &y) ||
      !fxs_arg_whole(c->arg[2], &w) || !fxs_arg_whole(c->arg[3], &h) ||
      !fxs_args_unused_zero(c, 6)) {
    return FXS_ERR_BAD_VALUE;
  }
  // The block [x, x + w) x [y, y + h) must be non-empty and inside the grid (no grid: none is).
  if (w == 0 || h == 0 || x >= f->width || y >= f->height || w > f->width - x ||
      h > f->height - y) {
    return FXS_ERR_BAD_VALUE;
  }
  fxs_vec2 v = fxs_vec2_make(c->arg[4], c->arg[5]);
  for (uint32_t row = y; row < y + h; ++row) {
    for (uint32_t col = x; col < x + w; ++col) f->cells[(size_t)row * f->width + col] = v;
  }
  return FXS_OK;
}

static fxs_result fill(fxs_world *world, const fxs_command *c) {
  fxs_flow_field *f = &world->field;
  if (f->width == 0) return FXS_ERR_BAD_VALUE;
  fxs_vec2 at = fxs_vec2_make(c->arg[0], c->arg[1]);
  switch (c->ref) {
    case FXS_FLOW_FILL_UNIFORM:
      if (!fxs_args_unused_zero(c, 2)) return FXS_ERR_BAD_VALUE;
      fxs_flow_field_fill_uniform(f, at);
      return FXS_OK;
    case FXS_FLOW_FILL_TOWARD:
      if (!fxs_args_unused_zero(c, 2)) return FXS_ERR_BAD_VALUE;
      fxs_flow_field_fill_toward(f, at);
      return FXS_OK;
    case FXS_FLOW_FILL_VORTEX:
      if (!fxs_args_unused_zero(c, 4)) return FXS_ERR_BAD_VALUE;
      fxs_flow_field_fill_vortex(f, at, c->arg[2], c->arg[3]);
      return FXS_OK;
    case FXS_FLOW_FILL_GOAL:
      if (!fxs_args_unused_zero(c, 2)) return FXS_ERR_BAD_VALUE;
      return fxs_world_nav_fill_field(world, at);
    default:
      return FXS_ERR_BAD_VALUE;
  }
}

fxs_result fxs_world_field_command(fxs_world *world, const fxs_command *c) {
  if (c->agent != 0) return FXS_ERR_BAD_VALUE;
  switch ((fxs_command_type)c->type) {
    case FXS_CMD_SET_FIELD_GRID:
      return c->ref != 0 ? FXS_ERR_BAD_VALUE : set_grid(world, c);
    case FXS_CMD_SET_FIELD_CELLS:
      return c->ref != 0 ? FXS_ERR_BAD_VALUE : set_cells(world, c);
    case FXS_CMD_FILL_FIELD:
      return fill(world, c);
    default:
      return FXS_ERR_BAD_COMMAND;
  }
}

fxs_vec2 fxs_world_field_steering(const fxs_world *world, const fxs_agent *agent,
                                  fix16_t look_ahead) {
  if (world->field.width == 0) return fxs_vec2_zero();
  fxs_flow_field_def d = fxs_default_flow_field_def();
  d.look_ahead = look_ahead;
  return fxs_follow_flow_field(agent, &world->field, &d);
}
