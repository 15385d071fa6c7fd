// The attainable rate of the solver's arithmetic on one backend: a register-only min-plus loop.
//
// Floyd-Warshall's hot loop (RemainingTiles) is acc = min(acc, a + b) on int32, one add and one
// min per update (one VIADDMNMX on sm_90, a vpaddd and a vpminsd per vector on x86). This probe
// runs that update with nothing else in the loop: no loads, no stores, no barriers. What the
// solver reaches divided by what this reaches is its architectural efficiency on that device
// (an attainable ceiling for this workload, not the vendor's peak).
//
// The registers are two halves, A and B, of Half values each (Lane: an int on GPUs, the host's
// native int32 vector on CPUs; float and double lanes give the ceiling of the float types). A step
// relaxes every A(i) through a sum of two B's, the next step every B(i) through two A's:
//     A(i) = min(A(i), B(i + s) + B(i + s + 1)),   s = 1, 2, ... changing with the step.
// So a step is Half independent updates (the ILP), and each reads values the previous step
// wrote, so that nothing is loop-invariant. Why not the solver's own shape (a row of the block
// relaxed through one value l(a) plus a pivot row)? Because min-plus algebra folds it: the same
// l(a) added to several terms min'ed into one accumulator is min(l + x, l + y) = l + min(x, y),
// and a pivot row that is min'ed with itself is min(x, min(x, y)) = min(x, y). NVVM applies
// both: that first version issued 56 VIADDMNMX per 256 updates it counted and "reached" 18-19 T
// updates/s on an H200. Here no two terms min'ed into one value share an operand (every value
// is rewritten every other step, and the pairs (i + s, i + s + 1) differ for every i), and no
// value is relaxed through itself, so there is nothing to factor. Check the SASS (bench/device
// node) or the assembly for 4 * Half add-min pairs per loop iteration.
// The values start from a View filled at run time (0..1000), so nothing is constant; they only
// decrease and stay in [0, 1000], so no sum overflows; all of them are summed into `sink`.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

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
// The host's widest vector of E (GCC/Clang vector extension): +, < and ?: act per lane.
template <class E>
struct HostVectorOf {
  typedef E type __attribute__((vector_size(host_vector_bytes)));
};
using HostVector = HostVectorOf<int>::type;
#endif

// The element of a lane: the lane itself (a scalar), or the vector's element.
template <class Lane, class = void>
struct ElementOf {
  using type = Lane;
};
template <class Lane>
struct ElementOf<Lane, std::enable_if_t<!std::is_arithmetic<Lane>::value>> {
  using type = std::remove_cv_t<std::remove_reference_t<decltype(std::declval<Lane&>()[0])>>;
};
template <class Lane>
using element_of = typename ElementOf<Lane>::type;

template <class Lane>
constexpr int lane_width = int(sizeof(Lane) / sizeof(element_of<Lane>));

template <class Lane>
KOKKOS_FORCEINLINE_FUNCTION Lane relax(const Lane& current, const Lane& a, const Lane& b) {
  const Lane through = a + b;
  return through < current ? through : current;
}

template <class Lane>
KOKKOS_FORCEINLINE_FUNCTION void set_lane(Lane& v, int f, int x) {
  if constexpr (std::is_arithmetic<Lane>::value) {
    (void)f;
    v = Lane(x);
  } else {
    v[f] = element_of<Lane>(x);
  }
}

template <class Lane>
KOKKOS_FORCEINLINE_FUNCTION double lane_sum(const Lane& v) {
  if constexpr (std::is_arithmetic<Lane>::value) {
    return double(v);
  } else {
    double sum = 0;
    for (int f = 0; f < lane_width<Lane>; ++f)
      sum += double(v[f]);
    return sum;
  }
}

// The element type's name: int32, float32, float64.
template <class E>
const char* element_name() {
  return std::is_same<E, int>::value     ? "int32"
         : std::is_same<E, float>::value ? "float32"
                                         : "float64";
}

// One work item: 2 * Half lanes (of int32, or of float or double for the float ceilings),
// relaxed 4 * iterations steps. RangePolicy: one item
// per GPU thread; on CPUs a thread takes items in turn.
template <class ExecSpace, class Lane, int Half>
struct MinPlusRegisters {
  static constexpr int registers = 2 * Half;
  static constexpr int unroll = 4;  // steps per loop iteration: loop overhead off the ALUs
  static_assert(Half >= 4, "two halves of at least four values each");
  using memory_space = typename ExecSpace::memory_space;

  Kokkos::View<const int*, memory_space> seeds;  // extent: a power of two
  Kokkos::View<int*, memory_space> sink;         // one per work item
  int iterations;                                // of `unroll` steps each

  static std::int64_t updates_per_item(int iterations) {
    return std::int64_t(iterations) * unroll * Half * lane_width<Lane>;
  }
  static std::string block() {
    return std::to_string(registers) + " x " + element_name<element_of<Lane>>() +
           (lane_width<Lane> > 1 ? "x" + std::to_string(lane_width<Lane>) : std::string());
  }

  // to(i) = min(to(i), from(i + s) + from(i + s + 1)): Half independent updates.
  template <int S>
  KOKKOS_FORCEINLINE_FUNCTION static void step(Lane (&to)[Half], const Lane (&from)[Half]) {
    for (int i = 0; i < Half; ++i)
      to[i] = relax(to[i], from[(i + S) % Half], from[(i + S + 1) % Half]);
  }

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t item) const {
    const int mask = int(seeds.extent(0)) - 1;
    const int first = int(item & mask);
    Lane a[Half], b[Half];
    for (int i = 0; i < Half; ++i)
      for (int f = 0; f < lane_width<Lane>; ++f) {
        set_lane(a[i], f, seeds((first + i * lane_width<Lane> + f) & mask));
        set_lane(b[i], f, seeds((first + (Half + i) * lane_width<Lane> + f) & mask));
      }
    for (int t = 0; t < iterations; ++t) {
      step<1>(a, b);
      step<2>(b, a);
      step<3>(a, b);
      step<4>(b, a);
    }
    double sum = 0;
    for (int i = 0; i < Half; ++i)
      sum += lane_sum(a[i]) + lane_sum(b[i]);
    sink(item) = int(sum);
  }
};

}  // namespace bench
}  // namespace apsp
