using System;
using System.Runtime.InteropServices;

namespace Fixsteer
{
    /// <summary>The first tick whose state hashes differ between this peer and others.</summary>
    public sealed class SessionDesync
    {
        /// <summary>The first tick (the state after stepping it) that differs.</summary>
        public uint Tick;
        /// <summary>Bit q set: peer q's hash of that tick differs from ours.</summary>
        public uint Peers;
        /// <summary>Our hash of that tick.</summary>
        public ulong LocalHash;
    }

    /// <summary>Why <see cref="Session.Advance"/> waits.</summary>
    public struct SessionWait
    {
        /// <summary>The last advance waited.</summary>
        public bool Waiting;
        /// <summary>The tick whose inputs are missing.</summary>
        public uint Tick;
        /// <summary>Bit p set: player p's input for Tick has not arrived.</summary>
        public uint Missing;
        /// <summary>Bit q set: peer q still owes a hash comparison or acknowledgement.</summary>
        public uint HashesMissing;
        /// <summary>How long the wait has lasted, ms.</summary>
        public uint WaitedMs;
    }

    /// <summary>A lockstep, rollback or synctest session (1 to 8 players, up to 8
    /// spectators) driving the caller's <see cref="World"/>: the caller submits the local
    /// player's commands, calls <see cref="Advance"/> every frame with its clock, and moves
    /// the packets <see cref="PollSend(byte, uint)"/> writes and <see cref="Receive"/> takes
    /// through any transport. The session does no I/O and reads no clock.</summary>
    public sealed class Session : IDisposable
    {
        private static readonly int CurrentOffset = World.Offset<SessionNative>("Current");
        private static readonly int SettledOffset = World.Offset<SessionNative>("Settled");
        private static readonly int ErrorOffset = World.Offset<SessionNative>("Error");
        private static readonly int PeersOffset = World.Offset<SessionNative>("Peers0");
        private static readonly int JoinedAtOffset = World.Offset<SessionNative>("JoinedAt");
        private static readonly int PeerSize = Marshal.SizeOf(typeof(SessionPeer));

        private IntPtr session;
        private IntPtr memory;
        private readonly SessionDef def;
        private readonly ReplayRecorder replay; // kept alive while the session writes through it
        private readonly byte[] packet;
        private World stepped; // the world this session steps: the join's, or the first advanced

        /// <summary>A session of <paramref name="def"/> starting at tick 0 (the world must be at
        /// tick 0 and the same on every peer). With <paramref name="replay"/>, begun on that
        /// world, every settled tick is recorded into it: <see cref="Advance"/> then takes that
        /// world only, and throws once the recorder is disposed or ended. Throws for a bad
        /// definition, or a recorder already disposed or ended.</summary>
        public Session(SessionDef def, ReplayRecorder replay) : this(def, replay, null, null) {}

        /// <summary>A session without a replay.</summary>
        public Session(SessionDef def) : this(def, null, null, null) {}

        /// <summary>Starts a session mid-match, as peer def.Local, from the join offers of the
        /// other peers (<see cref="WriteOffer"/>): exactly one carries the state, which is
        /// taken into <paramref name="world"/> (created with the match's definition and
        /// capacity, paths added) only when the other offers' hashes agree with it. Throws
        /// naming the offer and the byte at fault. Mark the peers that are away with
        /// <see cref="PeerLeft"/> right after.</summary>
        public static Session Join(SessionDef def, World world, byte[][] offers)
        {
            Args.NotNull(world, "world");
            Args.NotNull(offers, "offers");
            if (offers.Length == 0)
                throw new ArgumentException("no offers", "offers");
            for (int i = 0; i < offers.Length; i++)
                if (offers[i] == null)
                    throw new ArgumentNullException("offers", "offer " + i + " is null");
            if (world.NativePointer == IntPtr.Zero) // a disposed world throws, before anything
                throw new ObjectDisposedException("World");
            return new Session(def, null, world, offers);
        }

        private Session(SessionDef def, ReplayRecorder replay, World joinWorld, byte[][] offers)
        {
            def.Replay = replay == null ? IntPtr.Zero : replay.NativePointer;
            def.BeforeStep = IntPtr.Zero;
            def.HookUser = IntPtr.Zero;
            FixsteerException.Check(NativeMethods.fxs_session_def_check(ref def),
                                    "session definition");
            ulong size = (ulong)NativeMethods.fxs_session_memory_size(ref def);
            if (size == 0)
                throw new FixsteerException(Result.BadValue, "session definition");
            this.def = def;
            this.replay = replay;
            packet = new byte[def.MaxPacketBytes];
            session = Marshal.AllocHGlobal(Marshal.SizeOf(typeof(SessionNative)));
            memory = Marshal.AllocHGlobal(new IntPtr((long)size + 8));
            IntPtr start = new IntPtr((memory.ToInt64() + 7) & ~7L);
            if (offers == null)
            {
                int r = NativeMethods.fxs_session_init(session, ref def, start, new UIntPtr(size));
                if (r != 0)
                {
                    Free();
                    throw new FixsteerException((Result)r, "session init");
                }
                return;
            }
            GCHandle[] pins = new GCHandle[offers.Length];
            try
            {
                IntPtr[] pointers = new IntPtr[offers.Length];
                UIntPtr[] lengths = new UIntPtr[offers.Length];
                for (int i = 0; i < offers.Length; i++)
                {
                    pins[i] = GCHandle.Alloc(offers[i], GCHandleType.Pinned);
                    pointers[i] = pins[i].AddrOfPinnedObject();
                    lengths[i] = new UIntPtr((ulong)offers[i].Length);
                }
                SessionJoinErrorNative e;
                int r = NativeMethods.fxs_session_join(session, ref def, start, new UIntPtr(size),
                                                       joinWorld.NativePointer, pointers, lengths,
                                                       (uint)offers.Length, out e);
                GC.KeepAlive(joinWorld);
                stepped = joinWorld;
                if (r != 0)
                {
                    Free();
                    throw new FixsteerException((Result)r, "join: offer " + e.Offer + ", byte " +
                                                               (ulong)e.Offset);
                }
            }
            finally
            {
                foreach (GCHandle h in pins)
                    if (h.IsAllocated)
                        h.Free();
            }
        }

        /// <summary>This peer's join offer for peer <paramref name="joiner"/> (a late
        /// spectator, or a player coming back): the input frames it holds, its last state
        /// hashes and, when <paramref name="world"/> is not null, the state at the start of its
        /// first unsettled tick (one peer sends the state; the others pass null).</summary>
        public byte[] WriteOffer(World world, byte joiner)
        {
            CheckPeer(joiner, "joiner");
            IntPtr w = world == null ? IntPtr.Zero : world.NativePointer;
            UIntPtr need;
            FixsteerException.Check(
                NativeMethods.fxs_session_write_offer(Ptr, w, joiner, null, UIntPtr.Zero, out need),
                "offer for peer " + joiner);
            byte[] o = new byte[(long)(ulong)need];
            UIntPtr len;
            FixsteerException.Check(NativeMethods.fxs_session_write_offer(
                                        Ptr, w, joiner, o, new UIntPtr((ulong)o.Length), out len),
                                    "offer for peer " + joiner);
            GC.KeepAlive(world);
            if ((long)(ulong)len != o.Length)
                Array.Resize(ref o, (int)(ulong)len);
            return o;
        }

        /// <summary>Marks a peer that disconnected: nothing is sent to it and no tick waits
        /// for its hashes (a player's input is still waited for).</summary>
        public void PeerLeft(byte peer)
        {
            CheckPeer(peer, "peer");
            FixsteerException.Check(NativeMethods.fxs_session_peer_left(Ptr, peer),
                                    "peer " + peer + " left");
        }

        /// <summary>Takes back a peer that joined at <paramref name="tick"/> (the tick its
        /// session started at, which it announces).</summary>
        public void Readmit(byte peer, uint tick)
        {
            CheckPeer(peer, "peer");
            FixsteerException.Check(NativeMethods.fxs_session_readmit(Ptr, peer, tick),
                                    "readmit peer " + peer + " at tick " + tick);
        }

        /// <summary>Starts a new progress window now (a match paused on purpose).</summary>
        public void RestartProgress(uint nowMs)
        {
            NativeMethods.fxs_session_restart_progress(Ptr, nowMs);
        }

        /// <summary>The tick this session started at: 0, or the tick a join started at.</summary>
        public uint JoinedAt
        {
            get {
                return (uint)Marshal.ReadInt32(Ptr, JoinedAtOffset);
            }
        }

        /// <summary>Throws ArgumentOutOfRangeException unless <paramref name="peer"/> is
        /// another peer of the match (0..players + spectators - 1, not the local one).</summary>
        private void CheckPeer(byte peer, string name)
        {
            int peers = def.Players + def.Spectators;
            if (peer >= peers)
                throw new ArgumentOutOfRangeException(
                    name, peer, "peer " + peer + " is not in the match (peers 0.." + (peers - 1) +
                                    ")");
            if (peer == def.Local)
                throw new ArgumentOutOfRangeException(
                    name, peer, "peer " + peer + " is this session's own peer (Def.Local)");
        }

        private IntPtr Ptr
        {
            get {
                if (session == IntPtr.Zero)
                    throw new ObjectDisposedException("Session");
                return session;
            }
        }

        /// <summary>The replay the session records into, or null.</summary>
        public ReplayRecorder Replay
        {
            get {
                return replay;
            }
        }

        /// <summary>The definition the session runs with.</summary>
        public SessionDef Def
        {
            get {
                return def;
            }
        }
        /// <summary>The world's tick: the next tick to step.</summary>
        public uint Current
        {
            get {
                return (uint)Marshal.ReadInt32(Ptr, CurrentOffset);
            }
        }
        /// <summary>Ticks below this are settled: final, hashed, recorded.</summary>
        public uint Settled
        {
            get {
                return (uint)Marshal.ReadInt32(Ptr, SettledOffset);
            }
        }
        /// <summary>The failure that stopped the session, or Ok.</summary>
        public Result Error
        {
            get {
                return (Result)Marshal.ReadInt32(Ptr, ErrorOffset);
            }
        }

        /// <summary>What the session knows of peer <paramref name="q"/>.</summary>
        public SessionPeer Peer(int q)
        {
            if (q < 0 || q >= def.Players + def.Spectators)
                throw new ArgumentOutOfRangeException("q");
            return (SessionPeer)Marshal.PtrToStructure(Ptr + PeersOffset + q * PeerSize,
                                                       typeof(SessionPeer));
        }

        /// <summary>True when the local player may submit its next input now.</summary>
        public bool WantsInput
        {
            get {
                return NativeMethods.fxs_session_wants_input(Ptr) != 0;
            }
        }
        /// <summary>The tick the next <see cref="Submit"/> fills.</summary>
        public uint InputTick
        {
            get {
                return NativeMethods.fxs_session_input_tick(Ptr);
            }
        }
        /// <summary>Every tick below the tick limit is settled.</summary>
        public bool Done
        {
            get {
                return NativeMethods.fxs_session_done(Ptr) != 0;
            }
        }
        /// <summary>Done, and every other peer's hashes were compared.</summary>
        public bool Complete
        {
            get {
                return NativeMethods.fxs_session_complete(Ptr) != 0;
            }
        }
        /// <summary>Every other peer acknowledged all our inputs and settled hashes.</summary>
        public bool Delivered
        {
            get {
                return NativeMethods.fxs_session_delivered(Ptr) != 0;
            }
        }

        /// <summary>Submits the local player's commands[0..count) for <see cref="InputTick"/>.
        /// Returns Ok, or Full when peers have not acknowledged enough yet (try again after
        /// receiving); throws for anything else (not wanted now, too many commands, a
        /// spectator). commands may be null when count is 0.</summary>
        public Result Submit(Command[] commands, int count)
        {
            Command.CheckCount(commands, count);
            Result r = (Result)NativeMethods.fxs_session_submit(Ptr, commands, (uint)count);
            if (r != Result.Ok && r != Result.Full)
                throw new FixsteerException(r, "submit tick " + InputTick);
            return r;
        }

        /// <summary>Steps <paramref name="world"/> by one tick when the inputs allow it.
        /// Returns Ok (a tick was stepped), Waiting (inputs missing: see
        /// <see cref="WaitInfo"/>) or Limit (the tick limit is reached); throws when the
        /// session stops (a desync does not stop it: see <see cref="Desync"/>). A session that
        /// records takes the recorder's world only, and throws ObjectDisposedException once the
        /// recorder is disposed (InvalidOperationException once it is ended). A session steps
        /// one world: the one it joined into, or the first it was advanced with; another one
        /// throws ArgumentException.</summary>
        public Result Advance(World world, uint nowMs)
        {
            Args.NotNull(world, "world");
            IntPtr self = Ptr;
            if (replay != null)
            {
                if (replay.IsDisposed)
                    throw new ObjectDisposedException(
                        "ReplayRecorder", "the session's replay recorder was disposed while the " +
                                              "session still records into it: dispose the " +
                                              "session first");
                if (replay.IsEnded)
                    throw new InvalidOperationException(
                        "the session's replay has ended while the session still records into it");
                replay.CheckWorld(world, "world");
            }
            if (stepped != null && !ReferenceEquals(world, stepped))
                throw new ArgumentException(
                    "the session steps another world (the one it joined into or first advanced): " +
                        "a session's inputs and hashes are those of one world",
                    "world");
            Result r = (Result)NativeMethods.fxs_session_advance(self, world.NativePointer, nowMs);
            GC.KeepAlive(world); // its finalizer must not free the block during the call
            stepped = world;
            if (r != Result.Ok && r != Result.Waiting && r != Result.Limit)
                throw new FixsteerException(r, "advance at tick " + Current);
            return r;
        }

        /// <summary>The next packet for <paramref name="peer"/>, or null when nothing is due.
        /// Call it every frame for every other peer.</summary>
        public byte[] PollSend(byte peer, uint nowMs)
        {
            int n = PollSend(peer, nowMs, packet);
            if (n == 0)
                return null;
            byte[] o = new byte[n];
            Buffer.BlockCopy(packet, 0, o, 0, n);
            return o;
        }

        /// <summary>Writes the next packet for <paramref name="peer"/> into
        /// <paramref name="buffer"/> (at least Def.MaxPacketBytes long) and returns its
        /// length, 0 when nothing is due. Allocates nothing.</summary>
        public int PollSend(byte peer, uint nowMs, byte[] buffer)
        {
            CheckPeer(peer, "peer");
            Args.NotNull(buffer, "buffer");
            if (buffer.Length < def.MaxPacketBytes)
                throw new ArgumentException("the buffer has " + buffer.Length +
                                                " bytes, a packet may need Def.MaxPacketBytes " +
                                                def.MaxPacketBytes,
                                            "buffer");
            UIntPtr len;
            FixsteerException.Check(
                NativeMethods.fxs_session_poll_send(Ptr, peer, nowMs, buffer,
                                                    new UIntPtr((ulong)buffer.Length), out len),
                "send to peer " + peer);
            return (int)(ulong)len;
        }

        /// <summary>Consumes a packet the transport says came from <paramref name="peer"/>.
        /// Packets are untrusted: a bad one changes nothing and its result says why
        /// (Truncated, BadMagic, BadChecksum, ...); Ok when it was taken. A peer index that is
        /// not another peer of the match gives BadValue (it comes from the transport).</summary>
        public Result Receive(byte peer, byte[] bytes, int length, uint nowMs)
        {
            Args.NotNull(bytes, "bytes");
            Args.Count(bytes, length, "bytes");
            return (Result)NativeMethods.fxs_session_receive(Ptr, peer, bytes,
                                                             new UIntPtr((ulong)length), nowMs);
        }

        /// <summary>Why the last <see cref="Advance"/> waited.</summary>
        public SessionWait WaitInfo(uint nowMs)
        {
            SessionWaitNative n;
            NativeMethods.fxs_session_wait_info(Ptr, nowMs, out n);
            SessionWait w;
            w.Waiting = n.Waiting != 0;
            w.Tick = n.Tick;
            w.Missing = n.Missing;
            w.HashesMissing = n.HashesMissing;
            w.WaitedMs = n.WaitedMs;
            return w;
        }

        /// <summary>The first desync found, or null.</summary>
        public SessionDesync Desync
        {
            get {
                IntPtr p = NativeMethods.fxs_session_desync_report(Ptr);
                if (p == IntPtr.Zero)
                    return null;
                SessionDesyncNative n =
                    (SessionDesyncNative)Marshal.PtrToStructure(p, typeof(SessionDesyncNative));
                SessionDesync d = new SessionDesync();
                d.Tick = n.Tick;
                d.Peers = n.Peers;
                d.LocalHash = n.LocalHash;
                return d;
            }
        }

        private void Free()
        {
            if (session != IntPtr.Zero)
                Marshal.FreeHGlobal(session);
            session = IntPtr.Zero;
            if (memory != IntPtr.Zero)
                Marshal.FreeHGlobal(memory);
            memory = IntPtr.Zero;
        }

        /// <summary>Frees the session's memory.</summary>
        public void Dispose()
        {
            Free();
            GC.SuppressFinalize(this);
        }

        /// <summary>Frees the memory of a session that was not disposed.</summary>
        ~Session() { Free(); }
    }
}
