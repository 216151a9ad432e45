// The parameter structs of the behaviors whose typed constructors take one (command_build.h),
// with the library's defaults. Fields are Q16.16 unless the type says otherwise; the layout
// test compares them with the headers.
using System;
using System.Runtime.InteropServices;

namespace Fixsteer
{
    /// <summary>Wander's circle (distance, radius, units; angle change, radians). (C:
    /// fxs_wander_def)</summary>
    [NativeStruct("fxs_wander_def")]
    [StructLayout(LayoutKind.Sequential)]
    public struct WanderDef
    {
        /// <summary>World units ahead of the agent, &gt;= 0. Default 6.</summary>
        public int CircleDistance;
        /// <summary>World units, &gt;= 0. Default 8.</summary>
        public int CircleRadius;
        /// <summary>Radians, full width of the per-tick change, &gt;= 0. Default 1.</summary>
        public int AngleChange;

        /// <summary>The library's defaults.</summary>
        public static WanderDef Default
        {
            get {
                return NativeMethods.fxs_default_wander_def();
            }
        }
    }

    /// <summary>Obstacle avoidance (see-ahead, force, margin, braking, mode). (C:
    /// fxs_avoidance_def)</summary>
    [NativeStruct("fxs_avoidance_def")]
    [StructLayout(LayoutKind.Sequential)]
    public struct AvoidanceDef
    {
        /// <summary>Look-ahead at max speed, world units, &gt;= 0. Default 60.</summary>
        public int MaxSeeAhead;
        /// <summary>Largest avoidance force, &gt;= 0. Default 1.</summary>
        public int MaxAvoidForce;
        /// <summary>Swept: capsule widened by margin * speed, ticks, [0, 64]. Default 2.</summary>
        public int Margin;
        /// <summary>Swept: backward : sideways ratio of the push, [0, 16]. Default 0.</summary>
        public int Braking;
        /// <summary>FXS_AVOID_SWEPT (default) or FXS_AVOID_PROBES.</summary>
        public int Mode;

        /// <summary>The library's defaults.</summary>
        public static AvoidanceDef Default
        {
            get {
                return NativeMethods.fxs_default_avoidance_def();
            }
        }
    }

    /// <summary>Leader following (distance behind, sight, separation). (C:
    /// fxs_leader_def)</summary>
    [NativeStruct("fxs_leader_def")]
    [StructLayout(LayoutKind.Sequential)]
    public struct LeaderDef
    {
        /// <summary>World units behind the leader. Default 30.</summary>
        public int LeaderBehindDist;
        /// <summary>World units. Default 30.</summary>
        public int LeaderSightRadius;
        /// <summary>Arrival slowing radius at the point behind. Default 60.</summary>
        public int SlowingRadius;
        /// <summary>Followers keep this far apart. Default 30.</summary>
        public int SeparationRadius;
        /// <summary>Multiplies the separation force (MAX_SEPARATION). Default 8.</summary>
        public int SeparationWeight;
        /// <summary>Look-ahead cap of the evade, ticks. Default 20.</summary>
        public int MaxPrediction;

        /// <summary>The library's defaults.</summary>
        public static LeaderDef Default
        {
            get {
                return NativeMethods.fxs_default_leader_def();
            }
        }
    }

    /// <summary>Queueing (probe distance and radius, separation). (C: fxs_queue_def)</summary>
    [NativeStruct("fxs_queue_def")]
    [StructLayout(LayoutKind.Sequential)]
    public struct QueueDef
    {
        /// <summary>World units ahead of the agent. Default 20.</summary>
        public int MaxQueueAhead;
        /// <summary>World units. Default 16.</summary>
        public int MaxQueueRadius;
        /// <summary>World units. Default 16.</summary>
        public int SeparationRadius;

        /// <summary>The library's defaults.</summary>
        public static QueueDef Default
        {
            get {
                return NativeMethods.fxs_default_queue_def();
            }
        }
    }

    /// <summary>Millington's dynamic arrive (radii, time, acceleration). (C:
    /// fxs_dynamic_arrive_def)</summary>
    [NativeStruct("fxs_dynamic_arrive_def")]
    [StructLayout(LayoutKind.Sequential)]
    public struct DynamicArriveDef
    {
        /// <summary>World units: closer than this, no steering. Default 2.</summary>
        public int TargetRadius;
        /// <summary>World units: closer than this, slow down. Default 100.</summary>
        public int SlowRadius;
        /// <summary>Ticks, &gt; 0. Default 4.</summary>
        public int TimeToTarget;
        /// <summary>Units per tick per tick, &gt;= 0. Default 0.25.</summary>
        public int MaxAcceleration;

        /// <summary>The library's defaults.</summary>
        public static DynamicArriveDef Default
        {
            get {
                return NativeMethods.fxs_default_dynamic_arrive_def();
            }
        }
    }

    /// <summary>Align, face, look where going (radii in radians, time in ticks). (C:
    /// fxs_align_def)</summary>
    [NativeStruct("fxs_align_def")]
    [StructLayout(LayoutKind.Sequential)]
    public struct AlignDef
    {
        /// <summary>Radians: closer than this, stop rotating. Default 0.01.</summary>
        public int TargetRadius;
        /// <summary>Radians: closer than this, slow down. Default 0.5.</summary>
        public int SlowRadius;
        /// <summary>Ticks to reach the target rotation, &gt; 0. Default 2.</summary>
        public int TimeToTarget;

        /// <summary>The library's defaults.</summary>
        public static AlignDef Default
        {
            get {
                return NativeMethods.fxs_default_align_def();
            }
        }
    }

    /// <summary>The random walker (steps and radii, units). (C: fxs_walker_def)</summary>
    [NativeStruct("fxs_walker_def")]
    [StructLayout(LayoutKind.Sequential)]
    public struct WalkerDef
    {
        /// <summary>World units, &gt; 0. Default 1.</summary>
        public int MinStep;
        /// <summary>World units, &gt;= min_step. Default 10.</summary>
        public int MaxStep;
        /// <summary>World units, &gt; 0: the field of view narrows inside it. Default 30.</summary>
        public int AggroRadius;
        /// <summary>A waypoint within this counts as reached; keep it above the max speed or the
        /// walker can step over its waypoint. Default 4.</summary>
        public int ReachRadius;
        /// <summary>Arrival slowing radius on the final target. Default 8.</summary>
        public int SlowingRadius;

        /// <summary>The library's defaults.</summary>
        public static WalkerDef Default
        {
            get {
                return NativeMethods.fxs_default_walker_def();
            }
        }
    }

    /// <summary>Offset pursuit (slot in the leader's frame, arrival). (C:
    /// fxs_offset_pursuit_def)</summary>
    [NativeStruct("fxs_offset_pursuit_def")]
    [StructLayout(LayoutKind.Sequential)]
    public struct OffsetPursuitDef
    {
        /// <summary>Slot ahead (+) or behind (-) the leader, units, any. Default -30.</summary>
        public int OffsetForward;
        /// <summary>Slot to the +pi/2 side (+) or the other (-), units, any. Default 0.</summary>
        public int OffsetSide;
        /// <summary>Arrival slowing radius at the slot, units, &gt;= 0. Default 32.</summary>
        public int SlowingRadius;
        /// <summary>Cap of the look-ahead T, ticks, &gt;= 0. Default 30.</summary>
        public int MaxPrediction;

        /// <summary>The library's defaults.</summary>
        public static OffsetPursuitDef Default
        {
            get {
                return NativeMethods.fxs_default_offset_pursuit_def();
            }
        }
    }

    /// <summary>Interpose (arrival at the midpoint, look-ahead cap). (C:
    /// fxs_interpose_def)</summary>
    [NativeStruct("fxs_interpose_def")]
    [StructLayout(LayoutKind.Sequential)]
    public struct InterposeDef
    {
        /// <summary>Arrival slowing radius at the midpoint, units, &gt;= 0. Default 32.</summary>
        public int SlowingRadius;
        /// <summary>Cap of the look-ahead T, ticks, &gt;= 0. Default 30.</summary>
        public int MaxPrediction;

        /// <summary>The library's defaults.</summary>
        public static InterposeDef Default
        {
            get {
                return NativeMethods.fxs_default_interpose_def();
            }
        }
    }

    /// <summary>Hide (gap to the obstacle's edge, arrival, look-ahead cap). (C:
    /// fxs_hide_def)</summary>
    [NativeStruct("fxs_hide_def")]
    [StructLayout(LayoutKind.Sequential)]
    public struct HideDef
    {
        /// <summary>Gap between the obstacle's edge and the spot (the agent's centre), units, &gt;=
        /// 0. The agent's body is hidden when it exceeds the agent's radius. Default 16.</summary>
        public int DistanceFromBoundary;
        /// <summary>Arrival slowing radius at the spot, units, &gt;= 0. Default 32.</summary>
        public int SlowingRadius;
        /// <summary>Look-ahead cap of the evade fallback, ticks, &gt;= 0. Default 30.</summary>
        public int MaxPrediction;

        /// <summary>The library's defaults.</summary>
        public static HideDef Default
        {
            get {
                return NativeMethods.fxs_default_hide_def();
            }
        }
    }

    /// <summary>ORCA (time horizons, neighbor distance and radius, count, priority). (C:
    /// fxs_orca_def)</summary>
    [NativeStruct("fxs_orca_def")]
    [StructLayout(LayoutKind.Sequential)]
    public struct OrcaDef
    {
        /// <summary>Ticks ahead the chosen velocity keeps every pair apart, [1, FXS_MAX]. Larger is
        /// safer and more timid. Default 20.</summary>
        public int TimeHorizon;
        /// <summary>Neighbors farther than this (centre to centre) are ignored, units, [0, 1024].
        /// Default 120.</summary>
        public int NeighborDistance;
        /// <summary>Body radius assumed for every neighbor (fxs_neighbor carries none), units, [0,
        /// 1024]. Default 8, the default agent radius.</summary>
        public int NeighborRadius;
        /// <summary>Most neighbors taken into account, [0, FXS_NEIGHBORS_MAX_K] (16).
        /// Default 10.</summary>
        public uint MaxNeighbors;
        /// <summary>Ticks ahead the chosen velocity keeps the agent off walls and obstacles, [1,
        /// FXS_MAX]; below 1 counts as 1. Shorter than time_horizon so an agent may walk close to a
        /// wall. Default 10; in the world it is time_horizon / 2 (no parameter slot is left for
        /// it).</summary>
        public int ObstacleTimeHorizon;
        /// <summary>Avoidance priority, [0, FXS_ORCA_PRIORITY_MAX]: of a pair, the lower priority
        /// takes the larger share of the avoiding (fxs_orca_share). Default 0 (equal shares among
        /// defaults).</summary>
        public int Priority;

        /// <summary>The library's defaults.</summary>
        public static OrcaDef Default
        {
            get {
                return NativeMethods.fxs_default_orca_def();
            }
        }
    }

    /// <summary>Unaligned collision avoidance (horizon, margin, neighbor radius, force). (C:
    /// fxs_unaligned_avoidance_def)</summary>
    [NativeStruct("fxs_unaligned_avoidance_def")]
    [StructLayout(LayoutKind.Sequential)]
    public struct UnalignedAvoidanceDef
    {
        /// <summary>Threats later than this are ignored, ticks, &gt;= 0. Default 30.</summary>
        public int TimeHorizon;
        /// <summary>Extra clearance on top of both radii, units, &gt;= 0. Default 4.</summary>
        public int Margin;
        /// <summary>Body radius assumed for every neighbor (fxs_neighbor carries none), units,
        /// &gt;= 0. Default 8, the default agent radius; a world whose agents share a radius passes
        /// it.</summary>
        public int NeighborRadius;
        /// <summary>Length of the avoidance force, &gt;= 0. Default 1.</summary>
        public int MaxAvoidForce;

        /// <summary>The library's defaults.</summary>
        public static UnalignedAvoidanceDef Default
        {
            get {
                return NativeMethods.fxs_default_unaligned_avoidance_def();
            }
        }
    }

    /// <summary>A formation (shape, spacing, arrival, group; Offsets are not sent in a command).
    /// (C: fxs_formation_def)</summary>
    [NativeStruct("fxs_formation_def")]
    [StructLayout(LayoutKind.Sequential)]
    public struct FormationDef
    {
        /// <summary>Layout. Default FXS_FORMATION_WEDGE.</summary>
        public int Shape;
        /// <summary>Distance between neighboring slots, units, [0, 1024]. Default 24.</summary>
        public int Spacing;
        /// <summary>Arrival slowing radius at the slot, units, &gt;= 0. Default 32.</summary>
        public int SlowingRadius;
        /// <summary>Agents with the same group form one formation. Default 0.</summary>
        public uint Group;
        /// <summary>A member this close to its slot, the leader at rest, stops (velocity 0); units,
        /// &gt;= 0. Default 1/4.</summary>
        public int ArrivalRadius;
        /// <summary>FXS_FORMATION_USER: the slots (forward, left), units.</summary>
        public IntPtr Offsets;
        /// <summary>Entries of offsets.</summary>
        public uint OffsetCount;

        /// <summary>The library's defaults.</summary>
        public static FormationDef Default
        {
            get {
                return NativeMethods.fxs_default_formation_def();
            }
        }
    }
}
