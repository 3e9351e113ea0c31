// Sinew.World: granular materials. Friction, rolling resistance and cohesion between
// particles, set on a range of particles (sand, gravel, snow, grain), and the grain
// emitters that pour them.

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

        /// <summary>Adds a grain emitter: it reserves <c>grains.Budget</c> particles (inert
        /// until emitted) and from the next step on pours grains of <c>grains.GrainRadius</c>
        /// with the collision filter of <paramref name="grains"/> and the granular
        /// <paramref name="material"/> from the shape of <paramref name="stream"/> (a nozzle,
        /// a point as a nozzle of radius 0, or a box) at its rate (grains/s) and speed, until
        /// the budget is used. Deterministic.</summary>
        public unsafe GrainEmitter AddGrainEmitter(GrainEmitterSettings grains, EmitterSettings stream, ParticleMaterialSettings material)
        {
            SinewGrainEmitterDesc g = grains.ToNative();
            SinewEmitterDesc s = stream.ToNative();
            SinewParticleMaterial m = material.ToNative();
            SinewGrainEmitterHandle e;
            return new GrainEmitter(this, SinewException.Checked(SinewNative.sinew_world_add_grain_emitter(Handle, &g, &s, &m, &e), e));
        }
    }

    /// <summary>A grain emitter (<see cref="World.AddGrainEmitter"/>): its grains are world
    /// particles <see cref="First"/> .. <see cref="First"/> + <see cref="Emitted"/>.</summary>
    public sealed class GrainEmitter
    {
        /// <summary>The world it pours into.</summary>
        public World World { get; private set; }
        /// <summary>The native handle.</summary>
        public SinewGrainEmitterHandle Handle { get; private set; }

        internal GrainEmitter(World world, SinewGrainEmitterHandle handle)
        {
            World = world;
            Handle = handle;
        }

        /// <summary>The reserved particles and the grains emitted so far.</summary>
        public unsafe GrainEmitterStats Stats
        {
            get
            {
                SinewGrainEmitterStats s;
                SinewException.Check(SinewNative.sinew_grain_emitter_stats(World.Handle, Handle, &s));
                return GrainEmitterStats.From(s);
            }
        }

        /// <summary>First reserved world particle (the first grain).</summary>
        public int First { get { return Stats.First; } }
        /// <summary>Grains emitted so far.</summary>
        public int Emitted { get { return Stats.Emitted; } }
        /// <summary>Grains held so far because their spot was occupied (the emitter waits for room).</summary>
        public long Held { get { return Stats.Held; } }

        /// <summary>Moves or retunes the stream (a rate of 0 pauses it); next step on.</summary>
        public unsafe void Set(EmitterSettings stream)
        {
            SinewEmitterDesc d = stream.ToNative();
            SinewException.Check(SinewNative.sinew_grain_emitter_set(World.Handle, Handle, &d));
        }

        /// <summary>Removes the emitter (its grains stay); later calls throw (ErrorInvalidHandle).</summary>
        public void Remove()
        {
            SinewException.Check(SinewNative.sinew_grain_emitter_remove(World.Handle, Handle));
        }
    }
}
