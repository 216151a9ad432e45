// The C structs the API passes, field for field (blittable: no bool, char, string or array
// fields, so they cross the boundary without copying). C's bool is a byte here, an enum an
// int, size_t a UIntPtr and a pointer an IntPtr. Array fields are spelled out one field an
// element (Arg0..Arg7 for arg[8]). The layout test compares every struct with the header.
using System;
using System.Runtime.InteropServices;

namespace Fixsteer
{
    /// <summary>Marks a struct that mirrors a C struct of the public headers.</summary>
    [AttributeUsage(AttributeTargets.Struct)]
    public sealed class NativeStructAttribute : Attribute
    {
        /// <summary>The C struct's name, e.g. "fxs_vec2".</summary>
        public readonly string Name;
        /// <summary>Mirrors the C struct <paramref name="name"/>.</summary>
        public NativeStructAttribute(string name) { Name = name; }
    }

    /// <summary>Marks an enum that mirrors a C enum; C constants lose the first matching
    /// prefix and become PascalCase (FXS_ERR_BUFFER_TOO_SMALL: BufferTooSmall).</summary>
    [AttributeUsage(AttributeTargets.Enum)]
    public sealed class NativeEnumAttribute : Attribute
    {
        /// <summary>The C enum's name.</summary>
        public readonly string Name;
        /// <summary>Prefixes stripped from the C constants, tried in order.</summary>
        public readonly string[] Prefixes;
        /// <summary>Mirrors the C enum <paramref name="name"/>.</summary>
        public NativeEnumAttribute(string name, params string[] prefixes)
        {
            Name = name;
            Prefixes = prefixes;
        }
    }

    /// <summary>A 2D vector of Q16.16 components (raw 65536 = 1.0).</summary>
    [NativeStruct("fxs_vec2")]
    [StructLayout(LayoutKind.Sequential)]
    public struct Vec2 : IEquatable<Vec2>
    {
        /// <summary>x, Q16.16.</summary>
        public int X;
        /// <summary>y, Q16.16.</summary>
        public int Y;

        /// <summary>A vector of raw Q16.16 components.</summary>
        public Vec2(int x, int y)
        {
            X = x;
            Y = y;
        }

        /// <summary>A vector of whole numbers of units.</summary>
        public static Vec2 FromInt(int x, int y)
        {
            return new Vec2(Fix16.FromInt(x), Fix16.FromInt(y));
        }

        /// <inheritdoc/>
        public bool Equals(Vec2 other) { return X == other.X && Y == other.Y; }
        /// <inheritdoc/>
        public override bool Equals(object obj) { return obj is Vec2 && Equals((Vec2)obj); }
        /// <inheritdoc/>
        public override int GetHashCode() { return X * 31 + Y; }
        /// <inheritdoc/>
        public override string ToString()
        {
            return "(" + Fix16.ToDouble(X).ToString("R") + ", " + Fix16.ToDouble(Y).ToString("R") +
                   ")";
        }
    }

    /// <summary>Names an agent: slot index + 1 in the low 22 bits, the slot's generation above
    /// them. 0 names no agent; a despawned agent's handle goes stale.</summary>
    [NativeStruct("fxs_agent_handle")]
    [StructLayout(LayoutKind.Sequential)]
    public struct AgentHandle : IEquatable<AgentHandle>
    {
        /// <summary>The encoded handle.</summary>
        public uint Value;

        /// <summary>A handle of the given encoded value.</summary>
        public AgentHandle(uint value) { Value = value; }
        /// <summary>The handle that names no agent.</summary>
        public static readonly AgentHandle None = new AgentHandle(0);
        /// <summary>False for the 0 handle.</summary>
        public bool IsSome
        {
            get {
                return Value != 0;
            }
        }

        /// <inheritdoc/>
        public bool Equals(AgentHandle other) { return Value == other.Value; }
        /// <inheritdoc/>
        public override bool Equals(object obj)
        {
            return obj is AgentHandle && Equals((AgentHandle)obj);
        }
        /// <inheritdoc/>
        public override int GetHashCode() { return (int)Value; }
        /// <inheritdoc/>
        public override string ToString() { return "0x" + Value.ToString("x"); }
    }

    /// <summary>An agent's kinematic state and limits (C: fxs_agent). Q16.16 throughout.</summary>
    [NativeStruct("fxs_agent")]
    [StructLayout(LayoutKind.Sequential)]
    public struct Agent
    {
        /// <summary>World units.</summary>
        public Vec2 Position;
        /// <summary>World units per tick.</summary>
        public Vec2 Velocity;
        /// <summary>Radians, (-pi, pi]; 0 faces +x.</summary>
        public int Orientation;
        /// <summary>Radians per tick.</summary>
        public int Rotation;
        /// <summary>Mass, &gt; 0.</summary>
        public int Mass;
        /// <summary>Body radius, world units.</summary>
        public int Radius;
        /// <summary>World units per tick.</summary>
        public int MaxSpeed;
        /// <summary>Most steering force per tick.</summary>
        public int MaxForce;
        /// <summary>Radians per tick.</summary>
        public int MaxRotation;
        /// <summary>Radians per tick per tick.</summary>
        public int MaxAngularAcceleration;
        /// <summary>Look-where-going turn limit, radians per tick; 0 snaps.</summary>
        public int MaxTurnRate;
        /// <summary>An <see cref="OrientationMode"/>.</summary>
        public byte OrientationMode;
    }

    /// <summary>One input command (C: fxs_command): build it with the typed constructors of
    /// <see cref="Command"/>'s static methods.</summary>
    [NativeStruct("fxs_command")]
    [StructLayout(LayoutKind.Sequential)]
    public partial struct Command
    {
        /// <summary>A <see cref="CommandType"/>.</summary>
        public byte Type;
        /// <summary>Who issued it (player, peer, script).</summary>
        public byte Source;
        /// <summary>Issue order within the source and tick.</summary>
        public ushort Sequence;
        /// <summary>Agent handle value the command acts on, or 0.</summary>
        public uint Agent;
        /// <summary>Second reference; meaning per type.</summary>
        public uint Ref;
        /// <summary>Q16.16 argument 0.</summary>
        public int Arg0;
        /// <summary>Q16.16 argument 1.</summary>
        public int Arg1;
        /// <summary>Q16.16 argument 2.</summary>
        public int Arg2;
        /// <summary>Q16.16 argument 3.</summary>
        public int Arg3;
        /// <summary>Q16.16 argument 4.</summary>
        public int Arg4;
        /// <summary>Q16.16 argument 5.</summary>
        public int Arg5;
        /// <summary>Q16.16 argument 6.</summary>
        public int Arg6;
        /// <summary>Q16.16 argument 7.</summary>
        public int Arg7;
    }

    /// <summary>World configuration (C: fxs_world_def).</summary>
    [NativeStruct("fxs_world_def")]
    [StructLayout(LayoutKind.Sequential)]
    public struct WorldDef
    {
        /// <summary>Seeds every agent's random stream.</summary>
        public ulong Seed;
        /// <summary>Lower corner of the world, world units.</summary>
        public Vec2 BoundsMin;
        /// <summary>Upper corner, world units.</summary>
        public Vec2 BoundsMax;
        /// <summary>1: agents are contained and clamped into the bounds.</summary>
        public byte ClampToBounds;
        /// <summary>Agents closer than this are neighbors.</summary>
        public int NeighborRadius;

        /// <summary>The library's default: 4096 x 4096 at the origin, seed 1, no clamping,
        /// neighbor radius 100.</summary>
        public static WorldDef Default
        {
            get {
                return NativeMethods.fxs_default_world_def();
            }
        }
    }

    /// <summary>How much a world can hold, fixed at creation (C: fxs_world_capacity).</summary>
    [NativeStruct("fxs_world_capacity")]
    [StructLayout(LayoutKind.Sequential)]
    public struct WorldCapacity
    {
        /// <summary>Agent slots.</summary>
        public uint Agents;
        /// <summary>Obstacle slots.</summary>
        public uint Obstacles;
        /// <summary>Paths.</summary>
        public uint Paths;
        /// <summary>Path nodes, all paths together.</summary>
        public uint PathNodes;
        /// <summary>Wall slots.</summary>
        public uint Walls;
        /// <summary>Most workers of a task system (0 means 1).</summary>
        public uint Workers;
        /// <summary>Flow-field cells; 0: no field.</summary>
        public uint FieldCells;
        /// <summary>Navigation grid cells; 0: no navigation.</summary>
        public uint NavCells;
        /// <summary>A* searches at once (with navigation).</summary>
        public uint NavSearches;
        /// <summary>Open-list entries of each search.</summary>
        public uint NavOpen;
        /// <summary>Waypoints of one route.</summary>
        public uint NavWaypoints;
        /// <summary>Integration fields kept for groups of navigate agents sharing a goal; 0:
        /// every navigate agent runs A*.</summary>
        public uint NavFields;
        /// <summary>How the world navigates: 0 on a grid, 1 on a navigation mesh (then
        /// NavCells and NavFields are 0).</summary>
        public uint NavKind;
        /// <summary>Vertices of a mesh world's mesh; 0 for the default (from the wall and
        /// obstacle capacities). 0 in a grid world.</summary>
        public uint NavMeshVertices;
    }

    /// <summary>One behavior of an agent's set (C: fxs_behavior_slot). P0..P5 are the
    /// parameters in the order of the library's parameter table (`fixsteer params`).</summary>
    [NativeStruct("fxs_behavior_slot")]
    [StructLayout(LayoutKind.Sequential)]
    public struct BehaviorSlot
    {
        /// <summary>A <see cref="Behavior"/>.</summary>
        public byte Kind;
        /// <summary>Manager priority or group.</summary>
        public byte Priority;
        /// <summary>Manager weight, Q16.16.</summary>
        public int Weight;
        /// <summary>Parameter 0.</summary>
        public int P0;
        /// <summary>Parameter 1.</summary>
        public int P1;
        /// <summary>Parameter 2.</summary>
        public int P2;
        /// <summary>Parameter 3.</summary>
        public int P3;
        /// <summary>Parameter 4.</summary>
        public int P4;
        /// <summary>Parameter 5.</summary>
        public int P5;

        /// <summary>A slot of <paramref name="kind"/> with weight 1, priority 0 and the
        /// library's default parameters for its default agent (radius 8, max force 0.25).</summary>
        public static BehaviorSlot Default(Behavior kind)
        {
            return NativeMethods.fxs_behavior_slot_default((int)kind);
        }

        /// <summary>A slot of <paramref name="kind"/> with weight 1, priority 0 and the
        /// library's default parameters for an agent of body radius <paramref name="radius"/>
        /// and max force <paramref name="maxForce"/> (Q16.16): length defaults in its radii,
        /// force defaults in its max forces. (C: fxs_behavior_slot_default_for)</summary>
        public static BehaviorSlot DefaultFor(Behavior kind, int radius, int maxForce)
        {
            return NativeMethods.fxs_behavior_slot_default_for((int)kind, radius, maxForce);
        }
    }

    /// <summary>What a spawn sets (C: fxs_spawn_def).</summary>
    [NativeStruct("fxs_spawn_def")]
    [StructLayout(LayoutKind.Sequential)]
    public struct SpawnDef
    {
        /// <summary>World units.</summary>
        public Vec2 Position;
        /// <summary>World units per tick; truncated to MaxSpeed.</summary>
        public Vec2 Velocity;
        /// <summary>World units per tick. Default 4.</summary>
        public int MaxSpeed;
        /// <summary>Default 0.25.</summary>
        public int MaxForce;
        /// <summary>Default 1.</summary>
        public int Mass;
        /// <summary>World units. Default 8.</summary>
        public int Radius;
        /// <summary>1: owned by the spawning command's source; 0: shared.</summary>
        public byte Owned;

        /// <summary>An agent at the origin, at rest, with the default limits.</summary>
        public static SpawnDef Default
        {
            get {
                return NativeMethods.fxs_default_spawn_def();
            }
        }
    }

    /// <summary>An agent's limits and orientation policy (C: fxs_agent_limits_def).</summary>
    [NativeStruct("fxs_agent_limits_def")]
    [StructLayout(LayoutKind.Sequential)]
    public struct AgentLimitsDef
    {
        /// <summary>World units per tick.</summary>
        public int MaxSpeed;
        /// <summary>Most steering force.</summary>
        public int MaxForce;
        /// <summary>&gt; 0.</summary>
        public int Mass;
        /// <summary>World units.</summary>
        public int Radius;
        /// <summary>Radians per tick.</summary>
        public int MaxRotation;
        /// <summary>Radians per tick per tick.</summary>
        public int MaxAngularAcceleration;
        /// <summary>Radians per tick (0: snap to the heading).</summary>
        public int MaxTurnRate;
        /// <summary>An <see cref="OrientationMode"/>.</summary>
        public int Orientation;

        /// <summary>The default agent's limits and orientation policy.</summary>
        public static AgentLimitsDef Default
        {
            get {
                return NativeMethods.fxs_default_agent_limits_def();
            }
        }
    }

    /// <summary>How a behavior joins the agent's manager (C: fxs_blend).</summary>
    [NativeStruct("fxs_blend")]
    [StructLayout(LayoutKind.Sequential)]
    public struct Blend
    {
        /// <summary>Multiplier, Q16.16, &gt;= 0. Default 1.</summary>
        public int Weight;
        /// <summary>Priority or group. Default 0.</summary>
        public byte Priority;

        /// <summary>Weight 1, priority 0.</summary>
        public static Blend Default
        {
            get {
                return NativeMethods.fxs_default_blend();
            }
        }
        /// <summary>A blend of a Q16.16 weight and a priority.</summary>
        public Blend(int weight, byte priority)
        {
            Weight = weight;
            Priority = priority;
        }
    }

    /// <summary>What separation, alignment and cohesion see (C: fxs_flocking_view).</summary>
    [NativeStruct("fxs_flocking_view")]
    [StructLayout(LayoutKind.Sequential)]
    public struct FlockingView
    {
        /// <summary>Full angle of the blind cone behind, radians Q16.16.</summary>
        public int BlindAngle;
        /// <summary>The nearest this many count, [0, 16]; 0: all.</summary>
        public uint MaxNeighbors;

        /// <summary>No blind cone, no cap.</summary>
        public static FlockingView Default
        {
            get {
                return NativeMethods.fxs_default_flocking_view();
            }
        }
    }

    /// <summary>A round obstacle (C: fxs_obstacle).</summary>
    [NativeStruct("fxs_obstacle")]
    [StructLayout(LayoutKind.Sequential)]
    public struct Obstacle
    {
        /// <summary>Centre, world units.</summary>
        public Vec2 Center;
        /// <summary>Radius, world units.</summary>
        public int Radius;
        /// <summary>An obstacle at <paramref name="center"/>.</summary>
        public Obstacle(Vec2 center, int radius)
        {
            Center = center;
            Radius = radius;
        }
    }

    /// <summary>A wall segment from A to B (C: fxs_wall).</summary>
    [NativeStruct("fxs_wall")]
    [StructLayout(LayoutKind.Sequential)]
    public struct Wall
    {
        /// <summary>One end, world units.</summary>
        public Vec2 A;
        /// <summary>The other end.</summary>
        public Vec2 B;
        /// <summary>A wall from a to b.</summary>
        public Wall(Vec2 a, Vec2 b)
        {
            A = a;
            B = b;
        }
    }

    /// <summary>What an agent steers toward (C: fxs_agent_targets).</summary>
    [NativeStruct("fxs_agent_targets")]
    [StructLayout(LayoutKind.Sequential)]
    public struct AgentTargets
    {
        /// <summary>The agent it targets; 0 for none. May be stale.</summary>
        public AgentHandle TargetAgent;
        /// <summary>Interpose's second agent; 0 for none.</summary>
        public AgentHandle SecondTarget;
        /// <summary>The target point, world units.</summary>
        public Vec2 TargetPoint;
        /// <summary>The world path it follows, or 0xFFFF.</summary>
        public ushort PathIndex;
    }

    /// <summary>An agent's behavior set as the world returns it (C: fxs_agent_behaviors);
    /// read through <see cref="World.GetBehaviors"/>.</summary>
    [NativeStruct("fxs_agent_behaviors")]
    [StructLayout(LayoutKind.Sequential)]
    internal struct AgentBehaviorsNative
    {
        public IntPtr Slots;
        public uint Count;
        public byte CombineMode;
    }

    /// <summary>What a reader of untrusted data accepts (C: fxs_limits).</summary>
    [NativeStruct("fxs_limits")]
    [StructLayout(LayoutKind.Sequential)]
    public struct Limits
    {
        /// <summary>World agent capacity.</summary>
        public uint MaxAgents;
        /// <summary>Obstacle capacity.</summary>
        public uint MaxObstacles;
        /// <summary>Path capacity.</summary>
        public uint MaxPaths;
        /// <summary>Path node capacity.</summary>
        public uint MaxPathNodes;
        /// <summary>Wall capacity.</summary>
        public uint MaxWalls;
        /// <summary>Ticks in one replay.</summary>
        public uint MaxTicks;
        /// <summary>Agent capacity x ticks simulated.</summary>
        public ulong MaxAgentTicks;
        /// <summary>Size of one replay or snapshot.</summary>
        public ulong MaxBytes;
        /// <summary>Flow-field cell capacity.</summary>
        public uint MaxFieldCells;
        /// <summary>Navigation cell capacity.</summary>
        public uint MaxNavCells;
        /// <summary>Searches x cells.</summary>
        public ulong MaxNavSearchCells;
        /// <summary>Agents x waypoints.</summary>
        public ulong MaxNavRouteCells;
        /// <summary>Integration fields x navigation cells.</summary>
        public ulong MaxNavFieldCells;

        /// <summary>The library's defaults.</summary>
        public static Limits Default
        {
            get {
                return NativeMethods.fxs_default_limits();
            }
        }
    }

    [NativeStruct("fxs_limit_error")]
    [StructLayout(LayoutKind.Sequential)]
    internal struct LimitErrorNative
    {
        public IntPtr Field;
        public ulong Limit;
        public ulong Value;
    }

    [NativeStruct("fxs_world_difference")]
    [StructLayout(LayoutKind.Sequential)]
    internal struct WorldDifferenceNative
    {
        public int Agent;
        public IntPtr Field;
        public long A;
        public long B;
    }

    [NativeStruct("fxs_verify_report")]
    [StructLayout(LayoutKind.Sequential)]
    internal struct VerifyReportNative
    {
        public int Result;
        public UIntPtr ErrorOffset;
        public LimitErrorNative LimitError;
        public uint Ticks;
        public uint FirstBadTick;
        public ulong ExpectedHash;
        public ulong ActualHash;
        public ulong FinalHash;
        public byte HasDifference;
        public uint DifferenceTick;
        public WorldDifferenceNative Difference;
    }

    [NativeStruct("fxs_replay_writer")]
    [StructLayout(LayoutKind.Sequential)]
    internal struct ReplayWriterNative
    {
        public IntPtr Write;
        public IntPtr User;
        public uint KeyframeInterval;
        public uint Ticks;
        public ulong LastHash;
        public IntPtr Scratch;
        public UIntPtr ScratchSize;
        public int Error;
    }
}
