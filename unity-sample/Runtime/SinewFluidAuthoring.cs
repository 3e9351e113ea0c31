// The engine-neutral half of SinewFluid (Sinew types only, no UnityEngine): the fluid's
// settings edited in place, the emitter and the kill volumes kept in step with what the
// component describes, and the arithmetic of its instanced drawing (batches of 1023,
// colour by speed). SinewFluid calls nothing else to build or edit its fluid, and
// tests/csharp compiles this file and checks it against the library on Mono.

using System;
using Sinew.Native;

namespace Sinew.Unity
{
    /// <summary>Which emitter a <c>SinewFluid</c> runs.</summary>
    public enum FluidEmitterKind
    {
        /// <summary>No emitter (emit from a script with <see cref="Fluid.Emit"/>).</summary>
        None = 0,
        /// <summary>A round nozzle (a hose, a tap) facing the emitter's local +z.</summary>
        Nozzle = 1,
        /// <summary>A box (rain, a spring): particles at pseudo-random points inside.</summary>
        Box = 2,
    }

    /// <summary>An emitter as a component describes it (world space, SI units).</summary>
    public struct FluidEmitterOptions
    {
        /// <summary>None removes the emitter.</summary>
        public FluidEmitterKind Kind;
        /// <summary>Nozzle radius, m.</summary>
        public float NozzleRadius;
        /// <summary>Box half extents, m.</summary>
        public SinewVec3 BoxHalfExtents;
        /// <summary>Centre, m.</summary>
        public SinewVec3 Position;
        /// <summary>Orientation: particles leave along its local +z.</summary>
        public SinewQuat Rotation;
        /// <summary>Speed of new particles along local +z, m/s.</summary>
        public float Speed;
        /// <summary>Particles per second (0 pauses the emitter).</summary>
        public float Rate;

        /// <summary>Equal in every field that reaches the library.</summary>
        public bool Same(FluidEmitterOptions o)
        {
            if (Kind != o.Kind || Speed != o.Speed || Rate != o.Rate || !SinewFluidAuthoring.Same(Position, o.Position) ||
                !SinewFluidAuthoring.Same(Rotation, o.Rotation))
                return false;
            if (Kind == FluidEmitterKind.Nozzle)
                return NozzleRadius == o.NozzleRadius;
            if (Kind == FluidEmitterKind.Box)
                return SinewFluidAuthoring.Same(BoxHalfExtents, o.BoxHalfExtents);
            return true;
        }
    }

    /// <summary>Builds and edits a fluid, its emitter and its kill volumes.</summary>
    public static class SinewFluidAuthoring
    {
        /// <summary>Most instances one Graphics.DrawMeshInstanced call draws.</summary>
        public const int BatchSize = 1023;

        /// <summary>Draw calls for <paramref name="count"/> particles.</summary>
        public static int Batches(int count)
        {
            return count <= 0 ? 0 : (count + BatchSize - 1) / BatchSize;
        }

        /// <summary>|v| / maxSpeed in [0, 1] (0 for a non-finite speed or maxSpeed ≤ 0 with
        /// v = 0; 1 for any motion when maxSpeed ≤ 0): the blend from the slow colour to the
        /// fast one.</summary>
        public static float SpeedFraction(SinewVec3 v, float maxSpeed)
        {
            float s = (float)Math.Sqrt((double)v.x * v.x + (double)v.y * v.y + (double)v.z * v.z);
            if (!(s > 0f) || float.IsInfinity(s))
                return float.IsPositiveInfinity(s) ? 1f : 0f;
            if (!(maxSpeed > 0f))
                return 1f;
            float f = s / maxSpeed;
            return f < 1f ? f : 1f;
        }

        /// <summary>Why <paramref name="wanted"/> differs from the fluid as built in a way
        /// the library cannot change in place (Capacity, Spacing): the field's name, or
        /// empty when everything can be applied in place.</summary>
        public static string FluidRebuildReason(FluidSettings built, FluidSettings wanted)
        {
            if (built.Capacity != wanted.Capacity) return "Capacity";
            if (built.Spacing != wanted.Spacing) return "Spacing";
            return "";
        }

        /// <summary>Equal in every field the library can change in place (all but
        /// Capacity and Spacing).</summary>
        public static bool SameInPlace(FluidSettings a, FluidSettings b)
        {
            return a.RestDensity == b.RestDensity && a.SmoothingRadius == b.SmoothingRadius &&
                   a.Relaxation == b.Relaxation && a.ScorrK == b.ScorrK && a.ScorrN == b.ScorrN &&
                   a.ScorrDq == b.ScorrDq && a.Viscosity == b.Viscosity && a.Vorticity == b.Vorticity &&
                   a.Cohesion == b.Cohesion && a.Adhesion == b.Adhesion && a.CollisionRadius == b.CollisionRadius &&
                   a.Lifetime == b.Lifetime && a.RecycleOldest == b.RecycleOldest && a.CouplingMask == b.CouplingMask;
        }

        /// <summary>Pushes <paramref name="wanted"/> into the fluid when a field the library
        /// changes in place differs from <paramref name="applied"/> (Capacity and Spacing
        /// keep their built values: see <see cref="FluidRebuildReason"/>), and records it
        /// in <paramref name="applied"/> on success. A value the library refuses throws
        /// SinewException and leaves both the fluid and <paramref name="applied"/> as they
        /// were. Returns whether anything was applied.</summary>
        public static bool EditFluid(Fluid fluid, ref FluidSettings applied, FluidSettings wanted)
        {
            wanted.Capacity = applied.Capacity;
            wanted.Spacing = applied.Spacing;
            if (SameInPlace(applied, wanted))
                return false;
            fluid.Settings = wanted;
            applied = wanted;
            return true;
        }

        /// <summary>The library's emitter settings for <paramref name="o"/> (Kind must not
        /// be None).</summary>
        public static EmitterSettings Emitter(FluidEmitterOptions o)
        {
            if (o.Kind == FluidEmitterKind.None)
                throw new ArgumentException("SinewFluidAuthoring.Emitter: Kind is None (no emitter to describe)");
            EmitterSettings s = EmitterSettings.Default;
            s.Shape = o.Kind == FluidEmitterKind.Box ? SinewEmitterShape.Box : SinewEmitterShape.Nozzle;
            s.Radius = o.NozzleRadius;
            s.HalfExtents = o.BoxHalfExtents;
            s.Position = o.Position;
            s.Rotation = o.Rotation;
            s.Speed = o.Speed;
            s.Rate = o.Rate;
            return s;
        }

        /// <summary>Keeps the fluid's emitter in step with <paramref name="wanted"/>:
        /// None removes it, a first description adds it, a changed one moves or retunes it
        /// in place (<see cref="Emitter.Set"/>: the fraction of a particle it carries
        /// between steps is kept). <paramref name="emitter"/> and
        /// <paramref name="applied"/> change only when the library accepted the change
        /// (a refused one throws SinewException). Returns whether anything changed.</summary>
        public static bool SyncEmitter(Fluid fluid, ref Emitter emitter, ref FluidEmitterOptions applied,
                                       FluidEmitterOptions wanted)
        {
            if (wanted.Kind == FluidEmitterKind.None)
            {
                if (emitter == null)
                    return false;
                emitter.Remove();
                emitter = null;
                applied = wanted;
                return true;
            }
            if (emitter != null && wanted.Same(applied))
                return false;
            EmitterSettings s = Emitter(wanted);
            if (emitter == null)
                emitter = fluid.AddEmitter(s);
            else
                emitter.Set(s);
            applied = wanted;
            return true;
        }

        /// <summary>A kill box from a box collider: its world centre and rotation, its size
        /// (m, local) scaled by the object's scale (absolute values: a mirrored box is the
        /// same box).</summary>
        public static KillVolumeSettings KillBox(SinewVec3 center, SinewQuat rotation, SinewVec3 size, SinewVec3 scale)
        {
            KillVolumeSettings s = KillVolumeSettings.Default;
            s.Shape = SinewKillVolumeShape.Box;
            s.Center = center;
            s.Rotation = rotation;
            s.HalfExtents = new SinewVec3(0.5f * Math.Abs(size.x * scale.x), 0.5f * Math.Abs(size.y * scale.y),
                                          0.5f * Math.Abs(size.z * scale.z));
            return s;
        }

        /// <summary>A kill ball of <paramref name="radius"/> m.</summary>
        public static KillVolumeSettings KillSphere(SinewVec3 center, float radius)
        {
            KillVolumeSettings s = KillVolumeSettings.Default;
            s.Shape = SinewKillVolumeShape.Sphere;
            s.Center = center;
            s.Radius = radius;
            return s;
        }

        /// <summary>Everything on the side of the plane through <paramref name="point"/> that
        /// <paramref name="normal"/> points away from.</summary>
        public static KillVolumeSettings KillBelow(SinewVec3 point, SinewVec3 normal)
        {
            KillVolumeSettings s = KillVolumeSettings.Default;
            s.Shape = SinewKillVolumeShape.HalfSpace;
            s.Center = point;
            s.Normal = normal;
            return s;
        }

        /// <summary>Equal in every field that reaches the library for its shape.</summary>
        public static bool Same(KillVolumeSettings a, KillVolumeSettings b)
        {
            if (a.Shape != b.Shape || !Same(a.Center, b.Center))
                return false;
            switch (a.Shape)
            {
                case SinewKillVolumeShape.Box:
                    return Same(a.Rotation, b.Rotation) && Same(a.HalfExtents, b.HalfExtents);
                case SinewKillVolumeShape.Sphere:
                    return a.Radius == b.Radius;
                default:
                    return Same(a.Normal, b.Normal);
            }
        }

        /// <summary>Keeps the fluid's kill volumes equal to the first
        /// <paramref name="count"/> entries of <paramref name="wanted"/>: when any differs
        /// from <paramref name="applied"/> (or the count changed) the old volumes are
        /// removed and the new ones added, in order. <paramref name="volumes"/> and
        /// <paramref name="applied"/> grow as needed and hold what the library has. A
        /// refused volume throws SinewException; the ones before it stay. Returns whether
        /// anything changed.</summary>
        public static bool SyncKillVolumes(Fluid fluid, ref KillVolume[] volumes, ref KillVolumeSettings[] applied,
                                           ref int appliedCount, KillVolumeSettings[] wanted, int count)
        {
            bool same = count == appliedCount;
            for (int i = 0; same && i < count; i++)
                same = Same(applied[i], wanted[i]);
            if (same)
                return false;
            for (int i = 0; i < appliedCount; i++)
            {
                if (volumes[i] != null)
                    volumes[i].Remove();
                volumes[i] = null;
            }
            appliedCount = 0;
            if (volumes == null || volumes.Length < count)
                Array.Resize(ref volumes, count);
            if (applied == null || applied.Length < count)
                Array.Resize(ref applied, count);
            for (int i = 0; i < count; i++)
            {
                volumes[i] = fluid.AddKillVolume(wanted[i]);
                applied[i] = wanted[i];
                appliedCount = i + 1;
            }
            return true;
        }

        internal static bool Same(SinewVec3 a, SinewVec3 b)
        {
            return a.x == b.x && a.y == b.y && a.z == b.z;
        }

        internal static bool Same(SinewQuat a, SinewQuat b)
        {
            return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w;
        }
    }
}
