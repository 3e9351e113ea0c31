// Sinew.World: fixed step with an accumulator, and positions interpolated between the
// last two states for smooth rendering at any frame rate. Times in s, positions in m.
//
//     float alpha;
//     world.Advance(Time.deltaTime, 1f / 60f, 4, out alpha);   // 0..4 fixed steps
//     world.ReadInterpolatedPositions(0, alpha, vertices);      // what to draw now

using Sinew.Native;

namespace Sinew
{
    public sealed partial class World
    {
        /// <summary>Adds <paramref name="frameDt"/> seconds (the frame's real time, finite,
        /// in [0, 3600]) to the world's accumulator and runs as many steps of exactly
        /// <paramref name="fixedDt"/> seconds (in [1e-6, 10]) as fit, each the same as
        /// <c>Step(fixedDt)</c>, so the simulation does not depend on the frame rate; at most
        /// <paramref name="maxSteps"/> (1..1024): whole steps beyond the cap are dropped (the
        /// world falls behind real time rather than spending ever longer frames catching up),
        /// the fraction of a step left over is kept. Returns the steps run;
        /// <paramref name="alpha"/> = leftover / fixedDt, in [0, 1), is the weight to pass to
        /// <see cref="ReadInterpolatedPositions{T}(int, float, T[])"/> this frame. Step leaves the
        /// accumulator alone; snapshots save it. Throws on a bad argument (nothing changed) and
        /// with ErrorNonFinite as Step does (the steps up to the failing one ran).</summary>
        public unsafe int Advance(float frameDt, float fixedDt, int maxSteps, out float alpha)
        {
            uint steps;
            float a;
            SinewException.Check(SinewNative.sinew_world_advance(Handle, frameDt, fixedDt,
                unchecked((uint)maxSteps), &steps, &a));
            alpha = a;
            return (int)steps;
        }

        /// <summary>Copies the positions (m) of particles first..first+destination.Length,
        /// interpolated between the start and the end of the last step:
        /// (1 - alpha) * previous + alpha * current, alpha in [0, 1] (the one
        /// <see cref="Advance"/> returned). Before the first step and after a position write
        /// (a teleport) previous = current.</summary>
        public void ReadInterpolatedPositions<T>(int first, float alpha, T[] destination) where T : struct
        {
            const string F = "World.ReadInterpolatedPositions";
            Args.NotNull(destination, F, "destination");
            ReadInterpolatedPositions(first, alpha, destination, 0, destination.Length);
        }

        /// <summary>Copies interpolated positions (m) of particles first..first+count into
        /// destination[start..start+count].</summary>
        public unsafe void ReadInterpolatedPositions<T>(int first, float alpha, T[] destination, int start, int count)
            where T : struct
        {
            using (var p = PinVec3(destination, start, count, "World.ReadInterpolatedPositions", "destination"))
                ReadInterpolatedPositions(first, alpha, count, p.Ptr + (long)start * Element<T>.Size, Element<T>.Size);
        }

        /// <summary>Copies interpolated positions (m) of particles first..first+count to
        /// <paramref name="destination"/>, one x, y, z every <paramref name="strideBytes"/>
        /// (>= 12), e.g. straight into a vertex buffer.</summary>
        public unsafe void ReadInterpolatedPositions(int first, float alpha, int count, void* destination, int strideBytes)
        {
            SinewException.Check(SinewNative.sinew_world_read_interpolated_positions(Handle, unchecked((uint)first),
                unchecked((uint)count), alpha, destination, unchecked((uint)strideBytes)));
        }
    }

    public partial class Body
    {
        /// <summary>Copies the positions (m) of all the body's particles, interpolated between
        /// the start and the end of the last step ((1 - alpha) * previous + alpha * current,
        /// alpha in [0, 1], the one <see cref="World.Advance"/> returned), into
        /// destination[0..ParticleCount], in one library call straight into the array.</summary>
        public unsafe void ReadInterpolatedPositions<T>(float alpha, T[] destination) where T : struct
        {
            const string F = "Body.ReadInterpolatedPositions";
            Args.NotNull(destination, F, "destination");
            Args.Vec3Element<T>(F);
            using (var p = new Pin(destination))
                ReadInterpolatedPositions(alpha, p.Ptr, destination.Length, Element<T>.Size);
        }

        /// <summary>Copies the body's interpolated positions (m) to
        /// <paramref name="destination"/>, one x, y, z every <paramref name="strideBytes"/>
        /// (>= 12), e.g. a vertex buffer; <paramref name="capacity"/> elements fit there (at
        /// least ParticleCount).</summary>
        public unsafe void ReadInterpolatedPositions(float alpha, void* destination, int capacity, int strideBytes)
        {
            SinewException.Check(SinewNative.sinew_body_read_interpolated_positions(World.Handle, Handle, alpha,
                destination, unchecked((uint)capacity), unchecked((uint)strideBytes)));
        }
    }
}
