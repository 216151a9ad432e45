// Internal: the start-of-tick view of the live agents in the order of a uniform grid's
// cells, and the neighbor search over it. The view is scratch, rebuilt every tick; the grid's
// shape never changes a result, because a search returns the K nearest agents under a total
// order (squared distance, then slot index).
#ifndef FIXSTEER_WORLD_GRID_H
#define FIXSTEER_WORLD_GRID_H

#include <stdint.h>

#include "fixsteer/hide.h"
#include "fixsteer/path.h"
#include "fixsteer/world.h"
#include "orca_sorted.h"
#include "world_contact.h"

/// One entry of a neighbor search: sorted by (dist_sq, slot).
typedef struct fxs_world_candidate {
  uint64_t dist_sq; ///< Exact squared distance, Q32.32.
  uint32_t slot;    ///< Slot index (the tie-break).
  uint32_t view;    ///< View index.
} fxs_world_candidate;

// How the scan meets a candidate. Cores that speculate deeply (x86-64, application ARM)
// pay far more for a mispredicted branch than for a few instructions: there a candidate is
// tested and appended without a branch, and the found ones ranked at the end. Cortex-M
// cores (M profile) have short pipelines and pay for every instruction instead: there the
// scan skips a far candidate after its first test and inserts each one found into the sorted
// list at once. Both give the same list (a build may choose with -DFXS_GRID_BRANCH_FREE=0 or
// 1, which the checks use to run the other path on the desktop).
#ifndef FXS_GRID_BRANCH_FREE
#if defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M'
#define FXS_GRID_BRANCH_FREE 0
#else
#define FXS_GRID_BRANCH_FREE 1
#endif
#endif

/// Agents within the radius a search collects, unsorted, before it ranks them (more go
/// through the sorted list FXS_GRID_FOUND at a time).
#define FXS_GRID_FOUND 32u
/// Most agents a search sorts by a network (finish_sorted, world_grid_search.c), and the bits
/// of an index into them, below the slot in a sorted key.
#define FXS_SORTED_FOUND 16u
#define FXS_FOUND_BITS 4u
typedef char fxs_found_fits_its_bits[FXS_SORTED_FOUND <= (1u << FXS_FOUND_BITS) ? 1 : -1];

/// Obstacles near an agent its avoidance tests from the obstacle grid; with more than these
/// in its box it tests all of them.
#define FXS_NEAR_OBSTACLES 64u

/// What a flocking rule with a blind cone or a cap sees of the neighbor list (world_step.c).
typedef struct fxs_view_list {
  fxs_neighbor neighbors[FXS_MAX_NEIGHBORS]; ///< The chosen neighbors, nearest first.
  uint64_t dist_sq[FXS_MAX_NEIGHBORS];       ///< Their exact squared distances, Q32.32.
  uint32_t chosen[FXS_MAX_NEIGHBORS];        ///< Their indices in the search's list.
  uint32_t count;                            ///< Entries used.
} fxs_view_list;

/// What a worker's searches for every neighbor within the radius (fxs_grid_neighbors) cost
/// since the grid was last sized (fxs_grid_of): how many, the runs of the view they scanned
/// (a row of cells, two where a wrapped row passes the grid's edge) and the agents in those
/// runs. A search may stop early (it finds the maximum on one spot), and on Cortex-M (no
/// branch-free scan) it never shrinks: the counts, and so the cells, may differ between
/// builds, never the neighbor lists.
typedef struct fxs_search_tally {
  uint64_t searches, rows, agents;
} fxs_search_tally;

/// Bytes of a worker's behavior scratch: room for the largest member, rounded so that the
/// worker (with its search tally and its memo of ORCA pairs) stays a multiple of 64 bytes.
#define FXS_BEHAVIOR_SCRATCH_BYTES (1088u - sizeof(fxs_orca_memo) - sizeof(fxs_search_tally))

/// The arrays of the one behavior a worker is steering at a time (ORCA's lines, a flocking
/// view, path following's resting followers, hide's rivals). They live in the world block,
/// not on the step's stack, so that the stack a step needs stays small (docs/mcu.md).
typedef union fxs_behavior_scratch {
  struct {
    fxs_orca_scratch lines;                   ///< ORCA's (and navigate's) lines.
    fix16_t priorities[FXS_MAX_NEIGHBORS];    ///< Their neighbors' avoidance priorities.
  } orca;                                     ///< ORCA and navigate.
  fxs_view_list view;                         ///< Separation, alignment, cohesion with a view.
  fxs_path_rest rest[FXS_MAX_NEIGHBORS];      ///< Path following's resting followers.
  fxs_hider rivals[FXS_HIDE_MAX_RIVALS];      ///< Hide's rivals.
  fxs_contact_body bodies[FXS_MAX_NEIGHBORS]; ///< Contact's nearby bodies (after steering).
  uint8_t bytes[FXS_BEHAVIOR_SCRATCH_BYTES];  ///< The size.
} fxs_behavior_scratch;

/// Scratch of one worker: the neighbor list of the agent it steers, and its behaviors'
/// arrays. Its size is a multiple of 64 bytes, so two workers never write to the same cache
/// line.
typedef struct fxs_world_worker {
  fxs_neighbor neighbors[FXS_MAX_NEIGHBORS];      ///< Nearest first, ties by lower slot.
  uint64_t dist_sq[FXS_MAX_NEIGHBORS];            ///< Their exact squared distances, Q32.32.
  fxs_world_candidate nearest[FXS_MAX_NEIGHBORS]; ///< The search's sorted list.
  /// Within the radius, not yet sorted, in three arrays (the scan stores one index):
  /// squared distances, view indices and slot indices (set before the sorted list).
  uint64_t found_dist_sq[FXS_GRID_FOUND];
  uint32_t found_view[FXS_GRID_FOUND];
  uint32_t found_slot[FXS_GRID_FOUND];
  uint32_t near_obstacles[FXS_NEAR_OBSTACLES]; ///< Obstacles near the agent, ascending.
  /// Its searches' tally: a hint for sizing the cells, not state. Inside the worker, away
  /// from its ends: its writes never share a cache line with another worker's data.
  fxs_search_tally searched;
  fxs_behavior_scratch behavior; ///< The steering behavior's arrays.
  fxs_orca_memo pairs;           ///< Its memo of ORCA pairs (orca_memo.h), set by fxs_world_init.
} fxs_world_worker;

/// The grid of one tick: square cells of 2^shift raw units (the power of two nearest half the
/// neighbor radius, or one size smaller or up to two larger as the last tick's searches show
/// less work in them, fxs_search_tally; doubled at most twice while they do not fit in
/// fxs_grid_max_cells: a cell is then found by shifts, not divisions; the neighbor lists do not
/// depend on the cells, only the work of finding them does) laid from the bounds' lower corner,
/// w columns by h rows. Where they fit, the cells cover the bounds and anything outside
/// counts in an edge cell. Where they do not (a large map), the grid wraps round: cell (x, y)
/// of the plane is column x mod w of row y mod h, so far apart cells share one and the
/// search's distance test leaves out the agents of the other. Derived from the definition;
/// not state.
typedef struct fxs_grid {
  int64_t min_x, min_y; ///< Lower corner, raw Q16.16.
  unsigned shift;       ///< Cells of 2^shift raw units, in [16, 32].
  uint32_t w, h;        ///< Columns and rows (wrapping: powers of two, >= FXS_GRID_MIN_SIDE).
  bool wraps;           ///< The cells over the bounds do not fit: the grid wraps round.
  /// Bits of a slot index. When a squared distance within the radius, shifted left by
  /// them, stays below 2^63 (packed), a search orders candidates by one 64-bit key,
  /// (squared distance << slot_bits) | slot; else by the two fields. The order is the same.
  unsigned slot_bits;
  bool packed;
  /// A squared distance within the radius shifted left by slot_bits + FXS_FOUND_BITS stays
  /// below 2^64: a key has room below the slot for an index into the found list as well, and
  /// a search that finds at most FXS_SORTED_FOUND sorts the keys themselves
  /// (world_grid_search.c).
  bool indexed;
  /// Every live agent of the tick's view lies less than 2^31 raw from every other in each
  /// axis (fxs_grid_measure_spread; false until measured): no squared distance between two
  /// of them reaches 2^63, and a search needs no test for one past 2^64.
  bool close;
} fxs_grid;

/// Cells a world with these capacities may use: max(64, 8 * agents). A world whose agents
/// fill a small part of its bounds (a crowd on a large map, a ring) gets cells closer to the
/// neighbor radius than 2 cells an agent would give: fewer candidates per search.
uint32_t fxs_grid_max_cells(const fxs_world_capacity *capacity);

/// The least number of columns and of rows of a grid that wraps: more than the cells a
/// search spans (a grid wraps only with its cells doubled twice, about 2/3 of the radius at
/// least when the searches took cells one size below the radius's, so a search spans at most
/// 5 of them a side), so that wrapping never brings one cell into a search twice.
#define FXS_GRID_MIN_SIDE 8u

/// The cell of the plane that holds raw coordinate v (|v| < 2^32) for cells of 2^shift
/// (shift >= 16) from `min` (|min| < 2^31): floor((v - min) / 2^shift), in (-2^17, 2^17).
static inline int32_t fxs_grid_index(int64_t v, int64_t min, unsigned shift) {
  int64_t d = v - min;
  // Shifts of non-negative values only (a negative one's is implementation-defined in C99).
  return (int32_t)(d >= 0 ? d >> shift : -(int64_t)((uint64_t)(-d - 1) >> shift) - 1);
}

/// Cell index c of the plane wrapped into [0, cells) for a power of two `cells` (the sides of
/// a grid that wraps): c modulo cells, by a mask (two's complement, also below 0).
static inline uint32_t fxs_grid_wrap(int32_t c, uint32_t cells) {
  return (uint32_t)c & (cells - 1u);
}

/// Cell coordinate of a raw coordinate v for cells of `size` from `min`: monotone in v,
/// clamped into [0, cells - 1] (so anything outside the bounds counts in an edge cell).
static inline uint32_t fxs_grid_coord(int64_t v, int64_t min, int64_t size, uint32_t cells) {
  int64_t c = v < min ? 0 : (v - min) / size;
  return c >= (int64_t)cells ? cells - 1u : (uint32_t)c;
}

/// fxs_grid_coord for cells of 2^shift.
static inline uint32_t fxs_grid_coord_shift(int64_t v, int64_t min, unsigned shift,
                                            uint32_t cells) {
  int64_t c = v < min ? 0 : (v - min) >> shift;
  return c >= (int64_t)cells ? cells - 1u : (uint32_t)c;
}

/// The cell size for square cells over the world's bounds: `size` (raw, >= FXS_ONE), doubled
/// until the cells number at most max_cells (>= 1); *w and *h receive the cells per row and
/// rows (the obstacle grid's; the agents' grid stops doubling and wraps, fxs_grid_of).
int64_t fxs_grid_fit(const fxs_world_def *d, int64_t size, uint32_t max_cells, uint32_t *w,
                     uint32_t *h);

/// The grid for the world's bounds and neighbor radius, its cells sized to the searches
/// tallied since the last grid (fxs_search_tally), whose tallies it clears.
fxs_grid fxs_grid_of(fxs_world *world);

/// A free slot's entry in slot_cell.
#define FXS_GRID_NO_CELL UINT32_MAX

/// The cells of slots [begin, end) into slot_cell (FXS_GRID_NO_CELL for a free slot). Slot
/// ranges are independent: this part of the sorting can run in parallel.
void fxs_grid_place(fxs_world *world, const fxs_grid *g, uint32_t begin, uint32_t end);

/// Sorts the live agents into cells by the cells fxs_grid_place gave every slot: fills
/// cell_start and view_slot (cell order; slot order within a cell) and sets view_count.
/// Positions and velocities are copied afterwards by fxs_grid_copy_view, which can run in
/// parallel.
void fxs_grid_sort(fxs_world *world, const fxs_grid *g);

/// Copies the start-of-tick position and velocity of view entries [begin, end).
void fxs_grid_copy_view(fxs_world *world, uint32_t begin, uint32_t end);

/// The view without the grid, for a step in which no agent searches: view_slot lists the live
/// slots in slot order, view_count their number (no cell_start, positions or velocities).
void fxs_view_list_live(fxs_world *world);

/// Sets g->close from the view's positions (after fxs_grid_copy_view): one pass over them.
void fxs_grid_measure_spread(const fxs_world *world, fxs_grid *g);

#if FXS_GRID_BRANCH_FREE
/// Sorts k[0..m-1] (m <= 16, keys below UINT64_MAX, the networks' pad; k has room for 16, the
/// rest its scratch) by the sorting networks a search's keys go through (world_grid_search.c).
void fxs_grid_sort_keys(uint64_t k[16], uint32_t m);
#endif

/// True when every component of the view's velocities (after fxs_grid_copy_view) lies within
/// [-limit, limit], 0 <= limit < 2^31: one pass over them.
bool fxs_view_velocities_within(const fxs_world *world, fix16_t limit);

/// The live agents within neighbor_radius of view entry `v` (the agent itself excluded),
/// nearest first, ties by lower slot index, at most FXS_MAX_NEIGHBORS, into
/// out->neighbors and out->dist_sq. Returns how many.
uint32_t fxs_grid_neighbors(const fxs_world *world, const fxs_grid *g, uint32_t v,
                            fxs_world_worker *out);

/// The first min(k, FXS_MAX_NEIGHBORS) entries of fxs_grid_neighbors' list that lie within
/// `radius` (at most neighbor_radius counts), found with less work: a smaller box, and a
/// radius that shrinks to the k-th nearest once it is known. It looks within the agent's
/// slot_reach first (its last search's, world.h) and keeps the new one there; the list does
/// not depend on it. Returns how many.
uint32_t fxs_grid_nearest(const fxs_world *world, const fxs_grid *g, uint32_t v, uint32_t k,
                          fix16_t radius, fxs_world_worker *out);

/// fxs_grid_nearest, except that where its search ends with at most k agents found and none
/// ranked yet (the found ones are then its list, in some order) they are left as the search
/// met them: their view indices in out->found_view[0..n) and exact squared distances in
/// out->found_dist_sq, and *few is set. A caller that needs no order (ORCA's crowd walking
/// apart) skips the ranking; fxs_grid_rank_few makes the list later. Else *few is false and
/// out holds the list as fxs_grid_nearest leaves it (always where FXS_GRID_BRANCH_FREE is 0:
/// that search ranks as it goes). Returns n.
uint32_t fxs_grid_nearest_few(const fxs_world *world, const fxs_grid *g, uint32_t v, uint32_t k,
                              fix16_t radius, fxs_world_worker *out, bool *few);

/// After fxs_grid_nearest_few(..., k, ...) set *few: its n agents ranked into the list that
/// fxs_grid_nearest would have left in out. Returns n.
uint32_t fxs_grid_rank_few(const fxs_world *world, const fxs_grid *g, uint32_t k, uint32_t n,
                           fxs_world_worker *out);

#endif
