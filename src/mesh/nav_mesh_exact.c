// Exact integer predicates of the navigation mesh. The 256-bit arithmetic works on 32-bit
// limbs with 64-bit intermediate products, so a Cortex-M0 computes the same bits as a 64-bit
// desktop.
#include "nav_mesh_exact.h"

#include "exact.h"

#define LIMBS 8

fxs_mesh_int fxs_mesh_int_from_i64(int64_t v) {
  fxs_mesh_int r;
  uint64_t u = (uint64_t)v;
  uint32_t fill = v < 0 ? 0xFFFFFFFFu : 0u;
  r.w[0] = (uint32_t)u;
  r.w[1] = (uint32_t)(u >> 32);
  for (int i = 2; i < LIMBS; i++) r.w[i] = fill;
  return r;
}

fxs_mesh_int fxs_mesh_int_add(fxs_mesh_int a, fxs_mesh_int b) {
  fxs_mesh_int r;
  uint64_t carry = 0;
  for (int i = 0; i < LIMBS; i++) {
    uint64_t t = (uint64_t)a.w[i] + b.w[i] + carry;
    r.w[i] = (uint32_t)t;
    carry = t >> 32;
  }
  return r;
}

static fxs_mesh_int negate(fxs_mesh_int a) {
  fxs_mesh_int r;
  uint64_t carry = 1;
  for (int i = 0; i < LIMBS; i++) {
    uint64_t t = (uint64_t)(uint32_t)~a.w[i] + carry;
    r.w[i] = (uint32_t)t;
    carry = t >> 32;
  }
  return r;
}

fxs_mesh_int fxs_mesh_int_sub(fxs_mesh_int a, fxs_mesh_int b) {
  return fxs_mesh_int_add(a, negate(b));
}

int fxs_mesh_int_sign(fxs_mesh_int a) {
  if (a.w[LIMBS - 1] & 0x80000000u) return -1;
  for (int i = 0; i < LIMBS; i++)
    if (a.w[i]) return 1;
  return 0;
}

int fxs_mesh_int_compare(fxs_mesh_int a, fxs_mesh_int b) {
  return fxs_mesh_int_sign(fxs_mesh_int_sub(a, b));
}

fxs_mesh_int fxs_mesh_int_mul(fxs_mesh_int a, fxs_mesh_int b) {
  int negative = 0;
  if (fxs_mesh_int_sign(a) < 0) {
    a = negate(a);
    negative = !negative;
  }
  if (fxs_mesh_int_sign(b) < 0) {
    b = negate(b);
    negative = !negative;
  }
  fxs_mesh_int r;
  for (int i = 0; i < LIMBS; i++) r.w[i] = 0;
  for (int i = 0; i < LIMBS; i++) {
    if (a.w[i] == 0) continue;
    uint64_t carry = 0;
    for (int j = 0; i + j < LIMBS; j++) {
      uint64_t t = (uint64_t)a.w[i] * b.w[j] + r.w[i + j] + carry;
      r.w[i + j] = (uint32_t)t;
      carry = t >> 32;
    }
  }
  return negative ? negate(r) : r;
}

// Magnitude long division, one bit at a time: rare (one call per crossing point), so the
// simplest exact form is the right one.
static fxs_mesh_int udivide(fxs_mesh_int n, fxs_mesh_int d, fxs_mesh_int *remainder) {
  fxs_mesh_int q, rem;
  for (int i = 0; i < LIMBS; i++) q.w[i] = rem.w[i] = 0;
  for (int bit = LIMBS * 32 - 1; bit >= 0; bit--) {
    for (int i = LIMBS - 1; i > 0; i--) rem.w[i] = (rem.w[i] << 1) | (rem.w[i - 1] >> 31);
    rem.w[0] = (rem.w[0] << 1) | ((n.w[bit / 32] >> (bit % 32)) & 1u);
    if (fxs_mesh_int_compare(rem, d) >= 0) {
      rem = fxs_mesh_int_sub(rem, d);
      q.w[bit / 32] |= 1u << (bit % 32);
    }
  }
  *remainder = rem;
  return q;
}

static int64_t to_i64(fxs_mesh_int a) { return (int64_t)(((uint64_t)a.w[1] << 32) | a.w[0]); }

int64_t fxs_mesh_int_floor_div(fxs_mesh_int n, fxs_mesh_int d) {
  fxs_mesh_int rem;
  if (fxs_mesh_int_sign(n) >= 0) return to_i64(udivide(n, d, &rem));
  fxs_mesh_int q = udivide(negate(n), d, &rem);
  int64_t m = to_i64(q);
  return fxs_mesh_int_sign(rem) ? -m - 1 : -m;
}

int fxs_mesh_orient(fxs_vec2 a, fxs_vec2 b, fxs_vec2 c) {
  int64_t ux = (int64_t)b.x - a.x, uy = (int64_t)b.y - a.y;
  int64_t vx = (int64_t)c.x - a.x, vy = (int64_t)c.y - a.y;
  // sign(ux * vy - uy * vx) from the signs and exact magnitudes of the two products.
  int sp = (ux > 0) - (ux < 0), sq = (uy > 0) - (uy < 0);
  sp *= (vy > 0) - (vy < 0);
  sq *= (vx > 0) - (vx < 0);
  if (sp != sq) return sp > sq ? 1 : -1;
  if (sp == 0) return 0;
  int c2 = fxs_u128_compare_products(fxs_exact_magnitude(ux), fxs_exact_magnitude(vy),
                                     fxs_exact_magnitude(uy), fxs_exact_magnitude(vx));
  return sp > 0 ? c2 : -c2;
}

fxs_mesh_int fxs_mesh_cross(fxs_vec2 a, fxs_vec2 b, fxs_vec2 c) {
  fxs_mesh_int ux = fxs_mesh_int_from_i64((int64_t)b.x - a.x);
  fxs_mesh_int uy = fxs_mesh_int_from_i64((int64_t)b.y - a.y);
  fxs_mesh_int vx = fxs_mesh_int_from_i64((int64_t)c.x - a.x);
  fxs_mesh_int vy = fxs_mesh_int_from_i64((int64_t)c.y - a.y);
  return fxs_mesh_int_sub(fxs_mesh_int_mul(ux, vy), fxs_mesh_int_mul(uy, vx));
}

static fxs_mesh_int lift(fxs_mesh_int x, fxs_mesh_int y) {
  return fxs_mesh_int_add(fxs_mesh_int_mul(x, x), fxs_mesh_int_mul(y, y));
}

static fxs_mesh_int cross2(fxs_mesh_int ax, fxs_mesh_int ay, fxs_mesh_int bx, fxs_mesh_int by) {
  return fxs_mesh_int_sub(fxs_mesh_int_mul(ax, by), fxs_mesh_int_mul(bx, ay));
}

#if defined(__SIZEOF_INT128__)
// The same determinant in the compiler's 128-bit integers when every difference is below
// 2^30 in magnitude (maps up to 16,384 units across): lifts below 2^61, the 2 x 2 minors
// below 2^61, each product below 2^122, the sum below 2^124. Exact, so the same sign.
static int in_circle_narrow(int64_t adx, int64_t ady, int64_t bdx, int64_t bdy, int64_t cdx,
                            int64_t cdy) {
  __extension__ typedef __int128 wide;
  int64_t al = adx * adx + ady * ady, bl = bdx * bdx + bdy * bdy, cl = cdx * cdx + cdy * cdy;
  wide det = (wide)al * (bdx * cdy - cdx * bdy) + (wide)bl * (cdx * ady - adx * cdy) +
             (wide)cl * (adx * bdy - bdx * ady);
  return (det > 0) - (det < 0);
}

static int narrow(int64_t v) { return v > -(INT64_C(1) << 30) && v < (INT64_C(1) << 30); }
#endif

int fxs_mesh_in_circle(fxs_vec2 a, fxs_vec2 b, fxs_vec2 c, fxs_vec2 d) {
#if defined(__SIZEOF_INT128__)
  {
    int64_t adx = (int64_t)a.x - d.x, ady = (int64_t)a.y - d.y, bdx = (int64_t)b.x - d.x;
    int64_t bdy = (int64_t)b.y - d.y, cdx = (int64_t)c.x - d.x, cdy = (int64_t)c.y - d.y;
    if (narrow(adx) && narrow(ady) && narrow(bdx) && narrow(bdy) && narrow(cdx) && narrow(cdy))
      return in_circle_narrow(adx, ady, bdx, bdy, cdx, cdy);
  }
#endif
  // The 3 x 3 determinant of (x, y, x^2 + y^2) relative to d, expanded along the lifts:
  // differences below 2^33, lifts below 2^67, each product below 2^133.
  fxs_mesh_int adx = fxs_mesh_int_from_i64((int64_t)a.x - d.x);
  fxs_mesh_int ady = fxs_mesh_int_from_i64((int64_t)a.y - d.y);
  fxs_mesh_int bdx = fxs_mesh_int_from_i64((int64_t)b.x - d.x);
  fxs_mesh_int bdy = fxs_mesh_int_from_i64((int64_t)b.y - d.y);
  fxs_mesh_int cdx = fxs_mesh_int_from_i64((int64_t)c.x - d.x);
  fxs_mesh_int cdy = fxs_mesh_int_from_i64((int64_t)c.y - d.y);
  fxs_mesh_int det = fxs_mesh_int_mul(lift(adx, ady), cross2(bdx, bdy, cdx, cdy));
  det = fxs_mesh_int_add(det, fxs_mesh_int_mul(lift(bdx, bdy), cross2(cdx, cdy, adx, ady)));
  det = fxs_mesh_int_add(det, fxs_mesh_int_mul(lift(cdx, cdy), cross2(adx, ady, bdx, bdy)));
  return fxs_mesh_int_sign(det);
}

// round(numerator / denominator) for denominator > 0, half toward +infinity:
// floor((2 n + d) / (2 d)).
static int32_t round_quotient(fxs_mesh_int n, fxs_mesh_int d) {
  fxs_mesh_int two_n = fxs_mesh_int_add(n, n);
  fxs_mesh_int two_d = fxs_mesh_int_add(d, d);
  return (int32_t)fxs_mesh_int_floor_div(fxs_mesh_int_add(two_n, d), two_d);
}

fxs_vec2 fxs_mesh_crossing_point(fxs_vec2 a, fxs_vec2 b, fxs_vec2 p, fxs_vec2 q) {
  // a + (b - a) * t with t = ((p - a) x (q - p)) / ((b - a) x (q - p)).
  fxs_mesh_int qpx = fxs_mesh_int_from_i64((int64_t)q.x - p.x);
  fxs_mesh_int qpy = fxs_mesh_int_from_i64((int64_t)q.y - p.y);
  fxs_mesh_int bax = fxs_mesh_int_from_i64((int64_t)b.x - a.x);
  fxs_mesh_int bay = fxs_mesh_int_from_i64((int64_t)b.y - a.y);
  fxs_mesh_int pax = fxs_mesh_int_from_i64((int64_t)p.x - a.x);
  fxs_mesh_int pay = fxs_mesh_int_from_i64((int64_t)p.y - a.y);
  fxs_mesh_int den = cross2(bax, bay, qpx, qpy);
  fxs_mesh_int num = cross2(pax, pay, qpx, qpy);
  if (fxs_mesh_int_sign(den) < 0) {
    den = negate(den);
    num = negate(num);
  }
  fxs_mesh_int nx = fxs_mesh_int_add(fxs_mesh_int_mul(fxs_mesh_int_from_i64(a.x), den),
                                     fxs_mesh_int_mul(bax, num));
  fxs_mesh_int ny = fxs_mesh_int_add(fxs_mesh_int_mul(fxs_mesh_int_from_i64(a.y), den),
                                     fxs_mesh_int_mul(bay, num));
  return fxs_vec2_make((fix16_t)round_quotient(nx, den), (fix16_t)round_quotient(ny, den));
}
