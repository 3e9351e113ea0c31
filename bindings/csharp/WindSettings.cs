// The world's air and wind (the idiomatic forms of SinewWindDesc and SinewWindZoneDesc).

using Sinew.Native;

namespace Sinew
{
    /// <summary>The world's air and uniform wind (<see cref="World.SetWind"/>). Start from
    /// <see cref="Default"/>; every field may change every frame.</summary>
    public struct WindSettings : INativeSettings<SinewWindDesc>
    {
        // BEGIN GENERATED WindDesc fields
        /// <summary>Uniform wind velocity. Each component in [-SINEW_MAX_WIND_SPEED,
        /// SINEW_MAX_WIND_SPEED] m/s. Default (0, 0, 0).</summary>
        public SinewVec3 Velocity;
        /// <summary>Air density ρ (1.225 at sea level, 15 °C). In [0, SINEW_MAX_AIR_DENSITY]
        /// kg/m³. Default 1.225.</summary>
        public float AirDensity;
        /// <summary>Amplitude of the world wind's turbulence, per component. In [0,
        /// SINEW_MAX_WIND_SPEED] m/s. Default 0.</summary>
        public float Turbulence;
        /// <summary>Length scale of the turbulence noise. In [SINEW_MIN_TURBULENCE_SCALE,
        /// SINEW_MAX_LENGTH] m. Default 2.</summary>
        public float TurbulenceScale;
        /// <summary>Time frequency of the turbulence noise. In [0,
        /// SINEW_MAX_TURBULENCE_FREQUENCY] Hz. Default 1.</summary>
        public float TurbulenceFrequency;
        // END GENERATED WindDesc fields

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
            // BEGIN GENERATED WindDesc exchange
            NativeSettings.Copy(ref d.velocity, ref Velocity, toNative);
            NativeSettings.Copy(ref d.air_density, ref AirDensity, toNative);
            NativeSettings.Copy(ref d.turbulence, ref Turbulence, toNative);
            NativeSettings.Copy(ref d.turbulence_scale, ref TurbulenceScale, toNative);
            NativeSettings.Copy(ref d.turbulence_frequency, ref TurbulenceFrequency, toNative);
            // END GENERATED WindDesc exchange
        }
    }

    /// <summary>A wind zone (<see cref="World.AddWindZone"/>): extra wind inside a box or a
    /// sphere. Start from <see cref="Default"/>; move or gust it every frame with
    /// <see cref="World.SetWindZone"/>.</summary>
    public struct WindZoneSettings : INativeSettings<SinewWindZoneDesc>
    {
        // BEGIN GENERATED WindZoneDesc fields
        /// <summary>Box (an oriented box of `half_extents`) or sphere (of `radius`). Default 0
        /// (a SinewWindZoneShape).</summary>
        public SinewWindZoneShape Shape;
        /// <summary>Centre. Each component in [-SINEW_MAX_COORDINATE, SINEW_MAX_COORDINATE] m.
        /// Default (0, 0, 0).</summary>
        public SinewVec3 Position;
        /// <summary>Orientation of a box (a quaternion of length in [0.5, 2], normalised on
        /// input). Default (0, 0, 0, 1) (x, y, z, w).</summary>
        public SinewQuat Rotation;
        /// <summary>Box half extents. Each component in (0, SINEW_MAX_LENGTH] m. Default (1, 1,
        /// 1).</summary>
        public SinewVec3 HalfExtents;
        /// <summary>Sphere radius. In (0, SINEW_MAX_LENGTH] m. Default 1.</summary>
        public float Radius;
        /// <summary>Direction the wind blows (world frame; normalised on input): (0, 0, 0) =
        /// radially outward from `position` (a blast, Unity's spherical zone), else of length
        /// in [1e-6, 1e6]. Default (1, 0, 0).</summary>
        public SinewVec3 Direction;
        /// <summary>Wind speed along `direction`. In [0, SINEW_MAX_WIND_SPEED] m/s. Default
        /// 5.</summary>
        public float Strength;
        /// <summary>Turbulence amplitude, per component. In [0, SINEW_MAX_WIND_SPEED] m/s.
        /// Default 0.</summary>
        public float Turbulence;
        /// <summary>Outer fraction of the zone over which the wind fades to 0 (0 = a sharp
        /// edge). In [0, 1]. Default 0.</summary>
        public float Falloff;
        // END GENERATED WindZoneDesc fields

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
            // BEGIN GENERATED WindZoneDesc exchange
            NativeSettings.CopyEnum(ref d.shape, ref Shape, toNative);
            NativeSettings.Copy(ref d.position, ref Position, toNative);
            NativeSettings.Copy(ref d.rotation, ref Rotation, toNative);
            NativeSettings.Copy(ref d.half_extents, ref HalfExtents, toNative);
            NativeSettings.Copy(ref d.radius, ref Radius, toNative);
            NativeSettings.Copy(ref d.direction, ref Direction, toNative);
            NativeSettings.Copy(ref d.strength, ref Strength, toNative);
            NativeSettings.Copy(ref d.turbulence, ref Turbulence, toNative);
            NativeSettings.Copy(ref d.falloff, ref Falloff, toNative);
            // END GENERATED WindZoneDesc exchange
        }
    }
}
