// Arrays cross to the library by pinning, never element by element: a T[] of a blittable
// struct (Unity's Vector3, SinewVec3, a vertex struct) is pinned in place and its address
// handed to the library with stride sizeof(T).

using System;
using System.Reflection;
using System.Runtime.InteropServices;
using Sinew.Native;

namespace Sinew
{
    /// <summary>Size and blittability of an element type, computed once per type.</summary>
    internal static class Element<T> where T : struct
    {
        public static readonly int Size;
        public static readonly bool Blittable;

        static Element()
        {
            Blittable = IsBlittable(typeof(T));
            if (Blittable)
                Size = Marshal.SizeOf(typeof(T));
        }

        /// <summary>Plain data only: primitives other than bool and char, enums,
        /// pointers, and structs of those (Mono pins some arrays that hold references,
        /// so pinning alone is not the test).</summary>
        static bool IsBlittable(Type t)
        {
            if (t.IsPointer || t.IsEnum)
                return true;
            if (t.IsPrimitive)
                return t != typeof(bool) && t != typeof(char);
            if (!t.IsValueType || t.IsAutoLayout)
                return false;
            foreach (var f in t.GetFields(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic))
                if (!IsBlittable(f.FieldType))
                    return false;
            return true;
        }
    }

    /// <summary>A pinned array (or nothing, for null); dispose to unpin.</summary>
    internal unsafe struct Pin : IDisposable
    {
        GCHandle handle;
        public byte* Ptr;

        public Pin(Array array)
        {
            handle = default(GCHandle);
            Ptr = null;
            if (array != null)
            {
                handle = GCHandle.Alloc(array, GCHandleType.Pinned);
                Ptr = (byte*)handle.AddrOfPinnedObject();
            }
        }

        public void Dispose()
        {
            if (handle.IsAllocated)
                handle.Free();
        }
    }

    internal static class Args
    {
        /// <summary>Throws ErrorNullPointer when <paramref name="array"/> is null.</summary>
        public static void NotNull(object array, string function, string name)
        {
            if (array == null)
                throw new SinewException(SinewStatus.ErrorNullPointer, function + ": " + name + " is null");
        }

        /// <summary>Checks that T can hold a position: blittable, at least 12 bytes, the
        /// first 12 of which are read or written as x, y, z floats.</summary>
        public static void Vec3Element<T>(string function) where T : struct
        {
            if (!Element<T>.Blittable)
                throw SinewException.Argument(function, typeof(T).Name + " is not blittable (it holds references)");
            if (Element<T>.Size < 12)
                throw SinewException.Argument(function, typeof(T).Name + " is " + Element<T>.Size +
                    " bytes, smaller than three floats (12 bytes)");
        }

        /// <summary>Checks <c>start..start+count</c> within an array of <paramref name="length"/>.</summary>
        public static void Range(int length, int start, int count, string function, string name)
        {
            if (start < 0 || count < 0 || start > length || count > length - start)
                throw new SinewException(SinewStatus.ErrorOutOfRange, function + ": elements " + start + ".." +
                    ((long)start + count) + " are outside " + name + " (length " + length + ")");
        }
    }
}
