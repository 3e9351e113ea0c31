// What a collider and a particle's collisions are made of (the idiomatic forms of
// SinewColliderDesc and SinewCollisionFilter): a collider's shape, pose and material,
// and which particles collide with which.

using System.Runtime.InteropServices;
using Sinew.Native;

namespace Sinew
{
    /// <summary>A collider (<see cref="World.AddCollider"/>; also the pose and material of
    /// <see cref="World.AddMeshCollider"/>, <see cref="World.AddHeightfieldCollider"/> and
    /// <see cref="World.AddSdfCollider"/>): a shape in its local frame, a pose and a
    /// material. The shape is a tagged union: <see cref="Shape"/> says which of the size
    /// fields are read (<see cref="Radius"/> by a sphere and a capsule,
    /// <see cref="HalfHeight"/> by a capsule, <see cref="HalfExtents"/> by a box; a plane
    /// reads none). Start from <see cref="Default"/> (a plane through the origin facing +Y,
    /// no friction, no bounce) or from <see cref="Sphere"/>, <see cref="Capsule"/>,
    /// <see cref="Box"/> or <see cref="Plane"/>, and change what you need; the library
    /// checks every field when the collider is added. Move it every frame with
    /// <see cref="WorldCollider.SetTransform"/>.</summary>
    public struct ColliderSettings : INativeSettings<SinewColliderDesc>
    {
        // BEGIN GENERATED ColliderDesc fields
        /// <summary>The geometry, in the collider's local frame (a SinewShape in C: plane,
        /// sphere, capsule, box; a mesh and a distance field only through their own collider
        /// calls). Its size is in the fields its variant reads. Default 0 (a
        /// SinewShape).</summary>
        public SinewShape Shape;
        /// <summary>World position of the shape's local origin. Each component in
        /// [-SINEW_MAX_COORDINATE, SINEW_MAX_COORDINATE] m. Default (0, 0, 0).</summary>
        public SinewVec3 Position;
        /// <summary>Unit quaternion, local to world (| |q| − 1 | at most 1e-3; normalised on
        /// input). Default (0, 0, 0, 1) (x, y, z, w).</summary>
        public SinewQuat Rotation;
        /// <summary>Sphere, Capsule: The radius. In (0, SINEW_MAX_LENGTH] m. Default
        /// 0.5.</summary>
        public float Radius;
        /// <summary>Capsule: Half the length of the axis segment (along the local Y axis). In
        /// (0, SINEW_MAX_LENGTH] m. Default 0.5.</summary>
        public float HalfHeight;
        /// <summary>Box: The half extents (local axes). Each component in (0, SINEW_MAX_LENGTH]
        /// m. Default (0.5, 0.5, 0.5).</summary>
        public SinewVec3 HalfExtents;
        /// <summary>Coulomb coefficient below which a contact sticks. In [0,
        /// SINEW_MAX_FRICTION]. Default 0.</summary>
        public float StaticFriction;
        /// <summary>Coulomb coefficient of sliding. In [0, SINEW_MAX_FRICTION]. Default
        /// 0.</summary>
        public float DynamicFriction;
        /// <summary>Normal velocity kept after an impact, as a fraction of the approach speed
        /// (0 = no bounce, 1 = elastic). In [0, 1]. Default 0.</summary>
        public float Restitution;
        /// <summary>Whether the contact readback (`World::contacts`, sinew_world_read_contacts)
        /// lists this collider's contacts. Off, the collider still acts on the particles, only
        /// its contacts are left out (a host world that handles some colliders' contacts
        /// itself, or none). Default 1 (0 or 1).</summary>
        public bool ReportContacts;
        // END GENERATED ColliderDesc fields

        /// <summary>The library's defaults (read from the library, so they never drift).</summary>
        public static ColliderSettings Default
        {
            get { return NativeSettings.Default<ColliderSettings, SinewColliderDesc>(); }
        }

        /// <summary>The half-space below the plane through <paramref name="point"/> (m)
        /// whose normal is <paramref name="rotation"/>·(0, 1, 0); the defaults
        /// otherwise.</summary>
        public static ColliderSettings Plane(SinewVec3 point, SinewQuat rotation)
        {
            var s = Default;
            s.Shape = SinewShape.Plane;
            s.Position = point;
            s.Rotation = rotation;
            return s;
        }

        /// <summary>A ball of <paramref name="radius"/> (m) around
        /// <paramref name="center"/> (m); the defaults otherwise.</summary>
        public static ColliderSettings Sphere(SinewVec3 center, float radius)
        {
            var s = Default;
            s.Shape = SinewShape.Sphere;
            s.Position = center;
            s.Radius = radius;
            return s;
        }

        /// <summary>The points within <paramref name="radius"/> (m) of the segment
        /// ±<paramref name="halfHeight"/> (m) along <paramref name="rotation"/>·(0, 1, 0)
        /// through <paramref name="center"/> (m); the defaults otherwise.</summary>
        public static ColliderSettings Capsule(SinewVec3 center, SinewQuat rotation, float radius, float halfHeight)
        {
            var s = Default;
            s.Shape = SinewShape.Capsule;
            s.Position = center;
            s.Rotation = rotation;
            s.Radius = radius;
            s.HalfHeight = halfHeight;
            return s;
        }

        /// <summary>A box of <paramref name="halfExtents"/> (m, along its rotated axes)
        /// around <paramref name="center"/> (m); the defaults otherwise.</summary>
        public static ColliderSettings Box(SinewVec3 center, SinewQuat rotation, SinewVec3 halfExtents)
        {
            var s = Default;
            s.Shape = SinewShape.Box;
            s.Position = center;
            s.Rotation = rotation;
            s.HalfExtents = halfExtents;
            return s;
        }

        /// <summary>The native desc (the defaults with their cookie, overwritten by these
        /// settings), for code that calls Sinew.Native itself.</summary>
        public SinewColliderDesc ToNative()
        {
            return NativeSettings.ToNative<ColliderSettings, SinewColliderDesc>(this);
        }

        /// <summary>The settings of a native desc (for code that calls Sinew.Native
        /// itself).</summary>
        public static ColliderSettings FromNative(SinewColliderDesc desc)
        {
            return NativeSettings.FromNative<ColliderSettings, SinewColliderDesc>(desc);
        }

        unsafe int INativeSettings<SinewColliderDesc>.InitNative(ref SinewColliderDesc d)
        {
            fixed (SinewColliderDesc* p = &d)
                return SinewNative.sinew_collider_desc_init(p);
        }

        void INativeSettings<SinewColliderDesc>.Exchange(ref SinewColliderDesc d, bool toNative)
        {
            // BEGIN GENERATED ColliderDesc exchange
            NativeSettings.CopyEnum(ref d.shape, ref Shape, toNative);
            NativeSettings.Copy(ref d.position, ref Position, toNative);
            NativeSettings.Copy(ref d.rotation, ref Rotation, toNative);
            NativeSettings.Copy(ref d.radius, ref Radius, toNative);
            NativeSettings.Copy(ref d.half_height, ref HalfHeight, toNative);
            NativeSettings.Copy(ref d.half_extents, ref HalfExtents, toNative);
            NativeSettings.Copy(ref d.static_friction, ref StaticFriction, toNative);
            NativeSettings.Copy(ref d.dynamic_friction, ref DynamicFriction, toNative);
            NativeSettings.Copy(ref d.restitution, ref Restitution, toNative);
            NativeSettings.Copy(ref d.report_contacts, ref ReportContacts, toNative);
            // END GENERATED ColliderDesc exchange
        }
    }

    /// <summary>Which particles collide with which (<see cref="World.SetCollisionFilters"/>);
    /// the layout of SinewCollisionFilter, so an array of them goes to the library in
    /// place. Two particles collide when <c>(a.Layers &amp; b.Mask) != 0 &amp;&amp;
    /// (b.Layers &amp; a.Mask) != 0</c> and they are not of the same non-zero
    /// <see cref="Group"/> (one body), unless both have <see cref="SelfCollision"/>. Start
    /// from <see cref="Default"/>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct ParticleCollisionFilter
    {
        /// <summary>The particle's group (a body id; 0 = none).</summary>
        public uint Group;
        /// <summary>Layer bits the particle is on.</summary>
        public uint Layers;
        /// <summary>Layer bits it collides with.</summary>
        public uint Mask;
        // 0 or 1, as the library takes it (a C# bool is one byte, the C field four).
        uint selfCollision;

        /// <summary>Whether the particle collides with the particles of its own group that
        /// also set it.</summary>
        public bool SelfCollision
        {
            get { return selfCollision != 0; }
            set { selfCollision = value ? 1u : 0u; }
        }

        /// <summary>The filter every particle starts with (no group, on layer 1, colliding
        /// with every layer, no self-collision), read from the library so it never
        /// drifts.</summary>
        public static unsafe ParticleCollisionFilter Default
        {
            get
            {
                var f = new ParticleCollisionFilter();
                // ParticleCollisionFilter has SinewCollisionFilter's layout (four 32-bit fields).
                SinewException.Check(SinewNative.sinew_collision_filter_init((SinewCollisionFilter*)&f));
                return f;
            }
        }
    }
}
