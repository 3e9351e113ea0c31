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
    }

    public partial struct SinewTransform
    {
        public SinewTransform(SinewVec3 position, SinewQuat rotation)
        {
            this.position = position;
            this.rotation = rotation;
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
