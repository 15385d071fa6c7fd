// apsp._native's batched part: many graphs in one call on the library's batched solver
// (apsp/batched.hpp), and one small graph on the caller's thread. SciPy's conventions for 3-D
// arrays live in apsp/__init__.py; here: edge lists in the concatenated numbering (PyG's), each
// checked to stay inside its graph (run/array_inputs.hpp, which also picks the types to solve
// them in), dense (B, n, n) weights, results ragged or padded.
#include "module.hpp"

#include <apsp/batched.hpp>
#include <apsp/distance.hpp>
#include <apsp/graph.hpp>
#include <apsp/paths.hpp>

#include "platform/kokkos_thread.hpp"
#include "run/array_inputs.hpp"
#include "run/run_batch.hpp"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace py = pybind11;

namespace apsp {
namespace python {
namespace {

using Exec = Kokkos::DefaultExecutionSpace;
constexpr int scipy_none = -9999;  // SciPy's "no predecessor"

// The batch on the Kokkos thread (run_batch, run/run_batch.hpp), the GIL released: its solver
// made and its memory checked (MemoryError before any work), then `allocate(solver)` with the
// GIL (the NumPy results), then the solve into the pointers it returns.
template <class T, class U, class Allocate, class Load>
void solve_on_kokkos(std::vector<std::int64_t> sizes, const batched::BatchOptions<U>& options,
                     std::int64_t edges, const Allocate& allocate, const Load& load) {
  std::unique_ptr<BatchedSolver<Exec, T, U>> solver;
  {
    py::gil_scoped_release release;
    kokkos_thread().run(
        [&] { solver = batch_solver<Exec, T, U>(Exec(), std::move(sizes), options, edges); });
  }
  const std::pair<U*, int*> to = allocate(*solver);
  py::gil_scoped_release release;
  kokkos_thread().run([&] { run_batch(std::move(solver), load, to.first, to.second); });
}

// ---- apsp.solve_batch: ragged edge lists ----

// solve_batch in T (computing) and U (results) on the batched solver.
template <class T, class U>
py::tuple solve_batch_in(const EdgeBatch& batch, const HostArray<std::int64_t>& src,
                         const HostArray<std::int64_t>& dst, const HostArray<double>& weight,
                         bool directed, bool predecessors, bool padded) {
  const py::ssize_t count = batch.graphs(), largest = batch.largest;
  HostArray<U> dist;
  HostArray<std::int32_t> pred;
  HostArray<std::int64_t> offsets(count + 1);
  const auto allocate = [&](const BatchedSolver<Exec, T, U>& solver) {
    dist = HostArray<U>(padded ? std::vector<py::ssize_t>{count, largest, largest}
                               : std::vector<py::ssize_t>{py::ssize_t(solver.values())});
    pred =
        HostArray<std::int32_t>(predecessors ? dist.request().shape : std::vector<py::ssize_t>{0});
    std::copy(solver.value_offsets().begin(), solver.value_offsets().end(), offsets.mutable_data());
    return std::make_pair(dist.mutable_data(), predecessors ? pred.mutable_data() : nullptr);
  };
  const auto load = [&](BatchedSolver<Exec, T, U>& solver) {
    std::vector<batched::BatchEdge<double>> packed;
    std::vector<std::int64_t> edge_offsets;
    pack_edges(batch, src.data(), dst.data(), weight.data(), directed, packed, edge_offsets);
    solver.load(edge_offsets, std::move(packed));
  };
  solve_on_kokkos<T>(batch.sizes(), batch_options<U>(batch, predecessors, padded, scipy_none),
                     std::int64_t(batch.graph.size()) * (directed ? 1 : 2), allocate, load);
  return py::make_tuple(dist, predecessors ? py::object(pred) : py::object(py::none()), offsets);
}

// apsp.solve_batch's native part: (distances, predecessors or None, value offsets); distances
// (B, nmax, nmax) when padded, else flat with graph g's n x n matrix at value offsets[g].
py::tuple solve_batch(const HostArray<std::int64_t>& sizes, const HostArray<std::int64_t>& src,
                      const HostArray<std::int64_t>& dst, const HostArray<double>& weight,
                      const std::string& dtype, bool directed, bool predecessors, bool padded) {
  if (sizes.ndim() != 1 || src.ndim() != 1 || dst.ndim() != 1 || weight.ndim() != 1)
    throw py::value_error("sizes, src, dst and weight must be one-dimensional");
  check_lengths(src.size(), dst.size(), weight.size());
  DistanceType type = DistanceType::float64;
  if (dtype != "auto" && !distance_type_named(dtype, type))
    throw py::value_error("dtype must be auto, int32, float32 or float64, got '" + dtype + "'");
  EdgeBatch batch;
  {
    py::gil_scoped_release release;
    batch = scan_edge_batch(sizes.data(), sizes.size(), src.data(), dst.data(), weight.data(),
                            src.size());
  }
  const BatchTypes types =
      batch_types(batch, dtype == "auto" ? std::nullopt : std::optional<DistanceType>(type));
  const auto solve = [&](auto t, auto u) {
    return solve_batch_in<decltype(t), decltype(u)>(batch, src, dst, weight, directed, predecessors,
                                                    padded);
  };
  if (types.compute == DistanceType::float32) return solve(float{}, float{});
  if (types.compute == DistanceType::float64) return solve(double{}, double{});
  return visit_distance_type(types.results, [&](auto u) { return solve(int{}, u); });
}

// ---- apsp.floyd_warshall on a (B, n, n) array ----

template <class T>
py::tuple solve_dense_batch_in(const HostArray<double>& weights, std::int64_t count, std::int64_t n,
                               const DenseBatch& batch, bool predecessors) {
  HostArray<double> dist;
  HostArray<std::int32_t> pred;
  const auto allocate = [&](const BatchedSolver<Exec, T, double>&) {
    dist = HostArray<double>(std::vector<py::ssize_t>{count, n, n});
    pred = HostArray<std::int32_t>(predecessors ? std::vector<py::ssize_t>{count, n, n}
                                                : std::vector<py::ssize_t>{0});
    return std::make_pair(dist.mutable_data(), predecessors ? pred.mutable_data() : nullptr);
  };
  const double* w = weights.data();
  // The predecessors' edges: at most every entry.
  solve_on_kokkos<T>(std::vector<std::int64_t>(std::size_t(count), n),
                     batch_options<double>(batch, predecessors), predecessors ? count * n * n : 0,
                     allocate, [w](BatchedSolver<Exec, T, double>& s) { s.load_dense(w); });
  return py::make_tuple(dist, predecessors ? py::object(pred) : py::object(py::none()));
}

// (B, n, n) float64 weights (C order, +inf: no edge, the diagonal not read) into (distances
// (B, n, n) float64, predecessors (B, n, n) int32 with -1 for none, or None).
py::tuple solve_dense_batch(const HostArray<double>& weights, bool predecessors) {
  if (weights.ndim() != 3 || weights.shape(1) != weights.shape(2))
    throw py::value_error("weights must be a (B, n, n) array");
  const std::int64_t count = weights.shape(0), n = weights.shape(1);
  if (n > std::numeric_limits<std::int32_t>::max() || count > std::numeric_limits<int>::max())
    throw py::value_error("at most 2^31-1 graphs of 2^31-1 vertices");
  DenseBatch batch;
  {
    py::gil_scoped_release release;
    batch = scan_dense_batch(weights.data(), count, n);
  }
  if (batch.compute == DistanceType::int32)
    return solve_dense_batch_in<int>(weights, count, n, batch, predecessors);
  return solve_dense_batch_in<double>(weights, count, n, batch, predecessors);
}

}  // namespace

// ---- one small graph, on the caller's thread ----

py::tuple solve_small_dense(const double* w, std::int64_t n, bool predecessors,
                            CycleVerdict& verdict) {
  const WeightRange range = dense_weight_range(w, n);
  const std::string bounds = path_bounds_problem<double>(n, range.longest_path, range.negative());
  if (!bounds.empty()) throw py::value_error(bounds);
  HostArray<double> dist(std::vector<py::ssize_t>{n, n});
  HostArray<std::int32_t> pred(predecessors ? std::vector<py::ssize_t>{n, n}
                                            : std::vector<py::ssize_t>{0, 0});
  double* out = dist.mutable_data();
  int* pred_out = predecessors ? pred.mutable_data() : nullptr;
  {
    py::gil_scoped_release release;
    verdict = batched::solve_on_this_thread<double>(
        w, n, range.negative(), out, pred_out,
        tightness_for<double>(n, range.integers, range.largest_magnitude()));
  }
  if (verdict.vertex >= 0) return py::tuple();
  if (!predecessors) return py::make_tuple(dist, py::none());
  return py::make_tuple(dist, pred);
}

void register_batch(py::module_& m) {
  m.def("solve_batch", &solve_batch, py::arg("sizes"), py::arg("src"), py::arg("dst"),
        py::arg("weight"), py::arg("dtype"), py::arg("directed"), py::arg("predecessors"),
        py::arg("padded"));
  m.def("solve_dense_batch_float64", &solve_dense_batch, py::arg("weights"),
        py::arg("predecessors"));
  m.def("small_graph_limit", [] { return small_graph_limit; });
}

}  // namespace python
}  // namespace apsp
