// The sssp algorithm's host parts: choosing it, building the CSR graph, and solve_hw3's path
// through it (include/apsp/sssp.hpp has the kernel).
#include <apsp/backends.hpp>
#include <apsp/formats.hpp>
#include <apsp/hw3_io.hpp>
#include <apsp/solve.hpp>
#include <apsp/sssp.hpp>

#include "support.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace apsp {

std::optional<Algorithm> algorithm_named(const std::string& name) {
  if (name == "auto") return Algorithm::automatic;
  if (name == "fw") return Algorithm::floyd_warshall;
  if (name == "sssp") return Algorithm::sssp;
  return std::nullopt;
}

const char* algorithm_name(Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::floyd_warshall:
      return "fw";
    case Algorithm::sssp:
      return "sssp";
    default:
      return "auto";
  }
}

Algorithm choose_algorithm(Algorithm asked, const std::string& backend, bool host_backend,
                           const Graph& graph) {
  const bool negative = has_negative_weight(graph);
  if (asked == Algorithm::sssp) {
    if (negative)
      throw Error(
          "--algorithm sssp (Dijkstra) needs non-negative weights and this graph has "
          "negative ones: use --algorithm fw");
    if (!sssp_available)
      throw Error(
          "--algorithm sssp needs Kokkos Kernels, which this build lacks: use "
          "--algorithm fw, or rebuild apsp against a Kokkos with Kokkos Kernels");
    if (!host_backend)
      throw Error("--algorithm sssp runs on host backends only (Dijkstra per source), not on " +
                  backend + ": add --backend openmp or --backend serial, or use --algorithm fw");
  }
  if (asked != Algorithm::automatic) return asked;
  const double v = double(graph.vertices);
  const bool sparse = double(graph.edges.size()) < sssp_max_density * v * v;
  return sssp_available && host_backend && sparse && !negative ? Algorithm::sssp
                                                               : Algorithm::floyd_warshall;
}

#if defined(APSP_HAVE_KOKKOS_KERNELS)

CsrGraph make_csr_graph(const Graph& graph) {
  detail::ScopedRegion region("apsp::sssp::make_csr_graph");
  using Host = Kokkos::DefaultHostExecutionSpace;
  using Size = CsrGraph::size_type;
  const std::int64_t n = graph.vertices;

  // Counting sort by source; each row then sorted as (column << 32 | weight), so that the
  // lightest of parallel edges comes first among them.
  std::vector<Size> offsets(std::size_t(n) + 1, 0);
  for (const Edge& e : graph.edges)
    if (e.src != e.dst) ++offsets[std::size_t(e.src) + 1];
  for (std::int64_t i = 0; i < n; ++i)
    offsets[i + 1] += offsets[i];
  std::vector<std::uint64_t> arcs(offsets[n]);
  {
    std::vector<Size> next(offsets.begin(), offsets.end() - 1);
    for (const Edge& e : graph.edges)
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

namespace {

template <class ExecSpace>
void solve_sssp_on(const ExecSpace& exec, const SolveConfig& config, const Graph& graph,
                   SolveStats& stats, OutputTransaction& outputs) {
  detail::ScopedRegion region("apsp::solve_sssp");
  const std::int64_t n = graph.vertices;
  stats.algorithm = algorithm_name(Algorithm::sssp);
  stats.shape = "Dijkstra per source, bucket queue";
  stats.padded = n;
  // Host memory, before any work: make_csr_graph's counts and sorted arcs, the CSR graph, a
  // block of rows and each thread's queue.
  const std::int64_t block = sssp_block_rows(exec, n);
  const std::uint64_t e = graph.edges.size();
  const std::uint64_t needed = detail::saturating_sum(
      {3 * sizeof(CsrGraph::size_type) * std::uint64_t(n + 1) + 16 * e, matrix_bytes(block, n),
       matrix_bytes(exec.concurrency(), 2 * n + 1024)});
  const std::uint64_t usable = detail::usable_memory(exec, config.max_memory);
  if (needed > usable)
    throw Error("V = " + std::to_string(n) + " needs " + detail::size_text(needed) +
                " of host memory for --algorithm sssp (E = " + std::to_string(e) + "), but only " +
                detail::size_text(usable) + " can be used");
  check_disk_space(config.output, output_bytes(config.output_format, n));
  AtomicOutputFile& out = outputs.add(config.output);

  auto stage = detail::Clock::now();
  const CsrGraph csr = make_csr_graph(graph);
  DistanceRows rows(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::sssp::rows"), block, n);
  stats.upload_s = detail::seconds_since(stage);

  std::string text;
  for (std::int64_t first = 0; first < n; first += block) {
    const std::int64_t count = std::min(block, n - first);
    const auto part = Kokkos::subview(rows, std::make_pair(std::int64_t(0), count), Kokkos::ALL);
    stage = detail::Clock::now();
    sssp_rows(exec, csr, first, part);
    stats.compute_s += detail::seconds_since(stage);
    stage = detail::Clock::now();
    if (config.output_format == OutputFormat::hw3) {
      out.write(part.data(), std::size_t(count * n) * sizeof(int));
    } else {
      for (std::int64_t i = 0; i < count; ++i) {
        text.clear();
        append_text_row(text, &part(i, 0), n);
        out.write(text.data(), text.size());
      }
    }
    stats.write_s += detail::seconds_since(stage);
  }
}

}  // namespace

#endif  // APSP_HAVE_KOKKOS_KERNELS

namespace detail {

void solve_sssp(const SolveConfig& config, const Graph& graph, SolveStats& stats,
                OutputTransaction& outputs) {
#if defined(APSP_HAVE_KOKKOS_KERNELS)
  with_backend(stats.backend, [&](auto exec) {
    using ExecSpace = decltype(exec);
    if constexpr (Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible)
      solve_sssp_on(exec, config, graph, stats, outputs);
    else
      choose_algorithm(Algorithm::sssp, stats.backend, false, graph);  // throws
  });
#else
  choose_algorithm(Algorithm::sssp, stats.backend, true, graph);  // throws
  (void)config;
  (void)outputs;
#endif
}

}  // namespace detail
}  // namespace apsp
