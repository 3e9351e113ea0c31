// The idiomatic layer (namespace Sinew) speaks C#: every public type, member and
// parameter is PascalCase (parameters camelCase), and no public member takes or returns
// a struct of the raw layer (Sinew.Native) whose fields carry the C header's snake_case
// names (`stats.emitted`): those get an idiomatic struct. Found by reflection over the
// compiled Sinew.Core, so nothing public escapes the check.

using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using System.Runtime.InteropServices;
using Sinew;
using Sinew.Native;

namespace SinewTests
{
    public static class ApiNamingTests
    {
        /// <summary>Raw structs an idiomatic member may pass as they are: vector and
        /// quaternion components (x, y, z, w, as Unity's Vector3 and Quaternion have).
        /// Handles (Sinew*Handle) are opaque ids for the raw layer and pass too.</summary>
        static readonly HashSet<Type> RawAllowed = new HashSet<Type> { typeof(SinewVec3), typeof(SinewQuat) };

        /// <summary>Members that bridge to the raw layer on purpose: they exist to hand a
        /// native desc or callback table to code that calls Sinew.Native itself.</summary>
        static readonly HashSet<string> Bridges = new HashSet<string>
        {
            "ToNative", "FromNative", "SetTaskSystem(raw)",
        };

        static bool IsPascal(string name) { return name.Length > 0 && char.IsUpper(name[0]) && name.IndexOf('_') < 0; }
        static bool IsCamel(string name) { return name.Length > 0 && char.IsLower(name[0]) && name.IndexOf('_') < 0; }

        static bool IsHandle(Type t) { return t.Name.StartsWith("Sinew") && t.Name.EndsWith("Handle"); }

        /// <summary>The raw structs with a field that is not PascalCase that
        /// <paramref name="t"/> is or holds (arrays, pointers, by-refs, generic arguments).</summary>
        static IEnumerable<string> SnakeStructs(Type t)
        {
            while (t.HasElementType)
                t = t.GetElementType();
            if (t.IsGenericType)
            {
                foreach (var a in t.GetGenericArguments())
                    foreach (var s in SnakeStructs(a))
                        yield return s;
                yield break;
            }
            if (t.Namespace != "Sinew.Native" || !t.IsValueType || t.IsEnum || RawAllowed.Contains(t) || IsHandle(t))
                yield break;
            var bad = t.GetFields(BindingFlags.Public | BindingFlags.Instance).Where(f => !IsPascal(f.Name))
                .Select(f => f.Name).ToArray();
            if (bad.Length > 0)
                yield return t.Name + " (" + string.Join(", ", bad) + ")";
        }

        /// <summary>Every naming problem of the public surface of namespace Sinew.</summary>
        static List<string> Problems()
        {
            var problems = new List<string>();
            const BindingFlags All = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance |
                                     BindingFlags.Static | BindingFlags.DeclaredOnly;
            foreach (Type type in typeof(World).Assembly.GetExportedTypes())
            {
                if (type.Namespace != "Sinew")
                    continue;
                if (!IsPascal(type.Name.Split('`')[0]))
                    problems.Add(type.FullName + ": type name");
                if (type.IsEnum)
                {
                    foreach (var n in Enum.GetNames(type))
                        if (!IsPascal(n))
                            problems.Add(type.Name + "." + n + ": enum member name");
                    continue;
                }
                foreach (MemberInfo m in type.GetMembers(All))
                {
                    var method = m as MethodBase;
                    var field = m as FieldInfo;
                    var property = m as PropertyInfo;
                    var ev = m as EventInfo;
                    bool visible = method != null ? (method.IsPublic || method.IsFamily || method.IsFamilyOrAssembly)
                        : field != null ? (field.IsPublic || field.IsFamily || field.IsFamilyOrAssembly)
                        : property != null ? property.GetAccessors(false).Any(a => a.IsPublic || a.IsFamily)
                        : ev != null ? ev.AddMethod != null && ev.AddMethod.IsPublic
                        : m is Type && (((Type)m).IsNestedPublic || ((Type)m).IsNestedFamily);
                    if (!visible || (method != null && method.IsSpecialName && !(method is ConstructorInfo)))
                        continue;
                    if (m is Type)
                        continue; // nested public types are exported and checked on their own
                    string where = type.Name + "." + m.Name;
                    if (!(method is ConstructorInfo) && !IsPascal(m.Name))
                        problems.Add(where + ": member name");
                    var types = new List<KeyValuePair<string, Type>>();
                    if (method != null)
                    {
                        foreach (var p in method.GetParameters())
                        {
                            if (!IsCamel(p.Name))
                                problems.Add(where + ": parameter " + p.Name);
                            if (Bridges.Contains(m.Name + "(" + p.Name + ")"))
                                continue;
                            types.Add(new KeyValuePair<string, Type>("parameter " + p.Name, p.ParameterType));
                        }
                        var mi = method as MethodInfo;
                        if (mi != null)
                            types.Add(new KeyValuePair<string, Type>("returns", mi.ReturnType));
                    }
                    if (field != null)
                        types.Add(new KeyValuePair<string, Type>("field", field.FieldType));
                    if (property != null)
                        types.Add(new KeyValuePair<string, Type>("property", property.PropertyType));
                    if (ev != null)
                        types.Add(new KeyValuePair<string, Type>("event", ev.EventHandlerType));
                    if (Bridges.Contains(m.Name))
                        continue;
                    foreach (var kv in types)
                        foreach (var s in SnakeStructs(kv.Value))
                            problems.Add(where + ": " + kv.Key + " is the raw " + s);
                }
            }
            return problems.Distinct().OrderBy(p => p, StringComparer.Ordinal).ToList();
        }

        public static void TestIdiomaticLayerHasNoSnakeCaseNames()
        {
            var problems = Problems();
            Check.True(problems.Count == 0, problems.Count + " public names of namespace Sinew are not idiomatic C#:\n  " +
                                            string.Join("\n  ", problems));
        }

        /// <summary>SkinWeights, StageTime, Contact, ContactEvent and ParticleCollisionFilter go to
        /// and from the library in place: their layout is their raw struct's, field by field
        /// (a private field behind a property counts: ParticleCollisionFilter's 0-or-1 flag).</summary>
        public static void TestInPlaceStructsHaveTheRawLayout()
        {
            SameLayout(typeof(SkinWeights), typeof(SinewSkinWeights));
            SameLayout(typeof(StageTime), typeof(SinewStageTime));
            SameLayout(typeof(Contact), typeof(SinewContact));
            SameLayout(typeof(ContactEvent), typeof(SinewContactEvent));
            SameLayout(typeof(ParticleCollisionFilter), typeof(SinewCollisionFilter));
        }

        static void SameLayout(Type idiomatic, Type raw)
        {
            Check.Equal(Marshal.SizeOf(raw), Marshal.SizeOf(idiomatic), idiomatic.Name + " size");
            // The managed size too (what `fixed` hands the library): Marshal.SizeOf alone
            // would pass a bool that marshals as 4 bytes but is 1 in place.
            Check.Equal(ManagedSize(raw), ManagedSize(idiomatic), idiomatic.Name + " managed size");
            FieldInfo[] a = idiomatic.GetFields(BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance);
            FieldInfo[] b = raw.GetFields(BindingFlags.Public | BindingFlags.Instance);
            Check.Equal(b.Length, a.Length, idiomatic.Name + " fields");
            for (int i = 0; i < a.Length; i++)
            {
                Check.Equal(b[i].Name.Replace("_", ""), a[i].Name.ToLowerInvariant(), idiomatic.Name + " field " + i);
                Check.Equal(Marshal.OffsetOf(raw, b[i].Name), Marshal.OffsetOf(idiomatic, a[i].Name), a[i].Name + " offset");
                Check.True(a[i].FieldType != typeof(bool), a[i].Name + " is no bool (one byte in place, four in C)");
                Check.Equal(Marshal.SizeOf(b[i].FieldType.IsEnum ? Enum.GetUnderlyingType(b[i].FieldType) : b[i].FieldType),
                    Marshal.SizeOf(a[i].FieldType.IsEnum ? Enum.GetUnderlyingType(a[i].FieldType) : a[i].FieldType),
                    a[i].Name + " size");
            }
        }

        /// <summary>The size of <paramref name="t"/> in a managed array (the distance between
        /// two elements), as the library sees it through a pinned pointer.</summary>
        static int ManagedSize(Type t)
        {
            Array two = Array.CreateInstance(t, 2);
            GCHandle h = GCHandle.Alloc(two, GCHandleType.Pinned);
            try
            {
                return (int)((long)Marshal.UnsafeAddrOfPinnedArrayElement(two, 1) -
                             (long)Marshal.UnsafeAddrOfPinnedArrayElement(two, 0));
            }
            finally
            {
                h.Free();
            }
        }

        public static void TestTheNamingCheckSeesARawStruct()
        {
            // The check itself: a raw desc is caught, field by field; vectors and handles pass.
            var found = SnakeStructs(typeof(SinewRopeDesc[])).ToList();
            Check.True(found.Count == 1 && found[0].Contains("total_mass"), "SinewRopeDesc caught: " + string.Join(";", found));
            Check.Equal(0, SnakeStructs(typeof(SinewVec3)).Count(), "SinewVec3 passes");
            Check.Equal(0, SnakeStructs(typeof(SinewBodyHandle)).Count(), "handles pass");
            Check.True(!IsPascal("emitted") && !IsPascal("Total_Mass") && IsPascal("Emitted"), "PascalCase rule");
        }
    }
}
