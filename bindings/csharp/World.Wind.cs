// Sinew.World: wind. The air and its uniform wind, wind zones (box or sphere), and the
// air velocity at a point; every setter may be called every frame. A body's drag and
// lift coefficients are set on the Body (Body.SetAerodynamics).

using Sinew.Native;

namespace Sinew
{
    public sealed partial class World
    {
        /// <summary>Sets the air density, the uniform wind and its turbulence (next step on).</summary>
        public unsafe void SetWind(WindSettings settings)
        {
            var d = settings.ToNative();
            SinewException.Check(SinewNative.sinew_world_set_wind(Handle, &d));
        }

        /// <summary>Adds a wind zone; returns its id (0, 1, ...; never reused).</summary>
        public unsafe int AddWindZone(WindZoneSettings settings)
        {
            var d = settings.ToNative();
            uint zone;
            SinewException.Check(SinewNative.sinew_world_add_wind_zone(Handle, &d, &zone));
            return (int)zone;
        }

        /// <summary>Replaces the settings of wind zone <paramref name="zone"/> (move it, gust it).</summary>
        public unsafe void SetWindZone(int zone, WindZoneSettings settings)
        {
            var d = settings.ToNative();
            SinewException.Check(SinewNative.sinew_world_set_wind_zone(Handle, unchecked((uint)zone), &d));
        }

        /// <summary>Removes wind zone <paramref name="zone"/>.</summary>
        public void RemoveWindZone(int zone)
        {
            SinewException.Check(SinewNative.sinew_world_remove_wind_zone(Handle, unchecked((uint)zone)));
        }

        /// <summary>The air velocity (m/s) at <paramref name="position"/> (m) now: the uniform
        /// wind, its turbulence and every zone.</summary>
        public unsafe SinewVec3 WindAt(SinewVec3 position)
        {
            SinewVec3 v;
            SinewException.Check(SinewNative.sinew_world_wind_at(Handle, &position, &v));
            return v;
        }
    }
}
