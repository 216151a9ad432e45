using System;
using NUnit.Framework;

namespace Fixsteer.Tests
{
    /// <summary>Misuse of the public API: every case throws an exception that names what is
    /// wrong, and none reaches native code that would crash or abort the process.</summary>
    [TestFixture]
    public class MisuseTests
    {
        private static SessionDef TwoPlayers(byte local)
        {
            SessionDef d = SessionDef.Default;
            d.Mode = (byte)SessionMode.Lockstep;
            d.Players = 2;
            d.Local = local;
            d.SessionId = 5;
            d.TickLimit = 20;
            return d;
        }

        [Test]
        public void AdvancingASessionWhoseRecorderWasDisposedThrowsObjectDisposed()
        {
            using (World w = Scene.NewWorld())
            {
                SessionDef d = TwoPlayers(0);
                d.Mode = (byte)SessionMode.Synctest;
                d.Players = 1;
                d.SnapshotBytes = new UIntPtr(64 * 1024);
                ReplayRecorder rec = new ReplayRecorder(w, 0);
                using (Session s = new Session(d, rec))
                {
                    s.Submit(new Command[0], 0);
                    rec.Dispose();
                    ObjectDisposedException e =
                        Assert.Throws<ObjectDisposedException>(() => s.Advance(w, 0));
                    StringAssert.Contains("recorder was disposed", e.Message);
                    Assert.AreEqual(0u, w.Tick, "nothing was stepped");
                }
            }
        }

        [Test]
        public void EndingTheRecorderOfARunningSessionStopsAdvanceWithAClearError()
        {
            using (World w = Scene.NewWorld())
            using (ReplayRecorder rec = new ReplayRecorder(w, 0))
            using (Session s = new Session(TwoPlayers(0), rec))
            {
                byte[] ended = rec.End(w);
                InvalidOperationException e =
                    Assert.Throws<InvalidOperationException>(() => s.Advance(w, 0));
                StringAssert.Contains("replay has ended", e.Message);
                Assert.AreEqual(ended.Length, rec.ToArray().Length, "nothing after the END chunk");
            }
        }

        [Test]
        public void ASessionRefusesARecorderThatIsDisposedOrEnded()
        {
            using (World w = Scene.NewWorld())
            {
                ReplayRecorder disposed = new ReplayRecorder(w, 0);
                disposed.Dispose();
                Assert.Throws<ObjectDisposedException>(() => new Session(TwoPlayers(0), disposed));
                using (ReplayRecorder ended = new ReplayRecorder(w, 0))
                {
                    ended.End(w);
                    InvalidOperationException e = Assert.Throws<InvalidOperationException>(
                        () => new Session(TwoPlayers(0), ended));
                    StringAssert.Contains("ended", e.Message);
                }
            }
        }

        [Test]
        public void AdvancingWithAWorldOtherThanTheRecordedOneThrows()
        {
            using (World w = Scene.NewWorld())
            using (World other = Scene.NewWorld())
            using (ReplayRecorder rec = new ReplayRecorder(w, 0))
            using (Session s = new Session(TwoPlayers(0), rec))
            {
                ArgumentException e = Assert.Throws<ArgumentException>(() => s.Advance(other, 0));
                Assert.AreEqual("world", e.ParamName);
                StringAssert.Contains("another world", e.Message);
                Assert.AreEqual(Result.Ok, s.Error, "the session was not stopped");
            }
        }

        [Test]
        public void ASessionSteppedWithASecondWorldThrows()
        {
            using (World w = Scene.NewWorld())
            using (World other = Scene.NewWorld())
            using (Session s = new Session(TwoPlayers(0)))
            {
                Assert.AreEqual(Result.Ok, s.Advance(w, 0), "tick 0 needs no input (delay 2)");
                ArgumentException e = Assert.Throws<ArgumentException>(() => s.Advance(other, 0));
                Assert.AreEqual("world", e.ParamName);
                StringAssert.Contains("another world", e.Message);
                Assert.AreEqual(0u, other.Tick);
                Assert.AreEqual(Result.Ok, s.Advance(w, 0), "its own world still steps");
                Assert.AreEqual(2u, w.Tick);
            }
        }

        [Test]
        public void PeerIndicesOutOfTheMatchOrOfTheLocalPeerThrowArgumentOutOfRange()
        {
            using (World w = Scene.NewWorld())
            using (Session s = new Session(TwoPlayers(0)))
            {
                byte[] buffer = new byte[s.Def.MaxPacketBytes];
                foreach (byte peer in new byte[] { 0, 2, 7, 200, 255 })
                {
                    ArgumentOutOfRangeException e = Assert.Throws<ArgumentOutOfRangeException>(
                        () => s.PollSend(peer, 0, buffer));
                    Assert.AreEqual("peer", e.ParamName);
                    StringAssert.Contains("peer " + peer, e.Message);
                    Assert.Throws<ArgumentOutOfRangeException>(() => s.PollSend(peer, 0));
                    Assert.Throws<ArgumentOutOfRangeException>(() => s.PeerLeft(peer));
                    Assert.Throws<ArgumentOutOfRangeException>(() => s.Readmit(peer, 0));
                    Assert.Throws<ArgumentOutOfRangeException>(() => s.WriteOffer(w, peer));
                    Assert.AreEqual(Result.BadValue, s.Receive(peer, buffer, 4, 0));
                }
                Assert.Greater(s.PollSend(1, 0, buffer), 0, "the other peer still gets its packet");
            }
        }

        [Test]
        public void ABufferShorterThanAPacketIsRefusedByName()
        {
            using (Session s = new Session(TwoPlayers(0)))
            {
                ArgumentException e = Assert.Throws<ArgumentException>(
                    () => s.PollSend(1, 0, new byte[s.Def.MaxPacketBytes - 1]));
                Assert.AreEqual("buffer", e.ParamName);
            }
        }

        [Test]
        public void NextSpawnHandlesIsBoundedByTheAgentCapacity()
        {
            using (World w = Scene.NewWorld())
            {
                int cap = (int)w.Capacity.Agents;
                Assert.AreEqual(cap, w.NextSpawnHandles(cap).Length);
                foreach (int n in new[] { cap + 1, int.MaxValue, -1 })
                {
                    ArgumentOutOfRangeException e =
                        Assert.Throws<ArgumentOutOfRangeException>(() => w.NextSpawnHandles(n));
                    Assert.AreEqual("count", e.ParamName);
                }
                StringAssert.Contains(
                    "agent capacity " + cap,
                    Assert.Throws<ArgumentOutOfRangeException>(() => w.NextSpawnHandles(int.MaxValue))
                        .Message);
            }
        }

        [Test]
        public void ARecorderFedAnotherWorldThrowsAndRecordsNothing()
        {
            using (World w = Scene.NewWorld())
            using (World other = Scene.NewWorld())
            using (ReplayRecorder rec = new ReplayRecorder(w, 0))
            {
                int before = rec.ToArray().Length;
                other.Step();
                ArgumentException e =
                    Assert.Throws<ArgumentException>(() => rec.Tick(other, new Command[0], 0));
                Assert.AreEqual("world", e.ParamName);
                StringAssert.Contains("another world", e.Message);
                Assert.Throws<ArgumentException>(() => rec.End(other));
                Assert.AreEqual(before, rec.ToArray().Length, "nothing was written");

                WorldCapacity c = Scene.Capacity();
                c.Agents = 3;
                using (World small = new World(Scene.Def(), c))
                {
                    small.Step();
                    e = Assert.Throws<ArgumentException>(
                        () => rec.TickSaved(0, small.Save(), new Command[0], 0));
                    Assert.AreEqual("snapshot", e.ParamName);
                }
                w.Step();
                rec.Tick(w, new Command[0], 0);
                Assert.IsTrue(Replay.Verify(rec.End(w)).Ok);
            }
        }

        [Test]
        public void ADisposedRecorderThrowsObjectDisposed()
        {
            using (World w = Scene.NewWorld())
            {
                ReplayRecorder rec = new ReplayRecorder(w, 0);
                rec.Dispose();
                w.Step();
                Assert.Throws<ObjectDisposedException>(() => rec.Tick(w, new Command[0], 0));
                Assert.Throws<ObjectDisposedException>(() => rec.End(w));
                Assert.Throws<ObjectDisposedException>(() => { Result r = rec.Error; });
                Assert.Greater(rec.ToArray().Length, 0, "the bytes stay readable");
            }
        }

        private static void Null(string param, TestDelegate call)
        {
            ArgumentNullException e = Assert.Throws<ArgumentNullException>(call, param);
            Assert.AreEqual(param, e.ParamName);
        }

        [Test]
        public void NullArgumentsThrowArgumentNullExceptionNamingTheParameter()
        {
            using (World w = Scene.NewWorld())
            using (ReplayRecorder rec = new ReplayRecorder(w, 0))
            using (Session s = new Session(TwoPlayers(0)))
            {
                Null("nodes", () => w.AddPath(null, PathMode.StopAtEnd, 0));
                Null("commands", () => w.Step(null, 1));
                Null("commands", () => w.Step(null, 1, new int[1]));
                Null("buffer", () => w.Save(null));
                Null("snapshot", () => w.Restore(null));
                Null("snapshot", () => w.Restore(null, 0));
                Null("snapshot", () => w.MatchesSnapshot(null));
                Null("snapshot", () => World.FromSnapshot(null));
                Null("snapshot", () => World.SnapshotCapacity(null));
                Null("bytes", () => Command.Decode(null));
                Null("commands", () => Command.Sort(null, 1));
                Null("world", () => new ReplayRecorder(null, 0));
                Null("world", () => rec.Tick(null, new Command[0], 0));
                Null("commands", () => rec.Tick(w, null, 1));
                Null("snapshot", () => rec.TickSaved(0, null, new Command[0], 0));
                Null("world", () => rec.End(null));
                Null("world", () => s.Advance(null, 0));
                Null("commands", () => s.Submit(null, 1));
                Null("buffer", () => s.PollSend(1, 0, null));
                Null("bytes", () => s.Receive(1, null, 0, 0));
                Null("world", () => Session.Join(TwoPlayers(1), null, new[] { new byte[4] }));
                Null("offers", () => Session.Join(TwoPlayers(1), w, null));
                Null("offers", () => Session.Join(TwoPlayers(1), w, new byte[][] { null }));
                Null("data", () => Replay.Read(null));
                Null("data", () => Replay.Verify(null));
                Assert.AreEqual(0u, w.Tick, "no call stepped the world");
            }
        }

        [Test]
        public void CommandArraysMayBeNullOnlyWithACountOfZero()
        {
            using (World w = Scene.NewWorld())
            {
                Assert.AreEqual(Result.Ok, w.Step(null, 0));
                Command.Sort(null, 0);
                Assert.AreEqual(1u, w.Tick);
            }
        }
    }
}
