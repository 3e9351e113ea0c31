// Sinew.Body: level of detail. How the body is simulated (full, at a reduced rate, or
// paused), which a host sets from visibility and camera distance.

using Sinew.Native;

namespace Sinew
{
    public partial class Body
    {
        /// <summary>How the body is simulated, from the next step on: SimFull (every
        /// substep, the default), SimReduced (one substep in <see cref="SimEvery"/>, with a
        /// substep that many times longer) or SimPaused (not simulated; kinematic to others;
        /// resuming moves it onto its attachments and zeroes its velocities for 4 steps).
        /// Setting SimReduced keeps the current rate when it is above 1, else uses 2 (set
        /// both at once with <see cref="SetSimMode"/>).</summary>
        public SinewSimMode SimMode
        {
            get { uint every; return ReadSimMode(out every); }
            set
            {
                uint every;
                ReadSimMode(out every);
                SetSimMode(value, value == SinewSimMode.Reduced && every > 1 ? (int)every : 2);
            }
        }

        /// <summary>The rate of SimReduced (the body runs one substep in this many); 1
        /// otherwise.</summary>
        public int SimEvery
        {
            get { uint every; ReadSimMode(out every); return (int)every; }
        }

        /// <summary>Sets the mode and, for SimReduced, the rate <paramref name="every"/> in
        /// 1..=the world's substeps (1 is SimFull). A bad mode or rate throws with nothing
        /// changed.</summary>
        public void SetSimMode(SinewSimMode mode, int every = 1)
        {
            if (every < 0)
                throw new SinewException(SinewStatus.ErrorOutOfRange, "Body.SetSimMode: every " + every +
                    " is negative");
            SinewException.Check(SinewNative.sinew_body_set_sim_mode(World.Handle, Handle, (uint)mode,
                (uint)every));
        }

        unsafe SinewSimMode ReadSimMode(out uint every)
        {
            uint mode, e;
            SinewException.Check(SinewNative.sinew_body_get_sim_mode(World.Handle, Handle, &mode, &e));
            every = e;
            return (SinewSimMode)mode;
        }
    }
}
