// torch.unique_consecutive's run starts (see cuda/unique.go): row i (a
// slice along the compared axis, or one element when the input is
// flattened) starts a run when any of its elements differs from the one
// at the same place in row i-1, compared as ops.UniqueConsecutive compares
// them: integers by their bits, bools by truth, floats and complex numbers
// by == (a NaN equals nothing; -0.0 equals 0.0), float16 widened exactly.
#include "convert.cuh"

// same reports whether elements a and b of kind K (size bytes, byte-swapped
// when swap) are equal as numbers.
template <char K>
__device__ __forceinline__ bool same(const unsigned char* a, const unsigned char* b, int size, bool swap) {
  if (K == 'i') return load_word(a, size) == load_word(b, size);  // either byte order
  if (K == 'b') return (*a != 0) == (*b != 0);
  if (K == 'f') return load_double(a, size, swap) == load_double(b, size, swap);
  int h = size / 2;
  return load_double(a, h, swap) == load_double(b, h, swap) &&
         load_double(a + h, h, swap) == load_double(b + h, h, swap);
}

// unique_flags sets flags[row] = 1 for every row > 0 that differs from the
// row before: for every e < n (n = elements - inner, inner = elements a
// row), element e + inner against element e, both at base + calc (calc
// operand 0, C order over the rows' shape); the row is 1 + e / inner (q:
// the divisor slots of inner). Threads of one row store the same 1.
template <char K, typename U>
__device__ __forceinline__ void unique_flags(unsigned char* __restrict__ flags, const unsigned char* __restrict__ src,
                                             const i64* __restrict__ p, const i64* __restrict__ q, i64 base,
                                             i64 n, i64 inner, i64 fmt) {
  typedef typename Idx<U>::S S;
  const int size = fmt_size(fmt, 0);
  const bool swap = fmt_swap(fmt, 0);
  U step = (U)gridDim.x * (U)blockDim.x;
  for (U e = (U)blockIdx.x * (U)blockDim.x + threadIdx.x; e < (U)n; e += step) {
    S o0, o1, unused;
    calc_offsets<U>(p, e, o0, unused);
    calc_offsets<U>(p, e + (U)inner, o1, unused);
    if (!same<K>(src + (base + (i64)o1) * size, src + (base + (i64)o0) * size, size, swap))
      flags[1 + (i64)Idx<U>::div(e, q)] = 1;
  }
}

#define UNIQUE_KERNEL(K, W, U)                                                                      \
  extern "C" __global__ void unique_flags_##K##_##W(unsigned char* flags, const unsigned char* src,  \
                                                    const i64* p, const i64* q, i64 base, i64 n,     \
                                                    i64 inner, i64 fmt) {                           \
    unique_flags<KIND_##K, U>(flags, src, p, q, base, n, inner, fmt);                                  \
  }
#define UNIQUE_KERNELS(K) UNIQUE_KERNEL(K, i32, u32) UNIQUE_KERNEL(K, i64, u64)

UNIQUE_KERNELS(b)
UNIQUE_KERNELS(i)
UNIQUE_KERNELS(f)
UNIQUE_KERNELS(c)
