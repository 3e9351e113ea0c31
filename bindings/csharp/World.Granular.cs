// Sinew.World: granular materials. Friction, rolling resistance and cohesion between
// particles, set on a range of particles (sand, gravel, snow, grain).

using Sinew.Native;

namespace Sinew
{
    public sealed partial class World
    {
        /// <summary>Gives particles <paramref name="first"/>..<paramref name="first"/> +
        /// <paramref name="count"/> the granular material <paramref name="material"/>
        /// (friction, rolling resistance and cohesion in their contacts with other particles).
        /// Particles start frictionless; only particles with a radius take part in contacts.
        /// A fluid's particles are refused.</summary>
        public unsafe void SetParticleMaterial(int first, int count, ParticleMaterialSettings material)
        {
            var d = material.ToNative();
            SinewException.Check(SinewNative.sinew_world_set_particle_material(Handle, unchecked((uint)first), unchecked((uint)count), &d));
        }

        /// <summary>The granular material of particle <paramref name="index"/>.</summary>
        public unsafe ParticleMaterialSettings ParticleMaterial(int index)
        {
            SinewParticleMaterial d;
            SinewException.Check(SinewNative.sinew_world_particle_material(Handle, unchecked((uint)index), &d));
            return ParticleMaterialSettings.FromNative(d);
        }
    }
}
