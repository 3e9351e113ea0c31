// Settings of a new World (the idiomatic form of SinewWorldDesc).

using Sinew.Native;

namespace Sinew
{
    /// <summary>Settings of a new <see cref="World"/>. Start from <see cref="Default"/>
    /// (the library's own defaults) and change what you need; the library validates
    /// every field when the world is created.</summary>
    public struct WorldSettings : INativeSettings<SinewWorldDesc>
    {
        /// <summary>m/s², default (0, -9.81, 0).</summary>
        public SinewVec3 Gravity;
        /// <summary>Substeps per step, 1..1024, default 8. More substeps with one
        /// iteration is usually better than more iterations.</summary>
        public int Substeps;
        /// <summary>Solver iterations per substep, 1..1024, default 1.</summary>
        public int Iterations;
        /// <summary>Gauss-Seidel (default) or Jacobi.</summary>
        public SinewSolver Solver;
        /// <summary>Jacobi only: scale of the averaged correction, in (0, 2), default 1.</summary>
        public float JacobiRelaxation;
        /// <summary>Linear velocity damping, 1/s (v decays as exp(-damping t)), default 0.</summary>
        public float Damping;
        /// <summary>Worker threads: 0 = all cores (default), 1 = the calling thread only.
        /// Results are bit-identical whatever the count.</summary>
        public int Threads;

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
            NativeSettings.Copy(ref d.gravity, ref Gravity, toNative);
            NativeSettings.Copy(ref d.substeps, ref Substeps, toNative);
            NativeSettings.Copy(ref d.iterations, ref Iterations, toNative);
            NativeSettings.CopyEnum(ref d.solver, ref Solver, toNative);
            NativeSettings.Copy(ref d.jacobi_relaxation, ref JacobiRelaxation, toNative);
            NativeSettings.Copy(ref d.damping, ref Damping, toNative);
            NativeSettings.Copy(ref d.threads, ref Threads, toNative);
        }
    }
}
