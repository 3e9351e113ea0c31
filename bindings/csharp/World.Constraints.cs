// Sinew.World: distance constraints. Particle pairs are given as a flat index array
// (a0, b0, a1, b1, ...); rest lengths in m (null = the current distances); XPBD
// compliance α in m/N (0 = rigid) or PBD stiffness k in [0, 1].

using Sinew.Native;

namespace Sinew
{
    public sealed partial class World
    {
        /// <summary>Number of distance constraints (both flavours).</summary>
        public unsafe int DistanceConstraintCount
        {
            get { uint n; return (int)SinewException.Checked(SinewNative.sinew_world_distance_constraint_count(Handle, &n), n); }
        }

        /// <summary>Adds particlePairs.Length / 2 XPBD distance constraints with
        /// <paramref name="compliance"/> α (m/N, 0 = rigid). Returns the id of the first;
        /// ids are consecutive and shared with the PBD flavour.</summary>
        public int AddDistanceConstraints(int[] particlePairs, float[] restLengths, float compliance)
        {
            return AddPairs(addDistance, particlePairs, restLengths, compliance, "World.AddDistanceConstraints");
        }

        /// <summary>Adds <paramref name="count"/> XPBD distance constraints from 2*count
        /// particle indices and count rest lengths (m; null = current distances).</summary>
        public unsafe int AddDistanceConstraints(uint* particlePairs, float* restLengths, int count, float compliance)
        {
            return AddPairs(addDistance, particlePairs, restLengths, count, compliance);
        }

        /// <summary>Adds particlePairs.Length / 2 PBD distance constraints with
        /// <paramref name="stiffness"/> k in [0, 1] (fraction of the error removed per
        /// substep, independent of the iteration count). Returns the id of the first.</summary>
        public int AddPbdDistanceConstraints(int[] particlePairs, float[] restLengths, float stiffness)
        {
            return AddPairs(addPbdDistance, particlePairs, restLengths, stiffness, "World.AddPbdDistanceConstraints");
        }

        /// <summary>Adds <paramref name="count"/> PBD distance constraints from 2*count
        /// particle indices and count rest lengths (m; null = current distances).</summary>
        public unsafe int AddPbdDistanceConstraints(uint* particlePairs, float* restLengths, int count, float stiffness)
        {
            return AddPairs(addPbdDistance, particlePairs, restLengths, count, stiffness);
        }

        /// <summary>Copies the force magnitudes |λ|/h² (N) of constraints
        /// first..first+newtons.Length in the last substep (e.g. rope tension).</summary>
        public unsafe void ReadConstraintForces(int first, float[] newtons)
        {
            Args.NotNull(newtons, "World.ReadConstraintForces", "newtons");
            using (var p = new Pin(newtons))
                ReadConstraintForces(first, newtons.Length, (float*)p.Ptr);
        }

        /// <summary>Copies the force magnitudes (N) of constraints first..first+count.</summary>
        public unsafe void ReadConstraintForces(int first, int count, float* newtons)
        {
            SinewException.Check(SinewNative.sinew_world_read_constraint_forces(Handle, unchecked((uint)first), unchecked((uint)count), newtons));
        }

        /// <summary>A library builder over a flat index list with one optional value per element
        /// and one parameter: the distance constraints (pairs, rest lengths, compliance or
        /// stiffness) and the families of World.Families.cs; writes the first new id.</summary>
        unsafe delegate int ValuedCall(SinewWorldHandle world, uint* indices, float* values, uint count, float parameter,
                                       uint* first);

        static readonly unsafe ValuedCall addDistance = SinewNative.sinew_world_add_distance_constraints;
        static readonly unsafe ValuedCall addPbdDistance = SinewNative.sinew_world_add_pbd_distance_constraints;

        unsafe int AddPairs(ValuedCall call, int[] particlePairs, float[] restLengths, float parameter, string function)
        {
            CheckPairs(particlePairs, restLengths, function);
            using (var p = new Pin(particlePairs))
            using (var r = new Pin(restLengths))
                return AddPairs(call, (uint*)p.Ptr, (float*)r.Ptr, particlePairs.Length / 2, parameter);
        }

        unsafe int AddPairs(ValuedCall call, uint* particlePairs, float* restLengths, int count, float parameter)
        {
            uint first;
            return (int)SinewException.Checked(call(Handle, particlePairs, restLengths, unchecked((uint)count), parameter,
                &first), first);
        }

        static void CheckPairs(int[] particlePairs, float[] restLengths, string function)
        {
            Args.NotNull(particlePairs, function, "particlePairs");
            if (particlePairs.Length % 2 != 0)
                throw SinewException.Argument(function, "particlePairs has " + particlePairs.Length +
                    " indices, not an even number (two per constraint)");
            if (restLengths != null && restLengths.Length != particlePairs.Length / 2)
                throw SinewException.Argument(function, "restLengths has " + restLengths.Length +
                    " elements for " + particlePairs.Length / 2 + " constraints");
        }
    }
}
