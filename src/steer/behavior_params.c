#include "fixsteer/behavior_params.h"

#include "bytes.h"

#include <stddef.h>

// A row's default for the reference agent: its radii or max forces times the reference
// agent's (whole multiples of a raw unit for every row: test_behavior_params checks).
#define REFERENCE_DEFAULT_(def, basis)                                                              \
  ((basis) == FXS_PARAM_RADII    ? (fix16_t)(((int64_t)(def)*FXS_PARAM_REFERENCE_RADIUS) / FXS_ONE) \
   : (basis) == FXS_PARAM_FORCES ? (fix16_t)(((int64_t)(def)*FXS_PARAM_REFERENCE_FORCE) / FXS_ONE)  \
                                 : (fix16_t)(def))

// The table, flattened; rows of one behavior are contiguous and in slot order.
static const fxs_behavior_param table[] = {
#define FXS_PARAM_ROW_(behavior, index, name, unit, lo, hi, def, basis, meaning) \
  {behavior, #name, unit, lo, hi, REFERENCE_DEFAULT_(def, basis), meaning, basis, def},
    FXS_BEHAVIOR_PARAM_LIST(FXS_PARAM_ROW_)
#undef FXS_PARAM_ROW_
};

#define TABLE_ROWS (sizeof table / sizeof table[0])

// First row of `behavior` and the number of its rows.
static size_t rows_of(fxs_behavior behavior, size_t *first) {
  size_t n = 0;
  *first = 0;
  for (size_t i = 0; i < TABLE_ROWS; ++i) {
    if (table[i].behavior != behavior) continue;
    if (n == 0) *first = i;
    ++n;
  }
  return n;
}

uint32_t fxs_behavior_param_count(fxs_behavior behavior) {
  size_t first;
  return (uint32_t)rows_of(behavior, &first);
}

const fxs_behavior_param *fxs_behavior_param_info(fxs_behavior behavior, uint32_t index) {
  size_t first;
  size_t n = rows_of(behavior, &first);
  return index < n ? &table[first + index] : NULL;
}

fix16_t fxs_behavior_param_default(fxs_behavior behavior, uint32_t index) {
  const fxs_behavior_param *p = fxs_behavior_param_info(behavior, index);
  return p ? p->default_value : 0;
}

fix16_t fxs_behavior_param_default_for(fxs_behavior behavior, uint32_t index, fix16_t radius,
                                       fix16_t max_force) {
  const fxs_behavior_param *p = fxs_behavior_param_info(behavior, index);
  if (!p) return 0;
  fix16_t of = p->basis == FXS_PARAM_RADII ? radius : p->basis == FXS_PARAM_FORCES ? max_force : 0;
  if (of <= 0) return p->default_value;
  // per_basis x of, rounded to nearest (half away from zero), in 64 bits: both are bounded
  // by Q16.16, the product by 2^62.
  int64_t q = (int64_t)p->per_basis * (int64_t)of;
  q = q >= 0 ? (q + FXS_ONE / 2) / FXS_ONE : -((-q + FXS_ONE / 2) / FXS_ONE);
  if (q < p->minimum) q = p->minimum;
  if (q > p->maximum) q = p->maximum;
  return (fix16_t)q;
}

static fxs_result bad(uint32_t *bad_index, uint32_t which) {
  if (bad_index) *bad_index = which;
  return FXS_ERR_BAD_VALUE;
}

fxs_result fxs_behavior_params_check(uint32_t kind, fix16_t weight,
                                     const fix16_t params[FXS_BEHAVIOR_PARAMS],
                                     uint32_t *bad_index) {
  // Slots hold steering behaviors only: not NONE, not the manager's labels.
  if (!fxs_behavior_is_slot_kind(kind)) {
    return bad(bad_index, FXS_BAD_PARAM_KIND);
  }
  if (weight < FXS_BEHAVIOR_WEIGHT_MIN || weight > FXS_BEHAVIOR_WEIGHT_MAX) {
    return bad(bad_index, FXS_BAD_PARAM_WEIGHT);
  }
  size_t first;
  size_t n = rows_of((fxs_behavior)kind, &first);
  for (uint32_t i = 0; i < FXS_BEHAVIOR_PARAMS; ++i) {
    if (i >= n) {
      if (params[i] != 0) return bad(bad_index, i); // unused parameters are 0
      continue;
    }
    const fxs_behavior_param *p = &table[first + i];
    if (params[i] < p->minimum || params[i] > p->maximum) return bad(bad_index, i);
    if (fxs_text_equal(p->unit, "count") && params[i] % FXS_ONE != 0) return bad(bad_index, i);
  }
  if (kind == FXS_BEHAVIOR_WALKER && params[1] < params[0]) return bad(bad_index, 1);
  if (kind == FXS_BEHAVIOR_AVOID && params[4] != 0 && params[4] != FXS_ONE)
    return bad(bad_index, 4);
  if (kind == FXS_BEHAVIOR_FORMATION && params[0] % FXS_ONE != 0) return bad(bad_index, 0);
  return FXS_OK;
}
