using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;

namespace Fixsteer
{
    /// <summary>An agent's behavior set as the world holds it.</summary>
    public sealed class BehaviorSet
    {
        /// <summary>How the behaviors combine.</summary>
        public CombineMode CombineMode;
        /// <summary>The behaviors, in order.</summary>
        public BehaviorSlot[] Slots;
    }

    /// <summary>A lockstep world: agents with behavior sets, obstacles, walls and paths in one
    /// block of memory the world owns (unmanaged, or a byte array the caller hands over,
    /// pinned for the world's life). Each <see cref="Step(Command[], int)"/> applies a tick's
    /// commands in canonical order and moves every agent; <see cref="Hash"/> names the whole
    /// state in 64 bits, equal on every machine that was fed the same commands.</summary>
    /// <remarks>Not thread-safe: one thread steps a world. Dispose it (or use `using`) to
    /// free its memory at once; the finalizer frees it otherwise.</remarks>
    public sealed class World : IDisposable
    {
        private static readonly int TickOffset = Offset<WorldNative>("Tick");
        private static readonly int DefOffset = Offset<WorldNative>("Def");
        private static readonly int CapacityOffset = Offset<WorldNative>("Capacity");

        private IntPtr world;    // the fxs_world struct, unmanaged
        private IntPtr block;    // the world's memory block when the binding allocated it
        private GCHandle pinned; // the caller's array when it gave one

        internal static int Offset<T>(string field)
        {
            return (int)Marshal.OffsetOf(typeof(T), field);
        }

        /// <summary>Bytes of memory a world of these capacities needs; throws for a capacity
        /// above its limit.</summary>
        public static long MemorySize(WorldCapacity capacity)
        {
            ulong size = (ulong)NativeMethods.fxs_world_memory_size(ref capacity);
            if (size == 0)
                throw new FixsteerException(Result.BadValue, "world capacity");
            return (long)size;
        }

        /// <summary>A world of <paramref name="def"/> and <paramref name="capacity"/>, its
        /// memory allocated unmanaged (<see cref="MemorySize"/> bytes).</summary>
        public World(WorldDef def, WorldCapacity capacity) : this(def, capacity, null) {}

        /// <summary>A world laid out in <paramref name="memory"/> (at least
        /// <see cref="MemorySize"/> + 8 bytes), pinned until the world is disposed. With null,
        /// the world allocates its memory itself.</summary>
        public World(WorldDef def, WorldCapacity capacity, byte[] memory)
        {
            FixsteerException.Check(NativeMethods.fxs_world_def_check(ref def), "world definition");
            long size = MemorySize(capacity);
            world = Marshal.AllocHGlobal(Marshal.SizeOf(typeof(WorldNative)));
            try
            {
                IntPtr start;
                if (memory == null)
                {
                    block = Marshal.AllocHGlobal(new IntPtr(size + 8));
                    start = Align8(block);
                }
                else
                {
                    if (memory.LongLength < size + 8)
                        throw new ArgumentException("the world needs " + (size + 8) +
                                                        " bytes, the array has " +
                                                        memory.LongLength,
                                                    "memory");
                    pinned = GCHandle.Alloc(memory, GCHandleType.Pinned);
                    start = Align8(pinned.AddrOfPinnedObject());
                }
                FixsteerException.Check(NativeMethods.fxs_world_init(world, ref def, ref capacity,
                                                                     start,
                                                                     new UIntPtr((ulong)size)),
                                        "world init");
            }
            catch
            {
                Free();
                throw;
            }
        }

        private static IntPtr Align8(IntPtr p)
        {
            long v = p.ToInt64();
            return new IntPtr((v + 7) & ~7L);
        }

        /// <summary>The native fxs_world pointer, for calls this binding does not wrap.</summary>
        public IntPtr NativePointer
        {
            get {
                CheckAlive();
                return world;
            }
        }

        private void CheckAlive()
        {
            if (world == IntPtr.Zero)
                throw new ObjectDisposedException("World");
        }

        /// <summary>Ticks stepped so far.</summary>
        public uint Tick
        {
            get {
                CheckAlive();
                return (uint)Marshal.ReadInt32(world, TickOffset);
            }
        }

        /// <summary>The world's configuration.</summary>
        public WorldDef Def
        {
            get {
                CheckAlive();
                return (WorldDef)Marshal.PtrToStructure(world + DefOffset, typeof(WorldDef));
            }
        }

        /// <summary>The world's capacities.</summary>
        public WorldCapacity Capacity
        {
            get {
                CheckAlive();
                return (WorldCapacity)Marshal.PtrToStructure(world + CapacityOffset,
                                                             typeof(WorldCapacity));
            }
        }

        /// <summary>The simulation version whose rules the world steps by, from
        /// <see cref="Library.OldestSimulationVersion"/> to <see cref="Library.SimulationVersion"/>
        /// (a new world has the latest). Not state: neither hashed nor in a snapshot. Setting a
        /// version this build does not run throws (SimulationVersion).</summary>
        public uint SimulationVersion
        {
            get {
                CheckAlive();
                return NativeMethods.fxs_world_simulation_version(world);
            }
            set {
                CheckAlive();
                FixsteerException.Check(NativeMethods.fxs_world_set_simulation_version(world, value),
                                        "simulation version");
            }
        }

        /// <summary>Live agents.</summary>
        public int AgentCount
        {
            get {
                CheckAlive();
                return (int)NativeMethods.fxs_world_agent_count(world);
            }
        }

        /// <summary>The 64-bit state hash: equal on every peer fed the same commands.</summary>
        public ulong Hash
        {
            get {
                CheckAlive();
                return NativeMethods.fxs_world_hash(world);
            }
        }

        /// <summary>Adds a path of <paramref name="nodes"/> (copied) and returns its index.
        /// Paths are configuration: add them before recording or starting a session.</summary>
        public ushort AddPath(Vec2[] nodes, PathMode mode, int radius)
        {
            CheckAlive();
            Args.NotNull(nodes, "nodes");
            if (nodes.Length > 0xFFFF)
                throw new ArgumentException("a path has at most 65535 nodes, not " + nodes.Length,
                                            "nodes");
            ushort index;
            FixsteerException.Check(NativeMethods.fxs_world_add_path(world, nodes,
                                                                     (ushort)nodes.Length,
                                                                     (int)mode, radius, out index),
                                    "add path");
            return index;
        }

        /// <summary>Applies one command now; returns the spawned agent's handle for a spawn
        /// (else None). Throws, changing nothing, when the world refuses it.</summary>
        public AgentHandle Apply(Command command)
        {
            AgentHandle spawned;
            Result r = TryApply(command, out spawned);
            if (r != Result.Ok)
                throw new FixsteerException(r, "apply " + command.Name);
            return spawned;
        }

        /// <summary>Applies one command now and returns the world's verdict.</summary>
        public Result TryApply(Command command, out AgentHandle spawned)
        {
            CheckAlive();
            return (Result)NativeMethods.fxs_world_apply(world, ref command, out spawned);
        }

        /// <summary>One tick with no commands.</summary>
        public void Step() { Step(null, 0); }

        /// <summary>One tick: sorts commands[0..count) into canonical order in place, applies
        /// them, then steers and moves every agent. The tick is stepped whatever the commands
        /// did; the result is Ok when every command applied, else the first refusal (in
        /// canonical order). Allocates nothing. commands may be null when count is 0.</summary>
        public Result Step(Command[] commands, int count) { return Step(commands, count, null); }

        /// <summary><see cref="Step(Command[], int)"/>, with each command's outcome (in sorted
        /// order) in results[0..count) as Result values (results null: not written).</summary>
        public Result Step(Command[] commands, int count, int[] results)
        {
            CheckAlive();
            Command.CheckCount(commands, count);
            if (results != null && results.Length < count)
                throw new ArgumentException("results has " + results.Length +
                                                " entries, shorter than count " + count,
                                            "results");
            return (Result)NativeMethods.fxs_world_step(world, commands, (uint)count, results);
        }

        /// <summary>The agent a handle names; false when the handle is stale.</summary>
        public bool TryGetAgent(AgentHandle handle, out Agent agent)
        {
            CheckAlive();
            IntPtr p = NativeMethods.fxs_world_agent(world, handle);
            if (p == IntPtr.Zero)
            {
                agent = default(Agent);
                return false;
            }
            agent = (Agent)Marshal.PtrToStructure(p, typeof(Agent));
            return true;
        }

        /// <summary>The agent a handle names; throws for a stale handle.</summary>
        public Agent GetAgent(AgentHandle handle)
        {
            Agent a;
            if (!TryGetAgent(handle, out a))
                throw new FixsteerException(Result.StaleHandle, "agent " + handle);
            return a;
        }

        /// <summary>The source that owns the agent (0..255), or 0xFFFF when it is shared.</summary>
        public uint GetOwner(AgentHandle handle)
        {
            CheckAlive();
            uint owner;
            FixsteerException.Check(NativeMethods.fxs_world_agent_owner(world, handle, out owner),
                                    "owner of agent " + handle);
            return owner;
        }

        /// <summary>What the agent steers toward.</summary>
        public AgentTargets GetTargets(AgentHandle handle)
        {
            CheckAlive();
            AgentTargets t;
            FixsteerException.Check(NativeMethods.fxs_world_agent_targets(world, handle, out t),
                                    "targets of agent " + handle);
            return t;
        }

        /// <summary>The agent's behavior set (copied).</summary>
        public BehaviorSet GetBehaviors(AgentHandle handle)
        {
            CheckAlive();
            AgentBehaviorsNative b;
            FixsteerException.Check(NativeMethods.fxs_world_agent_behaviors(world, handle, out b),
                                    "behaviors of agent " + handle);
            BehaviorSet set = new BehaviorSet();
            set.CombineMode = (CombineMode)b.CombineMode;
            set.Slots = new BehaviorSlot[b.Count];
            int size = Marshal.SizeOf(typeof(BehaviorSlot));
            for (int i = 0; i < set.Slots.Length; i++)
                set.Slots[i] =
                    (BehaviorSlot)Marshal.PtrToStructure(b.Slots + i * size, typeof(BehaviorSlot));
            return set;
        }

        /// <summary>The handle of the live agent in slot <paramref name="index"/>, or
        /// None.</summary>
        public AgentHandle HandleAt(uint index)
        {
            CheckAlive();
            return NativeMethods.fxs_world_handle_at(world, index);
        }

        /// <summary>The live agents' handles in slot order.</summary>
        public List<AgentHandle> Agents()
        {
            List<AgentHandle> list = new List<AgentHandle>(AgentCount);
            uint slots = Capacity.Agents;
            for (uint i = 0; i < slots; i++)
            {
                AgentHandle h = HandleAt(i);
                if (h.IsSome)
                    list.Add(h);
            }
            return list;
        }

        /// <summary>The handles the next spawns will get, in the order they are applied
        /// (fewer when the world runs out of slots). count is 0..the agent capacity (no tick
        /// can spawn more): anything else throws before any memory is allocated.</summary>
        public AgentHandle[] NextSpawnHandles(int count)
        {
            CheckAlive();
            uint agents = Capacity.Agents;
            if (count < 0 || (uint)count > agents)
                throw new ArgumentOutOfRangeException(
                    "count", count, "count must be 0.." + agents + " (the world's agent capacity " +
                                        agents + ")");
            AgentHandle[] o = new AgentHandle[count];
            uint n = NativeMethods.fxs_world_next_spawn_handles(world, (uint)count, o);
            if (n < o.Length)
                Array.Resize(ref o, (int)n);
            return o;
        }

        /// <summary>Bytes <see cref="Save()"/> writes for the current state.</summary>
        public int SnapshotSize
        {
            get {
                CheckAlive();
                return checked((int)(ulong)NativeMethods.fxs_world_snapshot_size(world));
            }
        }

        /// <summary>The state as bytes (the snapshot a replay keyframe holds).</summary>
        public byte[] Save()
        {
            byte[] buffer = new byte[SnapshotSize];
            int n = Save(buffer);
            if (n != buffer.Length)
                Array.Resize(ref buffer, n);
            return buffer;
        }

        /// <summary>Writes the state into <paramref name="buffer"/> and returns the bytes
        /// written (no allocation: for a rollback ring). Throws when it does not fit.</summary>
        public int Save(byte[] buffer)
        {
            CheckAlive();
            Args.NotNull(buffer, "buffer");
            UIntPtr written;
            FixsteerException.Check(NativeMethods.fxs_world_save(world, buffer,
                                                                 new UIntPtr((ulong)buffer.Length),
                                                                 out written),
                                    "save");
            return (int)(ulong)written;
        }

        /// <summary>Replaces the state with a snapshot taken of a world of the same
        /// capacities. On failure the world is unchanged and the exception names the byte
        /// offset.</summary>
        public void Restore(byte[] snapshot)
        {
            Args.NotNull(snapshot, "snapshot");
            Restore(snapshot, snapshot.Length);
        }

        /// <summary>Restores from snapshot[0..length).</summary>
        public void Restore(byte[] snapshot, int length)
        {
            CheckAlive();
            Args.NotNull(snapshot, "snapshot");
            Args.Count(snapshot, length, "snapshot");
            UIntPtr offset;
            int r = NativeMethods.fxs_world_restore(world, snapshot, new UIntPtr((ulong)length),
                                                    out offset);
            FixsteerException.Check(r, "restore at byte " + (ulong)offset);
        }

        /// <summary>True when <paramref name="snapshot"/> is exactly what Save would write
        /// now.</summary>
        public bool MatchesSnapshot(byte[] snapshot)
        {
            CheckAlive();
            Args.NotNull(snapshot, "snapshot");
            UIntPtr mismatch;
            return NativeMethods.fxs_world_matches_snapshot(
                       world, snapshot, new UIntPtr((ulong)snapshot.Length), out mismatch) != 0;
        }

        /// <summary>A world of the capacities a snapshot was taken with, in the snapshot's
        /// state (its definition, paths, agents, tick): the start of a replay's re-simulation,
        /// or a late joiner's copy.</summary>
        public static World FromSnapshot(byte[] snapshot)
        {
            Args.NotNull(snapshot, "snapshot");
            World w = new World(WorldDef.Default, SnapshotCapacity(snapshot));
            try
            {
                w.Restore(snapshot);
            }
            catch
            {
                w.Dispose();
                throw;
            }
            return w;
        }

        /// <summary>The most bytes <see cref="Save(byte[])"/> can need for a world of these
        /// capacities, whatever its state: the size of a buffer that never runs out. Throws
        /// when the bound does not fit a byte array.</summary>
        public static int SnapshotBound(WorldCapacity capacity)
        {
            ulong bound = (ulong)NativeMethods.fxs_world_snapshot_bound(ref capacity);
            if (bound > int.MaxValue)
                throw new OverflowException("the snapshot bound of these capacities, " + bound +
                                            " bytes, does not fit a byte array");
            return (int)bound;
        }

        /// <summary>The capacities a snapshot was taken with (to size the world that restores
        /// it).</summary>
        public static WorldCapacity SnapshotCapacity(byte[] snapshot)
        {
            Args.NotNull(snapshot, "snapshot");
            WorldCapacity c;
            FixsteerException.Check(NativeMethods.fxs_snapshot_capacity(
                                        snapshot, new UIntPtr((ulong)snapshot.Length), out c),
                                    "snapshot capacity");
            return c;
        }

        private void Free()
        {
            if (world != IntPtr.Zero)
                Marshal.FreeHGlobal(world);
            world = IntPtr.Zero;
            if (block != IntPtr.Zero)
                Marshal.FreeHGlobal(block);
            block = IntPtr.Zero;
            if (pinned.IsAllocated)
                pinned.Free();
        }

        /// <summary>Frees the world's memory; the world is unusable afterwards.</summary>
        public void Dispose()
        {
            Free();
            GC.SuppressFinalize(this);
        }

        /// <summary>Frees the memory of a world that was not disposed.</summary>
        ~World() { Free(); }
    }
}
