// Choosing sssp (Dijkstra from every source, the core's apsp/sssp.hpp): whether this build has
// it, when `auto` picks it, and the refusal where it cannot run, worded for the command line.
//
// Kokkos Kernels is optional: without it (APSP_HAVE_KOKKOS_KERNELS undefined) only the
// algorithm choice below exists, and it refuses sssp with a message that says why.
#pragma once

#include <apsp/graph.hpp>
#include <apsp/plan.hpp>

#include "platform/config.hpp"

#if defined(APSP_HAVE_KOKKOS_KERNELS)
#include <apsp/sssp.hpp>
#endif

#include <string>

namespace apsp {

#if defined(APSP_HAVE_KOKKOS_KERNELS)
constexpr bool sssp_available = true;
#else
constexpr bool sssp_available = false;
#endif

// `auto` picks sssp on a host backend when E < sssp_max_density * V^2 (E as read, parallel
// edges and self-loops included): measured on 2 OpenMP threads against the FW CPU path
// (docs/PERFORMANCE.md, "Sparse graphs: SSSP vs FW").
constexpr double sssp_max_density = 0.02;

// The algorithm a run on `backend` uses: `asked`, or for Algorithm::automatic the faster one
// for this graph. sssp (a bucket queue) needs int32 distances (`type`) and weights in
// [0, sssp_max_weight]: never chosen otherwise. Throws apsp::Error when sssp is asked for and
// cannot run (a build without Kokkos Kernels, a device backend, negative, real or heavy weights).
Algorithm choose_algorithm(Algorithm asked, const std::string& backend, bool host_backend,
                           const Graph& graph, DistanceType type = DistanceType::int32);
// The same for a graph of `vertices`, `edges` (as read) whose weights span `weights`.
Algorithm choose_algorithm(Algorithm asked, const std::string& backend, bool host_backend,
                           std::int64_t vertices, std::int64_t edges, const WeightRange& weights,
                           DistanceType type);

}  // namespace apsp
