// A tube mesh around a polyline (a rope's particles), engine-neutral: the C# port of the
// C++ header bindings/cpp/sinew_tube.hpp (Unreal's rope mesh), for Unity's SinewRope.
// Rings of sides + 1 vertices (the seam duplicated so that U runs 0..1) around every
// point, oriented by rotation-minimising (parallel-transport) frames from the
// double-reflection method (Wang, Juttler, Zheng, Liu 2008), so the tube never twists or
// flips where the rope bends; the first ring's reference direction is kept between builds
// so the frame is continuous over time. Optional flat caps (a centre and a ring facing
// along the rope at each end). Per vertex: position, unit outward normal, tangent along
// the rope (x, y, z, w = 1), UV (U around, V = arc length * VPerLength). Triangles are
// wound so that cross(b - a, c - a) points out of the tube: Unity's front faces, and
// what Mesh.RecalculateNormals / RenderNormals.Compute take as the outside.

using System;
using Sinew.Native;

namespace Sinew
{
    public sealed class Tube
    {
        /// <summary>The range of <see cref="Sides"/>, and the smallest radius an engine
        /// field offers (m).</summary>
        public const int MinSides = 3, MaxSides = 256;
        public const float MinRadius = 1e-4f;

        /// <summary>Tube radius, in the units of the points (> 0).</summary>
        public float Radius = 0.01f;
        /// <summary>Vertices around (3..256).</summary>
        public int Sides = 8;
        /// <summary>Texture V per unit of arc length.</summary>
        public float VPerLength = 1f;
        /// <summary>Close both ends with flat caps.</summary>
        public bool Caps = true;

        SinewVec3 startNormal;
        SinewVec3[] t = new SinewVec3[0], r = new SinewVec3[0];

        public static int VertexCount(int points, int sides, bool caps)
        {
            return points * (sides + 1) + (caps ? 2 * (sides + 2) : 0);
        }

        public static int IndexCount(int points, int sides, bool caps)
        {
            return points < 2 ? 0 : (points - 1) * sides * 6 + (caps ? 6 * sides : 0);
        }

        static SinewVec3 Add(SinewVec3 a, SinewVec3 b) { return new SinewVec3(a.x + b.x, a.y + b.y, a.z + b.z); }
        static SinewVec3 Sub(SinewVec3 a, SinewVec3 b) { return new SinewVec3(a.x - b.x, a.y - b.y, a.z - b.z); }
        static SinewVec3 Mul(SinewVec3 a, float s) { return new SinewVec3(a.x * s, a.y * s, a.z * s); }
        static float Dot(SinewVec3 a, SinewVec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

        static SinewVec3 Cross(SinewVec3 a, SinewVec3 b)
        {
            return new SinewVec3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
        }

        static SinewVec3 NormalizeOr(SinewVec3 v, SinewVec3 fallback)
        {
            float l = (float)Math.Sqrt(Dot(v, v));
            return l > 1e-12f && !float.IsInfinity(l) ? Mul(v, 1f / l) : fallback;
        }

        /// <summary>A unit vector perpendicular to unit <paramref name="tangent"/>: the hint
        /// projected, or the world axis least aligned with the tangent.</summary>
        static SinewVec3 Perpendicular(SinewVec3 tangent, SinewVec3 hint)
        {
            var p = Sub(hint, Mul(tangent, Dot(hint, tangent)));
            if (Dot(p, p) > 1e-6f)
                return NormalizeOr(p, new SinewVec3(1, 0, 0));
            float ax = Math.Abs(tangent.x), ay = Math.Abs(tangent.y), az = Math.Abs(tangent.z);
            var axis = ax <= ay && ax <= az ? new SinewVec3(1, 0, 0) : ay <= az ? new SinewVec3(0, 1, 0) : new SinewVec3(0, 0, 1);
            return NormalizeOr(Sub(axis, Mul(tangent, Dot(axis, tangent))), new SinewVec3(1, 0, 0));
        }

        /// <summary>Builds the tube around <paramref name="count"/> (>= 2, finite) points
        /// into the outputs, each holding <see cref="VertexCount"/> elements (tangents: 4
        /// floats, uvs: 2 floats); <paramref name="indices"/> (<see cref="IndexCount"/>
        /// elements, or null to leave them as they are: they change only with the point
        /// count, Sides or Caps).</summary>
        public unsafe void Build(SinewVec3* points, int count, SinewVec3* positions, SinewVec3* normals, float* tangents,
            float* uvs, int* indices)
        {
            if (count < 2)
                throw new ArgumentException("Tube.Build: needs at least 2 points, got " + count);
            if (Sides < MinSides || Sides > MaxSides)
                throw new ArgumentException("Tube.Build: Sides must be in 3..256, got " + Sides);
            if (!(Radius > 0) || float.IsInfinity(Radius) || float.IsNaN(VPerLength) || float.IsInfinity(VPerLength))
                throw new ArgumentException("Tube.Build: Radius must be finite and > 0, VPerLength finite");
            if (t.Length < count)
            {
                t = new SinewVec3[count];
                r = new SinewVec3[count];
            }
            // Tangents: central differences inside, one-sided at the ends.
            var previous = new SinewVec3(0, 0, 1);
            for (int i = 1; i < count; i++)
            {
                var d = Sub(points[i], points[0]);
                if (Dot(d, d) > 1e-24f)
                {
                    previous = NormalizeOr(d, previous);
                    break;
                }
            }
            for (int i = 0; i < count; i++)
            {
                previous = NormalizeOr(Sub(points[Math.Min(i + 1, count - 1)], points[Math.Max(i - 1, 0)]), previous);
                t[i] = previous;
            }
            // Reference directions by double reflection.
            r[0] = Perpendicular(t[0], startNormal);
            for (int i = 0; i + 1 < count; i++)
            {
                var v1 = Sub(points[i + 1], points[i]);
                float c1 = Dot(v1, v1);
                SinewVec3 rl = r[i], tl = t[i];
                if (c1 > 1e-24f)
                {
                    rl = Sub(r[i], Mul(v1, 2f / c1 * Dot(v1, r[i])));
                    tl = Sub(t[i], Mul(v1, 2f / c1 * Dot(v1, t[i])));
                }
                var v2 = Sub(t[i + 1], tl);
                float c2 = Dot(v2, v2);
                var next = c2 > 1e-24f ? Sub(rl, Mul(v2, 2f / c2 * Dot(v2, rl))) : rl;
                r[i + 1] = Perpendicular(t[i + 1], next);
            }
            startNormal = r[0];
            int ring = Sides + 1;
            float arc = 0;
            for (int i = 0; i < count; i++)
            {
                if (i > 0)
                {
                    var d = Sub(points[i], points[i - 1]);
                    arc += (float)Math.Sqrt(Dot(d, d));
                }
                var b = Cross(t[i], r[i]);
                for (int j = 0; j < ring; j++)
                {
                    double a = 2 * Math.PI * (j == Sides ? 0 : j) / Sides;
                    var normal = Add(Mul(r[i], (float)Math.Cos(a)), Mul(b, (float)Math.Sin(a)));
                    int k = i * ring + j;
                    positions[k] = Add(points[i], Mul(normal, Radius));
                    normals[k] = normal;
                    SetTangent(tangents, k, t[i]);
                    uvs[2 * k] = j / (float)Sides;
                    uvs[2 * k + 1] = arc * VPerLength;
                }
            }
            if (Caps)
                for (int end = 0; end < 2; end++)
                {
                    int i = end == 0 ? 0 : count - 1;
                    var facing = end == 0 ? Mul(t[i], -1f) : t[i];
                    int centre = count * ring + end * (Sides + 2);
                    positions[centre] = points[i];
                    normals[centre] = facing;
                    SetTangent(tangents, centre, r[i]);
                    uvs[2 * centre] = 0.5f;
                    uvs[2 * centre + 1] = 0.5f;
                    for (int j = 0; j <= Sides; j++)
                    {
                        int k = centre + 1 + j;
                        positions[k] = positions[i * ring + j];
                        normals[k] = facing;
                        SetTangent(tangents, k, r[i]);
                        var n = normals[i * ring + j];
                        uvs[2 * k] = 0.5f + 0.5f * Dot(n, r[i]);
                        uvs[2 * k + 1] = 0.5f + 0.5f * Dot(n, Cross(t[i], r[i]));
                    }
                }
            if (indices == null)
                return;
            int q = 0;
            for (int i = 0; i + 1 < count; i++)
                for (int j = 0; j < Sides; j++)
                {
                    int a = i * ring + j, b = a + 1, c = a + ring, d = c + 1;
                    indices[q++] = a; indices[q++] = b; indices[q++] = c;
                    indices[q++] = b; indices[q++] = d; indices[q++] = c;
                }
            if (Caps)
                for (int end = 0; end < 2; end++)
                {
                    int centre = count * ring + end * (Sides + 2);
                    for (int j = 0; j < Sides; j++)
                    {
                        // The start cap faces -t, the end cap +t: opposite windings.
                        indices[q++] = centre;
                        indices[q++] = centre + 1 + (end == 0 ? j + 1 : j);
                        indices[q++] = centre + 1 + (end == 0 ? j : j + 1);
                    }
                }
        }

        static unsafe void SetTangent(float* tangents, int k, SinewVec3 v)
        {
            tangents[4 * k] = v.x;
            tangents[4 * k + 1] = v.y;
            tangents[4 * k + 2] = v.z;
            tangents[4 * k + 3] = 1f;
        }
    }
}
