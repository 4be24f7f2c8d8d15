// The reductions whose result does not depend on the order of the
// elements (see cuda/reduce.go for the planning and the ops this serves):
// min, max (and ptp, which the host makes from both), argmin, argmax, any,
// all and count_nonzero over any set of axes. One generic kernel pair per
// dtype kind and index width; the element size, byte order and operation
// are runtime values of the config word, the same for every thread.
//
// Each output gathers the elements of its reduced axes. A work item is one
// output (kept axes: calc "kept", operand 0 the input offset, operand 1
// the output's C-order position) and one chunk of its reduced elements
// (calc "red", operand 0 the input offset, operand 1 the element's C-order
// index among the reduced axes, which argmin and argmax return). The
// threads of a block row fold a work item's elements into states, and a
// tree in shared memory folds the row's states; with one chunk an output
// is written at once, else the chunks' states go to "part" and
// reduce_out folds them. Folding is commutative and associative, so the
// result is the same for any grid, block or chunking.
//
// Float minima and maxima: NumPy's result is one of the elements (or its
// SIMD loops' canonical NaN), chosen by its order where several compare
// equal: +0.0 and -0.0, or NaNs. The state keeps whether the candidates'
// bits differ (MIXED); such an output is "open": it is counted in *open
// and the host redoes the call on the CPU in NumPy's order.
#include "convert.cuh"

#define RED_THREADS 256

// A state: tag (EMPTY, VALUE or NAN, | MIXED), the value's native bits
// (lo; a complex number's real part in lo, imaginary in hi) and, for
// argmin and argmax, its index. any, all and count_nonzero count the
// zeros in lo and the nonzero elements in idx.
struct rstate {
  u64 tag, lo, hi;
  i64 idx;
};

#define TAG_EMPTY 0ull
#define TAG_VALUE 1ull
#define TAG_NAN 2ull
#define TAG_KIND 0xffull
#define TAG_MIXED 0x100ull

// The operations (cuda/reduce.go's red* constants).
#define OP_MAX 0
#define OP_MIN 1
#define OP_ARGMAX 2
#define OP_ARGMIN 3
#define OP_ANY 4
#define OP_ALL 5
#define OP_COUNT 6

// The config word: a format word (convert.cuh: element size, byte swap)
// in bits 0-15, the operation in bits 32-39, and in bit 40 whether work
// items run through the outputs first (columns: neighbouring threads take
// neighbouring outputs) rather than through an output's chunks.
__device__ __forceinline__ int cfg_op(i64 c) { return (int)((c >> 32) & 255); }
__device__ __forceinline__ bool cfg_cols(i64 c) { return ((c >> 40) & 1) != 0; }

// part_double is a float part's native bits as a double, exactly.
__device__ __forceinline__ double part_double(u64 u, int psize) {
  switch (psize) {
    case 2: return f16_to_f64(u);
    case 4: return f32_to_f64(u);
  }
  return dbl(u);
}

// load_state is the element at a (C-order index idx among the reduced
// axes) as a state of one element.
template <char K>
__device__ __forceinline__ rstate load_state(const unsigned char* a, int size, bool swap, int op, i64 idx) {
  rstate s;
  s.tag = TAG_VALUE;
  s.lo = 0;
  s.hi = 0;
  s.idx = idx;
  if (op >= OP_ANY) {  // truth as a cast to bool: a NaN is true, -0.0 false
    bool nz;
    if (K == 'b') nz = *a != 0;
    else if (K == 'i' || K == 'u') nz = load_word(a, size) != 0;  // either byte order
    else if (K == 'f') nz = load_double(a, size, swap) != 0.0;
    else nz = load_double(a, size / 2, swap) != 0.0 || load_double(a + size / 2, size / 2, swap) != 0.0;
    s.lo = nz ? 0 : 1;
    s.idx = nz ? 1 : 0;
    return s;
  }
  if (K == 'b') {
    s.lo = *a != 0;
  } else if (K == 'i') {
    int sh = 64 - 8 * size;
    s.lo = (u64)((i64)(load_part(a, size, swap) << sh) >> sh);
  } else if (K == 'u') {
    s.lo = load_part(a, size, swap);
  } else if (K == 'f') {
    s.lo = load_part(a, size, swap);
    double x = part_double(s.lo, size);
    if (x != x) s.tag = TAG_NAN;
  } else {
    int h = size / 2;
    s.lo = load_part(a, h, swap);
    s.hi = load_part(a + h, h, swap);
    double re = part_double(s.lo, h), im = part_double(s.hi, h);
    if (re != re || im != im) s.tag = TAG_NAN;
  }
  return s;
}

// compare orders two NaN-free values: -1, 0 or 1 as x is less than, equal
// to or greater than y (complex numbers by real part, then imaginary;
// +0.0 equals -0.0).
template <char K>
__device__ __forceinline__ int compare(const rstate& x, const rstate& y, int psize) {
  if (K == 'b' || K == 'i') {
    i64 a = (i64)x.lo, b = (i64)y.lo;
    return (a > b) - (a < b);
  }
  if (K == 'u') return (x.lo > y.lo) - (x.lo < y.lo);
  double a = part_double(x.lo, psize), b = part_double(y.lo, psize);
  if (a != b) return a < b ? -1 : 1;
  if (K == 'c') {
    a = part_double(x.hi, psize);
    b = part_double(y.hi, psize);
    if (a != b) return a < b ? -1 : 1;
  }
  return 0;
}

// fold folds state b into a.
//  - min, max: the extreme value; a NaN wins. Candidates that compare
//    equal (both NaN, or equal values) mark the state MIXED when their
//    bits differ.
//  - argmin, argmax: the first NaN, else the extreme with the lowest index.
//  - any, all, count_nonzero: the counts add.
template <char K>
__device__ __forceinline__ void fold(rstate& a, const rstate& b, int op, int psize) {
  if (b.tag == TAG_EMPTY) return;
  if (a.tag == TAG_EMPTY) {
    a = b;
    return;
  }
  if (op >= OP_ANY) {
    a.lo += b.lo;
    a.idx += b.idx;
    return;
  }
  const bool an = (a.tag & TAG_KIND) == TAG_NAN, bn = (b.tag & TAG_KIND) == TAG_NAN;
  if (op >= OP_ARGMAX) {
    bool take;
    if (an || bn) {
      take = bn && (!an || b.idx < a.idx);
    } else {
      int c = compare<K>(b, a, psize);
      take = (op == OP_ARGMAX ? c > 0 : c < 0) || (c == 0 && b.idx < a.idx);
    }
    if (take) a = b;
    return;
  }
  if (an != bn) {
    if (bn) a = b;
    return;
  }
  if (!an) {
    int c = compare<K>(b, a, psize);
    if (op == OP_MAX ? c > 0 : c < 0) {
      a = b;
      return;
    }
    if (c != 0) return;
  }
  a.tag |= (b.tag & TAG_MIXED) | ((a.lo != b.lo || a.hi != b.hi) ? TAG_MIXED : 0ull);
}

// put writes output pos from its final state. A float minimum or maximum
// whose candidates' bits differ, or (float32, float64) whose NaN is not
// the canonical quiet NaN that NumPy's SIMD loops return, is open.
template <char K>
__device__ __forceinline__ void put(unsigned char* dst, u64* open, i64 pos, const rstate& s, int op, int size) {
  switch (op) {
    case OP_ARGMAX:
    case OP_ARGMIN:
    case OP_COUNT:
      ((i64*)dst)[pos] = s.idx;
      return;
    case OP_ANY:
      dst[pos] = s.idx != 0;
      return;
    case OP_ALL:
      dst[pos] = s.lo == 0;
      return;
  }
  bool settled = (s.tag & TAG_MIXED) == 0;
  if (K == 'f' && (s.tag & TAG_KIND) == TAG_NAN && size >= 4)
    settled = settled && s.lo == (size == 4 ? 0x7fc00000ull : 0x7ff8000000000000ull);
  if (!settled) atomicAdd(open, 1ull);
  if (K == 'c') {
    store_word(dst + pos * size, size / 2, s.lo);
    store_word(dst + pos * size + size / 2, size / 2, s.hi);
  } else {
    store_word(dst + pos * size, size, s.lo);
  }
}

// reduce_part: for every work item w < items = outs * chunks (output o =
// w / chunks and chunk c = w % chunks, or with cols o = w % outs and c =
// w / outs; q: the divisor slots of chunks, or of outs with cols), block
// row threadIdx.y folds reduced elements [c*chunk, min((c+1)*chunk,
// total)) of output o, thread x taking every blockDim.x-th; the row's tree
// (blockDim.x a power of two) folds the threads' states; thread 0 stores
// the state in part[o*chunks + c], or, when part is null (one chunk),
// writes the output.
template <char K, typename U>
__device__ __forceinline__ void reduce_part(unsigned char* __restrict__ dst, u64* __restrict__ open,
                                            rstate* __restrict__ part, const unsigned char* __restrict__ src,
                                            const i64* __restrict__ kept, const i64* __restrict__ red,
                                            const i64* __restrict__ q, i64 base, i64 items, i64 chunk, i64 total,
                                            i64 cfg) {
  typedef typename Idx<U>::S S;
  __shared__ rstate sh[RED_THREADS];
  const int size = fmt_size(cfg, 0);
  const bool swap = fmt_swap(cfg, 0);
  const int op = cfg_op(cfg);
  const int psize = K == 'c' ? size / 2 : size;
  const bool cols = cfg_cols(cfg);
  const U fast = (U)__ldg(q);
  const U chunks = cols ? (U)items / fast : fast;
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const U rows = (U)gridDim.x * (U)blockDim.y;
  // Every thread of a block runs the same iterations: the barriers below
  // are reached by all.
  for (U w0 = (U)blockIdx.x * (U)blockDim.y; w0 < (U)items; w0 += rows) {
    const U w = w0 + threadIdx.y;
    rstate s;
    s.tag = TAG_EMPTY;
    s.lo = 0;
    s.hi = 0;
    s.idx = 0;
    S ko = 0, pos = 0;
    U o = 0, c = 0;
    if (w < (U)items) {
      const U slow = Idx<U>::div(w, q);
      o = cols ? w - slow * fast : slow;
      c = cols ? slow : w - slow * fast;
      calc_offsets<U>(kept, o, ko, pos);
      const U lo = c * (U)chunk;
      const U hi = (U)total - lo < (U)chunk ? (U)total : lo + (U)chunk;
      for (U r = lo + threadIdx.x; r < hi; r += blockDim.x) {
        S ro, ri;
        calc_offsets<U>(red, r, ro, ri);
        fold<K>(s, load_state<K>(src + (base + (i64)ko + (i64)ro) * size, size, swap, op, (i64)ri), op, psize);
      }
    }
    sh[t] = s;
    __syncthreads();
    for (int half = blockDim.x >> 1; half > 0; half >>= 1) {
      if ((int)threadIdx.x < half) {
        rstate a = sh[t];
        fold<K>(a, sh[t + half], op, psize);
        sh[t] = a;
      }
      __syncthreads();
    }
    if (threadIdx.x == 0 && w < (U)items) {
      if (part) part[(i64)o * (i64)chunks + (i64)c] = sh[t];
      else put<K>(dst, open, (i64)pos, sh[t], op, size);
    }
    __syncthreads();
  }
}

// reduce_out: for every output o < outs, the states of its chunks folded
// in order (part[o*chunks .. o*chunks+chunks-1]) and written at its
// position (kept operand 1).
template <char K, typename U>
__device__ __forceinline__ void reduce_out(unsigned char* __restrict__ dst, u64* __restrict__ open,
                                           const rstate* __restrict__ part, const i64* __restrict__ kept, i64 outs,
                                           i64 chunks, i64 cfg) {
  typedef typename Idx<U>::S S;
  const int size = fmt_size(cfg, 0);
  const int op = cfg_op(cfg);
  const int psize = K == 'c' ? size / 2 : size;
  U step = (U)gridDim.x * (U)blockDim.x;
  for (U o = (U)blockIdx.x * (U)blockDim.x + threadIdx.x; o < (U)outs; o += step) {
    rstate s = part[(i64)o * chunks];
    for (i64 c = 1; c < chunks; c++) fold<K>(s, part[(i64)o * chunks + c], op, psize);
    S unused, pos;
    calc_offsets<U>(kept, o, unused, pos);
    put<K>(dst, open, (i64)pos, s, op, size);
  }
}

#define REDUCE_KERNEL(K, W, U)                                                                                 \
  extern "C" __global__ void __launch_bounds__(RED_THREADS)                                                    \
      reduce_part_##K##_##W(unsigned char* dst, u64* open, rstate* part, const unsigned char* src,             \
                            const i64* kept, const i64* red, const i64* q, i64 base, i64 items, i64 chunk,     \
                            i64 total, i64 cfg) {                                                              \
    reduce_part<KIND_##K, U>(dst, open, part, src, kept, red, q, base, items, chunk, total, cfg);               \
  }                                                                                                            \
  extern "C" __global__ void reduce_out_##K##_##W(unsigned char* dst, u64* open, const rstate* part,           \
                                                  const i64* kept, i64 outs, i64 chunks, i64 cfg) {            \
    reduce_out<KIND_##K, U>(dst, open, part, kept, outs, chunks, cfg);                                         \
  }
#define REDUCE_KERNELS(K) REDUCE_KERNEL(K, i32, u32) REDUCE_KERNEL(K, i64, u64)

REDUCE_KERNELS(b)
REDUCE_KERNELS(i)
REDUCE_KERNELS(u)
REDUCE_KERNELS(f)
REDUCE_KERNELS(c)
