// The strided copy and the batch-2-D transpose (see cuda/copy.go for the
// planning): Copy, diagonal and basic slicing all come here.
#include "common.cuh"

// copy_strided equals, for every e < n: dst[e] = src[base + calc(e)].
// One thread per output element; writes are coalesced, reads are as
// coalesced as the source's innermost stride allows.
template <typename E, typename U>
__device__ __forceinline__ void copy_strided(E* __restrict__ dst, const E* __restrict__ src,
                                             const i64* __restrict__ p, i64 base, i64 n) {
  typedef typename Idx<U>::S S;
  const E* s = src + base;
  U step = (U)gridDim.x * (U)blockDim.x;
  for (U e = (U)blockIdx.x * (U)blockDim.x + threadIdx.x; e < (U)n; e += step) {
    S o, unused;
    calc_offsets<U>(p, e, o, unused);
    dst[e] = s[o];
  }
}

#define TILE 32

// transpose copies, for each batch b (calc p: source and destination offsets
// of the batch axes), the R x C block with element (i, j) at source
// i + j*sc and destination i*dr + j, through a padded shared-memory tile:
// reads run along i (contiguous in the source), writes along j (contiguous
// in the destination). Blocks are 32 x 8 threads; each does 4 rows a tile.
template <typename E, typename U>
__device__ __forceinline__ void transpose(E* __restrict__ dst, const E* __restrict__ src,
                                          const i64* __restrict__ p, i64 base, i64 R, i64 C,
                                          i64 sc, i64 dr, i64 tilesC, i64 tilesPer, i64 blocks) {
  typedef typename Idx<U>::S S;
  __shared__ E tile[TILE][TILE + 1];
  const E* s = src + base;
  for (i64 b = blockIdx.x; b < blocks; b += gridDim.x) {
    i64 batch = b / tilesPer, t = b - batch * tilesPer;
    i64 tr = t / tilesC, tc = t - tr * tilesC;
    S so, dso;
    calc_offsets<U>(p, (U)batch, so, dso);
    S i0 = (S)(tr * TILE), j0 = (S)(tc * TILE);
    for (int k = threadIdx.y; k < TILE; k += blockDim.y) {
      S i = i0 + (S)threadIdx.x, j = j0 + (S)k;
      if (i < R && j < C) tile[k][threadIdx.x] = s[so + i + j * (S)sc];
    }
    __syncthreads();
    for (int k = threadIdx.y; k < TILE; k += blockDim.y) {
      S i = i0 + (S)k, j = j0 + (S)threadIdx.x;
      if (i < R && j < C) dst[dso + i * (S)dr + j] = tile[threadIdx.x][k];
    }
    __syncthreads();
  }
}

#define COPY_KERNELS(SZ)                                                                        \
  extern "C" __global__ void copy_strided_##SZ##_i32(e##SZ* dst, const e##SZ* src, const i64* p, \
                                                     i64 base, i64 n) {                          \
    copy_strided<e##SZ, u32>(dst, src, p, base, n);                                              \
  }                                                                                              \
  extern "C" __global__ void copy_strided_##SZ##_i64(e##SZ* dst, const e##SZ* src, const i64* p, \
                                                     i64 base, i64 n) {                          \
    copy_strided<e##SZ, u64>(dst, src, p, base, n);                                              \
  }                                                                                              \
  extern "C" __global__ void transpose_##SZ##_i32(e##SZ* dst, const e##SZ* src, const i64* p,    \
                                                  i64 base, i64 R, i64 C, i64 sc, i64 dr,        \
                                                  i64 tilesC, i64 tilesPer, i64 blocks) {        \
    transpose<e##SZ, u32>(dst, src, p, base, R, C, sc, dr, tilesC, tilesPer, blocks);            \
  }                                                                                              \
  extern "C" __global__ void transpose_##SZ##_i64(e##SZ* dst, const e##SZ* src, const i64* p,    \
                                                  i64 base, i64 R, i64 C, i64 sc, i64 dr,        \
                                                  i64 tilesC, i64 tilesPer, i64 blocks) {        \
    transpose<e##SZ, u64>(dst, src, p, base, R, C, sc, dr, tilesC, tilesPer, blocks);            \
  }

COPY_KERNELS(1)
COPY_KERNELS(2)
COPY_KERNELS(4)
COPY_KERNELS(8)
COPY_KERNELS(16)
