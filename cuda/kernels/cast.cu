// ndarray.astype (see cuda/cast.go for the planning and ops/cast.go for the
// rules): one generic kernel, instantiated per (source kind, destination
// kind) pair and index width; element sizes and byte orders are runtime
// values of the format word. As ops.Cast, each element is widened to one of
// four intermediates (int64 bits, uint64 bits, double, complex double, by
// the source kind) and narrowed to the destination.
#include "convert.cuh"

// wide is a widened element: an integer's or bool's 64 bits (sign-extended
// for kind 'i'), or a float's or complex number's parts, exactly.
struct wide {
  u64 bits;
  double re, im;
};

template <char FK>
__device__ __forceinline__ wide widen(const unsigned char* a, int size, bool swap) {
  wide w = {0, 0.0, 0.0};
  if (FK == 'b') {
    w.bits = *a != 0;
  } else if (FK == 'i') {
    int sh = 64 - 8 * size;
    w.bits = (u64)((i64)(load_part(a, size, swap) << sh) >> sh);
  } else if (FK == 'u') {
    w.bits = load_part(a, size, swap);
  } else if (FK == 'f') {
    w.re = load_double(a, size, swap);
  } else {
    w.re = load_double(a, size / 2, swap);
    w.im = load_double(a + size / 2, size / 2, swap);
  }
  return w;
}

// narrow stores w, widened from kind FK (from a float16 when half), as an
// element of kind TK and size bytes at o, byte-swapped when swap.
template <char FK, char TK>
__device__ __forceinline__ void narrow(unsigned char* o, const wide& w, bool half, int size, bool swap) {
  const bool fromInt = FK == 'b' || FK == 'i' || FK == 'u';
  const int part = TK == 'c' ? size / 2 : size;
  u64 lo = 0, hi = 0;  // the destination's parts (hi: the imaginary part)
  if (TK == 'b') {
    lo = fromInt ? w.bits != 0 : (w.re != 0.0 || w.im != 0.0);  // a NaN is nonzero
  } else if (fromInt) {
    double d = FK == 'i' ? (double)(i64)w.bits : (double)w.bits;
    if (TK == 'i' || TK == 'u') {
      lo = w.bits;
    } else if (part == 2) {
      lo = f64_to_f16(d);
    } else if (part == 4) {
      lo = __float_as_uint(FK == 'i' ? (float)(i64)w.bits : (float)w.bits);
    } else {
      lo = dbits(d);
    }
  } else if (TK == 'i' || TK == 'u') {
    lo = float_to_int(w.re, TK, size);
  } else if (part == 2) {
    lo = f64_to_f16(w.re);
  } else if (part == 4) {
    lo = f64_to_f32(w.re, half);
    hi = f64_to_f32(w.im, half);
  } else {
    lo = dbits(w.re);
    hi = dbits(w.im);
  }
  if (swap) {
    lo = swap_bytes(lo, part);
    hi = swap_bytes(hi, part);
  }
  store_word(o, part, lo);
  if (TK == 'c') store_word(o + part, part, hi);
}

// move32 casts between float32 parts (float32 and complex64) by moving
// their bits, as NumPy and ops' directCast do (a signaling NaN stays
// signaling, where a trip through double would quiet it): the real part, a
// zero imaginary part for real to complex. false for any other pair.
template <char FK, char TK>
__device__ __forceinline__ bool move32(unsigned char* o, const unsigned char* a, int fsize, int tsize, bool fswap,
                                       bool tswap) {
  if (!((FK == 'f' || FK == 'c') && (TK == 'f' || TK == 'c'))) return false;
  if ((FK == 'c' ? fsize / 2 : fsize) != 4 || (TK == 'c' ? tsize / 2 : tsize) != 4) return false;
  u64 lo = load_part(a, 4, fswap), hi = FK == 'c' ? load_part(a + 4, 4, fswap) : 0;
  if (tswap) {
    lo = swap_bytes(lo, 4);
    hi = swap_bytes(hi, 4);
  }
  store_word(o, 4, lo);
  if (TK == 'c') store_word(o + 4, 4, hi);
  return true;
}

// half32 casts a float32 part (float32, complex64's real part) to float16
// as NumPy's npy_floatbits_to_halfbits and ops' directCast do, from the
// float32 bits: a NaN keeps the top ten bits of its payload as they are
// (a signaling NaN stays signaling, where the widening to double would
// quiet it). false for any other pair.
template <char FK, char TK>
__device__ __forceinline__ bool half32(unsigned char* o, const unsigned char* a, int fsize, int tsize, bool fswap,
                                       bool tswap) {
  if (!((FK == 'f' || FK == 'c') && TK == 'f')) return false;
  if ((FK == 'c' ? fsize / 2 : fsize) != 4 || tsize != 2) return false;
  u64 b = load_part(a, 4, fswap), h;
  if ((b & 0x7fffffffull) > 0x7f800000ull) {
    h = 0x7c00 + ((b & 0x7fffffull) >> 13);
    h = (b >> 16 & 0x8000) | (h == 0x7c00 ? h + 1 : h);
  } else {
    h = f64_to_f16((double)__uint_as_float((u32)b));
  }
  store_word(o, 2, tswap ? swap_bytes(h, 2) : h);
  return true;
}

// cast equals, for every e < n: dst element e = the source element at
// base + calc(e) (calc operand 0: the source's strides), converted.
template <char FK, char TK, typename U>
__device__ __forceinline__ void cast(unsigned char* __restrict__ dst, const unsigned char* __restrict__ src,
                                     const i64* __restrict__ p, i64 base, i64 n, i64 fmt) {
  typedef typename Idx<U>::S S;
  const int fsize = fmt_size(fmt, 0), tsize = fmt_size(fmt, 16);
  const bool fswap = fmt_swap(fmt, 0), tswap = fmt_swap(fmt, 16);
  const bool half = FK == 'f' && fsize == 2;
  U step = (U)gridDim.x * (U)blockDim.x;
  for (U e = (U)blockIdx.x * (U)blockDim.x + threadIdx.x; e < (U)n; e += step) {
    S o, unused;
    calc_offsets<U>(p, e, o, unused);
    if (move32<FK, TK>(dst + (i64)e * tsize, src + (base + (i64)o) * fsize, fsize, tsize, fswap, tswap)) continue;
    if (half32<FK, TK>(dst + (i64)e * tsize, src + (base + (i64)o) * fsize, fsize, tsize, fswap, tswap)) continue;
    wide w = widen<FK>(src + (base + (i64)o) * fsize, fsize, fswap);
    narrow<FK, TK>(dst + (i64)e * tsize, w, half, tsize, tswap);
  }
}

#define CAST_KERNEL(F, T, W, U)                                                                  \
  extern "C" __global__ void cast_##F##T##_##W(unsigned char* dst, const unsigned char* src,      \
                                               const i64* p, i64 base, i64 n, i64 fmt) {           \
    cast<KIND_##F, KIND_##T, U>(dst, src, p, base, n, fmt);                                       \
  }
#define CAST_TO(F, T) CAST_KERNEL(F, T, i32, u32) CAST_KERNEL(F, T, i64, u64)
#define CAST_FROM(F) CAST_TO(F, b) CAST_TO(F, i) CAST_TO(F, u) CAST_TO(F, f) CAST_TO(F, c)

CAST_FROM(b)
CAST_FROM(i)
CAST_FROM(u)
CAST_FROM(f)
CAST_FROM(c)
