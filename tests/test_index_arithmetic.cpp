// The solver's index arithmetic at the padded sizes where 32-bit products of two sizes wrap:
// N^2 passes 2^31 from N = 46341, reaches 2^32 at 65536 (where a GPU run never ended), 2^33 from
// 92682 and 2^34 at 131072. Nothing is allocated: the launches, offsets and team counts the
// kernels use are computed for those N and checked against exact 64-bit arithmetic.
#include <apsp/detail/blocked_kernels.hpp>
#include <apsp/detail/index_ranges.hpp>

#include <gtest/gtest.h>

#include <algorithm>
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

template <int Tile>
using Remaining = apsp::detail::RemainingTiles<Kokkos::DefaultHostExecutionSpace,
                                               apsp::detail::TileShape<Tile, 1, 1, 4, 4, Tile>,
                                               apsp::detail::PlainRelaxation<int>>;

apsp::detail::RoundGeometry whole_matrix(std::int64_t n, int tile, int pivot) {
  apsp::detail::RoundGeometry geo;
  geo.tiles = int(n / tile);
  geo.local_tiles = geo.tiles;
  geo.pivot = pivot;
  geo.ld = n;
  return geo;
}

// Tile offsets and the remaining tiles' teams of a round: the last tile ends at the matrix's
// last entry, the teams are (tiles - 1)^2 (past 2^31 with tiles of 4 at N = 262144), and the
// launches that take them cover each team once, each within Kokkos' int league.
template <int Tile>
void expect_round_arithmetic(std::int64_t n) {
  const std::string what = "N = " + std::to_string(n) + ", tile " + std::to_string(Tile);
  const int tiles = int(n / Tile);
  for (const int pivot : {0, tiles / 2, tiles - 1}) {
    const apsp::detail::RoundGeometry geo = whole_matrix(n, Tile, pivot);
    EXPECT_EQ(geo.tile_offset(tiles - 1, tiles - 1, Tile) + (Tile - 1) * n + Tile - 1, n * n - 1)
        << what;
    EXPECT_EQ(geo.tile_offset(1, pivot, Tile), n * Tile + std::int64_t(pivot) * Tile) << what;
    Remaining<Tile> rest{nullptr, nullptr, geo};
    const std::int64_t teams = rest.teams();
    EXPECT_EQ(teams, std::int64_t(tiles - 1) * (tiles - 1)) << what;
    // The launches of BlockedRounds::remaining: whole rows from first_row, each an int league
    // of at most 2^30 teams; the first team of the first and the last of the last.
    std::int64_t covered = 0;
    int row = -1, col = -1;
    for (int first = 0; first < rest.rows(); first += rest.rows_per_launch()) {
      rest.first_row = first;
      const std::int64_t league =
          std::int64_t(std::min(rest.rows_per_launch(), rest.rows() - first)) * rest.row_teams();
      EXPECT_LE(league, apsp::detail::max_range_launch) << what;
      if (first == 0) {
        rest.tile_of(0, row, col);
        EXPECT_EQ(row, pivot == 0 ? 1 : 0) << what << ", pivot " << pivot;
        EXPECT_EQ(col, pivot == 0 ? 1 : 0) << what << ", pivot " << pivot;
      }
      covered += league;
      if (covered == teams) {
        rest.tile_of(int(league - 1), row, col);
        EXPECT_EQ(row, pivot == tiles - 1 ? tiles - 2 : tiles - 1) << what << ", pivot " << pivot;
        EXPECT_EQ(col, pivot == tiles - 1 ? tiles - 2 : tiles - 1) << what << ", pivot " << pivot;
      }
    }
    EXPECT_EQ(covered, teams) << what;
  }
}

TEST(IndexArithmetic, RoundOffsetsAndTeamsAtLargeN) {
  for (std::int64_t n : {std::int64_t(65536), std::int64_t(131072)}) {
    expect_round_arithmetic<4>(n);
    expect_round_arithmetic<32>(n);
    expect_round_arithmetic<64>(n);
    expect_round_arithmetic<128>(n);
  }
  expect_round_arithmetic<4>(262144);
}

}  // namespace
