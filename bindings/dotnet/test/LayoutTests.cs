using System;
using System.Collections.Generic;
using System.IO;
using System.Reflection;
using System.Runtime.InteropServices;
using NUnit.Framework;

namespace Fixsteer.Tests
{
    /// <summary>Where the test run finds the C side: the layout the C compiler printed
    /// (FIXSTEER_LAYOUT) and the native tool (FIXSTEER_TOOL); `make test-dotnet` sets
    /// both.</summary>
    public static class Env
    {
        public static string Need(string name)
        {
            string v = Environment.GetEnvironmentVariable(name);
            if (string.IsNullOrEmpty(v))
                throw new InvalidOperationException(name + " is not set (run make test-dotnet)");
            return v;
        }

        public static string[] LayoutLines() { return File.ReadAllLines(Need("FIXSTEER_LAYOUT")); }
        public static string Tool
        {
            get {
                return Need("FIXSTEER_TOOL");
            }
        }
    }

    [TestFixture]
    public class LayoutTests
    {
        private static readonly Assembly Binding = typeof(World).Assembly;

        private static void Clean(List<string> problems)
        {
            Assert.IsEmpty(problems, string.Join("\n", problems.ToArray()));
        }

        [Test]
        public void EveryMirroredStructHasTheCSizeFieldsAndOffsets()
        {
            CLayout c = CLayout.Parse(Env.LayoutLines());
            List<Type> types = LayoutCheck.MirroredStructs(Binding);
            Assert.GreaterOrEqual(types.Count, 30,
                                  "the binding mirrors the structs its calls pass");
            Clean(LayoutCheck.CompareStructs(c, types));
        }

        [Test]
        public void EveryMirroredEnumHasTheCConstants()
        {
            CLayout c = CLayout.Parse(Env.LayoutLines());
            List<Type> types = LayoutCheck.MirroredEnums(Binding);
            Assert.AreEqual(7, types.Count);
            Clean(LayoutCheck.CompareEnums(c, types));
        }

        [Test]
        public void EveryMirroredStructIsBlittable()
        {
            foreach (Type t in LayoutCheck.MirroredStructs(Binding))
            {
                foreach (FieldInfo f in t.GetFields(BindingFlags.Instance | BindingFlags.Public |
                                                    BindingFlags.NonPublic))
                {
                    Type ft = f.FieldType;
                    bool ok =
                        ft == typeof(byte) || ft == typeof(ushort) || ft == typeof(uint) ||
                        ft == typeof(ulong) || ft == typeof(int) || ft == typeof(long) ||
                        ft == typeof(IntPtr) || ft == typeof(UIntPtr) ||
                        (ft.IsValueType && !ft.IsPrimitive && !ft.IsEnum &&
                         ft.GetCustomAttributes(typeof(NativeStructAttribute), false).Length > 0);
                    Assert.IsTrue(ok, t.Name + "." + f.Name + " of type " + ft.Name +
                                          " is not blittable");
                }
                // Pinning refuses a non-blittable type: the strongest check the runtime offers.
                object boxed = Activator.CreateInstance(t);
                GCHandle h = GCHandle.Alloc(boxed, GCHandleType.Pinned);
                h.Free();
            }
        }

        [Test]
        public void EveryStructACallPassesIsMirrored()
        {
            Type native = Binding.GetType("Fixsteer.NativeMethods", true);
            int calls = 0;
            foreach (MethodInfo m in native.GetMethods(
                         BindingFlags.Static | BindingFlags.NonPublic | BindingFlags.Public))
            {
                if (m.GetCustomAttributes(typeof(DllImportAttribute), false).Length == 0)
                    continue;
                calls++;
                List<Type> types = new List<Type>();
                types.Add(m.ReturnType);
                foreach (ParameterInfo p in m.GetParameters())
                {
                    Type t = p.ParameterType;
                    if (t.IsByRef || t.IsArray)
                        t = t.GetElementType();
                    types.Add(t);
                }
                foreach (Type t in types)
                {
                    if (t == typeof(void) || t.IsPrimitive || t == typeof(IntPtr) ||
                        t == typeof(UIntPtr))
                        continue;
                    Assert.IsTrue(
                        t.GetCustomAttributes(typeof(NativeStructAttribute), false).Length > 0,
                        m.Name + " passes " + t.Name + ", which mirrors no C struct");
                }
            }
            Assert.Greater(calls, 80);
        }

        [Test]
        public void EveryImportMatchesItsPrototypeInTheHeaders()
        {
            CLayout c = CLayout.Parse(Env.LayoutLines());
            Type native = Binding.GetType("Fixsteer.NativeMethods", true);
            Clean(LayoutCheck.CompareFunctions(c, native, LayoutCheck.MirroredStructs(Binding)));
        }

        [Test]
        public void AChangedPrototypeIsReported()
        {
            Type native = Binding.GetType("Fixsteer.NativeMethods", true);
            Func<Func<string, string>, List<string>> check = edit =>
            {
                List<string> lines = new List<string>();
                foreach (string l in Env.LayoutLines())
                    lines.Add(edit(l));
                return LayoutCheck.CompareFunctions(CLayout.Parse(lines), native,
                                                    LayoutCheck.MirroredStructs(Binding));
            };
            // fxs_world_step's count becomes a uint64_t; spawn takes its definition by value;
            // set_target_point gains a parameter.
            List<string> p = check(l => l == "param fxs_world_step 2 val 4 uint32_t"
                                            ? "param fxs_world_step 2 val 8 uint64_t"
                                            : l);
            Assert.AreEqual(1, p.Count, string.Join("\n", p.ToArray()));
            StringAssert.Contains(
                "fxs_world_step parameter 2 (count): uint64_t of 8 bytes in C, 4 in C#", p[0]);
            p = check(l => l == "param fxs_command_spawn 0 ptr 36 fxs_spawn_def"
                               ? "param fxs_command_spawn 0 val 36 fxs_spawn_def"
                               : l);
            Assert.AreEqual(1, p.Count, string.Join("\n", p.ToArray()));
            StringAssert.Contains("by value in C, by reference in C#", p[0]);
            p = check(l => l == "func fxs_command_set_target_point 2 val 44 fxs_command"
                               ? "func fxs_command_set_target_point 3 val 44 fxs_command"
                               : l);
            Assert.AreEqual(1, p.Count, string.Join("\n", p.ToArray()));
            StringAssert.Contains("3 parameters in C, 2 in C#", p[0]);
        }

        [Test]
        public void EveryEntryPointExistsInTheSharedLibrary()
        {
            Type native = Binding.GetType("Fixsteer.NativeMethods", true);
            foreach (MethodInfo m in native.GetMethods(
                         BindingFlags.Static | BindingFlags.NonPublic | BindingFlags.Public))
            {
                if (m.GetCustomAttributes(typeof(DllImportAttribute), false).Length == 0)
                    continue;
                Marshal.Prelink(m); // throws EntryPointNotFoundException for a missing symbol
            }
        }

        // The checker itself: a change on the C side that the binding does not follow must be
        // reported. Each case edits the real layout as the compiler would print it after a
        // header change.
        private static List<string> Edited(Func<string, string> edit)
        {
            List<string> lines = new List<string>();
            foreach (string l in Env.LayoutLines())
            {
                string e = edit(l);
                if (e != null)
                    lines.Add(e);
            }
            CLayout c = CLayout.Parse(lines);
            List<string> p = LayoutCheck.CompareStructs(c, LayoutCheck.MirroredStructs(Binding));
            p.AddRange(LayoutCheck.CompareEnums(c, LayoutCheck.MirroredEnums(Binding)));
            return p;
        }

        [Test]
        public void AFieldAddedInCWithoutTheBindingIsReported()
        {
            // uint8_t flags after orientation_mode: fxs_agent keeps its size (padding), so only
            // the field list can tell.
            List<string> lines = new List<string>(Env.LayoutLines());
            int at = lines.IndexOf("field fxs_agent orientation_mode 52 1 1");
            Assert.GreaterOrEqual(at, 0, "fxs_agent.orientation_mode moved: update this test");
            lines.Insert(at + 1, "field fxs_agent flags 53 1 1");
            CLayout c = CLayout.Parse(lines);
            List<string> q = LayoutCheck.CompareStructs(c, LayoutCheck.MirroredStructs(Binding));
            Assert.AreEqual(1, q.Count, string.Join("\n", q.ToArray()));
            StringAssert.Contains("fxs_agent.flags", q[0]);
        }

        [Test]
        public void AMovedFieldAResizedStructAndARenumberedConstantAreReported()
        {
            List<string> moved = Edited(
                l => l == "field fxs_command ref 8 4 1" ? "field fxs_command ref 12 4 1" : l);
            Assert.AreEqual(1, moved.Count, string.Join("\n", moved.ToArray()));
            StringAssert.Contains("fxs_command.ref: offset 12 in C, 8 in C#", moved[0]);

            List<string> resized = Edited(l => l == "struct fxs_vec2 8" ? "struct fxs_vec2 16" : l);
            Assert.AreEqual(1, resized.Count, string.Join("\n", resized.ToArray()));
            StringAssert.Contains("fxs_vec2: sizeof 16 in C, 8 in C#", resized[0]);

            List<string> renumbered = Edited(
                l => l == "enum fxs_result FXS_ERR_FULL 2" ? "enum fxs_result FXS_ERR_FULL 3" : l);
            Assert.AreEqual(1, renumbered.Count, string.Join("\n", renumbered.ToArray()));
            StringAssert.Contains("FXS_ERR_FULL: 3 in C, 2 in C#", renumbered[0]);

            List<string> removed =
                Edited(l => l.StartsWith("field fxs_world_capacity nav_waypoints ") ? null : l);
            Assert.AreEqual(1, removed.Count, string.Join("\n", removed.ToArray()));
            StringAssert.Contains("WorldCapacity.NavWaypoints: no such field in C", removed[0]);
        }
    }
}
