// `fixsteer stats`, shared by its parts: cmd_stats.c measures every tick (bodies, bounds,
// walls, rest, doorways), stats_goals.c judges where each agent ends against its target,
// stats_report.c prints the figures. Every threshold on a length or a speed derives from the
// agent (its radius, its max speed), so a scene with every length times K gives the same
// figures. Comparisons are exact integer arithmetic on raw Q16.16 (squares of coordinate
// differences need up to 66 bits: 128-bit products); doubles only print.
#ifndef FIXSTEER_TOOL_STATS_H
#define FIXSTEER_TOOL_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "fixsteer/fixsteer.h"
#include "fixsteer/world.h"
#include "source.h"

// A creep is this many consecutive ticks at 0 < |v| <= 1 LSB on both axes.
#define CREEP_TICKS 10
// Walls beyond this many are not searched for doorways (the search is quadratic).
#define DOOR_SEARCH_WALLS 1024u
#define MAX_DOORS 64
// A heading flip: the orientation turns by more than pi/2 in one tick. A flip within
// FLICKER_TICKS of the agent's previous one is flicker: a single flip is a turn from rest.
#define FLIP_ANGLE (FXS_PI / 2)
#define FLICKER_TICKS 4
// Stuck: a navigate agent that has not come an eighth of its radius nearer its target in the
// last STUCK_TICKS ticks of the run and moved in them (not at rest). Ticks are not lengths:
// a scene scaled by K keeps its timing.
#define STUCK_TICKS 100

// ------------------------------------------------------------------ 128-bit products

typedef struct wide {
  uint64_t hi, lo; // two's complement
} wide;

wide wide_mul(int64_t a, int64_t b);
wide wide_add(wide a, wide b);
// -1, 0 or 1 as a < b, a == b, a > b.
int wide_cmp(wide a, wide b);
// Signs of a.x * b.x + a.y * b.y and of a.x * b.y - a.y * b.x (differences of raw
// coordinates: up to 33 bits each).
int dot_sign(int64_t ax, int64_t ay, int64_t bx, int64_t by);
int cross_sign(int64_t ax, int64_t ay, int64_t bx, int64_t by);
// The largest r with r * r <= v.
uint64_t floor_sqrt(uint64_t v);

// ------------------------------------------------------------------ what is measured

typedef struct track {
  bool alive;
  uint16_t generation;
  bool crept; // had a creep run of CREEP_TICKS or more
  long press_run, creep_run;
  long last_moving; // last tick with a non-zero velocity, -1: none since it appeared
  long appeared;
  fxs_vec2 last_velocity;
  fxs_vec2 last_position;
  fix16_t last_orientation;
  bool seen;      // last_* hold the previous tick
  long last_flip; // tick of its last heading flip, -1: none
  long corner_ticks, alive_ticks;
  long arrived_since;    // first tick of its current run on its target (a quarter radius), -1
  long home_since;       // first tick it came within the home distance of its target, -1
  int64_t progress_mark; // navigate: its raw distance to its target when it last made progress
  long progress_tick;    // that tick, -1: not measured yet
  bool behind;           // at the end: at rest short, in the pile behind a goal it shares
} track;

typedef struct door {
  fxs_vec2 a, b; // the wall ends either side of the gap
  uint32_t wall_a, wall_b;
} door;

#define HOME_SHARES 3 // 50, 90 and 100 % of the agents going to a target point

typedef struct figures {
  long ticks, agents, first_tick, last_tick;
  long *overlaps; // per tick stepped
  long overlap_max, overlap_max_tick;
  long press_best, press_agent, press_end, press_agent_ticks;
  long creep_agents, creep_best, creep_agent, creep_end, creep_agent_ticks;
  long reversals, reversal_best, reversal_agent;
  long *agent_reversals;
  long rest_reversals, heading_flips, rest_flips, flicker, flicker_agent, flicker_tick;
  long crossings, crossing_agent, crossing_tick, crossing_wall;
  long corner_best, corner_best_of, corner_agent; // the agent most often in a corner
  long corner_agent_ticks;
  long *reversals_so_far; // per tick stepped: reversals up to and including it
  bool has_clearance;
  int64_t clearance;
  long clearance_tick, clearance_agent, clearance_index;
  const char *clearance_kind;
  long settle; // first tick from which every agent stays at rest, -1: never
  long first_rest, first_rest_agent;
  uint32_t door_count, walls_seen;
  door doors[MAX_DOORS];
  long door_max, door_max_tick, door_max_index;
  bool doors_skipped;
  int64_t overlap_depth; // deepest overlap of two bodies, raw
  long overlap_depth_tick;
  // The deepest overlap relative to the smaller radius of its pair: depth / radius.
  int64_t overlap_rel_depth, overlap_rel_radius;
  long overlap_rel_tick;
  // The closest pair relative to the sum of its radii (pairs within twice that sum only).
  bool has_closest;
  int64_t closest_distance, closest_reach;
  long closest_tick;
  // Where the agents going to a target point end (disjoint): on it (centre within a quarter
  // radius), at rest in a goal cluster (sharing the point with others, within
  // 1.3 r sqrt(N)), at rest short of it, or still moving.
  long goal_agents, on_target, clustered, rest_short, goal_moving;
  long on_own_target;         // of those on target: on a point no other agent shares
  long arrived, arrived_tick; // on target or in a goal cluster; since (the last of them)
  long stuck, stuck_agent;    // navigate agents moving without progress at the end
  long short_agent;           // the first agent at rest short of its target, -1: none
  long rest_behind;           // of those at rest short: in the pile behind their goal
  // Home: within home_distance of the target (raw; 0: within the agent's own radius).
  int64_t home_distance;
  long home_ever, home_end, home_tick[HOME_SHARES];
  long formation_members, in_slot; // members with a slot at the end; of them, body over it
  int64_t slot_gap;                // the largest distance of a member from its slot, raw
  // Followers of stop paths at the end; of them, at rest on their path's last segment (the
  // nearest point of the path to the centre is on it, past its first node).
  long path_followers, path_last_segment;
} figures;

// ------------------------------------------------------------------ stats_goals.c

// The agent goes to its target point (arrive, kinematic arrive, ORCA, navigate; no target
// agent).
bool stats_has_goal(const fxs_agent_slot *a);
// Per tick: the agent's runs on its target and within the home distance, its progress.
void stats_track_goal(const figures *f, track *t, const fxs_agent_slot *a, long tick);
// After the last tick: where each agent going to a target point ended, stuck agents, the
// home ticks. Returns false when out of memory.
bool stats_judge_goals(figures *f, track *tracks, const fxs_world *w);
// After the last tick: the followers of stop paths, and those at rest on the last segment.
void stats_judge_paths(figures *f, const fxs_world *w);

// ------------------------------------------------------------------ stats_report.c

void stats_print_table(const source *src, const figures *f);
void stats_print_json(const source *src, const figures *f);

#endif
