// Settings of a new World (the idiomatic form of SinewWorldDesc).

using Sinew.Native;

namespace Sinew
{
    /// <summary>Settings of a new <see cref="World"/>. Start from <see cref="Default"/>
    /// (the library's own defaults) and change what you need; the library validates
    /// every field when the world is created.</summary>
    public struct WorldSettings : INativeSettings<SinewWorldDesc>
    {
        // BEGIN GENERATED WorldDesc fields
        /// <summary>Gravity, the acceleration of every particle with mass. Each component in
        /// [-SINEW_MAX_ACCELERATION, SINEW_MAX_ACCELERATION] m/s². Default (0, -9.81,
        /// 0).</summary>
        public SinewVec3 Gravity;
        /// <summary>Substeps per step. More substeps with one iteration is usually better than
        /// more iterations. In 1..=SINEW_MAX_SUBSTEPS. Default 8.</summary>
        public int Substeps;
        /// <summary>Solver iterations per substep. In 1..=SINEW_MAX_ITERATIONS. Default
        /// 1.</summary>
        public int Iterations;
        /// <summary>Gauss-Seidel (constraints one after another, by colour) or Jacobi (all from
        /// the same positions, corrections averaged per particle). Default 0 (a
        /// SinewSolver).</summary>
        public SinewSolver Solver;
        /// <summary>Jacobi only: scale of the averaged correction (1 = plain averaging; above 1
        /// over-relaxes). In (0, SINEW_MAX_JACOBI_RELAXATION). Default 1.</summary>
        public float JacobiRelaxation;
        /// <summary>Linear velocity damping: velocities decay as exp(−damping·t). In [0,
        /// SINEW_MAX_ACCELERATION] 1/s. Default 0.</summary>
        public float Damping;
        /// <summary>Worker threads (1 = the calling thread only). Results are bit-identical
        /// whatever the count. In 0..=SINEW_MAX_THREADS; 0 = all cores. Default 0.</summary>
        public int Threads;
        /// <summary>Time every stage of each step (read back as the last step's stage times; no
        /// clock is read when off). The physics is the same bits on or off. Default 0 (0 or
        /// 1).</summary>
        public bool Profiling;
        /// <summary>Sleeping: islands of particles at rest stop being simulated until something
        /// wakes them (src/world/sleep.rs). Off, the physics is the same bits and costs
        /// nothing. Default 0 (0 or 1).</summary>
        public bool Sleeping;
        /// <summary>Kinetic energy per mass ½|v|² under which a particle counts as at rest
        /// (1e-3 J/kg: about 4.5 cm/s). In [0, SINEW_MAX_SLEEP_THRESHOLD] J/kg. Default
        /// 0.001.</summary>
        public float SleepThreshold;
        /// <summary>How long every particle of an island must stay at rest before it sleeps. In
        /// [0, SINEW_MAX_SLEEP_TIME] s. Default 0.5.</summary>
        public float SleepTime;
        // END GENERATED WorldDesc fields

        /// <summary>The library's defaults (read from the library, so they never drift).</summary>
        public static WorldSettings Default
        {
            get { return NativeSettings.Default<WorldSettings, SinewWorldDesc>(); }
        }

        /// <summary>The native desc: the defaults (with their cookie) overwritten by
        /// these settings. Negative counts become huge unsigned values, which the library
        /// rejects with a message.</summary>
        public SinewWorldDesc ToNative()
        {
            return NativeSettings.ToNative<WorldSettings, SinewWorldDesc>(this);
        }

        unsafe int INativeSettings<SinewWorldDesc>.InitNative(ref SinewWorldDesc d)
        {
            fixed (SinewWorldDesc* p = &d)
                return SinewNative.sinew_world_desc_init(p);
        }

        void INativeSettings<SinewWorldDesc>.Exchange(ref SinewWorldDesc d, bool toNative)
        {
            // BEGIN GENERATED WorldDesc exchange
            NativeSettings.Copy(ref d.gravity, ref Gravity, toNative);
            NativeSettings.Copy(ref d.substeps, ref Substeps, toNative);
            NativeSettings.Copy(ref d.iterations, ref Iterations, toNative);
            NativeSettings.CopyEnum(ref d.solver, ref Solver, toNative);
            NativeSettings.Copy(ref d.jacobi_relaxation, ref JacobiRelaxation, toNative);
            NativeSettings.Copy(ref d.damping, ref Damping, toNative);
            NativeSettings.Copy(ref d.threads, ref Threads, toNative);
            NativeSettings.Copy(ref d.profiling, ref Profiling, toNative);
            NativeSettings.Copy(ref d.sleeping, ref Sleeping, toNative);
            NativeSettings.Copy(ref d.sleep_threshold, ref SleepThreshold, toNative);
            NativeSettings.Copy(ref d.sleep_time, ref SleepTime, toNative);
            // END GENERATED WorldDesc exchange
        }
    }
}
