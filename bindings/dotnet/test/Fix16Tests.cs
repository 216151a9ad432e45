using NUnit.Framework;

namespace Fixsteer.Tests
{
    /// <summary>Fix16.FromRatio rounds as C's FXS_RATIO (config.h): half away from zero, so a C
    /// program ported line by line builds the same numbers.</summary>
    [TestFixture]
    public class Fix16Tests
    {
        // n, d and FXS_RATIO(n, d) as the C compiler computes it.
        static readonly long[,] Cases = {
            { 3, 10, 19661 }, { -3, 10, -19661 }, { 3, -10, -19661 }, { -3, -10, 19661 },
            { 2, 3, 43691 }, { -2, 3, -43691 }, { 1, 3, 21845 }, { -1, 3, -21845 },
            { 1, 2, 32768 }, { 1, 131072, 1 }, { -1, 131072, -1 }, { 1, 131073, 0 },
            { 7, 1, 458752 }, { 0, 5, 0 }
        };

        [Test]
        public void FromRatioRoundsAsFxsRatio()
        {
            for (int i = 0; i < Cases.GetLength(0); ++i)
                Assert.AreEqual((int)Cases[i, 2], Fix16.FromRatio(Cases[i, 0], Cases[i, 1]),
                                "FromRatio(" + Cases[i, 0] + ", " + Cases[i, 1] + ")");
        }
    }
}
