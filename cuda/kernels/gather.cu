// gather (numpy.take with an axis), gather-elements (take_along_axis) and
// advanced slicing share one kernel; take without an axis has its own. The
// host has already checked the indices; these kernels check them again and
// report the first bad one through err (see report) instead of reading out
// of bounds.
#include "common.cuh"

// gather equals, for every e < n, with j = (e / I) % M (divisors in q):
//
//	t = idx[j]; dst[e] = src[base + calc(e) + t*mul]
//
// where t must lie in [lo, hi) and the final offset in [0, span).
template <typename E, typename U>
__device__ __forceinline__ void gather(E* __restrict__ dst, const E* __restrict__ src,
                                       const i64* __restrict__ p, const i64* __restrict__ q,
                                       const i64* __restrict__ idx, u64* err, i64 n, i64 mul,
                                       i64 lo, i64 hi, i64 base, i64 span) {
  typedef typename Idx<U>::S S;
  U step = (U)gridDim.x * (U)blockDim.x;
  for (U e = (U)blockIdx.x * (U)blockDim.x + threadIdx.x; e < (U)n; e += step) {
    U t1 = Idx<U>::div(e, q);
    U j = t1 - Idx<U>::div(t1, q + CALC_SLOTS) * (U)__ldg(q + CALC_SLOTS);
    i64 t = __ldg(idx + j);
    if (t < lo || t >= hi) {
      report(err, t, (i64)j);
      continue;
    }
    S o, unused;
    calc_offsets<U>(p, e, o, unused);
    i64 off = base + (i64)o + t * mul;
    if (off < 0 || off >= span) {
      report(err, t, (i64)j);
      continue;
    }
    dst[e] = src[off];
  }
}

// take_flat equals, for every j < m: t = idx[j]; dst[j] = src[base + calc(t)]
// with t in [0, count): the flat index is a C-order position in the view.
template <typename E, typename U>
__device__ __forceinline__ void take_flat(E* __restrict__ dst, const E* __restrict__ src,
                                          const i64* __restrict__ p, const i64* __restrict__ idx,
                                          u64* err, i64 m, i64 count, i64 base, i64 span) {
  typedef typename Idx<U>::S S;
  U step = (U)gridDim.x * (U)blockDim.x;
  for (U j = (U)blockIdx.x * (U)blockDim.x + threadIdx.x; j < (U)m; j += step) {
    i64 t = __ldg(idx + j);
    if (t < 0 || t >= count) {
      report(err, t, (i64)j);
      continue;
    }
    S o, unused;
    calc_offsets<U>(p, (U)t, o, unused);
    i64 off = base + (i64)o;
    if (off < 0 || off >= span) {
      report(err, t, (i64)j);
      continue;
    }
    dst[j] = src[off];
  }
}

#define GATHER_KERNELS(SZ, I, U)                                                                  \
  extern "C" __global__ void gather_##SZ##_##I(e##SZ* dst, const e##SZ* src, const i64* p,        \
                                               const i64* q, const i64* idx, u64* err, i64 n,     \
                                               i64 mul, i64 lo, i64 hi, i64 base, i64 span) {     \
    gather<e##SZ, U>(dst, src, p, q, idx, err, n, mul, lo, hi, base, span);                       \
  }                                                                                               \
  extern "C" __global__ void take_flat_##SZ##_##I(e##SZ* dst, const e##SZ* src, const i64* p,     \
                                                  const i64* idx, u64* err, i64 m, i64 count,     \
                                                  i64 base, i64 span) {                           \
    take_flat<e##SZ, U>(dst, src, p, idx, err, m, count, base, span);                             \
  }

GATHER_KERNELS(1, i32, u32)
GATHER_KERNELS(2, i32, u32)
GATHER_KERNELS(4, i32, u32)
GATHER_KERNELS(8, i32, u32)
GATHER_KERNELS(16, i32, u32)
GATHER_KERNELS(1, i64, u64)
GATHER_KERNELS(2, i64, u64)
GATHER_KERNELS(4, i64, u64)
GATHER_KERNELS(8, i64, u64)
GATHER_KERNELS(16, i64, u64)
