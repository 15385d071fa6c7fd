// apsp._native: the Python module's native part, a binding over the library and the in-memory
// run of every driver (run_graph, src/run/run_graph.hpp): an edge list or a dense matrix solved
// into NumPy arrays, in int32, float32 or float64, with the predecessor rows by the library's
// rule (paths.hpp), or its measures (measures.hpp); many small graphs at once in batch.cpp.
// SciPy's conventions (dense, masked and sparse inputs, directed, unweighted, -9999) live in
// apsp/__init__.py.
//
// Kokkos lives on the module's KokkosThread (platform/kokkos_thread.hpp): every call's Kokkos
// work runs there while the caller waits without the GIL; it is finalized at exit (atexit), and
// fork is safe (os.register_at_fork). Results are NumPy's own arrays, which the run fills on the
// host; nothing returned wraps Kokkos memory.
#include <apsp/distance.hpp>
#include <apsp/error.hpp>
#include <apsp/graph.hpp>
#include <apsp/measures.hpp>
#include <apsp/memory.hpp>
#include <apsp/ordering.hpp>
#include <apsp/row_sink.hpp>
#include <apsp/version.hpp>

#include "io/measures_output.hpp"
#include "module.hpp"
#include "platform/backends.hpp"
#include "platform/kokkos_thread.hpp"
#include "run/array_inputs.hpp"
#include "run/run_graph.hpp"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace py = pybind11;

namespace apsp {
namespace python {

void warn_once(const std::string& message) {
  static std::vector<std::string> issued;
  if (message.empty() || std::find(issued.begin(), issued.end(), message) != issued.end()) return;
  issued.push_back(message);
  if (PyErr_WarnEx(PyExc_RuntimeWarning, ("apsp: " + message).c_str(), 1) != 0)
    throw py::error_already_set();
}

DistanceType type_named(const std::string& name) {
  DistanceType type;
  if (!distance_type_named(name, type))
    throw py::value_error("dtype must be int32, float32 or float64, got '" + name + "'");
  return type;
}

// The distance type of apsp.solve: `asked` (auto or a type's name) by choose_distance_type
// (graph.hpp), the command line's --dtype rule; a type that cannot hold the paths is a
// ValueError (the translator's, for DistanceTypeError).
DistanceType distance_type(const std::string& asked, std::int64_t n, const WeightRange& weights) {
  std::optional<DistanceType> type;
  if (asked != "auto") type = type_named(asked);
  return choose_distance_type(type, n, weights);
}

GraphRequest request_of(const std::string& algorithm) {
  const std::optional<Algorithm> named = algorithm_named(algorithm);
  if (!named || *named == Algorithm::sssp)
    throw py::value_error("algorithm must be auto, fw or supernodal, got '" + algorithm + "'");
  return GraphRequest{*named, {}, 0};
}

Graph edge_list_graph(const HostArray<std::int64_t>& src, const HostArray<std::int64_t>& dst,
                      const HostArray<double>* weight, std::int64_t n, double unweighted) {
  if (src.ndim() != 1 || dst.ndim() != 1 || (weight && weight->ndim() != 1))
    throw py::value_error("src, dst and weight must be one-dimensional");
  check_lengths(src.size(), dst.size(), weight ? weight->size() : -1);
  return apsp::edge_list_graph(src.data(), dst.data(), weight ? weight->data() : nullptr,
                               src.size(), n, unweighted);
}

// The measures as apsp.measures returns them, named and ordered as the .json that `apsp measures`
// writes for the same request (measure_values, io/measures_output.hpp): the graph's values as
// Python numbers (int32's exact integers, the Wiener index in all its digits), each vertex's as
// NumPy arrays: distances in T, counts and int32's sums in int64, the rest in float64.
py::dict measures_dict(const GraphMeasures& m, const MeasuresRequest& request, DistanceType type) {
  using Kind = MeasureValue::Kind;
  const auto number = [](double x, bool integral) -> py::object {
    if (integral) return py::int_(std::int64_t(x));
    return py::float_(x);
  };
  const auto array = [](const auto& values, auto like) -> py::object {
    HostArray<decltype(like)> a(py::ssize_t(values.size()));
    std::copy(values.begin(), values.end(), a.mutable_data());
    return a;
  };
  const auto value = [&](const MeasureValue& v) -> py::object {
    if (v.kind == Kind::number) return number(v.x, v.integral);
    if (v.kind == Kind::digits) return py::int_(py::str(v.digits));
    if (v.kind == Kind::ids || v.kind == Kind::counts) return array(*v.counts, std::int64_t());
    if (v.kind == Kind::reals) return array(*v.reals, double());
    if (v.kind == Kind::distances)
      return visit_distance_type(type, [&](auto t) { return array(*v.reals, t); });
    return py::dict(py::arg("bins") = m.bins, py::arg("low") = number(m.low, m.integral),
                    py::arg("high") = number(m.high, m.integral),
                    py::arg("counts") = array(m.histogram, std::int64_t()),
                    py::arg("unreachable") = m.unreachable_pairs);  // the histogram
  };
  py::dict d;
  d["vertices"] = m.vertices;
  d["connected"] = m.connected;
  for (const MeasureValue& v : measure_values(m, request))
    d[py::str(v.name)] = value(v);
  return d;
}

}  // namespace python
}  // namespace apsp

namespace {

using namespace apsp;
using namespace apsp::python;

using Exec = Kokkos::DefaultExecutionSpace;

// A library error in Python's words: the advice names dtype= where the command line says --dtype
// (in_our_words, src/cli/main.cpp).
std::string python_words(const Error& e) {
  std::string message = e.what();
  const ErrorFacts& facts = e.facts();
  if (facts.kind == ErrorFacts::Kind::distance_type && facts.suggested_type >= 0)
    message +=
        std::string(": use dtype='") + distance_type_name(DistanceType(facts.suggested_type)) + "'";
  // float32's rounding made or hid the cycle: the way out is the type of the check.
  if (facts.kind == ErrorFacts::Kind::negative_cycle && facts.rounding == NegativeCycleError::made)
    message += "; dtype='float64' gives the distances";
  if (facts.kind == ErrorFacts::Kind::negative_cycle &&
      facts.rounding == NegativeCycleError::hidden)
    message += "; dtype='float64' finds it too";
  return message;
}

// One process: the module's ranks.
OneRank& one_rank() {
  static OneRank one;
  return one;
}

// run_graph on the Kokkos thread, the GIL released; its plan's warning (a tuning cache that
// cannot be used) as a Python warning.
template <class T>
void run_on_kokkos(const Graph& graph, const WeightRange& weights, const GraphRequest& request,
                   Answer<Exec, T>& to) {
  std::string warning;
  {
    py::gil_scoped_release release;
    kokkos_thread().run(
        [&] { warning = run_graph(Exec(), one_rank(), graph, weights, request, to); });
  }
  warn_once(warning);
}

// apsp.solve in T: (distances, predecessors or None) as NumPy arrays, allocated once the host is
// known to hold them (NumPy's allocation, huge pages where the system gives them). `dense`: a
// dense input's weights (dense Floyd-Warshall), else the graph's edges.
template <class T>
py::tuple solve_in(const Graph& graph, const WeightRange& weights, bool predecessors,
                   const GraphRequest& request, const double* dense = nullptr) {
  const std::int64_t n = graph.vertices;
  Answer<Exec, T> to;
  to.host_bytes = whole_answer_bytes<T>(n, predecessors);
  {
    py::gil_scoped_release release;
    kokkos_thread().run([&] { answer_limits<T>(Exec(), n, to.host_bytes); });
  }
  HostArray<T> dist({n, n});
  HostArray<std::int32_t> pred(predecessors ? std::vector<py::ssize_t>{n, n}
                                            : std::vector<py::ssize_t>{0, 0});
  to.distances = matrix_sink(dist.mutable_data(), n);
  if (predecessors) to.predecessors = matrix_sink(pred.mutable_data(), n);
  to.dense = dense;
  run_on_kokkos(graph, weights, request, to);
  // Two returns, not ?:, since pybind11 3's make_tuple gives each element list its own type.
  if (predecessors) return py::make_tuple(dist, pred);
  return py::make_tuple(dist, py::none());
}

// apsp.solve's native part: the edge list in the distance type `dtype` (auto, or a type's name:
// the command line's --dtype rule), by `algorithm`.
py::tuple solve_edge_list(const HostArray<std::int64_t>& src, const HostArray<std::int64_t>& dst,
                          const HostArray<double>& weight, std::int64_t n, const std::string& dtype,
                          bool predecessors, const std::string& algorithm) {
  const Graph graph = edge_list_graph(src, dst, &weight, n);
  const WeightRange weights = weight_range(graph);
  const GraphRequest request = request_of(algorithm);
  return visit_distance_type(distance_type(dtype, n, weights), [&](auto t) {
    return solve_in<decltype(t)>(graph, weights, predecessors, request);
  });
}

// apsp.measures' native part: the edge list as apsp.solve takes it; `names` as `apsp measures
// --measures` takes them ("" for all), `bins` as --bins. The rows are reduced where the solver
// makes them: no V x V matrix reaches the host. Returns (the measures (measures_dict), the name
// of the distance type they were computed in).
py::tuple measures_edge_list(const HostArray<std::int64_t>& src, const HostArray<std::int64_t>& dst,
                             const HostArray<double>& weight, std::int64_t n,
                             const std::string& dtype, const std::string& algorithm,
                             const std::string& names, int bins) {
  const MeasuresRequest request = measures_request(MeasuresFormat::json, names, bins);
  const Graph graph = edge_list_graph(src, dst, &weight, n);
  const WeightRange weights = weight_range(graph);
  const GraphRequest run = request_of(algorithm);
  const DistanceType type = distance_type(dtype, n, weights);
  return visit_distance_type(type, [&](auto t) {
    using T = decltype(t);
    Answer<Exec, T> to;
    to.measure = MeasureOptions{request.histogram_bins()};
    run_on_kokkos(graph, weights, run, to);
    return py::make_tuple(measures_dict(to.measures, request, type), distance_type_name(type));
  });
}

// What run_graph's plan decides for an edge list (the weights do not matter, only their sign):
// {"algorithm", "decision", "ordering", "symbolic", "predicted_updates", "dense_updates"}.
py::dict explain_choice(const HostArray<std::int64_t>& src, const HostArray<std::int64_t>& dst,
                        std::int64_t n, const std::string& dtype, bool negative, bool predecessors,
                        const std::string& algorithm) {
  const Graph signs = edge_list_graph(src, dst, nullptr, n, negative ? -1 : 1);
  const DistanceType type = type_named(dtype);
  const GraphRequest request = request_of(algorithm);
  RunPlan run;
  {
    py::gil_scoped_release release;
    kokkos_thread().run([&] {
      run = plan_run(Exec(), signs, weight_range(signs), type,
                     PlanRequest{request.algorithm, request.shape, predecessors, false});
    });
  }
  warn_once(run.warning);
  py::dict d;
  d["algorithm"] = algorithm_name(run.plan.algorithm);
  d["decision"] = run.stats.decision;
  d["ordering"] = run.stats.ordering;
  d["symbolic"] = run.stats.symbolic;
  d["predicted_updates"] = run.stats.predicted_updates;
  d["dense_updates"] = run.stats.dense_updates;
  return d;
}

// The same from a dense V x V matrix of float64 weights W (C order; +inf: no edge; the diagonal
// is not read): no edge list unless the predecessors need one (float64 sums need no second
// opinion on a negative cycle).
py::tuple solve_dense(const HostArray<double>& weights, bool predecessors) {
  using T = double;
  if (weights.ndim() != 2 || weights.shape(0) != weights.shape(1))
    throw py::value_error("weights must be a square matrix");
  const std::int64_t n = weights.shape(0);
  if (n > std::numeric_limits<std::int32_t>::max())
    throw py::value_error("at most 2^31-1 vertices, got " + std::to_string(n));
  if (n <= python::small_graph_limit) {  // one closure on this thread (batch.cpp)
    CycleVerdict verdict;
    py::tuple result = python::solve_small_dense(weights.data(), n, predecessors, verdict);
    throw_negative_cycle(verdict, DistanceType::float64);
    return result;
  }
  const T* w = weights.data();
  Graph graph;  // the edges, where the predecessors need them
  graph.vertices = std::int32_t(n);
  WeightRange range;
  {
    py::gil_scoped_release release;
    range = dense_weight_range(w, n);
    if (predecessors) graph.edges = dense_edges(w, n);
  }
  choose_distance_type(DistanceType::float64, n, range);  // the paths fit, or a ValueError
  return solve_in<T>(graph, range, predecessors, GraphRequest{Algorithm::floyd_warshall, {}, 0}, w);
}

// The memory check of a solve, for the Python layer to make before it allocates anything of
// size V (a sparse graph's vertex arrays, a dense graph's copy): `edges` and `host_bytes` (what
// it holds besides the results) as far as it knows them. With `dense` false (an edge list that
// auto may order) only the results and host_bytes: each algorithm checks the rest itself.
void check_solve_memory(std::int64_t n, const std::string& dtype, bool predecessors,
                        std::uint64_t edges, std::uint64_t host_bytes, bool dense) {
  check_vertex_count(n);
  visit_distance_type(type_named(dtype), [&](auto t) {
    using T = decltype(t);
    py::gil_scoped_release release;
    kokkos_thread().run([&] {
      check_answer_memory<T>(Exec(), one_rank(), n, std::int64_t(edges), host_bytes, predecessors,
                             dense);
    });
  });
}

py::dict config() {
  std::string device;
  {
    py::gil_scoped_release release;
    kokkos_thread().run([&] { device = describe_device(Exec()); });
  }
  py::dict c;
  c["apsp_version"] = APSP_VERSION;
  c["backend"] = backend_name<Exec>();
  c["device"] = device;
  c["kokkos_version"] = kokkos_version();
  py::list types;  // the distance types compiled into this build (all but in a checking build)
  if (distance_type_compiled<int>) types.append("int32");
  if (distance_type_compiled<float>) types.append("float32");
  if (distance_type_compiled<double>) types.append("float64");
  c["dtypes"] = py::tuple(types);
  c["supernodal"] = have_nested_dissection();  // METIS: the ordering of supernodal Floyd-Warshall
  return c;
}

}  // namespace

PYBIND11_MODULE(_native, m) {
  m.doc() = "apsp's native solver (use the apsp package)";
  m.attr("__version__") = APSP_VERSION;
  apsp::kokkos_thread();  // initializes Kokkos on its thread
  py::module_::import("atexit").attr("register")(py::cpp_function([] {
    apsp::python::close_graphs();  // their device memory, while Kokkos is there to free it
    py::gil_scoped_release release;
    apsp::kokkos_thread().stop();
  }));
  py::module_::import("os").attr("register_at_fork")(
      py::arg("before") = py::cpp_function([] { apsp::kokkos_thread().before_fork(); }),
      py::arg("after_in_parent") =
          py::cpp_function([] { apsp::kokkos_thread().after_fork_in_parent(); }),
      py::arg("after_in_child") =
          py::cpp_function([] { apsp::kokkos_thread().after_fork_in_child(); }));
  // SciPy's NegativeCycleError as the base where SciPy is installed, so that code catching
  // SciPy's exception catches ours. (A handle, never released: it outlives the interpreter.)
  py::object base = py::reinterpret_borrow<py::object>(PyExc_Exception);
  try {
    base = py::module_::import("scipy.sparse.csgraph").attr("NegativeCycleError");
  } catch (const py::error_already_set&) {
  }
  static py::handle negative_cycle =
      PyErr_NewException("apsp._native.NegativeCycleError", base.ptr(), nullptr);
  m.attr("NegativeCycleError") = negative_cycle;
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      if (e.facts().kind == ErrorFacts::Kind::negative_cycle) {
        // SciPy's words: "Negative cycle detected through vertex ...", then the library's.
        const std::string words = python_words(e), lead = "negative cycle";
        const std::string message =
            "Negative cycle detected" +
            (words.compare(0, lead.size(), lead) == 0 ? words.substr(lead.size()) : ": " + words);
        py::object error = negative_cycle(message);
        error.attr("vertex") = e.facts().vertex;
        if (e.facts().graph >= 0) error.attr("graph") = e.facts().graph;  // of a batch
        PyErr_SetObject(negative_cycle.ptr(), error.ptr());
        return;
      }
      // A type that cannot hold the input's paths is a bad argument (dtype=), as is one the
      // call cannot take (ArgumentError).
      const ErrorFacts::Kind kind = e.facts().kind;
      const bool value =
          kind == ErrorFacts::Kind::distance_type || kind == ErrorFacts::Kind::argument;
      PyErr_SetString(kind == ErrorFacts::Kind::memory ? PyExc_MemoryError
                      : value                          ? PyExc_ValueError
                                                       : PyExc_RuntimeError,
                      python_words(e).c_str());
    }
  });
  m.def("solve", &solve_edge_list, py::arg("src"), py::arg("dst"), py::arg("weight"),
        py::arg("num_vertices"), py::arg("dtype"), py::arg("predecessors"), py::arg("algorithm"));
  m.def("measures", &measures_edge_list, py::arg("src"), py::arg("dst"), py::arg("weight"),
        py::arg("num_vertices"), py::arg("dtype"), py::arg("algorithm"), py::arg("names"),
        py::arg("bins"));
  m.def("explain_choice", &explain_choice, py::arg("src"), py::arg("dst"), py::arg("num_vertices"),
        py::arg("dtype"), py::arg("negative"), py::arg("predecessors"), py::arg("algorithm"));
  m.def("solve_dense_float64", &solve_dense, py::arg("weights"), py::arg("predecessors"));
  m.def("check_memory", &check_solve_memory, py::arg("num_vertices"), py::arg("dtype"),
        py::arg("predecessors"), py::arg("edges"), py::arg("host_bytes"), py::arg("dense"));
  m.def("config", &config);
  // Where auto considers supernodal Floyd-Warshall (the command line's thresholds): a dense
  // input this sparse goes to the solver as edges (apsp/__init__.py).
  m.attr("SUPERNODAL_MIN_VERTICES") = supernodal_min_vertices;
  m.attr("SUPERNODAL_MAX_DEGREE") = supernodal_max_degree;
  // The most histogram bins apsp.measures takes (as --bins: 1 to this).
  m.attr("MAX_HISTOGRAM_BINS") = max_histogram_bins;
  // The measures' names (the vertices', then the graph's), as the files order them.
  py::list names;
  for (const auto* list : {&vertex_measure_names(), &graph_measure_names()})
    for (const std::string& name : *list)
      names.append(name);
  m.attr("MEASURES") = py::tuple(names);
  python::register_graph(m);
  python::register_batch(m);
}
