// The one place the components take the weight they draw with: LateUpdate reads
// positions with Body.ReadInterpolatedPositions(alpha, ...) / Cloth.ReadInterpolatedVertices,
// (1 - alpha) * the state at the start of the last step + alpha * the state after it.

namespace Sinew.Unity
{
    static class SinewRendering
    {
        /// <summary>The interpolation weight of this frame for bodies of
        /// <paramref name="world"/>: 1 draws the state after the last step, which is what
        /// a world stepped once per FixedUpdate without an alpha of its own shows.</summary>
        public static float Alpha(SinewWorldBehaviour world)
        {
            return 1f;
        }
    }
}
