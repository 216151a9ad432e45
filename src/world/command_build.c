#include "fixsteer/command_build.h"

#include "fixsteer/behavior_params.h"

fxs_spawn_def fxs_default_spawn_def(void) {
  fxs_agent a = fxs_default_agent();
  fxs_spawn_def d;
  d.position = a.position;
  d.velocity = a.velocity;
  d.max_speed = a.max_speed;
  d.max_force = a.max_force;
  d.mass = a.mass;
  d.radius = a.radius;
  d.owned = 0;
  return d;
}

fxs_agent_limits_def fxs_default_agent_limits_def(void) {
  fxs_agent a = fxs_default_agent();
  fxs_agent_limits_def d;
  d.max_speed = a.max_speed;
  d.max_force = a.max_force;
  d.mass = a.mass;
  d.radius = a.radius;
  d.max_rotation = a.max_rotation;
  d.max_angular_acceleration = a.max_angular_acceleration;
  d.max_turn_rate = a.max_turn_rate;
  d.orientation = (fxs_orientation_mode)a.orientation_mode;
  return d;
}

fxs_blend fxs_default_blend(void) {
  fxs_blend b;
  b.weight = FXS_ONE;
  b.priority = 0;
  return b;
}

fxs_flocking_view fxs_default_flocking_view(void) {
  fxs_flocking_view v;
  v.blind_angle = fxs_behavior_param_default(FXS_BEHAVIOR_SEPARATION, 1);
  v.max_neighbors = (uint32_t)(fxs_behavior_param_default(FXS_BEHAVIOR_SEPARATION, 2) / FXS_ONE);
  return v;
}

static fxs_command on_agent(fxs_command_type type, fxs_agent_handle agent) {
  fxs_command c = fxs_command_make(type, 0, 0);
  c.agent = agent.value;
  return c;
}

fxs_command fxs_command_spawn(const fxs_spawn_def *d) {
  fxs_command c = fxs_command_make(FXS_CMD_SPAWN, 0, 0);
  c.arg[0] = d->position.x, c.arg[1] = d->position.y;
  c.arg[2] = d->velocity.x, c.arg[3] = d->velocity.y;
  c.arg[4] = d->max_speed, c.arg[5] = d->max_force, c.arg[6] = d->mass, c.arg[7] = d->radius;
  c.ref = d->owned ? FXS_SPAWN_OWNED : 0u;
  return c;
}

fxs_command fxs_command_despawn(fxs_agent_handle agent) { return on_agent(FXS_CMD_DESPAWN, agent); }

fxs_command fxs_command_set_target_point(fxs_agent_handle agent, fxs_vec2 point) {
  fxs_command c = on_agent(FXS_CMD_SET_TARGET_POINT, agent);
  c.arg[0] = point.x, c.arg[1] = point.y;
  return c;
}

fxs_command fxs_command_set_target_agent(fxs_agent_handle agent, fxs_agent_handle target) {
  fxs_command c = on_agent(FXS_CMD_SET_TARGET_AGENT, agent);
  c.ref = target.value;
  return c;
}

fxs_command fxs_command_set_second_target(fxs_agent_handle agent, fxs_agent_handle target) {
  fxs_command c = on_agent(FXS_CMD_SET_SECOND_TARGET, agent);
  c.ref = target.value;
  return c;
}

fxs_command fxs_command_clear_behaviors(fxs_agent_handle agent, fxs_combine_mode mode) {
  fxs_command c = on_agent(FXS_CMD_CLEAR_BEHAVIORS, agent);
  c.ref = (uint32_t)mode;
  return c;
}

fxs_command fxs_command_set_path(fxs_agent_handle agent, uint32_t path_index) {
  fxs_command c = on_agent(FXS_CMD_SET_PATH, agent);
  c.ref = path_index;
  return c;
}

fxs_command fxs_command_move(fxs_agent_handle agent, uint32_t group, fxs_vec2 destination,
                             fix16_t gap) {
  fxs_command c = on_agent(FXS_CMD_MOVE, agent);
  c.ref = group;
  c.arg[0] = destination.x, c.arg[1] = destination.y, c.arg[2] = gap;
  return c;
}

fxs_command fxs_command_apply_force(fxs_agent_handle agent, fxs_vec2 force) {
  fxs_command c = on_agent(FXS_CMD_APPLY_FORCE, agent);
  c.arg[0] = force.x, c.arg[1] = force.y;
  return c;
}

fxs_command fxs_command_set_limits(fxs_agent_handle agent, const fxs_agent_limits_def *d) {
  fxs_command c = on_agent(FXS_CMD_SET_LIMITS, agent);
  c.ref = (uint32_t)d->orientation;
  c.arg[0] = d->max_speed, c.arg[1] = d->max_force, c.arg[2] = d->mass, c.arg[3] = d->radius;
  c.arg[4] = d->max_rotation, c.arg[5] = d->max_angular_acceleration;
  c.arg[6] = d->max_turn_rate;
  return c;
}

fxs_command fxs_command_set_owner(fxs_agent_handle agent, uint32_t owner) {
  fxs_command c = on_agent(FXS_CMD_SET_OWNER, agent);
  c.ref = owner;
  return c;
}

fxs_command fxs_command_add_obstacle(fxs_obstacle obstacle) {
  fxs_command c = fxs_command_make(FXS_CMD_ADD_OBSTACLE, 0, 0);
  c.arg[0] = obstacle.center.x, c.arg[1] = obstacle.center.y, c.arg[2] = obstacle.radius;
  return c;
}

fxs_command fxs_command_remove_obstacle(uint32_t index) {
  fxs_command c = fxs_command_make(FXS_CMD_REMOVE_OBSTACLE, 0, 0);
  c.ref = index;
  return c;
}

fxs_command fxs_command_add_wall(fxs_wall wall) {
  fxs_command c = fxs_command_make(FXS_CMD_ADD_WALL, 0, 0);
  c.arg[0] = wall.a.x, c.arg[1] = wall.a.y, c.arg[2] = wall.b.x, c.arg[3] = wall.b.y;
  return c;
}

fxs_command fxs_command_remove_wall(uint32_t index) {
  fxs_command c = fxs_command_make(FXS_CMD_REMOVE_WALL, 0, 0);
  c.ref = index;
  return c;
}

fxs_command fxs_command_add_behavior(fxs_agent_handle agent, const fxs_behavior_slot *slot) {
  fxs_command c = on_agent(FXS_CMD_ADD_BEHAVIOR, agent);
  c.ref = (uint32_t)slot->kind | ((uint32_t)slot->priority << 8);
  c.arg[0] = slot->weight;
  for (int i = 0; i < FXS_BEHAVIOR_PARAMS; ++i) c.arg[1 + i] = slot->p[i];
  return c;
}

// A behavior command with up to six parameters in table order (unused ones 0).
static fxs_command behavior(fxs_agent_handle agent, fxs_behavior kind, fxs_blend blend, fix16_t p0,
                            fix16_t p1, fix16_t p2, fix16_t p3, fix16_t p4, fix16_t p5) {
  fxs_behavior_slot s;
  s.kind = (uint8_t)kind;
  s.priority = blend.priority;
  s.weight = blend.weight;
  s.p[0] = p0, s.p[1] = p1, s.p[2] = p2, s.p[3] = p3, s.p[4] = p4, s.p[5] = p5;
  return fxs_command_add_behavior(agent, &s);
}

fxs_command fxs_command_add_seek(fxs_agent_handle a, fxs_blend b) {
  return behavior(a, FXS_BEHAVIOR_SEEK, b, 0, 0, 0, 0, 0, 0);
}
fxs_command fxs_command_add_flee(fxs_agent_handle a, fxs_blend b, fix16_t panic_radius) {
  return behavior(a, FXS_BEHAVIOR_FLEE, b, panic_radius, 0, 0, 0, 0, 0);
}
fxs_command fxs_command_add_arrive(fxs_agent_handle a, fxs_blend b, fix16_t slowing_radius) {
  return behavior(a, FXS_BEHAVIOR_ARRIVE, b, slowing_radius, 0, 0, 0, 0, 0);
}
fxs_command fxs_command_add_wander(fxs_agent_handle a, fxs_blend b, const fxs_wander_def *d) {
  return behavior(a, FXS_BEHAVIOR_WANDER, b, d->circle_distance, d->circle_radius, d->angle_change,
                  0, 0, 0);
}
fxs_command fxs_command_add_pursuit(fxs_agent_handle a, fxs_blend b, fix16_t max_prediction) {
  return behavior(a, FXS_BEHAVIOR_PURSUIT, b, max_prediction, 0, 0, 0, 0, 0);
}
fxs_command fxs_command_add_evade(fxs_agent_handle a, fxs_blend b, fix16_t max_prediction,
                                  fix16_t panic_radius) {
  return behavior(a, FXS_BEHAVIOR_EVADE, b, max_prediction, panic_radius, 0, 0, 0, 0);
}
fxs_command fxs_command_add_avoidance(fxs_agent_handle a, fxs_blend b, const fxs_avoidance_def *d) {
  return behavior(a, FXS_BEHAVIOR_AVOID, b, d->max_see_ahead, d->max_avoid_force, d->margin,
                  d->braking, d->mode, 0);
}
fxs_command fxs_command_add_path_following(fxs_agent_handle a, fxs_blend b) {
  return behavior(a, FXS_BEHAVIOR_PATH, b, 0, 0, 0, 0, 0, 0);
}
fxs_command fxs_command_add_separation(fxs_agent_handle a, fxs_blend b, fix16_t radius) {
  return behavior(a, FXS_BEHAVIOR_SEPARATION, b, radius, 0, 0, 0, 0, 0);
}
fxs_command fxs_command_add_alignment(fxs_agent_handle a, fxs_blend b, fix16_t radius) {
  return behavior(a, FXS_BEHAVIOR_ALIGNMENT, b, radius, 0, 0, 0, 0, 0);
}
fxs_command fxs_command_add_cohesion(fxs_agent_handle a, fxs_blend b, fix16_t radius) {
  return behavior(a, FXS_BEHAVIOR_COHESION, b, radius, 0, 0, 0, 0, 0);
}
// The max_neighbors count as its raw parameter (values above 16 stay out of range).
static fix16_t count_param(uint32_t n) { return n > 0x7FFFu ? FXS_MAX : FXS_INT((int32_t)n); }

fxs_command fxs_command_add_separation_view(fxs_agent_handle a, fxs_blend b, fix16_t radius,
                                            const fxs_flocking_view *v) {
  return behavior(a, FXS_BEHAVIOR_SEPARATION, b, radius, v->blind_angle,
                  count_param(v->max_neighbors), 0, 0, 0);
}
fxs_command fxs_command_add_alignment_view(fxs_agent_handle a, fxs_blend b, fix16_t radius,
                                           const fxs_flocking_view *v) {
  return behavior(a, FXS_BEHAVIOR_ALIGNMENT, b, radius, v->blind_angle,
                  count_param(v->max_neighbors), 0, 0, 0);
}
fxs_command fxs_command_add_cohesion_view(fxs_agent_handle a, fxs_blend b, fix16_t radius,
                                          const fxs_flocking_view *v) {
  return behavior(a, FXS_BEHAVIOR_COHESION, b, radius, v->blind_angle,
                  count_param(v->max_neighbors), 0, 0, 0);
}
fxs_command fxs_command_add_leader_following(fxs_agent_handle a, fxs_blend b,
                                             const fxs_leader_def *d) {
  return behavior(a, FXS_BEHAVIOR_LEADER, b, d->leader_behind_dist, d->leader_sight_radius,
                  d->slowing_radius, d->separation_radius, d->separation_weight, d->max_prediction);
}
fxs_command fxs_command_add_queue(fxs_agent_handle a, fxs_blend b, const fxs_queue_def *d) {
  return behavior(a, FXS_BEHAVIOR_QUEUE, b, d->max_queue_ahead, d->max_queue_radius,
                  d->separation_radius, 0, 0, 0);
}
fxs_command fxs_command_add_dynamic_arrive(fxs_agent_handle a, fxs_blend b,
                                           const fxs_dynamic_arrive_def *d) {
  return behavior(a, FXS_BEHAVIOR_DYNAMIC_ARRIVE, b, d->target_radius, d->slow_radius,
                  d->time_to_target, d->max_acceleration, 0, 0);
}
fxs_command fxs_command_add_velocity_match(fxs_agent_handle a, fxs_blend b, fix16_t time_to_target,
                                           fix16_t max_acceleration) {
  return behavior(a, FXS_BEHAVIOR_VELOCITY_MATCH, b, time_to_target, max_acceleration, 0, 0, 0, 0);
}
fxs_command fxs_command_add_align(fxs_agent_handle a, fxs_blend b, fix16_t target_orientation,
                                  const fxs_align_def *d) {
  return behavior(a, FXS_BEHAVIOR_ALIGN, b, target_orientation, d->target_radius, d->slow_radius,
                  d->time_to_target, 0, 0);
}
fxs_command fxs_command_add_face(fxs_agent_handle a, fxs_blend b, const fxs_align_def *d) {
  return behavior(a, FXS_BEHAVIOR_FACE, b, d->target_radius, d->slow_radius, d->time_to_target, 0,
                  0, 0);
}
fxs_command fxs_command_add_look_where_going(fxs_agent_handle a, fxs_blend b,
                                             const fxs_align_def *d) {
  return behavior(a, FXS_BEHAVIOR_LOOK_WHERE_GOING, b, d->target_radius, d->slow_radius,
                  d->time_to_target, 0, 0, 0);
}
fxs_command fxs_command_add_random_walker(fxs_agent_handle a, fxs_blend b,
                                          const fxs_walker_def *d) {
  return behavior(a, FXS_BEHAVIOR_WALKER, b, d->min_step, d->max_step, d->aggro_radius,
                  d->reach_radius, d->slowing_radius, 0);
}
fxs_command fxs_command_add_kinematic_seek(fxs_agent_handle a, fxs_blend b) {
  return behavior(a, FXS_BEHAVIOR_KINEMATIC_SEEK, b, 0, 0, 0, 0, 0, 0);
}
fxs_command fxs_command_add_kinematic_arrive(fxs_agent_handle a, fxs_blend b, fix16_t radius,
                                             fix16_t time_to_target) {
  return behavior(a, FXS_BEHAVIOR_KINEMATIC_ARRIVE, b, radius, time_to_target, 0, 0, 0, 0);
}
fxs_command fxs_command_add_kinematic_wander(fxs_agent_handle a, fxs_blend b,
                                             fix16_t max_rotation) {
  return behavior(a, FXS_BEHAVIOR_KINEMATIC_WANDER, b, max_rotation, 0, 0, 0, 0, 0);
}
fxs_command fxs_command_add_flow_field(fxs_agent_handle a, fxs_blend b, fix16_t look_ahead) {
  return behavior(a, FXS_BEHAVIOR_FLOW_FIELD, b, look_ahead, 0, 0, 0, 0, 0);
}

// A count as the whole Q16.16 number the field commands carry; beyond FXS_MAX_FIELD_SIDE a
// fraction, which the world refuses.
static fix16_t whole_arg(uint32_t n) {
  return n > FXS_MAX_FIELD_SIDE ? FXS_MAX : (fix16_t)(n << 16);
}

fxs_command fxs_command_set_field_grid(fxs_vec2 origin, fix16_t cell_size, uint32_t columns,
                                       uint32_t rows) {
  fxs_command c = fxs_command_make(FXS_CMD_SET_FIELD_GRID, 0, 0);
  c.arg[0] = origin.x, c.arg[1] = origin.y, c.arg[2] = cell_size;
  c.arg[3] = whole_arg(columns), c.arg[4] = whole_arg(rows);
  return c;
}
fxs_command fxs_command_remove_field(void) {
  return fxs_command_make(FXS_CMD_SET_FIELD_GRID, 0, 0);
}
fxs_command fxs_command_set_nav_grid(fxs_vec2 origin, fix16_t cell_size, uint32_t columns,
                                     uint32_t rows, fix16_t radius, uint32_t budget) {
  fxs_command c = fxs_command_make(FXS_CMD_SET_NAV_GRID, 0, 0);
  c.arg[0] = origin.x, c.arg[1] = origin.y, c.arg[2] = cell_size;
  c.arg[3] = whole_arg(columns), c.arg[4] = whole_arg(rows), c.arg[5] = radius;
  c.ref = budget;
  return c;
}
fxs_command fxs_command_remove_nav_grid(void) {
  return fxs_command_make(FXS_CMD_SET_NAV_GRID, 0, 0);
}
fxs_command fxs_command_set_nav_costs(uint32_t column, uint32_t row, uint32_t columns,
                                      uint32_t rows, uint32_t cost) {
  fxs_command c = fxs_command_make(FXS_CMD_SET_NAV_COSTS, 0, 0);
  c.arg[0] = whole_arg(column), c.arg[1] = whole_arg(row), c.arg[2] = whole_arg(columns),
  c.arg[3] = whole_arg(rows);
  c.arg[4] = whole_arg(cost);
  return c;
}
fxs_command fxs_command_set_field_cells(uint32_t column, uint32_t row, uint32_t columns,
                                        uint32_t rows, fxs_vec2 flow) {
  fxs_command c = fxs_command_make(FXS_CMD_SET_FIELD_CELLS, 0, 0);
  c.arg[0] = whole_arg(column), c.arg[1] = whole_arg(row), c.arg[2] = whole_arg(columns),
  c.arg[3] = whole_arg(rows);
  c.arg[4] = flow.x, c.arg[5] = flow.y;
  return c;
}
static fxs_command fill(fxs_flow_fill kind, fxs_vec2 at, fix16_t a, fix16_t b) {
  fxs_command c = fxs_command_make(FXS_CMD_FILL_FIELD, 0, 0);
  c.ref = (uint32_t)kind;
  c.arg[0] = at.x, c.arg[1] = at.y, c.arg[2] = a, c.arg[3] = b;
  return c;
}
fxs_command fxs_command_fill_field_goal(fxs_vec2 goal) {
  return fill(FXS_FLOW_FILL_GOAL, goal, 0, 0);
}
fxs_command fxs_command_fill_field_uniform(fxs_vec2 direction) {
  return fill(FXS_FLOW_FILL_UNIFORM, direction, 0, 0);
}
fxs_command fxs_command_fill_field_toward(fxs_vec2 point) {
  return fill(FXS_FLOW_FILL_TOWARD, point, 0, 0);
}
fxs_command fxs_command_fill_field_vortex(fxs_vec2 center, fix16_t swirl, fix16_t inward) {
  return fill(FXS_FLOW_FILL_VORTEX, center, swirl, inward);
}
fxs_command fxs_command_add_unaligned_avoidance(fxs_agent_handle a, fxs_blend b,
                                                const fxs_unaligned_avoidance_def *d) {
  return behavior(a, FXS_BEHAVIOR_UNALIGNED_AVOIDANCE, b, d->time_horizon, d->margin,
                  d->neighbor_radius, d->max_avoid_force, 0, 0);
}
fxs_command fxs_command_add_offset_pursuit(fxs_agent_handle a, fxs_blend b,
                                           const fxs_offset_pursuit_def *d) {
  return behavior(a, FXS_BEHAVIOR_OFFSET_PURSUIT, b, d->offset_forward, d->offset_side,
                  d->slowing_radius, d->max_prediction, 0, 0);
}
fxs_command fxs_command_add_hide(fxs_agent_handle a, fxs_blend b, const fxs_hide_def *d) {
  return behavior(a, FXS_BEHAVIOR_HIDE, b, d->distance_from_boundary, d->slowing_radius,
                  d->max_prediction, 0, 0, 0);
}
fxs_command fxs_command_add_interpose(fxs_agent_handle a, fxs_blend b, const fxs_interpose_def *d) {
  return behavior(a, FXS_BEHAVIOR_INTERPOSE, b, d->slowing_radius, d->max_prediction, 0, 0, 0, 0);
}
fxs_command fxs_command_add_orca(fxs_agent_handle a, fxs_blend b, const fxs_orca_def *d,
                                 fix16_t slowing_radius) {
  return behavior(a, FXS_BEHAVIOR_ORCA, b, d->time_horizon, d->neighbor_distance,
                  d->neighbor_radius, count_param(d->max_neighbors), slowing_radius, d->priority);
}
fxs_command fxs_command_add_navigate(fxs_agent_handle a, fxs_blend b, fix16_t slowing_radius,
                                     const fxs_orca_def *d) {
  return behavior(a, FXS_BEHAVIOR_NAVIGATE, b, slowing_radius, d->time_horizon,
                  d->neighbor_distance, d->neighbor_radius, count_param(d->max_neighbors),
                  d->priority);
}
fxs_command fxs_command_add_formation(fxs_agent_handle a, fxs_blend b, const fxs_formation_def *d) {
  return behavior(a, FXS_BEHAVIOR_FORMATION, b, FXS_INT((int32_t)d->shape), d->spacing,
                  d->slowing_radius, count_param(d->group), d->arrival_radius, 0);
}
