using System;
using System.Collections.Generic;
using System.IO;
using NUnit.Framework;

namespace Fixsteer.Tests
{
    /// <summary>Two peers in one process, their packets carried as byte arrays.</summary>
    [TestFixture]
    public class SessionTests
    {
        private const uint Ticks = 90;

        private static SessionDef Def(byte local, SessionMode mode)
        {
            SessionDef d = SessionDef.Default;
            d.Mode = (byte)mode;
            d.Players = mode == SessionMode.Synctest ? (byte)1 : (byte)2;
            d.Local = local;
            d.SessionId = 77;
            d.TickLimit = Ticks;
            if (mode != SessionMode.Lockstep)
                d.SnapshotBytes = new UIntPtr(64 * 1024);
            return d;
        }

        /// <summary>What player p submits for input tick t (the first two spawns of an empty
        /// world get handles 1 and 2: slot index + 1, generation 0).</summary>
        private static Command[] Input(int p, uint t, uint delay)
        {
            List<Command> c = new List<Command>();
            if (p == 0 && t == delay)
            {
                SpawnDef s = SpawnDef.Default;
                s.Position = Vec2.FromInt(100, 100);
                c.Add(Command.Spawn(s));
                s.Position = Vec2.FromInt(300, 200);
                c.Add(Command.Spawn(s));
            }
            if (p == 1 && t == delay + 10)
            {
                c.Add(Command.SetTargetPoint(new AgentHandle(1), Vec2.FromInt(600, 400)));
                c.Add(Command.AddArrive(new AgentHandle(1), Blend.Default, Fix16.FromInt(50)));
            }
            if (p == 0 && t == delay + 20)
                c.Add(
                    Command.AddBehavior(new AgentHandle(2), BehaviorSlot.Default(Behavior.Wander)));
            return c.ToArray();
        }

        [Test]
        public void TwoLockstepPeersEndAtTheSameHashAndRecordVerifiableReplays()
        {
            World[] worlds = { Scene.NewWorld(), Scene.NewWorld() };
            ReplayRecorder[] recs = { new ReplayRecorder(worlds[0], 30),
                                      new ReplayRecorder(worlds[1], 30) };
            Session[] peers = { new Session(Def(0, SessionMode.Lockstep), recs[0]),
                                new Session(Def(1, SessionMode.Lockstep), recs[1]) };
            try
            {
                uint now = 0;
                int packets = 0;
                for (int frame = 0; frame < 5000 && !(peers[0].Complete && peers[1].Complete);
                     frame++)
                {
                    now += 5;
                    for (int p = 0; p < 2; p++)
                    {
                        Session s = peers[p];
                        while (s.WantsInput)
                        {
                            Command[] cmds = Input(p, s.InputTick, s.Def.Delay);
                            if (s.Submit(cmds, cmds.Length) != Result.Ok)
                                break;
                        }
                        s.Advance(worlds[p], now);
                        byte[] packet = s.PollSend((byte)(1 - p), now);
                        if (packet != null)
                        {
                            packets++;
                            Assert.AreEqual(Result.Ok, peers[1 - p].Receive((byte)p, packet,
                                                                            packet.Length, now));
                        }
                    }
                }
                Assert.IsTrue(peers[0].Complete && peers[1].Complete, "the match ends");
                Assert.Greater(packets, 2);
                Assert.AreEqual(Ticks, worlds[0].Tick);
                Assert.AreEqual(Ticks, worlds[1].Tick);
                Assert.AreEqual(worlds[0].Hash, worlds[1].Hash);
                Assert.IsNull(peers[0].Desync);
                Assert.AreEqual(2, worlds[0].AgentCount, "player 0's spawns reached both worlds");
                Assert.AreEqual(Vec2.FromInt(600, 400),
                                worlds[1].GetTargets(new AgentHandle(1)).TargetPoint,
                                "player 1's command reached both worlds");
                byte[][] replays = { recs[0].End(worlds[0]), recs[1].End(worlds[1]) };
                Assert.AreEqual(replays[0], replays[1], "both peers recorded the same bytes");
                VerifyReport r = Replay.Verify(replays[0]);
                Assert.IsTrue(r.Ok, r.ToString());
                Assert.AreEqual(worlds[0].Hash, r.FinalHash);
                string file =
                    Path.Combine(Path.GetTempPath(), "fixsteer-dotnet-session-" +
                                                         Guid.NewGuid().ToString("N") + ".fxr");
                File.WriteAllBytes(file, replays[1]);
                try
                {
                    string output;
                    Assert.AreEqual(0, ReplayTests.RunTool("verify --quiet " + file, out output),
                                    output);
                    StringAssert.Contains(worlds[1].Hash.ToString("x16"), output);
                }
                finally
                {
                    File.Delete(file);
                }
            }
            finally
            {
                foreach (Session s in peers)
                    s.Dispose();
                foreach (ReplayRecorder r in recs)
                    r.Dispose();
                foreach (World w in worlds)
                    w.Dispose();
            }
        }

        [Test]
        public void BadPacketsAreRefusedAndChangeNothing()
        {
            using (World w0 = Scene.NewWorld()) using (
                Session a = new Session(Def(
                    0, SessionMode.Lockstep))) using (Session b =
                                                          new Session(Def(1, SessionMode.Lockstep)))
            {
                Command[] none = new Command[0];
                a.Submit(none, 0);
                a.Advance(w0, 1);
                byte[] packet = a.PollSend(1, 1);
                Assert.IsNotNull(packet);
                byte[] flipped = (byte[])packet.Clone();
                flipped[flipped.Length - 1] ^= 0x40;
                Assert.AreEqual(Result.BadChecksum, b.Receive(0, flipped, flipped.Length, 1));
                Assert.AreEqual(Result.Truncated, b.Receive(0, packet, 10, 1));
                Assert.AreEqual(0u, b.Peer(0).PacketsReceived);
                Assert.AreEqual(Result.Ok, b.Receive(0, packet, packet.Length, 1));
                Assert.AreEqual(1u, b.Peer(0).PacketsReceived);

                SessionDef other = Def(1, SessionMode.Lockstep);
                other.SessionId = 78;
                using (Session c = new Session(other))
                    Assert.AreEqual(Result.WrongSession, c.Receive(0, packet, packet.Length, 1));
            }
        }

        [Test]
        public void ABadDefinitionThrowsWithTheLibrarysMessage()
        {
            SessionDef d = Def(0, SessionMode.Lockstep);
            d.Players = 9;
            FixsteerException e = Assert.Throws<FixsteerException>(() => new Session(d));
            Assert.AreEqual(Result.BadValue, e.Result);
            StringAssert.Contains("session definition: value out of range", e.Message);
        }

        [Test]
        public void ASynctestSessionFindsTheWorldDeterministic()
        {
            using (World w = Scene.NewWorld()) using (Session s =
                                                          new Session(Def(0, SessionMode.Synctest)))
            {
                uint now = 0;
                while (!s.Done)
                {
                    now += 16;
                    while (s.WantsInput)
                    {
                        Command[] cmds = Input(0, s.InputTick, s.Def.Delay);
                        Assert.AreEqual(Result.Ok, s.Submit(cmds, cmds.Length));
                    }
                    Result r = s.Advance(w, now);
                    Assert.That(r == Result.Ok || r == Result.Limit, r.ToString());
                    Assert.Less(now, 100000u);
                }
                Assert.AreEqual(Ticks, w.Tick);
                Assert.IsNull(s.Desync);
                Assert.AreEqual(2, w.AgentCount);
            }
        }

        [Test]
        public void ALateSpectatorJoinsFromOffersAndEndsOnTheSameHash()
        {
            SessionDef[] defs = { Def(0, SessionMode.Lockstep), Def(1, SessionMode.Lockstep),
                                  Def(2, SessionMode.Lockstep) };
            foreach (SessionDef d in defs)
                Assert.AreEqual(2, d.Players);
            for (int i = 0; i < 3; i++)
                defs[i].Spectators = 1;
            World[] worlds = { Scene.NewWorld(), Scene.NewWorld(), Scene.NewWorld() };
            Session[] peers = { new Session(defs[0]), new Session(defs[1]), null };
            try
            {
                // Nobody holds the spectator slot yet: no tick waits for its hashes.
                peers[0].PeerLeft(2);
                peers[1].PeerLeft(2);
                uint now = 0;
                int active = 2;
                for (int frame = 0; frame < 20000; frame++)
                {
                    if (peers[2] == null && peers[0].Settled >= 40 && peers[1].Settled >= 40)
                    {
                        // The spectator arrives: the player that settled fewer ticks sends the
                        // state (the other's hashes must confirm it), the other only its inputs
                        // and hashes; the players take it back at the tick it starts.
                        int s = peers[1].Settled < peers[0].Settled ? 1 : 0;
                        byte[][] offers = { peers[0].WriteOffer(s == 0 ? worlds[0] : null, 2),
                                            peers[1].WriteOffer(s == 1 ? worlds[1] : null, 2) };
                        peers[2] = Session.Join(defs[2], worlds[2], offers);
                        uint joined = peers[2].JoinedAt;
                        Assert.GreaterOrEqual(joined, 40u);
                        Assert.AreEqual(joined, worlds[2].Tick,
                                        "the world starts at the offer's tick");
                        peers[0].Readmit(2, joined);
                        peers[1].Readmit(2, joined);
                        active = 3;
                    }
                    bool complete = true;
                    for (int p = 0; p < active; p++)
                        complete &= peers[p].Complete;
                    if (active == 3 && complete)
                        break;
                    now += 5;
                    for (int p = 0; p < active; p++)
                    {
                        Session s = peers[p];
                        while (p < 2 && s.WantsInput)
                        {
                            Command[] cmds = Input(p, s.InputTick, s.Def.Delay);
                            if (s.Submit(cmds, cmds.Length) != Result.Ok)
                                break;
                        }
                        s.Advance(worlds[p], now);
                        for (int q = 0; q < active; q++)
                        {
                            if (q == p)
                                continue;
                            byte[] packet = s.PollSend((byte)q, now);
                            if (packet != null)
                                Assert.AreEqual(Result.Ok, peers[q].Receive((byte)p, packet,
                                                                            packet.Length, now));
                        }
                    }
                }
                Assert.IsNotNull(peers[2], "the spectator joined");
                for (int p = 0; p < 3; p++)
                {
                    Assert.IsTrue(peers[p].Complete, "peer " + p + " completes");
                    Assert.IsNull(peers[p].Desync, "peer " + p);
                    Assert.AreEqual(Ticks, worlds[p].Tick);
                }
                Assert.AreEqual(worlds[0].Hash, worlds[2].Hash);
                Assert.AreEqual(worlds[1].Hash, worlds[2].Hash);
            }
            finally
            {
                foreach (Session s in peers)
                    if (s != null)
                        s.Dispose();
                foreach (World w in worlds)
                    w.Dispose();
            }
        }

        [Test]
        public void ABadOfferIsRefusedNamingTheOfferAndTheByte()
        {
            using (World w0 = Scene.NewWorld()) using (World w2 = Scene.NewWorld())
            {
                SessionDef d0 = Def(0, SessionMode.Lockstep);
                d0.Spectators = 1;
                SessionDef d2 = Def(2, SessionMode.Lockstep);
                d2.Spectators = 1;
                using (Session s0 = new Session(d0))
                {
                    byte[] offer = s0.WriteOffer(w0, 2);
                    offer[offer.Length - 1] ^= 0x01;
                    FixsteerException e = Assert.Throws<FixsteerException>(
                        () => Session.Join(d2, w2, new[] { offer }));
                    StringAssert.StartsWith("join: offer 0, byte ", e.Message);
                    Assert.AreEqual(0u, w2.Tick, "the world is untouched");
                }
            }
        }
    }
}
