// The world's air and wind (the idiomatic forms of SinewWindDesc and SinewWindZoneDesc).

using Sinew.Native;

namespace Sinew
{
    /// <summary>The world's air and uniform wind (<see cref="World.SetWind"/>). Start from
    /// <see cref="Default"/>; every field may change every frame.</summary>
    public struct WindSettings : INativeSettings<SinewWindDesc>
    {
        /// <summary>Uniform wind velocity (m/s), default (0, 0, 0); components within ±1e4.</summary>
        public SinewVec3 Velocity;
        /// <summary>Air density (kg/m³), default 1.225; in [0, 1e4].</summary>
        public float AirDensity;
        /// <summary>Turbulence amplitude (m/s per component), default 0.</summary>
        public float Turbulence;
        /// <summary>Length scale of the turbulence noise (m), default 2.</summary>
        public float TurbulenceScale;
        /// <summary>Time frequency of the turbulence noise (Hz), default 1.</summary>
        public float TurbulenceFrequency;

        /// <summary>The library's defaults (read from the library, so they never drift).</summary>
        public static WindSettings Default
        {
            get { return NativeSettings.Default<WindSettings, SinewWindDesc>(); }
        }

        /// <summary>The native desc (defaults with their cookie, overwritten by these settings).</summary>
        public SinewWindDesc ToNative()
        {
            return NativeSettings.ToNative<WindSettings, SinewWindDesc>(this);
        }

        unsafe int INativeSettings<SinewWindDesc>.InitNative(ref SinewWindDesc d)
        {
            fixed (SinewWindDesc* p = &d)
                return SinewNative.sinew_wind_desc_init(p);
        }

        void INativeSettings<SinewWindDesc>.Exchange(ref SinewWindDesc d, bool toNative)
        {
            NativeSettings.Copy(ref d.velocity, ref Velocity, toNative);
            NativeSettings.Copy(ref d.air_density, ref AirDensity, toNative);
            NativeSettings.Copy(ref d.turbulence, ref Turbulence, toNative);
            NativeSettings.Copy(ref d.turbulence_scale, ref TurbulenceScale, toNative);
            NativeSettings.Copy(ref d.turbulence_frequency, ref TurbulenceFrequency, toNative);
        }
    }

    /// <summary>A wind zone (<see cref="World.AddWindZone"/>): extra wind inside a box or a
    /// sphere. Start from <see cref="Default"/>; move or gust it every frame with
    /// <see cref="World.SetWindZone"/>.</summary>
    public struct WindZoneSettings : INativeSettings<SinewWindZoneDesc>
    {
        /// <summary>Box (default) or sphere.</summary>
        public SinewWindZoneShape Shape;
        /// <summary>Centre (m).</summary>
        public SinewVec3 Position;
        /// <summary>Box orientation (unit quaternion), default identity.</summary>
        public SinewQuat Rotation;
        /// <summary>Box half extents (m), default (1, 1, 1).</summary>
        public SinewVec3 HalfExtents;
        /// <summary>Sphere radius (m), default 1.</summary>
        public float Radius;
        /// <summary>Direction the wind blows (world frame), default (1, 0, 0); zero = radially
        /// outward from the centre.</summary>
        public SinewVec3 Direction;
        /// <summary>Wind speed along the direction (m/s), default 5.</summary>
        public float Strength;
        /// <summary>Turbulence amplitude (m/s per component), default 0.</summary>
        public float Turbulence;
        /// <summary>Outer fraction of the zone over which the wind fades to 0, in [0, 1], default 0.</summary>
        public float Falloff;

        /// <summary>The library's defaults.</summary>
        public static WindZoneSettings Default
        {
            get { return NativeSettings.Default<WindZoneSettings, SinewWindZoneDesc>(); }
        }

        /// <summary>The native desc.</summary>
        public SinewWindZoneDesc ToNative()
        {
            return NativeSettings.ToNative<WindZoneSettings, SinewWindZoneDesc>(this);
        }

        unsafe int INativeSettings<SinewWindZoneDesc>.InitNative(ref SinewWindZoneDesc d)
        {
            fixed (SinewWindZoneDesc* p = &d)
                return SinewNative.sinew_wind_zone_desc_init(p);
        }

        void INativeSettings<SinewWindZoneDesc>.Exchange(ref SinewWindZoneDesc d, bool toNative)
        {
            NativeSettings.CopyEnum(ref d.shape, ref Shape, toNative);
            NativeSettings.Copy(ref d.position, ref Position, toNative);
            NativeSettings.Copy(ref d.rotation, ref Rotation, toNative);
            NativeSettings.Copy(ref d.half_extents, ref HalfExtents, toNative);
            NativeSettings.Copy(ref d.radius, ref Radius, toNative);
            NativeSettings.Copy(ref d.direction, ref Direction, toNative);
            NativeSettings.Copy(ref d.strength, ref Strength, toNative);
            NativeSettings.Copy(ref d.turbulence, ref Turbulence, toNative);
            NativeSettings.Copy(ref d.falloff, ref Falloff, toNative);
        }
    }
}
