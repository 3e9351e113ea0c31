// Hand-written conveniences beside the generated raw layer (SinewNative.g.cs, generated
// from include/sinew.h; see tests/bindgen/csharp.rs): constructors and vector helpers
// on the generated partial structs, and the UTF-8 decoding of the library's strings.
// No declaration of the header is repeated here (tests/bindings/csharp_bindings.rs checks it).

namespace Sinew.Native
{
    public partial struct SinewVec3
    {
        public SinewVec3(float x, float y, float z)
        {
            this.x = x;
            this.y = y;
            this.z = z;
        }

        public static SinewVec3 operator +(SinewVec3 a, SinewVec3 b) { return new SinewVec3(a.x + b.x, a.y + b.y, a.z + b.z); }
        public static SinewVec3 operator -(SinewVec3 a, SinewVec3 b) { return new SinewVec3(a.x - b.x, a.y - b.y, a.z - b.z); }
        public static SinewVec3 operator *(SinewVec3 a, float s) { return new SinewVec3(a.x * s, a.y * s, a.z * s); }

        public static float Dot(SinewVec3 a, SinewVec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
        public static SinewVec3 Cross(SinewVec3 a, SinewVec3 b)
        {
            return new SinewVec3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
        }

        /// <summary>This / |this|, or <paramref name="fallback"/> when the length is (nearly)
        /// zero or not finite.</summary>
        public SinewVec3 NormalizedOr(SinewVec3 fallback)
        {
            float n = Length;
            if (!(n > 1e-20f) || float.IsInfinity(n) || float.IsNaN(n))
                return fallback;
            return this * (1f / n);
        }

        /// <summary>Euclidean length (m).</summary>
        public float Length { get { return (float)System.Math.Sqrt(x * x + y * y + z * z); } }

        /// <summary>a + (b - a) t.</summary>
        public static SinewVec3 Lerp(SinewVec3 a, SinewVec3 b, float t) { return a + (b - a) * t; }

        public override string ToString() { return "(" + x + ", " + y + ", " + z + ")"; }
    }

    public partial struct SinewQuat
    {
        public SinewQuat(float x, float y, float z, float w)
        {
            this.x = x;
            this.y = y;
            this.z = z;
            this.w = w;
        }

        /// <summary>The identity rotation (0, 0, 0, 1).</summary>
        public static SinewQuat Identity { get { return new SinewQuat(0, 0, 0, 1); } }

        /// <summary>A rotation of <paramref name="radians"/> about the unit axis (x, y, z).</summary>
        public static SinewQuat AxisAngle(float x, float y, float z, float radians)
        {
            float s = (float)System.Math.Sin(radians * 0.5), c = (float)System.Math.Cos(radians * 0.5);
            return new SinewQuat(x * s, y * s, z * s, c);
        }

        /// <summary>a * b: the rotation b followed by a (Hamilton product, as Unity's
        /// Quaternion and Unreal's FQuat).</summary>
        public static SinewQuat operator *(SinewQuat a, SinewQuat b)
        {
            return new SinewQuat(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                                 a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                                 a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
                                 a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
        }

        /// <summary>v turned by this unit quaternion.</summary>
        public static SinewVec3 operator *(SinewQuat q, SinewVec3 v)
        {
            var u = new SinewVec3(q.x, q.y, q.z);
            SinewVec3 t = SinewVec3.Cross(u, v) * 2f;
            return v + t * q.w + SinewVec3.Cross(u, t);
        }

        /// <summary>The inverse of a unit quaternion.</summary>
        public SinewQuat Conjugate { get { return new SinewQuat(-x, -y, -z, w); } }

        /// <summary>This / |this| (what the library's unit check wants after arithmetic), or
        /// the identity when it is (nearly) zero or not finite.</summary>
        public SinewQuat Normalized
        {
            get
            {
                float n = (float)System.Math.Sqrt(x * x + y * y + z * z + w * w);
                if (!(n > 1e-20f) || float.IsInfinity(n) || float.IsNaN(n))
                    return Identity;
                return new SinewQuat(x / n, y / n, z / n, w / n);
            }
        }

        /// <summary>The shortest rotation turning direction <paramref name="from"/> onto
        /// <paramref name="to"/> (any lengths): a nozzle, which pours along its local +z,
        /// aimed along d is <c>FromTo(new SinewVec3(0, 0, 1), d)</c>. Opposite directions
        /// turn half a turn about an axis perpendicular to <paramref name="from"/>; a zero
        /// direction gives the identity.</summary>
        public static SinewQuat FromTo(SinewVec3 from, SinewVec3 to)
        {
            var zero = new SinewVec3(0, 0, 0);
            SinewVec3 a = from.NormalizedOr(zero), b = to.NormalizedOr(zero);
            if (SinewVec3.Dot(a, a) == 0f || SinewVec3.Dot(b, b) == 0f)
                return Identity;
            float c = SinewVec3.Dot(a, b);
            if (c < -0.999999f)
            {
                SinewVec3 axis = SinewVec3.Cross(new SinewVec3(1, 0, 0), a);
                if (SinewVec3.Dot(axis, axis) < 1e-6f)
                    axis = SinewVec3.Cross(new SinewVec3(0, 1, 0), a);
                axis = axis.NormalizedOr(new SinewVec3(0, 0, 1));
                return new SinewQuat(axis.x, axis.y, axis.z, 0f);
            }
            SinewVec3 n = SinewVec3.Cross(a, b);
            return new SinewQuat(n.x, n.y, n.z, 1f + c).Normalized;
        }
    }

    public partial struct SinewTransform
    {
        public SinewTransform(SinewVec3 position, SinewQuat rotation)
        {
            this.position = position;
            this.rotation = rotation;
        }

        /// <summary>The world position of the local point <paramref name="p"/>.</summary>
        public SinewVec3 TransformPoint(SinewVec3 p) { return position + rotation * p; }

        /// <summary>The local position of the world point <paramref name="p"/>.</summary>
        public SinewVec3 InverseTransformPoint(SinewVec3 p) { return rotation.Conjugate * (p - position); }

        /// <summary>The world direction of the local direction <paramref name="d"/>.</summary>
        public SinewVec3 TransformDirection(SinewVec3 d) { return rotation * d; }

        /// <summary>parent * child: the world transform of a frame placed at
        /// <paramref name="child"/> inside <paramref name="parent"/>.</summary>
        public static SinewTransform operator *(SinewTransform parent, SinewTransform child)
        {
            return new SinewTransform(parent.TransformPoint(child.position), parent.rotation * child.rotation);
        }

        /// <summary>The transform that undoes this one.</summary>
        public SinewTransform Inverse
        {
            get
            {
                SinewQuat r = rotation.Conjugate;
                return new SinewTransform(r * (position * -1f), r);
            }
        }
    }

    public static unsafe partial class SinewNative
    {
        /// <summary>Decodes a NUL-terminated UTF-8 string returned by the library
        /// ("" for NULL).</summary>
        public static string Utf8ToString(byte* text)
        {
            if (text == null)
                return "";
            int n = 0;
            while (text[n] != 0)
                n++;
            return n == 0 ? "" : System.Text.Encoding.UTF8.GetString(text, n);
        }
    }
}
