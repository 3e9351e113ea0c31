// Sinew.Body: character cloth. Aerodynamic coefficients, skinned targets written every
// frame straight from a vertex buffer, per-vertex weights (max distance, backstop, anim
// drive), the reference transform (root) with its inertia fractions, and teleports.

using Sinew.Native;

namespace Sinew
{
    public partial class Body
    {
        /// <summary>Sets the drag and lift coefficients (dimensionless, [0, 10]; both 0 = no
        /// aerodynamics): per triangle on cloth, drag per link on ropes (lift must be 0).</summary>
        public void SetAerodynamics(float drag, float lift)
        {
            SinewException.Check(SinewNative.sinew_body_set_aerodynamics(World.Handle, Handle, drag, lift));
        }

        /// <summary>Sets the skinning weights of every particle (one per particle, in order;
        /// start from <see cref="SkinWeights.None"/>).</summary>
        public unsafe void SetSkinWeights(SkinWeights[] weights)
        {
            Args.NotNull(weights, "Body.SetSkinWeights", "weights");
            // SkinWeights has SinewSkinWeights' layout (four floats).
            fixed (SkinWeights* p = weights)
                SinewException.Check(SinewNative.sinew_body_set_skin_weights(World.Handle, Handle, (SinewSkinWeights*)p,
                    (uint)weights.Length));
        }

        /// <summary>Writes this frame's skinned targets: one position (m) per particle and,
        /// unless <paramref name="normals"/> is null (the last ones are kept), one normal
        /// (Unity's Vector3, SinewVec3, or any blittable struct whose first 12 bytes are x,
        /// y, z).</summary>
        public unsafe void SetSkinTargets<T>(T[] positions, T[] normals) where T : struct
        {
            const string F = "Body.SetSkinTargets";
            Args.NotNull(positions, F, "positions");
            Args.Vec3Element<T>(F);
            if (normals != null && normals.Length != positions.Length)
                throw SinewException.Argument(F, "normals has " + normals.Length + " elements for " +
                    positions.Length + " positions");
            using (var p = new Pin(positions))
            using (var n = new Pin(normals))
                SetSkinTargets(p.Ptr, Element<T>.Size, n.Ptr, Element<T>.Size, positions.Length);
        }

        /// <summary>Writes this frame's skinned targets straight from a vertex buffer:
        /// <paramref name="count"/> positions every <paramref name="positionStride"/> bytes and
        /// normals (null = keep the last) every <paramref name="normalStride"/> bytes.</summary>
        public unsafe void SetSkinTargets(void* positions, int positionStride, void* normals, int normalStride, int count)
        {
            SinewException.Check(SinewNative.sinew_body_set_skin_targets(World.Handle, Handle, positions,
                unchecked((uint)positionStride), normals, unchecked((uint)normalStride), unchecked((uint)count)));
        }

        /// <summary>Sets the reference transform (the character's root) the next step reaches,
        /// and the fractions in [0, 1] of its linear and angular acceleration passed on
        /// (1 = world-space simulation, 0 = carried with the root).</summary>
        public unsafe void SetSkinRoot(SinewVec3 position, SinewQuat rotation, float linearInertia, float angularInertia)
        {
            var t = new SinewTransform(position, rotation);
            SinewException.Check(SinewNative.sinew_body_set_skin_root(World.Handle, Handle, &t, linearInertia,
                angularInertia));
        }

        /// <summary>Teleports the body onto its skinned pose (every movable particle to its
        /// latest target, at rest); the previous frame is forgotten.</summary>
        public void TeleportToSkin()
        {
            SinewException.Check(SinewNative.sinew_body_teleport_to_skin(World.Handle, Handle));
        }
    }
}
