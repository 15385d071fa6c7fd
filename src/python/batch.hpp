// apsp._native's batched part (batch.cpp): many graphs in one call (apsp.solve_batch, 3-D arrays
// in apsp.floyd_warshall) and the path of one small graph (apsp.floyd_warshall on a small
// matrix), on the library's BatchedSolver and solve_on_this_thread (apsp/batched.hpp).
#pragma once

#include <apsp/error.hpp>
#include <apsp/graph.hpp>
#include <apsp/negative_cycles.hpp>

#include <pybind11/pybind11.h>

#include <cstdint>
#include <functional>
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
// weight_range (graph.hpp) gives it for the same edges; false where an entry is NaN or -inf.
bool dense_weight_range(const double* w, std::int64_t n, WeightRange& range);

}  // namespace python
}  // namespace apsp
