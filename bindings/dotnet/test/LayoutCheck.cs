// Compares the binding's mirrored structs and enums with the layout the C compiler reports
// (layout_gen.py's program): every field of every mirrored C struct must exist in C# with
// the same offset and size, no C# field may be missing in C, the sizes must agree, and every
// enum constant must have the same value.
using System;
using System.Collections.Generic;
using System.Reflection;
using System.Runtime.InteropServices;
using System.Text;

namespace Fixsteer.Tests
{
    public sealed class CField
    {
        public string Name;
        public long Offset;
        public long Size;
        public long Count;
    }

    /// <summary>A parameter or return value of a C function: val (SIZE bytes by value) or ptr
    /// (to SIZE bytes, 0 for void), of TYPE.</summary>
    public sealed class CValue
    {
        public string Kind;
        public long Size;
        public string Type;
    }

    public sealed class CLayout
    {
        public readonly Dictionary<string, CValue> Returns = new Dictionary<string, CValue>();
        public readonly Dictionary<string, List<CValue>> Params =
            new Dictionary<string, List<CValue>>();
        public readonly Dictionary<string, long> StructSize = new Dictionary<string, long>();
        public readonly Dictionary<string, List<CField>> Fields =
            new Dictionary<string, List<CField>>();
        public readonly Dictionary<string, Dictionary<string, long>> Enums =
            new Dictionary<string, Dictionary<string, long>>();

        public static CLayout Parse(IEnumerable<string> lines)
        {
            CLayout l = new CLayout();
            foreach (string raw in lines)
            {
                string[] t = raw.Trim().Split(' ');
                if (t.Length == 3 && t[0] == "struct")
                {
                    l.StructSize[t[1]] = long.Parse(t[2]);
                    l.Fields[t[1]] = new List<CField>();
                }
                else if (t.Length == 6 && t[0] == "field")
                {
                    CField f = new CField();
                    f.Name = t[2];
                    f.Offset = long.Parse(t[3]);
                    f.Size = long.Parse(t[4]);
                    f.Count = long.Parse(t[5]);
                    l.Fields[t[1]].Add(f);
                }
                else if (t.Length == 4 && t[0] == "enum")
                {
                    if (!l.Enums.ContainsKey(t[1]))
                        l.Enums[t[1]] = new Dictionary<string, long>();
                    l.Enums[t[1]][t[2]] = long.Parse(t[3]);
                }
                else if (t.Length == 6 && t[0] == "func")
                {
                    CValue r = new CValue();
                    r.Kind = t[3];
                    r.Size = long.Parse(t[4]);
                    r.Type = t[5];
                    l.Returns[t[1]] = r;
                    l.Params[t[1]] = new List<CValue>(new CValue[int.Parse(t[2])]);
                }
                else if (t.Length == 6 && t[0] == "param")
                {
                    CValue v = new CValue();
                    v.Kind = t[3];
                    v.Size = long.Parse(t[4]);
                    v.Type = t[5];
                    l.Params[t[1]][int.Parse(t[2])] = v;
                }
                else if (raw.Trim().Length > 0)
                {
                    throw new FormatException("layout line not understood: " + raw);
                }
            }
            return l;
        }
    }

    public static class LayoutCheck
    {
        /// <summary>snake_case to PascalCase: max_speed to MaxSpeed.</summary>
        public static string Pascal(string snake)
        {
            StringBuilder b = new StringBuilder();
            foreach (string part in snake.ToLowerInvariant().Split('_'))
            {
                if (part.Length == 0)
                    continue;
                b.Append(char.ToUpperInvariant(part[0])).Append(part.Substring(1));
            }
            return b.ToString();
        }

        private static long FieldSize(Type t)
        {
            if (t.IsEnum)
                t = Enum.GetUnderlyingType(t);
            return Marshal.SizeOf(t);
        }

        public static List<Type> MirroredStructs(Assembly a)
        {
            List<Type> list = new List<Type>();
            foreach (Type t in a.GetTypes())
                if (t.GetCustomAttributes(typeof(NativeStructAttribute), false).Length > 0)
                    list.Add(t);
            return list;
        }

        public static List<Type> MirroredEnums(Assembly a)
        {
            List<Type> list = new List<Type>();
            foreach (Type t in a.GetTypes())
                if (t.GetCustomAttributes(typeof(NativeEnumAttribute), false).Length > 0)
                    list.Add(t);
            return list;
        }

        /// <summary>Every difference between the C layout and the C# structs, one line
        /// each.</summary>
        public static List<string> CompareStructs(CLayout c, IEnumerable<Type> types)
        {
            List<string> problems = new List<string>();
            foreach (Type t in types)
            {
                string cname = ((NativeStructAttribute)t.GetCustomAttributes(
                                    typeof(NativeStructAttribute), false)[0])
                                   .Name;
                if (!c.StructSize.ContainsKey(cname))
                {
                    problems.Add(t.Name + ": C struct " + cname + " is not in the headers");
                    continue;
                }
                long size = Marshal.SizeOf(t);
                if (size != c.StructSize[cname])
                    problems.Add(cname + ": sizeof " + c.StructSize[cname] + " in C, " + size +
                                 " in C# " + t.Name);
                Dictionary<string, FieldInfo> cs = new Dictionary<string, FieldInfo>();
                foreach (FieldInfo f in t.GetFields(BindingFlags.Instance | BindingFlags.Public |
                                                    BindingFlags.NonPublic))
                    cs[f.Name] = f;
                HashSet<string> matched = new HashSet<string>();
                foreach (CField f in c.Fields[cname])
                {
                    for (long i = 0; i < f.Count; i++)
                    {
                        string name = Pascal(f.Name) + (f.Count > 1 ? i.ToString() : "");
                        long offset = f.Offset + i * f.Size;
                        FieldInfo fi;
                        if (!cs.TryGetValue(name, out fi))
                        {
                            problems.Add(cname + "." + f.Name + (f.Count > 1 ? "[" + i + "]" : "") +
                                         ": no field " + name + " in C# " + t.Name);
                            continue;
                        }
                        matched.Add(name);
                        long o = (long)Marshal.OffsetOf(t, name);
                        if (o != offset)
                            problems.Add(cname + "." + f.Name + ": offset " + offset + " in C, " +
                                         o + " in C#");
                        long s = FieldSize(fi.FieldType);
                        if (s != f.Size)
                            problems.Add(cname + "." + f.Name + ": size " + f.Size + " in C, " + s +
                                         " in C#");
                    }
                }
                foreach (string name in cs.Keys)
                    if (!matched.Contains(name))
                        problems.Add(t.Name + "." + name + ": no such field in C " + cname);
            }
            return problems;
        }

        private static string EnumName(string constant, string[] prefixes)
        {
            foreach (string p in prefixes)
                if (constant.StartsWith(p))
                    return Pascal(constant.Substring(p.Length));
            return Pascal(constant);
        }

        /// <summary>Every difference between the C enums and the C# enums, one line each.</summary>
        public static List<string> CompareEnums(CLayout c, IEnumerable<Type> types)
        {
            List<string> problems = new List<string>();
            foreach (Type t in types)
            {
                NativeEnumAttribute a = (NativeEnumAttribute)t.GetCustomAttributes(
                    typeof(NativeEnumAttribute), false)[0];
                Dictionary<string, long> cvals;
                if (!c.Enums.TryGetValue(a.Name, out cvals))
                {
                    problems.Add(t.Name + ": C enum " + a.Name + " is not in the headers");
                    continue;
                }
                HashSet<string> expected = new HashSet<string>();
                foreach (KeyValuePair<string, long> kv in cvals)
                {
                    if (kv.Key.EndsWith("_COUNT"))
                        continue; // the table's size, not a value
                    string name = EnumName(kv.Key, a.Prefixes);
                    expected.Add(name);
                    if (!Enum.IsDefined(t, name))
                    {
                        problems.Add(a.Name + "." + kv.Key + ": no member " + name + " in C# " +
                                     t.Name);
                        continue;
                    }
                    long v = Convert.ToInt64(Enum.Parse(t, name));
                    if (v != kv.Value)
                        problems.Add(a.Name + "." + kv.Key + ": " + kv.Value + " in C, " + v +
                                     " in C#");
                }
                foreach (string name in Enum.GetNames(t))
                    if (!expected.Contains(name))
                        problems.Add(t.Name + "." + name + ": no such constant in C");
            }
            return problems;
        }

        private static string MirrorOf(Type t)
        {
            object[] a = t.GetCustomAttributes(typeof(NativeStructAttribute), false);
            return a.Length > 0 ? ((NativeStructAttribute)a[0]).Name : null;
        }

        /// <summary>Compares one C value with the C# type that carries it; null when they
        /// agree.</summary>
        private static string CompareValue(CValue c, Type cs, bool byRef, HashSet<string> mirrored)
        {
            if (c.Kind == "void")
                return cs == typeof(void) ? null : "void in C, " + cs.Name + " in C#";
            if (cs == typeof(IntPtr) && !byRef)
            {
                if (c.Kind == "ptr" || c.Type.EndsWith("_fn"))
                    return null;
                return c.Type + " by value in C, a pointer in C#";
            }
            if (c.Kind == "ptr" && !byRef)
                return "a pointer to " + c.Type + " in C, " + cs.Name + " in C#";
            if (c.Kind == "val" && byRef)
                return c.Type + " by value in C, by reference in C#";
            if (cs == typeof(UIntPtr))
                return c.Type == "size_t" ? null : c.Type + " in C, UIntPtr (size_t) in C#";
            string mirror = MirrorOf(cs);
            if (mirror != null && mirror != c.Type)
                return c.Type + " in C, " + mirror + " in C#";
            if (mirror == null && mirrored.Contains(c.Type))
                return c.Type + " in C, " + cs.Name + " (no mirror of it) in C#";
            if (c.Size == 0)
                return null; // void *: any pointee
            long size = FieldSize(cs);
            return size == c.Size ? null
                                  : c.Type + " of " + c.Size + " bytes in C, " + size + " in C#";
        }

        /// <summary>Every difference between the C prototypes and the [DllImport]s.</summary>
        public static List<string> CompareFunctions(CLayout c, Type imports,
                                                    IEnumerable<Type> mirrors)
        {
            HashSet<string> mirrored = new HashSet<string>();
            foreach (Type t in mirrors)
                mirrored.Add(MirrorOf(t));
            List<string> problems = new List<string>();
            BindingFlags all = BindingFlags.Static | BindingFlags.NonPublic | BindingFlags.Public;
            foreach (MethodInfo m in imports.GetMethods(all))
            {
                if (m.GetCustomAttributes(typeof(DllImportAttribute), false).Length == 0)
                    continue;
                if (!c.Returns.ContainsKey(m.Name))
                {
                    problems.Add(m.Name + ": not declared in the headers");
                    continue;
                }
                string p = CompareValue(c.Returns[m.Name], m.ReturnType, false, mirrored);
                if (p != null)
                    problems.Add(m.Name + " returns " + p);
                ParameterInfo[] ps = m.GetParameters();
                List<CValue> cps = c.Params[m.Name];
                if (ps.Length != cps.Count)
                {
                    problems.Add(m.Name + ": " + cps.Count + " parameters in C, " + ps.Length +
                                 " in C#");
                    continue;
                }
                for (int i = 0; i < ps.Length; i++)
                {
                    Type t = ps[i].ParameterType;
                    bool byRef = t.IsByRef || t.IsArray;
                    if (byRef)
                        t = t.GetElementType();
                    p = CompareValue(cps[i], t, byRef, mirrored);
                    if (p != null)
                        problems.Add(m.Name + " parameter " + i + " (" + ps[i].Name + "): " + p);
                }
            }
            return problems;
        }
    }
}
