// apsp._native: the Python module's native part. It solves an edge list with the one blocked
// Floyd-Warshall (apsp::floyd_warshall) on the build's default Kokkos backend, in int32, float32
// or float64, and the predecessor rows by the library's rule (paths.hpp). SciPy's conventions
// (dense, masked and sparse inputs, directed, unweighted, -9999) live in apsp/__init__.py.
//
// Kokkos lives on one worker thread of the module: it is initialized there at import, every
// call's Kokkos work runs there, one call at a time, and it is finalized there at exit
// (atexit). So calls from any Python thread work (Kokkos 3.4's OpenMP backend runs only from the
// thread that initialized it, and is not re-entrant); callers release the GIL while they wait.
// Results are NumPy-owned arrays that the device result is copied into directly; nothing returned
// wraps Kokkos memory.
#include <apsp/backends.hpp>
#include <apsp/distance.hpp>
#include <apsp/error.hpp>
#include <apsp/floyd_warshall.hpp>
#include <apsp/paths.hpp>
#include <apsp/plan.hpp>
#include <apsp/version.hpp>

#include "../io_support.hpp"
#include "../support.hpp"
#include "batch.hpp"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <future>
#include <limits>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace py = pybind11;

namespace {

using namespace apsp;

using Exec = Kokkos::DefaultExecutionSpace;

// A negative cycle through `vertex` (the smallest such vertex).
struct NegativeCycle {
  std::int64_t vertex;
};

template <class T>
struct WeightedEdge {
  std::int32_t src, dst;
  T weight;
};

// The thread that owns Kokkos: run(f) runs f there and waits for it (f's exceptions come back).
class KokkosThread {
 public:
  KokkosThread() {
    thread_ = std::thread([this] { loop(); });
    // No warnings on import (Kokkos 3.4's OpenMP one about OMP_PROC_BIND goes to stdout): the
    // command-line form of the option, which every Kokkos from 3.4 to 5.x reads.
    try {
      run([] {
        char name[] = "apsp", quiet[] = "--kokkos-disable-warnings";
        char* argv[] = {name, quiet, nullptr};
        int argc = 2;
        Kokkos::initialize(argc, argv);
      });
    } catch (const std::exception& e) {
      // Kokkos could not start (a CUDA build on a machine without a GPU): end the thread before
      // the members it waits on go, and let the import fail with the reason.
      end_thread();
      throw std::runtime_error(std::string("apsp: Kokkos could not start this build's backend (") +
                               Kokkos::DefaultExecutionSpace::name() + "): " + e.what());
    }
  }
  void run(const std::function<void()>& f) {
    std::packaged_task<void()> task(f);
    std::future<void> done = task.get_future();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopped_) throw std::runtime_error("apsp: Kokkos has been finalized (interpreter exit)");
      jobs_.push_back(std::move(task));
    }
    ready_.notify_one();
    done.get();
  }
  // Finalizes Kokkos and ends the thread; later calls fail with an error.
  void stop() {
    if (stopped_) return;
    run([] {
      if (Kokkos::is_initialized()) Kokkos::finalize();
    });
    end_thread();
  }

 private:
  void end_thread() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopped_ = true;
    }
    ready_.notify_one();
    thread_.join();
  }

  void loop() {
    for (;;) {
      std::packaged_task<void()> task;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        ready_.wait(lock, [this] { return stopped_ || !jobs_.empty(); });
        if (jobs_.empty()) return;
        task = std::move(jobs_.front());
        jobs_.pop_front();
      }
      task();
    }
  }

  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::packaged_task<void()>> jobs_;
  bool stopped_ = false;
};

KokkosThread& kokkos_thread() {
  static KokkosThread* t = new KokkosThread;  // stopped at exit, never destroyed
  return *t;
}

template <class T>
using HostArray = py::array_t<T, py::array::c_style | py::array::forcecast>;

// Rows [0, count) of `from`, their first n entries, into the NumPy array at `to` (n per row):
// the padded rows in one transfer (none on a host backend), then each row's first n entries in
// parallel on the host.
template <class View>
void copy_rows(const View& from, std::int64_t count, std::int64_t n,
               typename View::non_const_value_type* to) {
  using V = typename View::non_const_value_type;
  using Rows = Kokkos::View<V**, Kokkos::LayoutRight, Kokkos::HostSpace,
                            Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  if (std::int64_t(from.extent(1)) == n && std::int64_t(from.extent(0)) == count) {
    Kokkos::deep_copy(Rows(to, count, n), from);
    return;
  }
  const auto host = Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace(),
      Kokkos::subview(from, std::make_pair(std::int64_t(0), count), Kokkos::ALL));
  Kokkos::parallel_for(
      "apsp::python::copy_rows",
      Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::IndexType<std::int64_t>>(
          0, count),
      [&](std::int64_t i) { std::memcpy(to + i * n, &host(i, 0), std::size_t(n) * sizeof(V)); });
  Kokkos::DefaultHostExecutionSpace().fence();
}

// Whether every weight is a whole number (the predecessors' Tightness, paths.hpp).
template <class T>
bool whole_weights(const std::vector<WeightedEdge<T>>& edges) {
  for (const auto& e : edges)
    if (double(e.weight) != std::floor(double(e.weight))) return false;
  return true;
}

// The distance type of apsp.solve: choose_distance_type (graph.hpp), the CLI's --dtype rule, with
// its messages in Python's terms.
std::string distance_type(const std::string& asked, std::int64_t n, double lowest, double highest,
                          bool integers) {
  std::optional<DistanceType> type;
  if (asked != "auto") {
    DistanceType named;
    if (!distance_type_named(asked, named))
      throw py::value_error("dtype must be auto, int32, float32 or float64, got '" + asked + "'");
    type = named;
  }
  try {
    return distance_type_name(
        choose_distance_type(type, n, WeightRange{lowest, highest, integers}));
  } catch (const Error& e) {
    std::string message = e.what();
    for (std::size_t at; (at = message.find("--dtype ")) != std::string::npos;) {
      const std::size_t end = std::min(message.find_first_of(" ,)", at + 8), message.size());
      message = message.substr(0, at) + "dtype='" + message.substr(at + 8, end - at - 8) + "'" +
                message.substr(end);
    }
    throw py::value_error(message);
  }
}

// Solves on the Kokkos thread and returns (distances, predecessors or None). The matrix is
// filled by fill(d) where given (a dense input), else from the edges; the edges also give the
// predecessor rows.
template <class T>
py::tuple run(std::int64_t n, bool negative, double max_abs, bool predecessors,
              const std::vector<WeightedEdge<T>>& edges,
              const std::function<void(const DistanceMatrix<Exec, T>&)>& fill) {
  // Every real distance is at most (V - 1) * max|w| in magnitude (distance.hpp).
  const std::string bounds = path_bounds_problem<T>(n, max_abs, negative);
  if (!bounds.empty())
    throw py::value_error(bounds + (std::is_same<T, double>::value ? "" : ": use dtype='float64'"));

  // Memory, before any work: the padded matrix, the edges and the predecessor rows' work space
  // on the device; the NumPy results on the host (one memory on a CPU).
  Plan plan;
  std::uint64_t device_free = 0, host_free = 0;
  {
    py::gil_scoped_release release;
    kokkos_thread().run([&] {
      Exec exec;
      plan = make_plan(exec, n, negative, {}, Distance<T>::type);
      detail::choose_planned_shape(exec, {}, plan);  // `apsp tune --dtype`'s shape, if any
      plan.padded = padded_size(n, plan.shape);
      device_free = available_memory(exec);
      host_free = available_memory(Kokkos::DefaultHostExecutionSpace());
    });
  }
  const std::int64_t padded = plan.padded;
  const std::int64_t batch = std::min<std::int64_t>(
      n, std::max<std::int64_t>(1, (1 << 28) / (8 * std::max<std::int64_t>(padded, 1))));
  using detail::saturating_sum;
  using detail::size_text;
  const std::uint64_t device_need = saturating_sum(
      {matrix_bytes(padded, padded, sizeof(T)), edges.size() * sizeof(WeightedEdge<T>),
       predecessors ? PathEdges<Exec, T>::bytes(n, std::int64_t(edges.size())) : 0,
       predecessors ? PredecessorRows<Exec, T>::bytes(batch, padded) : 0});
  const bool one_memory = detail::host_memory<Exec>;
  // The results, and on a device their padded rows as they come off it (copy_rows; a dense
  // input's padded matrix goes up from the host the same way).
  const std::uint64_t host_need =
      saturating_sum({matrix_bytes(n, n, sizeof(T)), predecessors ? matrix_bytes(n, n) : 0,
                      one_memory ? 0 : matrix_bytes(padded, padded, sizeof(T))});
  if (one_memory ? saturating_sum({device_need, host_need}) > device_free
                 : device_need > device_free || host_need > host_free) {
    const std::string message =
        "V = " + std::to_string(n) + " in " + distance_type_name(Distance<T>::type) + " needs " +
        (one_memory ? size_text(saturating_sum({device_need, host_need})) + " of memory, " +
                          size_text(device_free) + " available"
                    : size_text(device_need) + " on " + backend_name<Exec>() + " (" +
                          size_text(device_free) + " available) and " + size_text(host_need) +
                          " on the host (" + size_text(host_free) + " available)") +
        (std::is_same<T, float>::value ? "" : "; float32 takes half of float64");
    PyErr_SetString(PyExc_MemoryError, message.c_str());
    throw py::error_already_set();
  }

  HostArray<T> dist({n, n});
  HostArray<std::int32_t> pred(predecessors ? std::vector<py::ssize_t>{n, n}
                                            : std::vector<py::ssize_t>{0, 0});
  T* out = dist.mutable_data();
  std::int32_t* pred_out = pred.mutable_data();
  std::int64_t cycle = -1;
  std::string error;
  {
    py::gil_scoped_release release;
    kokkos_thread().run([&] {
      try {
        Exec exec;
        {
          DistanceMatrix<Exec, T> d(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::dist"),
                                    padded, padded);
          Kokkos::View<WeightedEdge<T>*, Exec::memory_space> device_edges(
              Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::edges"), edges.size());
          Kokkos::deep_copy(device_edges, Kokkos::View<const WeightedEdge<T>*, Kokkos::HostSpace,
                                                       Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                                              edges.data(), edges.size()));
          if (fill)
            fill(d);
          else
            fill_distance_matrix(exec, d, device_edges);
          floyd_warshall(exec, d, plan);
          if (negative) cycle = negative_cycle_vertex(exec, d, 0, n);
          if (cycle < 0) copy_rows(d, n, n, out);
          if (cycle < 0 && predecessors) {
            // The library's rule (paths.hpp): exact where the sums are, else with a slack that
            // covers the solver's rounding.
            const Tightness<T> rule = tightness_for<T>(n, whole_weights(edges), max_abs);
            PredecessorRows<Exec, T> rows(
                exec, d, 0, n, select_path_edges(exec, d, n, device_edges, rule), batch, rule);
            for (std::int64_t first = 0; first < n; first += batch) {
              const std::int64_t count = std::min(batch, n - first);
              copy_rows(rows.compute(first, count), count, n, pred_out + first * n);
            }
          }
        }
      } catch (const std::exception& e) {
        error = e.what();
      }
    });
  }
  if (!error.empty()) throw std::runtime_error(error);
  if (cycle >= 0) throw NegativeCycle{cycle};
  if (!predecessors) return py::make_tuple(dist, py::none());
  return py::make_tuple(dist, pred);
}

template <class T>
py::tuple solve(const HostArray<std::int64_t>& src, const HostArray<std::int64_t>& dst,
                const HostArray<T>& weight, std::int64_t n, bool predecessors) {
  const std::int64_t count = src.size();
  if (dst.size() != count || weight.size() != count)
    throw py::value_error("src, dst and weight must have the same length (got " +
                          std::to_string(src.size()) + ", " + std::to_string(dst.size()) + ", " +
                          std::to_string(weight.size()) + ")");
  if (n < 0 || n > std::numeric_limits<std::int32_t>::max())
    throw py::value_error("num_vertices must be in 0..2^31-1, got " + std::to_string(n));
  std::vector<WeightedEdge<T>> edges(static_cast<std::size_t>(count));
  bool negative = false;
  double max_abs = 0;
  {
    const auto s = src.template unchecked<1>(), t = dst.template unchecked<1>();
    const auto w = weight.template unchecked<1>();
    for (std::int64_t e = 0; e < count; ++e) {
      if (s(e) < 0 || s(e) >= n || t(e) < 0 || t(e) >= n)
        throw py::value_error("edge " + std::to_string(e) + " (" + std::to_string(s(e)) + " -> " +
                              std::to_string(t(e)) + ") has a vertex outside 0.." +
                              std::to_string(n - 1));
      if (!std::isfinite(double(w(e))))
        throw py::value_error("edge " + std::to_string(e) + " has a weight that is not finite");
      edges[std::size_t(e)] = {std::int32_t(s(e)), std::int32_t(t(e)), w(e)};
      negative = negative || w(e) < T(0);
      max_abs = std::max(max_abs, std::fabs(double(w(e))));
    }
  }
  return run<T>(n, negative, max_abs, predecessors, edges, {});
}

// The same from a dense V x V matrix of weights W (C order; +inf: no edge; the diagonal is not
// read): no edge list unless the predecessors need one.
template <class T>
py::tuple solve_dense(const HostArray<T>& weights, bool predecessors) {
  if (weights.ndim() != 2 || weights.shape(0) != weights.shape(1))
    throw py::value_error("weights must be a square matrix");
  const std::int64_t n = weights.shape(0);
  if (n > std::numeric_limits<std::int32_t>::max())
    throw py::value_error("at most 2^31-1 vertices, got " + std::to_string(n));
  if constexpr (std::is_same<T, double>::value) {
    if (n <= python::small_graph_limit) {  // one closure on this thread (batch.cpp)
      std::int64_t cycle = -1;
      py::tuple result = python::solve_small_dense(weights.data(), n, predecessors, cycle);
      if (cycle >= 0) throw NegativeCycle{cycle};
      return result;
    }
  }
  const T* w = weights.data();
  bool negative = false, finite = true;
  double max_abs = 0;
  std::vector<WeightedEdge<T>> edges;
  {
    py::gil_scoped_release release;
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        const T x = w[i * n + j];
        if (i == j || x == std::numeric_limits<T>::infinity()) continue;
        finite = finite && std::isfinite(double(x));
        negative = negative || x < T(0);
        max_abs = std::max(max_abs, std::fabs(double(x)));
        if (predecessors) edges.push_back({std::int32_t(i), std::int32_t(j), x});
      }
  }
  if (!finite) throw py::value_error("weights must be finite or +inf (no edge)");
  const auto fill = [w, n](const DistanceMatrix<Exec, T>& d) {
    const auto host = Kokkos::create_mirror_view(d);
    const std::int64_t padded = d.extent(0);
    Kokkos::parallel_for(
        "apsp::python::fill_dense",
        Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::IndexType<std::int64_t>>(
            0, padded),
        [&](std::int64_t i) {
          for (std::int64_t j = 0; j < padded; ++j) {
            const T x = i < n && j < n ? w[i * n + j] : std::numeric_limits<T>::infinity();
            host(i, j) = i == j                                    ? T(0)
                         : x == std::numeric_limits<T>::infinity() ? Distance<T>::infinity
                                                                   : x;
          }
        });
    Kokkos::fence();
    Kokkos::deep_copy(d, host);
  };
  return run<T>(n, negative, max_abs, predecessors, edges, fill);
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
  c["dtypes"] = py::make_tuple("int32", "float32", "float64");
  return c;
}

}  // namespace

PYBIND11_MODULE(_native, m) {
  m.doc() = "apsp's native solver (use the apsp package)";
  kokkos_thread();  // initializes Kokkos on its thread
  py::module_::import("atexit").attr("register")(py::cpp_function([] {
    py::gil_scoped_release release;
    kokkos_thread().stop();
  }));
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
    } catch (const NegativeCycle& c) {
      const std::string message = "Negative cycle detected through vertex " +
                                  std::to_string(c.vertex) + ": shortest paths are undefined";
      py::object error = negative_cycle(message);
      error.attr("vertex") = c.vertex;
      PyErr_SetObject(negative_cycle.ptr(), error.ptr());
    }
  });
  m.def("solve_int32", &solve<int>, py::arg("src"), py::arg("dst"), py::arg("weight"),
        py::arg("num_vertices"), py::arg("predecessors"));
  m.def("solve_float32", &solve<float>, py::arg("src"), py::arg("dst"), py::arg("weight"),
        py::arg("num_vertices"), py::arg("predecessors"));
  m.def("solve_float64", &solve<double>, py::arg("src"), py::arg("dst"), py::arg("weight"),
        py::arg("num_vertices"), py::arg("predecessors"));
  m.def("solve_dense_float64", &solve_dense<double>, py::arg("weights"), py::arg("predecessors"));
  m.def("config", &config);
  python::register_batch(
      m, [](const std::function<void()>& f) { kokkos_thread().run(f); }, negative_cycle);
  m.def("distance_type", &distance_type, py::arg("asked"), py::arg("num_vertices"),
        py::arg("lowest"), py::arg("highest"), py::arg("integers"));
}
