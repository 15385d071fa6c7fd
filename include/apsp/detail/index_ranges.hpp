// Parallel loops over index ranges of any length, in launches that Kokkos 3.4 takes.
//
// Kokkos 3.4's CUDA RangePolicy parallel_for (ParallelFor<..., RangePolicy, Cuda> in
// Kokkos_Cuda_Parallel.hpp) launches grid = min(ceil(n / b), maxGridSize.x) blocks of b threads;
// each thread starts at blockDim.y * blockIdx.x + threadIdx.y and strides by blockDim.y *
// gridDim.x. Both products are of two 32-bit unsigned ints, whatever the policy's index type.
// Once grid * b reaches 2^32 they wrap: at n = 2^32 (the fill of a 65536 x 65536 matrix) the
// stride is 0 and the loop never ends; past it the stride is grid * b - 2^32, which still visits
// every index, some many times over. Its parallel_scan keeps n in an int. Kokkos initializes a
// View it allocates with the same parallel_for, so a View of 2^32 or more elements must be
// allocated WithoutInitializing on CUDA.
//
// So no launch here covers more than max_range_launch indices: 2^30, with which every block size
// (at most 1024 threads) keeps grid * b below 2^31 and n below 2^31 - b. Longer ranges are split
// into consecutive launches on the same instance, which run in order.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace apsp {
namespace detail {

constexpr std::int64_t max_range_launch = std::int64_t(1) << 30;

// The index range [from, to) of one launch.
struct IndexRange {
  std::int64_t from = 0, to = 0;
};

// The launches of [begin, end): how many, and the n-th.
constexpr std::int64_t range_launches(std::int64_t begin, std::int64_t end) {
  return end <= begin ? 0 : (end - begin - 1) / max_range_launch + 1;
}
constexpr IndexRange range_launch(std::int64_t begin, std::int64_t end, std::int64_t n) {
  const std::int64_t from = begin + n * max_range_launch;
  return {from, end - from < max_range_launch ? end : from + max_range_launch};
}

// Whether Kokkos 3.4's CUDA parallel_for over `count` indices in blocks of `block` threads
// computes every thread's first index and its stride exactly (above): grid * block < 2^32.
constexpr bool cuda_range_for_exact(std::int64_t count, std::int64_t block,
                                    std::int64_t max_grid = 2147483647) {
  const std::int64_t blocks = (count + block - 1) / block;
  return (blocks < max_grid ? blocks : max_grid) * block < (std::int64_t(1) << 32);
}
// ... and whether its parallel_scan holds count + block - 1 in its int.
constexpr bool cuda_range_scan_exact(std::int64_t count, std::int64_t block) {
  return count + block - 1 <= std::int64_t(2147483647);
}

// f(i) for every i in [begin, end), in order of launches on exec.
template <class ExecSpace, class F>
void for_each_index(const std::string& label, const ExecSpace& exec, std::int64_t begin,
                    std::int64_t end, const F& f) {
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  for (std::int64_t n = 0; n < range_launches(begin, end); ++n) {
    const IndexRange r = range_launch(begin, end, n);
    Kokkos::parallel_for(label, Range(exec, r.from, r.to), f);
  }
}

// The scan of one launch: f sees the running sum of all launches before it as well.
template <class F>
struct OffsetScan {
  using value_type = std::int64_t;
  F f;
  std::int64_t base;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t& sum, bool final) const {
    std::int64_t at = base + sum;
    f(i, at, final);
    sum = at - base;
  }
};

// An exclusive scan: f(i, sum, final) adds i's count to sum, as a Kokkos scan functor does,
// over [begin, end); returns the total.
template <class ExecSpace, class F>
std::int64_t scan_indices(const std::string& label, const ExecSpace& exec, std::int64_t begin,
                          std::int64_t end, const F& f) {
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  std::int64_t base = 0;
  for (std::int64_t n = 0; n < range_launches(begin, end); ++n) {
    const IndexRange r = range_launch(begin, end, n);
    std::int64_t total = 0;
    Kokkos::parallel_scan(label, Range(exec, r.from, r.to), OffsetScan<F>{f, base}, total);
    base += total;
  }
  return base;
}

}  // namespace detail
}  // namespace apsp
