// Sinew.World: signed distance field colliders (sinew_world_add_sdf_collider) and
// SdfGrid, the grid a host bakes or builds from a closed mesh (sinew_sdf_from_mesh).

using Sinew.Native;

namespace Sinew
{
    /// <summary>A grid of signed distances for <see cref="World.AddSdfCollider"/>: Nx x Ny x Nz
    /// nodes (each at least 2) every <see cref="CellSize"/> m from the local
    /// <see cref="Origin"/>, node (i, j, k)'s distance (m, negative inside the solid) at
    /// Distances[(k·Ny + j)·Nx + i]. 4 bytes a node; keep it with your assets.</summary>
    public sealed class SdfGrid
    {
        public int Nx, Ny, Nz;
        public float CellSize;
        public SinewVec3 Origin;
        public float[] Distances;

        /// <summary>The field of a closed triangle mesh (local m, counter-clockwise seen
        /// from outside; seams welded): nodes every <paramref name="cellSize"/> over its
        /// box grown by <paramref name="margin"/> (at least the largest particle radius plus
        /// a cell), exact distances to the nearest triangle, negative inside. An open,
        /// inside-out or degenerate mesh throws, naming the edge or triangle.</summary>
        public static unsafe SdfGrid FromMesh<T>(T[] vertices, int[] triangles, float cellSize, float margin) where T : struct
        {
            const string F = "SdfGrid.FromMesh";
            Args.NotNull(triangles, F, "triangles");
            if (triangles.Length % 3 != 0)
                throw SinewException.Argument(F, "triangles has " + triangles.Length + " indices, not a multiple of 3");
            var dims = new uint[3];
            SinewVec3 origin;
            using (var v = World.PackVec3(vertices, F, "vertices"))
            using (var t = new Pin(triangles))
            using (var d = new Pin(dims))
            {
                uint count = (uint)vertices.Length, tris = (uint)(triangles.Length / 3);
                SinewException.Check(SinewNative.sinew_sdf_from_mesh((SinewVec3*)v.Ptr, count, (uint*)t.Ptr, tris,
                    cellSize, margin, (uint*)d.Ptr, &origin, null, 0));
                var grid = new SdfGrid
                {
                    Nx = (int)dims[0],
                    Ny = (int)dims[1],
                    Nz = (int)dims[2],
                    CellSize = cellSize,
                    Origin = origin,
                    Distances = new float[dims[0] * dims[1] * dims[2]],
                };
                using (var o = new Pin(grid.Distances))
                    SinewException.Check(SinewNative.sinew_sdf_from_mesh((SinewVec3*)v.Ptr, count, (uint*)t.Ptr, tris,
                        cellSize, margin, (uint*)d.Ptr, &origin, (float*)o.Ptr, (uint)grid.Distances.Length));
                return grid;
            }
        }
    }

    public sealed partial class World
    {
        /// <summary>Adds a static signed distance field collider: <paramref name="grid"/>
        /// in the collider's frame (settings.Position and settings.Rotation place it; the
        /// material is the settings', their shape ignored), sampled trilinearly with the
        /// gradient as normal, swept like every collider. Its shape reads as <see cref="SinewShape.Sdf"/>; it can
        /// be made dynamic and moved like any other.</summary>
        public unsafe WorldCollider AddSdfCollider(ColliderSettings settings, SdfGrid grid)
        {
            const string F = "World.AddSdfCollider";
            Args.NotNull(grid, F, "grid");
            Args.NotNull(grid.Distances, F, "grid.Distances");
            long nodes = (long)grid.Nx * grid.Ny * grid.Nz;
            if (grid.Nx < 2 || grid.Ny < 2 || grid.Nz < 2 || nodes != grid.Distances.Length)
                throw SinewException.Argument(F, grid.Distances.Length + " distances for " + grid.Nx + " x "
                    + grid.Ny + " x " + grid.Nz + " nodes (at least 2 per axis)");
            SinewColliderDesc desc = settings.ToNative();
            SinewColliderHandle c;
            SinewVec3 origin = grid.Origin;
            fixed (float* d = grid.Distances)
                SinewException.Check(SinewNative.sinew_world_add_sdf_collider(Handle, &desc,
                    (uint)grid.Nx, (uint)grid.Ny, (uint)grid.Nz, grid.CellSize, &origin, d, &c));
            return new WorldCollider(this, c, SinewShape.Sdf);
        }
    }
}
