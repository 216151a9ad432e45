using System;
using NUnit.Framework;

namespace Fixsteer.Tests
{
    /// <summary>The Unity package's WorldRunner (bindings/dotnet/unity/Runtime/WorldRunner.cs),
    /// the logic the FixsteerWorld component runs on FixedUpdate, under Mono without Unity.</summary>
    [TestFixture]
    public class WorldRunnerTests
    {
        private static WorldRunnerSettings Small()
        {
            WorldRunnerSettings s = new WorldRunnerSettings();
            s.Seed = 7;
            s.MaxX = 800;
            s.MaxY = 600;
            s.Agents = 8;
            return s;
        }

        // A wanderer that also arrives at a point: it moves every tick and draws from the seed.
        private static Command[] Orders(AgentHandle a)
        {
            SpawnDef body = SpawnDef.Default;
            body.Position = Vec2.FromInt(100, 100);
            return new[] {
                Command.Spawn(body),
                Command.SetTargetPoint(a, Vec2.FromInt(600, 400)),
                Command.AddArrive(a, Blend.Default, Fix16.FromInt(60)),
                Command.AddWander(a, Blend.Default, WanderDef.Default),
            };
        }

        [Test]
        public void SettingsGiveTheWorldTheyName()
        {
            WorldRunnerSettings s = Small();
            s.MinX = -50;
            s.ClampToBounds = false;
            s.NeighborRadius = 40;
            WorldDef d = s.ToDef();
            Assert.AreEqual(7UL, d.Seed);
            Assert.AreEqual(Vec2.FromInt(-50, 0), d.BoundsMin);
            Assert.AreEqual(Vec2.FromInt(800, 600), d.BoundsMax);
            Assert.AreEqual(0, d.ClampToBounds);
            Assert.AreEqual(40 * 65536, d.NeighborRadius);
            WorldCapacity c = s.ToCapacity();
            Assert.AreEqual(8u, c.Agents);
            Assert.AreEqual(16u, c.Obstacles);
            Assert.AreEqual(64u, c.Walls);
            Assert.AreEqual(0u, c.NavCells, "no navigation unless asked for");
        }

        [Test]
        public void EachFixedStepIsOneTickWithTheQueuedCommandsAndTheHashOfAPlainWorld()
        {
            using (WorldRunner runner = new WorldRunner(Small()))
            using (World plain = new World(Small().ToDef(), Small().ToCapacity()))
            {
                AgentHandle a = runner.World.NextSpawnHandles(1)[0];
                Command[] orders = Orders(a);
                foreach (Command c in orders)
                    runner.Enqueue(c);
                Assert.AreEqual(4, runner.Pending);
                Assert.AreEqual(0u, runner.Tick, "queued, not applied");
                Assert.AreEqual(0, runner.World.AgentCount);

                Command[] same = new Command[orders.Length];
                for (int i = 0; i < orders.Length; i++)
                    same[i] = orders[i].WithSource(0, (ushort)i);
                ulong previous = runner.Hash;
                for (int tick = 0; tick < 60; tick++)
                {
                    Assert.AreEqual(Result.Ok, runner.FixedStep());
                    plain.Step(tick == 0 ? same : null, tick == 0 ? same.Length : 0);
                    Assert.AreEqual((uint)(tick + 1), runner.Tick);
                    Assert.AreEqual(plain.Hash, runner.Hash, "tick " + tick);
                    Assert.AreNotEqual(previous, runner.Hash, "the agent moves every tick");
                    previous = runner.Hash;
                }
                Assert.AreEqual(0, runner.Pending);
                Assert.AreEqual(1, runner.World.AgentCount);
                Assert.AreEqual("0x" + runner.Hash.ToString("x16"), runner.HashText);
                StringAssert.IsMatch("^0x[0-9a-f]{16}$", runner.HashText);
            }
        }

        [Test]
        public void TwoRunnersFedTheSameOrdersEndOnOneHashAndAnotherSeedOnAnother()
        {
            ulong[] hashes = new ulong[3];
            for (int k = 0; k < 3; k++)
            {
                WorldRunnerSettings s = Small();
                if (k == 2)
                    s.Seed = 8;
                using (WorldRunner runner = new WorldRunner(s))
                {
                    foreach (Command c in Orders(runner.World.NextSpawnHandles(1)[0]))
                        runner.Enqueue(c);
                    for (int tick = 0; tick < 100; tick++)
                        runner.FixedStep();
                    hashes[k] = runner.Hash;
                }
            }
            Assert.AreEqual(hashes[0], hashes[1]);
            Assert.AreNotEqual(hashes[0], hashes[2], "the wander draws from the seed");
        }

        [Test]
        public void TheQueueIsBoundedAndRefusalsAreCountedWhileTheTickStillSteps()
        {
            WorldRunnerSettings s = Small();
            s.CommandsPerTick = 2;
            using (WorldRunner runner = new WorldRunner(s))
            {
                Command stale = Command.Despawn(new AgentHandle(5));
                Assert.IsTrue(runner.TryEnqueue(stale));
                Assert.IsTrue(runner.TryEnqueue(Command.Spawn(SpawnDef.Default)));
                Assert.IsFalse(runner.TryEnqueue(stale), "the tick holds its 2");
                Assert.Throws<InvalidOperationException>(() => runner.Enqueue(stale));
                Assert.AreEqual(2, runner.Pending);
                Assert.AreEqual(Result.StaleHandle, runner.FixedStep());
                Assert.AreEqual(Result.StaleHandle, runner.LastResult);
                Assert.AreEqual(1, runner.LastRefused);
                Assert.AreEqual(1u, runner.Tick);
                Assert.AreEqual(1, runner.World.AgentCount, "the spawn applied");
                Assert.AreEqual(Result.Ok, runner.FixedStep());
                Assert.AreEqual(0, runner.LastRefused);
            }
        }

        [Test]
        public void TheRunnersSourceOwnsItsCommands()
        {
            using (WorldRunner runner = new WorldRunner(Small()))
            {
                runner.Source = 3;
                SpawnDef body = SpawnDef.Default;
                body.Owned = 1;
                AgentHandle a = runner.World.NextSpawnHandles(1)[0];
                runner.Enqueue(Command.Spawn(body));
                runner.FixedStep();
                Assert.AreEqual(3u, runner.World.GetOwner(a), "spawned owned by the runner's source");
            }
        }

        [Test]
        public void MisuseThrowsAndDisposingFreesOnlyAnOwnedWorld()
        {
            Assert.Throws<ArgumentNullException>(() => new WorldRunner((WorldRunnerSettings)null));
            Assert.Throws<ArgumentNullException>(() => new WorldRunner(null, 4, false));
            using (World w = new World(Small().ToDef(), Small().ToCapacity()))
            {
                Assert.Throws<ArgumentOutOfRangeException>(() => new WorldRunner(w, 0, false));
                WorldRunner borrowed = new WorldRunner(w, 4, false);
                borrowed.FixedStep();
                borrowed.Dispose();
                Assert.Throws<ObjectDisposedException>(() => borrowed.FixedStep());
                Assert.Throws<ObjectDisposedException>(() => borrowed.TryEnqueue(Command.Spawn(SpawnDef.Default)));
                Assert.AreEqual(1u, w.Tick, "the world it did not own lives on");
                w.Step();
            }
            WorldRunner owner = new WorldRunner(Small());
            World mine = owner.World;
            owner.Dispose();
            Assert.Throws<ObjectDisposedException>(() => mine.Step());
        }
    }
}
