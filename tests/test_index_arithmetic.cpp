// The solver's index arithmetic at the padded sizes where 32-bit products of two sizes wrap:
// N^2 passes 2^31 from N = 46341, reaches 2^32 at 65536 (where a GPU run never ended), 2^33 from
// 92682 and 2^34 at 131072. Nothing is allocated: the launches, offsets and team counts the
// kernels use are computed for those N and checked against exact 64-bit arithmetic.
#include <apsp/detail/index_ranges.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace {

using apsp::detail::cuda_range_for_exact;
using apsp::detail::cuda_range_scan_exact;
using apsp::detail::IndexRange;
using apsp::detail::range_launch;
using apsp::detail::range_launches;

// Padded sizes on both sides of each boundary (multiples of 64).
constexpr std::int64_t boundary_sizes[] = {46336, 46400, 65472,  65536, 65600,
                                           92672, 92736, 131072, 262144};
// Block sizes Kokkos may pick for a RangePolicy on CUDA.
constexpr std::int64_t cuda_blocks[] = {32, 64, 128, 256, 512, 1024};

constexpr std::int64_t square(std::int64_t n) {
  return n * n;
}

// The model of Kokkos 3.4's CUDA range launch (detail/index_ranges.hpp) against the launch the
// fill of an N x N matrix made in one piece: exact below 2^32 elements, wrapped from N = 65536.
TEST(IndexArithmetic, OneLaunchOverTheWholeMatrixWrapsFrom65536) {
  for (std::int64_t block : cuda_blocks) {
    EXPECT_TRUE(cuda_range_for_exact(square(65472), block)) << block;
    EXPECT_FALSE(cuda_range_for_exact(square(65536), block)) << block;
    EXPECT_FALSE(cuda_range_for_exact(square(65600), block)) << block;
    EXPECT_FALSE(cuda_range_for_exact(square(131072), block)) << block;
    EXPECT_FALSE(cuda_range_scan_exact(square(46400), block)) << block;
  }
}

// Every index of [begin, end) once, in order, in launches whose 32-bit arithmetic is exact.
void expect_exact_launches(std::int64_t begin, std::int64_t end, const std::string& what) {
  std::int64_t next = begin;
  for (std::int64_t n = 0; n < range_launches(begin, end); ++n) {
    const IndexRange r = range_launch(begin, end, n);
    ASSERT_EQ(r.from, next) << what << ", launch " << n;
    ASSERT_LT(r.from, r.to) << what << ", launch " << n;
    for (std::int64_t block : cuda_blocks) {
      EXPECT_TRUE(cuda_range_for_exact(r.to - r.from, block)) << what << ", block " << block;
      EXPECT_TRUE(cuda_range_scan_exact(r.to - r.from, block)) << what << ", block " << block;
    }
    next = r.to;
  }
  EXPECT_EQ(next, end) << what;
}

// The launches of fill_distance_rows (N^2 entries with one process, fewer rows on a rank) and
// of the edge loops.
TEST(IndexArithmetic, FillLaunchesAreExactAtEveryBoundarySize) {
  for (std::int64_t n : boundary_sizes) {
    expect_exact_launches(0, n * n, "the whole matrix, N = " + std::to_string(n));
    expect_exact_launches(0, (n / 2 + 64) * n, "a rank's rows, N = " + std::to_string(n));
  }
  expect_exact_launches(0, 0, "no edges");
  expect_exact_launches(5, 6, "one index");
  expect_exact_launches(0, std::int64_t(1) << 30, "one whole launch");
  expect_exact_launches(0, (std::int64_t(1) << 30) + 1, "one launch and one index");
}

}  // namespace
