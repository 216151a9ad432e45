using System;
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
    }
}
