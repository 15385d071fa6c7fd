// What the parts of apsp._native share (module.cpp defines them): NumPy arrays as results, the
// module's words for types, algorithms and warnings, an edge list as a Graph, the measures as a
// dict. The parts: module.cpp (one graph, one call), batch.cpp (many graphs in one call),
// graph.cpp (apsp.Graph: one graph prepared for many calls).
#pragma once

#include <apsp/distance.hpp>
#include <apsp/graph.hpp>
#include <apsp/measures.hpp>
#include <apsp/row_sink.hpp>

#include "io/measures_output.hpp"
#include "run/run_graph.hpp"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstring>
#include <string>

namespace apsp {
namespace python {

template <class T>
using HostArray = pybind11::array_t<T, pybind11::array::c_style | pybind11::array::forcecast>;

// Rows [first, first + count) that the solver hands over on the host (row r at rows + r *
// stride), their first n entries, into the NumPy array at `to` (n per row), in parallel.
template <class V>
void copy_rows(const V* rows, std::int64_t stride, std::int64_t first, std::int64_t count,
               std::int64_t n, V* to) {
  Kokkos::parallel_for(
      "apsp::python::copy_rows",
      Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::IndexType<std::int64_t>>(
          0, count),
      [&](std::int64_t i) {
        std::memcpy(to + (first + i) * n, rows + i * stride, std::size_t(n) * sizeof(V));
      });
  Kokkos::DefaultHostExecutionSpace().fence();
}

// The RowSink of a 2-D NumPy array: the rows the solver hands over (row i as the array's row i),
// copied in.
template <class V>
RowSink<V> rows_into(HostArray<V>& array) {
  const std::int64_t n = array.shape(1);
  V* to = array.mutable_data();
  return [n, to](std::int64_t first, std::int64_t count, const V* rows, std::int64_t stride) {
    copy_rows(rows, stride, first, count, n, to);
  };
}

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

// Frees every prepared graph's device memory (at exit, before Kokkos is finalized); a graph
// used afterwards says it is closed.
void close_graphs();

}  // namespace python
}  // namespace apsp
