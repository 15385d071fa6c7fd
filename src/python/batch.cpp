// apsp._native's batched part: many graphs in one call on the library's batched solver
// (apsp/batched.hpp), and one small graph on the caller's thread. SciPy's conventions for 3-D
// arrays live in apsp/__init__.py; here: edge lists in the concatenated numbering (PyG's), each
// checked to stay inside its graph, dense (B, n, n) weights, results ragged or padded.
//
// Where every weight is a whole number and every path fits int32 the graphs are closed in int32
// and the results converted into the asked type while they are stored: exact either way, and
// twice the vector lanes of float64.
#include "batch.hpp"

#include <apsp/batched.hpp>
#include <apsp/distance.hpp>
#include <apsp/paths.hpp>

#include "io/posix_files.hpp"
#include "platform/backends.hpp"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace py = pybind11;

namespace apsp {
namespace python {
namespace {

using Exec = Kokkos::DefaultExecutionSpace;
using Mem = Exec::memory_space;
constexpr bool one_memory = Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible;
constexpr int scipy_none = -9999;  // SciPy's "no predecessor"

OnKokkos on_kokkos;
py::handle negative_cycle_type;

template <class T>
using HostArray = py::array_t<T, py::array::c_style | py::array::forcecast>;
template <class T>
using HostView = Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

[[noreturn]] void raise_negative_cycle(std::int64_t graph, std::int64_t vertex) {
  const std::string message = "Negative cycle detected in graph " + std::to_string(graph) +
                              " through vertex " + std::to_string(vertex) +
                              ": shortest paths are undefined";
  py::object error = negative_cycle_type(message);
  error.attr("graph") = graph;
  error.attr("vertex") = vertex;
  PyErr_SetObject(negative_cycle_type.ptr(), error.ptr());
  throw py::error_already_set();
}

[[noreturn]] void raise_memory(const std::string& message) {
  PyErr_SetString(PyExc_MemoryError, message.c_str());
  throw py::error_already_set();
}

// A host vector on the device (the same memory on a host backend: no copy).
template <class T>
Kokkos::View<const T*, Mem> on_device(const std::vector<T>& host) {
  return Kokkos::create_mirror_view_and_copy(Mem(), HostView<const T>(host.data(), host.size()));
}

// Memory for a batch, before any work: `host` bytes on the host (NumPy results, the packed
// edges), `device` more on a GPU (its copies); one memory on a CPU.
void check_memory(std::uint64_t host, std::uint64_t device, const std::string& what) {
  std::uint64_t device_free = 0, host_free = 0;
  {
    py::gil_scoped_release release;
    on_kokkos([&] {
      device_free = available_memory(Exec());
      host_free = available_memory(Kokkos::DefaultHostExecutionSpace());
    });
  }
  using detail::size_text;
  if (one_memory && host > device_free)
    raise_memory(what + " needs " + size_text(host) + " of memory, " + size_text(device_free) +
                 " available");
  if (!one_memory && (host > host_free || device > device_free))
    raise_memory(what + " needs " + size_text(device) + " on " + backend_name<Exec>() + " (" +
                 size_text(device_free) + " available) and " + size_text(host) + " on the host (" +
                 size_text(host_free) + " available)");
}

// The closure of every graph of `layout` from `source` into the host array `out` (U), computing
// in T, then the predecessor rows (when `pred`) from the edges by source. Runs on the Kokkos
// thread; returns the first negative cycle.
template <class T, class U, class Source>
batched::NegativeCycleAt close_batch(const detail::BatchLayout<Mem>& layout, bool negative,
                                     const Source& source, U* out, std::size_t values, U outside,
                                     int* pred, const std::vector<std::int64_t>* source_offsets,
                                     const std::vector<int>* targets, const std::vector<U>* weights,
                                     Tightness<U> rule, int none) {
  Exec exec;
  Kokkos::View<U*, Mem> device_out;
  U* result = out;
  if (!one_memory) {
    device_out = Kokkos::View<U*, Mem>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::python::batch"), values);
    result = device_out.data();
  }
  const auto cycles = batched::detail::run<Exec, T>(
      exec, layout, negative, source, detail::MatrixSink<Mem, U>{layout, result, outside});
  const batched::NegativeCycleAt bad = batched::first_negative_cycle(exec, cycles);
  if (bad.graph >= 0) return bad;
  if (pred) {
    Kokkos::View<int*, Mem> device_pred;
    int* pred_result = pred;
    if (!one_memory) {
      device_pred = Kokkos::View<int*, Mem>(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::python::batch_pred"), values);
      Kokkos::deep_copy(device_pred, HostView<int>(pred, values));  // the outside entries
      pred_result = device_pred.data();
    }
    const auto offsets = on_device(*source_offsets);
    const auto to = on_device(*targets);
    const auto w = on_device(*weights);
    batched::predecessors<Exec, U>(exec, layout, result, offsets, to, w, pred_result, rule, none);
    if (!one_memory) Kokkos::deep_copy(HostView<int>(pred, values), device_pred);
  }
  if (!one_memory) Kokkos::deep_copy(HostView<U>(out, values), device_out);
  exec.fence();
  return bad;
}

// ---- apsp.solve_batch: ragged edge lists ----

// What one pass over the edges finds.
struct EdgeScan {
  std::vector<std::int64_t> offsets;  // B + 1
  std::vector<std::int32_t> graph;    // per edge
  std::vector<double> longest_path;   // per graph: WeightRange::longest_path (graph.hpp)
  double longest = 0;                 // of them all
  std::int64_t largest = 0;
  bool negative = false, whole = true, grouped = true;
  double max_abs = 0, lowest = 0, highest = 0;
};

// Why some graph of the batch cannot be solved in T (path_bounds_problem, distance.hpp), naming
// the first; "" when every one can.
template <class T>
std::string bounds_problem(const EdgeScan& scan) {
  for (std::size_t g = 0; g + 1 < scan.offsets.size(); ++g) {
    const std::int64_t n = scan.offsets[g + 1] - scan.offsets[g];
    const std::string problem =
        path_bounds_problem<T>(std::max<std::int64_t>(n, 1), scan.longest_path[g], scan.negative);
    if (!problem.empty()) return "graph " + std::to_string(g) + ", " + problem;
  }
  return "";
}

EdgeScan scan_edges(const HostArray<std::int64_t>& sizes, const HostArray<std::int64_t>& src,
                    const HostArray<std::int64_t>& dst, const HostArray<double>& weight) {
  EdgeScan scan;
  const std::int64_t count = sizes.size(), edges = src.size();
  const std::int64_t* n = sizes.data();
  scan.offsets.assign(std::size_t(count) + 1, 0);
  for (std::int64_t g = 0; g < count; ++g) {
    if (n[g] < 0 || n[g] > std::numeric_limits<std::int32_t>::max())
      throw py::value_error("graph " + std::to_string(g) + " has " + std::to_string(n[g]) +
                            " vertices (0..2^31-1 allowed)");
    scan.offsets[std::size_t(g) + 1] = scan.offsets[std::size_t(g)] + n[g];
    scan.largest = std::max(scan.largest, n[g]);
  }
  const std::int64_t total = scan.offsets.back();
  std::vector<std::int32_t> graph_of(static_cast<std::size_t>(total));
  for (std::int64_t g = 0; g < count; ++g)
    std::fill(graph_of.begin() + scan.offsets[std::size_t(g)],
              graph_of.begin() + scan.offsets[std::size_t(g) + 1], std::int32_t(g));
  scan.graph.resize(static_cast<std::size_t>(edges));
  const std::int64_t *s = src.data(), *t = dst.data();
  const double* w = weight.data();
  std::vector<LargestMagnitudes> longest;
  longest.reserve(std::size_t(count));
  for (std::int64_t g = 0; g < count; ++g)
    longest.emplace_back(std::max<std::int64_t>(n[g] - 1, 1));
  std::int32_t last = 0;
  for (std::int64_t e = 0; e < edges; ++e) {
    if (s[e] < 0 || s[e] >= total || t[e] < 0 || t[e] >= total)
      throw py::value_error("edge " + std::to_string(e) + " (" + std::to_string(s[e]) + " -> " +
                            std::to_string(t[e]) + ") has a vertex outside 0.." +
                            std::to_string(total - 1) + " (the batch's vertices)");
    const std::int32_t g = graph_of[std::size_t(s[e])], h = graph_of[std::size_t(t[e])];
    if (g != h)
      throw py::value_error("edge " + std::to_string(e) + " (" + std::to_string(s[e]) + " -> " +
                            std::to_string(t[e]) + ") joins graph " + std::to_string(g) +
                            " and graph " + std::to_string(h) +
                            ": an edge must stay inside its graph");
    if (!std::isfinite(w[e]))
      throw py::value_error("edge " + std::to_string(e) + " (graph " + std::to_string(g) +
                            ") has a weight that is not finite");
    scan.graph[std::size_t(e)] = g;
    scan.grouped = scan.grouped && g >= last;
    last = g;
    scan.negative = scan.negative || w[e] < 0;
    scan.whole = scan.whole && w[e] == std::floor(w[e]);
    scan.max_abs = std::max(scan.max_abs, std::fabs(w[e]));
    scan.lowest = e == 0 ? w[e] : std::min(scan.lowest, w[e]);
    scan.highest = e == 0 ? w[e] : std::max(scan.highest, w[e]);
    // A self-loop of weight >= 0 is on no shortest path (weight_range, graph.hpp).
    if (s[e] != t[e] || w[e] < 0) longest[std::size_t(g)].add(w[e]);
  }
  scan.longest_path.resize(std::size_t(count));
  for (std::int64_t g = 0; g < count; ++g) {
    scan.longest_path[std::size_t(g)] = longest[std::size_t(g)].sum();
    scan.longest = std::max(scan.longest, scan.longest_path[std::size_t(g)]);
  }
  return scan;
}

// The edges of each graph together, in its own numbering (both ways when undirected), with
// their offsets per graph; input order where the input is grouped by graph already.
template <class T>
void pack_edges(const EdgeScan& scan, const HostArray<std::int64_t>& src,
                const HostArray<std::int64_t>& dst, const HostArray<double>& weight, bool directed,
                std::vector<batched::BatchEdge<T>>& packed,
                std::vector<std::int64_t>& edge_offsets) {
  const std::size_t graphs = scan.offsets.size() - 1, edges = scan.graph.size();
  const int copies = directed ? 1 : 2;
  edge_offsets.assign(graphs + 1, 0);
  for (const std::int32_t g : scan.graph)
    edge_offsets[std::size_t(g) + 1] += copies;
  for (std::size_t g = 0; g < graphs; ++g)
    edge_offsets[g + 1] += edge_offsets[g];
  std::vector<std::int64_t> next(edge_offsets.begin(), edge_offsets.end() - 1);
  packed.resize(edges * copies);
  const std::int64_t *s = src.data(), *t = dst.data();
  const double* w = weight.data();
  for (std::size_t e = 0; e < edges; ++e) {
    const std::size_t g = std::size_t(scan.graph[e]);
    const std::int64_t first = scan.offsets[g];
    const batched::BatchEdge<T> edge{std::int32_t(s[e] - first), std::int32_t(t[e] - first),
                                     T(w[e])};
    const std::size_t at = std::size_t(scan.grouped ? std::int64_t(e) * copies : next[g]);
    packed[at] = edge;
    if (!directed) packed[at + 1] = batched::BatchEdge<T>{edge.dst, edge.src, edge.weight};
    if (!scan.grouped) next[g] += copies;
  }
}

// The edges by source in the concatenated numbering (predecessor rows): offsets per vertex,
// targets in the graph's own numbering, weights as U.
template <class T, class U>
void edges_by_source(const EdgeScan& scan, const std::vector<batched::BatchEdge<T>>& packed,
                     const std::vector<std::int64_t>& edge_offsets,
                     std::vector<std::int64_t>& offsets, std::vector<int>& targets,
                     std::vector<U>& weights) {
  const std::size_t graphs = scan.offsets.size() - 1;
  offsets.assign(std::size_t(scan.offsets.back()) + 1, 0);
  for (std::size_t g = 0; g < graphs; ++g)
    for (std::int64_t e = edge_offsets[g]; e < edge_offsets[g + 1]; ++e)
      ++offsets[std::size_t(scan.offsets[g] + packed[std::size_t(e)].src) + 1];
  for (std::size_t v = 0; v + 1 < offsets.size(); ++v)
    offsets[v + 1] += offsets[v];
  std::vector<std::int64_t> next(offsets.begin(), offsets.end() - 1);
  targets.resize(packed.size());
  weights.resize(packed.size());
  for (std::size_t g = 0; g < graphs; ++g)
    for (std::int64_t e = edge_offsets[g]; e < edge_offsets[g + 1]; ++e) {
      const auto& edge = packed[std::size_t(e)];
      const std::size_t at = std::size_t(next[std::size_t(scan.offsets[g] + edge.src)]++);
      targets[at] = edge.dst;
      weights[at] = U(edge.weight);
    }
}

// solve_batch in T (computing) and U (results).
template <class T, class U>
py::tuple solve_batch_in(const EdgeScan& scan, const HostArray<std::int64_t>& src,
                         const HostArray<std::int64_t>& dst, const HostArray<double>& weight,
                         bool directed, bool predecessors, bool padded) {
  const std::size_t count = scan.offsets.size() - 1;
  const std::int64_t largest = scan.largest;
  std::vector<std::int64_t> value_offsets(count + 1, 0);
  for (std::size_t g = 0; g < count; ++g) {
    const std::int64_t n = scan.offsets[g + 1] - scan.offsets[g];
    value_offsets[g + 1] = value_offsets[g] + n * n;
  }
  const std::uint64_t values =
      padded ? std::uint64_t(count) * std::uint64_t(largest) * std::uint64_t(largest)
             : std::uint64_t(value_offsets.back());
  const std::uint64_t edges = std::uint64_t(scan.graph.size()) * (directed ? 1 : 2);
  const std::uint64_t results = values * (sizeof(U) + (predecessors ? sizeof(int) : 0));
  const std::uint64_t work =
      edges * (sizeof(batched::BatchEdge<T>) + (predecessors ? sizeof(int) + sizeof(U) : 0)) +
      std::uint64_t(scan.offsets.back()) * (predecessors ? 8 : 0) + count * 24;
  check_memory(results + work, results + work,
               std::to_string(count) + " graphs (" + std::to_string(values) + " distances of " +
                   distance_type_name(Distance<U>::type) + (padded ? ", padded" : "") + ")");

  HostArray<U> dist(padded ? std::vector<py::ssize_t>{py::ssize_t(count), largest, largest}
                           : std::vector<py::ssize_t>{py::ssize_t(values)});
  HostArray<std::int32_t> pred(predecessors ? dist.request().shape : std::vector<py::ssize_t>{0});
  HostArray<std::int64_t> offsets_out(py::ssize_t(count + 1));
  std::copy(value_offsets.begin(), value_offsets.end(), offsets_out.mutable_data());
  U* out = dist.mutable_data();
  int* pred_out = pred.mutable_data();
  batched::NegativeCycleAt bad;
  {
    py::gil_scoped_release release;
    std::vector<batched::BatchEdge<T>> packed;
    std::vector<std::int64_t> edge_offsets, source_offsets;
    std::vector<int> targets;
    std::vector<U> weights;
    pack_edges<T>(scan, src, dst, weight, directed, packed, edge_offsets);
    if (predecessors) {
      edges_by_source<T, U>(scan, packed, edge_offsets, source_offsets, targets, weights);
      if (padded) std::fill(pred_out, pred_out + values, scipy_none);
    }
    const Tightness<U> rule =
        std::is_same<T, U>::value
            ? tightness_for<U>(std::max<std::int64_t>(largest, 1), scan.whole, scan.max_abs)
            : Tightness<U>{};
    std::string error;
    on_kokkos([&] {
      try {
        const auto offsets = on_device(scan.offsets);
        const auto at = on_device(value_offsets);
        const detail::BatchLayout<Mem> layout{offsets, padded ? decltype(at)() : at,
                                              padded ? largest : 0};
        const auto device_edges = on_device(packed);
        const auto device_edge_offsets = on_device(edge_offsets);
        const detail::EdgeSource<Mem, batched::BatchEdge<T>> source{device_edge_offsets,
                                                                    device_edges};
        bad = close_batch<T, U>(layout, scan.negative, source, out, std::size_t(values),
                                Distance<U>::infinity, predecessors ? pred_out : nullptr,
                                &source_offsets, &targets, &weights, rule, scipy_none);
      } catch (const std::exception& e) {
        error = e.what();
      }
    });
    if (!error.empty()) throw std::runtime_error(error);
  }
  if (bad.graph >= 0) raise_negative_cycle(bad.graph, bad.vertex);
  py::object p = predecessors ? py::object(pred) : py::object(py::none());
  return py::make_tuple(dist, p, offsets_out);
}

// apsp.solve_batch's native part: (distances, predecessors or None, value offsets); distances
// (B, nmax, nmax) when padded, else flat with graph g's n x n matrix at value offsets[g].
py::tuple solve_batch(const HostArray<std::int64_t>& sizes, const HostArray<std::int64_t>& src,
                      const HostArray<std::int64_t>& dst, const HostArray<double>& weight,
                      const std::string& dtype, bool directed, bool predecessors, bool padded) {
  if (sizes.ndim() != 1 || src.ndim() != 1 || dst.ndim() != 1 || weight.ndim() != 1)
    throw py::value_error("sizes, src, dst and weight must be one-dimensional");
  if (dst.size() != src.size() || weight.size() != src.size())
    throw py::value_error("src, dst and weight must have the same length (got " +
                          std::to_string(src.size()) + ", " + std::to_string(dst.size()) + ", " +
                          std::to_string(weight.size()) + ")");
  EdgeScan scan;
  {
    py::gil_scoped_release release;
    scan = scan_edges(sizes, src, dst, weight);
  }
  DistanceType type = DistanceType::float64;
  if (dtype != "auto" && !distance_type_named(dtype, type))
    throw py::value_error("dtype must be auto, int32, float32 or float64, got '" + dtype + "'");
  // int32 computes whole weights whose paths it holds; its results are exact in the asked type
  // where float32 holds them too (below 2^24).
  const bool fits_int = scan.whole && bounds_problem<int>(scan).empty();
  if (dtype == "auto") type = fits_int ? DistanceType::int32 : DistanceType::float64;
  const auto problem = [&](const std::string& bounds) {
    if (!bounds.empty())
      throw py::value_error(bounds +
                            (type == DistanceType::float64 ? "" : ": use dtype='float64'"));
  };
  switch (type) {
    case DistanceType::int32:
      if (!scan.whole)
        throw py::value_error("dtype='int32' needs whole-number weights: use dtype='float64'");
      problem(bounds_problem<int>(scan));
      return solve_batch_in<int, int>(scan, src, dst, weight, directed, predecessors, padded);
    case DistanceType::float32:
      problem(bounds_problem<float>(scan));
      if (fits_int && scan.longest < double(1 << 24))
        return solve_batch_in<int, float>(scan, src, dst, weight, directed, predecessors, padded);
      return solve_batch_in<float, float>(scan, src, dst, weight, directed, predecessors, padded);
    case DistanceType::float64:
      break;
  }
  problem(bounds_problem<double>(scan));
  if (fits_int)
    return solve_batch_in<int, double>(scan, src, dst, weight, directed, predecessors, padded);
  return solve_batch_in<double, double>(scan, src, dst, weight, directed, predecessors, padded);
}

// ---- apsp.floyd_warshall on a (B, n, n) array ----

// Graph g from slice g of dense weights (+inf: no edge; the diagonal is 0 whatever it holds).
template <class W>
struct DenseWeightSource {
  const W* weights;
  std::int64_t n;
  template <class Member, class T>
  KOKKOS_INLINE_FUNCTION void load(const Member& team, int g, T* d, int rows,
                                   std::int64_t ld) const {
    const W* from = weights + std::int64_t(g) * n * n;
    detail::for_each_entry(team, rows, int(ld), [&](int i, int j) {
      const W x = j < n ? from[i * n + j] : Distance<W>::infinity;
      d[i * ld + j] = i == j ? T(0) : x == Distance<W>::infinity ? Distance<T>::infinity : T(x);
    });
  }
};

template <class T>
py::tuple solve_dense_batch_in(const HostArray<double>& weights, std::int64_t count, std::int64_t n,
                               bool negative, bool whole, double max_abs, bool predecessors) {
  const std::uint64_t values = std::uint64_t(count) * std::uint64_t(n) * std::uint64_t(n);
  const std::uint64_t results = values * (sizeof(double) + (predecessors ? sizeof(int) : 0));
  const std::uint64_t work = predecessors ? values * (sizeof(int) + sizeof(double)) +
                                                values / std::max<std::int64_t>(n, 1) * 8
                                          : 0;
  check_memory(results + work, results + work + (one_memory ? 0 : values * sizeof(double)),
               std::to_string(count) + " graphs of " + std::to_string(n) + " vertices");
  HostArray<double> dist(std::vector<py::ssize_t>{count, n, n});
  HostArray<std::int32_t> pred(predecessors ? std::vector<py::ssize_t>{count, n, n}
                                            : std::vector<py::ssize_t>{0});
  double* out = dist.mutable_data();
  int* pred_out = pred.mutable_data();
  const double* w = weights.data();
  batched::NegativeCycleAt bad;
  {
    py::gil_scoped_release release;
    std::vector<std::int64_t> source_offsets;
    std::vector<int> targets;
    std::vector<double> edge_weights;
    if (predecessors) {  // the edges, by source in the concatenated numbering
      source_offsets.reserve(std::size_t(count * n) + 1);
      source_offsets.push_back(0);
      for (std::int64_t v = 0; v < count * n; ++v) {
        const std::int64_t i = v % n;
        for (std::int64_t j = 0; j < n; ++j) {
          const double x = w[v * n + j];
          if (j == i || x == Distance<double>::infinity) continue;
          targets.push_back(int(j));
          edge_weights.push_back(x);
        }
        source_offsets.push_back(std::int64_t(targets.size()));
      }
    }
    std::string error;
    on_kokkos([&] {
      try {
        Exec exec;
        const auto layout = batched::detail::dense_layout(exec, int(count), n);
        Kokkos::View<double*, Mem> device_weights;
        const double* from = w;
        if (!one_memory) {
          device_weights = Kokkos::View<double*, Mem>(
              Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::python::weights"), values);
          Kokkos::deep_copy(device_weights, HostView<const double>(w, values));
          from = device_weights.data();
        }
        bad = close_batch<T, double>(
            layout, negative, DenseWeightSource<double>{from, n}, out, std::size_t(values),
            Distance<double>::infinity, predecessors ? pred_out : nullptr, &source_offsets,
            &targets, &edge_weights, tightness_for<double>(n, whole, max_abs), no_vertex);
      } catch (const std::exception& e) {
        error = e.what();
      }
    });
    if (!error.empty()) throw std::runtime_error(error);
  }
  if (bad.graph >= 0) raise_negative_cycle(bad.graph, bad.vertex);
  if (!predecessors) return py::make_tuple(dist, py::none());
  return py::make_tuple(dist, pred);
}

// (B, n, n) float64 weights (C order, +inf: no edge, the diagonal not read) into (distances
// (B, n, n) float64, predecessors (B, n, n) int32 with -1 for none, or None).
py::tuple solve_dense_batch(const HostArray<double>& weights, bool predecessors) {
  if (weights.ndim() != 3 || weights.shape(1) != weights.shape(2))
    throw py::value_error("weights must be a (B, n, n) array");
  const std::int64_t count = weights.shape(0), n = weights.shape(1);
  if (n > std::numeric_limits<std::int32_t>::max() || count > std::numeric_limits<int>::max())
    throw py::value_error("at most 2^31-1 graphs of 2^31-1 vertices");
  std::vector<WeightRange> slices(static_cast<std::size_t>(count));
  bool negative = false, finite = true, whole = true;
  double max_abs = 0;
  {
    py::gil_scoped_release release;
    for (std::int64_t g = 0; g < count; ++g) {
      WeightRange& range = slices[std::size_t(g)];
      finite = finite && dense_weight_range(weights.data() + g * n * n, n, range);
      negative = negative || range.negative();
      whole = whole && range.integers;
      max_abs = std::max(max_abs, range.largest_magnitude());
    }
  }
  if (!finite) throw py::value_error("weights must be finite or +inf (no edge)");
  // Why some slice cannot be solved in T, naming the first; "" when every one can.
  const auto problem = [&](auto t) -> std::string {
    for (std::int64_t g = 0; g < count; ++g) {
      const std::string bounds = path_bounds_problem<decltype(t)>(
          std::max<std::int64_t>(n, 1), slices[std::size_t(g)].longest_path, negative);
      if (!bounds.empty()) return "graph " + std::to_string(g) + ", " + bounds;
    }
    return "";
  };
  const std::string bounds = problem(double{});
  if (!bounds.empty()) throw py::value_error(bounds);
  if (whole && problem(int{}).empty())
    return solve_dense_batch_in<int>(weights, count, n, negative, whole, max_abs, predecessors);
  return solve_dense_batch_in<double>(weights, count, n, negative, whole, max_abs, predecessors);
}

}  // namespace

bool dense_weight_range(const double* w, std::int64_t n, WeightRange& range) {
  range = WeightRange{};
  LargestMagnitudes longest(std::max<std::int64_t>(n - 1, 1));
  bool first = true;
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      const double x = w[i * n + j];
      if (i == j || x == Distance<double>::infinity) continue;
      if (!std::isfinite(x)) return false;
      range.lowest = first ? x : std::min(range.lowest, x);
      range.highest = first ? x : std::max(range.highest, x);
      range.integers = range.integers && x == std::floor(x);
      longest.add(x);
      first = false;
    }
  range.longest_path = longest.sum();
  return true;
}

// ---- one small graph, on the caller's thread ----

py::tuple solve_small_dense(const double* w, std::int64_t n, bool predecessors,
                            std::int64_t& cycle) {
  WeightRange range;
  if (!dense_weight_range(w, n, range))
    throw py::value_error("weights must be finite or +inf (no edge)");
  const bool negative = range.negative(), whole = range.integers;
  const double max_abs = range.largest_magnitude();
  const std::string bounds = path_bounds_problem<double>(n, range.longest_path, negative);
  if (!bounds.empty()) throw py::value_error(bounds);
  HostArray<double> dist(std::vector<py::ssize_t>{n, n});
  HostArray<std::int32_t> pred(predecessors ? std::vector<py::ssize_t>{n, n}
                                            : std::vector<py::ssize_t>{0, 0});
  double* out = dist.mutable_data();
  int* pred_out = pred.mutable_data();
  {
    py::gil_scoped_release release;
    const int ld = detail::closure_row_stride<double>(int(n));
    std::vector<double> d(std::size_t(detail::closure_scratch_elements<double>(int(n))));
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < ld; ++j) {
        const double x = j < n ? w[i * n + j] : Distance<double>::infinity;
        d[std::size_t(i * ld + j)] = i == j ? 0.0 : x;
      }
    double* row = d.data() + n * ld;
    if (negative)
      detail::close_one_thread<detail::Relaxation<double, true>>(d.data(), int(n), ld, row);
    else
      detail::close_one_thread<detail::Relaxation<double, false>>(d.data(), int(n), ld, row);
    cycle = negative ? detail::scratch_negative_cycle(d.data(), int(n), ld) : -1;
    if (cycle < 0) {
      for (std::int64_t i = 0; i < n; ++i)
        std::memcpy(out + i * n, d.data() + i * ld, std::size_t(n) * sizeof(double));
      if (predecessors) {
        std::vector<std::int64_t> offsets{0};
        std::vector<int> targets;
        std::vector<double> weights;
        for (std::int64_t i = 0; i < n; ++i) {
          for (std::int64_t j = 0; j < n; ++j)
            if (j != i && w[i * n + j] != Distance<double>::infinity) {
              targets.push_back(int(j));
              weights.push_back(w[i * n + j]);
            }
          offsets.push_back(std::int64_t(targets.size()));
        }
        const Tightness<double> rule = tightness_for<double>(n, whole, max_abs);
        std::vector<int> work(2 * std::size_t(n));
        for (int r = 0; r < int(n); ++r)
          detail::predecessor_row(out, n, int(n), r, offsets.data(), targets.data(), weights.data(),
                                  rule, no_vertex, pred_out + r * n, work.data(), work.data() + n);
      }
    }
  }
  if (cycle >= 0) return py::tuple();
  if (!predecessors) return py::make_tuple(dist, py::none());
  return py::make_tuple(dist, pred);
}

void register_batch(py::module_& m, OnKokkos run_on_kokkos, py::handle negative_cycle) {
  on_kokkos = std::move(run_on_kokkos);
  negative_cycle_type = negative_cycle;
  m.def("solve_batch", &solve_batch, py::arg("sizes"), py::arg("src"), py::arg("dst"),
        py::arg("weight"), py::arg("dtype"), py::arg("directed"), py::arg("predecessors"),
        py::arg("padded"));
  m.def("solve_dense_batch_float64", &solve_dense_batch, py::arg("weights"),
        py::arg("predecessors"));
  m.def("small_graph_limit", [] { return small_graph_limit; });
}

}  // namespace python
}  // namespace apsp
