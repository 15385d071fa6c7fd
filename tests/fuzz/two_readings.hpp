// What every reader target checks of its two readings of one input, refusing (strict) and
// allowing (relaxed) negative weights: a graph that is read keeps every promise of apsp::Graph
// (at least one vertex, vertices in range, finite weights), and the two
// agree, except that only the relaxed reading reads a graph with a negative weight, and the
// strict one then names the option that would read it.
#pragma once

#include <apsp/graph.hpp>

#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>

namespace apsp_fuzz {

inline bool same_graph(const apsp::Graph& a, const apsp::Graph& b) {
  if (a.vertices != b.vertices || a.edges.size() != b.edges.size()) return false;
  for (std::size_t e = 0; e < a.edges.size(); ++e)
    if (a.edges[e].src != b.edges[e].src || a.edges[e].dst != b.edges[e].dst ||
        a.edges[e].weight != b.edges[e].weight)
      return false;
  return true;
}

// Aborts (a finding) unless the readings keep the promises above; returns the relaxed reading's
// graph, or null when neither reading read one.
inline const apsp::Graph* checked_readings(const std::optional<apsp::Graph>& strict,
                                           const std::string& strict_error,
                                           const std::optional<apsp::Graph>& relaxed) {
  if (!relaxed) {
    if (strict) std::abort();
    return nullptr;
  }
  const apsp::Graph& graph = *relaxed;
  if (graph.vertices < 1) std::abort();
  for (const apsp::Edge& e : graph.edges)
    if (e.src < 0 || e.src >= graph.vertices || e.dst < 0 || e.dst >= graph.vertices ||
        !std::isfinite(e.weight))
      std::abort();
  if (apsp::weight_range(graph).negative()
          ? strict || strict_error.find("--allow-negative") == std::string::npos
          : !strict || !same_graph(*strict, graph))
    std::abort();
  return &graph;
}

}  // namespace apsp_fuzz
