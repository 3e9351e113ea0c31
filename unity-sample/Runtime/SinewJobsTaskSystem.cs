// Runs a Sinew world's parallel passes as Unity jobs (C: sinew_world_set_task_system),
// so that the library's work shares Unity's job worker threads instead of competing
// with them from a pool of its own. Opt in with SinewWorldBehaviour.useUnityJobs, or
// call SinewJobsTaskSystem.Install(world) yourself.
//
// Each pass Sinew enqueues becomes one IJobParallelFor whose Execute(i) calls Sinew's
// native task function over item i (a loop that takes Sinew's fixed chunks of work from
// a shared counter until none is left); its JobHandle waits in a small static table
// until Sinew's finish callback Completes it, on the stepping thread, which then runs
// jobs itself. Results are bit-identical to the built-in pool and to one thread.
//
// IL2CPP: native code only gets function pointers of the static [MonoPInvokeCallback]
// methods below, made once from delegates held in static fields. Unity schedules jobs
// from the main thread only: step the world on the main thread (SinewWorldBehaviour
// steps in FixedUpdate). If Schedule throws anyway, the pass runs on the calling thread,
// with the same result.

using System;
using System.Runtime.InteropServices;
using AOT;
using Sinew.Native;
using Unity.Jobs;
using Unity.Jobs.LowLevel.Unsafe;
using UnityEngine;

namespace Sinew.Unity
{
    /// <summary>A task system that runs Sinew's passes as Unity jobs.</summary>
    public static unsafe class SinewJobsTaskSystem
    {
        /// <summary>One pass: Execute(i) runs Sinew's task over item i.</summary>
        struct SinewTaskJob : IJobParallelFor
        {
            public IntPtr Task;
            public IntPtr Context;

            public void Execute(int index)
            {
                SinewTask.Invoke(Task, Context, index, index + 1);
            }
        }

        // Passes in flight (Sinew has one per stepping world at a time); a pass that finds
        // no free slot runs on the calling thread.
        const int Slots = 64;
        static readonly JobHandle[] handles = new JobHandle[Slots];
        static readonly bool[] used = new bool[Slots];
        static readonly object gate = new object();

        // Kept alive for as long as native code may call them.
        static readonly SinewEnqueueTaskFn enqueue = Enqueue;
        static readonly SinewFinishTaskFn finish = Finish;
        static readonly IntPtr enqueuePointer = Marshal.GetFunctionPointerForDelegate(enqueue);
        static readonly IntPtr finishPointer = Marshal.GetFunctionPointerForDelegate(finish);

        /// <summary>Unity's job worker threads plus the main thread, which runs jobs while
        /// it waits in Complete (at most the library's SINEW_MAX_THREADS).</summary>
        public static int WorkerCount
        {
            get { return Math.Max(1, Math.Min((int)SinewNative.SINEW_MAX_THREADS, JobsUtility.JobWorkerCount + 1)); }
        }

        /// <summary>The native task system (static callbacks, no user context).</summary>
        public static unsafe SinewTaskSystem NativeSystem()
        {
            SinewTaskSystem t;
            t.worker_count = (uint)WorkerCount;
            t.enqueue = enqueuePointer;
            t.finish = finishPointer;
            t.user_context = null;
            return t;
        }

        /// <summary>Runs <paramref name="world"/>'s passes as Unity jobs from now on
        /// (<c>world.SetTaskSystem(null)</c> goes back to the built-in pool).</summary>
        public static void Install(World world)
        {
            world.SetTaskSystem(NativeSystem(), null);
        }

        [MonoPInvokeCallback(typeof(SinewEnqueueTaskFn))]
        static unsafe void* Enqueue(IntPtr task, uint item_count, uint min_range, void* task_context, void* user_context)
        {
            int slot = -1;
            try
            {
                lock (gate)
                {
                    for (int i = 0; i < Slots; i++)
                    {
                        if (!used[i])
                        {
                            used[i] = true;
                            slot = i;
                            break;
                        }
                    }
                }
                if (slot >= 0)
                {
                    var job = new SinewTaskJob { Task = task, Context = (IntPtr)task_context };
                    handles[slot] = job.Schedule((int)item_count, (int)Math.Max(1u, min_range));
                    JobHandle.ScheduleBatchedJobs();
                    return (void*)new IntPtr(slot + 1);
                }
            }
            catch (Exception e)
            {
                if (slot >= 0)
                    lock (gate)
                        used[slot] = false;
                Debug.LogError("Sinew: could not schedule a job, running the pass on this thread: " + e, null);
            }
            // No slot, or Schedule refused: run the task here (every item takes Sinew's
            // work from a shared counter, so one call does the whole pass).
            SinewTask.Invoke(task, (IntPtr)task_context, 0, (int)item_count);
            return null;
        }

        [MonoPInvokeCallback(typeof(SinewFinishTaskFn))]
        static unsafe void Finish(void* host_task, void* user_context)
        {
            int slot = (int)(IntPtr)host_task - 1;
            try
            {
                handles[slot].Complete();
            }
            catch (Exception e)
            {
                Debug.LogError("Sinew: completing a job failed: " + e, null);
            }
            finally
            {
                handles[slot] = default(JobHandle);
                lock (gate)
                    used[slot] = false;
            }
        }
    }
}
