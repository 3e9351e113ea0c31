// Owns a Sinew World and steps it once per FixedUpdate (dt = Time.fixedDeltaTime, split
// into `substeps`). Bodies subscribe to BeforeStep to drive pinned particles.

using System;
using Sinew.Native;
using UnityEngine;

namespace Sinew.Unity
{
    [DefaultExecutionOrder(-100)]
    [DisallowMultipleComponent]
    [AddComponentMenu("Sinew/Sinew World")]
    public sealed class SinewWorldBehaviour : MonoBehaviour
    {
        [Tooltip("Substeps per FixedUpdate. More substeps with one iteration is usually better than more iterations. Read when the world is created.")]
        [Range(1, 128)]
        public int substeps = 8;

        [Tooltip("Solver iterations per substep. Read when the world is created.")]
        [Range(1, 64)]
        public int iterations = 1;

        [Tooltip("m/s². Read when the world is created.")]
        public Vector3 gravity = new Vector3(0f, -9.81f, 0f);

        [Tooltip("Linear velocity damping, 1/s (velocities decay as exp(-damping t)). Read when the world is created.")]
        [Min(0f)]
        public float damping = 0f;

        [Tooltip("Gauss-Seidel converges fastest; Jacobi is order-independent. Read when the world is created.")]
        public SinewSolver solver = SinewSolver.GaussSeidel;

        [Tooltip("Worker threads: 0 = all cores, 1 = the main thread only. Results do not depend on it.")]
        [Min(0)]
        public int threads = 0;

        [Tooltip("Run the world's parallel passes as Unity jobs (on Unity's worker threads) instead of the library's own threads. Results do not depend on it. Read when the world is created.")]
        public bool useUnityJobs = false;

        /// <summary>Called in FixedUpdate just before the world steps (move pinned particles here).</summary>
        public event Action BeforeStep;
        /// <summary>Called in FixedUpdate just after the world stepped.</summary>
        public event Action AfterStep;

        World world;

        /// <summary>The world, created from the fields above on first use.</summary>
        public World World
        {
            get
            {
                if (world == null || world.IsDisposed)
                {
                    var s = WorldSettings.Default;
                    s.Gravity = gravity.ToSinew();
                    s.Substeps = substeps;
                    s.Iterations = iterations;
                    s.Damping = damping;
                    s.Solver = solver;
                    s.Threads = threads;
                    world = new World(s);
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
            var unused = World;
        }

        void FixedUpdate()
        {
            if (!HasWorld)
                return;
            if (BeforeStep != null)
                BeforeStep();
            world.Step(Time.fixedDeltaTime);
            if (AfterStep != null)
                AfterStep();
        }

        void OnDestroy()
        {
            if (world != null)
            {
                world.Dispose();
                world = null;
            }
        }
    }
}
