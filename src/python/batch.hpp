// apsp._native's batched part (batch.cpp): many graphs in one call (apsp.solve_batch, 3-D arrays
// in apsp.floyd_warshall) and the path of one small graph (apsp.floyd_warshall on a small
// matrix), on the library's BatchedSolver and solve_on_this_thread (apsp/batched.hpp).
#pragma once

#include <apsp/negative_cycles.hpp>

#include <pybind11/pybind11.h>

#include <cstdint>

namespace apsp {
namespace python {

// Registers solve_batch and solve_dense_batch_float64 on the module.
void register_batch(pybind11::module_& m);

// Graphs of up to this many vertices are solved by one call of the closure on the caller's
// thread: no Kokkos launch, no plan, no padding to a tile.
constexpr std::int64_t small_graph_limit = 128;

// The one-small-graph path of solve_dense_float64: the V x V weights w (C order, +inf: no edge,
// the diagonal not read) into (distances, predecessors or None), predecessors -1 where none.
// On a negative cycle returns an empty tuple and sets `verdict` (the vertex every algorithm names).
pybind11::tuple solve_small_dense(const double* w, std::int64_t n, bool predecessors,
                                  CycleVerdict& verdict);

}  // namespace python
}  // namespace apsp
