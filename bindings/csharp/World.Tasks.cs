// Sinew.World: host-supplied parallelism (C: sinew_world_set_task_system). The world's
// parallel passes run on the host's threads (a game's job system, the .NET ThreadPool,
// Unity's jobs) instead of the library's built-in pool, with bit-identical results.
//
// IL2CPP rules, followed here: native code only ever receives function pointers of
// static methods marked [MonoPInvokeCallback], made once from delegates kept alive in
// static fields; the managed runner reaches the callbacks through a GCHandle in
// user_context, freed only once the native world no longer holds it.

using System;
using System.Runtime.InteropServices;
using System.Threading;
using Sinew.Native;

namespace AOT
{
    /// <summary>Marks a static method that native code calls through a function pointer:
    /// IL2CPP (which matches the attribute by name) then compiles a reverse P/Invoke
    /// wrapper for it. Unity's own attribute of this name lives in UnityEngine, which
    /// this engine-neutral assembly does not reference; this one is internal, so the
    /// two never clash.</summary>
    [AttributeUsage(AttributeTargets.Method)]
    internal sealed class MonoPInvokeCallbackAttribute : Attribute
    {
        public MonoPInvokeCallbackAttribute(Type type) { }
    }
}

namespace Sinew
{
    /// <summary>One task of Sinew's (a parallel pass): <see cref="Run"/> runs its items
    /// <c>begin..end</c>. Thread-safe: ranges of one task may run at the same time on
    /// different threads. Valid only until the runner's <see cref="ISinewTaskRunner.Finish"/>
    /// for it returns (or, when Enqueue returned 0, until Enqueue returns).</summary>
    public struct SinewTask
    {
        readonly IntPtr function;
        readonly IntPtr context;

        /// <summary>The task behind a native <c>SinewTaskFn</c> and its <c>task_context</c>
        /// (for hosts that install their own static callbacks through the raw
        /// <see cref="World.SetTaskSystem(SinewTaskSystem, object)"/>).</summary>
        public SinewTask(IntPtr function, IntPtr context)
        {
            this.function = function;
            this.context = context;
        }

        /// <summary>The native task function (<c>SinewTaskFn</c>).</summary>
        public IntPtr Function { get { return function; } }

        /// <summary>The native task context.</summary>
        public IntPtr Context { get { return context; } }

        /// <summary>Runs the items <c>begin..end</c> (0 &lt;= begin &lt; end &lt;= the
        /// item count Enqueue was given).</summary>
        public unsafe void Run(int begin, int end)
        {
            Invoke(function, context, begin, end);
        }

        // The delegate for the last native task function seen: Sinew passes the same
        // function to every Enqueue, so this is made once (Marshal allocates).
        sealed class Call
        {
            public readonly IntPtr Function;
            public readonly SinewTaskFn Delegate;

            public Call(IntPtr function)
            {
                Function = function;
                Delegate = (SinewTaskFn)Marshal.GetDelegateForFunctionPointer(function, typeof(SinewTaskFn));
            }
        }

        static Call last;

        /// <summary>Calls the native task <paramref name="function"/> over
        /// <c>begin..end</c> with <paramref name="context"/>.</summary>
        public static unsafe void Invoke(IntPtr function, IntPtr context, int begin, int end)
        {
            Call c = Volatile.Read(ref last);
            if (c == null || c.Function != function)
            {
                c = new Call(function);
                Volatile.Write(ref last, c);
            }
            c.Delegate(unchecked((uint)begin), unchecked((uint)end), (void*)context);
        }
    }

    /// <summary>A host's task system for <see cref="World.SetTaskSystem(ISinewTaskRunner)"/>
    /// (Box2D v3's enqueue / finish). Sinew calls <see cref="Enqueue"/> and
    /// <see cref="Finish"/> from the thread that steps the world, once per parallel
    /// pass; the runner may run the task's items on any threads, in any order, fewer at
    /// a time than <see cref="WorkerCount"/>, or all inside Enqueue: the results are the
    /// same bits. Neither method may block forever; an exception thrown by either is
    /// caught (never crossing the native frames), the pass still completes, and
    /// <see cref="World.Step"/> rethrows it.</summary>
    public interface ISinewTaskRunner
    {
        /// <summary>The most threads that run Sinew's work at once, the stepping thread
        /// included (e.g. worker threads + 1), in [1, 256].</summary>
        int WorkerCount { get; }

        /// <summary>Starts <paramref name="task"/> over the items <c>0..itemCount</c>
        /// (call <see cref="SinewTask.Run"/> over ranges of at least
        /// <paramref name="minRange"/> items, the last one possibly shorter, covering
        /// every item exactly once). Returns a non-zero token that
        /// <see cref="Finish"/> waits on, or 0 after running every range itself.</summary>
        int Enqueue(SinewTask task, int itemCount, int minRange);

        /// <summary>Returns once every range of the task behind
        /// <paramref name="token"/> (a non-zero value Enqueue returned) has finished;
        /// it may run ranges itself meanwhile. Called once per token.</summary>
        void Finish(int token);
    }

    public sealed partial class World
    {
        // The runner's box (or the raw system's keep-alive object) while the native
        // world holds it in user_context; freed after the native world lets it go.
        GCHandle taskHandle;
        readonly object taskGate = new object();
        // Steps running now (Step counts them), so that Dispose racing a step never
        // frees the handle a running step's callbacks use.
        int stepsInFlight;

        sealed class RunnerBox
        {
            public readonly ISinewTaskRunner Runner;
            public Exception Failure;

            public RunnerBox(ISinewTaskRunner runner)
            {
                Runner = runner;
            }
        }

        /// <summary>Runs the world's parallel passes on <paramref name="runner"/>'s
        /// threads; <c>null</c> goes back to the library's built-in thread pool (the
        /// default). Results are bit-identical either way. A worker count outside
        /// [1, 256] is refused (SinewException, InvalidArgument) and nothing changes.
        /// Not simulation state: snapshots neither save nor restore it. Keeps the
        /// runner alive until it is replaced or the world is disposed.</summary>
        public unsafe void SetTaskSystem(ISinewTaskRunner runner)
        {
            if (runner == null)
            {
                Replace(null, default(GCHandle));
                return;
            }
            var box = new RunnerBox(runner);
            GCHandle h = GCHandle.Alloc(box);
            SinewTaskSystem t;
            t.worker_count = unchecked((uint)runner.WorkerCount);
            t.enqueue = Callbacks.EnqueuePointer;
            t.finish = Callbacks.FinishPointer;
            t.user_context = (void*)GCHandle.ToIntPtr(h);
            Replace(&t, h);
        }

        /// <summary>Installs a raw task system whose <c>enqueue</c> and <c>finish</c> are
        /// function pointers of the host's own static [MonoPInvokeCallback] methods (IL2CPP)
        /// or native functions; <paramref name="keepAlive"/> (may be null) is kept alive
        /// until the system is replaced or the world is disposed, e.g. the object whose
        /// GCHandle the host put in <c>user_context</c>. NULL function pointers or a
        /// worker count outside [1, 256] are refused and nothing changes.</summary>
        public unsafe void SetTaskSystem(SinewTaskSystem raw, object keepAlive)
        {
            GCHandle h = keepAlive != null ? GCHandle.Alloc(keepAlive) : default(GCHandle);
            Replace(&raw, h);
        }

        /// <summary>Whether the world runs its passes on a host task system set through
        /// this object.</summary>
        public bool HasTaskSystem { get { return hasTaskSystem; } }

        bool hasTaskSystem;

        unsafe void Replace(SinewTaskSystem* t, GCHandle next)
        {
            int status;
            try
            {
                status = SinewNative.sinew_world_set_task_system(Handle, t);
            }
            catch
            {
                if (next.IsAllocated)
                    next.Free();
                throw;
            }
            if (status != (int)SinewStatus.Ok)
            {
                if (next.IsAllocated)
                    next.Free();
                SinewException.Check(status);
            }
            // The native world no longer holds the previous one (the call took its lock).
            lock (taskGate)
            {
                if (taskHandle.IsAllocated)
                    taskHandle.Free();
                taskHandle = next;
                hasTaskSystem = t != null;
            }
        }

        /// <summary>Frees the task system's handle once the native world is gone.</summary>
        void ReleaseTaskSystem()
        {
            lock (taskGate)
            {
                if (taskHandle.IsAllocated)
                    taskHandle.Free();
                taskHandle = default(GCHandle);
                hasTaskSystem = false;
            }
        }

        /// <summary>Rethrows (once) an exception the runner threw during the last step.</summary>
        void ThrowTaskFailure()
        {
            RunnerBox box;
            lock (taskGate)
                box = taskHandle.IsAllocated ? taskHandle.Target as RunnerBox : null;
            if (box == null || box.Failure == null)
                return;
            Exception e = Interlocked.Exchange(ref box.Failure, null);
            if (e != null)
                throw new InvalidOperationException("the task runner threw during the step: " + e.Message, e);
        }

        /// <summary>The static callbacks native code calls (IL2CPP-safe: static methods,
        /// [MonoPInvokeCallback], delegates kept in static fields).</summary>
        static unsafe class Callbacks
        {
            static readonly SinewEnqueueTaskFn enqueue = Enqueue;
            static readonly SinewFinishTaskFn finish = Finish;
            public static readonly IntPtr EnqueuePointer = Marshal.GetFunctionPointerForDelegate(enqueue);
            public static readonly IntPtr FinishPointer = Marshal.GetFunctionPointerForDelegate(finish);

            [AOT.MonoPInvokeCallback(typeof(SinewEnqueueTaskFn))]
            static void* Enqueue(IntPtr task, uint item_count, uint min_range, void* task_context, void* user_context)
            {
                var box = (RunnerBox)GCHandle.FromIntPtr((IntPtr)user_context).Target;
                var t = new SinewTask(task, (IntPtr)task_context);
                try
                {
                    int token = box.Runner.Enqueue(t, (int)item_count, (int)min_range);
                    if (token != 0)
                        return (void*)new IntPtr(token);
                }
                catch (Exception e)
                {
                    Interlocked.CompareExchange(ref box.Failure, e, null);
                }
                // Done by the runner, or it failed: running the task again here is
                // harmless (each item takes Sinew's work from a shared counter until
                // none is left), so the pass always completes.
                t.Run(0, (int)item_count);
                return null;
            }

            [AOT.MonoPInvokeCallback(typeof(SinewFinishTaskFn))]
            static void Finish(void* host_task, void* user_context)
            {
                var box = (RunnerBox)GCHandle.FromIntPtr((IntPtr)user_context).Target;
                try
                {
                    box.Runner.Finish((int)(IntPtr)host_task);
                }
                catch (Exception e)
                {
                    Interlocked.CompareExchange(ref box.Failure, e, null);
                }
            }
        }
    }
}
