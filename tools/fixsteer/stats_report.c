// `fixsteer stats` (stats.h): the figures as a table or as JSON, one key a line. Doubles only
// format; ratios are printed from exact integer quotients.
#include <stdio.h>

#include "stats.h"

static double units(int64_t raw) { return (double)raw / 65536.0; }

// num / den (both >= 0, den > 0) with 6 decimals, rounded up (`up`) or down: the side that
// keeps a limit checked on the printed figure honest (an overlap no smaller, a closest
// approach no larger than it is).
static const char *ratio(char *buf, int64_t num, int64_t den, int up) {
  if (den <= 0) den = 1;
  int64_t whole = num / den, rest = num % den; // rest < den < 2^34: rest * 10^6 fits
  int64_t micro = (rest * 1000000 + (up ? den - 1 : 0)) / den;
  if (micro == 1000000) ++whole, micro = 0;
  snprintf(buf, 48, "%lld.%06lld", (long long)whole, (long long)micro);
  return buf;
}

// Where the agents going to a target point ended, and when they came home.
static void print_goals(const figures *f) {
  printf(
      "  %-34s %ld of %ld going to a target point: %ld on it (centre within r/4), %ld in a goal "
      "cluster\n",
      "arrived (at end)", f->arrived, f->goal_agents, f->on_target, f->clustered);
  printf("  %-34s %ld at rest short of the target", "", f->rest_short);
  if (f->rest_short)
    printf(" (first: agent %ld; %ld in the pile behind the goal)", f->short_agent, f->rest_behind);
  printf(", %ld still moving", f->goal_moving);
  if (f->arrived) printf("; the last arrived since tick %ld", f->arrived_tick);
  char d[32];
  if (f->home_distance) snprintf(d, sizeof d, "%.5g units", units(f->home_distance));
  else snprintf(d, sizeof d, "its radius");
  printf(
      "\n  %-34s within %s of the target: %ld ever, %ld at the end; 50/90/100 %% by tick "
      "%ld/%ld/%ld",
      "home", d, f->home_ever, f->home_end, f->home_tick[0], f->home_tick[1], f->home_tick[2]);
}

// The "at rest" phase: the last 20 % of the ticks (at least one).
static long rest_ticks(const figures *f) { return f->ticks / 5 > 0 ? f->ticks / 5 : 1; }

// Velocity reversals in the "at rest" phase.
static long rest_reversals(const figures *f) {
  long before = f->ticks - rest_ticks(f) - 1;
  return f->reversals - (before >= 0 ? f->reversals_so_far[before] : 0);
}

static double mean_overlaps(const figures *f, long from, long *max) {
  long sum = 0, count = 0;
  *max = 0;
  for (long i = from; i < f->ticks; ++i) {
    sum += f->overlaps[i], ++count;
    if (f->overlaps[i] > *max) *max = f->overlaps[i];
  }
  return count ? (double)sum / (double)count : 0.0;
}

// The share of its ticks the agent most often in a corner spent there, percent.
static double corner_percent(const figures *f) {
  return f->corner_best_of ? 100.0 * (double)f->corner_best / (double)f->corner_best_of : 0.0;
}

void stats_print_table(const source *src, const figures *f) {
  char buf[48];
  long rest_max, all_max;
  double mean = mean_overlaps(f, 0, &all_max),
         rest = mean_overlaps(f, f->ticks - rest_ticks(f), &rest_max);
  printf("stats %s: %ld ticks (%ld..%ld), %ld agents\n", src->name, f->ticks, f->first_tick,
         f->last_tick, f->agents);
  if (f->overlap_max == 0) {
    printf("  %-34s none\n", "overlapping pairs per tick");
  } else {
    printf(
        "  %-34s max %ld (tick %ld), mean %.3f; at rest (last %ld ticks): mean %.3f, max %ld; "
        "final %ld\n",
        "overlapping pairs per tick", f->overlap_max, f->overlap_max_tick, mean, rest_ticks(f),
        rest, rest_max, f->ticks ? f->overlaps[f->ticks - 1] : 0);
  }
  if (f->overlap_depth) {
    printf("  %-34s %.5f (tick %ld); relative to the smaller radius %s (tick %ld)\n",
           "deepest overlap of two bodies", units(f->overlap_depth), f->overlap_depth_tick,
           ratio(buf, f->overlap_rel_depth, f->overlap_rel_radius, 1), f->overlap_rel_tick);
  }
  if (f->has_closest) {
    printf("  %-34s %s of the sum of their radii (tick %ld)\n", "closest pair of bodies",
           ratio(buf, f->closest_distance, f->closest_reach, 0), f->closest_tick);
  } else {
    printf("  %-34s none within twice the sum of their radii\n", "closest pair of bodies");
  }
  print_goals(f);
  if (f->formation_members) {
    printf("\n  %-34s %ld of %ld formation members, farthest %.5f from its slot",
           "in their slots (body over, at end)", f->in_slot, f->formation_members,
           units(f->slot_gap));
  }
  if (f->path_followers) {
    printf("\n  %-34s %ld of %ld followers of a stop path at rest on its last segment",
           "queued at the end of the path", f->path_last_segment, f->path_followers);
  }
  printf("\n  %-34s %ld", "stuck (navigate, no progress)", f->stuck);
  if (f->stuck) printf(" (first: agent %ld)", f->stuck_agent);
  printf("\n");
  if (f->press_best) {
    printf("  %-34s longest %ld ticks (agent %ld, ticks %ld..%ld); %ld agent-ticks in all\n",
           "pressed against a bound", f->press_best, f->press_agent,
           f->press_end - f->press_best + 1, f->press_end, f->press_agent_ticks);
  } else {
    printf("  %-34s never\n", "pressed against a bound");
  }
  printf("  %-34s %ld agents", "creep (0<|v|<=1 LSB, 10+ ticks)", f->creep_agents);
  if (f->creep_best) {
    printf("; longest %ld ticks (agent %ld, ticks %ld..%ld); %ld agent-ticks in all", f->creep_best,
           f->creep_agent, f->creep_end - f->creep_best + 1, f->creep_end, f->creep_agent_ticks);
  }
  printf("\n  %-34s %ld", "velocity reversals (v.v' < 0)", f->reversals);
  if (f->reversals) {
    printf(" (most: agent %ld, %ld); in the last %ld ticks: %ld", f->reversal_agent,
           f->reversal_best, rest_ticks(f), rest_reversals(f));
  }
  printf("\n  %-34s %ld", "reversals when slow (see below)", f->rest_reversals);
  printf(
      "\n  %-34s %ld (slow, |v| < min(r/16, max_speed/4): %ld); flicker (again within %d ticks): "
      "%ld",
      "heading flips (> pi/2 in a tick)", f->heading_flips, f->rest_flips, FLICKER_TICKS,
      f->flicker);
  if (f->flicker) printf(" (first: agent %ld, tick %ld)", f->flicker_agent, f->flicker_tick);
  printf("\n  %-34s %ld", "wall crossings (centre)", f->crossings);
  if (f->crossings)
    printf(" (first: agent %ld, tick %ld, wall %ld)", f->crossing_agent, f->crossing_tick,
           f->crossing_wall);
  printf("\n  %-34s %.1f %% of its ticks (agent %ld); %ld agent-ticks in all",
         "in a corner (two walls), most", corner_percent(f),
         f->corner_best_of ? f->corner_agent : -1L, f->corner_agent_ticks);
  if (f->has_clearance) {
    printf("\n  %-34s %.5f (tick %ld, agent %ld, %s %ld)\n", "min clearance to walls/obstacles",
           units(f->clearance), f->clearance_tick, f->clearance_agent, f->clearance_kind,
           f->clearance_index);
  } else {
    printf("\n  %-34s no walls or obstacles\n", "min clearance to walls/obstacles");
  }
  if (f->settle >= 0) printf("  %-34s tick %ld", "every agent at rest for good", f->settle);
  else printf("  %-34s never", "every agent at rest for good");
  if (f->first_rest >= 0)
    printf("; first agent at rest for good: agent %ld at tick %ld", f->first_rest_agent,
           f->first_rest);
  printf("\n");
  if (f->door_count && f->door_max == 0) {
    printf("  %-34s none ever (%u doorway%s)\n", "body centres in a doorway", f->door_count,
           f->door_count > 1 ? "s" : "");
  } else if (f->door_count) {
    printf("  %-34s %ld at once (tick %ld, doorway %ld of %u: walls %u and %u)\n",
           "body centres in a doorway", f->door_max, f->door_max_tick, f->door_max_index,
           f->door_count, f->doors[f->door_max_index].wall_a, f->doors[f->door_max_index].wall_b);
  } else {
    printf("  %-34s %s\n", "body centres in a doorway",
           f->doors_skipped ? "not searched (too many walls)" : "no doorway");
  }
}

static void json_string(const char *key, const char *s) {
  printf("  \"%s\": \"", key);
  for (; *s; ++s) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') printf("\\%c", c);
    else if (c < 0x20) printf("\\u%04x", c);
    else putchar(c);
  }
  printf("\",\n");
}

static void json_long(const char *key, long v) { printf("  \"%s\": %ld,\n", key, v); }

static void json_goals(const figures *f) {
  json_long("goal_agents", f->goal_agents), json_long("on_target", f->on_target);
  json_long("on_own_target", f->on_own_target);
  json_long("goal_cluster", f->clustered), json_long("rest_short", f->rest_short);
  json_long("rest_short_agent", f->short_agent), json_long("rest_behind", f->rest_behind);
  json_long("rest_stranded", f->rest_short - f->rest_behind),
      json_long("goal_moving", f->goal_moving);
  json_long("arrived", f->arrived), json_long("arrived_tick", f->arrived_tick);
  json_long("stuck", f->stuck);
  if (f->home_distance) printf("  \"home_distance\": %.5f,\n", units(f->home_distance));
  else json_string("home_distance", "radius");
  json_long("home_ever", f->home_ever), json_long("home_end", f->home_end);
  json_long("home_50_tick", f->home_tick[0]), json_long("home_90_tick", f->home_tick[1]);
  json_long("home_100_tick", f->home_tick[2]);
}

// One key per line, no nesting: easy to read from a shell script.
void stats_print_json(const source *src, const figures *f) {
  char buf[48];
  long rest_max, all_max;
  double mean = mean_overlaps(f, 0, &all_max),
         rest = mean_overlaps(f, f->ticks - rest_ticks(f), &rest_max);
  printf("{\n");
  json_string("scene", src->name);
  json_string("source", src->is_replay ? "replay" : "scenario");
  json_long("ticks", f->ticks), json_long("first_tick", f->first_tick),
      json_long("last_tick", f->last_tick);
  json_long("agents", f->agents);
  json_long("overlap_max", f->overlap_max), json_long("overlap_max_tick", f->overlap_max_tick);
  printf("  \"overlap_mean\": %.6f,\n", mean);
  json_long("overlap_rest_ticks", rest_ticks(f));
  printf("  \"overlap_rest_mean\": %.6f,\n", rest);
  json_long("overlap_rest_max", rest_max);
  json_long("overlap_final", f->ticks ? f->overlaps[f->ticks - 1] : 0);
  printf("  \"overlap_depth_max\": %.5f,\n", units(f->overlap_depth));
  json_long("overlap_depth_tick", f->overlap_depth ? f->overlap_depth_tick : -1);
  printf("  \"overlap_radius_max\": %s,\n",
         ratio(buf, f->overlap_rel_depth, f->overlap_rel_radius, 1));
  json_long("overlap_radius_tick", f->overlap_depth ? f->overlap_rel_tick : -1);
  if (f->has_closest)
    printf("  \"closest_pair_ratio\": %s,\n", ratio(buf, f->closest_distance, f->closest_reach, 0));
  else printf("  \"closest_pair_ratio\": null,\n");
  json_long("closest_pair_tick", f->has_closest ? f->closest_tick : -1);
  json_goals(f);
  json_long("path_followers", f->path_followers);
  json_long("path_last_segment", f->path_last_segment);
  json_long("formation_members", f->formation_members), json_long("in_slot", f->in_slot);
  printf("  \"slot_gap_max\": %.5f,\n", units(f->slot_gap));
  json_long("stuck_agent", f->stuck ? f->stuck_agent : -1);
  json_long("press_longest", f->press_best),
      json_long("press_agent", f->press_best ? f->press_agent : -1);
  json_long("press_end_tick", f->press_best ? f->press_end : -1),
      json_long("press_agent_ticks", f->press_agent_ticks);
  json_long("creep_agents", f->creep_agents), json_long("creep_longest", f->creep_best);
  json_long("creep_agent", f->creep_best ? f->creep_agent : -1),
      json_long("creep_agent_ticks", f->creep_agent_ticks);
  json_long("reversals", f->reversals), json_long("reversal_most", f->reversal_best);
  json_long("reversal_agent", f->reversals ? f->reversal_agent : -1);
  json_long("reversals_rest", rest_reversals(f));
  json_long("slow_reversals", f->rest_reversals);
  json_long("heading_flips", f->heading_flips);
  json_long("heading_flips_rest", f->rest_flips);
  json_long("heading_flicker", f->flicker);
  json_long("wall_crossings", f->crossings);
  printf("  \"corner_percent\": %.3f,\n", corner_percent(f));
  json_long("corner_agent", f->corner_best_of ? f->corner_agent : -1);
  if (f->has_clearance) {
    printf("  \"clearance_min\": %.5f,\n", units(f->clearance));
    json_long("clearance_raw", (long)f->clearance);
    json_long("clearance_tick", f->clearance_tick),
        json_long("clearance_agent", f->clearance_agent);
    json_string("clearance_kind", f->clearance_kind),
        json_long("clearance_index", f->clearance_index);
  } else {
    printf("  \"clearance_min\": null,\n");
  }
  json_long("settle_tick", f->settle);
  json_long("first_rest_tick", f->first_rest),
      json_long("first_rest_agent", f->first_rest >= 0 ? f->first_rest_agent : -1);
  json_long("doorways", (long)f->door_count);
  json_long("doorway_max", f->door_count ? f->door_max : -1),
      json_long("doorway_max_tick", f->door_count ? f->door_max_tick : -1);
  printf("  \"diverged_tick\": %ld\n}\n", src->diverged ? (long)src->diverged_tick : -1L);
}
