// The attainable rate of the solver's arithmetic on one backend: a register-only min-plus loop.
//
// Floyd-Warshall's hot loop (RemainingTiles) is acc = min(acc, a + b) on int32 over a register
// block of RegRows x RegCols distances per thread. This probe runs that same update with nothing
// else in the loop: no loads, no stores, no barriers. What the solver reaches divided by what
// this reaches is its architectural efficiency on that device (an attainable ceiling for this
// workload, not the vendor's peak).
//
// Keeping the compiler honest:
//   - every value comes from a View filled at run time (`seeds`), so nothing is constant;
//   - step t relaxes row a of the block through row 0 of the block as it was after step t - 1,
//     acc(a, b) = min(acc(a, b), l(a) + acc(0, b)): one in-tile Floyd-Warshall step with pivot
//     row 0. Every update depends on the previous step, so no step can be hoisted or folded
//     (min(x, c + x) is x only for c >= 0, which the compiler cannot know), and the
//     RegRows x RegCols updates of one step are independent of each other (the ILP);
//   - the block is summed into `sink`, so none of it is dead.
// Row 0 is updated last in a step, so that the other rows read its old value without a copy.
//
// Lanes: on GPUs a thread's registers are ints (Lane = int). On CPUs the block must live in
// SIMD registers; GCC keeps a plain `int acc[4][64]` on the stack (a load and a store per
// update), so host builds also get a Lane that is the host compiler's native vector of ints.
// Both are measured: the plain one is what portable scalar code gets, the vector one what the
// core can do.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

#if (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__) && !defined(__HIPCC__)
#define APSP_BENCH_HOST_VECTORS 1
#endif

namespace apsp {
namespace bench {

#if defined(APSP_BENCH_HOST_VECTORS)
#if defined(__AVX512F__)
constexpr int host_vector_bytes = 64;
#elif defined(__AVX__)
constexpr int host_vector_bytes = 32;
#else
constexpr int host_vector_bytes = 16;
#endif
// The host's widest vector of int32 (GCC/Clang vector extension): +, < and ?: act per lane.
typedef int HostVector __attribute__((vector_size(host_vector_bytes)));
#endif

template <class Lane>
constexpr int lane_width() {
  return int(sizeof(Lane) / sizeof(int));
}

template <class Lane>
KOKKOS_FORCEINLINE_FUNCTION Lane relax(const Lane& current, const Lane& a, const Lane& b) {
  const Lane through = a + b;
  return through < current ? through : current;
}

template <class Lane>
KOKKOS_FORCEINLINE_FUNCTION void set_lane(Lane& v, int f, int x) {
  if constexpr (std::is_same<Lane, int>::value) {
    (void)f;
    v = x;
  } else {
    v[f] = x;
  }
}

template <class Lane>
KOKKOS_FORCEINLINE_FUNCTION int lane_sum(const Lane& v) {
  if constexpr (std::is_same<Lane, int>::value) {
    return v;
  } else {
    int sum = 0;
    for (int f = 0; f < lane_width<Lane>(); ++f) sum += v[f];
    return sum;
  }
}

// One work item: a RegRows x (Packs * lane width) block of int32 distances, relaxed
// 4 * iterations times. RangePolicy: one item per GPU thread; on CPUs a thread takes items in
// turn.
template <class ExecSpace, class Lane, int RegRows, int Packs>
struct MinPlusRegisters {
  static constexpr int rows = RegRows;
  static constexpr int cols = Packs * lane_width<Lane>();
  static constexpr int unroll = 4;  // steps per loop iteration: loop overhead off the ALUs
  using memory_space = typename ExecSpace::memory_space;

  Kokkos::View<const int*, memory_space> seeds;  // extent: a power of two
  Kokkos::View<int*, memory_space> sink;         // one per work item
  int iterations;                                // of `unroll` steps each

  static std::int64_t updates_per_item(int iterations) {
    return std::int64_t(iterations) * unroll * RegRows * cols;
  }

  KOKKOS_FORCEINLINE_FUNCTION static void step(Lane (&acc)[RegRows][Packs],
                                               const Lane (&l)[RegRows]) {
    for (int a = 1; a < RegRows; ++a)
      for (int p = 0; p < Packs; ++p) acc[a][p] = relax(acc[a][p], l[a], acc[0][p]);
    for (int p = 0; p < Packs; ++p) acc[0][p] = relax(acc[0][p], l[0], acc[0][p]);
  }

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t item) const {
    const int mask = int(seeds.extent(0)) - 1;
    const int first = int(item & mask);
    Lane acc[RegRows][Packs];
    Lane l[RegRows];
    for (int a = 0; a < RegRows; ++a) {
      for (int f = 0; f < lane_width<Lane>(); ++f) set_lane(l[a], f, seeds((first + 7 * a) & mask));
      for (int p = 0; p < Packs; ++p)
        for (int f = 0; f < lane_width<Lane>(); ++f)
          set_lane(acc[a][p], f, seeds((first + a * cols + p * lane_width<Lane>() + f) & mask));
    }
    for (int t = 0; t < iterations; ++t)
      for (int u = 0; u < unroll; ++u) step(acc, l);
    int sum = 0;
    for (int a = 0; a < RegRows; ++a)
      for (int p = 0; p < Packs; ++p) sum += lane_sum(acc[a][p]);
    sink(item) = sum;
  }
};

}  // namespace bench
}  // namespace apsp
