// Choosing sssp (the algorithm itself is the core's apsp/sssp.hpp; src/run/pipeline.cpp runs it
// on each rank's sources).
#include "plan/sssp_choice.hpp"

#include <cstdint>
#include <string>

namespace apsp {

Algorithm choose_algorithm(Algorithm asked, const std::string& backend, bool host_backend,
                           const Graph& graph, DistanceType type) {
  return choose_algorithm(asked, backend, host_backend, graph.vertices,
                          std::int64_t(graph.edges.size()), weight_range(graph), type);
}

Algorithm choose_algorithm(Algorithm asked, const std::string& backend, bool host_backend,
                           std::int64_t vertices, std::int64_t edges, const WeightRange& weights,
                           DistanceType type) {
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
  const double v = double(vertices);
  const bool sparse = double(edges) < sssp_max_density * v * v;
  return sssp_available && host_backend && sparse && !negative && bucket_weights
             ? Algorithm::sssp
             : Algorithm::floyd_warshall;
}

}  // namespace apsp
