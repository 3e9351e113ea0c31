// COMPILE-CHECK STUB, NOT SHIPPED, NOT UNITY: the Unity.Collections, Unity.Jobs,
// Unity.Burst and Unity.Mathematics signatures that the package's Jobs sample
// (unity-sample/Samples~/Jobs) uses beyond those in UnityEngineStub.cs and
// UnityJobsStub.cs, with trivial bodies, so that tests/csharp/run.sh compiles it with
// mcs. Signatures follow Unity 2021.3, Burst 1.6 and Mathematics 1.2. Nothing here
// compiles or computes anything: IJob's Schedule returns the handle it depends on and
// the operators return their left side.

using System;

namespace Unity.Collections
{
    [AttributeUsage(AttributeTargets.Field | AttributeTargets.Parameter)]
    public sealed class ReadOnlyAttribute : Attribute { }

    [AttributeUsage(AttributeTargets.Field | AttributeTargets.Parameter)]
    public sealed class WriteOnlyAttribute : Attribute { }
}

namespace Unity.Collections.LowLevel.Unsafe
{
    public static class UnsafeUtility
    {
        public static int SizeOf<T>() where T : struct { return 0; }
    }
}

namespace Unity.Jobs
{
    // JobHandle, IJobParallelFor and its Schedule are in UnityJobsStub.cs.
    public interface IJob
    {
        void Execute();
    }

    public static class IJobExtensions
    {
        public static JobHandle Schedule<T>(this T jobData, JobHandle dependsOn = default(JobHandle))
            where T : struct, IJob { return dependsOn; }
    }
}

namespace Unity.Burst
{
    [AttributeUsage(AttributeTargets.Struct | AttributeTargets.Class | AttributeTargets.Method | AttributeTargets.Assembly)]
    public sealed class BurstCompileAttribute : Attribute { }
}

namespace Unity.Mathematics
{
    public struct float3
    {
        public float x, y, z;
        public float3(float x, float y, float z) { this.x = x; this.y = y; this.z = z; }
        public static float3 operator +(float3 a, float3 b) { return a; }
        public static float3 operator -(float3 a, float3 b) { return a; }
        public static float3 operator *(float3 a, float b) { return a; }
        public static float3 operator /(float3 a, float b) { return a; }
    }

    public struct float4
    {
        public float x, y, z, w;
        public float4(float x, float y, float z, float w) { this.x = x; this.y = y; this.z = z; this.w = w; }
        public float4(float3 xyz, float w) { x = xyz.x; y = xyz.y; z = xyz.z; this.w = w; }
    }

    public static class math
    {
        public static float length(float3 v) { return 0f; }
        public static float max(float a, float b) { return a > b ? a : b; }
    }
}
