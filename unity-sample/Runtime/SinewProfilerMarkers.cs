// Shows where the Sinew world spends its step in Unity's Profiler: one ProfilerMarker
// per stage ("Sinew.step", "Sinew.substep", "Sinew.distance", "Sinew.contacts", ...),
// begun and ended by the world's profile listener on the thread that steps it (the
// main thread, in FixedUpdate), so they nest under FixedUpdate in the Timeline and
// Hierarchy views. Also keeps the last step's stage times and counts (read into arrays
// allocated once) for an on-screen readout.
//
// Add it next to a SinewWorldBehaviour. While it is enabled the world's step is timed
// (a clock read per stage boundary); disabled, the listener is removed and the step
// reads no clock (unless the world's own Profiling setting is on).

using Sinew.Native;
using Unity.Profiling;
using UnityEngine;

namespace Sinew.Unity
{
    [RequireComponent(typeof(SinewWorldBehaviour))]
    [DisallowMultipleComponent]
    [AddComponentMenu("Sinew/Sinew Profiler Markers")]
    public sealed class SinewProfilerMarkers : MonoBehaviour
    {
        [Tooltip("Read the last step's stage times and counts after every fixed step (StageTimes, Counts).")]
        public bool readBack = true;

        // One marker per stage, made once (ProfilerMarker registers its name with the
        // profiler; the same name always maps to the same marker).
        static ProfilerMarker[] markers;

        sealed class Listener : ISinewProfileListener
        {
            public void Begin(SinewProfileStage stage) { markers[(int)stage].Begin(); }
            public void End(SinewProfileStage stage) { markers[(int)stage].End(); }
        }

        readonly Listener listener = new Listener();
        SinewWorldBehaviour owner;
        World listening;
        readonly StageTime[] stageTimes = new StageTime[World.StageCount];
        ProfileCounts counts;

        /// <summary>The last step's stage times, indexed by SinewProfileStage (nanoseconds
        /// summed over the step; the leaves sum to the step). Filled after each fixed step
        /// while <see cref="readBack"/> is on; the same array every time.</summary>
        public StageTime[] StageTimes { get { return stageTimes; } }

        /// <summary>The world's counts after the last fixed step (bodies, particles,
        /// contacts, fluid neighbours).</summary>
        public ProfileCounts Counts { get { return counts; } }

        /// <summary>The last step's time in milliseconds.</summary>
        public double StepMilliseconds
        {
            get { return stageTimes[(int)SinewProfileStage.Step].Nanoseconds * 1e-6; }
        }

        static void MakeMarkers()
        {
            if (markers != null)
                return;
            var m = new ProfilerMarker[World.StageCount];
            for (int k = 0; k < m.Length; k++)
                m[k] = new ProfilerMarker("Sinew." + World.StageName((SinewProfileStage)k));
            markers = m;
        }

        void OnEnable()
        {
            owner = GetComponent<SinewWorldBehaviour>();
            MakeMarkers();
            owner.AfterStep += ReadBack;
            Listen();
        }

        void Start()
        {
            // The world may have been created after OnEnable (first use in Start).
            Listen();
        }

        void Listen()
        {
            if (owner == null || !owner.HasWorld || ReferenceEquals(listening, owner.World))
                return;
            listening = owner.World;
            listening.SetProfileListener(listener);
        }

        void ReadBack()
        {
            Listen();
            if (!readBack || listening == null || listening.IsDisposed)
                return;
            listening.ReadStageTimes(stageTimes);
            counts = listening.ProfileCounts();
        }

        void OnDisable()
        {
            if (owner != null)
                owner.AfterStep -= ReadBack;
            if (listening != null && !listening.IsDisposed)
                listening.SetProfileListener(null);
            listening = null;
        }
    }
}
