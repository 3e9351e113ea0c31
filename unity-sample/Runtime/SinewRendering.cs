// The one place the components take the weight they draw with: LateUpdate reads
// positions with Body.ReadInterpolatedPositions(alpha, ...) / Cloth.ReadInterpolatedVertices,
// (1 - alpha) * the state at the start of the last step + alpha * the state after it.

namespace Sinew.Unity
{
    static class SinewRendering
    {
        /// <summary>The interpolation weight of this frame for bodies of
        /// <paramref name="world"/>: its <see cref="SinewWorldBehaviour.InterpolationAlpha"/>
        /// (how far the frame lies between the world's last two states, in [0, 1]).</summary>
        public static float Alpha(SinewWorldBehaviour world)
        {
            return world.InterpolationAlpha;
        }
    }
}
