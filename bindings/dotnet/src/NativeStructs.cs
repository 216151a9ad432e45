// The library's own objects (the world, the session), mirrored so that the binding can size
// and place them in memory it owns and read the fields the headers call readable. Their
// pointer fields point into the caller's memory block; the binding never writes them.
using System;
using System.Runtime.InteropServices;

namespace Fixsteer
{
    [NativeStruct("fxs_flow_field")]
    [StructLayout(LayoutKind.Sequential)]
    internal struct FlowFieldNative
    {
        public Vec2 Origin;
        public int CellSize;
        public uint Width;
        public uint Height;
        public IntPtr Cells;
    }

    [NativeStruct("fxs_nav_grid")]
    [StructLayout(LayoutKind.Sequential)]
    internal struct NavGridNative
    {
        public Vec2 Origin;
        public int CellSize;
        public uint Width;
        public uint Height;
        public IntPtr Cost;
    }

    [NativeStruct("fxs_nav_mesh")]
    [StructLayout(LayoutKind.Sequential)]
    internal struct NavMeshNative
    {
        public Vec2 BoundsMin;
        public Vec2 BoundsMax;
        public uint VertexCount;
        public uint VertexCapacity;
        public uint TriangleCount;
        public uint TriangleCapacity;
        public uint StepLimit;
        public uint LastSteps;
        public IntPtr Vertices;
        public IntPtr Triangles;
        public IntPtr VertexTriangle;
        public IntPtr Scratch;
        public uint ScratchWords;
    }

    [NativeStruct("fxs_world_nav")]
    [StructLayout(LayoutKind.Sequential)]
    internal struct WorldNavNative
    {
        public NavGridNative Grid;
        public IntPtr Base;
        public int Radius;
        public uint Budget;
        public uint Version;
        public IntPtr Routes;
        public IntPtr Waypoints;
        public IntPtr Searches;
        public IntPtr SearchOwner;
        public IntPtr FieldSlots;
        public IntPtr Fields;
        public IntPtr Moves;
        public NavMeshNative Mesh;
        public IntPtr Points;
        public IntPtr Goals;
        public IntPtr MeshSearches;
    }

    [NativeStruct("fxs_task_system")]
    [StructLayout(LayoutKind.Sequential)]
    internal struct TaskSystemNative
    {
        public IntPtr Enqueue;
        public IntPtr Finish;
        public uint WorkerCount;
        public IntPtr UserContext;
    }

    [NativeStruct("fxs_step_profiler")]
    [StructLayout(LayoutKind.Sequential)]
    internal struct StepProfilerNative
    {
        public IntPtr Mark;
        public IntPtr UserContext;
    }

    [NativeStruct("fxs_world")]
    [StructLayout(LayoutKind.Sequential)]
    internal struct WorldNative
    {
        public WorldDef Def;
        public WorldCapacity Capacity;
        public uint Tick;
        public ushort PathCount;
        public uint NodeCount;
        public IntPtr Agents;
        public IntPtr Obstacles;
        public IntPtr ObstacleAlive;
        public IntPtr Paths;
        public IntPtr Nodes;
        public IntPtr Walls;
        public IntPtr WallAlive;
        public FlowFieldNative Field;
        public WorldNavNative Nav;
        public uint LiveCount;
        public IntPtr Memory;
        public UIntPtr MemorySize;
        public TaskSystemNative Tasks;
        public StepProfilerNative Profiler;
        public IntPtr Internal;
    }

    /// <summary>Session configuration (C: fxs_session_def). Every peer of a session uses the
    /// same values except Local. Replay, BeforeStep and HookUser are set by
    /// <see cref="Session"/>.</summary>
    [NativeStruct("fxs_session_def")]
    [StructLayout(LayoutKind.Sequential)]
    public struct SessionDef
    {
        /// <summary>A <see cref="SessionMode"/>.</summary>
        public byte Mode;
        /// <summary>Players, 1..8.</summary>
        public byte Players;
        /// <summary>Spectators, 0..8.</summary>
        public byte Spectators;
        /// <summary>This peer's index.</summary>
        public byte Local;
        /// <summary>Packets of another id are refused.</summary>
        public uint SessionId;
        /// <summary>Input delay, ticks.</summary>
        public ushort Delay;
        /// <summary>Rollback: most ticks predicted.</summary>
        public ushort MaxPrediction;
        /// <summary>Synctest: ticks re-simulated after each step.</summary>
        public ushort SynctestTicks;
        /// <summary>Ticks kept in every ring.</summary>
        public ushort Window;
        /// <summary>Commands per player per tick.</summary>
        public ushort MaxCommands;
        /// <summary>Largest packet, bytes.</summary>
        public ushort MaxPacketBytes;
        /// <summary>Input frames per packet.</summary>
        public byte MaxPacketInputs;
        /// <summary>State hashes per packet.</summary>
        public byte MaxPacketHashes;
        /// <summary>Resend after, ms.</summary>
        public uint ResendMs;
        /// <summary>Acknowledgement delay, ms.</summary>
        public uint AckDelayMs;
        /// <summary>Keepalive period, ms.</summary>
        public uint KeepaliveMs;
        /// <summary>No tick at or beyond this is stepped (0: no end).</summary>
        public uint TickLimit;
        /// <summary>Progress window, ms (0: no bound).</summary>
        public uint ProgressWindowMs;
        /// <summary>Fewest ticks settled per progress window.</summary>
        public uint ProgressMinTicks;
        /// <summary>Rollback and synctest: bytes of one snapshot slot.</summary>
        public UIntPtr SnapshotBytes;
        /// <summary>The replay writer (set by <see cref="Session"/>).</summary>
        public IntPtr Replay;
        /// <summary>Step hook: always null from C# (no delegate in the hot path).</summary>
        public IntPtr BeforeStep;
        /// <summary>Passed to the hook.</summary>
        public IntPtr HookUser;

        /// <summary>The library's defaults (lockstep, 2 players, delay 2).</summary>
        public static SessionDef Default
        {
            get {
                return NativeMethods.fxs_default_session_def();
            }
        }
    }

    /// <summary>What the session knows of one peer (C: fxs_session_peer).</summary>
    [NativeStruct("fxs_session_peer")]
    [StructLayout(LayoutKind.Sequential)]
    public struct SessionPeer
    {
        /// <summary>Its inputs of ticks below this are here.</summary>
        public uint Received;
        /// <summary>It holds our inputs of ticks below this.</summary>
        public uint AckedInputs;
        /// <summary>Its hashes of ticks below this arrived.</summary>
        public uint HashesReceived;
        /// <summary>Its hashes of ticks below this were compared.</summary>
        public uint HashesCompared;
        /// <summary>It holds our hashes of ticks below this.</summary>
        public uint AckedHashes;
        /// <summary>The tick it last said it was at.</summary>
        public uint Tick;
        /// <summary>Time of its last accepted packet.</summary>
        public uint LastHeardMs;
        /// <summary>Time of our last packet to it.</summary>
        public uint LastSentMs;
        /// <summary>Our inputs below this went out at least once.</summary>
        public uint SentInputs;
        /// <summary>Our hashes below this went out at least once.</summary>
        public uint SentHashes;
        /// <summary>1: a packet of it was accepted.</summary>
        public byte Heard;
        /// <summary>1: a packet went to it.</summary>
        public byte Sent;
        /// <summary>1: it sent something new.</summary>
        public byte Dirty;
        /// <summary>1: EchoMs holds a send time of its.</summary>
        public byte HasEcho;
        /// <summary>1: it left and was not readmitted.</summary>
        public byte Absent;
        /// <summary>Its clock when it sent its newest packet.</summary>
        public uint EchoMs;
        /// <summary>Our clock when that packet arrived.</summary>
        public uint EchoAtMs;
        /// <summary>Smoothed round trip, ms.</summary>
        public uint RttMs;
        /// <summary>Packets written for it.</summary>
        public uint PacketsSent;
        /// <summary>Its packets accepted.</summary>
        public uint PacketsReceived;
        /// <summary>Its packets refused.</summary>
        public uint PacketsRejected;
        /// <summary>Bytes written for it.</summary>
        public ulong BytesSent;
        /// <summary>Bytes of its accepted packets.</summary>
        public ulong BytesReceived;
    }

    [NativeStruct("fxs_session_desync")]
    [StructLayout(LayoutKind.Sequential)]
    internal struct SessionDesyncNative
    {
        public byte Detected;
        public uint Tick;
        public uint Peers;
        public ulong LocalHash;
        public ulong RemoteHash0, RemoteHash1, RemoteHash2, RemoteHash3;
        public ulong RemoteHash4, RemoteHash5, RemoteHash6, RemoteHash7;
        public ulong RemoteHash8, RemoteHash9, RemoteHash10, RemoteHash11;
        public ulong RemoteHash12, RemoteHash13, RemoteHash14, RemoteHash15;
    }

    [NativeStruct("fxs_session_stats")]
    [StructLayout(LayoutKind.Sequential)]
    internal struct SessionStatsNative
    {
        public uint Stalls;
        public uint StallMs;
        public uint Rollbacks;
        public uint Resimulated;
        public uint MaxRollback;
        public uint Predicted;
        public uint Saves;
        public uint Refused0, Refused1, Refused2, Refused3, Refused4, Refused5, Refused6, Refused7;
    }

    [NativeStruct("fxs_session_refusal")]
    [StructLayout(LayoutKind.Sequential)]
    internal struct SessionRefusalNative
    {
        public byte Any;
        public uint Tick;
        public byte Player;
        public byte Type;
        public uint Agent;
        public int Result;
    }

    [NativeStruct("fxs_session_wait")]
    [StructLayout(LayoutKind.Sequential)]
    internal struct SessionWaitNative
    {
        public byte Waiting;
        public uint Tick;
        public uint Missing;
        public uint HashesMissing;
        public uint SinceMs;
        public uint WaitedMs;
        public uint SilentMs0, SilentMs1, SilentMs2, SilentMs3;
        public uint SilentMs4, SilentMs5, SilentMs6, SilentMs7;
        public uint SilentMs8, SilentMs9, SilentMs10, SilentMs11;
        public uint SilentMs12, SilentMs13, SilentMs14, SilentMs15;
    }

    [NativeStruct("fxs_session")]
    [StructLayout(LayoutKind.Sequential)]
    internal struct SessionNative
    {
        public SessionDef Def;
        public byte PeerCount;
        public uint Current;
        public uint Settled;
        public uint RollbackTo;
        public int Error;
        public byte ClockStarted;
        public uint StartMs;
        public byte Waiting;
        public uint WaitTick;
        public uint WaitSinceMs;
        public SessionPeer Peers0, Peers1, Peers2, Peers3, Peers4, Peers5, Peers6, Peers7;
        public SessionPeer Peers8, Peers9, Peers10, Peers11, Peers12, Peers13, Peers14, Peers15;
        public SessionDesyncNative Desync;
        public SessionStatsNative Stats;
        public SessionRefusalNative LastRefusal;
        public uint RefusalsThrough;
        public uint ProgressSinceMs;
        public uint ProgressSince;
        public uint StalledPeers;
        public uint JoinedAt;
        public uint Readmitted;
        public ulong MathFingerprint;
        public IntPtr Commands;
        public IntPtr Counts;
        public IntPtr Hashes;
        public IntPtr Snapshots;
        public IntPtr SnapshotTicks;
        public IntPtr SnapshotSizes;
        public IntPtr FirstHashes;
        public IntPtr Merged;
        public IntPtr Results;
        public uint SnapshotSlots;
    }

    [NativeStruct("fxs_replay_chunk")]
    [StructLayout(LayoutKind.Sequential)]
    internal struct ReplayChunkNative
    {
        public uint Tag;
        public UIntPtr Offset;
        public uint Tick;
        public ushort CommandCount;
        public IntPtr Commands;
        public ulong Hash;
        public IntPtr Snapshot;
        public UIntPtr SnapshotSize;
    }

    [NativeStruct("fxs_replay_reader")]
    [StructLayout(LayoutKind.Sequential)]
    internal struct ReplayReaderNative
    {
        public IntPtr Data;
        public UIntPtr Size;
        public UIntPtr Position;
        public ushort Version;
        public ulong Fingerprint;
        public uint KeyframeInterval;
        public uint SimulationVersion;
        public ReplayChunkNative Initial;
        public WorldCapacity Capacity;
        public Limits Limits;
        public LimitErrorNative LimitError;
        public byte Ended;
    }

    [NativeStruct("fxs_session_join_error")]
    [StructLayout(LayoutKind.Sequential)]
    internal struct SessionJoinErrorNative
    {
        public int Result;
        public uint Offer;
        public UIntPtr Offset;
    }
}
