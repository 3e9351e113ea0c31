// Sinew.World: attachments of particles to host transforms (a rigid body, a bone, a
// hand). Hosts are numbered 0, 1, ... per world; set each host's transform once per
// frame before Step; the particles follow it interpolated across the substeps. Forces
// on the host (N, world frame) are read back for two-way coupling.

using Sinew.Native;

namespace Sinew
{
    public sealed partial class World
    {
        /// <summary>Adds an attachment host at <paramref name="position"/> (m) and
        /// <paramref name="rotation"/> (unit quaternion, x y z w as Unity's Quaternion);
        /// returns its index.</summary>
        public unsafe int AddAttachmentHost(SinewVec3 position, SinewQuat rotation)
        {
            var t = new SinewTransform(position, rotation);
            uint host;
            SinewException.Check(SinewNative.sinew_world_add_attachment_host(Handle, &t, &host));
            return (int)host;
        }

        /// <summary>Sets the transform <paramref name="host"/> reaches at the end of the next
        /// step (call once per frame before <see cref="Step"/>).</summary>
        public unsafe void SetAttachmentHostTransform(int host, SinewVec3 position, SinewQuat rotation)
        {
            var t = new SinewTransform(position, rotation);
            SinewException.Check(SinewNative.sinew_world_set_attachment_host_transform(Handle, unchecked((uint)host), &t));
        }

        /// <summary>Attaches <paramref name="particles"/> (inverse mass > 0) to
        /// <paramref name="host"/> at <paramref name="localOffsets"/> (m in the host's frame,
        /// one per particle; null = where each particle is now). Compliance α in m/N: 0 pins
        /// the particle to its target, above 0 is a zero-length spring of stiffness 1/α.
        /// Returns the id of the first attachment; ids are consecutive.</summary>
        public unsafe int AddAttachments(int host, int[] particles, SinewVec3[] localOffsets, float compliance)
        {
            const string F = "World.AddAttachments";
            Args.NotNull(particles, F, "particles");
            if (localOffsets != null && localOffsets.Length != particles.Length)
                throw SinewException.Argument(F, "localOffsets has " + localOffsets.Length + " elements for " +
                    particles.Length + " particles");
            uint first;
            using (var p = new Pin(particles))
            using (var o = new Pin(localOffsets))
                SinewException.Check(SinewNative.sinew_world_add_attachments(Handle, unchecked((uint)host), (uint*)p.Ptr,
                    (SinewVec3*)o.Ptr, (uint)particles.Length, compliance, &first));
            return (int)first;
        }

        /// <summary>Sets the compliance (m/N) of attachments first..first+count from the next
        /// step on.</summary>
        public void SetAttachmentCompliance(int first, int count, float compliance)
        {
            SinewException.Check(SinewNative.sinew_world_set_attachment_compliance(Handle, unchecked((uint)first),
                unchecked((uint)count), compliance));
        }

        /// <summary>Copies the force (N, world frame) each attachment first..first+destination.Length
        /// exerted on its host in the last substep (zero before the first step) into
        /// <paramref name="destination"/>: a 12-byte x, y, z struct such as Unity's Vector3 or
        /// SinewVec3. Apply it to the host's rigid body at the attachment point.</summary>
        public unsafe void ReadAttachmentForces<T>(int first, T[] destination) where T : struct
        {
            const string F = "World.ReadAttachmentForces";
            Args.NotNull(destination, F, "destination");
            Args.Vec3Element<T>(F);
            if (Element<T>.Size != 12)
                throw SinewException.Argument(F, typeof(T).Name + " is " + Element<T>.Size +
                    " bytes; forces are written packed, 12 bytes (x, y, z) each");
            using (var p = new Pin(destination))
                SinewException.Check(SinewNative.sinew_world_read_attachment_forces(Handle, unchecked((uint)first),
                    (uint)destination.Length, (SinewVec3*)p.Ptr));
        }
    }
}
