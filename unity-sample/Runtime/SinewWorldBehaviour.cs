// Owns a Sinew World and steps it with a fixed dt in FixedUpdate (dt = Time.fixedDeltaTime,
// split into `substeps`), at most `maxStepsPerFrame` steps per rendered frame; exposes
// InterpolationAlpha for the components to render positions interpolated between the
// last two states (Body.ReadInterpolatedPositions). Bodies subscribe to BeforeStep to
// drive pinned particles before each fixed step. After each step it takes the world's
// contact events (on while a SinewCollider listens) and hands each to the collider it names.
// [ExecuteAlways] for the edit-mode preview only (SinewWorldBehaviour.Preview.cs): in edit
// mode Start, FixedUpdate and Update do nothing and no world exists unless the preview runs.

using System;
using System.Collections.Generic;
using Sinew.Native;
using UnityEngine;

namespace Sinew.Unity
{
    [DefaultExecutionOrder(-100)]
    [DisallowMultipleComponent]
    [ExecuteAlways]
    [AddComponentMenu("Sinew/Sinew World")]
    public sealed partial class SinewWorldBehaviour : MonoBehaviour
    {
        // The world's settings (WorldDesc), read when the world is created.
        // BEGIN GENERATED WorldDesc fields
        [Tooltip("Gravity, the acceleration of every particle with mass. Each component in [-1000000, 1000000] m/s².")]
        public Vector3 gravity = new Vector3(0.0f, -9.81f, 0.0f);
        [Tooltip("Substeps per step. More substeps with one iteration is usually better than more iterations. In 1..=1024.")]
        [Min(1)]
        public int substeps = 8;
        [Tooltip("Solver iterations per substep. In 1..=1024.")]
        [Min(1)]
        public int iterations = 1;
        [Tooltip("Gauss-Seidel (constraints one after another, by colour) or Jacobi (all from the same positions, corrections averaged per particle).")]
        public SinewSolver solver = (SinewSolver)0;
        [Tooltip("Jacobi only: scale of the averaged correction (1 = plain averaging; above 1 over-relaxes). In (0, 2).")]
        [Range(0.0f, SinewNative.SINEW_MAX_JACOBI_RELAXATION)]
        public float jacobiRelaxation = 1.0f;
        [Tooltip("Linear velocity damping: velocities decay as exp(−damping·t). In [0, 1000000] 1/s.")]
        [Min(0.0f)]
        public float damping = 0.0f;
        [Tooltip("Worker threads (1 = the calling thread only). Results are bit-identical whatever the count. In 0..=256; 0 = all cores.")]
        [Min(0)]
        public int threads = 0;
        [Tooltip("Time every stage of each step (read back as the last step's stage times; no clock is read when off). The physics is the same bits on or off.")]
        public bool profiling = false;
        [Tooltip("Sleeping: islands of particles at rest stop being simulated until something wakes them (src/world/sleep.rs). Off, the physics is the same bits and costs nothing.")]
        public bool sleeping = false;
        [Tooltip("Kinetic energy per mass ½|v|² under which a particle counts as at rest (1e-3 J/kg: about 4.5 cm/s). In [0, 1000000] J/kg.")]
        [Min(0.0f)]
        public float sleepThreshold = 0.001f;
        [Tooltip("How long every particle of an island must stay at rest before it sleeps. In [0, 1000000] s.")]
        [Min(0.0f)]
        public float sleepTime = 0.5f;
        // END GENERATED WorldDesc fields

        [Tooltip("Most fixed steps simulated per rendered frame. After a hitch Unity runs several FixedUpdates in one frame; past this many the world skips the rest (that time is dropped: the simulation falls behind real time instead of spending ever longer frames catching up). Unity's own cap is Time.maximumDeltaTime.")]
        [Min(1)]
        public int maxStepsPerFrame = 4;

        [Tooltip("Run the world's parallel passes as Unity jobs (on Unity's worker threads) instead of the library's own threads. Results do not depend on it. Read when the world is created.")]
        public bool useUnityJobs = false;

        [Tooltip("Edit-mode preview: Play in this inspector simulates the ropes, cloth, soft bodies and colliders of this world in the Scene view without entering Play mode. Nothing simulated is saved; the preview world is destroyed on Stop, when this is unticked or the component disabled, before Play mode, a script reload or closing the scene.")]
        public bool previewInEditMode = false;

        /// <summary>Called in FixedUpdate just before each fixed step of the world (move pinned
        /// particles here); not called for a step skipped by <see cref="maxStepsPerFrame"/>.</summary>
        public event Action BeforeStep;
        /// <summary>Called in FixedUpdate just after each fixed step.</summary>
        public event Action AfterStep;

        World world;
        int stepsThisFrame;
        float alpha;
        // Colliders with contact events on, by native collider id.
        readonly Dictionary<ulong, SinewCollider> contactListeners = new Dictionary<ulong, SinewCollider>();
        Action<ContactEvent> routeContact;

        /// <summary>Routes the contact events of <paramref name="handle"/> to
        /// <paramref name="listener"/> (null: stops); the world's contact events are on
        /// while any collider listens.</summary>
        internal void ListenContacts(Sinew.Native.SinewColliderHandle handle, SinewCollider listener)
        {
            if (listener != null)
                contactListeners[handle.id] = listener;
            else
                contactListeners.Remove(handle.id);
            if (HasWorld)
                world.SetContactEvents(contactListeners.Count > 0);
        }

        // One contact event of the last step, to the collider it names (if it listens).
        void RouteContact(ContactEvent e)
        {
            SinewCollider c;
            if (contactListeners.TryGetValue(e.Collider.id, out c) && c != null)
                c.RaiseContact(e);
        }

        /// <summary>How far this frame's time lies between the world's last two states, in
        /// [0, 1]: render positions read with
        /// <c>body.ReadInterpolatedPositions(worldBehaviour.InterpolationAlpha, ...)</c> (in
        /// Update or LateUpdate), i.e. (1 - alpha) * previous + alpha * current, and motion is
        /// smooth at any frame rate, one fixed step behind real time at most.
        /// <para>How it steps, and why: the world steps in FixedUpdate, once per Unity fixed step
        /// of Time.fixedDeltaTime seconds. Unity's fixed-step loop is the accumulator (it runs
        /// as many FixedUpdates per frame as fixed steps of real time have passed, at most
        /// Time.maximumDeltaTime worth), so the physics is deterministic (the same dt every
        /// step, the same result at any frame rate), BeforeStep fires before each fixed step
        /// (pinned particles follow the transforms moved in FixedUpdate, and PhysX rigidbodies
        /// that colliders follow are in the same step), and alpha is the one Unity's own
        /// Rigidbody interpolation uses: (Time.time - Time.fixedTime) / Time.fixedDeltaTime,
        /// computed in Update. Stepping from Update through <see cref="Sinew.World.Advance"/>
        /// (the library's accumulator, for hosts without a fixed-step loop of their own) would
        /// run a frame's steps in one native call, so BeforeStep could not drive pinned
        /// particles between them, and its steps would drift out of phase with PhysX's.</para></summary>
        public float InterpolationAlpha { get { return alpha; } }

        void OnValidate()
        {
            // Clamps only: no native state in edit mode.
            // BEGIN GENERATED WorldDesc clamps
            substeps = SinewAuthoring.Clamp(substeps, 1, (int)SinewNative.SINEW_MAX_SUBSTEPS);
            iterations = SinewAuthoring.Clamp(iterations, 1, (int)SinewNative.SINEW_MAX_ITERATIONS);
            jacobiRelaxation = SinewAuthoring.Clamp(jacobiRelaxation, SinewAuthoring.Above(0.0f), SinewAuthoring.Below(SinewNative.SINEW_MAX_JACOBI_RELAXATION));
            damping = SinewAuthoring.Clamp(damping, 0.0f, SinewNative.SINEW_MAX_ACCELERATION);
            threads = SinewAuthoring.Clamp(threads, 0, (int)SinewNative.SINEW_MAX_THREADS);
            sleepThreshold = SinewAuthoring.Clamp(sleepThreshold, 0.0f, SinewNative.SINEW_MAX_SLEEP_THRESHOLD);
            sleepTime = SinewAuthoring.Clamp(sleepTime, 0.0f, SinewNative.SINEW_MAX_SLEEP_TIME);
            // END GENERATED WorldDesc clamps
            maxStepsPerFrame = SinewAuthoring.Clamp(maxStepsPerFrame, 1, (int)SinewNative.SINEW_MAX_STEPS_PER_ADVANCE);
        }

        /// <summary>The world, created from the fields above on first use.</summary>
        public World World
        {
            get
            {
                if (world == null || world.IsDisposed)
                {
                    var s = WorldSettings.Default;
                    // BEGIN GENERATED WorldDesc settings
                    s.Gravity = gravity.ToSinew();
                    s.Substeps = substeps;
                    s.Iterations = iterations;
                    s.Solver = solver;
                    s.JacobiRelaxation = jacobiRelaxation;
                    s.Damping = damping;
                    s.Threads = threads;
                    s.Profiling = profiling;
                    s.Sleeping = sleeping;
                    s.SleepThreshold = sleepThreshold;
                    s.SleepTime = sleepTime;
                    // END GENERATED WorldDesc settings
#if UNITY_WEBGL && !UNITY_EDITOR
                    // The WebGL player has no threads (unless Unity's experimental native
                    // multithreading is on): the world runs on the calling thread and never
                    // starts a pool (docs/unity.md, "Platforms").
                    s.Threads = 1;
#endif
                    world = new World(s);
                    if (routeContact == null)
                        routeContact = RouteContact;
                    world.ContactBegan += routeContact;
                    world.ContactPersisted += routeContact;
                    world.ContactEnded += routeContact;
                    contactListeners.Clear(); // ids of a world gone; colliders register again
                    if (useUnityJobs)
                        SinewJobsTaskSystem.Install(world);
                }
                return world;
            }
        }

        /// <summary>True while a live world exists (false after a domain reload or play-mode exit
        /// destroyed it).</summary>
        public bool HasWorld { get { return world != null && !world.IsDisposed; } }

        /// <summary>The first SinewWorldBehaviour in the scene, for bodies left without one.</summary>
        public static SinewWorldBehaviour FindInScene()
        {
#if UNITY_2023_1_OR_NEWER
            return FindFirstObjectByType<SinewWorldBehaviour>();
#else
            return FindObjectOfType<SinewWorldBehaviour>();
#endif
        }

        void Start()
        {
            if (!Application.isPlaying)
                return; // edit mode: a world only for the preview
            var unused = World;
        }

        void FixedUpdate()
        {
            if (!Application.isPlaying || !HasWorld)
                return;
            if (stepsThisFrame >= maxStepsPerFrame)
                return; // over the cap: this step's time is dropped
            stepsThisFrame++;
            StepOnce(Time.fixedDeltaTime);
        }

        // One step of dt s with its events (FixedUpdate; a tick of the edit-mode preview).
        void StepOnce(float dt)
        {
            if (BeforeStep != null)
                BeforeStep();
            world.Step(dt);
            if (contactListeners.Count > 0)
                world.DispatchContactEvents();
            if (AfterStep != null)
                AfterStep();
        }

        void Update()
        {
            if (!Application.isPlaying)
                return;
            // Every FixedUpdate of this frame has run (Unity runs them before Update).
            stepsThisFrame = 0;
            float fixedDt = Time.fixedDeltaTime;
            float a = fixedDt > 0f ? (Time.time - Time.fixedTime) / fixedDt : 1f;
            alpha = a > 0f ? (a < 1f ? a : 1f) : 0f; // also maps NaN to 0
        }

        void OnDestroy()
        {
#if UNITY_EDITOR
            PreviewStop();
#endif
            if (world != null)
            {
                world.Dispose();
                world = null;
            }
        }
    }
}
