// apsp::graph_measures (measures.hpp) on every backend and distance type: the rows handed over in
// blocks of any size give the same bits (each column's sum sees the rows in row order), equal to
// a plain loop over the matrix; Int128's exact sums and decimal text beyond 64 bits.
#include <apsp/graph_measures.hpp>
#include <apsp/measures.hpp>
#include <apsp/ranks.hpp>

#include "backends.hpp"

#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace {

TEST(Int128, SumsAndTextBeyond64Bits) {
  apsp::Int128 sum;
  for (int i = 0; i < 1000; ++i)
    sum += apsp::Int128::of(INT64_MAX);
  // 1000 (2^63 - 1) = 9223372036854775807000
  EXPECT_EQ(sum.text(), "9223372036854775807000");
  EXPECT_DOUBLE_EQ(sum.to_double(), 9223372036854775807000.0);
  apsp::Int128 negative;
  for (int i = 0; i < 3; ++i)
    negative += apsp::Int128::of(INT64_MIN);
  EXPECT_EQ(negative.text(), "-27670116110564327424");
  EXPECT_EQ(apsp::Int128::of(0).text(), "0");
  EXPECT_EQ(apsp::Int128::of(-7).text(), "-7");
  apsp::Int128 back = negative;
  back += apsp::Int128::of(INT64_MAX);
  back += apsp::Int128::of(INT64_MAX);
  back += apsp::Int128::of(INT64_MAX);
  EXPECT_EQ(back.text(), "-3");
}

// The harmonic term in two parts (the host backends' column totals) is the term, to the unit.
TEST(FixedSum, TwoPartsAreTheTerm) {
  std::mt19937 rng(20261128u);
  for (int k = 0; k < 100000; ++k) {
    const int magnitude = k < 1000 ? k + 1 : int(rng() % 1073741823u) + 1;
    const int d = k % 2 ? -magnitude : magnitude;
    apsp::detail::FixedSum whole, parts;
    whole.add_reciprocal(d);
    whole.add_reciprocal(magnitude);
    std::int64_t high_part, low_part;
    apsp::detail::FixedSum::reciprocal_parts(magnitude, high_part, low_part);
    const std::int64_t sign = d < 0 ? -1 : 1;
    parts.add_parts(sign * high_part, sign * low_part);
    parts.add_parts(high_part, low_part);
    ASSERT_EQ(parts.low, whole.low) << d;
    ASSERT_EQ(parts.high, whole.high) << d;
  }
}

// An int32 distance's bin is floor((d - low) bins / (high - low)), clamped to the bins, exactly:
// at the bins' edges (where the quotient is an integer), two below and two above them, over
// ranges from one value to 2^31 (from negative lows too) and up to the most bins.
TEST(Binning, Int32BinsAreExactAtEveryEdge) {
  std::mt19937 rng(20261203u);
  const auto exact = [](std::int64_t d, std::int64_t low, std::int64_t high, int bins) {
    const std::int64_t width = high - low;
    if (width <= 0) return 0;
    const std::int64_t x = (d - low) * bins;  // below 2^44
    const std::int64_t q = x >= 0 ? x / width : -((-x + width - 1) / width);
    return int(q < 0 ? 0 : q >= bins ? bins - 1 : q);
  };
  const std::int64_t most = 1073741823;
  for (int c = 0; c < 400; ++c) {
    const int bins = c < 100   ? 1 + c
                     : c < 200 ? apsp::max_histogram_bins - (c - 100)
                               : 1 + int(rng() % apsp::max_histogram_bins);
    // Negative lows: negative weights' distances.
    const std::int64_t low = c % 3 == 0   ? 0
                             : c % 5 == 4 ? -std::int64_t(rng() % 1000000000u)
                                          : std::int64_t(rng() % 1000);
    const std::int64_t high = c % 4 == 0   ? most
                              : c % 4 == 1 ? low + 1 + c
                                           : low + std::int64_t(rng() % most);
    const apsp::detail::Binning<int> binning(bins, double(low), double(high));
    const std::int64_t width = high - low;
    for (int b = 0; b <= bins; ++b) {
      // The least d of bin b: ceil(b width / bins) from low.
      const std::int64_t edge = low + (std::int64_t(b) * width + bins - 1) / bins;
      for (std::int64_t d = edge - 2; d <= edge + 2; ++d) {
        if (d < -most || d > most) continue;
        ASSERT_EQ(binning(int(d)), exact(d, low, high, bins))
            << "d " << d << " low " << low << " high " << high << " bins " << bins;
      }
    }
    for (int k = 0; k < 200; ++k) {
      const std::int64_t d = low - 2 + std::int64_t(rng() % std::uint64_t(most - low + 3));
      ASSERT_EQ(binning(int(d)), exact(d, low, high, bins))
          << "d " << d << " low " << low << " high " << high << " bins " << bins;
    }
  }
}

template <class C>
class Measures : public ::testing::Test {};
TYPED_TEST_SUITE(Measures, apsp_test::BackendsAndTypes, apsp_test::CaseName);

// A distance matrix with unreachable pairs, zeros and, for the floats, values whose sums round.
template <class T>
std::vector<T> distances(int v, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<T> d(std::size_t(v) * v);
  for (int i = 0; i < v; ++i)
    for (int j = 0; j < v; ++j) {
      const std::uint32_t r = rng();
      T x = std::is_integral<T>::value ? T(r % 1000) : T(double(r % 100000) / 7.0);
      if (r % 5 == 0) x = apsp::Distance<T>::infinity;
      if (r % 11 == 0) x = T(0);
      d[std::size_t(i) * v + j] = i == j ? T(0) : x;
    }
  return d;
}

// The measures of matrix d handed over in blocks of `block` rows from the device.
template <class ExecSpace, class T>
apsp::GraphMeasures measures_in_blocks(const std::vector<T>& d, int v, int block, int bins,
                                       const apsp::RowProbe<T>& probe = {}) {
  using Rows = Kokkos::View<T**, Kokkos::LayoutRight, typename ExecSpace::memory_space>;
  Rows device("rows", v, v + 3);  // wider than V: the solvers' rows are padded
  auto host = Kokkos::create_mirror_view(device);
  for (int i = 0; i < v; ++i)
    for (int j = 0; j < v + 3; ++j)
      host(i, j) = j < v ? d[std::size_t(i) * v + j] : T(-5);
  Kokkos::deep_copy(device, host);
  apsp::OneRank one;
  return apsp::graph_measures<T>(
      ExecSpace(), one, v, 0, v, apsp::MeasureOptions{bins},
      [&](const apsp::DeviceRowSink<ExecSpace, T>& sink) {
        for (int first = 0; first < v; first += block) {
          const int count = std::min(block, v - first);
          sink(first, count, Rows(device.data() + std::size_t(first) * (v + 3), count, v + 3));
        }
      },
      probe);
}

// With a probe the histogram's range is guessed from a few rows: right, the histogram is made in
// the one pass; wrong (the diameter in a row no sweep reaches), in a second; the same either way.
TYPED_TEST(Measures, AGuessedHistogramRangeIsCheckedAndMadeAgainWhereWrong) {
  using ExecSpace = typename TypeParam::exec;
  using T = typename TypeParam::value;
  const int v = 130;
  for (const bool reached : {true, false}) {
    std::vector<T> d = distances<T>(v, 20261128u);
    // The largest distance in row 0 (always probed), or in the last row, which no sweep reaches
    // (no start, and never another row's farthest vertex).
    const int far = reached ? 0 : v - 1;
    for (int i = 0; i < v; ++i)
      if (i != far) d[std::size_t(i) * v + (v - 1)] = T(0);
    d[std::size_t(far) * v + 5] = T(50000);  // above every other entry
    std::vector<std::int32_t> asked;
    const apsp::RowProbe<T> probe = [&](const std::vector<std::int32_t>& list,
                                        const apsp::RowSink<T>& sink) {
      for (std::size_t k = 0; k < list.size(); ++k) {
        asked.push_back(list[k]);
        sink(std::int64_t(k), 1, d.data() + std::size_t(list[k]) * v, v);
      }
    };
    const apsp::GraphMeasures plain = measures_in_blocks<ExecSpace, T>(d, v, 64, 10);
    const apsp::GraphMeasures guessed = measures_in_blocks<ExecSpace, T>(d, v, 64, 10, probe);
    EXPECT_EQ(plain.passes, 2);
    EXPECT_EQ(guessed.passes, reached ? 1 : 2) << "reached " << reached;
    EXPECT_EQ(guessed.probed_rows, std::int64_t(asked.size()));
    EXPECT_EQ(std::count(asked.begin(), asked.end(), v - 1), 0);
    EXPECT_EQ(guessed.diameter, 50000);
    EXPECT_EQ(guessed.histogram, plain.histogram);
    EXPECT_EQ(guessed.low, plain.low);
  }
}

TYPED_TEST(Measures, BlocksOfAnySizeGiveTheBitsOfAPlainLoop) {
  using ExecSpace = typename TypeParam::exec;
  using T = typename TypeParam::value;
  const T inf = apsp::Distance<T>::infinity;
  for (const int v : {1, 2, 37, 130}) {
    const std::vector<T> d = distances<T>(v, 20261127u + unsigned(v));
    const auto at = [&](int i, int j) { return d[std::size_t(i) * v + j]; };
    const apsp::GraphMeasures whole = measures_in_blocks<ExecSpace, T>(d, v, v, 10);
    for (const int block : {1, 3, 64}) {
      const apsp::GraphMeasures m = measures_in_blocks<ExecSpace, T>(d, v, block, 10);
      EXPECT_EQ(m.in_distance_sum, whole.in_distance_sum) << v << " " << block;
      EXPECT_EQ(m.in_distance_sum_exact, whole.in_distance_sum_exact);
      EXPECT_EQ(m.harmonic_centrality, whole.harmonic_centrality);
      EXPECT_EQ(m.closeness_centrality, whole.closeness_centrality);
      EXPECT_EQ(m.histogram, whole.histogram);
    }
    // The plain loop: sums in row order (in) and column order (out), in double.
    std::int64_t pairs = 0;
    double least = 0, diameter = 0;
    for (int i = 0; i < v; ++i) {
      double most = 0, sum = 0, in_most = 0, in_sum = 0, harmonic = 0;
      std::int64_t count = 0, in_count = 0;
      for (int j = 0; j < v; ++j) {
        if (at(i, j) != inf) {
          most = std::max(most, double(at(i, j)));
          sum += double(at(i, j));
          ++count;
          if (j != i) least = std::min(least, double(at(i, j)));
        }
        if (at(j, i) != inf) {
          in_most = std::max(in_most, double(at(j, i)));
          in_sum += double(at(j, i));
          ++in_count;
          if (at(j, i) != T(0)) harmonic += 1.0 / double(at(j, i));
        }
      }
      pairs += count - 1;
      diameter = std::max(diameter, most);
      EXPECT_EQ(whole.eccentricity[std::size_t(i)], most);
      EXPECT_EQ(whole.in_eccentricity[std::size_t(i)], in_most);
      EXPECT_EQ(whole.reachable[std::size_t(i)], count);
      EXPECT_EQ(whole.in_reachable[std::size_t(i)], in_count);
      if (std::is_integral<T>::value) {
        EXPECT_EQ(whole.distance_sum_exact[std::size_t(i)], std::int64_t(sum));
        EXPECT_EQ(whole.in_distance_sum_exact[std::size_t(i)], std::int64_t(in_sum));
      } else {
        // A row's sum: each thread of its team a share, combined in thread order.
        EXPECT_NEAR(whole.distance_sum[std::size_t(i)], sum, 1e-12 * sum);
        EXPECT_EQ(whole.in_distance_sum[std::size_t(i)], in_sum);
      }
      EXPECT_NEAR(whole.harmonic_centrality[std::size_t(i)], harmonic, 1e-12 * harmonic);
    }
    EXPECT_EQ(whole.reachable_pairs, pairs);
    EXPECT_EQ(whole.unreachable_pairs, std::int64_t(v) * (v - 1) - pairs);
    EXPECT_EQ(whole.connected, pairs == std::int64_t(v) * (v - 1));
    EXPECT_EQ(whole.diameter, diameter);
    EXPECT_EQ(whole.low, least);
    std::int64_t histogram = 0;
    for (const std::int64_t c : whole.histogram)
      histogram += c;
    EXPECT_EQ(histogram, pairs);
  }
}

}  // namespace
