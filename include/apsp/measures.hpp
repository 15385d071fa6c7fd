// apsp::graph_measures: eccentricities, closeness and harmonic centrality, the diameter, radius,
// center, periphery, average shortest-path length, Wiener index and distance histogram of a
// graph (graph_measures.hpp), reduced from its distance rows where a solver makes them: on a GPU
// the rows never leave it, and memory beyond the solver's is O(V).
//
// One pass over the rows, a call of `pass` with a DeviceRowSink (row_sink.hpp) that the caller
// hands to its solver (Solver::reduce_rows, SupernodalSolver::reduce_rows, the application's
// SsspSolver): every row's totals (out-measures), every column's (in-measures: each block's rows
// in order into the column's running totals) and the histogram. The histogram's bins span
// [min(0, least distance), diameter], known only after the pass: a `probe` that makes the rows of
// a few vertices (the solver's rows of a list) lets it guess them first, by sweeps (each sweep's
// rows, then the rows of their farthest vertices); the guess is checked after the pass, and only
// where it was wrong (a diameter no sweep found) a second pass makes the histogram. Without a
// probe (Floyd-Warshall, whose rows stay on the device: a second pass only reads them) the
// histogram is always a second pass. The ranks' totals are combined in rank order, so floats are
// summed in one order for a given algorithm, backend and rank count; int32's sums are exact
// integers (harmonic sums in fixed point, detail/measures_kernels.hpp), the same for every
// algorithm, backend and rank count.
//
//   apsp::GraphMeasures m = apsp::graph_measures<int>(
//       exec, ranks, V, solver.first_row(), solver.real_rows(), {64},
//       [&](const apsp::DeviceRowSink<Exec, int>& sink) { solver.reduce_rows(sink); },
//       [&](const std::vector<std::int32_t>& list, const apsp::RowSink<int>& sink) {
//         solver.distance_rows_of(list, sink);
//       });
#pragma once

#include <apsp/detail/execution_spaces.hpp>
#include <apsp/detail/measure.hpp>
#include <apsp/detail/measures_kernels.hpp>
#include <apsp/detail/region.hpp>
#include <apsp/detail/staging.hpp>
#include <apsp/distance.hpp>
#include <apsp/error.hpp>
#include <apsp/graph_measures.hpp>
#include <apsp/memory.hpp>
#include <apsp/ranks.hpp>
#include <apsp/row_sink.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace apsp {

namespace detail {
template <class ExecSpace, class T>
class MeasureTotals;
}  // namespace detail

// What graph_measures hands a solver's pass: the sink of whole rows, which every solver can
// fill, and for a solver that reduces the columns it finishes where it makes them (the supernodal
// sweeps, integer distances: MeasureColumns) the totals themselves. histogram_only: the second
// pass, which makes the histogram alone.
template <class ExecSpace, class T>
struct MeasureSink {
  DeviceRowSink<ExecSpace, T> rows;
  detail::MeasureTotals<ExecSpace, T>* totals = nullptr;
  bool histogram_only = false;
  operator const DeviceRowSink<ExecSpace, T>&() const { return rows; }
};

namespace detail {

// A device view's values in a host vector.
template <class View>
std::vector<typename View::non_const_value_type> host_copy(const View& view) {
  std::vector<typename View::non_const_value_type> values(view.extent(0));
  Kokkos::deep_copy(
      Kokkos::View<typename View::non_const_value_type*, Kokkos::HostSpace,
                   Kokkos::MemoryTraits<Kokkos::Unmanaged>>(values.data(), values.size()),
      view);
  return values;
}

// MeasureTotals::fold_mirror's kernel: the plan's column p's mirrored pairs into the totals of
// its vertex j = perm(p) (named functors, not KOKKOS_LAMBDA: detail/supernodal_kernels.hpp says
// why).
template <class Perm, class Sum, class Counts, class Most, class Harmonic, class Mirror,
          class MirrorMost>
struct FoldMirror {
  Perm perm;
  Sum sum;
  Counts count;
  Most most;
  Harmonic harmonic;
  Mirror m_sum, m_count, m_piece;
  MirrorMost m_most;
  std::int64_t v;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t p) const {
    const std::int64_t j = perm(p);
    sum(j) += typename Sum::non_const_value_type(m_sum(p));
    count(j) += std::int64_t(m_count(p));
    if (m_count(p) > 0 && m_most(p) > most(j)) most(j) = m_most(p);
    for (int q = 0; q < MirrorShare::pieces; ++q)
      add_piece(harmonic(j), std::int64_t(m_piece(q * v + p)), MirrorShare::piece_bits * q);
  }
};

// The totals of one rank's rows and of every column over them, on the device.
template <class ExecSpace, class T>
class MeasureTotals {
 public:
  using memory_space = typename ExecSpace::memory_space;
  template <class X>
  using ids = Kokkos::View<X*, memory_space>;

  MeasureTotals(const ExecSpace& exec, std::int64_t vertices, std::int64_t first_row,
                std::int64_t rows)
      : exec_(exec),
        vertices_(vertices),
        first_row_(first_row),
        rows_(rows),
        row_most_("apsp::measures::row_max", rows),
        row_least_("apsp::measures::row_min", rows),
        row_sum_("apsp::measures::row_sum", rows),
        row_count_("apsp::measures::row_count", rows),
        column_most_(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::measures::column_max"),
                     vertices),
        column_sum_("apsp::measures::column_sum", vertices),
        column_count_("apsp::measures::column_count", vertices),
        harmonic_("apsp::measures::harmonic", vertices) {
    Kokkos::deep_copy(exec, column_most_, std::numeric_limits<T>::lowest());
  }

  // A team per row on GPUs (fewer threads where each counts its own bins); one thread per row
  // on host backends.
  int team_size() const {
    if (host_memory<ExecSpace>) return 1;
    using Totals = RowTotals<ExecSpace, T>;
    return Totals::own_counts(Totals::own_bins_team, binning_.bins) ? Totals::own_bins_team : 256;
  }

  // A block of this rank's rows into the totals (and, after start_histogram, the histogram).
  void distances(std::int64_t first, std::int64_t count, const RowBlock<ExecSpace, T>& rows) {
    ScopedRegion region("apsp::measures::distances");
    check(first, count, rows);
    if (count == 0) return;
    // Host backends: a chunk of columns a thread, whose totals stay in its cache as the rows go
    // by; GPUs: a column a thread, neighbours reading neighbouring distances.
    using Columns = ColumnTotals<ExecSpace, T>;
    const std::int64_t chunk = host_memory<ExecSpace> ? Columns::host_chunk : 1;
    Columns columns{rows,         count,       vertices_,     chunk,
                    column_most_, column_sum_, column_count_, harmonic_};
    Kokkos::parallel_for("apsp::measures::column_totals",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::Schedule<Kokkos::Dynamic>,
                                             Kokkos::IndexType<std::int64_t>>(
                             exec_, 0, (vertices_ + chunk - 1) / chunk),
                         columns);
    row_totals(first, count, rows);
    exec_.fence();
  }

  // The reductions of the columns a solver finishes (MeasureColumns, integer distances) of this
  // rank's rows [first, first + count) whose slots out_row gives (the block's row, -1: none):
  // their out-totals (and the histogram) where distances() puts them, and with `in` their
  // vertices' in-totals (the reversed graph's rows, or a symmetric graph's) as the columns'.
  // `half`: the rows of a symmetric graph made in halves (MeasureColumns::half), whose totals
  // fold_mirror completes.
  template <int Item>
  MeasureColumns<ExecSpace, T, Item> columns(
      std::int64_t first, const Kokkos::View<const std::int32_t*, memory_space>& out_row,
      const Kokkos::View<const std::int32_t*, memory_space>& perm, bool out, bool in,
      bool histogram_only, bool half = false) {
    MeasureColumns<ExecSpace, T, Item> c;
    const bool mirror = half && in && !histogram_only;
    if (mirror && !mirror_sum_.data()) {
      const std::int64_t n = vertices_;
      mirror_sum_ = ids<Count>("apsp::measures::mirror_sum", n);
      mirror_count_ = ids<Count>("apsp::measures::mirror_count", n);
      mirror_most_ = ids<T>("apsp::measures::mirror_max", n);
      mirror_piece_ = ids<Count>("apsp::measures::mirror_pieces", MirrorShare::pieces * n);
      if (host_memory<ExecSpace>)
        mirror_lock_ = ids<int>("apsp::measures::mirror_locks", mirror_locks(n));
    }
    half_ = half_ || half;
    c.half = half;
    c.mirror_sum = mirror_sum_, c.mirror_count = mirror_count_, c.mirror_most = mirror_most_;
    c.mirror_piece = mirror_piece_;
    c.mirror_lock = mirror_lock_;
    if (mirror) mirror_perm_ = perm;
    c.perm = perm;
    c.out_row = out_row;
    c.row_offset = first - first_row_;
    c.out = out;
    c.in = in && !histogram_only;
    c.histogram_only = histogram_only;
    c.bin = binning_;
    c.histogram = histogram_;
    c.row_most = row_most_, c.row_least = row_least_, c.row_sum = row_sum_;
    c.row_count = row_count_;
    c.column_most = column_most_, c.column_sum = column_sum_, c.column_count = column_count_;
    c.harmonic = harmonic_;
    return c;
  }

  // Whether the rows were made in halves (columns(..., half)): every row's totals
  // are then its vertex's in-totals, complete once fold_mirror has run (the graph is symmetric).
  bool half() const { return half_; }

  // After a pass in halves: the mirrored pairs' totals into the columns' in-totals (on every
  // rank: each holds its own rows' share).
  void fold_mirror() {
    if (!mirror_sum_.data()) return;
    const std::int64_t v = vertices_;
    Kokkos::parallel_for(
        "apsp::measures::fold_mirror",
        Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec_, 0, v),
        FoldMirror<decltype(mirror_perm_), ids<DistanceSum<T>>, ids<std::int64_t>, ids<T>,
                   ids<HarmonicSum<T>>, ids<Count>, ids<T>>{
            mirror_perm_, column_sum_, column_count_, column_most_, harmonic_, mirror_sum_,
            mirror_count_, mirror_piece_, mirror_most_, v});
    exec_.fence();
    mirror_sum_ = {}, mirror_count_ = {}, mirror_most_ = {}, mirror_piece_ = {}, mirror_lock_ = {};
    mirror_perm_ = {};
  }

  // Bins over [low, high] for the blocks from now on.
  void start_histogram(int bins, double low, double high) {
    binning_ = Binning<T>(bins, low, high);
    histogram_ = ids<std::int64_t>("apsp::measures::histogram", bins);
  }

  // A block of this rank's rows into the histogram alone (a second pass: the totals it makes
  // again are the first's).
  void histogram(std::int64_t first, std::int64_t count, const RowBlock<ExecSpace, T>& rows) {
    ScopedRegion region("apsp::measures::histogram");
    check(first, count, rows);
    if (count == 0) return;
    row_totals(first, count, rows);
    exec_.fence();
  }

  ids<T> row_most_, row_least_;
  ids<DistanceSum<T>> row_sum_;
  ids<std::int64_t> row_count_;
  ids<T> column_most_;
  ids<DistanceSum<T>> column_sum_;
  ids<std::int64_t> column_count_;
  ids<HarmonicSum<T>> harmonic_;
  ids<std::int64_t> histogram_;

 private:
  void check(std::int64_t first, std::int64_t count, const RowBlock<ExecSpace, T>& rows) const {
    if (first < first_row_ || first + count > first_row_ + rows_ ||
        std::int64_t(rows.extent(0)) < count || std::int64_t(rows.extent(1)) < vertices_)
      throw Error("measures: rows [" + std::to_string(first) + ", " +
                  std::to_string(first + count) + ") of " + std::to_string(rows.extent(1)) +
                  " columns outside this rank's rows [" + std::to_string(first_row_) + ", " +
                  std::to_string(first_row_ + rows_) + ") of V = " + std::to_string(vertices_));
  }

  void row_totals(std::int64_t first, std::int64_t count, const RowBlock<ExecSpace, T>& rows) {
    using Totals = RowTotals<ExecSpace, T>;
    const int team = team_size();
    const std::size_t bytes = Totals::scratch_bytes(team, binning_.bins);
    using Policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::Schedule<Kokkos::Dynamic>>;
    Policy policy(exec_, int(count), team);
    const int level = detail::scratch_level<Policy>(bytes);
    Totals totals{rows,     first,      first - first_row_, vertices_,  row_most_, row_least_,
                  row_sum_, row_count_, binning_,           histogram_, level};
    Kokkos::parallel_for("apsp::measures::row_totals",
                         policy.set_scratch_size(level, Kokkos::PerTeam(bytes)), totals);
  }

  ExecSpace exec_;
  std::int64_t vertices_, first_row_, rows_;
  Binning<T> binning_;
  bool half_ = false;
  using Count = unsigned long long;  // MeasureColumns' mirror arrays
  ids<Count> mirror_sum_, mirror_count_, mirror_piece_;
  ids<T> mirror_most_;
  ids<int> mirror_lock_;  // host backends' (MeasureColumns::mirror_lock)
  Kokkos::View<const std::int32_t*, memory_space> mirror_perm_;  // the plan's column -> vertex
};

// The histogram's range guessed from the rows of a few vertices: sweeps from spread-out starts,
// each to the farthest vertex its rows reach, `rounds` times. Every value seen is a distance, so
// the guess never exceeds the truth: high <= the diameter, low >= min(0, least distance).
struct RangeGuess {
  double low = 0, high = 0;
  std::int64_t rows = 0;  // rows probed
};

template <class T>
RangeGuess guess_range(std::int64_t vertices, const RowProbe<T>& probe, int starts = 4,
                       int rounds = 3) {
  RangeGuess guess;
  if (vertices == 0) return guess;
  std::vector<char> probed(std::size_t(vertices), 0);
  std::vector<std::int32_t> list;
  for (int s = 0; s < starts; ++s) {
    const auto v = std::int32_t(vertices * s / starts);
    if (!probed[std::size_t(v)]) list.push_back(v), probed[std::size_t(v)] = 1;
  }
  T low = T(0), high = T(0);
  for (int round = 0; round < rounds && !list.empty(); ++round) {
    std::vector<std::int32_t> next;
    probe(list, [&](std::int64_t first, std::int64_t count, const T* rows, std::int64_t stride) {
      for (std::int64_t r = 0; r < count; ++r) {
        const T* row = rows + r * stride;
        const std::int32_t from = list[std::size_t(first + r)];
        std::int64_t farthest = -1;
        for (std::int64_t j = 0; j < vertices; ++j) {
          const T d = row[j];
          if (d == Distance<T>::infinity || j == from) continue;
          if (d < low) low = d;
          if (farthest < 0 || d > row[farthest]) farthest = j;
        }
        if (farthest >= 0 && row[farthest] > high) high = row[farthest];
        if (farthest >= 0 && !probed[std::size_t(farthest)]) {
          probed[std::size_t(farthest)] = 1;
          next.push_back(std::int32_t(farthest));
        }
      }
    });
    guess.rows += std::int64_t(list.size());
    list = std::move(next);
  }
  guess.low = double(low);
  guess.high = double(high);
  return guess;
}

inline double harmonic_value(const FixedSum& s) {
  return Int128{s.low, s.high}.to_double() * (1.0 / 19342813113834066795298816.0);  // 2^-84
}
inline double harmonic_value(double s) {
  return s;
}

}  // namespace detail

// The device memory graph_measures takes beside the solver's for `rows` of `vertices` rows (its
// totals of each row and of each column, and the histogram): what a driver keeps out of the
// solver's budget.
template <class T>
std::uint64_t measure_device_bytes(std::int64_t vertices, std::int64_t rows) {
  using Sum = detail::DistanceSum<T>;
  const auto n = [](std::int64_t x) { return std::uint64_t(x < 0 ? 0 : x); };
  // Integer distances: the mirror arrays of rows made in halves (MeasureTotals::columns), 52 bytes
  // a vertex, and on host backends a lock each mirror_window vertices.
  const std::uint64_t mirror = std::is_integral<T>::value
                                   ? 2 * sizeof(std::int64_t) + sizeof(T) +
                                         detail::MirrorShare::pieces * sizeof(std::int64_t)
                                   : 0;
  return n(rows) * (2 * sizeof(T) + sizeof(Sum) + sizeof(std::int64_t)) +
         n(vertices) * (sizeof(T) + sizeof(Sum) + sizeof(std::int64_t) +
                        sizeof(detail::HarmonicSum<T>) + mirror) +
         std::uint64_t(max_histogram_bins) * sizeof(std::int64_t) +
         (std::is_integral<T>::value
              ? std::uint64_t(detail::mirror_locks(n(vertices))) * sizeof(int)
              : 0);
}

// `limits` less what graph_measures keeps on the device beside the solver of V = `vertices`
// (measure_device_bytes, every row's totals): what a driver hands the solver's memory check.
template <class T>
MemoryLimits beside_measures(MemoryLimits limits, std::int64_t vertices) {
  const std::uint64_t kept = measure_device_bytes<T>(vertices, vertices);
  limits.free = limits.free > kept ? limits.free - kept : 0;
  if (limits.cap > 0) limits.cap = limits.cap > kept ? limits.cap - kept : 1;
  limits.beside = detail::size_text(kept) + " for the measures' totals";
  return limits;
}

// The measures of a graph of `vertices` vertices whose rows [first_row, first_row + rows) this
// rank's solver makes, `pass` calling the solver's hand-over with the sink it is given (once,
// or twice where the histogram's range was not guessed), `probe` (may be empty) making the rows
// of a list of vertices on this rank. Collective on `ranks`: every rank gets the whole result.
template <class T, class ExecSpace, class Pass>
GraphMeasures graph_measures(const ExecSpace& exec, Ranks& ranks, std::int64_t vertices,
                             std::int64_t first_row, std::int64_t rows,
                             const MeasureOptions& options, Pass&& pass,
                             const RowProbe<T>& probe = {}) {
  detail::ScopedRegion region("apsp::graph_measures");
  if (options.bins < 0 || options.bins > max_histogram_bins)
    throw Error("measures: " + std::to_string(options.bins) + " histogram bins, not in [0, " +
                std::to_string(max_histogram_bins) + "]");
  using Block = detail::RowBlock<ExecSpace, T>;
  std::unique_ptr<detail::MeasureTotals<ExecSpace, T>> totals;
  // The guess, the same on every rank: the widest of the ranks' (each probes the same rows).
  detail::RangeGuess guess;
  const bool guessing = options.bins > 0 && probe;
  if (guessing) {
    collectively(ranks, [&] { guess = detail::guess_range<T>(vertices, probe); });
    const std::vector<double> lows = gather_all(ranks, std::vector<double>{guess.low});
    const std::vector<double> highs = gather_all(ranks, std::vector<double>{guess.high});
    guess.low = *std::min_element(lows.begin(), lows.end());
    guess.high = *std::max_element(highs.begin(), highs.end());
  }
  collectively(ranks, [&] {
    totals = std::make_unique<detail::MeasureTotals<ExecSpace, T>>(exec, vertices, first_row, rows);
    if (guessing) totals->start_histogram(options.bins, guess.low, guess.high);
    pass(MeasureSink<ExecSpace, T>{[&](std::int64_t first, std::int64_t count, const Block& block) {
                                     totals->distances(first, count, block);
                                   },
                                   totals.get(), false});
    totals->fold_mirror();
  });
  detail::MeasureTotals<ExecSpace, T>& t = *totals;
  using Sum = detail::DistanceSum<T>;
  using Harmonic = detail::HarmonicSum<T>;

  // Rows: each rank's in vertex order; columns: every rank's, combined in rank order.
  std::vector<T> row_most = gather_all(ranks, detail::host_copy(t.row_most_));
  const std::vector<T> row_least = gather_all(ranks, detail::host_copy(t.row_least_));
  std::vector<Sum> row_sum = gather_all(ranks, detail::host_copy(t.row_sum_));
  std::vector<std::int64_t> row_count = gather_all(ranks, detail::host_copy(t.row_count_));
  const std::vector<T> column_most = gather_all(ranks, detail::host_copy(t.column_most_));
  const std::vector<Sum> column_sum = gather_all(ranks, detail::host_copy(t.column_sum_));
  const std::vector<std::int64_t> column_count =
      gather_all(ranks, detail::host_copy(t.column_count_));
  const std::vector<Harmonic> harmonic = gather_all(ranks, detail::host_copy(t.harmonic_));
  if (std::int64_t(row_most.size()) != vertices)
    throw Error("measures: the ranks' rows are " + std::to_string(row_most.size()) +
                ", not V = " + std::to_string(vertices));

  const std::size_t v = std::size_t(vertices);
  GraphMeasures m;
  m.vertices = vertices;
  m.integral = std::is_integral<T>::value;
  std::vector<T> in_most(column_most.begin(), column_most.begin() + std::ptrdiff_t(v));
  std::vector<Sum> in_sum(column_sum.begin(), column_sum.begin() + std::ptrdiff_t(v));
  std::vector<std::int64_t> in_count(column_count.begin(),
                                     column_count.begin() + std::ptrdiff_t(v));
  std::vector<Harmonic> in_harmonic(harmonic.begin(), harmonic.begin() + std::ptrdiff_t(v));
  for (int p = 1; p < ranks.size(); ++p)
    for (std::size_t j = 0, at = std::size_t(p) * v; j < v; ++j, ++at) {
      in_most[j] = std::max(in_most[j], column_most[at]);
      in_sum[j] += column_sum[at];
      in_count[j] += column_count[at];
      if constexpr (std::is_integral<T>::value) {
        Int128 h{in_harmonic[j].low, in_harmonic[j].high};
        h += Int128{harmonic[at].low, harmonic[at].high};
        in_harmonic[j] = detail::FixedSum{h.low, h.high};
      } else {
        in_harmonic[j] += harmonic[at];
      }
    }

  // Rows made in halves (a symmetric graph; the same on every rank): a row's totals are its
  // vertex's in-totals. Its least value is its own half's: each pair is in some row's half.
  if (t.half()) row_most = in_most, row_sum = in_sum, row_count = in_count;

  m.eccentricity.resize(v);
  m.in_eccentricity.resize(v);
  m.reachable = row_count;
  m.in_reachable = in_count;
  m.closeness_centrality.resize(v);
  m.harmonic_centrality.resize(v);
  if constexpr (std::is_integral<T>::value) {
    m.distance_sum_exact = row_sum;
    m.in_distance_sum_exact = in_sum;
  } else {
    m.distance_sum = row_sum;
    m.in_distance_sum = in_sum;
  }
  T least = T(0);
  double wiener = 0;
  for (std::size_t i = 0; i < v; ++i) {
    m.eccentricity[i] = double(row_most[i]);
    m.in_eccentricity[i] = double(in_most[i]);
    // NetworkX's closeness_centrality, wf_improved: its operations in its order.
    const double total = double(in_sum[i]), k = double(in_count[i]);
    double closeness = 0;
    if (total > 0 && vertices > 1) {
      closeness = (k - 1.0) / total;
      closeness *= (k - 1.0) / double(vertices - 1);
    }
    m.closeness_centrality[i] = closeness;
    m.harmonic_centrality[i] = detail::harmonic_value(in_harmonic[i]);
    m.reachable_pairs += row_count[i] - 1;
    if (row_count[i] > 1) least = std::min(least, row_least[i]);
    if constexpr (std::is_integral<T>::value)
      m.wiener_exact += Int128::of(row_sum[i]);
    else
      wiener += row_sum[i];
  }
  m.wiener_index = std::is_integral<T>::value ? m.wiener_exact.to_double() : wiener;
  m.average_shortest_path_length =
      m.reachable_pairs > 0 ? m.wiener_index / double(m.reachable_pairs) : 0.0;
  m.unreachable_pairs = vertices * (vertices - 1) - m.reachable_pairs;
  m.connected = m.unreachable_pairs == 0;
  if (v == 0) return m;
  m.diameter = *std::max_element(m.eccentricity.begin(), m.eccentricity.end());
  m.radius = *std::min_element(m.eccentricity.begin(), m.eccentricity.end());
  for (std::size_t i = 0; i < v; ++i) {
    if (m.eccentricity[i] == m.radius) m.center.push_back(std::int64_t(i));
    if (m.eccentricity[i] == m.diameter) m.periphery.push_back(std::int64_t(i));
  }

  if (options.bins > 0) {
    m.bins = options.bins;
    m.low = double(least);
    m.high = m.diameter;
    m.probed_rows = guess.rows;
    m.passes = 1;
    // Every rank sees the same low and high: the guess was right everywhere or nowhere.
    if (!guessing || guess.low != m.low || guess.high != m.high) {
      m.passes = 2;
      collectively(ranks, [&] {
        t.start_histogram(m.bins, m.low, m.high);
        pass(
            MeasureSink<ExecSpace, T>{[&](std::int64_t first, std::int64_t count,
                                          const Block& block) { t.histogram(first, count, block); },
                                      &t, true});
      });
    }
    const std::vector<std::int64_t> counts = gather_all(ranks, detail::host_copy(t.histogram_));
    m.histogram.assign(std::size_t(m.bins), 0);
    for (std::size_t k = 0; k < counts.size(); ++k)
      m.histogram[k % std::size_t(m.bins)] += counts[k];
  }
  return m;
}

}  // namespace apsp
