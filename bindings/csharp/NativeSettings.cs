// The one conversion between a settings struct (WorldSettings, RopeSettings, ...) and its
// native desc: each struct lists its fields once, in Exchange, and that list serves both
// directions (Default reads the library's defaults out of a desc, ToNative writes the
// settings over them, keeping the desc's cookie).

using Sinew.Native;

namespace Sinew
{
    /// <summary>A settings struct over the native desc <typeparamref name="TNative"/>.</summary>
    internal interface INativeSettings<TNative> where TNative : struct
    {
        /// <summary>Writes the library's defaults (with their cookie) to
        /// <paramref name="native"/>; returns the native status.</summary>
        int InitNative(ref TNative native);

        /// <summary>Copies every field: into <paramref name="native"/> when
        /// <paramref name="toNative"/>, else out of it into these settings.</summary>
        void Exchange(ref TNative native, bool toNative);
    }

    internal static class NativeSettings
    {
        /// <summary>The library's defaults as settings.</summary>
        public static TSettings Default<TSettings, TNative>()
            where TSettings : struct, INativeSettings<TNative> where TNative : struct
        {
            var settings = default(TSettings);
            TNative native = Defaults<TSettings, TNative>(settings);
            settings.Exchange(ref native, false);
            return settings;
        }

        /// <summary>The native desc: the defaults overwritten by <paramref name="settings"/>.</summary>
        public static TNative ToNative<TSettings, TNative>(TSettings settings)
            where TSettings : struct, INativeSettings<TNative> where TNative : struct
        {
            TNative native = Defaults<TSettings, TNative>(settings);
            settings.Exchange(ref native, true);
            return native;
        }

        /// <summary>The settings of a native desc the library wrote.</summary>
        public static TSettings FromNative<TSettings, TNative>(TNative native)
            where TSettings : struct, INativeSettings<TNative> where TNative : struct
        {
            var settings = default(TSettings);
            settings.Exchange(ref native, false);
            return settings;
        }

        static TNative Defaults<TSettings, TNative>(TSettings settings)
            where TSettings : struct, INativeSettings<TNative> where TNative : struct
        {
            Library.EnsureLoaded();
            var native = default(TNative);
            SinewException.Check(settings.InitNative(ref native));
            return native;
        }

        /// <summary>A field of the same type on both sides.</summary>
        public static void Copy<T>(ref T native, ref T managed, bool toNative)
        {
            if (toNative)
                native = managed;
            else
                managed = native;
        }

        /// <summary>A count: negative ones become huge unsigned values, which the library
        /// rejects with a message.</summary>
        public static void Copy(ref uint native, ref int managed, bool toNative)
        {
            if (toNative)
                native = unchecked((uint)managed);
            else
                managed = (int)native;
        }

        /// <summary>A flag (0 or 1 on the native side).</summary>
        public static void Copy(ref uint native, ref bool managed, bool toNative)
        {
            if (toNative)
                native = managed ? 1u : 0u;
            else
                managed = native != 0;
        }

        /// <summary>An enum over uint (the generated Sinew* enums) stored as its value.</summary>
        public static void CopyEnum<TEnum>(ref uint native, ref TEnum managed, bool toNative) where TEnum : struct
        {
            if (toNative)
                native = (uint)(object)managed;
            else
                managed = (TEnum)(object)native;
        }
    }
}
