// Sinew.World: dynamic colliders (two-way coupling with a host engine's rigid bodies)
// and pins (particles attached to points of a collider).

using Sinew.Native;

namespace Sinew
{
    public sealed partial class World
    {
        /// <summary>Makes <paramref name="collider"/> dynamic: the host body behind it
        /// (mass in kg, principal moments of inertia in kg·m² along
        /// <paramref name="inertiaRotation"/> in the collider's frame, centre of mass in
        /// the collider's frame, velocity and angular velocity in world space). Call it
        /// every fixed step before <see cref="Step"/> with the body's current values;
        /// afterwards <see cref="ReadColliderMotion"/> and <see cref="ContactWrench(SinewColliderHandle, SinewVec3, out SinewVec3, out SinewVec3)"/>
        /// say what the particles did to it. <paramref name="gravity"/>: whether Sinew
        /// applies the world's gravity to the proxy (false when the host integrates it, as
        /// Unity and Unreal do).</summary>
        public unsafe void SetColliderDynamics(SinewColliderHandle collider, float mass, SinewVec3 inertia,
            SinewQuat inertiaRotation, SinewVec3 centerOfMass, SinewVec3 velocity,
            SinewVec3 angularVelocity, bool gravity = false)
        {
            var d = new SinewColliderDynamics
            {
                mass = mass,
                inertia = inertia,
                inertia_rotation = inertiaRotation,
                center_of_mass = centerOfMass,
                velocity = velocity,
                angular_velocity = angularVelocity,
                gravity = gravity ? 1u : 0u,
            };
            SinewException.Check(SinewNative.sinew_collider_set_dynamics(Handle, collider, &d));
        }

        /// <summary>Makes <paramref name="collider"/> kinematic again.</summary>
        public void ClearColliderDynamics(SinewColliderHandle collider)
        {
            SinewException.Check(SinewNative.sinew_collider_clear_dynamics(Handle, collider));
        }

        /// <summary>What the proxy of dynamic <paramref name="collider"/> did over the
        /// last step: its end velocities and the velocity change the particles, pins and
        /// fluids made (gravity and the gyroscopic turn left out). Allocates
        /// nothing.</summary>
        public unsafe ColliderMotion ReadColliderMotion(SinewColliderHandle collider)
        {
            SinewColliderMotion m;
            SinewException.Check(SinewNative.sinew_collider_read_motion(Handle, collider, &m));
            return ColliderMotion.From(m);
        }

        /// <summary>Pins <paramref name="particles"/> to the points
        /// <paramref name="offsets"/> (m, the collider's frame) of
        /// <paramref name="collider"/> with <paramref name="compliance"/> (m/N, 0 =
        /// rigid); a dynamic collider takes the reaction. Returns the first pin's
        /// index.</summary>
        public unsafe int PinParticles(SinewColliderHandle collider, uint[] particles, SinewVec3[] offsets, float compliance = 0f)
        {
            const string F = "World.PinParticles";
            Args.NotNull(particles, F, "particles");
            Args.NotNull(offsets, F, "offsets");
            if (offsets.Length != particles.Length)
                throw new System.ArgumentException(F + ": " + particles.Length + " particles and " + offsets.Length + " offsets");
            uint first;
            fixed (uint* p = particles)
            fixed (SinewVec3* o = offsets)
                SinewException.Check(SinewNative.sinew_collider_pin_particles(Handle, collider, p, o,
                    unchecked((uint)particles.Length), compliance, &first));
            return (int)first;
        }

        /// <summary>Removes pins <paramref name="first"/>..<paramref name="first"/> +
        /// <paramref name="count"/>.</summary>
        public void RemovePins(int first, int count)
        {
            SinewException.Check(SinewNative.sinew_world_remove_pins(Handle, unchecked((uint)first), unchecked((uint)count)));
        }

        /// <summary>The force (N) each pin from <paramref name="first"/> exerted on its
        /// particle in the last substep (its collider received the opposite), into
        /// <paramref name="destination"/>. Allocates nothing.</summary>
        public unsafe void ReadPinForces(int first, SinewVec3[] destination)
        {
            Args.NotNull(destination, "World.ReadPinForces", "destination");
            fixed (SinewVec3* d = destination)
                SinewException.Check(SinewNative.sinew_world_read_pin_forces(Handle, unchecked((uint)first), unchecked((uint)destination.Length), d));
        }
    }
}
