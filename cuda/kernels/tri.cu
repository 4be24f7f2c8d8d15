// tril/triu indices by the closed form of ops/tri.go (Tri.At), one thread per
// pair. p holds ops.TriLayout: upper, cols, top, small, height, before,
// trap, n.
#include "common.cuh"

// rows_before is ops.rowsBefore: the pairs in the first j rows of a
// trapezoid whose rows hold head, head+1, ... pairs.
__device__ __forceinline__ i64 rows_before(i64 head, i64 j) {
  if (j % 2 == 0) return j * head + j / 2 * (j - 1);
  return j * head + (j - 1) / 2 * j;
}

// trap_row is ops.trapRow: the float root, rounded as Go rounds it (no
// fused multiply-add), then made exact by the integer loops.
__device__ __forceinline__ i64 trap_row(i64 head, i64 height, i64 i) {
  double b = __dsub_rn(__dmul_rn(2.0, (double)head), 1.0);
  double fi = (double)i;
  double x = __ddiv_rn(__dmul_rn(4.0, fi),
                       __dadd_rn(b, __dsqrt_rn(__dadd_rn(__dmul_rn(b, b), __dmul_rn(8.0, fi)))));
  i64 j = height - 1;
  if (x < (double)j) {
    j = (i64)x;
    if (j < 0) j = 0;
  }
  while (j > 0 && rows_before(head, j) > i) j--;
  while (j + 1 < height && rows_before(head, j + 1) <= i) j++;
  return j;
}

template <typename T>
__device__ __forceinline__ void tri(T* __restrict__ out, const i64* __restrict__ p) {
  i64 upper = __ldg(p), cols = __ldg(p + 1), top = __ldg(p + 2), small = __ldg(p + 3);
  i64 height = __ldg(p + 4), before = __ldg(p + 5), trap = __ldg(p + 6), n = __ldg(p + 7);
  i64 step = (i64)gridDim.x * blockDim.x;
  for (i64 i0 = (i64)blockIdx.x * blockDim.x + threadIdx.x; i0 < n; i0 += step) {
    i64 r, c, i = i0;
    if (i < before) {
      r = i / cols;
      c = i % cols;
    } else if ((i -= before) >= trap) {
      i -= trap;
      r = top + height + i / cols;
      c = i % cols;
    } else if (!upper) {
      i64 j = trap_row(small, height, i);
      r = top + j;
      c = i - rows_before(small, j);
    } else {
      i64 e = trap - 1 - i;
      i64 j = trap_row(small, height, e);
      r = top + height - 1 - j;
      c = cols - 1 - (e - rows_before(small, j));
    }
    out[i0] = (T)r;
    out[n + i0] = (T)c;
  }
}

extern "C" __global__ void tri_i32(int* out, const i64* p) { tri<int>(out, p); }
extern "C" __global__ void tri_i64(i64* out, const i64* p) { tri<i64>(out, p); }
