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
#include <apsp/graph.hpp>
#include <apsp/negative_cycles.hpp>
#include <apsp/paths.hpp>
#include <apsp/ranks.hpp>

#include "platform/backends.hpp"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace py = pybind11;

namespace apsp {
namespace python {
namespace {

using Exec = Kokkos::DefaultExecutionSpace;
constexpr int scipy_none = -9999;  // SciPy's "no predecessor"

OnKokkos on_kokkos;
py::handle negative_cycle_type;
InPythonWords python_words;

template <class T>
using HostArray = py::array_t<T, py::array::c_style | py::array::forcecast>;

// Graph g's verdict (BatchedSolver, computing in `type`) as the module's NegativeCycleError,
// with the graph: the library's words, and the module's advice where float32 rounding made or
// hid the cycle.
[[noreturn]] void raise_negative_cycle(int graph, const CycleVerdict& verdict, DistanceType type) {
  std::string words;
  try {
    throw_negative_cycle(verdict, type);
  } catch (const NegativeCycleError& e) {
    words = python_words(e);
  }
  // The library's "negative cycle through vertex v...", in SciPy's words with the graph.
  const std::string through = "negative cycle through vertex " + std::to_string(verdict.vertex);
  const std::string message = "Negative cycle detected in graph " + std::to_string(graph) +
                              " through vertex " + std::to_string(verdict.vertex) +
                              words.substr(std::min(words.size(), through.size()));
  py::object error = negative_cycle_type(message);
  error.attr("graph") = graph;
  error.attr("vertex") = verdict.vertex;
  PyErr_SetObject(negative_cycle_type.ptr(), error.ptr());
  throw py::error_already_set();
}

// A batched solver's memory check (MemoryError before any work), with what the device and the
// host have free.
template <class Solver>
void check_memory(const Solver& solver, std::int64_t edges) {
  std::uint64_t device_free = 0, host_free = 0;
  {
    py::gil_scoped_release release;
    on_kokkos([&] {
      device_free = available_memory(Exec());
      host_free = available_memory(Kokkos::DefaultHostExecutionSpace());
    });
  }
  solver.check_memory({device_free, 0, backend_name<Exec>()}, edges, host_free);
}

// The batch on the Kokkos thread, where the solver ends too (its Views): load(solver), the
// solve into `out`, the predecessors into `pred` where asked for and no graph has a negative
// cycle. Then the first graph with one raises.
template <class T, class U, class Load>
void solve_on_kokkos(std::unique_ptr<BatchedSolver<Exec, T, U>> solver, const Load& load, U* out,
                     int* pred) {
  int bad = -1;
  CycleVerdict verdict;
  {
    py::gil_scoped_release release;
    std::string error;
    on_kokkos([&] {
      try {
        load(*solver);
        solver->compute(out);
        bad = solver->first_negative_cycle();
        if (bad >= 0)
          verdict = solver->verdicts()[std::size_t(bad)];
        else if (pred)
          solver->predecessor_rows(pred);
      } catch (const std::exception& e) {
        error = e.what();
      }
      solver.reset();
    });
    if (!error.empty()) throw std::runtime_error(error);
  }
  if (bad >= 0) raise_negative_cycle(bad, verdict, Distance<T>::type);
}

// ---- apsp.solve_batch: ragged edge lists ----

// What one pass over the edges finds, and each graph's weights (weight_range, graph.hpp).
struct EdgeScan {
  std::vector<std::int64_t> offsets;  // B + 1: graph g's vertices from offsets[g]
  std::vector<std::int32_t> graph;    // per edge
  // The edges of each graph together, in input order: graph g's are input edges
  // order[first[g] .. first[g + 1]) (the identity where the input is grouped by graph).
  std::vector<std::int64_t> first, order;
  bool grouped = true;
  std::vector<WeightRange> ranges;  // per graph
  // Of them all: negative weights, whole numbers, the largest |w|, the longest path.
  bool negative = false, whole = true;
  double max_abs = 0, longest = 0;
  std::int64_t largest = 0;

  std::int64_t input_edge(std::int64_t at) const { return grouped ? at : order[std::size_t(at)]; }
};

// Why some graph of the batch cannot be solved in T (path_bounds_problem, distance.hpp), naming
// the first; "" when every one can.
template <class T>
std::string bounds_problem(const EdgeScan& scan) {
  for (std::size_t g = 0; g < scan.ranges.size(); ++g) {
    const std::int64_t n = scan.offsets[g + 1] - scan.offsets[g];
    const std::string problem = path_bounds_problem<T>(std::max<std::int64_t>(n, 1),
                                                       scan.ranges[g].longest_path, scan.negative);
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
  scan.first.assign(std::size_t(count) + 1, 0);
  const std::int64_t *s = src.data(), *t = dst.data();
  const double* w = weight.data();
  std::int32_t last = 0;
  for (std::int64_t e = 0; e < edges; ++e) {
    check_vertices(e, s[e], t[e], total, true);
    const std::int32_t g = graph_of[std::size_t(s[e])], h = graph_of[std::size_t(t[e])];
    if (g != h)
      throw py::value_error("edge " + std::to_string(e) + " (" + std::to_string(s[e]) + " -> " +
                            std::to_string(t[e]) + ") joins graph " + std::to_string(g) +
                            " and graph " + std::to_string(h) +
                            ": an edge must stay inside its graph");
    check_weight(e, w[e], g);
    scan.graph[std::size_t(e)] = g;
    scan.grouped = scan.grouped && g >= last;
    last = g;
    ++scan.first[std::size_t(g) + 1];
  }
  for (std::int64_t g = 0; g < count; ++g)
    scan.first[std::size_t(g) + 1] += scan.first[std::size_t(g)];
  if (!scan.grouped) {  // a stable grouping by graph
    scan.order.resize(std::size_t(edges));
    std::vector<std::int64_t> next(scan.first.begin(), scan.first.end() - 1);
    for (std::int64_t e = 0; e < edges; ++e)
      scan.order[std::size_t(next[std::size_t(scan.graph[std::size_t(e)])]++)] = e;
  }
  scan.ranges.resize(std::size_t(count));
  for (std::int64_t g = 0; g < count; ++g) {
    const WeightRange range = weight_range(n[g], [&](const auto& add) {
      for (std::int64_t at = scan.first[std::size_t(g)]; at < scan.first[std::size_t(g) + 1];
           ++at) {
        const std::int64_t e = scan.input_edge(at);
        add(s[e], t[e], w[e]);
      }
    });
    scan.ranges[std::size_t(g)] = range;
    scan.negative = scan.negative || range.negative();
    scan.whole = scan.whole && range.integers;
    scan.max_abs = std::max(scan.max_abs, range.largest_magnitude());
    scan.longest = std::max(scan.longest, range.longest_path);
  }
  return scan;
}

// The edges of each graph together, in its own numbering and input order (both ways when
// undirected: each edge, then its reverse), with their offsets per graph.
void pack_edges(const EdgeScan& scan, const HostArray<std::int64_t>& src,
                const HostArray<std::int64_t>& dst, const HostArray<double>& weight, bool directed,
                std::vector<batched::BatchEdge<double>>& packed,
                std::vector<std::int64_t>& edge_offsets) {
  const int copies = directed ? 1 : 2;
  edge_offsets.resize(scan.first.size());
  for (std::size_t g = 0; g < scan.first.size(); ++g)
    edge_offsets[g] = scan.first[g] * copies;
  packed.resize(scan.graph.size() * std::size_t(copies));
  const std::int64_t *s = src.data(), *t = dst.data();
  const double* w = weight.data();
  for (std::size_t at = 0; at < scan.graph.size(); ++at) {
    const std::int64_t e = scan.input_edge(std::int64_t(at));
    const std::int64_t first = scan.offsets[std::size_t(scan.graph[std::size_t(e)])];
    const batched::BatchEdge<double> edge{std::int32_t(s[e] - first), std::int32_t(t[e] - first),
                                          w[e]};
    packed[at * copies] = edge;
    if (!directed) packed[at * copies + 1] = batched::BatchEdge<double>{edge.dst, edge.src, w[e]};
  }
}

// solve_batch in T (computing) and U (results) on the batched solver.
template <class T, class U>
py::tuple solve_batch_in(const EdgeScan& scan, const HostArray<std::int64_t>& src,
                         const HostArray<std::int64_t>& dst, const HostArray<double>& weight,
                         bool directed, bool predecessors, bool padded) {
  const std::int64_t count = std::int64_t(scan.offsets.size()) - 1, largest = scan.largest;
  std::vector<std::int64_t> sizes(std::size_t(count), 0);
  for (std::int64_t g = 0; g < count; ++g)
    sizes[std::size_t(g)] = scan.offsets[std::size_t(g) + 1] - scan.offsets[std::size_t(g)];
  batched::BatchOptions<U> options;
  options.negative_weights = scan.negative;
  options.predecessors = predecessors;
  options.padded = padded;
  options.none = scipy_none;
  options.integer_weights = scan.whole;
  options.largest_magnitude = scan.max_abs;
  OneRank one;
  auto solver = std::make_unique<BatchedSolver<Exec, T, U>>(Exec(), one, sizes, options);
  const std::int64_t edges = std::int64_t(scan.graph.size()) * (directed ? 1 : 2);
  check_memory(*solver, edges);

  const std::int64_t values = solver->values();
  HostArray<U> dist(padded ? std::vector<py::ssize_t>{py::ssize_t(count), largest, largest}
                           : std::vector<py::ssize_t>{py::ssize_t(values)});
  HostArray<std::int32_t> pred(predecessors ? dist.request().shape : std::vector<py::ssize_t>{0});
  HostArray<std::int64_t> offsets_out(py::ssize_t(count + 1));
  std::copy(solver->value_offsets().begin(), solver->value_offsets().end(),
            offsets_out.mutable_data());
  std::vector<batched::BatchEdge<double>> packed;
  std::vector<std::int64_t> edge_offsets;
  {
    py::gil_scoped_release release;
    pack_edges(scan, src, dst, weight, directed, packed, edge_offsets);
  }
  solve_on_kokkos(
      std::move(solver),
      [&](BatchedSolver<Exec, T, U>& s) { s.load(edge_offsets, std::move(packed)); },
      dist.mutable_data(), predecessors ? pred.mutable_data() : nullptr);
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
  check_lengths(src.size(), dst.size(), weight.size());
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

template <class T>
py::tuple solve_dense_batch_in(const HostArray<double>& weights, std::int64_t count, std::int64_t n,
                               bool negative, bool whole, double max_abs, bool predecessors) {
  batched::BatchOptions<double> options;
  options.negative_weights = negative;
  options.predecessors = predecessors;
  options.dense_weights = true;
  options.integer_weights = whole;
  options.largest_magnitude = max_abs;
  OneRank one;
  auto solver = std::make_unique<BatchedSolver<Exec, T, double>>(
      Exec(), one, std::vector<std::int64_t>(std::size_t(count), n), options);
  // The predecessors' edges: at most every entry.
  check_memory(*solver, predecessors ? count * n * n : 0);
  HostArray<double> dist(std::vector<py::ssize_t>{count, n, n});
  HostArray<std::int32_t> pred(predecessors ? std::vector<py::ssize_t>{count, n, n}
                                            : std::vector<py::ssize_t>{0});
  const double* w = weights.data();
  solve_on_kokkos(
      std::move(solver), [&](BatchedSolver<Exec, T, double>& s) { s.load_dense(w); },
      dist.mutable_data(), predecessors ? pred.mutable_data() : nullptr);
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
  bool negative = false, whole = true;
  double max_abs = 0;
  {
    py::gil_scoped_release release;
    for (std::int64_t g = 0; g < count; ++g) {
      const WeightRange& range = slices[std::size_t(g)] =
          dense_weight_range(weights.data() + g * n * n, n);
      negative = negative || range.negative();
      whole = whole && range.integers;
      max_abs = std::max(max_abs, range.largest_magnitude());
    }
  }
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

WeightRange dense_weight_range(const double* w, std::int64_t n) {
  bool finite = true;
  const WeightRange range = weight_range(n, [&](const auto& add) {
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        const double x = w[i * n + j];
        if (i == j || x == Distance<double>::infinity) continue;
        if (!std::isfinite(x)) {
          finite = false;
          return;
        }
        add(i, j, x);
      }
  });
  if (!finite) throw py::value_error("weights must be finite or +inf (no edge)");
  return range;
}

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

void register_batch(py::module_& m, OnKokkos run_on_kokkos, py::handle negative_cycle,
                    InPythonWords words) {
  on_kokkos = std::move(run_on_kokkos);
  negative_cycle_type = negative_cycle;
  python_words = std::move(words);
  m.def("solve_batch", &solve_batch, py::arg("sizes"), py::arg("src"), py::arg("dst"),
        py::arg("weight"), py::arg("dtype"), py::arg("directed"), py::arg("predecessors"),
        py::arg("padded"));
  m.def("solve_dense_batch_float64", &solve_dense_batch, py::arg("weights"),
        py::arg("predecessors"));
  m.def("small_graph_limit", [] { return small_graph_limit; });
}

}  // namespace python
}  // namespace apsp
