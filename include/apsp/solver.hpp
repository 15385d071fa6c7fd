// apsp::Solver: the one solve behind every driver (the command line's job on one process or on
// MPI ranks, `apsp path`, the Python module).
//
//   load      this rank's rows of the N x N matrix filled from its edges (or by the caller)
//   compute   Floyd-Warshall on the ranks' row blocks (detail/row_block_rounds.hpp), then the
//             negative-cycle check (NegativeCycleError)
//   rows      the distance rows, then the predecessor rows (paths.hpp), handed to a RowSink in
//             blocks that the solver sizes within its memory budget; on a device they come off
//             through pinned buffers, so copying one block overlaps the sink's work on the last
//
// A driver keeps only what is its own: files and the partition of the input among ranks (the
// pipeline), one pair (`apsp path`), NumPy arrays (the module). With one process the ranks are
// OneRank and every collective is trivial (ranks.hpp).
//
// Every solver of all pairs has this shape (solver_interface.hpp states it: SupernodalSolver in
// supernodal.hpp, SsspSolver in sssp.hpp): made collectively on the ranks, it checks its own
// memory before any work, loads, computes and gives its negative-cycle verdict
// (NegativeCycleError), then hands rows to a RowSink.
//
//   apsp::OneRank one;
//   apsp::Solver<Exec, int> solver(exec, one, plan, apsp::weight_range(graph));
//   solver.check_memory({free_bytes, 0, "the GPU"}, graph.edges.size());
//   solver.load(graph.edges);
//   solver.compute();
//   solver.distance_rows([&](std::int64_t first, std::int64_t count, const int* rows,
//                            std::int64_t stride) { ... });
#pragma once

#include <apsp/detail/measure.hpp>
#include <apsp/detail/region.hpp>
#include <apsp/detail/row_block_rounds.hpp>
#include <apsp/detail/staging.hpp>
#include <apsp/error.hpp>
#include <apsp/floyd_warshall.hpp>
#include <apsp/graph.hpp>
#include <apsp/memory.hpp>
#include <apsp/negative_cycles.hpp>
#include <apsp/paths.hpp>
#include <apsp/plan.hpp>
#include <apsp/ranks.hpp>
#include <apsp/row_sink.hpp>
#include <apsp/solver_interface.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace apsp {

namespace detail {

// Hands rows [0, count) of a matrix to a sink in blocks (global row first + i for local row i).
// On a host backend straight from the matrix, in one block; on a device through two pinned
// buffers of at most 64 MB, so that copying one block overlaps the sink's work on the previous.
// The buffers are made at the first call and kept for the next ones (pinning host memory takes
// tens of milliseconds: a solve that hands over its rows a block at a time pays it once).
template <class ExecSpace, class T>
class RowDownload {
 public:
  void operator()(const ExecSpace& exec, const DistanceMatrix<ExecSpace, T>& rows,
                  std::int64_t first, std::int64_t count, const RowSink<T>& sink,
                  RowSeconds& seconds) {
    ScopedRegion region("apsp::download_rows");
    const std::int64_t n = rows.extent(1);
    if (count <= 0) return;
    if constexpr (host_memory<ExecSpace>) {
      const auto start = Clock::now();
      sink(first, count, rows.data(), n);
      seconds.sink += seconds_since(start);
    } else {
      if (std::int64_t(buffers_[0].extent(1)) != n || chunk_ == 0) {
        const auto start = Clock::now();  // pinning counts as downloading
        chunk_ = std::max<std::int64_t>(
            1, std::min<std::int64_t>(count, (64 << 20) / (n * std::int64_t(sizeof(T)))));
        for (int b = 0; b < 2; ++b) {
          buffers_[b] = Staging();
          buffers_[b] = Staging(Kokkos::view_alloc(Kokkos::WithoutInitializing,
                                                   b == 0 ? "apsp::staging0" : "apsp::staging1"),
                                chunk_, n);
        }
        seconds.download += seconds_since(start);
      }
      const std::int64_t chunk = chunk_;
      const auto copy_chunk = [&](std::int64_t from, int buffer) {
        const std::int64_t to = std::min(count, from + chunk);
        Kokkos::deep_copy(exec,
                          Kokkos::subview(buffers_[buffer],
                                          std::make_pair(std::int64_t(0), to - from), Kokkos::ALL),
                          Kokkos::subview(rows, std::make_pair(from, to), Kokkos::ALL));
      };
      copy_chunk(0, 0);
      int current = 0;
      for (std::int64_t from = 0; from < count; from += chunk) {
        auto start = Clock::now();
        exec.fence();  // chunk `from` is in buffers_[current]
        seconds.download += seconds_since(start);
        if (from + chunk < count) copy_chunk(from + chunk, 1 - current);
        start = Clock::now();
        sink(first + from, std::min(count, from + chunk) - from, buffers_[current].data(), n);
        seconds.sink += seconds_since(start);
        current = 1 - current;
      }
    }
  }

 private:
  using Staging = Kokkos::View<T**, Kokkos::LayoutRight, typename StagingSpace<ExecSpace>::type>;
  std::int64_t chunk_ = 0;
  Staging buffers_[2];
};

// One download of rows (RowDownload, buffers for this call alone).
template <class ExecSpace, class T>
void download_rows(const ExecSpace& exec, const DistanceMatrix<ExecSpace, T>& rows,
                   std::int64_t first, std::int64_t count, const RowSink<T>& sink,
                   RowSeconds& seconds) {
  RowDownload<ExecSpace, T>()(exec, rows, first, count, sink, seconds);
}

// Runs every kernel of the plan once on a two-tile matrix, so that a timed solve does not
// include what only the first launch pays (lazy module loading on CUDA, first touch of scratch
// pools): its shape, its type T and its arithmetic (plan.negative_weights).
template <class ExecSpace, class T>
void warm_up(const ExecSpace& exec, const Plan& plan) {
  Plan two_tiles = plan;
  two_tiles.vertices = two_tiles.padded = 2 * std::int64_t(plan.shape.tile);
  DistanceMatrix<ExecSpace, T> dist("apsp::warm_up", two_tiles.padded, two_tiles.padded);
  fill_distance_matrix(exec, dist, std::vector<Edge>{});
  floyd_warshall(exec, dist, two_tiles);
}

// The predecessor rows' kernels once, on a graph of one edge.
template <class ExecSpace, class T>
void warm_up_predecessors(const ExecSpace& exec, Tightness<T> rule) {
  DistanceMatrix<ExecSpace, T> dist("apsp::warm_up", 2, 2);
  const DeviceEdges<ExecSpace> edges = upload_edges(exec, {Edge{0, 1, 0}});
  fill_distance_matrix(exec, dist, edges);
  PredecessorRows<ExecSpace, T>(exec, dist, 0, 2, select_path_edges(exec, dist, 2, edges, rule), 1,
                                rule)
      .compute(0, 1);
}

}  // namespace detail

namespace detail {

// The verdict on the negative cycle a solver in T found (`found`, or -1), from every edge of the
// graph (negative_cycles.hpp: the vertex every algorithm names; where float32 rounding can make
// or hide a cycle, double decides). `every()` gives the edges where a verdict needs them.
template <class T, class Edges>
CycleVerdict cycle_verdict(std::int64_t vertices, const WeightRange& weights, std::int64_t found,
                           const Edges& every) {
  if (found < 0 && !cycles_may_round<T>(weights, vertices)) return CycleVerdict{};
  return negative_cycle_verdict<T>(Graph{std::int32_t(vertices), every()}, weights, found);
}

}  // namespace detail

// Where the time of Solver::load went: this rank's rows allocated, filled from its edges (their
// upload included), the kernels run once (warm_up).
struct LoadSeconds {
  double allocate = 0, fill = 0, warm_up = 0;
};

template <class ExecSpace, class T>
class Solver {
 public:
  using execution_space = ExecSpace;
  using value_type = T;
  using Matrix = DistanceMatrix<ExecSpace, T>;

  // Predecessors and negative weights; every row of a rank's block is made, so no list of rows.
  static constexpr Capabilities capabilities() {
    Capabilities can;
    can.predecessors = true;
    can.negative_weights = true;
    return can;
  }

  // Collective on `ranks`: rank p holds a contiguous block of the plan's tile rows (RowBlocks).
  // `weights`: the whole graph's (weight_range), for the predecessor rule and the cycle verdict.
  Solver(const ExecSpace& exec, Ranks& ranks, const Plan& plan, const WeightRange& weights = {})
      : exec_(exec), ranks_(ranks), plan_(plan), weights_(weights) {
    if (plan.distance != Distance<T>::type)
      throw Error(std::string("the plan is for ") + distance_type_name(plan.distance) +
                  " distances, the solver computes " + distance_type_name(Distance<T>::type));
    const int tile = plan.shape.tile;
    blocks_ = RowBlocks{int(plan.padded / tile), ranks.size()};
    first_row_ = std::int64_t(blocks_.first(ranks.rank())) * tile;
    rows_ = std::int64_t(blocks_.count(ranks.rank())) * tile;
    real_rows_ =
        std::max<std::int64_t>(0, std::min(plan.vertices, first_row_ + rows_) - first_row_);
    rule_ = tightness_for<T>(plan.vertices, weights.integers, weights.largest_magnitude());
    APSP_CHECK_SOLVER(Solver);
  }

  const Plan& plan() const { return plan_; }
  const RowBlocks& blocks() const { return blocks_; }
  // This rank's rows: [first_row, first_row + rows) of the padded matrix, the first real_rows of
  // them real vertices.
  std::int64_t first_row() const { return first_row_; }
  std::int64_t rows() const { return rows_; }
  std::int64_t real_rows() const { return real_rows_; }
  // The rank whose rows include vertex v (its edges go there).
  int owner(std::int64_t v) const { return blocks_.owner(int(v / plan_.shape.tile)); }

  // Device memory this rank needs with `local_edges` of the graph's `edges` in its rows: its
  // rows, the pivot rows when they travel (two buffers on a GPU, where a device link takes the
  // next round's beside the current one), its edges and, with predecessors, the shortest-path
  // edges (at most every edge) and the smallest batch of predecessor rows.
  std::uint64_t device_bytes(std::int64_t local_edges, std::int64_t edges) const {
    return rank_bytes(rows_, rows_ > 0 && blocks_.holders() > 1, local_edges, edges);
  }

  // The device memory of the rank that needs the most when `ranks` ranks, each on a device of
  // its own, share the plan's rows: each its block of rows and its edges, and the pivot rows
  // once they travel. `tile_edges[t]`: the graph's edges that start in tile row t.
  std::uint64_t largest_rank_bytes(int ranks, const std::vector<std::int64_t>& tile_edges,
                                   std::int64_t edges) const {
    return most_rank_bytes(ranks, edges_before(tile_edges), edges);
  }

  // The fewest ranks on which no rank needs more than `bytes` (largest_rank_bytes); 0 when no
  // rank count would do (a rank holds one tile row at least). The rows alone give the fewest
  // that could (they shrink as ranks grow; the pivot rows come at 2): the search starts there,
  // so a matrix that fits no count ends at once, however many tile rows it has.
  int fitting_ranks(std::uint64_t bytes, const std::vector<std::int64_t>& tile_edges,
                    std::int64_t edges) const {
    const int units = std::max(1, blocks_.units);
    const std::vector<std::int64_t> before = edges_before(tile_edges);
    const auto rows_alone = [&](int p) {
      return rank_bytes(std::int64_t((units + p - 1) / p) * plan_.shape.tile, p > 1, 0, 0);
    };
    int from = 1;
    if (rows_alone(1) > bytes) {
      if (units < 2 || rows_alone(units) > bytes) return 0;
      int low = 2, high = units;  // rows_alone(high) fits; the fewest that fits is in [low, high]
      while (low < high) {
        const int mid = low + (high - low) / 2;
        if (rows_alone(mid) <= bytes)
          high = mid;
        else
          low = mid + 1;
      }
      from = low;
    }
    // Each rank's edges add to its rows: a few counts more at most, each O(ranks) to check.
    for (int p = from; p <= units && p < from + 4096; ++p)
      if (most_rank_bytes(p, before, edges) <= bytes) return p;
    return 0;
  }
  // What device_bytes counts, in words.
  std::string device_bytes_what() const {
    return std::to_string(rows_) + " rows of " + std::to_string(plan_.padded) + " " +
           distance_type_name(plan_.distance) + " distances" +
           (rows_ > 0 && blocks_.holders() > 1 ? " and the pivot rows" : "") +
           (plan_.predecessors ? ", the shortest-path edges and the predecessor rows' work space"
                               : "");
  }

  // The memory this rank may use: the predecessor rows come in batches that fit in what
  // device_bytes leaves of it.
  void set_budget(std::uint64_t bytes, std::int64_t local_edges, std::int64_t edges) {
    const std::uint64_t need = device_bytes(local_edges, edges);
    const std::int64_t n = plan_.padded;
    const std::int64_t wanted =
        detail::host_memory<ExecSpace> ? 64 * std::int64_t(exec_.concurrency()) : 32768;
    batch_ = std::max<std::int64_t>(1, std::min(real_rows_, wanted));
    const std::uint64_t left = bytes > need ? bytes - need : 0;
    while (batch_ > 1 && PredecessorRows<ExecSpace, T>::bytes(batch_, n) > left)
      batch_ /= 2;
  }

  // Collective, before load: device_bytes against the limits, for the ranks sharing the device
  // together (memory.hpp); throws MemoryError. Then set_budget with this rank's share.
  // `edges`: the graph's; `local_edges`: this rank's share of them (default: all).
  void check_memory(const MemoryLimits& limits, std::int64_t edges, std::int64_t local_edges = -1) {
    if (local_edges < 0) local_edges = edges;
    const std::uint64_t budget =
        apsp::check_memory(exec_, ranks_, plan_.vertices, device_bytes(local_edges, edges),
                           device_bytes_what(), limits);
    set_budget(budget, local_edges, edges);
  }
  // The same with this rank's edges themselves (each starting in its rows): a MemoryError then
  // also names the fewest ranks that would hold the solve (fitting_ranks, from every rank's
  // edges by tile row: one gather).
  void check_memory(const MemoryLimits& limits, std::int64_t edges,
                    const std::vector<Edge>& local) {
    const int tile = plan_.shape.tile;
    std::vector<std::int64_t> mine(std::size_t(blocks_.count(ranks_.rank())), 0);
    for (const Edge& e : local) {
      const std::int64_t t = e.src / tile - blocks_.first(ranks_.rank());
      if (t >= 0 && t < std::int64_t(mine.size())) ++mine[std::size_t(t)];
    }
    // Rank order is tile order: every rank's counts, concatenated, are the graph's.
    const std::vector<std::int64_t> tile_edges = gather_all(ranks_, mine);
    const std::int64_t local_edges = std::int64_t(local.size());
    const std::uint64_t budget = apsp::check_memory(
        exec_, ranks_, plan_.vertices, device_bytes(local_edges, edges), device_bytes_what(),
        limits, [&](std::uint64_t bytes) { return fitting_ranks(bytes, tile_edges, edges); });
    set_budget(budget, local_edges, edges);
  }

  std::int64_t predecessor_batch() const { return batch_; }

  // Collective: this rank's rows filled from its edges (each starting in its rows), or by
  // fill(matrix) where given (the edges then serve the predecessors only). With warm_up the
  // kernels run once on a tiny matrix first (timed runs). Returns this rank's seconds of each
  // part (the agreement at the end is in none).
  LoadSeconds load(const std::vector<Edge>& edges,
                   const std::function<void(const Matrix&)>& fill = {}, bool warm_up = false) {
    LoadSeconds seconds;
    collectively(ranks_, [&] {
      auto start = detail::Clock::now();
      local_ = Matrix(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::dist_rows"), rows_,
                      plan_.padded);
      seconds.allocate = detail::seconds_since(start);
      start = detail::Clock::now();
      edges_ = upload_edges(exec_, edges);
      if (fill)
        fill(local_);
      else
        fill_distance_rows(exec_, local_, first_row_, edges_);
      if (!plan_.predecessors) edges_ = {};
      if (plan_.negative_weights) cycle_edges_ = edges;
      exec_.fence();  // the rows' time is the fill's, not the warm-up's
      seconds.fill = detail::seconds_since(start);
      if (warm_up) {
        start = detail::Clock::now();
        detail::warm_up<ExecSpace, T>(exec_, plan_);
        if (plan_.predecessors) detail::warm_up_predecessors(exec_, rule_);
        exec_.fence();
        seconds.warm_up = detail::seconds_since(start);
      }
    });
    return seconds;
  }

  // Collective: Floyd-Warshall on every rank's rows, then, with negative weights, the verdict:
  // throws NegativeCycleError on every rank (the smallest vertex with a negative closed walk
  // through it; where float32 rounding can make or hide a cycle, double decides:
  // negative_cycles.hpp).
  ExchangeStats compute(const RoundHooks& hooks = {}) {
    detail::ScopedRegion region("apsp::solver::compute");
    const ExchangeStats exchange = detail::floyd_warshall_rows(ranks_, exec_, local_, plan_, hooks);
    if (plan_.negative_weights) {
      std::int64_t smallest = plan_.vertices;
      collectively(ranks_, [&] {
        const std::int64_t v = negative_cycle_vertex(exec_, local_, first_row_, plan_.vertices);
        if (v >= 0) smallest = v;
      });
      ranks_.min(&smallest, 1);
      // Floyd-Warshall's d(v, v) < 0 marks some of the vertices with a negative closed walk,
      // which ones depending on its order: the verdict names the one of every algorithm, found
      // in the whole graph (every rank's edges), the same on every rank.
      const std::int64_t found = smallest < plan_.vertices ? smallest : -1;
      throw_negative_cycle(
          detail::cycle_verdict<T>(plan_.vertices, weights_, found,
                                   [&] { return gather_all(ranks_, cycle_edges_); }),
          plan_.distance);
    }
    return exchange;
  }

  // This rank's distance rows (its real ones), in blocks.
  RowSeconds distance_rows(const RowSink<T>& sink, const BlockDone& done = {}) const {
    RowSeconds seconds;
    detail::download_rows(exec_, local_, first_row_, real_rows_, sink, seconds);
    seconds.made = real_rows_;
    if (done) done(first_row_, real_rows_);
    return seconds;
  }

  // This rank's distance rows where they are (the device's memory), in one block: nothing is
  // copied off the device (measures.hpp). RowSeconds::sink: the sink's time.
  RowSeconds reduce_rows(const DeviceRowSink<ExecSpace, T>& sink,
                         const BlockDone& done = {}) const {
    RowSeconds seconds;
    if (real_rows_ > 0) {
      const auto start = detail::Clock::now();
      sink(first_row_, real_rows_, Matrix(local_.data(), real_rows_, plan_.padded));
      seconds.sink += detail::seconds_since(start);
    }
    seconds.made = real_rows_;
    if (done) done(first_row_, real_rows_);
    return seconds;
  }

  // Collective, once before predecessor_rows: every rank's shortest-path edges, shared.
  void select_paths() {
    std::vector<Edge> tight;
    collectively(ranks_, [&] {
      const DeviceEdges<ExecSpace> mine = tight_edges(exec_, local_, first_row_, edges_, rule_);
      edges_ = {};
      tight.resize(mine.size());
      Kokkos::deep_copy(
          Kokkos::View<Edge*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
              tight.data(), tight.size()),
          mine);
    });
    const std::vector<Edge> every = gather_all(ranks_, tight);
    std::vector<Edge>().swap(tight);
    collectively(ranks_, [&] {
      const PathEdges<ExecSpace, T> edges =
          path_edges<T>(exec_, plan_.vertices, upload_edges(exec_, every));
      predecessors_ = std::make_unique<PredecessorRows<ExecSpace, T>>(
          exec_, local_, first_row_, plan_.vertices, edges, batch_, rule_);
    });
  }

  // Predecessor rows [first, first + count) of this rank's real rows, in batches, after
  // select_paths: by default from the first of them, and to the last.
  RowSeconds predecessor_rows(const RowSink<int>& sink, std::int64_t first = -1,
                              std::int64_t count = -1, const BlockDone& done = {}) {
    if (!predecessors_) throw Error("predecessor rows before the shortest-path edges");
    const std::int64_t end = first_row_ + real_rows_;
    if (first < 0) first = first_row_;
    if (count < 0) count = end - first;
    if (first < first_row_ || count > end - first)
      throw Error("predecessor rows [" + std::to_string(first) + ", " +
                  std::to_string(first + count) + ") outside this rank's rows [" +
                  std::to_string(first_row_) + ", " + std::to_string(end) + ")");
    RowSeconds seconds;
    detail::RowDownload<ExecSpace, int> download;
    for (std::int64_t at = first; at < first + count; at += batch_) {
      const std::int64_t now = std::min(batch_, first + count - at);
      const auto start = detail::Clock::now();
      const auto& pred = predecessors_->compute(at, now);
      seconds.search += detail::seconds_since(start);
      download(exec_, pred, at, now, sink, seconds);
      if (done) done(at, now);
    }
    return seconds;
  }

  // Frees the matrix and the search's buffers.
  void release() {
    predecessors_.reset();
    local_ = {};
    edges_ = {};
    std::vector<Edge>().swap(cycle_edges_);
  }

 private:
  // Edges in tile rows [0, t) for every t, from the edges of each tile row.
  static std::vector<std::int64_t> edges_before(const std::vector<std::int64_t>& tile_edges) {
    std::vector<std::int64_t> before(tile_edges.size() + 1, 0);
    for (std::size_t t = 0; t < tile_edges.size(); ++t)
      before[t + 1] = before[t] + tile_edges[t];
    return before;
  }
  // largest_rank_bytes from edges_before's counts.
  std::uint64_t most_rank_bytes(int ranks, const std::vector<std::int64_t>& before,
                                std::int64_t edges) const {
    const RowBlocks blocks{blocks_.units, ranks};
    const auto edges_to = [&](int t) {
      return before[std::size_t(std::min<std::int64_t>(t, std::int64_t(before.size()) - 1))];
    };
    std::uint64_t most = 0;
    for (int p = 0; p < blocks.holders(); ++p) {
      const int first = blocks.first(p), count = blocks.count(p);
      most = std::max(most, rank_bytes(std::int64_t(count) * plan_.shape.tile, blocks.holders() > 1,
                                       edges_to(first + count) - edges_to(first), edges));
    }
    return most;
  }

  // Device memory of a rank with `rows` rows of the padded matrix and `local_edges` of the graph's
  // `edges` (device_bytes), with the pivot rows where they travel.
  std::uint64_t rank_bytes(std::int64_t rows, bool pivot_rows, std::int64_t local_edges,
                           std::int64_t edges) const {
    const std::int64_t n = plan_.padded;
    const std::uint64_t buffers = detail::Streams<ExecSpace>::available ? 2 : 1;
    const std::uint64_t pivot =
        rows > 0 && pivot_rows ? buffers * matrix_bytes(plan_.shape.tile, n, sizeof(T)) : 0;
    const std::uint64_t mine = std::uint64_t(local_edges) * sizeof(Edge);
    const std::uint64_t paths =
        plan_.predecessors
            ? detail::saturating_sum({mine, PathEdges<ExecSpace, T>::bytes(plan_.vertices, edges),
                                      PredecessorRows<ExecSpace, T>::bytes(1, n)})
            : 0;
    return detail::saturating_sum({matrix_bytes(rows, n, sizeof(T)), pivot, mine, paths});
  }

  ExecSpace exec_;
  Ranks& ranks_;
  Plan plan_;
  WeightRange weights_;
  RowBlocks blocks_;
  std::int64_t first_row_ = 0, rows_ = 0, real_rows_ = 0;
  std::int64_t batch_ = 1;
  Tightness<T> rule_;
  Matrix local_;
  DeviceEdges<ExecSpace> edges_;
  std::vector<Edge> cycle_edges_;  // with negative weights: this rank's, to name a cycle's vertex
  std::unique_ptr<PredecessorRows<ExecSpace, T>> predecessors_;
};

}  // namespace apsp
