using System;

namespace Fixsteer
{
    /// <summary>The binding's argument checks: what native code would read through a null
    /// pointer, past an array or at a peer that does not exist is refused here, by name,
    /// before any native call.</summary>
    internal static class Args
    {
        /// <summary>Throws ArgumentNullException naming <paramref name="name"/> for
        /// null.</summary>
        internal static void NotNull(object value, string name)
        {
            if (value == null)
                throw new ArgumentNullException(name);
        }

        /// <summary>items[0..count) must exist: items may be null only when count is
        /// 0.</summary>
        internal static void Count<T>(T[] items, int count, string name)
        {
            if (items == null && count != 0)
                throw new ArgumentNullException(name, "null with a count of " + count);
            int length = items == null ? 0 : items.Length;
            if (count < 0 || count > length)
                throw new ArgumentOutOfRangeException(
                    "count", count, "count must be 0.." + length + " (the length of " + name + ")");
        }
    }
}
