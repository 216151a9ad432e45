// The C functions the binding calls, one DllImport each, in the order of the headers.
// "fixsteer" resolves to libfixsteer.so (Linux), libfixsteer.dylib (macOS) or fixsteer.dll
// (Windows). Every call is cdecl with blittable arguments only: no delegate is passed except
// the replay writer's output function (one call per chunk, not per agent).
using System;
using System.Runtime.InteropServices;

namespace Fixsteer
{
    internal static class NativeMethods
    {
        internal const string Lib = "fixsteer";
        private const CallingConvention Cdecl = CallingConvention.Cdecl;

        // result.h, version.h, fingerprint.h
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern IntPtr fxs_result_message(int result);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern IntPtr fxs_version();
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern ulong fxs_math_fingerprint();
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern uint fxs_simulation_version();
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern uint fxs_simulation_version_oldest();

        // world.h
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern WorldDef fxs_default_world_def();
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern int fxs_world_def_check(ref WorldDef def);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern UIntPtr fxs_world_memory_size(ref WorldCapacity capacity);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern int fxs_world_init(IntPtr world, ref WorldDef def,
                                                  ref WorldCapacity capacity, IntPtr memory,
                                                  UIntPtr size);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern int fxs_world_add_path(IntPtr world, [In] Vec2[] nodes, ushort count,
                                                      int mode, int radius, out ushort index);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern int fxs_world_apply(IntPtr world, ref Command command,
                                                   out AgentHandle spawned);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern int fxs_world_step(IntPtr world, [In, Out] Command[] commands,
                                                  uint count, [Out] int[] results);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern IntPtr fxs_world_agent(IntPtr world, AgentHandle handle);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern int fxs_world_agent_owner(IntPtr world, AgentHandle handle,
                                                         out uint owner);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern int fxs_world_agent_targets(IntPtr world, AgentHandle handle,
                                                           out AgentTargets o);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern int fxs_world_agent_behaviors(IntPtr world, AgentHandle handle,
                                                             out AgentBehaviorsNative o);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern AgentHandle fxs_world_handle_at(IntPtr world, uint index);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern uint fxs_world_next_spawn_handles(IntPtr world, uint count,
                                                                 [Out] AgentHandle[] o);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern uint fxs_world_agent_count(IntPtr world);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern int fxs_world_set_simulation_version(IntPtr world, uint version);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern uint fxs_world_simulation_version(IntPtr world);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern BehaviorSlot fxs_behavior_slot_default(int kind);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern BehaviorSlot fxs_behavior_slot_default_for(int kind, int radius, int maxForce);

        // snapshot.h
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern ulong fxs_world_hash(IntPtr world);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern UIntPtr fxs_world_snapshot_size(IntPtr world);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern UIntPtr fxs_world_snapshot_bound([In] ref WorldCapacity capacity);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern byte fxs_world_matches_snapshot(IntPtr world, [In] byte[] data,
                                                               UIntPtr size, out UIntPtr mismatch);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern int fxs_world_save(IntPtr world, [Out] byte[] buffer,
                                                  UIntPtr capacity, out UIntPtr written);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern int fxs_world_restore(IntPtr world, [In] byte[] data, UIntPtr size,
                                                     out UIntPtr errorOffset);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern int fxs_snapshot_capacity([In] byte[] data, UIntPtr size,
                                                         out WorldCapacity o);

        // command.h
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern IntPtr fxs_command_name(byte type);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern void fxs_command_encode(ref Command c, [Out] byte[] o);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern int fxs_command_decode([In] byte[] i, out Command c);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern void fxs_command_sort([In, Out] Command[] commands, uint count);

        // command_build.h
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern SpawnDef fxs_default_spawn_def();
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern AgentLimitsDef fxs_default_agent_limits_def();
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Blend fxs_default_blend();
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern FlockingView fxs_default_flocking_view();
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_spawn(ref SpawnDef def);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_despawn(AgentHandle a);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_set_target_point(AgentHandle a, Vec2 point);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_set_target_agent(AgentHandle a,
                                                                    AgentHandle target);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_set_second_target(AgentHandle a,
                                                                     AgentHandle target);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_clear_behaviors(AgentHandle a, int mode);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_set_path(AgentHandle a, uint path);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_apply_force(AgentHandle a, Vec2 force);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_set_limits(AgentHandle a,
                                                              ref AgentLimitsDef def);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_set_owner(AgentHandle a, uint owner);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_obstacle(Obstacle o);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_remove_obstacle(uint index);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_wall(Wall w);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_remove_wall(uint index);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_set_field_grid(Vec2 origin, int cellSize,
                                                                  uint columns, uint rows);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_remove_field();
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_set_field_cells(uint column, uint row,
                                                                   uint columns, uint rows,
                                                                   Vec2 flow);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_fill_field_uniform(Vec2 d);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_fill_field_toward(Vec2 p);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_fill_field_vortex(Vec2 center, int swirl,
                                                                     int inward);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_fill_field_goal(Vec2 goal);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_set_nav_grid(Vec2 origin, int cellSize,
                                                                uint columns, uint rows, int radius,
                                                                uint budget);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_remove_nav_grid();
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_set_nav_costs(uint column, uint row,
                                                                 uint columns, uint rows,
                                                                 uint cost);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_move(AgentHandle a, uint group,
                                                        Vec2 destination, int gap);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_behavior(AgentHandle a,
                                                                ref BehaviorSlot slot);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_seek(AgentHandle a, Blend b);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_flee(AgentHandle a, Blend b,
                                                            int panicRadius);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_arrive(AgentHandle a, Blend b,
                                                              int slowingRadius);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_pursuit(AgentHandle a, Blend b,
                                                               int maxPrediction);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_evade(AgentHandle a, Blend b,
                                                             int maxPrediction, int panicRadius);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_path_following(AgentHandle a, Blend b);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_separation(AgentHandle a, Blend b,
                                                                  int radius);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_alignment(AgentHandle a, Blend b,
                                                                 int radius);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_cohesion(AgentHandle a, Blend b, int radius);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_separation_view(AgentHandle a, Blend b,
                                                                       int radius,
                                                                       ref FlockingView view);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_alignment_view(AgentHandle a, Blend b,
                                                                      int radius,
                                                                      ref FlockingView view);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_cohesion_view(AgentHandle a, Blend b,
                                                                     int radius,
                                                                     ref FlockingView view);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_velocity_match(AgentHandle a, Blend b,
                                                                      int timeToTarget,
                                                                      int maxAcceleration);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_kinematic_seek(AgentHandle a, Blend b);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_kinematic_arrive(AgentHandle a, Blend b,
                                                                        int radius,
                                                                        int timeToTarget);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_kinematic_wander(AgentHandle a, Blend b,
                                                                        int maxRotation);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_flow_field(AgentHandle a, Blend b,
                                                                  int lookAhead);

        // command_build.h: the behaviors that take a parameter struct (BehaviorDefs.cs)
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern WanderDef fxs_default_wander_def();
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_wander(AgentHandle a, Blend b,
                                                              ref WanderDef def);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern AvoidanceDef fxs_default_avoidance_def();
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_avoidance(AgentHandle a, Blend b,
                                                                 ref AvoidanceDef def);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern LeaderDef fxs_default_leader_def();
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_leader_following(AgentHandle a, Blend b,
                                                                        ref LeaderDef def);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern QueueDef fxs_default_queue_def();
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_queue(AgentHandle a, Blend b,
                                                             ref QueueDef def);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern DynamicArriveDef fxs_default_dynamic_arrive_def();
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_dynamic_arrive(AgentHandle a, Blend b,
                                                                      ref DynamicArriveDef def);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern AlignDef fxs_default_align_def();
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_align(AgentHandle a, Blend b,
                                                             int targetOrientation,
                                                             ref AlignDef def);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_face(AgentHandle a, Blend b,
                                                            ref AlignDef def);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_look_where_going(AgentHandle a, Blend b,
                                                                        ref AlignDef def);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern WalkerDef fxs_default_walker_def();
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_random_walker(AgentHandle a, Blend b,
                                                                     ref WalkerDef def);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern OffsetPursuitDef fxs_default_offset_pursuit_def();
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_offset_pursuit(AgentHandle a, Blend b,
                                                                      ref OffsetPursuitDef def);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern InterposeDef fxs_default_interpose_def();
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_interpose(AgentHandle a, Blend b,
                                                                 ref InterposeDef def);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern HideDef fxs_default_hide_def();
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_hide(AgentHandle a, Blend b,
                                                            ref HideDef def);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern OrcaDef fxs_default_orca_def();
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_orca(AgentHandle a, Blend b, ref OrcaDef def,
                                                            int slowingRadius);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern UnalignedAvoidanceDef fxs_default_unaligned_avoidance_def();
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_unaligned_avoidance(
            AgentHandle a, Blend b, ref UnalignedAvoidanceDef def);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_navigate(AgentHandle a, Blend b,
                                                                int slowingRadius, ref OrcaDef def);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern FormationDef fxs_default_formation_def();
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Command fxs_command_add_formation(AgentHandle a, Blend b,
                                                                 ref FormationDef def);

        // input_limits.h
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern Limits fxs_default_limits();

        // replay.h
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern int fxs_replay_open(IntPtr r, IntPtr data, UIntPtr size,
                                                   byte checkFingerprint, ref Limits limits,
                                                   out UIntPtr errorOffset);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern int fxs_replay_next(IntPtr r, out ReplayChunkNative chunk,
                                                   out UIntPtr errorOffset);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern int fxs_replay_writer_tick_saved(IntPtr w, uint tick,
                                                                [In] byte[] snapshot, UIntPtr size,
                                                                [In] Command[] commands,
                                                                uint count);
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        internal delegate byte WriteFn(IntPtr user, IntPtr bytes, UIntPtr size);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern int fxs_replay_writer_begin(IntPtr w, IntPtr write, IntPtr user,
                                                           IntPtr world, uint keyframeInterval,
                                                           IntPtr scratch, UIntPtr scratchSize);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern int fxs_replay_writer_tick(IntPtr w, IntPtr world,
                                                          [In] Command[] commands, uint count);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern int fxs_replay_writer_end(IntPtr w, IntPtr world);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern UIntPtr fxs_replay_verify_memory_size([In] byte[] data, UIntPtr size,
                                                                     ref Limits limits);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern int fxs_replay_verify([In] byte[] data, UIntPtr size,
                                                     ref Limits limits, IntPtr memory,
                                                     UIntPtr memorySize,
                                                     out VerifyReportNative report);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern byte fxs_verify_diverged(int result);

        // session.h
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern SessionDef fxs_default_session_def();
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern int fxs_session_def_check(ref SessionDef def);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern UIntPtr fxs_session_memory_size(ref SessionDef def);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern int fxs_session_init(IntPtr session, ref SessionDef def,
                                                    IntPtr memory, UIntPtr size);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern byte fxs_session_wants_input(IntPtr s);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern uint fxs_session_input_tick(IntPtr s);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern int fxs_session_submit(IntPtr s, [In] Command[] commands,
                                                      uint count);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern int fxs_session_advance(IntPtr s, IntPtr world, uint nowMs);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern int fxs_session_poll_send(IntPtr s, byte peer, uint nowMs,
                                                         [Out] byte[] buf, UIntPtr cap,
                                                         out UIntPtr len);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern int fxs_session_receive(IntPtr s, byte peer, [In] byte[] bytes,
                                                       UIntPtr len, uint nowMs);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern void fxs_session_wait_info(IntPtr s, uint nowMs,
                                                          out SessionWaitNative o);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern IntPtr fxs_session_desync_report(IntPtr s);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern byte fxs_session_done(IntPtr s);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern byte fxs_session_complete(IntPtr s);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern byte fxs_session_delivered(IntPtr s);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern void fxs_session_restart_progress(IntPtr s, uint nowMs);

        // session_join.h
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern int fxs_session_write_offer(IntPtr s, IntPtr world, byte joiner,
                                                           [Out] byte[] buf, UIntPtr cap,
                                                           out UIntPtr len);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern int fxs_session_join(IntPtr s, ref SessionDef def, IntPtr memory,
                                                    UIntPtr size, IntPtr world,
                                                    [In] IntPtr[] offers, [In] UIntPtr[] lengths,
                                                    uint count, out SessionJoinErrorNative error);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern int fxs_session_peer_left(IntPtr s, byte peer);
        [DllImport(Lib, CallingConvention = Cdecl)]
        internal static extern int fxs_session_readmit(IntPtr s, byte peer, uint tick);
    }
}
