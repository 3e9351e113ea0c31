// Sinew.World: sleeping (C: sinew_world_set_sleeping, sinew_world_set_sleep_threshold,
// sinew_world_wake_all; per body: Body.IsAsleep, Body.Wake, Body.Sleep). Islands of
// particles whose kinetic energy per mass stays under the threshold for the sleep time
// stop being simulated until something wakes them (docs/concepts.md, "Sleeping").
//
//     world.Sleeping = true;
//     world.SetSleepThreshold(1e-3f, 0.5f);   // J/kg, s (the defaults)
//     bool still = rope.IsAsleep;

using Sinew.Native;

namespace Sinew
{
    public sealed partial class World
    {
        bool sleeping;

        /// <summary>Whether islands at rest fall asleep (off by default, or the settings'
        /// <c>Sleeping</c>). Turning it off wakes everything; off, the physics is the same
        /// bits as a world without it.</summary>
        public bool Sleeping
        {
            get { return sleeping; }
            set
            {
                SinewException.Check(SinewNative.sinew_world_set_sleeping(Handle, value ? 1u : 0u));
                sleeping = value;
            }
        }

        /// <summary>Sets the sleep threshold (J/kg: a particle is at rest while half its
        /// squared speed stays under it) and the sleep time (s: how long a whole island
        /// stays at rest before it sleeps).</summary>
        public void SetSleepThreshold(float joulesPerKg, float seconds)
        {
            SinewException.Check(SinewNative.sinew_world_set_sleep_threshold(Handle, joulesPerKg, seconds));
        }

        /// <summary>Wakes every sleeping island.</summary>
        public void WakeAll()
        {
            SinewException.Check(SinewNative.sinew_world_wake_all(Handle));
        }
    }
}
