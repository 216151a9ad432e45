// A navigate agent's route record, shared by grid and mesh worlds (world_route.h).
#include "world_route.h"

#include <string.h>

#include "fixsteer/nav_path.h"

void fxs_route_measure(fxs_nav_route *r, fix16_t distance, fix16_t touch, bool at_rest) {
  bool resting = r->next + 1u >= r->count && at_rest;
  if (r->next != r->mark_next || distance <= r->mark_distance - touch || resting) {
    r->mark_next = r->next, r->mark_distance = distance, r->stall = 0;
  } else if (r->stall < FXS_NAV_STALL_TICKS) {
    r->stall++;
  }
}

void fxs_route_stall(fxs_nav_route *r) {
  if (r->stall < FXS_NAV_STALL_TICKS) r->stall++;
}

bool fxs_route_used_up(const fxs_nav_route *r) {
  return r->status == FXS_ROUTE_READY &&
         ((r->partial && r->next + 1u >= r->count) || r->stall >= FXS_NAV_STALL_TICKS);
}

void fxs_route_wait(fxs_nav_route *r, uint32_t *search_owner, uint32_t version) {
  if (r->status == FXS_ROUTE_SEARCHING) search_owner[r->search] = FXS_ROUTE_NO_OWNER;
  r->status = FXS_ROUTE_WAITING;
  r->version = version;
}

void fxs_route_ready(fxs_nav_route *r, uint8_t reached, uint32_t count, bool partial,
                     fix16_t distance) {
  r->status = FXS_ROUTE_READY;
  r->reached = reached;
  r->partial = partial;
  r->search = 0;
  r->count = (uint16_t)count;
  r->next = 0;
  r->stall = 0, r->mark_next = 0, r->mark_distance = distance;
}

bool fxs_route_write_head(fxs_writer *w, const fxs_nav_route *r) {
  fxs_put_u8(w, r->status);
  if (r->status == FXS_ROUTE_NONE) return false;
  fxs_put_u8(w, r->reached);
  fxs_put_u8(w, r->partial);
  fxs_put_u16(w, r->search);
  fxs_put_u16(w, r->count);
  fxs_put_u16(w, r->next);
  fxs_put_u32(w, r->version);
  return true;
}

void fxs_route_write_tail(fxs_writer *w, const fxs_nav_route *r) {
  fxs_put_u16(w, r->stall);
  fxs_put_u16(w, r->mark_next);
  fxs_put_i32(w, r->mark_distance);
}

bool fxs_route_read_head(fxs_reader *rd, fxs_nav_route *r) {
  memset(r, 0, sizeof *r);
  r->status = fxs_get_u8(rd);
  if (rd->failed || r->status == FXS_ROUTE_NONE) return false;
  r->reached = fxs_get_u8(rd);
  r->partial = fxs_get_u8(rd);
  r->search = fxs_get_u16(rd);
  r->count = fxs_get_u16(rd);
  r->next = fxs_get_u16(rd);
  r->version = fxs_get_u32(rd);
  return !rd->failed;
}

void fxs_route_read_tail(fxs_reader *rd, fxs_nav_route *r) {
  r->stall = fxs_get_u16(rd);
  r->mark_next = fxs_get_u16(rd);
  r->mark_distance = fxs_get_i32(rd);
}

bool fxs_route_valid(const fxs_nav_route *r, const fxs_world_capacity *capacity) {
  bool ends = r->reached == 0 || (r->reached >= FXS_NAV_FOUND && r->reached <= FXS_NAV_OPEN_FULL);
  return r->status <= FXS_ROUTE_READY && r->partial <= 1 && ends &&
         (r->reached != 0) == (r->count != 0) && r->count <= capacity->nav_waypoints &&
         (r->status != FXS_ROUTE_READY || r->count != 0) && // a finished search's points
         (r->count == 0 ? r->next == 0 : r->next < r->count) && r->stall <= FXS_NAV_STALL_TICKS &&
         r->mark_distance >= 0 && (r->count == 0 ? r->mark_next == 0 : r->mark_next < r->count) &&
         (r->status == FXS_ROUTE_READY ? r->search == 0 : r->search < capacity->nav_searches);
}
