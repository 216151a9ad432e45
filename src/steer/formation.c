#include "fixsteer/formation.h"

#include "fixsteer/behavior_params.h"
#include "fixsteer/scalar.h"
#include "wide.h"

fxs_formation_def fxs_default_formation_def(void) {
  fxs_formation_def d;
  d.shape = (fxs_formation_shape)(fxs_behavior_param_default(FXS_BEHAVIOR_FORMATION, 0) / FXS_ONE);
  d.spacing = fxs_behavior_param_default(FXS_BEHAVIOR_FORMATION, 1);
  d.slowing_radius = fxs_behavior_param_default(FXS_BEHAVIOR_FORMATION, 2);
  d.group = (uint32_t)(fxs_behavior_param_default(FXS_BEHAVIOR_FORMATION, 3) / FXS_ONE);
  d.arrival_radius = fxs_behavior_param_default(FXS_BEHAVIOR_FORMATION, 4);
  d.offsets = 0;
  d.offset_count = 0;
  return d;
}

uint32_t fxs_formation_slot_count(const fxs_formation_def *def, uint32_t members) {
  uint32_t n = members < FXS_FORMATION_MAX_MEMBERS ? members : FXS_FORMATION_MAX_MEMBERS;
  if (def->shape == FXS_FORMATION_USER && def->offset_count < n) n = def->offset_count;
  return n;
}

// k spacings, k small (|k| <= 2 * FXS_FORMATION_MAX_MEMBERS), saturated.
static fix16_t spacings(int32_t k, fix16_t s) { return fxs_saturate((int64_t)k * s); }

// (k / 2) spacings, halved after the product so odd k stays exact when s is even.
static fix16_t half_spacings(int32_t k, fix16_t s) { return fxs_saturate((int64_t)k * s / 2); }

// Slots in a box row: the smallest w with w * w >= n.
static uint32_t box_width(uint32_t n) {
  uint32_t w = 1;
  while (w * w < n) ++w;
  return w;
}

// The shape's offset of slot i of n around a leader; i < n.
static fxs_vec2 leader_offset(const fxs_formation_def *def, uint32_t i, uint32_t n) {
  fix16_t s = def->spacing;
  int32_t k = (int32_t)i, m = (int32_t)n;
  switch (def->shape) {
    case FXS_FORMATION_LINE:
      return fxs_vec2_make(fxs_neg(s), half_spacings(m - 1 - 2 * k, s));
    case FXS_FORMATION_COLUMN:
      return fxs_vec2_make(spacings(-(k + 1), s), 0);
    case FXS_FORMATION_WEDGE: {
      int32_t r = k / 2 + 1;
      return fxs_vec2_make(spacings(-r, s), spacings(k % 2 == 0 ? r : -r, s));
    }
    case FXS_FORMATION_BOX: {
      int32_t w = (int32_t)box_width(n);
      int32_t row = k / w, column = k % w;
      int32_t in_row = m - row * w < w ? m - row * w : w;
      return fxs_vec2_make(spacings(-(row + 1), s), half_spacings(in_row - 1 - 2 * column, s));
    }
    case FXS_FORMATION_USER:
      return i < def->offset_count ? def->offsets[i] : fxs_vec2_zero();
    default:
      return fxs_vec2_zero();
  }
}

fxs_vec2 fxs_formation_offset(const fxs_formation_def *def, uint32_t slot, uint32_t count,
                              bool around_leader) {
  if (slot >= count) return fxs_vec2_zero();
  fxs_vec2 o = leader_offset(def, slot, count);
  if (around_leader) return o;
  int64_t sx = 0, sy = 0;
  for (uint32_t i = 0; i < count; ++i) {
    fxs_vec2 e = leader_offset(def, i, count);
    sx += e.x, sy += e.y;
  }
  return fxs_vec2_sub(o, fxs_vec2_make((fix16_t)fxs_div_round_i64(sx, (int64_t)count),
                                       (fix16_t)fxs_div_round_i64(sy, (int64_t)count)));
}

// One component of a rotated offset: a * p + b * q in Q16.16, one rounding (|terms| <= 2^47).
static fix16_t rotated(fix16_t a, fix16_t p, fix16_t b, fix16_t q) {
  return fxs_saturate(fxs_div_round_i64((int64_t)a * p + (int64_t)b * q, 65536));
}

fxs_vec2 fxs_formation_place(fxs_vec2 anchor, fxs_vec2 heading, fxs_vec2 offset) {
  fxs_vec2 world = fxs_vec2_make(rotated(offset.x, heading.x, offset.y, fxs_neg(heading.y)),
                                 rotated(offset.x, heading.y, offset.y, heading.x));
  return fxs_vec2_add(anchor, world);
}

// Squared distance of two points, the difference saturated first so the sum fits in 64 bits.
static uint64_t gap_sq(fxs_vec2 a, fxs_vec2 b) { return fxs_vec2_length_sq(fxs_vec2_sub(a, b)); }

// The untaken slot nearest member m's position: least (distance, slot), into *best_sq.
static uint32_t nearest_free_slot(fxs_vec2 position, const fxs_vec2 *slots, uint32_t count,
                                  uint32_t slots_taken, uint64_t *best_sq) {
  uint32_t best = count;
  for (uint32_t s = 0; s < count; ++s) {
    if (slots_taken & (1u << s)) continue;
    uint64_t d = gap_sq(position, slots[s]);
    if (best == count || d < *best_sq) *best_sq = d, best = s;
  }
  return best;
}

// Greedy: each round the pair of least (distance, member, slot) among the untaken ones is
// matched. Each member keeps its nearest untaken slot (least distance, then slot), so the
// round's pair is the member of least (its distance, member); a member's nearest is searched
// again only when another member takes it. Small arrays, no count x count table: this runs
// inside a world step, whose stack an MCU sizes (docs/mcu.md).
uint32_t fxs_formation_assign(const fxs_vec2 *positions, const fxs_vec2 *slots, uint32_t count,
                              uint32_t who) {
  if (who >= count || count > FXS_FORMATION_MAX_MEMBERS) return count;
  uint32_t nearest[FXS_FORMATION_MAX_MEMBERS];
  uint64_t nearest_sq[FXS_FORMATION_MAX_MEMBERS];
  for (uint32_t m = 0; m < count; ++m) {
    nearest[m] = nearest_free_slot(positions[m], slots, count, 0, &nearest_sq[m]);
  }
  uint32_t members_taken = 0, slots_taken = 0;
  for (uint32_t round = 0; round < count; ++round) {
    uint32_t bm = count;
    for (uint32_t m = 0; m < count; ++m) {
      if (members_taken & (1u << m)) continue;
      if (slots_taken & (1u << nearest[m])) {
        nearest[m] = nearest_free_slot(positions[m], slots, count, slots_taken, &nearest_sq[m]);
      }
      if (bm == count || nearest_sq[m] < nearest_sq[bm]) bm = m;
    }
    uint32_t bs = nearest[bm];
    if (bm == who) return bs;
    members_taken |= 1u << bm;
    slots_taken |= 1u << bs;
  }
  return count; // not reached: every member gets a slot
}

// Arrive at `slot`, which moves by `base` this tick, on top of `base`.
fxs_vec2 fxs_formation_arrive(const fxs_agent *self, fxs_vec2 slot, fxs_vec2 base,
                              const fxs_formation_def *def) {
  if (fxs_vec2_is_zero(base) &&
      fxs_vec2_within(self->position, slot, fxs_max(def->arrival_radius, 0))) {
    return fxs_steer_toward(self, fxs_vec2_zero()); // at the slot of a still formation: stop
  }
  // Relative to the slot, which moves by `base` as the member does: arrival closes the gap.
  fxs_vec2 offset = fxs_vec2_sub(slot, self->position);
  fix16_t speed = fxs_max(self->max_speed, 0);
  fix16_t slowing = fxs_max(def->slowing_radius, 0);
  if (slowing > 0) {
    fix16_t distance = fxs_vec2_length(offset);
    if (distance < slowing) speed = fxs_muldiv(speed, distance, slowing);
  }
  // Closer than the resolution of the slow-down: close the gap in one step, not LSB by LSB.
  fxs_vec2 approach = speed <= 1 ? offset : fxs_vec2_set_length(offset, speed);
  fxs_vec2 desired = fxs_vec2_truncate(fxs_vec2_add(base, approach), fxs_max(self->max_speed, 0));
  return fxs_steer_toward(self, desired);
}

// The members' mean position, rounded half away from zero.
static fxs_vec2 centre_of(const fxs_agent *const *members, uint32_t n) {
  int64_t sx = 0, sy = 0;
  for (uint32_t i = 0; i < n; ++i) sx += members[i]->position.x, sy += members[i]->position.y;
  return fxs_vec2_make((fix16_t)fxs_div_round_i64(sx, (int64_t)n),
                       (fix16_t)fxs_div_round_i64(sy, (int64_t)n));
}

bool fxs_formation_slot(const fxs_agent *const *members, uint32_t count, uint32_t who,
                        const fxs_agent *leader, const fxs_formation_def *def, fxs_vec2 *slot) {
  uint32_t n = fxs_formation_slot_count(def, count);
  if (who >= n) return false;
  fxs_vec2 anchor = leader ? leader->position : centre_of(members, n);
  fxs_vec2 heading = leader ? fxs_agent_heading(leader) : fxs_vec2_make(FXS_ONE, 0);
  // Zeroed: gcc -O1 cannot see that n >= 1 (who < n) fills every entry the assignment reads.
  fxs_vec2 positions[FXS_FORMATION_MAX_MEMBERS] = {{0, 0}};
  fxs_vec2 slots[FXS_FORMATION_MAX_MEMBERS] = {{0, 0}};
  for (uint32_t i = 0; i < n; ++i) {
    positions[i] = members[i]->position;
    slots[i] = fxs_formation_place(anchor, heading, fxs_formation_offset(def, i, n, leader != 0));
  }
  uint32_t s = fxs_formation_assign(positions, slots, n, who);
  if (s >= n) return false;
  *slot = slots[s];
  return true;
}

fxs_vec2 fxs_formation(const fxs_agent *const *members, uint32_t count, uint32_t who,
                       const fxs_agent *leader, const fxs_formation_def *def) {
  fxs_vec2 slot;
  if (!fxs_formation_slot(members, count, who, leader, def, &slot)) return fxs_vec2_zero();
  fxs_vec2 base = leader ? leader->velocity : fxs_vec2_zero();
  return fxs_formation_arrive(members[who], slot, base, def);
}
