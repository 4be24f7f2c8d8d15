// Shared by every strider kernel. Conventions (see cuda/program.go):
//  - every kernel argument is 8 bytes: a device pointer, long long or
//    unsigned long long, because the host packs arguments in 8-byte slots;
//  - offsets count elements; a source pointer is the start of the uploaded
//    bytes, and "base" is the element offset of the view's first element;
//  - an offset calculator ("calc") is a parameter block of long longs in
//    device memory: p[0] = number of axes, then per axis, innermost first,
//    CALC_SLOTS values: extent, 64-bit magic, 32-bit magic, shift, stride of
//    operand 0, stride of operand 1. The magic numbers divide by the extent
//    with a multiply-high, an add and a shift, as ops/divmod.go does;
//  - grid-stride loops, so any grid size covers any problem.
#pragma once

typedef long long i64;
typedef unsigned long long u64;
typedef unsigned int u32;

#define CALC_SLOTS 6

// Idx<U> is the index arithmetic of one width: U for linear indices, S for
// (possibly negative) offsets. The 32-bit instantiation is used only when
// every linear index and offset is below 2^31, so the add in div cannot
// overflow.
template <typename U> struct Idx;

template <> struct Idx<u32> {
  typedef int S;
  static __device__ __forceinline__ u32 div(u32 n, const i64* __restrict__ a) {
    return (__umulhi(n, (u32)__ldg(a + 2)) + n) >> (u32)__ldg(a + 3);
  }
};

template <> struct Idx<u64> {
  typedef i64 S;
  static __device__ __forceinline__ u64 div(u64 n, const i64* __restrict__ a) {
    return (__umul64hi(n, (u64)__ldg(a + 1)) + n) >> (u32)__ldg(a + 3);
  }
};

// calc_offsets turns linear index lin (C order over the calc's shape) into
// the offsets of operand 0 and operand 1.
template <typename U>
__device__ __forceinline__ void calc_offsets(const i64* __restrict__ p, U lin,
                                             typename Idx<U>::S& o0, typename Idx<U>::S& o1) {
  typedef typename Idx<U>::S S;
  int nd = (int)__ldg(p);
  S a = 0, b = 0;
  for (int k = 0; k < nd; k++) {
    const i64* ax = p + 1 + CALC_SLOTS * k;
    U q = Idx<U>::div(lin, ax);
    S r = (S)(lin - q * (U)__ldg(ax));
    a += r * (S)__ldg(ax + 4);
    b += r * (S)__ldg(ax + 5);
    lin = q;
  }
  o0 = a;
  o1 = b;
}

// report records the first failed device-side check: err[0] becomes 1 and
// err[1], err[2] hold the bad value and where it was found.
__device__ __forceinline__ void report(u64* err, i64 value, i64 where) {
  if (atomicCAS(err, 0ull, 1ull) == 0ull) {
    err[1] = (u64)value;
    err[2] = (u64)where;
  }
}

// Elements move as opaque words of their size; ulonglong2 is 16-byte aligned.
typedef unsigned char e1;
typedef unsigned short e2;
typedef unsigned int e4;
typedef unsigned long long e8;
typedef ulonglong2 e16;
