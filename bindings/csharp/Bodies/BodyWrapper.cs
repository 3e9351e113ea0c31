// What Rope and Cloth share: each is a thin convenience over one library Body, whose
// world, particles, compliance and removal it exposes the same way.

using System;
using Sinew.Native;

namespace Sinew
{
    /// <summary>A convenience over one library <see cref="Sinew.Body"/> (<see cref="Rope"/>,
    /// <see cref="Cloth"/>): its particles are consecutive from <see cref="FirstParticle"/>;
    /// <see cref="Dispose"/> removes it from its world.</summary>
    public abstract class BodyWrapper : IDisposable
    {
        internal BodyWrapper(World world, Body body)
        {
            World = world;
            Body = body;
        }

        /// <summary>The world that owns the body.</summary>
        public World World { get; private set; }
        /// <summary>The library's body (compliance, damping, removal).</summary>
        public Body Body { get; private set; }
        /// <summary>Index of the body's first particle.</summary>
        public int FirstParticle { get { return Body.FirstParticle; } }
        /// <summary>Number of the body's particles.</summary>
        public int ParticleCount { get { return Body.ParticleCount; } }

        /// <summary>Sets the compliance of one of the body's constraint groups from the next
        /// step on (units as <see cref="Sinew.Body.SetCompliance"/>).</summary>
        public void SetCompliance(SinewBodyConstraints which, float compliance)
        {
            Body.SetCompliance(which, compliance);
        }

        /// <summary>Removes the body from its world (see <see cref="Sinew.Body.Dispose"/>).</summary>
        public void Dispose()
        {
            Body.Dispose();
        }
    }
}
