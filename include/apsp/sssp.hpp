// apsp::sssp_all_pairs: all-pairs shortest paths as one single-source run from every source,
// for sparse graphs (an optional component: Apsp::sssp, where apsp was built with Kokkos Kernels;
// find_package(Apsp COMPONENTS sssp)).
//
// Dijkstra's algorithm (Dijkstra 1959) with a bucket queue, O(E + V + D) per source (D: the
// largest distance, at most sssp_max_weight * V), so about V E in all against Floyd-Warshall's V^3:
// the better choice when E is far below V^2 (the crossover is measured in docs/PERFORMANCE.md,
// "Sparse graphs: SSSP vs FW").
// The graph is a Kokkos Kernels CSR matrix (KokkosSparse::CrsMatrix), built by
// make_csr_graph(): rows sorted by column, the lightest of parallel edges (Kokkos Kernels' own
// COO-to-CSR conversion would sum them), no self-loops. Sources run in parallel on a host
// backend, each thread with its own queue; rows come out in blocks, so memory stays at a block of
// rows however large V is. Distances are int32, weights in [0, sssp_max_weight] (plan.hpp).
//
//   const apsp::CsrGraph csr = apsp::make_csr_graph(graph);
//   apsp::sssp_all_pairs(Kokkos::OpenMP(), csr, [&](std::int64_t source, const int* row) {...});
#pragma once

#include <apsp/detail/measure.hpp>
#include <apsp/detail/region.hpp>
#include <apsp/error.hpp>
#include <apsp/graph.hpp>
#include <apsp/memory.hpp>
#include <apsp/plan.hpp>
#include <apsp/ranks.hpp>
#include <apsp/row_sink.hpp>
#include <apsp/solver_interface.hpp>

#include <KokkosSparse_CrsMatrix.hpp>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace apsp {

using CsrGraph =
    KokkosSparse::CrsMatrix<int, int,
                            Kokkos::Device<Kokkos::DefaultHostExecutionSpace, Kokkos::HostSpace>>;

// V x V, entry (u, v) = weight of the lightest edge u -> v (u != v); rows sorted by column.
inline CsrGraph make_csr_graph(std::int64_t vertices, const std::vector<Edge>& edges) {
  detail::ScopedRegion region("apsp::sssp::make_csr_graph");
  using Host = Kokkos::DefaultHostExecutionSpace;
  using Size = CsrGraph::size_type;
  const std::int64_t n = vertices;

  // Counting sort by source; each row then sorted as (column << 32 | weight), so that the
  // lightest of parallel edges comes first among them.
  std::vector<Size> offsets(std::size_t(n) + 1, 0);
  for (const Edge& e : edges)
    if (e.src != e.dst) ++offsets[std::size_t(e.src) + 1];
  for (std::int64_t i = 0; i < n; ++i)
    offsets[i + 1] += offsets[i];
  std::vector<std::uint64_t> arcs(offsets[n]);
  {
    std::vector<Size> next(offsets.begin(), offsets.end() - 1);
    for (const Edge& e : edges)
      if (e.src != e.dst)
        arcs[next[e.src]++] = std::uint64_t(std::uint32_t(e.dst)) << 32 | std::uint32_t(e.weight);
  }
  std::vector<Size> kept(std::size_t(n) + 1, 0);
  Kokkos::parallel_for("apsp::sssp::sort_rows",
                       Kokkos::RangePolicy<Host, Kokkos::IndexType<std::int64_t>>(0, n),
                       [&](std::int64_t i) {
                         std::uint64_t* const first = arcs.data() + offsets[i];
                         std::uint64_t* const last = arcs.data() + offsets[i + 1];
                         std::sort(first, last);
                         // After sorting, the first arc of each column is its lightest: keep those,
                         // in place.
                         std::uint64_t* out = first;
                         for (std::uint64_t* a = first; a != last; ++a)
                           if (out == first || (out[-1] >> 32) != (*a >> 32)) *out++ = *a;
                         kept[i + 1] = Size(out - first);
                       });
  Host().fence();
  for (std::int64_t i = 0; i < n; ++i)
    kept[i + 1] += kept[i];

  const Size nnz = kept[n];
  CsrGraph::row_map_type::non_const_type row_map(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::sssp::row_map"), n + 1);
  CsrGraph::index_type::non_const_type columns(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::sssp::columns"), nnz);
  CsrGraph::values_type weights(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::sssp::weights"), nnz);
  Kokkos::parallel_for("apsp::sssp::fill_csr",
                       Kokkos::RangePolicy<Host, Kokkos::IndexType<std::int64_t>>(0, n),
                       [&](std::int64_t i) {
                         row_map(i) = kept[i];
                         const std::uint64_t* arc = arcs.data() + offsets[i];
                         for (Size k = kept[i]; k < kept[i + 1]; ++k, ++arc) {
                           columns(k) = int(*arc >> 32);
                           weights(k) = int(*arc & 0xffffffffu);
                         }
                       });
  Host().fence();
  row_map(n) = nnz;
  return CsrGraph("apsp::sssp::graph", int(n), int(n), nnz, weights, row_map, columns);
}

inline CsrGraph make_csr_graph(const Graph& graph) {
  return make_csr_graph(graph.vertices, graph.edges);
}

namespace detail {

// The CSR graph as bytes, for a caller that keeps it (a prepared graph's file): its arrays,
// little-endian: u64 V, u64 arcs, (V + 1) x u64 row offsets, arcs x i32 columns, arcs x
// i32 weights.
inline std::vector<char> csr_bytes(const CsrGraph& graph) {
  const std::uint64_t n = std::uint64_t(graph.numRows()), arcs = std::uint64_t(graph.nnz());
  std::vector<char> bytes(16 + 8 * (n + 1) + 8 * arcs);
  char* p = bytes.data();
  const auto put = [&](const auto& x) {
    std::memcpy(p, &x, sizeof x);
    p += sizeof x;
  };
  put(n);
  put(arcs);
  for (std::uint64_t i = 0; i <= n; ++i)
    put(std::uint64_t(graph.graph.row_map(i)));
  for (std::uint64_t k = 0; k < arcs; ++k)
    put(std::int32_t(graph.graph.entries(k)));
  for (std::uint64_t k = 0; k < arcs; ++k)
    put(std::int32_t(graph.values(k)));
  return bytes;
}

// The CSR graph of V = `vertices` that csr_bytes gave these `count` bytes, checked as
// make_csr_graph makes one (offsets from 0 to the arcs, each row's columns ascending and no
// self-loop, weights in [0, sssp_max_weight]). Throws apsp::Error naming the first problem.
inline CsrGraph csr_from_bytes(const char* bytes, std::size_t count, std::int64_t vertices) {
  const auto fail = [](const std::string& what) {
    return Error("sssp: the graph's arrays " + what);
  };
  std::uint64_t n = 0, arcs = 0;
  if (count >= 16) {
    std::memcpy(&n, bytes, 8);
    std::memcpy(&arcs, bytes + 8, 8);
  }
  if (count < 16 || n != std::uint64_t(vertices))
    throw fail("are not of V = " + std::to_string(vertices) + " vertices");
  if (arcs > count / 8 || count != 16 + 8 * (n + 1) + 8 * arcs)
    throw fail("hold " + std::to_string(count) + " bytes, not those of " + std::to_string(arcs) +
               " arcs");
  using Size = CsrGraph::size_type;
  CsrGraph::row_map_type::non_const_type row_map(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::sssp::row_map"), n + 1);
  CsrGraph::index_type::non_const_type columns(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::sssp::columns"), arcs);
  CsrGraph::values_type weights(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::sssp::weights"), arcs);
  const char* offsets = bytes + 16;
  const char* column = offsets + 8 * (n + 1);
  const char* weight = column + 4 * arcs;
  std::uint64_t last = 0;
  for (std::uint64_t i = 0; i <= n; ++i) {
    std::uint64_t at;
    std::memcpy(&at, offsets + 8 * i, 8);
    if ((i == 0 && at != 0) || at < last || at > arcs || (i == n && at != arcs))
      throw fail("have row offsets that do not run from 0 to " + std::to_string(arcs));
    row_map(i) = Size(at);
    if (i == 0) continue;
    for (std::uint64_t k = last; k < at; ++k) {
      std::int32_t c, w;
      std::memcpy(&c, column + 4 * k, 4);
      std::memcpy(&w, weight + 4 * k, 4);
      if (c < 0 || std::uint64_t(c) >= n || std::uint64_t(c) == i - 1 ||
          (k > last && c <= columns(k - 1)))
        throw fail("have a row " + std::to_string(i - 1) +
                   " whose columns are not ascending vertices other than its own");
      if (w < 0 || w > sssp_max_weight)
        throw fail("have weight " + std::to_string(w) + ", not in [0, " +
                   std::to_string(sssp_max_weight) + "]");
      columns(k) = c;
      weights(k) = w;
    }
    last = at;
  }
  return CsrGraph("apsp::sssp::graph", int(n), int(n), Size(arcs), weights, row_map, columns);
}

}  // namespace detail

// Rows of the distance matrix, in host memory.
using DistanceRows = Kokkos::View<int**, Kokkos::LayoutRight, Kokkos::HostSpace>;

namespace detail {

// One Dijkstra run per source of a block, with Dial's bucket queue (R. Dial, CACM 12(11), 1969):
// distances are integers and weights at most `sssp_max_weight`, so every label still
// queued lies in [label, label + sssp_max_weight] and a ring of `buckets` > sssp_max_weight lists,
// one per label, orders them with O(1) insert, decrease and pop. O(E + V + D) per source (D: the
// largest distance) against O((E + V) log V) for a binary heap, slower per source as measured
// (docs/PERFORMANCE.md, "Sparse graphs: SSSP vs FW"). The lists are intrusive and doubly
// linked, so each thread's scratch is head[buckets], next[V] and prev[V], whatever E is.
template <class ExecSpace>
struct DijkstraFromSources {
  CsrGraph::row_map_type row_map;
  CsrGraph::index_type columns;
  CsrGraph::values_type weights;
  DistanceRows rows;  // rows(i, .) receives the distances from source(i)
  std::int64_t first_source;
  const std::int32_t* sources;  // null: source(i) = first_source + i; else sources[first + i]
  int buckets;                  // a power of two > the largest weight
  Kokkos::View<int**, Kokkos::LayoutRight, Kokkos::HostSpace> scratch;  // a row per thread
  Kokkos::Experimental::UniqueToken<ExecSpace> tokens;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    const int slot = tokens.acquire();
    int* const head = &scratch(slot, 0);
    const int n = int(rows.extent(1));
    const std::int64_t s = sources ? sources[first_source + i] : first_source + i;
    run(int(s), &rows(i, 0), head, head + buckets, head + buckets + n);
    tokens.release(slot);
  }

  KOKKOS_INLINE_FUNCTION void run(int source, int* distance, int* head, int* next,
                                  int* prev) const {
    const int n = int(rows.extent(1));
    const int mask = buckets - 1;
    for (int v = 0; v < n; ++v)
      distance[v] = Distance<int>::infinity;
    for (int b = 0; b < buckets; ++b)
      head[b] = -1;
    distance[source] = 0;
    head[0] = source;
    next[source] = prev[source] = -1;
    int queued = 1;
    for (int label = 0; queued > 0; ++label) {
      int& bucket = head[label & mask];
      while (bucket >= 0) {  // relaxing a 0-weight edge may add to this bucket
        const int u = bucket;
        bucket = next[u];
        if (bucket >= 0) prev[bucket] = -1;
        --queued;
        for (auto e = row_map(u); e < row_map(u + 1); ++e) {
          const int v = columns(e);
          const int dv = label + weights(e);
          if (dv < distance[v]) {
            if (distance[v] == Distance<int>::infinity) {
              ++queued;
            } else {  // unlink v from the list of its old label
              if (prev[v] >= 0)
                next[prev[v]] = next[v];
              else
                head[distance[v] & mask] = next[v];
              if (next[v] >= 0) prev[next[v]] = prev[v];
            }
            distance[v] = dv;
            int& list = head[dv & mask];
            next[v] = list;
            prev[v] = -1;
            if (list >= 0) prev[list] = v;
            list = v;
          }
        }
      }
    }
  }
};

}  // namespace detail

// Distances from sources first_source .. first_source + rows.extent(0) - 1 into `rows`
// (rows.extent(1) must be V), one Dijkstra run per source, sources in parallel on `exec`. With
// `sources` (vertices in [0, V)), row i is from sources[first_source + i] instead.
template <class ExecSpace>
void sssp_rows(const ExecSpace& exec, const CsrGraph& graph, std::int64_t first_source,
               const DistanceRows& rows, const std::int32_t* sources = nullptr) {
  static_assert(
      Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible,
      "apsp::sssp_rows runs on host backends: Dijkstra per source needs a queue per thread");
  detail::ScopedRegion region("apsp::sssp_rows");
  const std::int64_t n = graph.numRows();
  if (std::int64_t(rows.extent(1)) != n || first_source < 0 ||
      (!sources && first_source + std::int64_t(rows.extent(0)) > n))
    throw Error("apsp::sssp_rows: " + std::to_string(rows.extent(0)) + " x " +
                std::to_string(rows.extent(1)) + " rows from source " +
                std::to_string(first_source) + " do not fit a graph of " + std::to_string(n) +
                " vertices");
  if (rows.extent(0) == 0) return;
  const auto weights = graph.values;
  int heaviest = 0;  // stays 0 without edges
  // A host lambda, not KOKKOS_LAMBDA: sssp runs on host backends only (CONTRIBUTING.md,
  // "Kernels", says why the core has no KOKKOS_LAMBDA).
  if (weights.extent(0) > 0)
    Kokkos::parallel_reduce(
        "apsp::sssp::heaviest_edge",
        Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, weights.extent(0)),
        [=](std::int64_t e, int& m) { m = weights(e) > m ? weights(e) : m; },
        Kokkos::Max<int>(heaviest));
  if (heaviest > sssp_max_weight)
    throw Error("apsp::sssp_rows: edge weight " + std::to_string(heaviest) + " exceeds " +
                std::to_string(sssp_max_weight));
  int buckets = 1;
  while (buckets <= heaviest)
    buckets *= 2;
  Kokkos::Experimental::UniqueToken<ExecSpace> tokens(exec);
  detail::DijkstraFromSources<ExecSpace> dijkstra{
      graph.graph.row_map,
      graph.graph.entries,
      weights,
      rows,
      first_source,
      sources,
      buckets,
      Kokkos::View<int**, Kokkos::LayoutRight, Kokkos::HostSpace>(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::sssp::queues"), tokens.size(),
          buckets + 2 * n),
      tokens};
  // Dynamic: a source that reaches few vertices finishes early.
  Kokkos::parallel_for(
      "apsp::sssp::dijkstra",
      Kokkos::RangePolicy<ExecSpace, Kokkos::Schedule<Kokkos::Dynamic>,
                          Kokkos::IndexType<std::int64_t>>(exec, 0, rows.extent(0)),
      dijkstra);
  exec.fence();
}

// Rows per block of sssp_all_pairs: 64 MiB of distances, at least one row per thread.
template <class ExecSpace>
std::int64_t sssp_block_rows(const ExecSpace& exec, std::int64_t vertices) {
  const std::int64_t rows = (std::int64_t(64) << 20) / (4 * std::max<std::int64_t>(vertices, 1));
  return std::min(vertices, std::max<std::int64_t>(rows, exec.concurrency()));
}

// All rows in order: write_row(source, row) with row pointing at V distances, valid during the
// call. Holds one block of rows (sssp_block_rows) at a time.
template <class ExecSpace, class WriteRow>
void sssp_all_pairs(const ExecSpace& exec, const CsrGraph& graph, WriteRow&& write_row) {
  detail::ScopedRegion region("apsp::sssp_all_pairs");
  const std::int64_t n = graph.numRows();
  const std::int64_t block = sssp_block_rows(exec, n);
  if (n == 0) return;
  DistanceRows rows(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::sssp::rows"), block, n);
  for (std::int64_t first = 0; first < n; first += block) {
    const std::int64_t count = std::min(block, n - first);
    const auto part = Kokkos::subview(rows, std::make_pair(std::int64_t(0), count), Kokkos::ALL);
    sssp_rows(exec, graph, first, part);
    for (std::int64_t i = 0; i < count; ++i)
      write_row(first + i, &part(i, 0));
  }
}

// sssp in the shape of every solver (solver_interface.hpp): collective on the ranks, each of
// which runs the sources of its contiguous block of rows; its host memory checked before any
// work; then its rows, a block at a time, into a RowSink.
template <class ExecSpace>
class SsspSolver {
 public:
  using execution_space = ExecSpace;
  using value_type = int;

  // Dijkstra: weights of at least 0, no predecessors; any row is one search, so a list of rows.
  static constexpr Capabilities capabilities() {
    Capabilities can;
    can.rows_of_list = true;
    return can;
  }

  SsspSolver(const ExecSpace& exec, Ranks& ranks, std::int64_t vertices)
      : exec_(exec), ranks_(ranks), vertices_(vertices), block_(sssp_block_rows(exec, vertices)) {
    const RowBlocks blocks{int(vertices), ranks.size()};
    first_row_ = blocks.first(ranks.rank());
    real_rows_ = blocks.count(ranks.rank());
    APSP_CHECK_SOLVER(SsspSolver);
  }

  std::int64_t first_row() const { return first_row_; }
  std::int64_t real_rows() const { return real_rows_; }

  // Host memory with the graph's `edges`: make_csr_graph's counts and sorted arcs, the CSR
  // graph, a block of rows and each thread's queue.
  std::uint64_t device_bytes(std::int64_t edges) const {
    const std::uint64_t e = std::uint64_t(edges);
    return detail::saturating_sum(
        {3 * sizeof(CsrGraph::size_type) * std::uint64_t(vertices_ + 1) + 16 * e,
         std::uint64_t(block_) * std::uint64_t(vertices_) * sizeof(int),
         std::uint64_t(exec_.concurrency()) * std::uint64_t(2 * vertices_ + 1024) * sizeof(int)});
  }
  // Collective, before load: device_bytes against the limits (memory.hpp), as host memory (the
  // searches run on the host, whatever the limits say); throws MemoryError.
  void check_memory(const MemoryLimits& limits, std::int64_t edges) {
    MemoryLimits host = limits;
    host.host = true;
    apsp::check_memory(exec_, ranks_, vertices_, device_bytes(edges),
                       "host memory for sssp (E = " + std::to_string(edges) + ")", host);
  }

  // Collective: the CSR graph of every edge (every rank has them all; the caller may free them
  // after).
  void load(const std::vector<Edge>& edges) {
    collectively(ranks_, [&] { load(make_csr_graph(vertices_, edges)); });
  }
  // Or the CSR graph itself (a prepared graph's: detail::csr_from_bytes), on this rank.
  void load(CsrGraph graph) {
    csr_ = std::move(graph);
    rows_ = DistanceRows(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::sssp::rows"),
                         block_, vertices_);
  }
  // The CSR graph that load made (what a prepared graph keeps of sssp).
  const CsrGraph& graph() const { return csr_; }
  // Dijkstra has no negative weights, so no cycle: the rows are made as they are handed over.
  void compute() {}

  // This rank's rows, in order, into sink. RowSeconds::compute: the searches.
  RowSeconds distance_rows(const RowSink<int>& sink, const BlockDone& done = {}) {
    RowSeconds seconds;
    const std::int64_t end = first_row_ + real_rows_;
    for (std::int64_t first = first_row_; first < end; first += block_) {
      const std::int64_t count = std::min(block_, end - first);
      const auto part = Kokkos::subview(rows_, std::make_pair(std::int64_t(0), count), Kokkos::ALL);
      const auto start = detail::Clock::now();
      sssp_rows(exec_, csr_, first, part);
      seconds.compute += detail::seconds_since(start);
      const auto handed = detail::Clock::now();
      sink(first, count, part.data(), vertices_);
      seconds.sink += detail::seconds_since(handed);
      seconds.made += count;
      if (done) done(first, count);
    }
    return seconds;
  }

  // The rows of `vertices` (this rank's share of a list of sources), in the list's order, into
  // sink, which takes row i of the list as row i. RowSeconds::compute: the searches.
  RowSeconds distance_rows_of(const std::vector<std::int32_t>& vertices, const RowSink<int>& sink) {
    RowSeconds seconds;
    const std::int64_t end = std::int64_t(vertices.size());
    for (std::int64_t first = 0; first < end; first += block_) {
      const std::int64_t count = std::min(block_, end - first);
      const auto part = Kokkos::subview(rows_, std::make_pair(std::int64_t(0), count), Kokkos::ALL);
      const auto start = detail::Clock::now();
      sssp_rows(exec_, csr_, first, part, vertices.data());
      seconds.compute += detail::seconds_since(start);
      const auto handed = detail::Clock::now();
      sink(first, count, part.data(), vertices_);
      seconds.sink += detail::seconds_since(handed);
      seconds.made += count;
    }
    return seconds;
  }

  // The same rows into a DeviceRowSink: they are made in host memory, which is ExecSpace's.
  RowSeconds reduce_rows(const DeviceRowSink<ExecSpace, int>& sink, const BlockDone& done = {}) {
    using Rows = Kokkos::View<int**, Kokkos::LayoutRight, typename ExecSpace::memory_space>;
    return distance_rows(
        [&](std::int64_t first, std::int64_t count, const int* rows, std::int64_t) {
          sink(first, count, Rows(const_cast<int*>(rows), count, vertices_));
        },
        done);
  }

 private:
  ExecSpace exec_;
  Ranks& ranks_;
  std::int64_t vertices_, block_;
  std::int64_t first_row_ = 0, real_rows_ = 0;
  CsrGraph csr_;
  DistanceRows rows_;
};

}  // namespace apsp
