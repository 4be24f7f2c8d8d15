// Element loads and the number conversions of ops/cast.go, bit for bit as
// NumPy 1.24's element loops give them on x86-64 (not as the GPU's own
// conversions would: those make every NaN canonical and saturate
// out-of-range floats). Shared by cast.cu and unique.cu; cuda/cast.go packs
// the format word.
#pragma once
#include "common.cuh"

// Dtype kinds as template arguments (the KIND_x names let a macro spell
// one from a kernel name's letter).
#define KIND_b 'b'
#define KIND_i 'i'
#define KIND_u 'u'
#define KIND_f 'f'
#define KIND_c 'c'

// A format word (one 8-byte argument): bits 0-7 the source element size,
// bit 8 whether it is byte-swapped, bits 16-23 and bit 24 the same for the
// destination.
__device__ __forceinline__ int fmt_size(i64 f, int shift) { return (int)((f >> shift) & 255); }
__device__ __forceinline__ bool fmt_swap(i64 f, int shift) { return ((f >> (shift + 8)) & 1) != 0; }

// swap_bytes reverses the low size bytes of u.
__device__ __forceinline__ u64 swap_bytes(u64 u, int size) {
  u64 r = ((u64)__byte_perm((u32)u, 0, 0x0123) << 32) | __byte_perm((u32)(u >> 32), 0, 0x0123);
  return r >> (64 - 8 * size);
}

__device__ __forceinline__ u64 load_word(const unsigned char* a, int size) {
  switch (size) {
    case 1: return *a;
    case 2: return *(const unsigned short*)a;
    case 4: return *(const u32*)a;
  }
  return *(const u64*)a;
}

__device__ __forceinline__ void store_word(unsigned char* a, int size, u64 v) {
  switch (size) {
    case 1: *a = (unsigned char)v; break;
    case 2: *(unsigned short*)a = (unsigned short)v; break;
    case 4: *(u32*)a = (u32)v; break;
    default: *(u64*)a = v; break;
  }
}

// load_part is a part (an element, or half a complex one) in native order.
__device__ __forceinline__ u64 load_part(const unsigned char* a, int size, bool swap) {
  u64 u = load_word(a, size);
  return swap ? swap_bytes(u, size) : u;
}

__device__ __forceinline__ double dbl(u64 b) { return __longlong_as_double((i64)b); }
__device__ __forceinline__ u64 dbits(double x) { return (u64)__double_as_longlong(x); }

// f16_to_f64 is dtype.HalfToFloat64: exact, a NaN's payload moved as is.
__device__ __forceinline__ double f16_to_f64(u64 h) {
  u64 sign = (h >> 15) << 63;
  int exp = (int)(h >> 10) & 0x1f;
  u64 mant = h & 0x3ff;
  if (exp == 0x1f) return dbl(sign | 0x7ffull << 52 | mant << 42);
  if (exp == 0 && mant == 0) return dbl(sign);
  if (exp == 0) {
    double v = (double)mant * 5.9604644775390625e-08;  // mant * 2^-24, exact
    return sign ? -v : v;
  }
  return dbl(sign | (u64)(exp - 15 + 1023) << 52 | mant << 42);
}

// f32_to_f64 is cvtss2sd: exact, a NaN gets its quiet bit.
__device__ __forceinline__ double f32_to_f64(u64 b) {
  if ((b & 0x7fffffffull) > 0x7f800000ull)
    return dbl((b >> 31) << 63 | 0x7ff8000000000000ull | (b & 0x7fffffull) << 29);
  return (double)__uint_as_float((u32)b);
}

// f64_to_f32 is cvtsd2ss (nearest, ties to even; a NaN keeps the top of
// its payload and gets its quiet bit) or, for a float16 widened exactly
// (half), npy_half_to_float's bit move of a NaN.
__device__ __forceinline__ u64 f64_to_f32(double x, bool half) {
  u64 b = dbits(x);
  if ((b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull)
    return (b >> 63) << 31 | (half ? 0x7f800000ull : 0x7fc00000ull) | (b >> 29) & 0x7fffffull;
  return __float_as_uint((float)x);
}

// f64_to_f16 is npy_double_to_half: nearest, ties to even, from the
// double directly; a NaN keeps the top bits of its payload.
__device__ __forceinline__ u64 f64_to_f16(double x) {
  u64 b = dbits(x), sign = (b >> 48) & 0x8000, a = b & 0x7fffffffffffffffull;
  if (a > 0x7ff0000000000000ull) {
    u64 h = 0x7c00 + ((b >> 42) & 0x3ff);
    return sign | (h == 0x7c00 ? h + 1 : h);
  }
  if (a >= 0x40effe0000000000ull) return sign | 0x7c00;  // 65520 and past: infinity
  int e = (int)(a >> 52);
  if (e < 998) return sign;  // below 2^-25: zero (2^-25 itself ties to zero)
  u64 m, q, rem, halfway;
  int s;
  if (e < 1009) {  // a subnormal half: a multiple of 2^-24
    m = (a & 0xfffffffffffffull) | 1ull << 52;
    s = 1051 - e;
    q = m >> s;
    rem = m & ((1ull << s) - 1);
    halfway = 1ull << (s - 1);
  } else {
    m = a & 0xfffffffffffffull;
    q = (u64)(e - 1008) << 10 | m >> 42;
    rem = m & ((1ull << 42) - 1);
    halfway = 1ull << 41;
  }
  if (rem > halfway || (rem == halfway && (q & 1))) q++;  // a carry moves into the exponent
  return sign | q;
}

// cvtt32 and cvtt64 are cvttsd2si: truncation toward zero, or the lowest
// integer when that is out of range or x is NaN.
__device__ __forceinline__ i64 cvtt32(double x) {
  if (x > -2147483649.0 && x < 2147483648.0) return (i64)(int)x;
  return -2147483648ll;
}

__device__ __forceinline__ i64 cvtt64(double x) {
  if (x >= -9223372036854775808.0 && x < 9223372036854775808.0) return (i64)x;
  return (i64)0x8000000000000000ull;
}

// float_to_int is ops' floatToInt: the bits a float gives an integer of
// kind k and size bytes on x86-64 (cut to size by the store).
__device__ __forceinline__ u64 float_to_int(double x, char k, int size) {
  if (k == 'u' && size == 8) {
    if (!(x >= 9223372036854775808.0)) return (u64)cvtt64(x);  // NaN too, as comisd
    return (u64)cvtt64(x - 9223372036854775808.0) ^ 0x8000000000000000ull;
  }
  if (size == 8 || (k == 'u' && size == 4)) return (u64)cvtt64(x);
  return (u64)cvtt32(x);
}

// load_double is a float element (kind 'f') as a double, exactly.
__device__ __forceinline__ double load_double(const unsigned char* a, int size, bool swap) {
  u64 u = load_part(a, size, swap);
  switch (size) {
    case 2: return f16_to_f64(u);
    case 4: return f32_to_f64(u);
  }
  return dbl(u);
}
