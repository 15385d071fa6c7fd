// The sssp algorithm's host parts: choosing it and building the CSR graph (src/job/sssp.hpp
// has the kernel; src/job/pipeline.cpp runs it on each rank's sources).
#include "job/sssp.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace apsp {

Algorithm choose_algorithm(Algorithm asked, const std::string& backend, bool host_backend,
                           const Graph& graph, DistanceType type) {
  const WeightRange weights = weight_range(graph);
  const bool negative = weights.negative();
  const bool bucket_weights = type == DistanceType::int32 && weights.highest <= sssp_max_weight;
  if (asked == Algorithm::sssp) {
    if (negative)
      throw Error(
          "--algorithm sssp (Dijkstra) needs non-negative weights and this graph has "
          "negative ones: use --algorithm fw");
    if (!bucket_weights)
      throw Error(std::string("--algorithm sssp computes int32 distances with weights up to ") +
                  std::to_string(sssp_max_weight) + ", and these are " + distance_type_name(type) +
                  " with weights up to " + number_text(weights.highest) + ": use --algorithm fw");
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
  return sssp_available && host_backend && sparse && !negative && bucket_weights
             ? Algorithm::sssp
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

#endif  // APSP_HAVE_KOKKOS_KERNELS

}  // namespace apsp
