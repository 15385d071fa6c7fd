// What measures.hpp computes from the distance rows, as plain data on the host (no Kokkos): the
// per-vertex measures in vertex order and the graph's, named as NetworkX names them.
//
// On a graph that is not strongly connected every value is still defined (NetworkX raises for
// most of them instead): a vertex's values are over the vertices it reaches (out) or that reach
// it (in), with the counts beside them; the graph's over the ordered pairs u != v with a path,
// and `connected` says whether that is every pair.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace apsp {

// A signed 128-bit integer (two's complement in two words), for sums that 64 bits may not hold:
// the Wiener index of a million vertices, fixed-point sums of reciprocals.
struct Int128 {
  std::uint64_t low = 0;
  std::uint64_t high = 0;  // the sign is its top bit

  static Int128 of(std::int64_t x) {
    return Int128{std::uint64_t(x), x < 0 ? ~std::uint64_t(0) : std::uint64_t(0)};
  }
  Int128& operator+=(const Int128& b) {
    const std::uint64_t sum = low + b.low;
    high += b.high + (sum < low ? 1 : 0);
    low = sum;
    return *this;
  }
  bool negative() const { return (high >> 63) != 0; }
  Int128 negated() const { return Int128{~low + 1, ~high + (low == 0 ? 1 : 0)}; }
  // The nearest double (the magnitude's two words rounded once each, then summed).
  double to_double() const {
    const Int128 m = negative() ? negated() : *this;
    const double v = double(m.high) * 18446744073709551616.0 + double(m.low);
    return negative() ? -v : v;
  }
  // In decimal, exactly.
  std::string text() const {
    Int128 m = negative() ? negated() : *this;
    std::string digits;
    do {
      // Long division of the two words by 10, high word first.
      const std::uint64_t high_rest = m.high % 10;
      m.high /= 10;
      // (high_rest * 2^64 + low) / 10, in 32-bit halves so nothing overflows.
      const std::uint64_t upper = (high_rest << 32) | (m.low >> 32);
      const std::uint64_t q_upper = upper / 10, r_upper = upper % 10;
      const std::uint64_t lower = (r_upper << 32) | (m.low & 0xffffffffu);
      const std::uint64_t q_lower = lower / 10, r_lower = lower % 10;
      m.low = (q_upper << 32) | q_lower;
      digits.insert(digits.begin(), char('0' + r_lower));
    } while (m.low != 0 || m.high != 0);
    return negative() ? "-" + digits : digits;
  }
};

// The most bins a histogram has: a team of the reduction counts its row's bins in its scratch
// (8 bytes each).
constexpr int max_histogram_bins = 4096;

// What to compute besides the first pass's measures.
struct MeasureOptions {
  // Bins of the distance histogram (0: no histogram, and no second pass over the rows).
  int bins = 64;
};

// Distances, sums and bounds are exact for int32 distances (sums in 64 bits, the Wiener index in
// 128) and for the floats sums in double in a fixed order: for fixed algorithm, backend and rank
// count the same bits every run.
struct GraphMeasures {
  std::int64_t vertices = 0;
  bool integral = true;  // int32 distances: the sums are the exact integers of the *_exact fields

  // Per vertex v (vector index v).
  std::vector<double> eccentricity;        // max d(v, u) over the u that v reaches (v included: 0)
  std::vector<double> in_eccentricity;     // max d(u, v) over the u that reach v
  std::vector<std::int64_t> reachable;     // the vertices v reaches, v included
  std::vector<std::int64_t> in_reachable;  // the vertices that reach v, v included
  std::vector<std::int64_t> distance_sum_exact, in_distance_sum_exact;  // integral
  std::vector<double> distance_sum, in_distance_sum;                    // the floats
  // NetworkX's closeness_centrality(G, distance=..., wf_improved=True): from the incoming
  // distances, (r - 1) / sum * (r - 1) / (V - 1) with r = in_reachable, 0 where the sum is not
  // positive.
  std::vector<double> closeness_centrality;
  // NetworkX's harmonic_centrality: sum over the u that reach v of 1 / d(u, v), d = 0 skipped.
  std::vector<double> harmonic_centrality;

  // The graph.
  bool connected = true;                        // every ordered pair u != v has a path
  std::int64_t reachable_pairs = 0;             // ordered pairs u != v with a path
  double diameter = 0, radius = 0;              // max and min of eccentricity
  std::vector<std::int64_t> center, periphery;  // eccentricity == radius, == diameter
  Int128 wiener_exact;                          // integral: the sum of d(u, v) over reachable_pairs
  double wiener_index = 0;
  double average_shortest_path_length = 0;  // the Wiener index / reachable_pairs (0 for none)
  // The histogram of d(u, v) over reachable_pairs: bins of equal width over [low, high] (low =
  // min(0, the least distance), high = the diameter), bin b holding low + b w <= d < low +
  // (b + 1) w (the last bin also high); for int32 the bin is (d - low) bins / (high - low)
  // rounded down, exactly.
  int bins = 0;
  double low = 0, high = 0;
  std::vector<std::int64_t> histogram;
  // How the histogram was made: passes over the rows (1: its range guessed right from the rows
  // of probed_rows vertices, made with the other measures; 2: a pass of its own).
  int passes = 0;
  std::int64_t probed_rows = 0;
  std::int64_t unreachable_pairs = 0;  // ordered pairs u != v without a path
};

}  // namespace apsp
