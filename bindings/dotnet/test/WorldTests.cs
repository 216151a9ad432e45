using System;
using System.Collections.Generic;
using NUnit.Framework;

namespace Fixsteer.Tests
{
    [TestFixture]
    public class WorldTests
    {
        [Test]
        public void TheLibraryLoadsAndSaysWhatItIs()
        {
            StringAssert.IsMatch(@"^\d+\.\d+\.\d+$", Library.Version);
            Assert.AreNotEqual(0UL, Library.MathFingerprint);
            Assert.AreEqual("buffer too small", Library.Message(Result.BufferTooSmall));
        }

        [Test]
        public void SpawnAndStepMoveAnAgentTowardItsTarget()
        {
            using (World w = new World(Scene.Def(), Scene.Capacity()))
            {
                SpawnDef s = SpawnDef.Default;
                s.Position = Vec2.FromInt(100, 100);
                AgentHandle a = w.Apply(Command.Spawn(s));
                Assert.IsTrue(a.IsSome);
                Assert.AreEqual(1, w.AgentCount);
                Command[] cmds = { Command.SetTargetPoint(a, Vec2.FromInt(500, 100)),
                                   Command.AddSeek(a, Blend.Default) };
                Assert.AreEqual(Result.Ok, w.Step(cmds, cmds.Length));
                for (int i = 0; i < 30; i++)
                    w.Step();
                Assert.AreEqual(31u, w.Tick);
                Agent ag = w.GetAgent(a);
                Assert.Greater(ag.Position.X, Fix16.FromInt(150), "it moved toward +x");
                Assert.AreEqual(Fix16.FromInt(100), ag.Position.Y, "and only along x");
                Assert.AreEqual(Vec2.FromInt(500, 100), w.GetTargets(a).TargetPoint);
                BehaviorSet set = w.GetBehaviors(a);
                Assert.AreEqual(1, set.Slots.Length);
                Assert.AreEqual((byte)Behavior.Seek, set.Slots[0].Kind);
                Assert.AreEqual(0xFFFFu, w.GetOwner(a), "spawned shared");
            }
        }

        [Test]
        public void AWorldStepsByTheRulesOfAnyVersionTheLibraryRunsAndNoOther()
        {
            using (World w = new World(Scene.Def(), Scene.Capacity()))
            {
                Assert.AreEqual(Library.SimulationVersion, w.SimulationVersion);
                Assert.LessOrEqual(Library.OldestSimulationVersion, Library.SimulationVersion);
                w.SimulationVersion = Library.OldestSimulationVersion;
                Assert.AreEqual(Library.OldestSimulationVersion, w.SimulationVersion);
                FixsteerException e = Assert.Throws<FixsteerException>(
                    () => w.SimulationVersion = Library.SimulationVersion + 1);
                Assert.AreEqual(Result.SimulationVersion, e.Result);
                e = Assert.Throws<FixsteerException>(
                    () => w.SimulationVersion = Library.OldestSimulationVersion - 1);
                Assert.AreEqual(Result.SimulationVersion, e.Result);
                Assert.AreEqual(Library.OldestSimulationVersion, w.SimulationVersion, "left as it was");
            }
        }

        [Test]
        public void RefusedCommandsThrowWithTheLibrarysMessage()
        {
            using (World w = new World(Scene.Def(), Scene.Capacity()))
            {
                FixsteerException e = Assert.Throws<FixsteerException>(
                    () => w.Apply(Command.Despawn(new AgentHandle(5))));
                Assert.AreEqual(Result.StaleHandle, e.Result);
                StringAssert.Contains("handle does not name a live agent", e.Message);
                SpawnDef bad = SpawnDef.Default;
                bad.Mass = 0;
                e = Assert.Throws<FixsteerException>(() => w.Apply(Command.Spawn(bad)));
                Assert.AreEqual(Result.BadValue, e.Result);
                Assert.AreEqual(0, w.AgentCount, "a refused spawn changes nothing");
                // A step reports the first refusal but still steps the tick.
                Command[] cmds = { Command.Despawn(new AgentHandle(9)) };
                int[] results = new int[1];
                Assert.AreEqual(Result.StaleHandle, w.Step(cmds, 1, results));
                Assert.AreEqual((int)Result.StaleHandle, results[0]);
                Assert.AreEqual(1u, w.Tick);
                Agent none;
                Assert.IsFalse(w.TryGetAgent(new AgentHandle(1), out none));
            }
        }

        [Test]
        public void ACapacityAboveItsLimitIsRefused()
        {
            WorldCapacity c = Scene.Capacity();
            c.Obstacles = 0x10000;
            FixsteerException e = Assert.Throws<FixsteerException>(() => new World(Scene.Def(), c));
            Assert.AreEqual(Result.BadValue, e.Result);
            WorldDef d = Scene.Def();
            d.BoundsMax = Vec2.FromInt(-1, 0);
            e = Assert.Throws<FixsteerException>(() => new World(d, Scene.Capacity()));
            StringAssert.Contains("value out of range", e.Message);
        }

        [Test]
        public void SnapshotAndRestoreReturnTheExactState()
        {
            using (World w = Scene.NewWorld()) using (World other = Scene.NewWorld())
            {
                Scene.Run(w, 80, null);
                byte[] snap = w.Save();
                ulong hashAt80 = w.Hash;
                Assert.IsTrue(w.MatchesSnapshot(snap));
                Scene.Run(w, 40, null);
                Assert.AreNotEqual(hashAt80, w.Hash, "the state moved on");
                Assert.IsFalse(w.MatchesSnapshot(snap));
                w.Restore(snap);
                Assert.AreEqual(hashAt80, w.Hash);
                Assert.AreEqual(80u, w.Tick);
                other.Restore(snap);
                Assert.AreEqual(hashAt80, other.Hash,
                                "another world of the same capacity takes it");
                Assert.AreEqual(Scene.Capacity().Agents, World.SnapshotCapacity(snap).Agents);
                // Both go on identically.
                Scene.Run(w, 50, null);
                Scene.Run(other, 50, null);
                Assert.AreEqual(w.Hash, other.Hash);
            }
        }

        [Test]
        public void TheSnapshotBoundHoldsEverySaveAndGrowsWithTheCapacity()
        {
            using (World w = Scene.NewWorld())
            {
                int bound = World.SnapshotBound(Scene.Capacity());
                Assert.LessOrEqual(w.SnapshotSize, bound);
                Scene.Run(w, 120, null);
                Assert.Greater(w.AgentCount, 0);
                byte[] buffer = new byte[bound];
                int written = w.Save(buffer);
                Assert.AreEqual(w.SnapshotSize, written);
                Assert.LessOrEqual(written, bound);
                WorldCapacity more = Scene.Capacity();
                more.Agents *= 2;
                Assert.Greater(World.SnapshotBound(more), bound, "more agents need more room");
            }
        }

        [Test]
        public void AMoveCrossesIntact()
        {
            Command c = Command.Move(new AgentHandle(0x400001), 7, new Vec2(-3, 70000),
                                     Fix16.FromInt(12));
            Assert.AreEqual((byte)CommandType.Move, c.Type);
            Assert.AreEqual(0x400001u, c.Agent);
            Assert.AreEqual(7u, c.Ref);
            Assert.AreEqual(-3, c.Arg0);
            Assert.AreEqual(70000, c.Arg1);
            Assert.AreEqual(12 * 65536, c.Arg2);
        }

        [Test]
        public void ACorruptSnapshotIsRefusedWithItsOffsetAndChangesNothing()
        {
            using (World w = Scene.NewWorld())
            {
                Scene.Run(w, 10, null);
                byte[] snap = w.Save();
                ulong before = w.Hash;
                FixsteerException e = Assert.Throws<FixsteerException>(() => w.Restore(snap, 20));
                StringAssert.Contains("restore at byte", e.Message);
                byte[] magic = (byte[])snap.Clone();
                magic[0] ^= 0xFF;
                e = Assert.Throws<FixsteerException>(() => w.Restore(magic));
                Assert.AreEqual(Result.BadMagic, e.Result);
                StringAssert.Contains("restore at byte 0: not a fixsteer file (bad magic)",
                                      e.Message);
                Assert.AreEqual(before, w.Hash);
            }
        }

        [Test]
        public void EveryChangeOfStateChangesTheHash()
        {
            using (World a = Scene.NewWorld()) using (World b = Scene.NewWorld())
            {
                Scene.Run(a, 30, null);
                Scene.Run(b, 30, null);
                Assert.AreEqual(a.Hash, b.Hash);
                AgentHandle h = a.Agents()[1];
                b.Apply(Command.ApplyForce(h, new Vec2(1, 0))); // one LSB of force
                a.Step();
                b.Step();
                Assert.AreNotEqual(a.Hash, b.Hash);
            }
        }

        [Test]
        public void AWorldInACallersArrayMatchesOneInUnmanagedMemory()
        {
            byte[] memory = new byte[World.MemorySize(Scene.Capacity()) + 8];
            using (World a = new World(Scene.Def(), Scene.Capacity(), memory)) using (
                World b = new World(Scene.Def(), Scene.Capacity()))
            {
                foreach (World w in new[] { a, b })
                {
                    w.AddPath(new[] { Vec2.FromInt(100, 100), Vec2.FromInt(700, 100),
                                      Vec2.FromInt(700, 500) },
                              PathMode.Patrol, Fix16.FromInt(20));
                    Scene.Run(w, 150, null);
                }
                Assert.AreEqual(a.Hash, b.Hash);
                Assert.Throws<ArgumentException>(
                    () => new World(Scene.Def(), Scene.Capacity(), new byte[64]));
            }
        }

        [Test]
        public void ADisposedWorldRefusesUse()
        {
            World w = new World(Scene.Def(), Scene.Capacity());
            w.Dispose();
            Assert.Throws<ObjectDisposedException>(() => w.Step());
            w.Dispose(); // twice is harmless
        }

        [Test]
        public void CommandsEncodeDecodeAndSortAsInC()
        {
            Command c = Command.SetTargetPoint(new AgentHandle(0x400001), new Vec2(-3, 70000))
                            .WithSource(2, 7);
            byte[] bytes = c.Encode();
            Assert.AreEqual(Command.EncodedBytes, bytes.Length);
            Assert.AreEqual((byte)CommandType.SetTargetPoint, bytes[0]);
            Assert.AreEqual(2, bytes[1]);
            Assert.AreEqual(7, bytes[2]);
            Command d = Command.Decode(bytes);
            Assert.AreEqual(c.Agent, d.Agent);
            Assert.AreEqual(-3, d.GetArg(0));
            Assert.AreEqual(70000, d.GetArg(1));
            Assert.AreEqual("set_target_point", d.Name);
            bytes[0] = 200;
            Assert.AreEqual(Result.BadCommand,
                            Assert.Throws<FixsteerException>(() => Command.Decode(bytes)).Result);
            Command[] list = { c, c.WithSource(1, 9), c.WithSource(1, 3) };
            Command.Sort(list, list.Length);
            Assert.AreEqual(new byte[] { 1, 1, 2 },
                            new[] { list[0].Source, list[1].Source, list[2].Source });
            Assert.AreEqual(3, list[0].Sequence);
        }

        [Test]
        public void TypedConstructorsFillTheWireFormatAsCommandBuildDoes()
        {
            AgentHandle a = new AgentHandle(3);
            Command f = Command.AddFlee(a, new Blend(Fix16.FromInt(2), 4), Fix16.FromInt(50));
            Assert.AreEqual((byte)CommandType.AddBehavior, f.Type);
            Assert.AreEqual((uint)Behavior.Flee | (4u << 8), f.Ref);
            Assert.AreEqual(Fix16.FromInt(2), f.Arg0, "weight");
            Assert.AreEqual(Fix16.FromInt(50), f.Arg1, "panic radius");
            Command o = Command.AddObstacle(new Obstacle(Vec2.FromInt(1, 2), Fix16.FromInt(3)));
            Assert.AreEqual(new[] { Fix16.FromInt(1), Fix16.FromInt(2), Fix16.FromInt(3) },
                            new[] { o.Arg0, o.Arg1, o.Arg2 });
            BehaviorSlot wander = BehaviorSlot.Default(Behavior.Wander);
            Assert.AreEqual((byte)Behavior.Wander, wander.Kind);
            Assert.AreEqual(Fix16.One, wander.Weight);
            Assert.AreNotEqual(0, wander.P0, "the table's defaults, not zeros");
        }

        [Test]
        public void EveryParameterStructCrossesIntactIntoItsCommand()
        {
            // Each typed constructor with the library's default parameter struct must build the
            // command the default slot of the same behavior builds: a field misplaced between
            // the C# struct and C would change the arguments.
            AgentHandle a = new AgentHandle(1);
            Blend b = Blend.Default;
            Dictionary<Behavior, Command> typed = new Dictionary<Behavior, Command> {
                { Behavior.Wander, Command.AddWander(a, b, WanderDef.Default) },
                { Behavior.Avoid, Command.AddAvoidance(a, b, AvoidanceDef.Default) },
                { Behavior.Leader, Command.AddLeaderFollowing(a, b, LeaderDef.Default) },
                { Behavior.Queue, Command.AddQueue(a, b, QueueDef.Default) },
                { Behavior.DynamicArrive,
                  Command.AddDynamicArrive(a, b, DynamicArriveDef.Default) },
                { Behavior.Face, Command.AddFace(a, b, AlignDef.Default) },
                { Behavior.LookWhereGoing, Command.AddLookWhereGoing(a, b, AlignDef.Default) },
                { Behavior.Walker, Command.AddRandomWalker(a, b, WalkerDef.Default) },
                { Behavior.OffsetPursuit,
                  Command.AddOffsetPursuit(a, b, OffsetPursuitDef.Default) },
                { Behavior.Interpose, Command.AddInterpose(a, b, InterposeDef.Default) },
                { Behavior.Hide, Command.AddHide(a, b, HideDef.Default) },
                { Behavior.UnalignedAvoidance,
                  Command.AddUnalignedAvoidance(a, b, UnalignedAvoidanceDef.Default) },
                { Behavior.Formation, Command.AddFormation(a, b, FormationDef.Default) },
            };
            foreach (KeyValuePair<Behavior, Command> kv in typed)
            {
                Command slot = Command.AddBehavior(a, BehaviorSlot.Default(kv.Key));
                Assert.AreEqual(slot.Encode(), kv.Value.Encode(), kv.Key.ToString());
            }
            // A changed field reaches its argument: wander's circle radius is parameter 1.
            WanderDef w = WanderDef.Default;
            w.CircleRadius = Fix16.FromInt(13);
            Assert.AreEqual(Fix16.FromInt(13), Command.AddWander(a, b, w).Arg2);
            OrcaDef o = OrcaDef.Default;
            Command orca = Command.AddOrca(a, b, o, Fix16.FromInt(40));
            Command nav = Command.AddNavigate(a, b, Fix16.FromInt(40), o);
            Assert.AreEqual((byte)Behavior.Orca, (byte)orca.Ref);
            Assert.AreEqual((byte)Behavior.Navigate, (byte)nav.Ref);
        }
    }
}
