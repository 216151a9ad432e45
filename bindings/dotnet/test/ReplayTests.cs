using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Text.RegularExpressions;
using NUnit.Framework;

namespace Fixsteer.Tests
{
    /// <summary>Replays cross the language boundary both ways: what C# records, the native
    /// tool verifies at the same hash; what the tool records, C# verifies at the tool's
    /// hash.</summary>
    [TestFixture]
    public class ReplayTests
    {
        private string dir;

        [SetUp]
        public void MakeDir()
        {
            dir =
                Path.Combine(Path.GetTempPath(), "fixsteer-dotnet-" + Guid.NewGuid().ToString("N"));
            Directory.CreateDirectory(dir);
        }

        [TearDown]
        public void RemoveDir() { Directory.Delete(dir, true); }

        /// <summary>Runs the native tool; returns its exit code and its standard output.</summary>
        public static int RunTool(string args, out string output)
        {
            ProcessStartInfo p = new ProcessStartInfo(Env.Tool, args);
            p.UseShellExecute = false;
            p.RedirectStandardOutput = true;
            p.RedirectStandardError = true;
            using (Process proc = Process.Start(p))
            {
                string err = proc.StandardError.ReadToEndAsync().Result;
                output = proc.StandardOutput.ReadToEnd() + err;
                proc.WaitForExit();
                return proc.ExitCode;
            }
        }

        private static ulong FinalHash(string toolOutput)
        {
            Match m = Regex.Match(toolOutput, @"final hash 0x([0-9a-f]{16})");
            Assert.IsTrue(m.Success, "no final hash in: " + toolOutput);
            return Convert.ToUInt64(m.Groups[1].Value, 16);
        }

        private static byte[] RecordScene(uint ticks, out ulong finalHash)
        {
            using (World w = Scene.NewWorld()) using (ReplayRecorder rec =
                                                          new ReplayRecorder(w, 50))
            {
                Scene.Run(w, ticks, rec);
                finalHash = w.Hash;
                return rec.End(w);
            }
        }

        [Test]
        public void WhatCSharpRecordsTheNativeToolVerifiesAtTheSameHash()
        {
            ulong hash;
            byte[] replay = RecordScene(240, out hash);
            string file = Path.Combine(dir, "scene.fxr");
            File.WriteAllBytes(file, replay);
            string output;
            int code = RunTool("verify --quiet " + file, out output);
            Assert.AreEqual(0, code, output);
            StringAssert.Contains("240 ticks verified", output);
            Assert.AreEqual(hash, FinalHash(output));
            // And C# agrees with itself.
            VerifyReport r = Replay.Verify(replay);
            Assert.IsTrue(r.Ok, r.ToString());
            Assert.AreEqual(240u, r.Ticks);
            Assert.AreEqual(hash, r.FinalHash);
        }

        [Test]
        public void WhatTheNativeToolRecordsCSharpVerifiesAtTheToolsHash()
        {
            string file = Path.Combine(dir, "hunter_prey.fxr");
            string output;
            int code = RunTool("record --quiet --scenario hunter_prey --ticks 300 --out " + file,
                               out output);
            Assert.AreEqual(0, code, output);
            ulong toolHash = FinalHash(output);
            VerifyReport r = Replay.Verify(File.ReadAllBytes(file));
            Assert.IsTrue(r.Ok, r.ToString());
            Assert.AreEqual(300u, r.Ticks);
            Assert.AreEqual(toolHash, r.FinalHash);
        }

        [Test]
        public void AReplayTheWorldDoesNotReproduceIsReportedAtItsTickOnBothSides()
        {
            // A force applied outside the recorded commands before tick 70: the recording's
            // hashes from tick 70 on are of a state the commands alone do not lead to.
            byte[] replay;
            using (World w = Scene.NewWorld()) using (ReplayRecorder rec =
                                                          new ReplayRecorder(w, 50))
            {
                Scene.Run(w, 70, rec);
                w.Apply(Command.ApplyForce(w.Agents()[1], new Vec2(1, 0)));
                Scene.Run(w, 30, rec);
                replay = rec.End(w);
            }
            VerifyReport r = Replay.Verify(replay);
            Assert.IsTrue(r.Diverged, r.ToString());
            Assert.AreEqual(Result.HashMismatch, r.Result);
            Assert.AreEqual(70u, r.FirstBadTick);
            Assert.AreNotEqual(r.ExpectedHash, r.ActualHash);
            string file = Path.Combine(dir, "diverged.fxr");
            File.WriteAllBytes(file, replay);
            string output;
            Assert.AreEqual(1, RunTool("verify --quiet " + file, out output), output);
            StringAssert.Contains("70", output);
        }

        [Test]
        public void AFlippedByteIsRefusedWithItsOffset()
        {
            ulong hash;
            byte[] replay = RecordScene(120, out hash);
            byte[] corrupt = (byte[])replay.Clone();
            corrupt[corrupt.Length / 2] ^= 0x01;
            VerifyReport r = Replay.Verify(corrupt);
            Assert.IsFalse(r.Ok);
            Assert.IsFalse(r.Diverged, "a format error, not a divergence");
            Assert.AreEqual(Result.BadChecksum, r.Result, r.ToString());
            Assert.Greater(r.ErrorOffset, 0);
            Assert.LessOrEqual(r.ErrorOffset, corrupt.Length / 2);
            string file = Path.Combine(dir, "corrupt.fxr");
            File.WriteAllBytes(file, corrupt);
            string output;
            Assert.AreEqual(2, RunTool("verify --quiet " + file, out output), output);
        }

        [Test]
        public void GarbageAndLimitsAreReportedNotThrown()
        {
            VerifyReport r = Replay.Verify(new byte[] { 1, 2, 3 });
            Assert.IsFalse(r.Ok);
            Assert.IsFalse(r.Diverged);
            ulong hash;
            byte[] replay = RecordScene(20, out hash);
            Limits l = Limits.Default;
            l.MaxAgents = 4;
            r = Replay.Verify(replay, l);
            Assert.AreEqual(Result.Limit, r.Result);
            Assert.AreEqual("max_agents", r.LimitField);
            StringAssert.Contains("exceeds a limit", r.ToString());
        }

        [Test]
        public void AToolReplayReadAndReSimulatedInCSharpGivesEveryTicksHash()
        {
            string file = Path.Combine(dir, "flock.fxr");
            string output;
            int code =
                RunTool("record --quiet --scenario flock --ticks 260 --keyframe 100 --out " + file,
                        out output);
            Assert.AreEqual(0, code, output);
            ReplayContents c = Replay.Read(File.ReadAllBytes(file));
            Assert.AreEqual(260, c.Ticks.Count);
            Assert.AreEqual(100u, c.KeyframeInterval);
            Assert.AreEqual(Library.MathFingerprint, c.Fingerprint);
            Assert.AreEqual(Library.SimulationVersion, c.SimulationVersion);
            Assert.AreEqual(11u, Library.SimulationVersion);
            Assert.AreEqual(2, c.Keyframes.Count);
            int keyframes = 0;
            using (World w = World.FromSnapshot(c.InitialSnapshot))
            {
                Assert.AreEqual(c.Capacity.Agents, w.Capacity.Agents);
                foreach (ReplayTick t in c.Ticks)
                {
                    Assert.AreEqual(t.Tick, w.Tick);
                    Command[] cmds = t.Commands;
                    Assert.AreEqual(Result.Ok, w.Step(cmds, cmds.Length));
                    Assert.AreEqual(t.Hash, w.Hash, "tick " + t.Tick);
                    foreach (KeyValuePair<uint, byte[]> k in c.Keyframes)
                    {
                        if (k.Key != w.Tick)
                            continue;
                        Assert.IsTrue(w.MatchesSnapshot(k.Value), "keyframe " + k.Key);
                        keyframes++;
                    }
                }
                Assert.AreEqual(c.EndHash, w.Hash);
                Assert.AreEqual(FinalHash(output), w.Hash);
            }
            Assert.AreEqual(2, keyframes);
        }

        [Test]
        public void ReadingACorruptReplayThrowsWithTheByteOffset()
        {
            ulong hash;
            byte[] replay = RecordScene(30, out hash);
            byte[] corrupt = (byte[])replay.Clone();
            corrupt[corrupt.Length - 3] ^= 0x10;
            FixsteerException e = Assert.Throws<FixsteerException>(() => Replay.Read(corrupt));
            StringAssert.IsMatch(@"^replay chunk at byte \d+: ", e.Message);
            Assert.AreEqual(Result.BadChecksum, e.Result, e.Message);
            e = Assert.Throws<FixsteerException>(() => Replay.Read(new byte[] { 0x46, 0x58 }));
            StringAssert.StartsWith("replay header at byte ", e.Message);
        }

        [Test]
        public void RecordingFromSnapshotsWritesTheSameBytesAsFromTheWorld()
        {
            ulong hash;
            byte[] direct = RecordScene(90, out hash);
            using (World w = Scene.NewWorld()) using (ReplayRecorder rec =
                                                          new ReplayRecorder(w, 50))
            {
                for (uint t = 0; t < 90; t++)
                {
                    Command[] cmds = Scene.CommandsFor(w, w.Tick).ToArray();
                    w.Step(cmds, cmds.Length);
                    rec.TickSaved(t, w.Save(), cmds, cmds.Length);
                }
                Assert.AreEqual(direct, rec.End(w));
            }
        }
    }
}
