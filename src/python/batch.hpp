// apsp._native's batched part (batch.cpp): many graphs in one call (apsp.solve_batch, 3-D arrays
// in apsp.floyd_warshall) and the path of one small graph (apsp.floyd_warshall on a small
// matrix), on the library's BatchedSolver and solve_on_this_thread (apsp/batched.hpp); and the
// checks of an edge list that every call of the module shares.
#pragma once

#include <apsp/error.hpp>
#include <apsp/graph.hpp>
#include <apsp/negative_cycles.hpp>

#include <pybind11/pybind11.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>

namespace apsp {
namespace python {

// Runs a function on the module's Kokkos thread (module.cpp) and waits for it.
using OnKokkos = std::function<void(const std::function<void()>&)>;

// A library error in the module's words (module.cpp: dtype= where the command line says --dtype).
using InPythonWords = std::function<std::string(const Error&)>;

// Registers solve_batch_* and solve_dense_batch_float64 on the module; `negative_cycle` is the
// module's NegativeCycleError.
void register_batch(pybind11::module_& m, OnKokkos on_kokkos, pybind11::handle negative_cycle,
                    InPythonWords words);

// Graphs of up to this many vertices are solved by one call of the closure on the caller's
// thread: no Kokkos launch, no plan, no padding to a tile.
constexpr std::int64_t small_graph_limit = 128;

// The one-small-graph path of solve_dense_float64: the V x V weights w (C order, +inf: no edge,
// the diagonal not read) into (distances, predecessors or None), predecessors -1 where none.
// On a negative cycle returns an empty tuple and sets `verdict` (the vertex every algorithm names).
pybind11::tuple solve_small_dense(const double* w, std::int64_t n, bool predecessors,
                                  CycleVerdict& verdict);

// The WeightRange of the n x n weights w (C order; +inf: no edge; the diagonal is not read) as
// weight_range (graph.hpp) gives it for the same edges; a ValueError where an entry is NaN or
// -inf.
WeightRange dense_weight_range(const double* w, std::int64_t n);

// The checks of an edge list, each written once for every call that takes one: ValueErrors that
// name the first thing wrong, and the edge as given.

// src, dst and, where given (>= 0), weight of one length.
inline void check_lengths(std::int64_t src, std::int64_t dst, std::int64_t weight = -1) {
  if (dst == src && (weight < 0 || weight == src)) return;
  const std::string got = std::to_string(src) + ", " + std::to_string(dst);
  if (weight < 0)
    throw pybind11::value_error("src and dst must have the same length (got " + got + ")");
  throw pybind11::value_error("src, dst and weight must have the same length (got " + got + ", " +
                              std::to_string(weight) + ")");
}
// num_vertices in 0..2^31-1.
inline void check_vertex_count(std::int64_t n) {
  if (n < 0 || n > std::numeric_limits<std::int32_t>::max())
    throw pybind11::value_error("num_vertices must be in 0..2^31-1, got " + std::to_string(n));
}
// Edge e, s -> t, inside 0..n-1 (`batch`: the concatenated numbering of a batch's graphs).
inline void check_vertices(std::int64_t e, std::int64_t s, std::int64_t t, std::int64_t n,
                           bool batch = false) {
  if (s < 0 || s >= n || t < 0 || t >= n)
    throw pybind11::value_error("edge " + std::to_string(e) + " (" + std::to_string(s) + " -> " +
                                std::to_string(t) + ") has a vertex outside 0.." +
                                std::to_string(n - 1) + (batch ? " (the batch's vertices)" : ""));
}
// Edge e's weight finite (`graph` >= 0: named in the error).
inline void check_weight(std::int64_t e, double w, std::int64_t graph = -1) {
  if (!std::isfinite(w))
    throw pybind11::value_error("edge " + std::to_string(e) +
                                (graph >= 0 ? " (graph " + std::to_string(graph) + ")" : "") +
                                " has a weight that is not finite");
}

}  // namespace python
}  // namespace apsp
