// COMPILE-CHECK STUB, NOT SHIPPED, NOT UNITY: the Unity.Jobs signatures (and AOT's
// MonoPInvokeCallback attribute) that unity-sample/Runtime/SinewJobsTaskSystem.cs uses.
// Signatures follow the Unity 2021.3 scripting API. Schedule runs Execute serially on
// the calling thread (as Unity may when there are no workers), so that the task-system
// check in tests/csharp/run.sh exercises the callbacks; no physics here.

using System;

namespace AOT
{
    [AttributeUsage(AttributeTargets.Method)]
    public sealed class MonoPInvokeCallbackAttribute : Attribute
    {
        public MonoPInvokeCallbackAttribute(Type type) { }
    }
}

namespace Unity.Jobs
{
    public interface IJobParallelFor
    {
        void Execute(int index);
    }

    public struct JobHandle
    {
        public void Complete() { }
        public static void ScheduleBatchedJobs() { }
    }

    public static class IJobParallelForExtensions
    {
        public static JobHandle Schedule<T>(this T jobData, int arrayLength, int innerloopBatchCount,
                                            JobHandle dependsOn = default(JobHandle)) where T : struct, IJobParallelFor
        {
            for (int i = 0; i < arrayLength; i++)
                jobData.Execute(i);
            return default(JobHandle);
        }
    }
}

namespace Unity.Jobs.LowLevel.Unsafe
{
    public static class JobsUtility
    {
        public static int JobWorkerCount { get { return 3; } }
    }
}
