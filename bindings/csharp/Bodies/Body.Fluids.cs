// Sinew.Body: two-way coupling with fluids. A body's particles with a radius take part
// in every fluid's density (they float, sink, push and are pushed) unless switched off
// here; FluidForce is what the fluids did to the body in the last substep.

using Sinew.Native;

namespace Sinew
{
    public partial class Body
    {
        /// <summary>Turns the two-way coupling of the body's particles with every fluid on
        /// (the default for particles with a radius) or off.</summary>
        public void SetFluidCoupling(bool enabled)
        {
            SinewException.Check(SinewNative.sinew_body_set_fluid_coupling(World.Handle, Handle, enabled ? 1u : 0u));
        }

        /// <summary>The force (N) the fluids exerted on the body in the last substep:
        /// buoyancy plus drag.</summary>
        public unsafe SinewVec3 FluidForce
        {
            get
            {
                SinewVec3 f;
                return SinewException.Checked(SinewNative.sinew_body_fluid_force(World.Handle, Handle, &f), f);
            }
        }
    }
}
