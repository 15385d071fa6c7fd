// The graph as the readers give it: V vertices, E weighted directed edges. Weights are real
// numbers (double); the HW3 format and the generator give integers, and the distance type the
// solver works in (distance.hpp) is chosen from the weights (choose_distance_type).
#pragma once

#include <apsp/distance.hpp>
#include <apsp/error.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace apsp {

struct Edge {
  std::int32_t src;
  std::int32_t dst;
  double weight;

  Edge() = default;  // trivial: edges travel as bytes (MPI, device copies)
  // Any arithmetic weight, without a narrowing complaint for Edge{u, v, int_weight}.
  template <class W>
  Edge(std::int32_t from, std::int32_t to, W w) : src(from), dst(to), weight(double(w)) {}
};

struct Graph {
  std::int32_t vertices = 0;
  std::vector<Edge> edges;
};

// The sum of the `count` largest of the magnitudes given to add(), or of all of them where
// fewer: O(1) time per value on average and O(count) memory (a buffer of 2 count values, cut
// back to its count largest whenever it fills).
class LargestMagnitudes {
 public:
  explicit LargestMagnitudes(std::int64_t count)
      : count_(std::size_t(std::max<std::int64_t>(count, 0))) {}
  void add(double w) {
    if (count_ == 0) return;
    kept_.push_back(std::fabs(w));
    if (kept_.size() == 2 * count_) keep_largest();
  }
  double sum() {
    keep_largest();
    double s = 0;
    for (const double x : kept_)
      s += x;
    return s;
  }

 private:
  void keep_largest() {
    if (kept_.size() <= count_) return;
    std::nth_element(kept_.begin(), kept_.begin() + std::ptrdiff_t(count_), kept_.end(),
                     std::greater<double>());
    kept_.resize(count_);
  }
  std::size_t count_;
  std::vector<double> kept_;
};

// What the distance type depends on: the weights' range, whether all are whole numbers, and how
// long a shortest path can be.
struct WeightRange {
  double lowest = 0, highest = 0;  // 0 and 0 without edges
  bool integers = true;
  // The sum of the max(V - 1, 1) largest |w|: no real distance is longer in magnitude (a
  // shortest path is simple, so it takes at most V - 1 edges, each once; path_bounds_problem).
  double longest_path = 0;
  bool negative() const { return lowest < 0; }
  double largest_magnitude() const { return std::max(-lowest, highest); }
};

// A self-loop of weight >= 0 never lowers dist(i,i) = 0, so it is left out of the range (the
// fill skips it too): a 1e308 self-loop does not make the paths too long for every type. It
// still counts for whether the weights are whole numbers (the type auto picks).
// The edges of a graph of `vertices` vertices in any form (an edge list, a dense matrix, one
// graph of a batch): each_edge(add) calls add(src, dst, weight) once per edge.
template <class EachEdge>
WeightRange weight_range(std::int64_t vertices, const EachEdge& each_edge) {
  WeightRange range;
  LargestMagnitudes longest(std::max<std::int64_t>(vertices - 1, 1));
  bool first = true;
  each_edge([&](std::int64_t src, std::int64_t dst, double weight) {
    range.integers = range.integers && weight == std::floor(weight);
    if (src == dst && weight >= 0) return;
    range.lowest = first ? weight : std::min(range.lowest, weight);
    range.highest = first ? weight : std::max(range.highest, weight);
    longest.add(weight);
    first = false;
  });
  range.longest_path = longest.sum();
  return range;
}

inline WeightRange weight_range(std::int64_t vertices, const std::vector<Edge>& edges) {
  return weight_range(vertices, [&](const auto& add) {
    for (const Edge& e : edges)
      add(e.src, e.dst, e.weight);
  });
}
inline WeightRange weight_range(const Graph& graph) {
  return weight_range(graph.vertices, graph.edges);
}

// The distance type of a run: the one asked for, after checking that it can hold the graph's
// distances; or, with nothing asked (auto), int32 when every weight is a whole number and int32
// holds the paths (today's inputs keep today's exact output), else float64. Throws
// DistanceTypeError (error.hpp) with the type that would do.
inline DistanceType choose_distance_type(std::optional<DistanceType> asked, std::int64_t vertices,
                                         const WeightRange& weights) {
  const double m = weights.longest_path;
  const bool negative = weights.negative();
  const std::string int32_problem = path_bounds_problem<int>(vertices, m, negative);
  if (!asked) {
    if (weights.integers && int32_problem.empty()) return DistanceType::int32;
    asked = DistanceType::float64;
  }
  // float64 is suggested only where it holds the paths.
  const bool float64_holds = path_bounds_problem<double>(vertices, m, negative).empty();
  const int wider = float64_holds ? int(DistanceType::float64) : -1;
  const std::string none =
      float64_holds ? "" : ": no distance type holds such paths (scale the weights down)";
  if (*asked == DistanceType::int32) {
    if (!weights.integers)
      throw DistanceTypeError("int32 distances need whole-number weights and this graph has others",
                              wider);
    if (!int32_problem.empty()) throw DistanceTypeError(int32_problem + none, wider);
    return *asked;
  }
  const std::string problem = *asked == DistanceType::float32
                                  ? path_bounds_problem<float>(vertices, m, negative)
                                  : path_bounds_problem<double>(vertices, m, negative);
  if (!problem.empty())
    throw DistanceTypeError(problem + (*asked == DistanceType::float32 ? none : ""),
                            *asked == DistanceType::float32 ? wider : -1);
  return *asked;
}

}  // namespace apsp
