// Stable sort along an axis with indices, on the order-preserving keys of
// ops/sort_keys.go. Rows (strips along the axis) become contiguous rows of
// keys and positions (sort_keys); rows of at most BLOCK_SORT_MAX elements are
// sorted in shared memory (sort_block), longer rows by an LSD radix sort,
// 8 bits a pass (radix_hist, scan_*, radix_scatter); sort_out writes
// the values (the input's own bytes, gathered by position, so NaN payloads
// and -0.0 survive) and the int64 positions.
#include "common.cuh"

// Key parameters (cuda/sort.go keyParams): a u64 block.
enum {
  K_COMPLEX, K_BITS, K_SWAP, K_FLOAT, K_SIGN, K_NEG, K_DESC, K_ABS, K_INF, K_ZERO, K_NAN,
  K_CLASSR, K_CLASSN, K_NANNAN, K_ELEM, K_SLOTS
};

#define BLOCK_SORT_MAX 1024
#define RADIX_TILE 2048  // elements per warp in the radix passes
#define WARPS 8          // warps per block in the radix passes

__device__ __forceinline__ u64 bswap(u64 u, u64 bits) {
  u64 r = ((u64)__byte_perm((u32)u, 0, 0x0123) << 32) | __byte_perm((u32)(u >> 32), 0, 0x0123);
  return r >> (64 - bits);
}

// scalar_key is codec.load then codec.key.
__device__ __forceinline__ u64 scalar_key(u64 u, const u64* k) {
  u64 bits = k[K_BITS];
  if (k[K_SWAP]) u = bswap(u, bits);
  if (k[K_FLOAT]) {
    u64 a = u & k[K_ABS];
    if (a - 1 >= k[K_INF]) return a == 0 ? k[K_ZERO] : k[K_NAN];
  }
  return u ^ k[K_SIGN] ^ k[K_DESC] ^ ((0 - (u >> (bits - 1))) & k[K_NEG]);
}

// part_key is complexCodec.partKey of a non-NaN part u with magnitude a.
__device__ __forceinline__ u64 part_key(u64 u, u64 a, const u64* k) {
  if (a == 0) return k[K_SIGN];
  return u ^ k[K_SIGN] ^ ((0 - (u >> (k[K_BITS] - 1))) & k[K_NEG]);
}

// complex_key is complexCodec.key of stored parts re and im.
__device__ __forceinline__ void complex_key(u64 re, u64 im, const u64* k, u64& hi, u64& lo) {
  if (k[K_SWAP]) {
    re = bswap(re, k[K_BITS]);
    im = bswap(im, k[K_BITS]);
  }
  u64 a = re & k[K_ABS], b = im & k[K_ABS];
  bool rnan = a > k[K_INF], inan = b > k[K_INF];
  if (!rnan && !inan) {
    hi = part_key(re, a, k);
    lo = part_key(im, b, k);
  } else if (!rnan) {
    hi = k[K_CLASSR];
    lo = part_key(re, a, k);
  } else if (!inan) {
    hi = k[K_CLASSN];
    lo = part_key(im, b, k);
  } else {
    hi = k[K_CLASSN];
    lo = k[K_NANNAN];
  }
  hi ^= k[K_DESC];
  lo ^= k[K_DESC];
}

// sort_keys fills row r = e / n, position j = e % n of the key rows from the
// source element at base + calc(r) + j*step (calc operand 0), and pos with j.
// khi is used only by 16-byte complex keys (128 bits).
extern "C" __global__ void sort_keys(u64* klo, u64* khi, u32* pos, const unsigned char* src,
                                     const i64* p, const i64* q, const u64* kp, i64 total,
                                     i64 step, i64 base) {
  __shared__ u64 k[K_SLOTS];
  if (threadIdx.x < K_SLOTS) k[threadIdx.x] = kp[threadIdx.x];
  __syncthreads();
  i64 elem = (i64)k[K_ELEM];
  u64 stride = (u64)gridDim.x * blockDim.x;
  for (u64 e = (u64)blockIdx.x * blockDim.x + threadIdx.x; e < (u64)total; e += stride) {
    u64 r = Idx<u64>::div(e, q);
    i64 j = (i64)(e - r * (u64)__ldg(q));
    i64 so, unused;
    calc_offsets<u64>(p, r, so, unused);
    const unsigned char* a = src + (base + so + j * step) * elem;
    u64 hi = 0, lo;
    if (k[K_COMPLEX]) {
      if (elem == 8) {
        u64 w = *(const u64*)a;
        complex_key(w & 0xffffffffull, w >> 32, k, hi, lo);
        lo = hi << 32 | lo;
        hi = 0;
      } else {
        complex_key(((const u64*)a)[0], ((const u64*)a)[1], k, hi, lo);
      }
    } else {
      u64 u;
      switch (elem) {
        case 1: u = *a; break;
        case 2: u = *(const unsigned short*)a; break;
        case 4: u = *(const u32*)a; break;
        default: u = *(const u64*)a; break;
      }
      lo = scalar_key(u, k);
    }
    klo[e] = lo;
    if (khi) khi[e] = hi;
    pos[e] = (u32)j;
  }
}

// sort_block sorts each row of n <= BLOCK_SORT_MAX (key, position) pairs by
// a bitonic network over pw (the next power of two) slots in shared memory.
// Positions break ties, so the order is total and equals the stable one;
// padding slots hold a key and position above every real pair.
extern "C" __global__ void __launch_bounds__(512) sort_block(const u64* klo, const u64* khi,
                                                              u32* pos, i64 rows, i64 n, i64 pw) {
  __shared__ u64 shi[BLOCK_SORT_MAX], slo[BLOCK_SORT_MAX];
  __shared__ u32 sidx[BLOCK_SORT_MAX];
  for (i64 row = blockIdx.x; row < rows; row += gridDim.x) {
    i64 at = row * n;
    for (int t = threadIdx.x; t < pw; t += blockDim.x) {
      if (t < n) {
        slo[t] = klo[at + t];
        shi[t] = khi ? khi[at + t] : 0;
        sidx[t] = pos[at + t];
      } else {
        slo[t] = ~0ull;
        shi[t] = ~0ull;
        sidx[t] = ~0u;
      }
    }
    __syncthreads();
    for (int size = 2; size <= pw; size <<= 1) {
      for (int half = size >> 1; half > 0; half >>= 1) {
        for (int t = threadIdx.x; t < pw; t += blockDim.x) {
          int o = t ^ half;
          if (o > t) {
            bool greater = shi[t] != shi[o] ? shi[t] > shi[o]
                           : slo[t] != slo[o] ? slo[t] > slo[o]
                                              : sidx[t] > sidx[o];
            if (greater == ((t & size) == 0)) {
              u64 h = shi[t], l = slo[t];
              u32 x = sidx[t];
              shi[t] = shi[o];
              slo[t] = slo[o];
              sidx[t] = sidx[o];
              shi[o] = h;
              slo[o] = l;
              sidx[o] = x;
            }
          }
        }
        __syncthreads();
      }
    }
    for (int t = threadIdx.x; t < n; t += blockDim.x) pos[at + t] = sidx[t];
    __syncthreads();
  }
}

__device__ __forceinline__ u32 digit(const u64* klo, const u64* khi, i64 e, i64 shift) {
  u64 w = shift < 64 ? klo[e] >> shift : khi[e] >> (shift - 64);
  return (u32)(w & 255);
}

// radix_hist counts the digits at shift in each tile of RADIX_TILE elements
// of each row, one warp per tile: hist[(row*256 + d)*tiles + t].
extern "C" __global__ void __launch_bounds__(WARPS * 32) radix_hist(const u64* klo, const u64* khi,
                                                                     u32* hist, i64 rows, i64 n,
                                                                     i64 tiles, i64 shift) {
  __shared__ u32 cnt[WARPS][256];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  i64 warps = (i64)gridDim.x * WARPS;
  for (i64 w = (i64)blockIdx.x * WARPS + warp; w < rows * tiles; w += warps) {
    i64 row = w / tiles, t = w - row * tiles;
    for (int d = lane; d < 256; d += 32) cnt[warp][d] = 0;
    __syncwarp();
    i64 end = min(n, (t + 1) * RADIX_TILE);
    for (i64 i = t * RADIX_TILE + lane; i < end; i += 32)
      atomicAdd(&cnt[warp][digit(klo, khi, row * n + i, shift)], 1u);
    __syncwarp();
    for (int d = lane; d < 256; d += 32) hist[(row * 256 + d) * tiles + t] = cnt[warp][d];
    __syncwarp();
  }
}

// The digit counts of all rows, hist[(row*256 + d)*tiles + t], are scanned
// as one array: since every row's counts sum to n, the global exclusive sum
// minus row*n (mod 2^32, exact because each row's sums stay below 2^32) is
// where a tile's elements of a digit start within its row. Three kernels:
// per-chunk sums (scan_reduce), their exclusive scan (scan_partials, one
// block), and each chunk's scan with its chunk's start (scan_apply).
#define SCAN_THREADS 1024
#define SCAN_CHUNK (4 * SCAN_THREADS)

// block_scan returns the inclusive prefix sum of v over the block's threads
// (in thread order) and sets total; all SCAN_THREADS threads must call it.
__device__ __forceinline__ u32 block_scan(u32 v, u32* warpSums, u32& total) {
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  u32 x = v;
  for (int d = 1; d < 32; d <<= 1) {
    u32 y = __shfl_up_sync(0xffffffffu, x, d);
    if (lane >= d) x += y;
  }
  if (lane == 31) warpSums[warp] = x;
  __syncthreads();
  if (warp == 0) {
    u32 s = warpSums[lane];
    for (int d = 1; d < 32; d <<= 1) {
      u32 y = __shfl_up_sync(0xffffffffu, s, d);
      if (lane >= d) s += y;
    }
    warpSums[lane] = s;  // inclusive sums of the warps
  }
  __syncthreads();
  u32 before = warp > 0 ? warpSums[warp - 1] : 0;
  total = warpSums[31];
  __syncthreads();  // warpSums is reused by the next call
  return before + x;
}

extern "C" __global__ void __launch_bounds__(SCAN_THREADS) scan_reduce(const u32* h, u32* partials,
                                                                        i64 len) {
  __shared__ u32 warpSums[32];
  for (i64 b = blockIdx.x; b * SCAN_CHUNK < len; b += gridDim.x) {
    u32 s = 0;
    for (int k = 0; k < 4; k++) {
      i64 i = b * SCAN_CHUNK + k * SCAN_THREADS + threadIdx.x;
      if (i < len) s += h[i];
    }
    u32 total;
    block_scan(s, warpSums, total);
    if (threadIdx.x == 0) partials[b] = total;
  }
}

extern "C" __global__ void __launch_bounds__(SCAN_THREADS) scan_partials(u32* partials, i64 count) {
  __shared__ u32 warpSums[32];
  u32 carry = 0;
  for (i64 at = 0; at < count; at += SCAN_THREADS) {
    i64 i = at + threadIdx.x;
    u32 v = i < count ? partials[i] : 0, total;
    u32 incl = block_scan(v, warpSums, total);
    if (i < count) partials[i] = carry + incl - v;
    carry += total;
  }
}

extern "C" __global__ void __launch_bounds__(SCAN_THREADS) scan_apply(u32* h, const u32* partials,
                                                                       i64 len, i64 rowLen, i64 n) {
  __shared__ u32 warpSums[32];
  for (i64 b = blockIdx.x; b * SCAN_CHUNK < len; b += gridDim.x) {
    u32 carry = partials[b];
    for (int k = 0; k < 4; k++) {
      i64 i = b * SCAN_CHUNK + k * SCAN_THREADS + threadIdx.x;
      u32 v = i < len ? h[i] : 0, total;
      u32 incl = block_scan(v, warpSums, total);
      if (i < len) h[i] = carry + incl - v - (u32)((u64)(i / rowLen) * (u64)n);
      carry += total;
    }
  }
}

// radix_scatter moves each tile's elements to their places for the digit
// at shift, keeping input order among equal digits: a warp walks its tile
// 32 elements at a time in order, and a lane's rank among the lanes with the
// same digit comes from ballots over the digit's 8 bits.
extern "C" __global__ void __launch_bounds__(WARPS * 32) radix_scatter(
    const u64* klo, const u64* khi, const u32* pos, u64* olo, u64* ohi, u32* opos,
    const u32* hist, i64 rows, i64 n, i64 tiles, i64 shift) {
  __shared__ u32 off[WARPS][256];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  u32 below = (1u << lane) - 1;
  i64 warps = (i64)gridDim.x * WARPS;
  for (i64 w = (i64)blockIdx.x * WARPS + warp; w < rows * tiles; w += warps) {
    i64 row = w / tiles, t = w - row * tiles, at = row * n;
    for (int d = lane; d < 256; d += 32) off[warp][d] = hist[(row * 256 + d) * tiles + t];
    __syncwarp();
    i64 end = min(n, (t + 1) * RADIX_TILE);
    for (i64 c = t * RADIX_TILE; c < end; c += 32) {
      i64 i = c + lane;
      bool valid = i < end;
      u32 d = valid ? digit(klo, khi, at + i, shift) : 0;
      u32 peers = __ballot_sync(0xffffffffu, valid);
      for (int b = 0; b < 8; b++) {
        u32 set = __ballot_sync(0xffffffffu, (d >> b) & 1);
        peers &= ((d >> b) & 1) ? set : ~set;
      }
      if (valid) {
        i64 to = at + off[warp][d] + __popc(peers & below);
        olo[to] = klo[at + i];
        if (khi) ohi[to] = khi[at + i];
        opos[to] = pos[at + i];
      }
      __syncwarp();
      if (valid && (peers & below) == 0) off[warp][d] += __popc(peers);
      __syncwarp();
    }
  }
}

// sort_out writes, for row r = e / n and rank j = e % n, the element at
// position pos[e] of the row to vals and the position to idx (either may be
// null), both at dst(r) + j*dstep in C order (calc operand 1).
template <typename E>
__device__ __forceinline__ void sort_out(E* vals, i64* idx, const E* src, const u32* pos,
                                         const i64* p, const i64* q, i64 total, i64 sstep,
                                         i64 dstep, i64 base) {
  u64 stride = (u64)gridDim.x * blockDim.x;
  for (u64 e = (u64)blockIdx.x * blockDim.x + threadIdx.x; e < (u64)total; e += stride) {
    u64 r = Idx<u64>::div(e, q);
    i64 j = (i64)(e - r * (u64)__ldg(q));
    i64 so, dso;
    calc_offsets<u64>(p, r, so, dso);
    i64 from = (i64)pos[e];
    i64 to = dso + j * dstep;
    if (vals) vals[to] = src[base + so + from * sstep];
    if (idx) idx[to] = from;
  }
}

#define SORT_OUT(SZ)                                                                             \
  extern "C" __global__ void sort_out_##SZ(e##SZ* vals, i64* idx, const e##SZ* src,              \
                                           const u32* pos, const i64* p, const i64* q, i64 total, \
                                           i64 sstep, i64 dstep, i64 base) {                      \
    sort_out<e##SZ>(vals, idx, src, pos, p, q, total, sstep, dstep, base);                       \
  }
SORT_OUT(1)
SORT_OUT(2)
SORT_OUT(4)
SORT_OUT(8)
SORT_OUT(16)
