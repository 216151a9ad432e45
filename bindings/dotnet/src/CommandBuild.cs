// Typed constructors for every world command, mirroring command_build.h: no caller has to
// know which argument slot means what. Source and sequence are 0; a session overwrites them,
// a game that steps a world itself sets them with WithSource (every peer must order a tick's
// commands the same way).
using System;
using System.Runtime.InteropServices;

namespace Fixsteer
{
    public partial struct Command
    {
        /// <summary>This command with another source and sequence (canonical order: source,
        /// then sequence, then the encoded bytes).</summary>
        public Command WithSource(byte source, ushort sequence)
        {
            Command c = this;
            c.Source = source;
            c.Sequence = sequence;
            return c;
        }

        /// <summary>Argument i (0..7), Q16.16.</summary>
        public int GetArg(int i)
        {
            switch (i)
            {
            case 0:
                return Arg0;
            case 1:
                return Arg1;
            case 2:
                return Arg2;
            case 3:
                return Arg3;
            case 4:
                return Arg4;
            case 5:
                return Arg5;
            case 6:
                return Arg6;
            case 7:
                return Arg7;
            default:
                throw new ArgumentOutOfRangeException("i", "a command has 8 arguments");
            }
        }

        /// <summary>The printable name of the command's type ("spawn").</summary>
        public string Name
        {
            get {
                return Marshal.PtrToStringAnsi(NativeMethods.fxs_command_name(Type));
            }
        }

        /// <summary>Bytes of the encoding.</summary>
        public const int EncodedBytes = 1 + 1 + 2 + 4 + 4 + 4 * 8;

        /// <summary>The little-endian encoding (the bytes a replay stores).</summary>
        public byte[] Encode()
        {
            byte[] o = new byte[EncodedBytes];
            Command c = this;
            NativeMethods.fxs_command_encode(ref c, o);
            return o;
        }

        /// <summary>Reads an encoding; throws for an unknown type or short data.</summary>
        public static Command Decode(byte[] bytes)
        {
            Args.NotNull(bytes, "bytes");
            if (bytes.Length < EncodedBytes)
                throw new FixsteerException(Fixsteer.Result.Truncated, "command decode");
            Command c;
            FixsteerException.Check(NativeMethods.fxs_command_decode(bytes, out c),
                                    "command decode");
            return c;
        }

        /// <summary>Sorts commands[0..count) into canonical order in place (commands may be
        /// null when count is 0).</summary>
        public static void Sort(Command[] commands, int count)
        {
            CheckCount(commands, count);
            NativeMethods.fxs_command_sort(commands, (uint)count);
        }

        internal static void CheckCount(Command[] commands, int count)
        {
            Args.Count(commands, count, "commands");
        }

        /// <summary>Spawn an agent.</summary>
        public static Command Spawn(SpawnDef def)
        {
            return NativeMethods.fxs_command_spawn(ref def);
        }
        /// <summary>Despawn an agent.</summary>
        public static Command Despawn(AgentHandle agent)
        {
            return NativeMethods.fxs_command_despawn(agent);
        }
        /// <summary>Set the target point, world units.</summary>
        public static Command SetTargetPoint(AgentHandle agent, Vec2 point)
        {
            return NativeMethods.fxs_command_set_target_point(agent, point);
        }
        /// <summary>Set the target agent (None clears it).</summary>
        public static Command SetTargetAgent(AgentHandle agent, AgentHandle target)
        {
            return NativeMethods.fxs_command_set_target_agent(agent, target);
        }
        /// <summary>Set the second target agent (interpose).</summary>
        public static Command SetSecondTarget(AgentHandle agent, AgentHandle target)
        {
            return NativeMethods.fxs_command_set_second_target(agent, target);
        }
        /// <summary>Empty the behavior set and choose how the next behaviors combine.</summary>
        public static Command ClearBehaviors(AgentHandle agent, CombineMode mode)
        {
            return NativeMethods.fxs_command_clear_behaviors(agent, (int)mode);
        }
        /// <summary>Follow path <paramref name="pathIndex"/> (0xFFFF: none).</summary>
        public static Command SetPath(AgentHandle agent, uint pathIndex)
        {
            return NativeMethods.fxs_command_set_path(agent, pathIndex);
        }
        /// <summary>A force for the coming tick only.</summary>
        public static Command ApplyForce(AgentHandle agent, Vec2 force)
        {
            return NativeMethods.fxs_command_apply_force(agent, force);
        }
        /// <summary>Set the limits and orientation policy.</summary>
        public static Command SetLimits(AgentHandle agent, AgentLimitsDef def)
        {
            return NativeMethods.fxs_command_set_limits(agent, ref def);
        }
        /// <summary>Hand the agent to source <paramref name="owner"/> (0..255), or share it
        /// (0xFFFF).</summary>
        public static Command SetOwner(AgentHandle agent, uint owner)
        {
            return NativeMethods.fxs_command_set_owner(agent, owner);
        }
        /// <summary>Add an obstacle.</summary>
        public static Command AddObstacle(Obstacle o)
        {
            return NativeMethods.fxs_command_add_obstacle(o);
        }
        /// <summary>Remove the obstacle in slot <paramref name="index"/>.</summary>
        public static Command RemoveObstacle(uint index)
        {
            return NativeMethods.fxs_command_remove_obstacle(index);
        }
        /// <summary>Add a wall.</summary>
        public static Command AddWall(Wall w) { return NativeMethods.fxs_command_add_wall(w); }
        /// <summary>Remove the wall in slot <paramref name="index"/>.</summary>
        public static Command RemoveWall(uint index)
        {
            return NativeMethods.fxs_command_remove_wall(index);
        }
        /// <summary>The flow-field grid; every cell becomes zero.</summary>
        public static Command SetFieldGrid(Vec2 origin, int cellSize, uint columns, uint rows)
        {
            return NativeMethods.fxs_command_set_field_grid(origin, cellSize, columns, rows);
        }
        /// <summary>Remove the flow field.</summary>
        public static Command RemoveField() { return NativeMethods.fxs_command_remove_field(); }
        /// <summary>Set a block of flow-field cells to <paramref name="flow"/>.</summary>
        public static Command SetFieldCells(uint column, uint row, uint columns, uint rows,
                                            Vec2 flow)
        {
            return NativeMethods.fxs_command_set_field_cells(column, row, columns, rows, flow);
        }
        /// <summary>Fill every cell with a direction.</summary>
        public static Command FillFieldUniform(Vec2 direction)
        {
            return NativeMethods.fxs_command_fill_field_uniform(direction);
        }
        /// <summary>Fill every cell with the unit vector toward a point.</summary>
        public static Command FillFieldToward(Vec2 point)
        {
            return NativeMethods.fxs_command_fill_field_toward(point);
        }
        /// <summary>Fill the field with a vortex.</summary>
        public static Command FillFieldVortex(Vec2 center, int swirl, int inward)
        {
            return NativeMethods.fxs_command_fill_field_vortex(center, swirl, inward);
        }
        /// <summary>Fill the field with the directions toward a goal over the navigation
        /// grid.</summary>
        public static Command FillFieldGoal(Vec2 goal)
        {
            return NativeMethods.fxs_command_fill_field_goal(goal);
        }
        /// <summary>The navigation grid.</summary>
        public static Command SetNavGrid(Vec2 origin, int cellSize, uint columns, uint rows,
                                         int radius, uint budget)
        {
            return NativeMethods.fxs_command_set_nav_grid(origin, cellSize, columns, rows, radius,
                                                          budget);
        }
        /// <summary>Remove the navigation grid.</summary>
        public static Command RemoveNavGrid()
        {
            return NativeMethods.fxs_command_remove_nav_grid();
        }
        /// <summary>Set a block of base costs (0 blocked, 1..254).</summary>
        public static Command SetNavCosts(uint column, uint row, uint columns, uint rows, uint cost)
        {
            return NativeMethods.fxs_command_set_nav_costs(column, row, columns, rows, cost);
        }
        /// <summary>Move the agent to <paramref name="destination"/>, the RTS click: the
        /// tick's moves with the same source, <paramref name="group"/> tag, destination and
        /// <paramref name="gap"/> (Q16.16 units, [0, 1024]) form one group, each member
        /// given its own spot round the destination (docs/navigation.md, "Moving
        /// groups").</summary>
        public static Command Move(AgentHandle agent, uint group, Vec2 destination, int gap)
        {
            return NativeMethods.fxs_command_move(agent, group, destination, gap);
        }
        /// <summary>Any behavior from a slot (<see cref="BehaviorSlot.Default"/> gives the
        /// library's defaults): the way to every behavior that has no typed constructor
        /// here.</summary>
        public static Command AddBehavior(AgentHandle agent, BehaviorSlot slot)
        {
            return NativeMethods.fxs_command_add_behavior(agent, ref slot);
        }
        /// <summary>Seek the target.</summary>
        public static Command AddSeek(AgentHandle agent, Blend blend)
        {
            return NativeMethods.fxs_command_add_seek(agent, blend);
        }
        /// <summary>Flee from the target (panic radius 0: at any distance).</summary>
        public static Command AddFlee(AgentHandle agent, Blend blend, int panicRadius)
        {
            return NativeMethods.fxs_command_add_flee(agent, blend, panicRadius);
        }
        /// <summary>Arrive at the target.</summary>
        public static Command AddArrive(AgentHandle agent, Blend blend, int slowingRadius)
        {
            return NativeMethods.fxs_command_add_arrive(agent, blend, slowingRadius);
        }
        /// <summary>Pursue the target agent.</summary>
        public static Command AddPursuit(AgentHandle agent, Blend blend, int maxPrediction)
        {
            return NativeMethods.fxs_command_add_pursuit(agent, blend, maxPrediction);
        }
        /// <summary>Evade the target agent.</summary>
        public static Command AddEvade(AgentHandle agent, Blend blend, int maxPrediction,
                                       int panicRadius)
        {
            return NativeMethods.fxs_command_add_evade(agent, blend, maxPrediction, panicRadius);
        }
        /// <summary>Follow the agent's path.</summary>
        public static Command AddPathFollowing(AgentHandle agent, Blend blend)
        {
            return NativeMethods.fxs_command_add_path_following(agent, blend);
        }
        /// <summary>Separation from neighbors closer than radius.</summary>
        public static Command AddSeparation(AgentHandle agent, Blend blend, int radius)
        {
            return NativeMethods.fxs_command_add_separation(agent, blend, radius);
        }
        /// <summary>Alignment with neighbors closer than radius.</summary>
        public static Command AddAlignment(AgentHandle agent, Blend blend, int radius)
        {
            return NativeMethods.fxs_command_add_alignment(agent, blend, radius);
        }
        /// <summary>Cohesion toward neighbors closer than radius.</summary>
        public static Command AddCohesion(AgentHandle agent, Blend blend, int radius)
        {
            return NativeMethods.fxs_command_add_cohesion(agent, blend, radius);
        }
        /// <summary>Separation with a view (blind cone, neighbor cap).</summary>
        public static Command AddSeparation(AgentHandle agent, Blend blend, int radius,
                                            FlockingView view)
        {
            return NativeMethods.fxs_command_add_separation_view(agent, blend, radius, ref view);
        }
        /// <summary>Alignment with a view.</summary>
        public static Command AddAlignment(AgentHandle agent, Blend blend, int radius,
                                           FlockingView view)
        {
            return NativeMethods.fxs_command_add_alignment_view(agent, blend, radius, ref view);
        }
        /// <summary>Cohesion with a view.</summary>
        public static Command AddCohesion(AgentHandle agent, Blend blend, int radius,
                                          FlockingView view)
        {
            return NativeMethods.fxs_command_add_cohesion_view(agent, blend, radius, ref view);
        }
        /// <summary>Match the target agent's velocity.</summary>
        public static Command AddVelocityMatch(AgentHandle agent, Blend blend, int timeToTarget,
                                               int maxAcceleration)
        {
            return NativeMethods.fxs_command_add_velocity_match(agent, blend, timeToTarget,
                                                                maxAcceleration);
        }
        /// <summary>Kinematic seek (a kinematic set only).</summary>
        public static Command AddKinematicSeek(AgentHandle agent, Blend blend)
        {
            return NativeMethods.fxs_command_add_kinematic_seek(agent, blend);
        }
        /// <summary>Kinematic arrive (a kinematic set only).</summary>
        public static Command AddKinematicArrive(AgentHandle agent, Blend blend, int radius,
                                                 int timeToTarget)
        {
            return NativeMethods.fxs_command_add_kinematic_arrive(agent, blend, radius,
                                                                  timeToTarget);
        }
        /// <summary>Kinematic wander (a kinematic set only).</summary>
        public static Command AddKinematicWander(AgentHandle agent, Blend blend, int maxRotation)
        {
            return NativeMethods.fxs_command_add_kinematic_wander(agent, blend, maxRotation);
        }
        /// <summary>Follow the world's flow field.</summary>
        public static Command AddFlowField(AgentHandle agent, Blend blend, int lookAhead)
        {
            return NativeMethods.fxs_command_add_flow_field(agent, blend, lookAhead);
        }
        /// <summary>Wander with the def's circle.</summary>
        public static Command AddWander(AgentHandle agent, Blend blend, WanderDef def)
        {
            return NativeMethods.fxs_command_add_wander(agent, blend, ref def);
        }
        /// <summary>Obstacle avoidance.</summary>
        public static Command AddAvoidance(AgentHandle agent, Blend blend, AvoidanceDef def)
        {
            return NativeMethods.fxs_command_add_avoidance(agent, blend, ref def);
        }
        /// <summary>Follow the target agent as leader (no force without one).</summary>
        public static Command AddLeaderFollowing(AgentHandle agent, Blend blend, LeaderDef def)
        {
            return NativeMethods.fxs_command_add_leader_following(agent, blend, ref def);
        }
        /// <summary>Queue behind the agents ahead.</summary>
        public static Command AddQueue(AgentHandle agent, Blend blend, QueueDef def)
        {
            return NativeMethods.fxs_command_add_queue(agent, blend, ref def);
        }
        /// <summary>Millington's dynamic arrive at the target.</summary>
        public static Command AddDynamicArrive(AgentHandle agent, Blend blend, DynamicArriveDef def)
        {
            return NativeMethods.fxs_command_add_dynamic_arrive(agent, blend, ref def);
        }
        /// <summary>Turn to targetOrientation, radians in [-pi, pi].</summary>
        public static Command AddAlign(AgentHandle agent, Blend blend, int targetOrientation,
                                       AlignDef def)
        {
            return NativeMethods.fxs_command_add_align(agent, blend, targetOrientation, ref def);
        }
        /// <summary>Turn to face the target.</summary>
        public static Command AddFace(AgentHandle agent, Blend blend, AlignDef def)
        {
            return NativeMethods.fxs_command_add_face(agent, blend, ref def);
        }
        /// <summary>Turn toward the direction of travel.</summary>
        public static Command AddLookWhereGoing(AgentHandle agent, Blend blend, AlignDef def)
        {
            return NativeMethods.fxs_command_add_look_where_going(agent, blend, ref def);
        }
        /// <summary>Random walk to the target through waypoints.</summary>
        public static Command AddRandomWalker(AgentHandle agent, Blend blend, WalkerDef def)
        {
            return NativeMethods.fxs_command_add_random_walker(agent, blend, ref def);
        }
        /// <summary>Offset pursuit of the target agent (the leader).</summary>
        public static Command AddOffsetPursuit(AgentHandle agent, Blend blend, OffsetPursuitDef def)
        {
            return NativeMethods.fxs_command_add_offset_pursuit(agent, blend, ref def);
        }
        /// <summary>Interpose between the target and the second target.</summary>
        public static Command AddInterpose(AgentHandle agent, Blend blend, InterposeDef def)
        {
            return NativeMethods.fxs_command_add_interpose(agent, blend, ref def);
        }
        /// <summary>Hide behind the world's obstacles from the target agent.</summary>
        public static Command AddHide(AgentHandle agent, Blend blend, HideDef def)
        {
            return NativeMethods.fxs_command_add_hide(agent, blend, ref def);
        }
        /// <summary>ORCA toward the target among the neighbors, walls and obstacles (the obstacle
        /// horizon is time_horizon / 2).</summary>
        public static Command AddOrca(AgentHandle agent, Blend blend, OrcaDef def,
                                      int slowingRadius)
        {
            return NativeMethods.fxs_command_add_orca(agent, blend, ref def, slowingRadius);
        }
        /// <summary>Unaligned collision avoidance over the neighbors.</summary>
        public static Command AddUnalignedAvoidance(AgentHandle agent, Blend blend,
                                                    UnalignedAvoidanceDef def)
        {
            return NativeMethods.fxs_command_add_unaligned_avoidance(agent, blend, ref def);
        }
        /// <summary>Navigate to the target along an A* route over the navigation grid, avoiding
        /// neighbors with ORCA.</summary>
        public static Command AddNavigate(AgentHandle agent, Blend blend, int slowingRadius,
                                          OrcaDef def)
        {
            return NativeMethods.fxs_command_add_navigate(agent, blend, slowingRadius, ref def);
        }
        /// <summary>A formation around the target agent (the user shape's offsets are not
        /// sent).</summary>
        public static Command AddFormation(AgentHandle agent, Blend blend, FormationDef def)
        {
            return NativeMethods.fxs_command_add_formation(agent, blend, ref def);
        }
    }
}
