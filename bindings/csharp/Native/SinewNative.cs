// Raw P/Invoke layer over include/sinew.h: one C function, one declaration, same name,
// same parameter names, and only the types Burst's DllImport accepts (integers, floats,
// pointers, handle structs of one integer field): no bool, no enum, no struct larger
// than a handle by value. Fallible functions return the SinewStatus value as `int`
// (C: `typedef int32_t SinewStatus`); compare with `(int)SinewStatus.Ok`.
// Hand-written and checked declaration by declaration against the header by
// tests/csharp_bindings.rs (names, parameter names and types, struct layouts, enums).
// C# 7.2: compiles with Mono's mcs and with Unity.
//
// The raw layer is split by area like src/ffi: SinewNative.Core.cs, SinewNative.World.cs,
// SinewNative.Particles.cs, SinewNative.Constraints.cs, SinewNative.Families.cs,
// SinewNative.Attachments.cs, SinewNative.Bodies.cs; a new area adds one file.

using System.Runtime.InteropServices;

namespace Sinew.Native
{
    /// <summary>Result of every fallible function (C: <c>SinewStatus</c>, int32_t).</summary>
    public enum SinewStatus : int
    {
        /// <summary>Success.</summary>
        Ok = 0,
        /// <summary>A required pointer was NULL.</summary>
        ErrorNullPointer = 1,
        /// <summary>The handle is null, destroyed, or was never issued.</summary>
        ErrorInvalidHandle = 2,
        /// <summary>An index, range or count is outside what the world holds or allows.</summary>
        ErrorOutOfRange = 3,
        /// <summary>A value is not acceptable (NaN, negative mass, bad enum, zero count, ...).</summary>
        ErrorInvalidArgument = 4,
        /// <summary>Memory or worker threads could not be obtained.</summary>
        ErrorOutOfMemory = 5,
        /// <summary>A bug inside Sinew (a caught panic); the message says where.</summary>
        ErrorInternal = 6,
        /// <summary>The step ran but met NaN or infinity in some bodies; their particles are back at
        /// their positions before the step, at rest; every particle is finite. The message names them.</summary>
        ErrorNonFinite = 7,
    }

    /// <summary>Values of <c>SinewWorldDesc.solver</c> (C: <c>SinewSolver</c>, crosses as uint32_t).</summary>
    public enum SinewSolver : uint
    {
        /// <summary>Constraints one after another, by colour (default).</summary>
        GaussSeidel = 0,
        /// <summary>All constraints from the same positions, corrections averaged per particle.</summary>
        Jacobi = 1,
    }

    /// <summary>A world handle, passed by value (8 bytes). <c>id</c> 0 is the null handle.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct SinewWorld
    {
        public ulong id;
    }

    /// <summary>Three floats (m, m/s), layout-identical to Unity's <c>Vector3</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct SinewVec3
    {
        public float x;
        public float y;
        public float z;

        public SinewVec3(float x, float y, float z)
        {
            this.x = x;
            this.y = y;
            this.z = z;
        }

        public static SinewVec3 operator +(SinewVec3 a, SinewVec3 b) { return new SinewVec3(a.x + b.x, a.y + b.y, a.z + b.z); }
        public static SinewVec3 operator -(SinewVec3 a, SinewVec3 b) { return new SinewVec3(a.x - b.x, a.y - b.y, a.z - b.z); }
        public static SinewVec3 operator *(SinewVec3 a, float s) { return new SinewVec3(a.x * s, a.y * s, a.z * s); }

        /// <summary>Euclidean length (m).</summary>
        public float Length { get { return (float)System.Math.Sqrt(x * x + y * y + z * z); } }

        /// <summary>a + (b - a) t.</summary>
        public static SinewVec3 Lerp(SinewVec3 a, SinewVec3 b, float t) { return a + (b - a) * t; }

        public override string ToString() { return "(" + x + ", " + y + ", " + z + ")"; }
    }

    /// <summary>Settings of a new world. Always start from <c>sinew_world_desc_init</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct SinewWorldDesc
    {
        /// <summary>m/s², default (0, -9.81, 0).</summary>
        public SinewVec3 gravity;
        /// <summary>Substeps per step, 1..=1024, default 8.</summary>
        public uint substeps;
        /// <summary>Solver iterations per substep, 1..=1024, default 1.</summary>
        public uint iterations;
        /// <summary>A SinewSolver value, default GaussSeidel.</summary>
        public uint solver;
        /// <summary>Jacobi only: scale of the averaged correction, in (0, 2), default 1.</summary>
        public float jacobi_relaxation;
        /// <summary>Linear velocity damping, 1/s, default 0.</summary>
        public float damping;
        /// <summary>Worker threads: 0 = all cores (default), 1 = the calling thread only.</summary>
        public uint threads;
        /// <summary>Set by sinew_world_desc_init; a desc not made by it is rejected.</summary>
        public uint internal_cookie;
    }

    /// <summary>The C functions of include/sinew.h (see the area files).</summary>
    public static unsafe partial class SinewNative
    {
        /// <summary>The native library: <c>libsinew.so</c> / <c>sinew.dll</c> /
        /// <c>libsinew.dylib</c>; statically linked into the player on iOS.</summary>
#if UNITY_IOS && !UNITY_EDITOR
        public const string Lib = "__Internal";
#else
        public const string Lib = "sinew";
#endif

        /// <summary>C: <c>SINEW_ABI_VERSION</c>, the ABI these declarations match.</summary>
        public const uint SINEW_ABI_VERSION = 1;

        /// <summary>Decodes a NUL-terminated UTF-8 string returned by the library
        /// ("" for NULL).</summary>
        public static string Utf8ToString(byte* text)
        {
            if (text == null)
                return "";
            int n = 0;
            while (text[n] != 0)
                n++;
            return n == 0 ? "" : System.Text.Encoding.UTF8.GetString(text, n);
        }
    }
}
