// Host-supplied parallelism from C# on Mono (World.SetTaskSystem): the world's passes
// run on .NET threads and step to exactly the state hashes of the built-in pool on 1
// and 2 threads. Two hosts: an ISinewTaskRunner on the ThreadPool (Sinew.Core's own
// static callbacks), and a raw SinewTaskSystem whose enqueue and finish are this file's
// static [MonoPInvokeCallback] methods (the IL2CPP pattern) running every range on a
// System.Threading.Thread of its own.

using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Threading;
using Sinew;
using Sinew.Native;

namespace AOT
{
    /// <summary>Unity's attribute (UnityEngine is not referenced here); IL2CPP matches
    /// it by name.</summary>
    [AttributeUsage(AttributeTargets.Method)]
    public sealed class MonoPInvokeCallbackAttribute : Attribute
    {
        public MonoPInvokeCallbackAttribute(Type type) { }
    }
}

namespace SinewTests
{
    /// <summary>Runs each range of a task as a ThreadPool work item; Finish waits.</summary>
    sealed class ThreadPoolRunner : ISinewTaskRunner
    {
        sealed class Batch
        {
            public int Remaining;
            public readonly ManualResetEventSlim Done = new ManualResetEventSlim(false);
        }

        readonly Dictionary<int, Batch> batches = new Dictionary<int, Batch>();
        int next;
        public int Enqueues;
        public int RangesOnPool;
        readonly int workers;

        public ThreadPoolRunner(int workers)
        {
            this.workers = workers;
        }

        public int WorkerCount { get { return workers; } }

        public int Enqueue(SinewTask task, int itemCount, int minRange)
        {
            Interlocked.Increment(ref Enqueues);
            var b = new Batch();
            int ranges = (itemCount + minRange - 1) / minRange;
            b.Remaining = ranges;
            int token;
            lock (batches)
            {
                token = ++next;
                batches[token] = b;
            }
            for (int begin = 0; begin < itemCount; begin += minRange)
            {
                int from = begin, to = Math.Min(begin + minRange, itemCount);
                ThreadPool.QueueUserWorkItem(_ =>
                {
                    task.Run(from, to);
                    Interlocked.Increment(ref RangesOnPool);
                    if (Interlocked.Decrement(ref b.Remaining) == 0)
                        b.Done.Set();
                });
            }
            return token;
        }

        public void Finish(int token)
        {
            Batch b;
            lock (batches)
            {
                b = batches[token];
                batches.Remove(token);
            }
            b.Done.Wait();
            b.Done.Dispose();
        }
    }

    /// <summary>Enqueue throws: the pass still completes (run by the binding) and Step
    /// rethrows.</summary>
    sealed class ThrowingRunner : ISinewTaskRunner
    {
        public int WorkerCount { get { return 3; } }

        public int Enqueue(SinewTask task, int itemCount, int minRange)
        {
            throw new InvalidOperationException("host queue full");
        }

        public void Finish(int token) { }
    }

    public static unsafe class TaskTests
    {
        const float Dt = 1f / 60f;
        const int Frames = 4;

        /// <summary>10,000 colliding particles on a ground plane, a 90 × 90 cloth and 100
        /// ropes of 32 segments: every kind of parallel pass runs.</summary>
        static World Scene(int threads)
        {
            var s = WorldSettings.Default;
            s.Threads = threads;
            s.Substeps = 10;
            var w = new World(s);
            const int n = 10000, side = 50;
            var pos = new SinewVec3[n];
            var radii = new float[n];
            for (int i = 0; i < n; i++)
            {
                int col = i % side, row = (i / side) % side, layer = i / (side * side);
                float jitter = (i * 7919 % 13) / 13f * 0.001f;
                pos[i] = new SinewVec3(col * 0.021f - 0.5f + jitter, 0.05f + layer * 0.021f, row * 0.021f - 0.5f - jitter);
                radii[i] = 0.01f;
            }
            int first = w.AddParticles(pos);
            w.SetParticleRadii(first, radii);
            w.AddCollider(ColliderSettings.Default);
            var grid = ClothGridSettings.Default;
            grid.Origin = new SinewVec3(10, 2, 0);
            grid.SegmentsU = 89;
            grid.SegmentsV = 89;
            grid.PinCorners = 3;
            w.AddClothGrid(ClothSettings.Default, grid);
            for (int r = 0; r < 100; r++)
            {
                var rope = RopeSettings.Default;
                rope.Start = new SinewVec3(-10 - (r % 10) * 1.25f, 3, (r / 10) * 0.25f);
                rope.End = new SinewVec3(rope.Start.x + 1, 3, rope.Start.z);
                rope.Segments = 32;
                w.AddRope(rope);
            }
            return w;
        }

        static ulong[] Run(World w, int frames)
        {
            var h = new ulong[frames];
            for (int f = 0; f < frames; f++)
            {
                w.Step(Dt);
                h[f] = w.StateHash;
            }
            return h;
        }

        static void Same(ulong[] expected, ulong[] actual, string what)
        {
            for (int f = 0; f < expected.Length; f++)
                Check.Equal(expected[f], actual[f], what + ", frame " + (f + 1));
        }

        static ulong[] reference;

        static ulong[] Reference()
        {
            if (reference == null)
            {
                using (var one = Scene(1))
                using (var two = Scene(2))
                {
                    reference = Run(one, Frames);
                    Same(reference, Run(two, Frames), "built-in pool, 2 threads");
                }
            }
            return reference;
        }

        /// <summary>An ISinewTaskRunner on the ThreadPool steps to the built-in pool's bits,
        /// with its items on pool threads; null goes back to the built-in pool.</summary>
        public static void TestThreadPoolRunnerIsBitIdentical()
        {
            var expected = Reference();
            var runner = new ThreadPoolRunner(4);
            using (var w = Scene(1))
            {
                w.SetTaskSystem(runner);
                Check.True(w.HasTaskSystem, "HasTaskSystem");
                var h = Run(w, 2);
                w.SetTaskSystem(null);
                Check.True(!w.HasTaskSystem, "back to the built-in pool");
                var rest = Run(w, Frames - 2);
                Same(expected, new[] { h[0], h[1], rest[0], rest[1] }, "ThreadPool runner, then built-in");
            }
            Check.True(runner.Enqueues > 0, "the passes reached the runner");
            Check.True(runner.RangesOnPool > 0, "ranges ran on ThreadPool threads");
        }

        // ---- a raw task system with static [MonoPInvokeCallback] methods ----------

        static int rawEnqueues;
        static int rawThreads;
        static readonly Dictionary<int, Thread[]> rawBatches = new Dictionary<int, Thread[]>();
        static int rawNext;
        // Kept alive for as long as native code may call them.
        static readonly SinewEnqueueTaskFn enqueueDelegate = RawEnqueue;
        static readonly SinewFinishTaskFn finishDelegate = RawFinish;

        [AOT.MonoPInvokeCallback(typeof(SinewEnqueueTaskFn))]
        static void* RawEnqueue(IntPtr task, uint item_count, uint min_range, void* task_context, void* user_context)
        {
            Interlocked.Increment(ref rawEnqueues);
            var ctx = (IntPtr)task_context;
            var threads = new Thread[item_count];
            for (int i = 0; i < item_count; i++)
            {
                int item = i;
                threads[i] = new Thread(() =>
                {
                    SinewTask.Invoke(task, ctx, item, item + 1);
                    Interlocked.Increment(ref rawThreads);
                });
                threads[i].Start();
            }
            int token;
            lock (rawBatches)
            {
                token = ++rawNext;
                rawBatches[token] = threads;
            }
            return (void*)new IntPtr(token);
        }

        [AOT.MonoPInvokeCallback(typeof(SinewFinishTaskFn))]
        static void RawFinish(void* host_task, void* user_context)
        {
            Thread[] threads;
            lock (rawBatches)
            {
                int token = (int)(IntPtr)host_task;
                threads = rawBatches[token];
                rawBatches.Remove(token);
            }
            foreach (var t in threads)
                t.Join();
        }

        static SinewTaskSystem RawSystem(uint workers)
        {
            SinewTaskSystem t;
            t.worker_count = workers;
            t.enqueue = Marshal.GetFunctionPointerForDelegate(enqueueDelegate);
            t.finish = Marshal.GetFunctionPointerForDelegate(finishDelegate);
            t.user_context = null;
            return t;
        }

        /// <summary>Static callbacks running each item on its own System.Threading.Thread:
        /// the same bits.</summary>
        public static void TestRawStaticCallbacksAreBitIdentical()
        {
            var expected = Reference();
            using (var w = Scene(1))
            {
                w.SetTaskSystem(RawSystem(3), null);
                Same(expected, Run(w, Frames), "raw static callbacks on threads");
            }
            Check.True(rawEnqueues > 0 && rawThreads > 0, "ranges ran on their own threads");
        }

        /// <summary>Bad task systems are refused with the world unchanged; a runner that
        /// throws leaves the step's result intact and Step rethrows.</summary>
        public static void TestBadTaskSystemsAndThrowingRunners()
        {
            var expected = Reference();
            using (var w = Scene(1))
            {
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.SetTaskSystem(new ThreadPoolRunner(0)), "worker_count 0");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.SetTaskSystem(new ThreadPoolRunner(257)), "worker_count 257");
                var bad = RawSystem(2);
                bad.enqueue = IntPtr.Zero;
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.SetTaskSystem(bad, null), "enqueue is NULL");
                Check.True(!w.HasTaskSystem, "nothing changed");

                w.SetTaskSystem(new ThrowingRunner());
                var h = new ulong[Frames];
                for (int f = 0; f < Frames; f++)
                {
                    try
                    {
                        w.Step(Dt);
                        throw new AssertionFailed("Step did not rethrow the runner's exception");
                    }
                    catch (InvalidOperationException e)
                    {
                        Check.True(e.InnerException != null && e.InnerException.Message == "host queue full", "inner exception");
                    }
                    h[f] = w.StateHash;
                }
                Same(expected, h, "a throwing runner: the binding ran the passes");
            }
        }
    }
}
