using System;
using System.Collections.Generic;
using System.IO;
using System.Runtime.InteropServices;

namespace Fixsteer
{
    /// <summary>Marks a method that native code calls back; Unity's IL2CPP (ahead-of-time
    /// compiled) needs it on every such static method. Recognised by name.</summary>
    [AttributeUsage(AttributeTargets.Method)]
    internal sealed class MonoPInvokeCallbackAttribute : Attribute
    {
        public MonoPInvokeCallbackAttribute(Type type) {}
    }

    /// <summary>Records a world's ticks into a replay (the format `fixsteer verify` checks):
    /// the header and the initial snapshot at creation, then one <see cref="Tick"/> per
    /// stepped tick with the commands given to the step (sorted by it), then
    /// <see cref="End"/>. The bytes collect in memory.</summary>
    public sealed class ReplayRecorder : IDisposable
    {
        private static readonly NativeMethods.WriteFn WriteCallback = Write;
        private static readonly IntPtr WritePointer =
            Marshal.GetFunctionPointerForDelegate(WriteCallback);
        private static readonly int ScratchOffset = World.Offset<ReplayWriterNative>("Scratch");
        private static readonly int ScratchSizeOffset =
            World.Offset<ReplayWriterNative>("ScratchSize");
        private static readonly int ErrorOffset = World.Offset<ReplayWriterNative>("Error");

        private IntPtr writer;
        private IntPtr scratch;
        private long scratchSize;
        private GCHandle self;
        private readonly MemoryStream bytes = new MemoryStream();
        private byte[] copy = new byte[4096];
        private bool ended;
        private readonly World world; // the world recorded: every tick must come from it

        /// <summary>Begins a replay of <paramref name="world"/> as it is now, with a keyframe
        /// (a full snapshot) every <paramref name="keyframeInterval"/> ticks (0: none). The
        /// recorder takes ticks of that world only.</summary>
        public ReplayRecorder(World world, uint keyframeInterval)
        {
            Args.NotNull(world, "world");
            IntPtr w = world.NativePointer;
            this.world = world;
            WorldCapacity cap = world.Capacity;
            // The snapshot grows as agents spawn and a field is set: room for the largest it
            // can be up front (a session records from inside its own calls).
            scratchSize = World.SnapshotBound(cap);
            writer = Marshal.AllocHGlobal(Marshal.SizeOf(typeof(ReplayWriterNative)));
            scratch = Marshal.AllocHGlobal(new IntPtr(scratchSize));
            self = GCHandle.Alloc(this);
            int r = NativeMethods.fxs_replay_writer_begin(
                writer, WritePointer, GCHandle.ToIntPtr(self), w, keyframeInterval, scratch,
                new UIntPtr((ulong)scratchSize));
            if (r != 0)
            {
                Free();
                throw new FixsteerException((Result)r, "replay begin");
            }
        }

        /// <summary>The native fxs_replay_writer (for a session's definition).</summary>
        internal IntPtr NativePointer
        {
            get {
                CheckWritable();
                return writer;
            }
        }

        /// <summary>The world this recorder records.</summary>
        public World World
        {
            get {
                return world;
            }
        }

        /// <summary>True once <see cref="Dispose"/> has run: the recorder takes no more
        /// ticks.</summary>
        public bool IsDisposed
        {
            get {
                return writer == IntPtr.Zero;
            }
        }

        /// <summary>True once <see cref="End"/> has written the END chunk.</summary>
        public bool IsEnded
        {
            get {
                return ended;
            }
        }

        /// <summary>Throws unless the recorder can still take ticks.</summary>
        private void CheckWritable()
        {
            if (writer == IntPtr.Zero)
                throw new ObjectDisposedException(
                    "ReplayRecorder", "the replay recorder was disposed: it records nothing more");
            if (ended)
                throw new InvalidOperationException("the replay has ended: it records nothing more");
        }

        /// <summary>Throws unless <paramref name="w"/> is the world this recorder
        /// records.</summary>
        internal void CheckWorld(World w, string name)
        {
            Args.NotNull(w, name);
            if (!ReferenceEquals(w, world))
                throw new ArgumentException(
                    "the replay records another world (the one it was created with): a tick of " +
                        "this world would be written as that world's",
                    name);
        }

        [MonoPInvokeCallback(typeof(NativeMethods.WriteFn))]
        private static byte Write(IntPtr user, IntPtr data, UIntPtr size)
        {
            ReplayRecorder r = (ReplayRecorder)GCHandle.FromIntPtr(user).Target;
            long left = (long)(ulong)size;
            long at = 0;
            while (left > 0)
            {
                int n = (int)Math.Min(left, r.copy.Length);
                Marshal.Copy(data + (int)at, r.copy, 0, n);
                r.bytes.Write(r.copy, 0, n);
                at += n;
                left -= n;
            }
            return 1;
        }

        private void EnsureScratch(World world)
        {
            long need = world.SnapshotSize;
            if (need <= scratchSize)
                return;
            IntPtr bigger = Marshal.ReAllocHGlobal(scratch, new IntPtr(need * 2));
            scratch = bigger;
            scratchSize = need * 2;
            Marshal.WriteIntPtr(writer, ScratchOffset, scratch);
            Marshal.WriteIntPtr(writer, ScratchSizeOffset, new IntPtr(scratchSize));
        }

        /// <summary>Records one stepped tick: the commands given to <see
        /// cref="World.Step(Command[], int)"/> (sorted by it) and the state after the
        /// step.</summary>
        public void Tick(World world, Command[] commands, int count)
        {
            CheckWritable();
            CheckWorld(world, "world");
            Command.CheckCount(commands, count);
            EnsureScratch(world);
            FixsteerException.Check(NativeMethods.fxs_replay_writer_tick(
                                        writer, world.NativePointer, commands, (uint)count),
                                    "replay tick " + (world.Tick - 1));
        }

        /// <summary>Records one stepped tick from a snapshot of the state after it
        /// (<see cref="World.Save()"/> of the world at tick + 1) instead of the world itself,
        /// for a caller whose world has already stepped further. A snapshot of a world of
        /// other capacities than the recorded one is refused.</summary>
        public void TickSaved(uint tick, byte[] snapshot, Command[] commands, int count)
        {
            CheckWritable();
            Args.NotNull(snapshot, "snapshot");
            Command.CheckCount(commands, count);
            WorldCapacity have = World.SnapshotCapacity(snapshot), want = world.Capacity;
            if (!have.Equals(want))
                throw new ArgumentException(
                    "the snapshot is of a world of other capacities (" + have.Agents +
                        " agents) than the recorded one (" + want.Agents + " agents)",
                    "snapshot");
            if (snapshot.Length > scratchSize)
            {
                scratch = Marshal.ReAllocHGlobal(scratch, new IntPtr(snapshot.Length * 2L));
                scratchSize = snapshot.Length * 2L;
                Marshal.WriteIntPtr(writer, ScratchOffset, scratch);
                Marshal.WriteIntPtr(writer, ScratchSizeOffset, new IntPtr(scratchSize));
            }
            FixsteerException.Check(NativeMethods.fxs_replay_writer_tick_saved(
                                        writer, tick, snapshot, new UIntPtr((ulong)snapshot.Length),
                                        commands, (uint)count),
                                    "replay tick " + tick);
        }

        /// <summary>Writes the END chunk and returns the whole replay.</summary>
        public byte[] End(World world)
        {
            CheckWritable();
            CheckWorld(world, "world");
            FixsteerException.Check(
                NativeMethods.fxs_replay_writer_end(writer, world.NativePointer), "replay end");
            ended = true;
            return bytes.ToArray();
        }

        /// <summary>The first failure of the writer (a session records through it).</summary>
        public Result Error
        {
            get {
                if (writer == IntPtr.Zero)
                    throw new ObjectDisposedException("ReplayRecorder");
                return (Result)Marshal.ReadInt32(writer, ErrorOffset);
            }
        }

        /// <summary>The bytes written so far.</summary>
        public byte[] ToArray() { return bytes.ToArray(); }

        private void Free()
        {
            if (writer != IntPtr.Zero)
                Marshal.FreeHGlobal(writer);
            writer = IntPtr.Zero;
            if (scratch != IntPtr.Zero)
                Marshal.FreeHGlobal(scratch);
            scratch = IntPtr.Zero;
            if (self.IsAllocated)
                self.Free();
        }

        /// <summary>Frees the writer's memory (the bytes stay readable).</summary>
        public void Dispose()
        {
            Free();
            GC.SuppressFinalize(this);
        }

        /// <summary>Frees the memory of a recorder that was not disposed.</summary>
        ~ReplayRecorder() { Free(); }
    }

    /// <summary>What <see cref="Replay.Verify(byte[])"/> found.</summary>
    public sealed class VerifyReport
    {
        /// <summary>Ok, a divergence (see <see cref="Diverged"/>) or a format or limit
        /// error.</summary>
        public Result Result;
        /// <summary>The library's message for Result.</summary>
        public string Message;
        /// <summary>True when the recording and the re-simulation disagree.</summary>
        public bool Diverged;
        /// <summary>Byte offset of a format error, or of the diverging chunk.</summary>
        public long ErrorOffset;
        /// <summary>After Result.Limit: the fxs_limits field that was exceeded.</summary>
        public string LimitField;
        /// <summary>Ticks re-simulated.</summary>
        public uint Ticks;
        /// <summary>The tick of the first divergence.</summary>
        public uint FirstBadTick;
        /// <summary>Recorded hash there.</summary>
        public ulong ExpectedHash;
        /// <summary>Re-simulated hash there.</summary>
        public ulong ActualHash;
        /// <summary>Hash after the last tick re-simulated.</summary>
        public ulong FinalHash;
        /// <summary>A keyframe after the divergence named a field: its name, or null.</summary>
        public string DifferenceField;
        /// <summary>The slot of the agent that differs, or -1.</summary>
        public int DifferenceAgent;
        /// <summary>The keyframe's tick.</summary>
        public uint DifferenceTick;

        /// <summary>True when the replay verified.</summary>
        public bool Ok
        {
            get {
                return Result == Result.Ok;
            }
        }

        /// <summary>One line: "120 ticks verified, final hash 0x..." or what failed and
        /// where.</summary>
        public override string ToString()
        {
            if (Ok)
                return Ticks + " ticks verified, final hash 0x" + FinalHash.ToString("x16");
            string s = Message + " (tick " + FirstBadTick + ", byte " + ErrorOffset + ")";
            if (LimitField != null)
                s += ", limit " + LimitField;
            if (DifferenceField != null)
                s += ", agent " + DifferenceAgent + " field " + DifferenceField;
            return s;
        }
    }

    /// <summary>One recorded tick: its commands (in the order they were applied) and the
    /// state hash after it.</summary>
    public sealed class ReplayTick
    {
        /// <summary>The tick (the world's tick before it was stepped).</summary>
        public uint Tick;
        /// <summary>The state hash after the tick.</summary>
        public ulong Hash;
        /// <summary>The tick's commands.</summary>
        public Command[] Commands;
    }

    /// <summary>A replay read chunk by chunk (<see cref="Replay.Read(byte[])"/>).</summary>
    public sealed class ReplayContents
    {
        /// <summary>Format version.</summary>
        public ushort Version;
        /// <summary>The math fingerprint of the machine that recorded it.</summary>
        public ulong Fingerprint;
        /// <summary>A keyframe every this many ticks (0: none).</summary>
        public uint KeyframeInterval;
        /// <summary>The simulation version of the machine that recorded it (0: format 2 or
        /// 3, recorded before simulation versions existed).</summary>
        public uint SimulationVersion;
        /// <summary>The capacities of the recorded world.</summary>
        public WorldCapacity Capacity;
        /// <summary>The state at the start: <see cref="World.FromSnapshot"/> makes the
        /// world.</summary>
        public byte[] InitialSnapshot;
        /// <summary>Every tick, in order.</summary>
        public List<ReplayTick> Ticks = new List<ReplayTick>();
        /// <summary>The keyframes' ticks and snapshots.</summary>
        public List<KeyValuePair<uint, byte[]>> Keyframes = new List<KeyValuePair<uint, byte[]>>();
        /// <summary>The END chunk's tick count.</summary>
        public uint EndTicks;
        /// <summary>The END chunk's final hash.</summary>
        public ulong EndHash;
    }

    /// <summary>Replays: reading and verification (recording: <see
    /// cref="ReplayRecorder"/>).</summary>
    public static class Replay
    {
        /// <summary>Reads every chunk of a replay within the default limits, checking the
        /// format (magic, version, checksums, lengths, sequence) but not re-simulating it.
        /// Throws naming the byte offset of the first fault.</summary>
        public static ReplayContents Read(byte[] data) { return Read(data, Limits.Default, true); }

        /// <summary>Read within <paramref name="limits"/>; with
        /// <paramref name="checkFingerprint"/>, a replay recorded with other math or by
        /// another simulation version is refused.</summary>
        public static ReplayContents Read(byte[] data, Limits limits, bool checkFingerprint)
        {
            if (data == null)
                throw new ArgumentNullException("data");
            GCHandle pin = GCHandle.Alloc(data, GCHandleType.Pinned);
            IntPtr reader = Marshal.AllocHGlobal(Marshal.SizeOf(typeof(ReplayReaderNative)));
            try
            {
                UIntPtr at;
                int r = NativeMethods.fxs_replay_open(
                    reader, pin.AddrOfPinnedObject(), new UIntPtr((ulong)data.Length),
                    (byte)(checkFingerprint ? 1 : 0), ref limits, out at);
                FixsteerException.Check(r, "replay header at byte " + (ulong)at);
                ReplayReaderNative n =
                    (ReplayReaderNative)Marshal.PtrToStructure(reader, typeof(ReplayReaderNative));
                ReplayContents c = new ReplayContents();
                c.Version = n.Version;
                c.Fingerprint = n.Fingerprint;
                c.KeyframeInterval = n.KeyframeInterval;
                c.SimulationVersion = n.SimulationVersion;
                c.Capacity = n.Capacity;
                c.InitialSnapshot = Copy(n.Initial.Snapshot, n.Initial.SnapshotSize);
                byte[] encoded = new byte[Command.EncodedBytes];
                for (;;)
                {
                    ReplayChunkNative chunk;
                    r = NativeMethods.fxs_replay_next(reader, out chunk, out at);
                    FixsteerException.Check(r, "replay chunk at byte " + (ulong)at);
                    if (chunk.Tag == 0x4B434954u) // TICK
                    {
                        ReplayTick t = new ReplayTick();
                        t.Tick = chunk.Tick;
                        t.Hash = chunk.Hash;
                        t.Commands = new Command[chunk.CommandCount];
                        for (int i = 0; i < t.Commands.Length; i++)
                        {
                            Marshal.Copy(chunk.Commands + i * Command.EncodedBytes, encoded, 0,
                                         encoded.Length);
                            t.Commands[i] = Command.Decode(encoded);
                        }
                        c.Ticks.Add(t);
                    }
                    else if (chunk.Tag == 0x4659454Bu) // KEYF
                    {
                        c.Keyframes.Add(new KeyValuePair<uint, byte[]>(
                            chunk.Tick, Copy(chunk.Snapshot, chunk.SnapshotSize)));
                    }
                    else if (chunk.Tag == 0x20444E45u) // END
                    {
                        c.EndTicks = chunk.Tick;
                        c.EndHash = chunk.Hash;
                        return c;
                    }
                }
            }
            finally
            {
                Marshal.FreeHGlobal(reader);
                pin.Free();
            }
        }

        private static byte[] Copy(IntPtr p, UIntPtr size)
        {
            byte[] o = new byte[(long)(ulong)size];
            if (o.Length > 0)
                Marshal.Copy(p, o, 0, o.Length);
            return o;
        }

        /// <summary>Re-simulates <paramref name="data"/> from its initial snapshot and checks
        /// every tick's hash, every keyframe and the END chunk, within the default
        /// limits.</summary>
        public static VerifyReport Verify(byte[] data) { return Verify(data, Limits.Default); }

        /// <summary>Verify within <paramref name="limits"/>.</summary>
        public static VerifyReport Verify(byte[] data, Limits limits)
        {
            if (data == null)
                throw new ArgumentNullException("data");
            UIntPtr size = new UIntPtr((ulong)data.Length);
            ulong memorySize =
                (ulong)NativeMethods.fxs_replay_verify_memory_size(data, size, ref limits);
            IntPtr memory =
                memorySize == 0 ? IntPtr.Zero : Marshal.AllocHGlobal(new IntPtr((long)memorySize));
            try
            {
                VerifyReportNative n;
                NativeMethods.fxs_replay_verify(data, size, ref limits, memory,
                                                new UIntPtr(memorySize), out n);
                VerifyReport r = new VerifyReport();
                r.Result = (Result)n.Result;
                r.Message = Library.Message(r.Result);
                r.Diverged = NativeMethods.fxs_verify_diverged(n.Result) != 0;
                r.ErrorOffset = (long)(ulong)n.ErrorOffset;
                r.LimitField = n.LimitError.Field == IntPtr.Zero
                                   ? null
                                   : Marshal.PtrToStringAnsi(n.LimitError.Field);
                r.Ticks = n.Ticks;
                r.FirstBadTick = n.FirstBadTick;
                r.ExpectedHash = n.ExpectedHash;
                r.ActualHash = n.ActualHash;
                r.FinalHash = n.FinalHash;
                r.DifferenceAgent = -1;
                if (n.HasDifference != 0)
                {
                    r.DifferenceField = Marshal.PtrToStringAnsi(n.Difference.Field);
                    r.DifferenceAgent = n.Difference.Agent;
                    r.DifferenceTick = n.DifferenceTick;
                }
                return r;
            }
            finally
            {
                if (memory != IntPtr.Zero)
                    Marshal.FreeHGlobal(memory);
            }
        }
    }
}
