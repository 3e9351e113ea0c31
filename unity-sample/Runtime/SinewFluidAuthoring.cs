// The engine-neutral half of SinewFluid (Sinew types only, no UnityEngine): the fluid's
// settings edited in place, the emitter and the kill volumes kept in step with what the
// component describes, its diffuse particles, and the arithmetic of its instanced
// drawing (batches of 1023, colour by speed, a sphere mesh's instance transform from a
// particle's ellipsoid, the diffuse particles' opacity). SinewFluid calls nothing else
// to build or edit its fluid, and
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

    /// <summary>How a <c>SinewFluid</c> draws its particles.</summary>
    public enum FluidDrawMode
    {
        /// <summary>One sphere per particle, its spacing times a scale across.</summary>
        Spheres = 0,
        /// <summary>One ellipsoid per particle from its neighbours (Yu &amp; Turk 2013,
        /// <see cref="Fluid.ReadAnisotropy{T}(AnisotropySettings, float, T[])"/>): flattened
        /// along the surface, stretched along sheets and streams, so that the water reads as
        /// one body.</summary>
        Ellipsoids = 1,
    }

    /// <summary>An affine instance transform: the images of the mesh's x, y and z axes
    /// (the matrix's first three columns) and its translation (the fourth).</summary>
    public struct InstanceTransform
    {
        public SinewVec3 X, Y, Z, T;
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

        /// <summary>The transform that draws a sphere mesh of radius
        /// <paramref name="meshRadius"/> (0.5 for Unity's Sphere primitive) centred at its
        /// origin as the ellipsoid <paramref name="e"/>: its axes over the mesh radius as the
        /// first three columns (orthogonal, so lighting normals stay right under the
        /// inverse transpose), its centre as the fourth.</summary>
        public static InstanceTransform Ellipsoid(SinewFluidEllipsoid e, float meshRadius)
        {
            float k = meshRadius > 0f ? 1f / meshRadius : 0f;
            return new InstanceTransform
            {
                X = new SinewVec3(e.axis0.x * k, e.axis0.y * k, e.axis0.z * k),
                Y = new SinewVec3(e.axis1.x * k, e.axis1.y * k, e.axis1.z * k),
                Z = new SinewVec3(e.axis2.x * k, e.axis2.y * k, e.axis2.z * k),
                T = e.center,
            };
        }

        /// <summary>The transform that draws a mesh of radius <paramref name="meshRadius"/>
        /// as a sphere (or a billboard) of diameter <paramref name="diameter"/> at
        /// <paramref name="p"/>.</summary>
        public static InstanceTransform Sphere(SinewVec3 p, float diameter, float meshRadius)
        {
            float k = meshRadius > 0f ? 0.5f * diameter / meshRadius : 0f;
            return new InstanceTransform
            {
                X = new SinewVec3(k, 0f, 0f),
                Y = new SinewVec3(0f, k, 0f),
                Z = new SinewVec3(0f, 0f, k),
                T = p,
            };
        }

        /// <summary>The anisotropy readback's settings: the library's defaults with the
        /// bulk drawn <paramref name="scale"/> times half the spacing across (k_s; a little
        /// over 1 closes the gaps between neighbours), centres smoothed by
        /// <paramref name="smoothing"/> (λ), the longest axis at most
        /// <paramref name="maxRatio"/> times the shortest (k_r) and isolated particles at
        /// <paramref name="isolatedScale"/> of the bulk's radius (k_n).</summary>
        public static AnisotropySettings Anisotropy(float scale, float smoothing, float maxRatio, float isolatedScale)
        {
            AnisotropySettings a = AnisotropySettings.Default;
            a.Scale = scale;
            a.Smoothing = smoothing;
            a.MaxRatio = maxRatio;
            a.IsolatedScale = isolatedScale;
            return a;
        }

        /// <summary>The largest threshold speed of <see cref="Diffuse"/> (m/s): its full
        /// potential, at ten times the threshold's energy ½v², stays within
        /// SINEW_MAX_DIFFUSE_ENERGY.</summary>
        public static readonly float MaxDiffuseMinSpeed =
            (float)Math.Sqrt(2.0 * SinewNative.SINEW_MAX_DIFFUSE_ENERGY / 10.0);

        /// <summary>Diffuse settings (spray, foam, bubbles): the library's defaults with
        /// room for <paramref name="capacity"/> (0 when <paramref name="on"/> is false: none),
        /// each living <paramref name="lifetime"/> s, spawned at up to
        /// <paramref name="rate"/> per fluid particle per second (trapped air and wave crests
        /// each) by water faster than <paramref name="minSpeed"/> m/s (kinetic energy ½v²
        /// from the threshold, full at ten times it).</summary>
        public static DiffuseSettings Diffuse(bool on, int capacity, float lifetime, float rate, float minSpeed)
        {
            DiffuseSettings d = DiffuseSettings.Default;
            d.Capacity = on ? capacity : 0;
            d.Lifetime = lifetime;
            d.TrappedAirRate = rate;
            d.WaveCrestRate = rate;
            d.EnergyMin = 0.5f * minSpeed * minSpeed;
            d.EnergyMax = 10f * d.EnergyMin;
            return d;
        }

        /// <summary>Equal in every field.</summary>
        public static bool Same(DiffuseSettings a, DiffuseSettings b)
        {
            return a.Capacity == b.Capacity && a.Lifetime == b.Lifetime && a.TrappedAirRate == b.TrappedAirRate &&
                   a.WaveCrestRate == b.WaveCrestRate && a.TrappedAirMin == b.TrappedAirMin &&
                   a.TrappedAirMax == b.TrappedAirMax && a.WaveCrestMin == b.WaveCrestMin &&
                   a.WaveCrestMax == b.WaveCrestMax && a.EnergyMin == b.EnergyMin && a.EnergyMax == b.EnergyMax &&
                   a.SprayNeighbours == b.SprayNeighbours && a.BubbleNeighbours == b.BubbleNeighbours &&
                   a.Buoyancy == b.Buoyancy && a.Drag == b.Drag && a.Seed == b.Seed;
        }

        /// <summary>Sets the fluid's diffuse particles to <paramref name="wanted"/> when it
        /// differs from <paramref name="applied"/> (a new capacity starts them afresh; while
        /// both have capacity 0 they are off and the other fields do not matter) and
        /// records it on success; a refused value throws SinewException and changes
        /// nothing. Returns whether anything was applied.</summary>
        public static bool SyncDiffuse(Fluid fluid, ref DiffuseSettings applied, DiffuseSettings wanted)
        {
            if (Same(applied, wanted) || (applied.Capacity == 0 && wanted.Capacity == 0))
                return false;
            fluid.SetDiffuse(wanted);
            applied = wanted;
            return true;
        }

        /// <summary>How opaque a diffuse particle is drawn: spray 0.9, foam 1, bubbles 0.5
        /// (seen through the water), fading out over its last <paramref name="fade"/>
        /// seconds.</summary>
        public static float DiffuseOpacity(SinewDiffuseParticle p, float fade)
        {
            float kind = p.kind == (uint)SinewDiffuseKind.Spray ? 0.9f
                       : p.kind == (uint)SinewDiffuseKind.Foam ? 1f : 0.5f;
            float left = fade > 0f ? p.lifetime / fade : 1f;
            if (!(left > 0f))
                return 0f;
            return kind * (left < 1f ? left : 1f);
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
