// Raw layer: collisions and interaction (src/ffi/collision.rs). Lengths in m,
// impulses in N·s, friction coefficients dimensionless, restitution in [0, 1].

using System.Runtime.InteropServices;

namespace Sinew.Native
{
    /// <summary>Values of <c>SinewColliderDesc.shape</c> (C: <c>SinewShape</c>, crosses as uint32_t).</summary>
    public enum SinewShape : uint
    {
        /// <summary>Half-space below the plane through <c>position</c> with normal rotation·(0,1,0).</summary>
        Plane = 0,
        /// <summary>Ball of <c>radius</c> around <c>position</c>.</summary>
        Sphere = 1,
        /// <summary>Points within <c>radius</c> of the segment ±<c>half_height</c> along local Y.</summary>
        Capsule = 2,
        /// <summary>Oriented box of <c>half_extents</c>.</summary>
        Box = 3,
        /// <summary>Static triangle mesh: only through <c>sinew_world_add_mesh_collider</c>.</summary>
        Mesh = 4,
    }

    // SinewQuat (shared with the attachments) is declared in SinewNative.Attachments.cs.

    /// <summary>A collider handle inside one world (8 bytes). <c>id</c> 0 is the null handle.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct SinewCollider
    {
        public ulong id;
    }

    /// <summary>A collider. Always start from <c>sinew_collider_desc_init</c>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct SinewColliderDesc
    {
        /// <summary>A SinewShape value, default Plane.</summary>
        public uint shape;
        /// <summary>World position of the shape's origin, m.</summary>
        public SinewVec3 position;
        /// <summary>Unit quaternion, local to world, default identity.</summary>
        public SinewQuat rotation;
        /// <summary>Sphere and capsule radius, m, default 0.5.</summary>
        public float radius;
        /// <summary>Capsule half axis length, m, default 0.5.</summary>
        public float half_height;
        /// <summary>Box half extents, m, default (0.5, 0.5, 0.5).</summary>
        public SinewVec3 half_extents;
        /// <summary>Coulomb static friction coefficient (>= 0), default 0.</summary>
        public float static_friction;
        /// <summary>Coulomb dynamic friction coefficient (>= 0), default 0.</summary>
        public float dynamic_friction;
        /// <summary>Restitution in [0, 1], default 0.</summary>
        public float restitution;
        /// <summary>Set by sinew_collider_desc_init; a desc not made by it is rejected.</summary>
        public uint internal_cookie;
    }

    /// <summary>Which particles collide with which (group = body id, layer bits, mask bits).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct SinewCollisionFilter
    {
        /// <summary>Body id; 0 = none.</summary>
        public uint group;
        /// <summary>Layer bits the particle is on (default 1).</summary>
        public uint layers;
        /// <summary>Layer bits it collides with (default 0xFFFFFFFF).</summary>
        public uint mask;
        /// <summary>1 = collides with its own group (when both set it), 0 = not.</summary>
        public uint self_collision;
    }

    /// <summary>One particle–collider contact of the last step (32 bytes).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct SinewContact
    {
        /// <summary>The collider touched.</summary>
        public SinewCollider collider;
        /// <summary>The particle index.</summary>
        public uint particle;
        /// <summary>Normal impulse over the step, N·s.</summary>
        public float impulse;
        /// <summary>Unit normal pointing out of the collider.</summary>
        public SinewVec3 normal;
    }

    public static unsafe partial class SinewNative
    {
        /// <summary>Fills <c>*out_desc</c> with defaults (a plane facing +Y) and the cookie.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_collider_desc_init(SinewColliderDesc* out_desc);

        /// <summary>Adds a collider; <c>*out_collider</c> receives its handle.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_add_collider(SinewWorld world, SinewColliderDesc* desc, SinewCollider* out_collider);

        /// <summary>Adds a static two-sided triangle-mesh collider (vertices in m, local frame; 3 indices per triangle).</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_add_mesh_collider(SinewWorld world, SinewColliderDesc* desc, SinewVec3* vertices, uint vertex_count, uint* indices, uint triangle_count, SinewCollider* out_collider);

        /// <summary>Removes a collider; its handle becomes invalid.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_collider_remove(SinewWorld world, SinewCollider collider);

        /// <summary>Moves a collider (it sweeps there over the next step; teleport = 1 jumps).</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_collider_set_transform(SinewWorld world, SinewCollider collider, SinewVec3* position, SinewQuat* rotation, uint teleport);

        /// <summary>Sets friction coefficients (>= 0) and restitution ([0, 1]).</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_collider_set_material(SinewWorld world, SinewCollider collider, float static_friction, float dynamic_friction, float restitution);

        /// <summary>Writes the number of colliders to <c>*out_count</c>.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_collider_count(SinewWorld world, uint* out_count);

        /// <summary>Sets collision radii (m, >= 0) of <c>first..first+count</c>.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_set_particle_radii(SinewWorld world, uint first, uint count, float* radii);

        /// <summary>Sets collision filters of <c>first..first+count</c>.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_set_collision_filters(SinewWorld world, uint first, uint count, SinewCollisionFilter* filters);

        /// <summary>Sets unyielding factors ([0, 1]) of <c>first..first+count</c>.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_set_unyielding(SinewWorld world, uint first, uint count, float* factors);

        /// <summary>Limits every particle's speed (m/s; 0 = unlimited) at each substep.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_set_max_speed(SinewWorld world, float max_speed);

        /// <summary>Writes the number of contacts of the last step to <c>*out_count</c>.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_contact_count(SinewWorld world, uint* out_count);

        /// <summary>Copies up to <c>capacity</c> contacts of the last step; <c>*out_count</c> = written.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_read_contacts(SinewWorld world, SinewContact* @out, uint capacity, uint* out_count);

        /// <summary>Nearest particle along a ray (0xFFFFFFFF and -1 when none).</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_pick_particle(SinewWorld world, SinewVec3* origin, SinewVec3* direction, float radius, uint* out_particle, float* out_distance);

        /// <summary>Attaches a particle to a target (m) with a compliance (m/N).</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_grab_particle(SinewWorld world, uint particle, SinewVec3* target, float compliance);

        /// <summary>Moves the target (m) of a grab.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_move_grab(SinewWorld world, uint particle, SinewVec3* target);

        /// <summary>Releases a grab.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int sinew_world_release_particle(SinewWorld world, uint particle);
    }
}
