// Interpolated mesh vertices of a Cloth: what a renderer reads when the world steps at a
// fixed rate (World.Advance) and the frame lands between two steps. Each vertex gets
// (1 - alpha) * previous + alpha * current of its particle, previous = the positions at
// the start of the last step; welded vertices share their particle's, and the vertices
// tearing added read the spare particles they were split onto.

using Sinew.Native;

namespace Sinew
{
    public sealed partial class Cloth
    {
        /// <summary>Writes every mesh vertex's position (m), interpolated between the start
        /// and the end of the last step with <paramref name="alpha"/> in [0, 1] (the one
        /// <see cref="World.Advance"/> returned), into vertices[0..MeshVertexCount].</summary>
        public unsafe void ReadInterpolatedVertices<T>(float alpha, T[] vertices) where T : struct
        {
            const string F = "Cloth.ReadInterpolatedVertices";
            Args.NotNull(vertices, F, "vertices");
            Args.Vec3Element<T>(F);
            Args.Range(vertices.Length, 0, MeshVertexCount, F, "vertices");
            using (var p = new Pin(vertices))
                ReadInterpolatedVertices(alpha, p.Ptr, Element<T>.Size);
        }

        /// <summary>Writes every mesh vertex's interpolated position (m) to
        /// <paramref name="destination"/>, one x, y, z every <paramref name="strideBytes"/>
        /// (>= 12), MeshVertexCount of them: one library call straight into it when no
        /// vertex is welded (and one for the spares tearing added).</summary>
        public unsafe void ReadInterpolatedVertices(float alpha, void* destination, int strideBytes)
        {
            if (identity)
            {
                World.ReadInterpolatedPositions(FirstParticle, alpha, ParticleCount, destination, strideBytes);
                ReadInterpolatedTornVertices(alpha, (byte*)destination, strideBytes);
                return;
            }
            if (destination == null)
                throw new SinewException(SinewStatus.ErrorNullPointer, "Cloth.ReadInterpolatedVertices: destination is NULL");
            if (strideBytes < 12)
                throw SinewException.Argument("Cloth.ReadInterpolatedVertices", "strideBytes " + strideBytes + " is below 12");
            if (scratch == null)
                scratch = new SinewVec3[ParticleCount];
            World.ReadInterpolatedPositions(FirstParticle, alpha, scratch);
            byte* dst = (byte*)destination;
            for (int v = 0; v < vertexToParticle.Length; v++)
                *(SinewVec3*)(dst + (long)v * strideBytes) = scratch[vertexToParticle[v]];
            ReadInterpolatedTornVertices(alpha, dst, strideBytes);
        }

        unsafe void ReadInterpolatedTornVertices(float alpha, byte* dst, int strideBytes)
        {
            if (extraParticle.Count == 0)
                return;
            World.ReadInterpolatedPositions(extraFirst, alpha, extraSpan);
            CopyTornVertices(dst, strideBytes);
        }
    }
}
