// Raw layer: attachments of particles to host transforms (src/ffi/attachments.rs):
// hosts are numbered 0, 1, ... per world; offsets in m in the host's frame; compliance
// in m/N; forces read back in N, world frame (the force on the host).

using System.Runtime.InteropServices;

namespace Sinew.Native
{
    /// <summary>A unit quaternion (x, y, z, w), layout-identical to Unity's <c>Quaternion</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct SinewQuat
    {
        public float x;
        public float y;
        public float z;
        public float w;

        public SinewQuat(float x, float y, float z, float w)
        {
            this.x = x;
            this.y = y;
            this.z = z;
            this.w = w;
        }

        /// <summary>The identity rotation (0, 0, 0, 1).</summary>
        public static SinewQuat Identity { get { return new SinewQuat(0, 0, 0, 1); } }

        /// <summary>A rotation of <paramref name="radians"/> about the unit axis (x, y, z).</summary>
        public static SinewQuat AxisAngle(float x, float y, float z, float radians)
        {
            float s = (float)System.Math.Sin(radians * 0.5), c = (float)System.Math.Cos(radians * 0.5);
            return new SinewQuat(x * s, y * s, z * s, c);
        }
    }

    /// <summary>A rigid transform: position (m) and rotation (unit quaternion; normalised by
    /// the library, its length must be within [0.5, 2]).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct SinewTransform
    {
        public SinewVec3 position;
        public SinewQuat rotation;

        public SinewTransform(SinewVec3 position, SinewQuat rotation)
        {
            this.position = position;
            this.rotation = rotation;
        }
    }

    public static unsafe partial class SinewNative
    {
        /// <summary>Adds an attachment host (a host rigid body, bone, hand...) at <c>transform</c>;
        /// <c>*out_host</c> receives its index (hosts are numbered 0, 1, ...).</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_add_attachment_host(SinewWorld world, SinewTransform* transform, uint* out_host);

        /// <summary>Sets the transform <c>host</c> reaches at the end of the next step; call it
        /// once per frame before sinew_world_step. Within the step each substep follows the
        /// transform interpolated between the previous one and this one.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_set_attachment_host_transform(SinewWorld world, uint host, SinewTransform* transform);

        /// <summary>Attaches <c>count</c> particles to <c>host</c> at <c>local_offsets</c> (m, in
        /// the host's frame; NULL = where each particle is now). <c>compliance</c> α in m/N: 0 pins
        /// the particle to its target, above 0 is a soft (zero-length spring) attachment of
        /// stiffness 1/α. Attach particles with inverse mass &gt; 0. <c>*out_first</c> receives the
        /// first new id.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_add_attachments(SinewWorld world, uint host, uint* particles, SinewVec3* local_offsets, uint count, float compliance, uint* out_first);

        /// <summary>Sets the compliance (m/N) of attachments <c>first..first+count</c>; next step
        /// on.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_set_attachment_compliance(SinewWorld world, uint first, uint count, float compliance);

        /// <summary>Writes the force (N, world frame) each attachment <c>first..first+count</c>
        /// exerted on its host during the last substep of the last step: apply it to the host's
        /// rigid body at the attachment point for two-way coupling (a hanging 1 kg particle gives
        /// (0, -9.81, 0)). Zero before the first step.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_read_attachment_forces(SinewWorld world, uint first, uint count, SinewVec3* @out);
    }
}
