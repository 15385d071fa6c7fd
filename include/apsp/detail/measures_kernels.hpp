// The kernels of measures.hpp: a block of distance rows reduced where it lies (a device's
// memory for GPU backends), in an order fixed by the rows alone, so that every sum of floats is
// the same every run: no atomics on floats.
//
//   RowTotals     a team per row: its max, its least off-diagonal value, its sum and its
//                 reachable count (the out-measures), each thread's share combined in thread
//                 order; with a Binning also its histogram, counted in the team's scratch, then
//                 added to the graph's (integer atomics: exact in any order)
//   ColumnTotals  a thread per column (a chunk of columns on host backends, which stay in cache):
//                 the block's rows in order into the column's running max, sum, count and
//                 harmonic sum (the in-measures): each column's sum sees the rows of the rank in
//                 row order, whatever the blocks
#pragma once

#include <apsp/detail/staging.hpp>
#include <apsp/distance.hpp>
#include <apsp/graph_measures.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstring>
#include <limits>
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
    add(l, h);
  }

  // The same term for 1 <= a < 2^31 as two parts, term = high_part 2^42 + low_part with
  // high_part < 2^43 and low_part < 2^42: 2^20 of each sum in 64 bits without a carry.
  static constexpr int split = 42;
  KOKKOS_INLINE_FUNCTION static void reciprocal_parts(int a, std::int64_t& high_part,
                                                      std::int64_t& low_part) {
    const double r = 1.0 / double(a);
    std::uint64_t bits;
    std::memcpy(&bits, &r, sizeof bits);
    const std::uint64_t m = (bits & ((std::uint64_t(1) << 52) - 1)) | (std::uint64_t(1) << 52);
    const std::uint64_t shift = ((bits >> 52) & 0x7ff) - 1023 + 32;
    low_part = std::int64_t((m << shift) & ((std::uint64_t(1) << split) - 1));
    high_part = std::int64_t(m >> (split - shift));
  }

  // The term of 1 / |d| as reciprocal_parts' two parts, negated for d < 0 (d = 0 reads as 1).
  KOKKOS_FORCEINLINE_FUNCTION static void signed_parts(int d, std::int64_t& high_part,
                                                       std::int64_t& low_part) {
    const int negative = d >> 31;  // all ones or 0
    int a = (d ^ negative) - negative;
    a += a == 0;
    reciprocal_parts(a, high_part, low_part);
    const std::int64_t minus = negative;
    high_part = (high_part ^ minus) - minus;
    low_part = (low_part ^ minus) - minus;
  }

  // hh and hl, sums of reciprocal_parts' two parts, plus the term of 1 / |d| where `use` (0 or 1)
  // and d != 0, minus it for d < 0: masks, not branches, so that the loops calling it vectorize.
  KOKKOS_FORCEINLINE_FUNCTION static void add_parts_if(std::int64_t use, int d, std::int64_t& hh,
                                                       std::int64_t& hl) {
    std::int64_t high_part, low_part;
    signed_parts(d, high_part, low_part);
    const std::int64_t mask = -(use & (d != 0));
    hh += high_part & mask;
    hl += low_part & mask;
  }

  // Adds x 2^by (x signed, 0 < by < 64).
  KOKKOS_INLINE_FUNCTION void add_shifted(std::int64_t x, int by) {
    add(std::uint64_t(x) << by, std::uint64_t(x >> (64 - by)));
  }

  // Adds x 2^by (x >= 0, 0 <= by < 128; the bits shifted past 2^128 are none of a sum's).
  KOKKOS_INLINE_FUNCTION void add_unsigned(std::uint64_t x, int by) {
    if (by == 0)
      add(x, 0);
    else if (by < 64)
      add(x << by, x >> (64 - by));
    else
      add(0, x << (by - 64));
  }

  // Adds high_part 2^42 + low_part (each signed).
  KOKKOS_INLINE_FUNCTION void add_parts(std::int64_t high_part, std::int64_t low_part) {
    add(std::uint64_t(high_part) << split, std::uint64_t(high_part >> (64 - split)));
    add(std::uint64_t(low_part), low_part < 0 ? ~std::uint64_t(0) : std::uint64_t(0));
  }

 private:
  KOKKOS_INLINE_FUNCTION void add(std::uint64_t l, std::uint64_t h) {
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

// The bin of a distance: int32 exactly, (d - low) bins / (high - low) rounded down; the floats
// in double; both clamped to the bins. bins = 0: no histogram.
template <class T>
struct Binning {
  int bins = 0;
  double low = 0, high = 0;
  double up = 0;  // int32: bins / width a little too large (width: high - low in integers)

  Binning() = default;
  Binning(int bins_, double low_, double high_) : bins(bins_), low(low_), high(high_) {
    const double width = double(std::int64_t(high_)) - double(std::int64_t(low_));
    up = width > 0 ? bins_ / width * (1 + 0x1p-50) : 0;
  }

  KOKKOS_INLINE_FUNCTION int operator()(T d) const {
    if constexpr (std::is_integral<T>::value) {
      // floor(q) for q = (d - low) bins / width, exactly, as one product truncated (no division,
      // no correction: the loop of bins vectorizes, RowTotals::host_row): up = bins / width made
      // about 2^-50 too large, so x0 up is above q by less than q 2^-49. Where q < 2^13
      // (bins <= max_histogram_bins: the rest clamp alike), that is below 2^-36, and q is either
      // an integer (the product rounds down to it) or at least 1 / width > 2^-32 below the next.
      const double x0 = double(d) - double(std::int64_t(low));
      double g = x0 * up;
      g = g > 0 ? g : 0.0;
      g = g < double(bins - 1) ? g : double(bins - 1);
      return int(std::int64_t(g));
    } else {
      const double width = high - low;
      // d >= low: truncation rounds down.
      const std::int64_t b = width > 0 ? std::int64_t((double(d) - low) / width * bins) : 0;
      return int(b < 0 ? 0 : b >= bins ? bins - 1 : b);
    }
  }
};

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
  using Counts = Kokkos::View<std::int64_t*, typename ExecSpace::scratch_memory_space,
                              Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using OwnCounts = Kokkos::View<std::int32_t*, typename ExecSpace::scratch_memory_space,
                                 Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

  // GPUs: up to this many bins each thread counts its row's share in its own bins in scratch
  // (bin b of thread t at b x team + t: no two threads of a warp on one bank, no atomics); more
  // bins are shared by the team, counted with atomics, which collide where neighbouring columns
  // fall in one bin (a road's rows: most of them).
  static constexpr int most_own_bins = 64;
  static constexpr int own_bins_team = 128;  // 32 KiB of int32 counts at 64 bins
  KOKKOS_INLINE_FUNCTION static bool own_counts(int team, int bins) {
    return !host_memory<ExecSpace> && bins > 0 && bins <= most_own_bins && team <= own_bins_team;
  }

  RowBlock<ExecSpace, T> rows;
  std::int64_t first;   // d's row of rows(0, .)
  std::int64_t offset;  // the accumulators' index of rows(0, .)
  std::int64_t vertices;
  Kokkos::View<T*, memory_space> most, least;
  Kokkos::View<DistanceSum<T>*, memory_space> sum;
  Kokkos::View<std::int64_t*, memory_space> count;
  Binning<T> bin;  // bins = 0: no histogram
  Kokkos::View<std::int64_t*, memory_space> histogram;
  // The scratch level of the counts: 0 where scratch_bytes fits the backend's level-0 room, else 1
  // (Kokkos 4 and later give a host team 32 KiB of level 0: 4,096 bins of four copies do not fit).
  int level = 0;

  static std::size_t scratch_bytes(int team, int bins) {
    if (host_memory<ExecSpace> && team == 1) return Counts::shmem_size(4 * (bins + 1));
    if (own_counts(team, bins))
      return Partials::shmem_size(team) + OwnCounts::shmem_size(std::size_t(bins) * team);
    return Partials::shmem_size(team) + Counts::shmem_size(bins);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    if constexpr (host_memory<ExecSpace>) {
      if (team.team_size() == 1) return host_row(team);
    }
    const std::int64_t i = team.league_rank(), row = first + i;
    const int t = team.team_rank(), size = team.team_size();
    const bool own = own_counts(size, bin.bins);
    Partials partials(team.team_scratch(level), size);
    Counts counts(team.team_scratch(level), own ? 0 : bin.bins);
    OwnCounts own_bins(team.team_scratch(level), own ? std::size_t(bin.bins) * size : 0);
    if (own) {
      for (int b = 0; b < bin.bins; ++b)
        own_bins(std::size_t(b) * size + t) = 0;
    } else if (bin.bins > 0) {
      for (int b = t; b < bin.bins; b += size)
        counts(b) = 0;
      team.team_barrier();
    }
    Partial p{T(0), Distance<T>::infinity, DistanceSum<T>(0), 0};
    for (std::int64_t j = t; j < vertices; j += size) {
      const T d = rows(i, j);
      if (d == Distance<T>::infinity) continue;
      p.most = d > p.most ? d : p.most;
      p.sum += DistanceSum<T>(d);
      ++p.count;
      if (j == row) continue;
      if (d < p.least) p.least = d;
      if (bin.bins == 0) continue;
      if (own)
        ++own_bins(std::size_t(bin(d)) * size + t);
      else if (size == 1)
        ++counts(bin(d));
      else
        Kokkos::atomic_add(&counts(bin(d)), std::int64_t(1));
    }
    partials(t) = p;
    team.team_barrier();
    if (own) {  // bin b: the team's counts summed by thread b (and b + size, ...)
      for (int b = t; b < bin.bins; b += size) {
        std::int64_t c = 0;
        for (int k = 0; k < size; ++k)
          c += own_bins(std::size_t(b) * size + k);
        if (c != 0) Kokkos::atomic_add(&histogram(b), c);
      }
    }
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
    if (!own)
      for (int b = t; b < bin.bins; b += size)
        if (counts(b) != 0) Kokkos::atomic_add(&histogram(b), counts(b));
  }

  // Host backends, a row a thread: the totals in loops without branches (they vectorize: an
  // entry not reached is the type's largest value, which lowers no least), then the bins of
  // `step` entries at a time (vectorized) counted into four interleaved copies (a run of one bin
  // does not wait on its own stores), the entries not counted into bin `bins`.
  KOKKOS_INLINE_FUNCTION void host_row(const Member& team) const {
    const std::int64_t i = team.league_rank(), row = first + i;
    const T* r = &rows(i, 0);
    const T inf = Distance<T>::infinity;
    T row_most = T(0), row_least = inf;
    DistanceSum<T> row_sum = 0;
    std::int64_t row_count = 0;
    const auto add = [&](std::int64_t from, std::int64_t to) {
      T m = row_most, l = row_least;
      DistanceSum<T> s = row_sum;
      std::int64_t c = row_count;
      for (std::int64_t j = from; j < to; ++j) {
        const T d = r[j];
        const bool reached = d != inf;
        const T kept = reached ? d : T(0);
        m = m > kept ? m : kept;
        l = l < d ? l : d;
        s += DistanceSum<T>(kept);
        c += reached;
      }
      row_most = m, row_least = l, row_sum = s, row_count = c;
    };
    add(0, row);
    add(row + 1, vertices);
    const T least_off_diagonal = row_least;
    add(row, row + 1);  // the diagonal: in every total but the least
    most(offset + i) = row_most;
    least(offset + i) = least_off_diagonal;
    sum(offset + i) = row_sum;
    count(offset + i) = row_count;
    if (bin.bins == 0) return;
    constexpr int step = 256, copies = 4;
    const int nb = bin.bins;
    const std::size_t stride = std::size_t(nb + 1);
    Counts counts(team.team_scratch(level), std::size_t(copies) * stride);
    for (std::size_t b = 0; b < copies * stride; ++b)
      counts(b) = 0;
    int bins[step];
    const Binning<T> binning = bin;  // in registers for the loop
    for (std::int64_t from = 0; from < vertices; from += step) {
      const int n = int(vertices - from < step ? vertices - from : step);
      for (int k = 0; k < n; ++k) {
        const T d = r[from + k];
        const bool counted = d != inf && from + k != row;
        // The count's place, copy and bin, made here where it vectorizes.
        const int copy = (k % copies) * int(stride);
        if constexpr (std::is_integral<T>::value) {
          const int b = binning(d);  // of every entry, then chosen: no branch, it vectorizes
          bins[k] = copy + (counted ? b : nb);
        } else {
          bins[k] = copy + (counted ? binning(d) : nb);  // not of infinity
        }
      }
      std::int64_t* c = counts.data();
      for (int k = 0; k < n; ++k)
        ++c[bins[k]];
    }
    for (int b = 0; b < nb; ++b) {
      std::int64_t c = 0;
      for (int copy = 0; copy < copies; ++copy)
        c += counts(std::size_t(copy) * stride + std::size_t(b));
      if (c != 0) Kokkos::atomic_add(&histogram(b), c);
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

  // Host backends: columns a work item.
  static constexpr std::int64_t host_chunk = 1024;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t item) const {
    const std::int64_t from = item * chunk;
    const std::int64_t to = from + chunk < vertices ? from + chunk : vertices;
    if constexpr (host_memory<ExecSpace> && std::is_integral<T>::value) {
      if (chunk == host_chunk) return int_chunk(from, to);
    }
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

  // int32 on a host backend: the chunk's totals in local arrays, branch-free, the harmonic terms
  // in two 64-bit parts (FixedSum::reciprocal_parts) folded into the 128-bit sums every 2^20
  // rows: the loop over the chunk vectorizes where the target has the instructions.
  KOKKOS_INLINE_FUNCTION void int_chunk(std::int64_t from, std::int64_t to) const {
    const std::int64_t n = to - from;
    T m[host_chunk];
    std::int64_t s[host_chunk], c[host_chunk], hh[host_chunk], hl[host_chunk];
    for (std::int64_t j = 0; j < n; ++j) {
      m[j] = most(from + j);
      s[j] = sum(from + j);
      c[j] = count(from + j);
    }
    constexpr std::int64_t fold = std::int64_t(1) << 20;
    for (std::int64_t first = 0; first < count_rows; first += fold) {
      for (std::int64_t j = 0; j < n; ++j)
        hh[j] = hl[j] = 0;
      const std::int64_t last = first + fold < count_rows ? first + fold : count_rows;
      for (std::int64_t i = first; i < last; ++i) {
        const T* row = &rows(i, from);
        for (std::int64_t j = 0; j < n; ++j) {  // masks, not branches: it vectorizes
          const T d = row[j];
          const std::int64_t reached = d != Distance<T>::infinity;
          const T m_j = m[j];
          m[j] = reached && d > m_j ? d : m_j;
          s[j] += std::int64_t(d) & -reached;
          c[j] += reached;
          FixedSum::add_parts_if(reached, d, hh[j], hl[j]);
        }
      }
      for (std::int64_t j = 0; j < n; ++j)
        harmonic(from + j).add_parts(hh[j], hl[j]);
    }
    for (std::int64_t j = 0; j < n; ++j) {
      most(from + j) = m[j];
      sum(from + j) = s[j];
      count(from + j) = c[j];
    }
  }
};

// The harmonic term of an int32 distance (FixedSum's units, 2^-84) in three signed limbs of 29
// bits, term = l0 + l1 2^29 + l2 2^58 (each below 2^29 in magnitude: 2^31 of them stay below
// 2^60), so that partial sums add up exactly in 64-bit integers, whatever their order (atomics).
struct HarmonicLimbs {
  std::int64_t l0 = 0, l1 = 0, l2 = 0;

  // The term of 1 / |d| (FixedSum's units, below 2^85) as its low and high 64 bits (d = 0 reads
  // as 1).
  KOKKOS_INLINE_FUNCTION static void term(int d, std::uint64_t& low, std::uint64_t& high) {
    const int negative = d >> 31;  // all ones or 0
    int a = (d ^ negative) - negative;
    a += a == 0;
    const double r = 1.0 / double(a);
    std::uint64_t bits;
    std::memcpy(&bits, &r, sizeof bits);
    const std::uint64_t m = (bits & ((std::uint64_t(1) << 52) - 1)) | (std::uint64_t(1) << 52);
    const std::uint64_t shift = ((bits >> 52) & 0x7ff) - 1023 + 32;  // in [1, 32]
    low = m << shift, high = m >> (64 - shift);
  }
  // Adds (or, `negative`, subtracts) the term low + high 2^64 where `use`.
  KOKKOS_INLINE_FUNCTION void add_term_if(bool use, bool negative, std::uint64_t low,
                                          std::uint64_t high) {
    const std::uint64_t mask = (1u << 29) - 1;
    const std::int64_t sign = use ? (negative ? -1 : 1) : 0;
    l0 += sign * std::int64_t(low & mask);
    l1 += sign * std::int64_t((low >> 29) & mask);
    l2 += sign * std::int64_t((low >> 58) | (high << 6));
  }
  // Adds the limbs' sum to a FixedSum (exactly).
  KOKKOS_INLINE_FUNCTION void add_to(FixedSum& sum) const {
    sum.add_parts(0, l0);
    sum.add_shifted(l1, 29);
    sum.add_shifted(l2, 58);
  }
};

// A GPU warp's (an AMD wavefront's) sum and maximum of one value a thread, which every thread
// of the warp gets; called by every thread of a whole warp alike. On host backends a team's
// thread is its own warp: the value itself. NVIDIA GPUs from sm_80 do each in one instruction.
KOKKOS_INLINE_FUNCTION int warp_size() {
#if defined(__CUDA_ARCH__)
  return 32;
#elif defined(__HIP_DEVICE_COMPILE__)
  return warpSize;
#else
  return 1;
#endif
}
KOKKOS_INLINE_FUNCTION std::uint32_t warp_sum(std::uint32_t x) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_add_sync(0xffffffffu, x);
#elif defined(__CUDA_ARCH__)
  for (int lane = 16; lane > 0; lane /= 2)
    x += __shfl_xor_sync(0xffffffffu, x, lane);
  return x;
#elif defined(__HIP_DEVICE_COMPILE__)
  for (int lane = warpSize / 2; lane > 0; lane /= 2)
    x += __shfl_xor(x, lane);
  return x;
#else
  return x;
#endif
}
KOKKOS_INLINE_FUNCTION int warp_max(int x) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_max_sync(0xffffffffu, x);
#elif defined(__CUDA_ARCH__)
  for (int lane = 16; lane > 0; lane /= 2) {
    const int y = __shfl_xor_sync(0xffffffffu, x, lane);
    x = y > x ? y : x;
  }
  return x;
#elif defined(__HIP_DEVICE_COMPILE__)
  for (int lane = warpSize / 2; lane > 0; lane /= 2) {
    const int y = __shfl_xor(x, lane);
    x = y > x ? y : x;
  }
  return x;
#else
  return x;
#endif
}

// A column's share of the mirrored pairs (half rows: MeasureColumns) from some rows: nonnegative
// int32 distances, each in 16-bit halves, and their harmonic terms in four pieces of 22 bits
// (term = sum of piece(p) 2^(22 p), below 2^85), so that the shares of up to 1,024 rows (a host
// thread's vectors of rows, or a GPU warp's one row a thread) add up in 32-bit integers: a warp
// sums them in a few instructions, and the column's totals take them by integer atomics, exact
// in any order.
struct MirrorShare {
  static constexpr int piece_bits = 22, pieces = 4;
  std::uint32_t low = 0, high = 0, count = 0;  // sum of d = low + high 2^16
  std::uint32_t piece[pieces] = {0, 0, 0, 0};
  int most = 0;

  // d where `use`, its term (low + high 2^64) where `use` and `with_term` (d > 0).
  KOKKOS_INLINE_FUNCTION void add_if(bool use, bool with_term, int d, std::uint64_t term_low,
                                     std::uint64_t term_high) {
    const std::uint32_t mask = (1u << piece_bits) - 1;
    std::uint32_t u = use ? 1u : 0u;
    low += u * (std::uint32_t(d) & 0xffffu);
    high += u * (std::uint32_t(d) >> 16);
    count += u;
    most = use && d > most ? d : most;
    u = use && with_term ? 1u : 0u;
    piece[0] += u * (std::uint32_t(term_low) & mask);
    piece[1] += u * (std::uint32_t(term_low >> piece_bits) & mask);
    piece[2] += u * (std::uint32_t((term_low >> (2 * piece_bits)) | (term_high << 20)) & mask);
    piece[3] += u * (std::uint32_t(term_high >> 2) & mask);
  }
  KOKKOS_INLINE_FUNCTION void warp_reduce() {
    low = warp_sum(low), high = warp_sum(high), count = warp_sum(count);
    for (int p = 0; p < pieces; ++p)
      piece[p] = warp_sum(piece[p]);
    most = warp_max(most);
  }
};

// Host backends add the mirrored pairs' shares under a lock of each window of this many columns of
// the plan's order (MeasureColumns::host_finished): mirror_locks(V) of them.
constexpr int mirror_window = 64;
inline std::int64_t mirror_locks(std::int64_t vertices) {
  return (vertices + mirror_window - 1) / mirror_window;
}

// A piece of the mirrored pairs' harmonic sums into a column's (integer distances only: the
// floats' rows are never made in halves).
KOKKOS_INLINE_FUNCTION void add_piece(FixedSum& sum, std::int64_t piece, int by) {
  sum.add_unsigned(std::uint64_t(piece), by);
}
KOKKOS_INLINE_FUNCTION void add_piece(double&, std::int64_t, int) {}

// The measures of a block of rows reduced from the columns a solver finishes as it makes them
// (the supernodal row sweeps' destination: supernodal_kernels.hpp), for integer distances, whose
// every total is exact, so the order in which the columns come does not matter: the bytes are
// RowTotals' and ColumnTotals' on whole rows. Each lane reduces its own row, in registers, with
// nothing shared between rows but the histogram: a row's out-totals (and the histogram), or, on
// the rows of the reversed graph, its vertex's in-totals (a column of the graph's matrix is a row
// of the reversed graph's); where the graph is symmetric a row's totals are its vertex's in-totals
// too. The histogram: counted in the team's scratch, added to the graph's at the end. On host
// backends (a team of one thread) each lane counts into its own copy of the bins (bin_counts,
// host_finished); a team of many (GPUs) counts with atomics, and each thread first
// counts runs of one bin in a register: the rows of a team are neighbours in the plan's order and
// the columns of a supernode neighbours too, so most distances of a run share a bin, and every
// thread of a warp would otherwise hit the same bin at once. The team's counts are 64-bit
// unsigned, whose atomic add every GPU does in one instruction (Kokkos 3.4 compiles a signed
// 64-bit one to a compare-and-swap loop, which the colliding threads retried: docs/PERFORMANCE.md
// entry 50).
template <class ExecSpace, class T, int Item>
struct MeasureColumns {
  static_assert(std::is_integral<T>::value && sizeof(T) == 4, "exact totals: int32 distances");
  using member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using memory_space = typename ExecSpace::memory_space;
  template <class X>
  using ids = Kokkos::View<X*, memory_space>;
  template <class X>
  using Scratch = Kokkos::View<X*, typename ExecSpace::scratch_memory_space,
                               Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  static constexpr bool host = host_memory<ExecSpace>;
  static constexpr int level = host ? 1 : 0;  // of the team's scratch: GPUs' shared memory
  static constexpr T lowest = std::numeric_limits<T>::lowest();
  using Count = unsigned long long;

  // A lane's totals so far. They wait in the team's scratch between a thread's supernodes and
  // are in registers only while finished() adds a supernode's columns: held through the sweeps'
  // products they took a GPU thread from 64 registers to 80, or spilled inside the products under
  // a bound of 64 (docs/PERFORMANCE.md entry 54).
  struct Lane {
    std::int64_t sum, count;
    HarmonicLimbs harmonic;
    Count run;    // a team of many: the length of the lane's current run of one bin ...
    int run_bin;  // ... and its bin, not yet in bins
    T most, least;
    std::int32_t index;  // the block's row of the lane, -1: a spare slot
  };
  struct State {
    Lane* lane;   // the thread's Item lanes
    Count* bins;  // the team's
  };

  Kokkos::View<const std::int32_t*, memory_space> perm;     // the plan's vertex -> the user's
  Kokkos::View<const std::int32_t*, memory_space> out_row;  // per slot, -1: spare
  std::int64_t row_offset = 0;                              // the row totals' index of out_row 0
  bool out = true;              // a row's out-totals and the histogram (else in-totals alone)
  bool in = false;              // a row's in-totals (the reversed graph's rows, or symmetric)
  bool histogram_only = false;  // the histogram alone (its second pass)
  // Half rows (a symmetric graph, nonnegative distances; RowSweeps::half): a row's sweep makes
  // the columns of its own supernode and those above it (in the plan's order) alone. A lane
  // takes column j of supernode s where its row's supernode is s or below (row < first(s + 1)),
  // and where below (row < first(s)) the pair (j, row) too, which row j never makes: the
  // histogram counts it twice and the column's in-totals get it in the mirror arrays (atomics,
  // each warp's share summed first: MirrorShare). Every pair is then taken once each way; the
  // rows' totals are the columns' (MeasureTotals::fold_mirror).
  bool half = false;
  // The mirror arrays in the plan's order (MeasureTotals::fold_mirror puts them in the user's),
  // column p's at p, piece q of its harmonic sum at q V + p: neighbouring columns at neighbouring
  // places (the user's order had scattered them: docs/PERFORMANCE.md entry 82); unsigned 64-bit,
  // whose atomic add GPUs do in one instruction (a signed one, a compare-and-swap loop with Kokkos
  // 3.4, took a million-vertex road's sweeps from 9.4 to 32.5 s: docs/PERFORMANCE.md entry 75).
  ids<Count> mirror_sum, mirror_count;
  ids<T> mirror_most;
  ids<Count> mirror_piece;
  // Host backends: a lock for each window of mirror_window columns of the plan's order, under
  // which host_finished adds a window's shares to the mirror arrays (0: free).
  ids<int> mirror_lock;
  Binning<T> bin;
  ids<std::int64_t> histogram;
  ids<T> row_most, row_least;
  ids<std::int64_t> row_sum, row_count;
  ids<T> column_most;
  ids<std::int64_t> column_sum, column_count;
  ids<FixedSum> harmonic;  // the columns' (in-totals)

  std::size_t scratch_bytes(int team) const {
    return Scratch<Lane>::shmem_size(std::size_t(team) * Item) +
           (out && bin.bins > 0 ? Scratch<Count>::shmem_size(bin_counts()) : 0);
  }
  // The team's bin counts: host backends keep a copy of the bins for each lane (lane e's bin b
  // at e bins + b: the rows of an item are neighbours, whose distances mostly fall in one bin,
  // and a single copy would make each count wait on the last one's store).
  KOKKOS_INLINE_FUNCTION std::size_t bin_counts() const {
    return std::size_t(bin.bins) * (host ? Item : 1);
  }

  KOKKOS_INLINE_FUNCTION void begin(const member& team, State& st, std::int64_t slot,
                                    const std::int32_t*) const {
    st.lane =
        Scratch<Lane>(team.team_scratch(int(level)), std::size_t(team.team_size()) * Item).data() +
        std::size_t(team.team_rank()) * Item;
    for (int e = 0; e < Item; ++e) {
      Lane& l = st.lane[e];
      l.sum = 0, l.count = 0, l.harmonic = HarmonicLimbs{}, l.run = 0, l.run_bin = 0;
      l.most = T(0), l.least = Distance<T>::infinity, l.index = out_row(slot + e);
    }
    st.bins = nullptr;
    if (!out || bin.bins == 0) return;
    st.bins = Scratch<Count>(team.team_scratch(int(level)), bin_counts()).data();
    for (std::size_t b = team.team_rank(); b < bin_counts(); b += team.team_size())
      st.bins[b] = 0;
    team.team_barrier();
  }

  // Masks, not branches: on host vectors the loops over the lanes vectorize.
  KOKKOS_INLINE_FUNCTION void finished(const member& team, State& st, std::int64_t,
                                       const std::int32_t* row, std::int32_t f, int c, const T* y,
                                       std::int64_t stride) const {
    if constexpr (host) return host_finished(st, row, f, c, y, stride);
    constexpr T inf = Distance<T>::infinity;
    Lane l[Item];
    bool own[Item], mirrored[Item];
    for (int e = 0; e < Item; ++e) {
      l[e] = st.lane[e];
      own[e] = !half || row[e] < f + c;
      mirrored[e] = half && row[e] < f && l[e].index >= 0;
    }
    const bool mirror = half && in;  // alike on every thread
    for (int k = 0; k < c; ++k) {
      const T* yk = y + k * stride;
      MirrorShare share;
      for (int e = 0; e < Item; ++e) {
        const T d = yk[e];
        const bool reached = own[e] && d != inf;
        const T kept = reached ? d : T(0);
        l[e].most = kept > l[e].most ? kept : l[e].most;
        l[e].sum += kept;
        l[e].count += reached;
        const bool off = reached && f + k != row[e];
        l[e].least = off && d < l[e].least ? d : l[e].least;
        if (in) {
          std::uint64_t low, high;
          HarmonicLimbs::term(d, low, high);
          l[e].harmonic.add_term_if(reached && d != T(0), d < 0, low, high);
          if (mirror) share.add_if(mirrored[e] && reached, d != T(0), d, low, high);
        }
      }
      if (mirror) {
        share.warp_reduce();
        if (team.team_rank() % warp_size() == 0 && share.count != 0) {
          const std::int64_t vertices = std::int64_t(perm.extent(0)), v = f + k;
          Kokkos::atomic_add(&mirror_sum(v), Count(share.low) + (Count(share.high) << 16));
          Kokkos::atomic_add(&mirror_count(v), Count(share.count));
          Kokkos::atomic_fetch_max(&mirror_most(v), T(share.most));
          for (int p = 0; p < MirrorShare::pieces; ++p)
            if (share.piece[p] != 0)
              Kokkos::atomic_add(&mirror_piece(p * vertices + v), Count(share.piece[p]));
        }
      }
      if (!st.bins) continue;
      for (int e = 0; e < Item; ++e) {
        const T d = yk[e];
        if (!own[e] || d == inf || l[e].index < 0 || f + k == row[e]) continue;
        const int b = bin(d);
        const Count times = mirrored[e] ? 2 : 1;
        if (team.team_size() == 1) {
          st.bins[b] += times;
        } else if (b == l[e].run_bin) {
          l[e].run += times;
        } else {
          if (l[e].run != 0) Kokkos::atomic_add(&st.bins[l[e].run_bin], l[e].run);
          l[e].run_bin = b, l[e].run = times;
        }
      }
    }
    for (int e = 0; e < Item; ++e)
      st.lane[e] = l[e];
  }

  // finished() on host backends: a team is one thread, its Item lanes a host vector's rows (or
  // one row). The same totals, in loops over the lanes that vectorize, each harmonic term made
  // once for the lane's sum and the mirrored pairs' share; a column's share summed over the lanes
  // and the shares of a window of columns added to the mirror arrays under the window's lock,
  // with plain adds (seven atomics a column an item had made these reductions five times the
  // sweeps' time: docs/PERFORMANCE.md entry 82); the histogram in the lanes' own bins.
  void host_finished(State& st, const std::int32_t* row, std::int32_t f, int c, const T* y,
                     std::int64_t stride) const {
    constexpr T inf = Distance<T>::infinity;
    constexpr std::uint64_t limb = (std::uint64_t(1) << 29) - 1;
    static_assert(FixedSum::split == 42, "the parts' split, add_window's shifts");
    T most[Item], least[Item];
    std::int64_t sum[Item], count[Item], h0[Item], h1[Item], h2[Item];
    std::int32_t own[Item], mirrored[Item], counted[Item];  // 0 or 1
    Count times[Item];
    bool any_mirrored = false;
    for (int e = 0; e < Item; ++e) {
      const Lane& l = st.lane[e];
      most[e] = l.most, least[e] = l.least, sum[e] = l.sum, count[e] = l.count;
      h0[e] = l.harmonic.l0, h1[e] = l.harmonic.l1, h2[e] = l.harmonic.l2;
      own[e] = !half || row[e] < f + c;
      mirrored[e] = half && row[e] < f && l.index >= 0;
      counted[e] = own[e] && l.index >= 0;
      times[e] = mirrored[e] ? 2 : 1;
      any_mirrored = any_mirrored || mirrored[e];
    }
    // The current window's shares, column f + k at k - k0, the harmonic terms' sum in two parts
    // (term = low part + high part 2^42: below 2^42 and 2^43).
    Count w_sum[mirror_window], w_count[mirror_window], w_part[2][mirror_window];
    T w_most[mirror_window];
    // Half rows (the mirror): each lane's terms of the window in the same two parts, added to its
    // limbs at the window's end (a window's 64 terms a lane stay far below 2^63): two sums an
    // entry, not three limbs.
    std::int64_t part_low[Item] = {}, part_high[Item] = {};
    int k0 = 0;
    const int nb = bin.bins;
    // The loop over the columns with `in` and the mirror known when compiled: no branch inside
    // the loop over the lanes, which then vectorizes.
    const auto columns = [&](auto with_in, auto with_mirror) {
      constexpr bool in_totals = decltype(with_in)::value, mirror = decltype(with_mirror)::value;
      for (int k = 0; k < c; ++k) {
        const T* yk = y + k * stride;
        Count s_sum = 0, s_count = 0, s0 = 0, s1 = 0;
        T s_most = T(0);
        for (int e = 0; e < Item; ++e) {
          const T d = yk[e];
          const std::int32_t reached = own[e] & (d != inf);
          const T kept = d & -reached;
          most[e] = kept > most[e] ? kept : most[e];
          sum[e] += kept;
          count[e] += reached;
          const std::int32_t lower = reached & (f + k != row[e]) & (d < least[e]);
          least[e] = lower ? d : least[e];
          if constexpr (in_totals) {
            const std::int64_t use = -std::int64_t(reached & (d != T(0)));
            if constexpr (mirror) {  // half rows: d >= 0 (no negative weight), no sign
              // The term's two parts, made from 1 / d at once.
              std::int64_t high_part, low_part;
              FixedSum::reciprocal_parts(d + T(d == T(0)), high_part, low_part);
              const std::uint64_t p0 = std::uint64_t(low_part), p1 = std::uint64_t(high_part);
              part_low[e] += std::int64_t(p0) & use;
              part_high[e] += std::int64_t(p1) & use;
              const Count u = Count(mirrored[e] & reached), t = -(u & Count(d != T(0)));
              s_sum += Count(kept) & -u;
              s_count += u;
              const T m = d & -T(u);
              s_most = m > s_most ? m : s_most;
              s0 += p0 & t, s1 += p1 & t;
            } else {
              std::uint64_t low, high;
              HarmonicLimbs::term(d, low, high);
              const std::int64_t negative = d >> 31;
              // +-(x & use): x where used, negated for d < 0, else 0
              const auto signed_part = [&](std::uint64_t x) {
                return ((std::int64_t(x) & use) ^ negative) - negative;
              };
              const std::uint64_t l0 = low & limb, l1 = (low >> 29) & limb,
                                  l2 = (low >> 58) | (high << 6);
              h0[e] += signed_part(l0);
              h1[e] += signed_part(l1);
              h2[e] += signed_part(l2);
            }
          }
        }
        if constexpr (mirror) {
          const int w = k - k0;
          w_sum[w] = s_sum, w_count[w] = s_count, w_most[w] = s_most;
          w_part[0][w] = s0, w_part[1][w] = s1;
          if (k + 1 == c || (f + k + 1) % mirror_window == 0) {
            add_window(f + k0, k - k0 + 1, w_sum, w_count, w_most, w_part);
            k0 = k + 1;
            // The lanes' parts into their limbs: low part = l0 + l1 2^29, high part 2^42 =
            // l1 2^29 + l2 2^58 (HarmonicLimbs: their sums stay below 2^63, being the parts' sums
            // cut up).
            for (int e = 0; e < Item; ++e) {
              h0[e] += part_low[e] & std::int64_t(limb);
              h1[e] += (part_low[e] >> 29) + ((part_high[e] & 0xffff) << 13);
              h2[e] += part_high[e] >> 16;
              part_low[e] = 0, part_high[e] = 0;
            }
          }
        }
        if (!st.bins) continue;
        std::int32_t at[Item];  // below Item max_histogram_bins
        Count add[Item];
        // Every lane's bin (no branch: it vectorizes), then the counts it adds.
        for (int e = 0; e < Item; ++e) {
          const T d = yk[e];
          at[e] = e * nb + bin(d);
          add[e] = times[e] & -Count(counted[e] & (d != inf) & (f + k != row[e]));
        }
        for (int e = 0; e < Item; ++e)
          st.bins[at[e]] += add[e];
      }
    };
    if (!in)
      columns(std::false_type{}, std::false_type{});
    else if (half && any_mirrored)
      columns(std::true_type{}, std::true_type{});
    else
      columns(std::true_type{}, std::false_type{});
    for (int e = 0; e < Item; ++e) {
      Lane& l = st.lane[e];
      l.most = most[e], l.least = least[e], l.sum = sum[e], l.count = count[e];
      l.harmonic.l0 = h0[e], l.harmonic.l1 = h1[e], l.harmonic.l2 = h2[e];
    }
  }

  // The shares of the plan's columns [first, first + n), within one window, into the mirror
  // arrays, under the window's lock: a harmonic sum in two parts (low + high 2^42) is put in
  // MirrorShare's pieces of 22 (the last one taking every bit from 66 on; fold_mirror adds each
  // at its place).
  void add_window(std::int32_t first, int n, const Count* w_sum, const Count* w_count,
                  const T* w_most, const Count (*w_part)[mirror_window]) const {
    constexpr int bits = MirrorShare::piece_bits;
    static_assert(MirrorShare::pieces == 4 && 3 * bits == 66, "");
    constexpr std::uint64_t piece = (std::uint64_t(1) << bits) - 1;
    int& lock = mirror_lock(first / mirror_window);
    while (Kokkos::atomic_compare_exchange(&lock, 0, 1) != 0) {
    }
    const std::int64_t vertices = std::int64_t(perm.extent(0));
    for (int w = 0; w < n; ++w) {
      if (w_count[w] == 0) continue;
      const std::int64_t v = first + w;
      mirror_sum(v) += w_sum[w];
      mirror_count(v) += w_count[w];
      mirror_most(v) = w_most[w] > mirror_most(v) ? w_most[w] : mirror_most(v);
      FixedSum h;
      h.add_unsigned(w_part[0][w], 0);
      h.add_unsigned(w_part[1][w], 42);
      mirror_piece(v) += h.low & piece;
      mirror_piece(vertices + v) += (h.low >> bits) & piece;
      mirror_piece(2 * vertices + v) +=
          ((h.low >> (2 * bits)) | (h.high << (64 - 2 * bits))) & piece;
      mirror_piece(3 * vertices + v) += h.high >> (3 * bits - 64);
    }
    Kokkos::memory_fence();
    Kokkos::atomic_exchange(&lock, 0);
  }

  // A row of `split` threads: the first group's thread adds up the row's lanes (exact in any
  // order) and writes its totals.
  KOKKOS_INLINE_FUNCTION void end(const member& team, State& st, std::int64_t,
                                  const std::int32_t* row, const T*, std::int64_t,
                                  int split) const {
    const int rows = team.team_size() / split;
    if (split > 1) team.team_barrier();  // every group's lanes are done
    for (int e = 0; e < Item && team.team_rank() < rows; ++e) {
      Lane l = st.lane[e];
      for (int g = 1; g < split; ++g) {
        const Lane& o = st.lane[std::size_t(g) * rows * Item + e];
        l.sum += o.sum, l.count += o.count;
        l.harmonic.l0 += o.harmonic.l0, l.harmonic.l1 += o.harmonic.l1;
        l.harmonic.l2 += o.harmonic.l2;
        l.most = o.most > l.most ? o.most : l.most;
        l.least = o.least < l.least ? o.least : l.least;
      }
      if (l.index < 0 || histogram_only) continue;
      const std::int64_t i = row_offset + l.index;
      if (out) {
        row_most(i) = l.most, row_least(i) = l.least;
        row_sum(i) = l.sum, row_count(i) = l.count;
      }
      if (in) {  // the vertex's column: its most, sum and count over every row are this row's
        const std::int32_t v = perm(row[e]);
        column_most(v) = l.most, column_sum(v) = l.sum, column_count(v) = l.count;
        FixedSum h;
        l.harmonic.add_to(h);
        harmonic(v) = h;
      }
    }
    if (!st.bins) return;
    if constexpr (host) {  // the lanes' copies (bin_counts)
      for (int b = 0; b < bin.bins; ++b) {
        Count sum = 0;
        for (int e = 0; e < Item; ++e)
          sum += st.bins[std::size_t(e) * bin.bins + b];
        if (sum != 0) Kokkos::atomic_add(&histogram(b), std::int64_t(sum));
      }
      return;
    }
    for (int e = 0; e < Item; ++e)
      if (st.lane[e].run != 0) Kokkos::atomic_add(&st.bins[st.lane[e].run_bin], st.lane[e].run);
    team.team_barrier();
    for (int b = team.team_rank(); b < bin.bins; b += team.team_size())
      if (st.bins[b] != 0) Kokkos::atomic_add(&histogram(b), std::int64_t(st.bins[b]));
  }
};
}  // namespace detail
}  // namespace apsp
