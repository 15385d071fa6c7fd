// What the parts of apsp._native share (module.cpp defines them): NumPy arrays as results, the
// module's words for types, algorithms and warnings, an edge list as a Graph, the measures as a
// dict. The parts: module.cpp (one graph, one call), batch.cpp (many graphs in one call),
// graph.cpp (apsp.Graph: one graph prepared for many calls).
#pragma once

#include <apsp/distance.hpp>
#include <apsp/graph.hpp>
#include <apsp/measures.hpp>
#include <apsp/negative_cycles.hpp>

#include "io/measures_output.hpp"
#include "run/run_graph.hpp"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>

namespace apsp {
namespace python {

template <class T>
using HostArray = pybind11::array_t<T, pybind11::array::c_style | pybind11::array::forcecast>;

// A warning of the library (a tuning cache that cannot be used) as Python's RuntimeWarning, once
// per process and message; never printed to C's stderr. The GIL is held.
void warn_once(const std::string& message);

// A distance type named by the module's Python layer (int32, float32, float64); else ValueError.
DistanceType type_named(const std::string& name);

// The distance type of a run: `asked` (auto or a type's name) by choose_distance_type
// (graph.hpp), the command line's --dtype rule.
DistanceType distance_type(const std::string& asked, std::int64_t n, const WeightRange& weights);

// The request of `algorithm`: auto, fw or supernodal (Dijkstra writes only files).
GraphRequest request_of(const std::string& algorithm);

// The edges src[e] -> dst[e] of weight[e] (in float64, as the command line reads weights) on n
// vertices as a Graph; a vertex out of range or a weight that is not finite is a ValueError.
// `weight` null: every weight is `unweighted` (explain_choice, where only the sign matters).
Graph edge_list_graph(const HostArray<std::int64_t>& src, const HostArray<std::int64_t>& dst,
                      const HostArray<double>* weight, std::int64_t n, double unweighted = 1);

// The measures as apsp.measures returns them (distances in `type`).
pybind11::dict measures_dict(const GraphMeasures& m, const MeasuresRequest& request,
                             DistanceType type);

// Registers apsp.Graph's native part, PreparedGraph (graph.cpp); `on_kokkos` runs a function on
// the module's Kokkos thread.
void register_graph(pybind11::module_& m);

// Registers apsp.solve_batch and the (B, n, n) path of apsp.floyd_warshall (batch.cpp).
void register_batch(pybind11::module_& m);

// Graphs of up to this many vertices are solved by one call of the closure on the caller's
// thread: no Kokkos launch, no plan, no padding to a tile.
constexpr std::int64_t small_graph_limit = 128;

// The one-small-graph path of solve_dense_float64 (batch.cpp): the V x V weights w (C order,
// +inf: no edge, the diagonal not read) into (distances, predecessors or None), predecessors -1
// where none. On a negative cycle returns an empty tuple and sets `verdict` (the vertex every
// algorithm names).
pybind11::tuple solve_small_dense(const double* w, std::int64_t n, bool predecessors,
                                  CycleVerdict& verdict);

// Frees every prepared graph's device memory (at exit, before Kokkos is finalized); a graph
// used afterwards says it is closed.
void close_graphs();

}  // namespace python
}  // namespace apsp
