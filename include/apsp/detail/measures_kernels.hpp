// The kernels of measures.hpp: a block of distance rows reduced where it lies (a device's
// memory for GPU backends), in an order fixed by the rows alone, so that every sum of floats is
// the same every run: no atomics on floats.
//
//   RowTotals     a team per row: its max, its least off-diagonal value, its sum and its
//                 reachable count (the out-measures), each thread's share combined in thread order
//   ColumnTotals  a thread per column (a chunk of columns on host backends, which stay in cache):
//                 the block's rows in order into the column's running max, sum, count and
//                 harmonic sum (the in-measures): each column's sum sees the rows of the rank in
//                 row order, whatever the blocks
//   RowHistogram  a team per row: its bins counted in the team's scratch, then added to the
//                 histogram (integer atomics: exact in any order)
#pragma once

#include <apsp/distance.hpp>
#include <apsp/graph_measures.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace apsp {
namespace detail {

// Sums of distances of type T: exact 64-bit integers for int32 (V * 2^30 < 2^61), double for
// the floats.
template <class T>
using DistanceSum = std::conditional_t<std::is_integral<T>::value, std::int64_t, double>;

// The harmonic sum of int32 distances in fixed point, 2^-84 a unit, in 128 bits: 1 / |d| for
// 1 <= |d| < 2^31 is a double m 2^(e - 52) with 2^52 <= m < 2^53 and -31 <= e <= 0, so each term
// is the exact integer m 2^(e + 32) of units (below 2^85, read off its bits: no conversion), and
// 2^31 of them stay below 2^116: the sum is exact, the same in any order (on any rank count).
// The floats' sums are doubles.
struct FixedSum {
  std::uint64_t low = 0, high = 0;

  KOKKOS_INLINE_FUNCTION void add_reciprocal(int d) {
    const double r = 1.0 / double(d < 0 ? -d : d);
    std::uint64_t bits;
    std::memcpy(&bits, &r, sizeof bits);
    const std::uint64_t m = (bits & ((std::uint64_t(1) << 52) - 1)) | (std::uint64_t(1) << 52);
    const int shift = int((bits >> 52) & 0x7ff) - 1023 + 32;  // e + 32, in [1, 32]
    std::uint64_t l = m << shift, h = m >> (64 - shift);
    if (d < 0) {
      h = ~h + (l == 0 ? 1 : 0);
      l = ~l + 1;
    }
    const std::uint64_t sum = low + l;
    high += h + (sum < low ? 1 : 0);
    low = sum;
  }
};

template <class T>
using HarmonicSum = std::conditional_t<std::is_integral<T>::value, FixedSum, double>;

template <class T>
KOKKOS_INLINE_FUNCTION void add_harmonic(HarmonicSum<T>& sum, T d) {
  if constexpr (std::is_integral<T>::value)
    sum.add_reciprocal(d);
  else
    sum += 1.0 / double(d);
}

// The block's rows: rows(i, j) = d(first + i, j), j < vertices.
template <class ExecSpace, class T>
using RowBlock = Kokkos::View<T**, Kokkos::LayoutRight, typename ExecSpace::memory_space>;

template <class ExecSpace, class T>
struct RowTotals {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using memory_space = typename ExecSpace::memory_space;
  struct Partial {
    T most, least;
    DistanceSum<T> sum;
    std::int64_t count;
  };
  using Partials = Kokkos::View<Partial*, typename ExecSpace::scratch_memory_space,
                                Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

  RowBlock<ExecSpace, T> rows;
  std::int64_t first;   // d's row of rows(0, .)
  std::int64_t offset;  // the accumulators' index of rows(0, .)
  std::int64_t vertices;
  Kokkos::View<T*, memory_space> most, least;
  Kokkos::View<DistanceSum<T>*, memory_space> sum;
  Kokkos::View<std::int64_t*, memory_space> count;

  static std::size_t scratch_bytes(int team) { return Partials::shmem_size(team); }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const std::int64_t i = team.league_rank(), row = first + i;
    const int t = team.team_rank(), size = team.team_size();
    Partial p{T(0), Distance<T>::infinity, DistanceSum<T>(0), 0};
    for (std::int64_t j = t; j < vertices; j += size) {
      const T d = rows(i, j);
      if (d == Distance<T>::infinity) continue;
      p.most = d > p.most ? d : p.most;
      if (j != row && d < p.least) p.least = d;
      p.sum += DistanceSum<T>(d);
      ++p.count;
    }
    Partials partials(team.team_scratch(0), size);
    partials(t) = p;
    team.team_barrier();
    if (t == 0) {
      Partial all = partials(0);
      for (int k = 1; k < size; ++k) {
        const Partial& q = partials(k);
        all.most = q.most > all.most ? q.most : all.most;
        all.least = q.least < all.least ? q.least : all.least;
        all.sum += q.sum;
        all.count += q.count;
      }
      most(offset + i) = all.most;
      least(offset + i) = all.least;
      sum(offset + i) = all.sum;
      count(offset + i) = all.count;
    }
  }
};

template <class ExecSpace, class T>
struct ColumnTotals {
  using memory_space = typename ExecSpace::memory_space;
  RowBlock<ExecSpace, T> rows;
  std::int64_t count_rows;
  std::int64_t vertices;
  std::int64_t chunk;  // columns per work item
  Kokkos::View<T*, memory_space> most;
  Kokkos::View<DistanceSum<T>*, memory_space> sum;
  Kokkos::View<std::int64_t*, memory_space> count;
  Kokkos::View<HarmonicSum<T>*, memory_space> harmonic;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t item) const {
    const std::int64_t from = item * chunk;
    const std::int64_t to = from + chunk < vertices ? from + chunk : vertices;
    if (chunk == 1) {  // a column a thread (GPUs): its totals in registers
      T m = most(from);
      DistanceSum<T> s = sum(from);
      std::int64_t c = count(from);
      HarmonicSum<T> h = harmonic(from);
      for (std::int64_t i = 0; i < count_rows; ++i) {
        const T d = rows(i, from);
        if (d == Distance<T>::infinity) continue;
        m = d > m ? d : m;
        s += DistanceSum<T>(d);
        ++c;
        if (d != T(0)) add_harmonic<T>(h, d);
      }
      most(from) = m;
      sum(from) = s;
      count(from) = c;
      harmonic(from) = h;
      return;
    }
    for (std::int64_t i = 0; i < count_rows; ++i)  // row by row: the chunk's totals in cache
      for (std::int64_t j = from; j < to; ++j) {
        const T d = rows(i, j);
        if (d == Distance<T>::infinity) continue;
        if (d > most(j)) most(j) = d;
        sum(j) += DistanceSum<T>(d);
        ++count(j);
        if (d != T(0)) add_harmonic<T>(harmonic(j), d);
      }
  }
};

// The bin of a distance: int32 exactly, (d - low) bins / (high - low) rounded down; the floats
// in double; both clamped to the bins.
template <class T>
struct Binning {
  int bins;
  double low, high;

  KOKKOS_INLINE_FUNCTION int operator()(T d) const {
    std::int64_t b = 0;
    if constexpr (std::is_integral<T>::value) {
      // floor(x bins / width), exactly: a guess in double, then corrected by products (a 64-bit
      // division costs tens of cycles an element).
      const std::int64_t lo = std::int64_t(low), width = std::int64_t(high) - lo;
      if (width > 0) {
        const std::int64_t x = (std::int64_t(d) - lo) * bins;
        b = std::int64_t(double(x) / double(width));
        while (b * width > x)
          --b;
        while ((b + 1) * width <= x)
          ++b;
      }
    } else {
      const double width = high - low;
      // d >= low: truncation rounds down.
      b = width > 0 ? std::int64_t((double(d) - low) / width * bins) : 0;
    }
    return int(b < 0 ? 0 : b >= bins ? bins - 1 : b);
  }
};

template <class ExecSpace, class T>
struct RowHistogram {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using Counts = Kokkos::View<std::int64_t*, typename ExecSpace::scratch_memory_space,
                              Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  RowBlock<ExecSpace, T> rows;
  std::int64_t first;
  std::int64_t vertices;
  Binning<T> bin;
  Kokkos::View<std::int64_t*, typename ExecSpace::memory_space> histogram;

  static std::size_t scratch_bytes(int bins) { return Counts::shmem_size(bins); }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const std::int64_t i = team.league_rank(), row = first + i;
    const int t = team.team_rank(), size = team.team_size();
    Counts counts(team.team_scratch(0), bin.bins);
    for (int b = t; b < bin.bins; b += size)
      counts(b) = 0;
    team.team_barrier();
    for (std::int64_t j = t; j < vertices; j += size) {
      const T d = rows(i, j);
      if (d == Distance<T>::infinity || j == row) continue;
      if (size == 1)
        ++counts(bin(d));
      else
        Kokkos::atomic_add(&counts(bin(d)), std::int64_t(1));
    }
    team.team_barrier();
    for (int b = t; b < bin.bins; b += size)
      if (counts(b) != 0) Kokkos::atomic_add(&histogram(b), counts(b));
  }
};

}  // namespace detail
}  // namespace apsp
