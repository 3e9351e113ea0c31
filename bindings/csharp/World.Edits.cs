// In-place edits of any constraint family (remove by id range, rest values, compliance,
// stiffness), break forces and the polled break events. Ids never shift; every edit
// takes effect at the next step and changes nothing when it throws.

using Sinew.Native;

namespace Sinew
{
    /// <summary>One broken constraint.</summary>
    public struct BreakEvent
    {
        /// <summary>The body it belonged to (id 0: a constraint the host added).</summary>
        public SinewBodyHandle Body;
        public SinewFamily Family;
        public int Id;
        /// <summary>The force that broke it (family units: N for lengths).</summary>
        public float Force;
        /// <summary>Where it broke (m).</summary>
        public SinewVec3 Position;
    }

    public sealed partial class World
    {
        /// <summary>Removes constraints first..first+count of <paramref name="family"/>: they
        /// keep their ids and stop acting. Removed ids stay removed.</summary>
        public void RemoveConstraints(SinewFamily family, int first, int count)
        {
            SinewException.Check(SinewNative.sinew_constraints_remove(Handle, (uint)family,
                unchecked((uint)first), unchecked((uint)count)));
        }

        /// <summary>Whether constraint <paramref name="id"/> of <paramref name="family"/> was
        /// removed.</summary>
        public unsafe bool IsConstraintRemoved(SinewFamily family, int id)
        {
            uint r;
            return SinewException.Checked(SinewNative.sinew_constraints_is_removed(Handle, (uint)family,
                unchecked((uint)id), &r), r) != 0;
        }

        /// <summary>Sets the rest values (length m, angle rad, area m², volume m³ per
        /// family) of constraints first..first+values.Length.</summary>
        public unsafe void SetConstraintRest(SinewFamily family, int first, float[] values)
        {
            Args.NotNull(values, "World.SetConstraintRest", "values");
            using (var p = new Pin(values))
                SinewException.Check(SinewNative.sinew_constraints_set_rest(Handle, (uint)family,
                    unchecked((uint)first), (uint)values.Length, (float*)p.Ptr));
        }

        /// <summary>Copies the rest values of constraints first..first+destination.Length
        /// (NaN for removed ones).</summary>
        public unsafe void ReadConstraintRest(SinewFamily family, int first, float[] destination)
        {
            Args.NotNull(destination, "World.ReadConstraintRest", "destination");
            using (var p = new Pin(destination))
                SinewException.Check(SinewNative.sinew_constraints_read_rest(Handle, (uint)family,
                    unchecked((uint)first), (uint)destination.Length, (float*)p.Ptr));
        }

        /// <summary>Sets the compliance (family units; 0 = rigid) of constraints
        /// first..first+count.</summary>
        public void SetConstraintCompliance(SinewFamily family, int first, int count, float compliance)
        {
            SinewException.Check(SinewNative.sinew_constraints_set_compliance(Handle, (uint)family,
                unchecked((uint)first), unchecked((uint)count), compliance));
        }

        /// <summary>Sets the PBD stiffness ([0, 1]) of distance constraints or shape
        /// clusters first..first+count.</summary>
        public void SetConstraintStiffness(SinewFamily family, int first, int count, float stiffness)
        {
            SinewException.Check(SinewNative.sinew_constraints_set_stiffness(Handle, (uint)family,
                unchecked((uint)first), unchecked((uint)count), stiffness));
        }

        /// <summary>Constraints first..first+count break when their force exceeds
        /// <paramref name="force"/> (family units; +infinity: never) in a substep.</summary>
        public void SetConstraintBreakForce(SinewFamily family, int first, int count, float force)
        {
            SinewException.Check(SinewNative.sinew_constraints_set_break_force(Handle, (uint)family,
                unchecked((uint)first), unchecked((uint)count), force));
        }

        /// <summary>Number of break events waiting.</summary>
        public unsafe int BreakEventCount
        {
            get
            {
                uint n;
                return (int)SinewException.Checked(SinewNative.sinew_world_break_event_count(Handle, &n), n);
            }
        }

        /// <summary>Moves the waiting break events (oldest first, up to destination.Length)
        /// into <paramref name="destination"/>; returns how many, and in
        /// <paramref name="lost"/> how many a full queue dropped since the last call.</summary>
        public unsafe int TakeBreakEvents(BreakEvent[] destination, out long lost)
        {
            Args.NotNull(destination, "World.TakeBreakEvents", "destination");
            var raw = new SinewBreakEvent[destination.Length == 0 ? 1 : destination.Length];
            uint n;
            ulong dropped;
            fixed (SinewBreakEvent* p = raw)
                SinewException.Check(SinewNative.sinew_world_take_break_events(Handle, p,
                    (uint)destination.Length, &n, &dropped));
            for (int i = 0; i < (int)n; i++)
                destination[i] = new BreakEvent
                {
                    Body = raw[i].body,
                    Family = (SinewFamily)raw[i].family,
                    Id = (int)raw[i].id,
                    Force = raw[i].force,
                    Position = raw[i].position,
                };
            lost = (long)dropped;
            return (int)n;
        }
    }
}
