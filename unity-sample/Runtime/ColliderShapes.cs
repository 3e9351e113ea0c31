// Unity collider parameters -> ColliderSettings, engine-free (Sinew types and floats
// only, no UnityEngine), so the arithmetic can be read and checked on its own.
// Conventions follow Unity's own colliders: a sphere's radius scales with the largest
// |lossyScale| component, a box's size with each component, a capsule's height with the
// component along its axis and its radius with the larger of the other two; a capsule
// no taller than its diameter is a sphere. Sinew's capsule lies along local Y, so the
// rotation that maps Y to the capsule's axis is appended to the object's rotation.
// Lengths in m.

using System;
using Sinew.Native;

namespace Sinew.Unity
{
    public static class ColliderShapes
    {
        const float Sqrt1_2 = 0.70710678f;

        /// <summary>Rotation taking local +Y to the axis of a Unity capsule's
        /// <c>direction</c> (0 = X, 1 = Y, 2 = Z): -90° about Z, identity, +90° about X.</summary>
        public static SinewQuat YToAxis(int direction)
        {
            switch (direction)
            {
                case 0: return new SinewQuat(0f, 0f, -Sqrt1_2, Sqrt1_2);
                case 2: return new SinewQuat(Sqrt1_2, 0f, 0f, Sqrt1_2);
                default: return new SinewQuat(0f, 0f, 0f, 1f);
            }
        }

        /// <summary>Hamilton product a·b: rotate by b, then by a.</summary>
        public static SinewQuat Multiply(SinewQuat a, SinewQuat b)
        {
            return new SinewQuat(
                a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
                a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
        }

        /// <summary>A Unity SphereCollider: radius × max |lossyScale|. <paramref name="desc"/>
        /// comes from <c>ColliderSettings.Default</c> (material fields are kept).</summary>
        public static ColliderSettings Sphere(ColliderSettings desc, float radius, SinewVec3 lossyScale,
                                              SinewVec3 worldCenter, SinewQuat rotation)
        {
            desc.Shape = SinewShape.Sphere;
            desc.Radius = Math.Abs(radius) * MaxAbs(lossyScale.x, lossyScale.y, lossyScale.z);
            desc.Position = worldCenter;
            desc.Rotation = rotation;
            return desc;
        }

        /// <summary>A Unity BoxCollider: half extents = size / 2 × |lossyScale| per axis.</summary>
        public static ColliderSettings Box(ColliderSettings desc, SinewVec3 size, SinewVec3 lossyScale,
                                           SinewVec3 worldCenter, SinewQuat rotation)
        {
            desc.Shape = SinewShape.Box;
            desc.HalfExtents = new SinewVec3(0.5f * Math.Abs(size.x * lossyScale.x),
                                             0.5f * Math.Abs(size.y * lossyScale.y),
                                             0.5f * Math.Abs(size.z * lossyScale.z));
            desc.Position = worldCenter;
            desc.Rotation = rotation;
            return desc;
        }

        /// <summary>A Unity CapsuleCollider (<paramref name="height"/> is the total height,
        /// caps included, along <paramref name="direction"/>): radius × the larger |scale|
        /// across the axis, HalfHeight = height × |scale along it| / 2 − radius; a Sphere
        /// when that is not positive.</summary>
        public static ColliderSettings Capsule(ColliderSettings desc, float radius, float height, int direction,
                                               SinewVec3 lossyScale, SinewVec3 worldCenter, SinewQuat rotation)
        {
            float sx = Math.Abs(lossyScale.x), sy = Math.Abs(lossyScale.y), sz = Math.Abs(lossyScale.z);
            float along, across;
            switch (direction)
            {
                case 0: along = sx; across = Math.Max(sy, sz); break;
                case 2: along = sz; across = Math.Max(sx, sy); break;
                default: along = sy; across = Math.Max(sx, sz); break;
            }
            float r = Math.Abs(radius) * across;
            float halfSegment = 0.5f * Math.Abs(height) * along - r;
            desc.Position = worldCenter;
            desc.Radius = r;
            if (halfSegment > 0f)
            {
                desc.Shape = SinewShape.Capsule;
                desc.HalfHeight = halfSegment;
                desc.Rotation = Multiply(rotation, YToAxis(direction));
            }
            else
            {
                desc.Shape = SinewShape.Sphere;
                desc.Rotation = rotation;
            }
            return desc;
        }

        /// <summary>True when the two settings have the same shape and dimensions (position,
        /// rotation and material may differ): false means the collider must be re-added.</summary>
        public static bool SameShape(ColliderSettings a, ColliderSettings b)
        {
            return a.Shape == b.Shape && a.Radius == b.Radius && a.HalfHeight == b.HalfHeight &&
                   a.HalfExtents.x == b.HalfExtents.x && a.HalfExtents.y == b.HalfExtents.y &&
                   a.HalfExtents.z == b.HalfExtents.z;
        }

        static float MaxAbs(float a, float b, float c)
        {
            return Math.Max(Math.Abs(a), Math.Max(Math.Abs(b), Math.Abs(c)));
        }
    }
}
