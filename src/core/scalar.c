#include "fixsteer/scalar.h"

#include <limits.h>

#include "isqrt.h"
#include "wide.h"

// pi in Q20.44: the 1.4e-14 rad precision keeps range reduction exact enough over the whole
// Q16.16 range (5,000+ turns), where the raw Q16.16 pi would drift by 0.8 LSB per turn.
#define Q44_PI INT64_C(55267482437722)
#define Q44_TWO_PI INT64_C(110534964875444)
#define Q44_HALF_PI INT64_C(27633741218861)
#define Q44_FROM_Q16 INT64_C(268435456) // 2^28

// Saturation by sign, used where a quotient's divisor is zero.
static fix16_t saturate_by_sign(int64_t numerator) {
  return numerator > 0 ? FXS_MAX : (numerator < 0 ? FXS_MIN : 0);
}

fix16_t fxs_mul(fix16_t a, fix16_t b) { return fxs_mul_inline(a, b); }

// Near and past the edges of the range: the rounded quotient where it lies strictly inside
// the int32 range, else the truncated quotient saturated (so FXS_MAX or FXS_MIN past the
// range, and never INT32_MIN, libfixmath's overflow flag).
fix16_t fxs_mul_large(int64_t product) {
  if (product >= -(INT64_C(1) << 47) && product < (INT64_C(1) << 47)) {
    int64_t rounded = fxs_mul_round(product);
    if (rounded > INT32_MIN && rounded <= INT32_MAX) return (fix16_t)rounded;
  }
  return fxs_saturate(product / 65536);
}

fix16_t fxs_div(fix16_t a, fix16_t b) {
  if (b == 0) {
    return saturate_by_sign(a);
  }
  // Dividing by 1.0 is exact: fix16_div(a, 1.0) == a for every a but INT32_MIN (checked over
  // all 2^32 inputs), and a unit mass is the common case of the integrator.
  if (b == FXS_ONE && a != INT32_MIN) return a;
  fix16_t r = fix16_div(a, b);
  if (r == fix16_overflow) {
    return saturate_by_sign(((a < 0) == (b < 0)) ? 1 : -1);
  }
  return r;
}

int64_t fxs_div_round_i64(int64_t n, int64_t d) { return fxs_div_round_i64_inline(n, d); }

int64_t fxs_add_sat_i64(int64_t a, int64_t b) {
  if (b > 0 && a > INT64_MAX - b) return INT64_MAX;
  if (b < 0 && a < INT64_MIN - b) return INT64_MIN;
  return a + b;
}

fix16_t fxs_muldiv(fix16_t a, fix16_t b, fix16_t c) {
  int64_t n = (int64_t)a * b; // |n| <= 2^62
  if (c == 0) {
    return saturate_by_sign(n);
  }
  return fxs_saturate(fxs_div_round_i64(n, c));
}

fix16_t fxs_lerp(fix16_t a, fix16_t b, fix16_t t) {
  int64_t d = (int64_t)b - a; // |d| <= 2^32
  // |d * t| <= 2^63 only when both are extreme; clamp t so the product stays in range, the
  // result saturates anyway.
  if (t > INT32_C(0x3FFFFFFF)) t = INT32_C(0x3FFFFFFF);
  if (t < -INT32_C(0x3FFFFFFF)) t = -INT32_C(0x3FFFFFFF);
  return fxs_saturate((int64_t)a + fxs_div_round_i64(d * t, 65536));
}

// The lines of fxs_rsqrt_q30 (isqrt.h). Over interval i, x = x0 + 128 t + u with
// x0 = 2^30 + i 2^23, the slope is that of the chord of c(x) = floor(2^46 / sqrt(x + 1)) in
// units of 2^-8 per t, rounded, and the base the largest value that keeps
// base - slope t / 2^8 at or under c(x) for every x of the interval. Computed and checked by
// tools/isqrt-check.c (`--table` prints them).
const uint32_t fxs_rsqrt_base[FXS_RSQRT_INTERVALS] = {
    2147471319, 2139131860, 2130888654, 2122740140, 2114684291, 2106719510, 2098844118, 2091056352,
    2083354618, 2075737362, 2068202944, 2060750143, 2053377264, 2046083033, 2038865824, 2031724558,
    2024657804, 2017664291, 2010742778, 2003891926, 1997110678, 1990397753, 1983752149, 1977172637,
    1970658140, 1964207605, 1957820004, 1951494333, 1945229607, 1939024739, 1932879045, 1926791222,
    1920760754, 1914786380, 1908867495, 1903003127, 1897192582, 1891434798, 1885729112, 1880074880,
    1874471088, 1868917252, 1863412388, 1857955914, 1852547006, 1847185109, 1841869553, 1836599555,
    1831374601, 1826193932, 1821057060, 1815963250, 1810911909, 1805902582, 1800934443, 1796007187,
    1791120137, 1786272754, 1781464637, 1776695010, 1771963492, 1767269584, 1762612794, 1757992639,
    1753408521, 1748860229, 1744347052, 1739868669, 1735424641, 1731014408, 1726637672, 1722293890,
    1717982906, 1713703935, 1709456964, 1705241222, 1701056708, 1696902665, 1692778978, 1688685285,
    1684621100, 1680586072, 1676579985, 1672602370, 1668652895, 1664731230, 1660837180, 1656970300,
    1653130277, 1649316932, 1645529706, 1641768558, 1638033063, 1634322938, 1630637895, 1626977657,
    1623341948, 1619730497, 1616143166, 1612579436, 1609039177, 1605522261, 1602028183, 1598556824,
    1595107939, 1591681418, 1588276769, 1584893760, 1581532417, 1578192387, 1574873318, 1571575250,
    1568297709, 1565040611, 1561803746, 1558586908, 1555389765, 1552212244, 1549054147, 1545915279,
    1542795448, 1539694336, 1536611884, 1533547908, 1530502098, 1527474402, 1524464644, 1521472521,
    1518497989, 1515540880, 1512601023, 1509678128, 1506772031, 1503882827, 1501010102, 1498153699,
    1495313591, 1492489628, 1489681528, 1486889274, 1484112717, 1481351587, 1478605738, 1475875160,
    1473159713, 1470459132, 1467773408, 1465102281, 1462445747, 1459803545, 1457175678, 1454561888,
    1451962178, 1449376296, 1446804249, 1444245786, 1441700916, 1439169394, 1436651103, 1434146055,
    1431654137, 1429175108, 1426708859, 1424255405, 1421814512, 1419386072, 1416970108, 1414566516,
    1412175062, 1409795646, 1407428167, 1405072653, 1402729004, 1400396870, 1398076407, 1395767523,
    1393469993, 1391183726, 1388908629, 1386644741, 1384391969, 1382149971, 1379918914, 1377698582,
    1375489020, 1373290012, 1371101476, 1368923456, 1366755743, 1364598255, 1362450911, 1360313760,
    1358186597, 1356069470, 1353962175, 1351864636, 1349776779, 1347698655, 1345629937, 1343570935,
    1341521193, 1339480895, 1337449843, 1335427968, 1333415327, 1331411726, 1329417097, 1327431372,
    1325454612, 1323486498, 1321527348, 1319576714, 1317634660, 1315701251, 1313776297, 1311859865,
    1309951638, 1308051811, 1306160196, 1304276734, 1302401497, 1300534295, 1298675073, 1296823774,
    1294980342, 1293144849, 1291317110, 1289497074, 1287684685, 1285879889, 1284082763, 1282293123,
    1280510921, 1278736103, 1276968618, 1275208546, 1273455706, 1271710051, 1269971529, 1268240222,
    1266515826, 1264798548, 1263088213, 1261384774, 1259688185, 1257998530, 1256315632, 1254639448,
    1252969934, 1251307046, 1249650738, 1248001095, 1246357819, 1244721125, 1243090840, 1241467050,
    1239849461, 1238238156, 1236633226, 1235034500, 1233441938, 1231855502, 1230275150, 1228700976,
    1227132680, 1225570484, 1224014220, 1222463851, 1220919340, 1219380777, 1217847872, 1216320842,
    1214799523, 1213283754, 1211773754, 1210269490, 1208770669, 1207277384, 1205789732, 1204307548,
    1202830672, 1201359327, 1199893480, 1198432844, 1196977511, 1195527578, 1194082760, 1192643279,
    1191208974, 1189779818, 1188355778, 1186936824, 1185522925, 1184114179, 1182710303, 1181311519,
    1179917672, 1178528606, 1177144547, 1175765467, 1174391082, 1173021490, 1171656792, 1170296706,
    1168941459, 1167590894, 1166244861, 1164903586, 1163566914, 1162234948, 1160907407, 1159584390,
    1158266000, 1156951958, 1155642493, 1154337451, 1153036808, 1151740539, 1150448621, 1149161030,
    1147877739, 1146598725, 1145324093, 1144053563, 1142787369, 1141525357, 1140267378, 1139013666,
    1137764068, 1136518563, 1135277127, 1134039869, 1132806509, 1131577151, 1130351906, 1129130492,
    1127913148, 1126699722, 1125490192, 1124284539, 1123082743, 1121884783, 1120690639, 1119500289,
    1118313713, 1117131019, 1115951935, 1114776690, 1113605018, 1112437148, 1111272934, 1110112231,
    1108955277, 1107801923, 1106652150, 1105505940, 1104363404, 1103224267, 1102088638, 1100956626,
    1099827961, 1098702877, 1097581104, 1096462878, 1095348053, 1094236486, 1093128416, 1092023697,
    1090922312, 1089824244, 1088729604, 1087638123, 1086549908, 1085464944, 1084383344, 1083304836,
    1082229657, 1081157540, 1080088722, 1079023058, 1077960409, 1076901013, 1075844727, 1074791535};
const uint16_t fxs_rsqrt_slope[FXS_RSQRT_INTERVALS] = {
    32577, 32201, 31831, 31469, 31113, 30764, 30422, 30086, 29756, 29432, 29113, 28801, 28494,
    28193, 27896, 27605, 27319, 27038, 26762, 26490, 26223, 25960, 25702, 25448, 25198, 24952,
    24710, 24472, 24238, 24007, 23781, 23557, 23338, 23121, 22908, 22698, 22492, 22288, 22087,
    21890, 21695, 21504, 21315, 21129, 20945, 20764, 20586, 20410, 20237, 20066, 19898, 19732,
    19568, 19407, 19247, 19090, 18935, 18782, 18632, 18483, 18336, 18191, 18048, 17907, 17767,
    17630, 17494, 17360, 17228, 17097, 16968, 16840, 16715, 16590, 16468, 16346, 16227, 16108,
    15991, 15876, 15762, 15649, 15538, 15428, 15319, 15211, 15105, 15000, 14896, 14794, 14692,
    14592, 14493, 14395, 14298, 14202, 14107, 14013, 13921, 13829, 13738, 13649, 13560, 13472,
    13385, 13300, 13215, 13130, 13047, 12965, 12883, 12803, 12723, 12644, 12566, 12489, 12412,
    12336, 12261, 12187, 12114, 12041, 11969, 11898, 11827, 11757, 11688, 11619, 11551, 11484,
    11418, 11352, 11286, 11222, 11158, 11094, 11031, 10969, 10907, 10846, 10786, 10726, 10666,
    10607, 10549, 10491, 10434, 10377, 10321, 10265, 10210, 10155, 10101, 10047, 9994,  9941,
    9889,  9837,  9785,  9734,  9684,  9634,  9584,  9535,  9486,  9437,  9389,  9342,  9295,
    9248,  9201,  9155,  9110,  9064,  9019,  8975,  8931,  8887,  8843,  8800,  8758,  8715,
    8673,  8631,  8590,  8549,  8508,  8468,  8428,  8388,  8348,  8309,  8270,  8232,  8194,
    8156,  8118,  8081,  8043,  8007,  7970,  7934,  7898,  7862,  7827,  7792,  7757,  7722,
    7688,  7653,  7620,  7586,  7552,  7519,  7486,  7454,  7421,  7389,  7357,  7325,  7294,
    7263,  7232,  7201,  7170,  7140,  7110,  7080,  7050,  7020,  6991,  6962,  6933,  6904,
    6875,  6847,  6819,  6791,  6763,  6736,  6708,  6681,  6654,  6627,  6600,  6574,  6548,
    6522,  6496,  6470,  6444,  6419,  6393,  6368,  6343,  6319,  6294,  6269,  6245,  6221,
    6197,  6173,  6149,  6126,  6102,  6079,  6056,  6033,  6010,  5988,  5965,  5943,  5921,
    5898,  5876,  5855,  5833,  5811,  5790,  5769,  5747,  5726,  5706,  5685,  5664,  5644,
    5623,  5603,  5583,  5563,  5543,  5523,  5503,  5484,  5464,  5445,  5426,  5406,  5387,
    5369,  5350,  5331,  5313,  5294,  5276,  5258,  5239,  5221,  5203,  5186,  5168,  5150,
    5133,  5115,  5098,  5081,  5064,  5047,  5030,  5013,  4996,  4979,  4963,  4946,  4930,
    4914,  4897,  4881,  4865,  4849,  4833,  4818,  4802,  4786,  4771,  4755,  4740,  4725,
    4710,  4695,  4680,  4665,  4650,  4635,  4620,  4606,  4591,  4577,  4562,  4548,  4534,
    4519,  4505,  4491,  4477,  4463,  4450,  4436,  4422,  4409,  4395,  4382,  4368,  4355,
    4342,  4328,  4315,  4302,  4289,  4276,  4264,  4251,  4238,  4225,  4213,  4200,  4188,
    4175,  4163,  4151,  4138,  4126,  4114,  4102};

unsigned fxs_clz32(uint32_t v) { return v ? fxs_clz32_nz(v) : 32u; }

// floor(n / d) by long division in base 2^16 with 32-bit divisions only: d is shifted so its
// top bit is set, each quotient digit is estimated from the divisor's top half and lowered
// while digit * d exceeds the partial numerator (compared exactly, digit * dh * 2^16 +
// digit * dl against r * 2^16 + next): at most twice, since the estimate is below 2^16 + 2.
uint32_t fxs_udiv64_32_digits(uint64_t n, uint32_t d) {
  unsigned s = fxs_clz32_nz(d);
  d <<= s;
  uint32_t hi = (uint32_t)(n >> 32), lo = (uint32_t)n;
  if (s) hi = (hi << s) | (lo >> (32u - s)), lo <<= s; // hi < d: the quotient fits 32 bits
  uint32_t dh = d >> 16, dl = d & 0xFFFFu;
  uint32_t q[2];
  uint32_t rem = hi;
  for (int digit = 0; digit < 2; ++digit) {
    uint32_t next = digit == 0 ? lo >> 16 : lo & 0xFFFFu;
    uint32_t qd = rem / dh, r = rem - qd * dh;
    while (qd > 0xFFFFu || (uint64_t)qd * dl > (((uint64_t)r << 16) | next)) {
      --qd;
      r += dh;
    }
    rem = ((rem << 16) | next) - qd * d; // exact modulo 2^32: the true remainder is below d
    q[digit] = qd;
  }
  return (q[0] << 16) | q[1];
}

uint32_t fxs_udiv64_32(uint64_t n, uint32_t d) { return fxs_udiv64_32_inline(n, d); }

uint32_t fxs_isqrt64(uint64_t n) {
  uint32_t r = fxs_isqrt_estimate(n);
  // r^2 <= n, and (r + 1)^2 <= n exactly when n - r^2 > 2r (no square of r + 1 to overflow).
  return (n - fxs_mul32(r, r) > 2 * (uint64_t)r) ? r + 1 : r;
}

uint64_t fxs_isqrt64_round(uint64_t n) {
  uint32_t r = fxs_isqrt_estimate(n);
  return fxs_sqrt_round_from(r, n - fxs_mul32(r, r));
}

fix16_t fxs_sqrt(fix16_t x) {
  FXS_ASSERT(x >= 0);
  if (x <= 0) return 0;
  return (fix16_t)fxs_isqrt64_round((uint64_t)x << 16);
}

fix16_t fxs_angle_wrap(fix16_t angle) {
  fix16_t r = angle % FXS_TWO_PI;
  if (r > FXS_PI) r -= FXS_TWO_PI;
  else if (r <= -FXS_PI) r += FXS_TWO_PI;
  return r;
}

// Sine of a Q20.44 angle of any size: reduce to [-pi/2, pi/2], round to Q16.16 and let
// libfixmath's Taylor series run where it is accurate (<= 3 LSB for |x| <= 2.5).
static fix16_t sin_q44(int64_t a) {
  int64_t r = a % Q44_TWO_PI;
  if (r > Q44_PI) r -= Q44_TWO_PI;
  else if (r <= -Q44_PI) r += Q44_TWO_PI;
  if (r > Q44_HALF_PI) r = Q44_PI - r;
  else if (r < -Q44_HALF_PI) r = -Q44_PI - r;
  int64_t half = Q44_FROM_Q16 / 2;
  fix16_t x = (fix16_t)(r >= 0 ? (r + half) / Q44_FROM_Q16 : (r - half) / Q44_FROM_Q16);
  return fxs_clamp(fix16_sin(x), -FXS_ONE, FXS_ONE);
}

fix16_t fxs_sin(fix16_t angle) { return sin_q44((int64_t)angle * Q44_FROM_Q16); }

fix16_t fxs_cos(fix16_t angle) { return sin_q44((int64_t)angle * Q44_FROM_Q16 + Q44_HALF_PI); }

fix16_t fxs_atan2(fix16_t y, fix16_t x) {
  // The axes are exact, so headings along them (common in games) have exact orientations;
  // the cubic approximation alone is off by an LSB there.
  if (y == 0) return x < 0 ? FXS_PI : 0;
  if (x == 0) return y < 0 ? -FXS_HALF_PI : FXS_HALF_PI;
  // Magnitudes in unsigned arithmetic: |0x80000000| does not fit in a fix16_t.
  uint32_t ax = x < 0 ? 0u - (uint32_t)x : (uint32_t)x;
  uint32_t ay = y < 0 ? 0u - (uint32_t)y : (uint32_t)y;
  uint32_t m = ax > ay ? ax : ay;
  // Bring the larger magnitude into [2^28, 2^29) (its top bit to bit 28) by one shift of
  // both: fix16_atan2 then never overflows (|x| + |y| < 2^30) and small vectors keep their
  // full angular resolution.
  unsigned zeros = fxs_clz32_nz(m); // m > 0: both axes are nonzero here
  if (zeros > 3u) {
    ax <<= zeros - 3u, ay <<= zeros - 3u;
  } else {
    ax >>= 3u - zeros, ay >>= 3u - zeros;
  }
  fix16_t sx = x < 0 ? -(fix16_t)ax : (fix16_t)ax;
  fix16_t sy = y < 0 ? -(fix16_t)ay : (fix16_t)ay;
  fix16_t a = fix16_atan2(sy, sx);
  // The approximation can land a hair outside (-pi, pi]; keep the documented range.
  return fxs_angle_wrap(a);
}
