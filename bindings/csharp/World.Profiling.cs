// Sinew.World: profiling (C: sinew_world_set_profiling, sinew_world_read_stage_times,
// sinew_world_profile_counts, sinew_profile_stage_name, sinew_world_set_profile_callback).
// The stage times of the last step are read into an array the host keeps (no allocation
// per frame); a listener hears each stage begin and end on the stepping thread, so an
// engine wraps the stages in its own markers (Unity's ProfilerMarker).
//
//     world.Profiling = true;
//     var times = new SinewStageTime[World.StageCount];     // once
//     world.Step(dt);
//     world.ReadStageTimes(times);                          // every frame, no garbage
//     double ms = times[(int)SinewProfileStage.Step].nanoseconds * 1e-6;

using System;
using System.Runtime.InteropServices;
using System.Threading;
using Sinew.Native;

namespace Sinew
{
    /// <summary>Hears each stage of a step begin and end (<see cref="World.SetProfileListener"/>),
    /// on the thread that called <see cref="World.Step"/>, in properly nested pairs: the
    /// step around everything, each substep inside it, one leaf stage open at a time
    /// inside them. It must not call the world (the step holds it). An exception it
    /// throws is caught (never crossing the native frames) and rethrown by Step.</summary>
    public interface ISinewProfileListener
    {
        /// <summary>The stage begins.</summary>
        void Begin(SinewProfileStage stage);

        /// <summary>The stage ends.</summary>
        void End(SinewProfileStage stage);
    }

    public sealed partial class World
    {
        /// <summary>Number of profile stages: the length of the array
        /// <see cref="ReadStageTimes"/> fills, indexed by <see cref="SinewProfileStage"/>.</summary>
        public const int StageCount = (int)SinewNative.SINEW_PROFILE_STAGE_COUNT;

        bool profiling;

        /// <summary>Whether each step is timed (from the next step on; off by default, or
        /// the settings' <c>Profiling</c>). Off, the step reads no clock; the physics is the
        /// same bits either way.</summary>
        public bool Profiling
        {
            get { return profiling; }
            set
            {
                SinewException.Check(SinewNative.sinew_world_set_profiling(Handle, value ? 1u : 0u));
                profiling = value;
            }
        }

        /// <summary>Copies the stages of the last profiled step into
        /// destination[0..StageCount] (entry k for stage k; nanoseconds summed over the
        /// step, how many times each began, its group and depth). The leaves (every stage
        /// but the step and substep groups) sum to the step time. An array shorter than
        /// <see cref="StageCount"/> is refused. Allocates nothing: keep the array.</summary>
        public unsafe int ReadStageTimes(StageTime[] destination)
        {
            Args.NotNull(destination, "World.ReadStageTimes", "destination");
            uint count;
            // StageTime has SinewStageTime's layout (a ulong, then four 32-bit fields).
            fixed (StageTime* p = destination)
                SinewException.Check(SinewNative.sinew_world_read_stage_times(Handle, (SinewStageTime*)p,
                    unchecked((uint)destination.Length), &count));
            return (int)count;
        }

        /// <summary>What the world holds and its last step worked on: bodies, particles,
        /// constraints, colliders, contacts, fluid particles and neighbours.</summary>
        public unsafe ProfileCounts ProfileCounts()
        {
            SinewProfileCounts c;
            SinewException.Check(SinewNative.sinew_world_profile_counts(Handle, &c));
            return Sinew.ProfileCounts.From(c);
        }

        static string[] stageNames;

        /// <summary>The stage's name (snake_case, e.g. "collision_detection"), the same
        /// string every call (read from the library once).</summary>
        public static unsafe string StageName(SinewProfileStage stage)
        {
            string[] names = Volatile.Read(ref stageNames);
            if (names == null)
            {
                names = new string[StageCount];
                for (int k = 0; k < StageCount; k++)
                {
                    byte* name;
                    SinewException.Check(SinewNative.sinew_profile_stage_name((uint)k, &name));
                    names[k] = Marshal.PtrToStringAnsi((IntPtr)name);
                }
                Volatile.Write(ref stageNames, names);
            }
            int i = (int)stage;
            if (i < 0 || i >= names.Length)
                throw new ArgumentOutOfRangeException("stage", "World.StageName: " + stage + " is not a stage");
            return names[i];
        }

        // The listener's box while the native world holds it in user_data; freed after
        // the native world lets it go (as the task system's).
        GCHandle profileHandle;

        sealed class ListenerBox
        {
            public readonly ISinewProfileListener Listener;
            public Exception Failure;

            public ListenerBox(ISinewProfileListener listener)
            {
                Listener = listener;
            }
        }

        /// <summary>Calls <paramref name="listener"/> at each stage boundary of every step
        /// from the next one on (null removes it). A step with a listener is timed too,
        /// whatever <see cref="Profiling"/> says, and runs its substeps on the stepping
        /// thread (the results are the same bits). Not simulation state. Keeps the
        /// listener alive until it is replaced or the world is disposed.</summary>
        public unsafe void SetProfileListener(ISinewProfileListener listener)
        {
            GCHandle next = default(GCHandle);
            int status;
            if (listener == null)
            {
                status = SinewNative.sinew_world_set_profile_callback(Handle, null);
            }
            else
            {
                next = GCHandle.Alloc(new ListenerBox(listener));
                SinewProfileHook hook;
                hook.callback = ProfileCallbacks.MarkerPointer;
                hook.user_data = (void*)GCHandle.ToIntPtr(next);
                try
                {
                    status = SinewNative.sinew_world_set_profile_callback(Handle, &hook);
                }
                catch
                {
                    next.Free();
                    throw;
                }
            }
            if (status != (int)SinewStatus.Ok)
            {
                if (next.IsAllocated)
                    next.Free();
                SinewException.Check(status);
            }
            lock (taskGate)
            {
                if (profileHandle.IsAllocated)
                    profileHandle.Free();
                profileHandle = next;
            }
        }

        /// <summary>Frees the listener's handle once the native world is gone.</summary>
        void ReleaseProfileListener()
        {
            lock (taskGate)
            {
                if (profileHandle.IsAllocated)
                    profileHandle.Free();
                profileHandle = default(GCHandle);
            }
        }

        /// <summary>Rethrows (once) an exception the listener threw during the last step.</summary>
        void ThrowProfileFailure()
        {
            ListenerBox box;
            lock (taskGate)
                box = profileHandle.IsAllocated ? profileHandle.Target as ListenerBox : null;
            if (box == null || box.Failure == null)
                return;
            Exception e = Interlocked.Exchange(ref box.Failure, null);
            if (e != null)
                throw new InvalidOperationException("the profile listener threw during the step: " + e.Message, e);
        }

        /// <summary>The static callback native code calls (IL2CPP-safe: a static method,
        /// [MonoPInvokeCallback], its delegate kept in a static field).</summary>
        static unsafe class ProfileCallbacks
        {
            static readonly SinewProfileCallback marker = Marker;
            public static readonly IntPtr MarkerPointer = Marshal.GetFunctionPointerForDelegate(marker);

            [AOT.MonoPInvokeCallback(typeof(SinewProfileCallback))]
            static void Marker(uint stage, uint begin, void* user_data)
            {
                var box = (ListenerBox)GCHandle.FromIntPtr((IntPtr)user_data).Target;
                if (box.Failure != null)
                    return;
                try
                {
                    if (begin != 0)
                        box.Listener.Begin((SinewProfileStage)stage);
                    else
                        box.Listener.End((SinewProfileStage)stage);
                }
                catch (Exception e)
                {
                    Interlocked.CompareExchange(ref box.Failure, e, null);
                }
            }
        }
    }
}
