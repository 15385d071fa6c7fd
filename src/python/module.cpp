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
#include <apsp/distance.hpp>
#include <apsp/error.hpp>
#include <apsp/floyd_warshall.hpp>
#include <apsp/graph_measures.hpp>
#include <apsp/measures.hpp>
#include <apsp/memory.hpp>
#include <apsp/ordering.hpp>
#include <apsp/paths.hpp>
#include <apsp/plan.hpp>
#include <apsp/solver.hpp>
#include <apsp/supernodal.hpp>
#include <apsp/version.hpp>

#include "batch.hpp"
#include "io/measures_output.hpp"
#include "io/posix_files.hpp"
#include "job/device_choices.hpp"
#include "job/run_plan.hpp"
#include "job/supernodal_choice.hpp"
#include "platform/backends.hpp"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
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

// Whether a forked child can take over the Kokkos its parent started: on Serial and OpenMP
// everything Kokkos keeps is memory, which the child has a copy of (OpenMP's threads are the
// runtime's, started anew for the child's worker thread). A device context does not survive fork.
template <class Space>
constexpr bool survives_fork = false;
#ifdef KOKKOS_ENABLE_SERIAL
template <>
constexpr bool survives_fork<Kokkos::Serial> = true;
#endif
#ifdef KOKKOS_ENABLE_OPENMP
template <>
constexpr bool survives_fork<Kokkos::OpenMP> = true;
#endif

// The thread that owns Kokkos: run(f) runs f there and waits for it (f's exceptions come back).
//
// Fork (os.fork, multiprocessing's default start method on Linux) copies only the thread that
// forks. So before a fork the forking thread waits until the worker is idle and holds the queue's
// lock through the fork (os.register_at_fork, at import): the child inherits no half-done job,
// and OpenMP's threads parked. The child starts no thread at fork time (it may be about to exec);
// its first call starts a worker of its own, which takes over the inherited Kokkos where the
// backend allows it (survives_fork) and otherwise fails naming the 'spawn' start method. At exit a
// child leaves Kokkos to the process that started it, so a child that never called waits for
// nothing.
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
      // the members it waits on go, and let the import fail with the reason, in one line.
      end_thread();
      throw std::runtime_error("apsp: " + apsp::kokkos_start_failure(e));
    }
  }
  void run(const std::function<void()>& f) {
    std::future<void> done;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopped_) throw std::runtime_error("apsp: Kokkos has been finalized (interpreter exit)");
      if (!thread_.joinable()) start_in_child();
      std::function<void()> job = f;
      if (forked_)
        job = [&f] {
          take_over_kokkos();
          f();
        };
      std::packaged_task<void()> task(std::move(job));
      done = task.get_future();
      jobs_.push_back(std::move(task));
    }
    ready_.notify_one();
    done.get();
  }
  // Finalizes Kokkos and ends the thread; later calls fail with an error. A forked child only
  // ends its own worker, if it started one.
  void stop() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopped_) return;
      if (!thread_.joinable()) {
        stopped_ = true;
        return;
      }
    }
    if (!forked_)
      run([] {
        if (Kokkos::is_initialized()) Kokkos::finalize();
      });
    end_thread();
  }

  // os.register_at_fork's three hooks. They keep the GIL (no job takes it, and two threads that
  // fork at once then wait here in turn).
  void before_fork() {
    std::unique_lock<std::mutex> lock(mutex_);
    idle_.wait(lock, [this] { return !busy_ && jobs_.empty(); });
    lock.release();  // held through the fork, unlocked by after_fork_*
  }
  void after_fork_in_parent() { mutex_.unlock(); }
  // The child has none of the parent's threads: its members start afresh (the old ones are
  // abandoned, not destroyed: a joinable std::thread's destructor terminates, and the lock, the
  // condition variables and the queue may record threads that the child does not have).
  void after_fork_in_child() {
    new (&thread_) std::thread();
    new (&mutex_) std::mutex();
    new (&ready_) std::condition_variable();
    new (&idle_) std::condition_variable();
    new (&jobs_) std::deque<std::packaged_task<void()>>();
    busy_ = false;
    forked_ = true;
  }

 private:
  // A forked child's first call (mutex_ held): a worker of its own.
  void start_in_child() {
    if (!survives_fork<Kokkos::DefaultExecutionSpace> ||
        !survives_fork<Kokkos::DefaultHostExecutionSpace>)
      throw std::runtime_error(
          std::string("apsp: this process is a fork of one that had started Kokkos on ") +
          Kokkos::DefaultExecutionSpace::name() +
          ", which does not survive fork: start worker processes with multiprocessing's 'spawn' "
          "start method (multiprocessing.get_context('spawn')), or import apsp only in them");
    thread_ = std::thread([this] { loop(); });
  }
  // On a forked child's worker, before each job: the inherited Kokkos made usable there. Kokkos
  // 3's OpenMP backend keeps its instance in a thread_local of the thread that initialized it, so
  // the child's worker makes its own (once; the rest of Kokkos is inherited, and OpenMP gives the
  // new thread a new pool of threads). Kokkos 4 and later keep one instance for the process.
  static void take_over_kokkos() {
#if defined(KOKKOS_ENABLE_OPENMP) && KOKKOS_VERSION < 40000
    if (!Kokkos::OpenMP::impl_is_initialized())
      Kokkos::OpenMP::impl_initialize(Kokkos::OpenMP::concurrency());
#endif
  }

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
        busy_ = true;
      }
      task();
      {
        std::lock_guard<std::mutex> lock(mutex_);
        busy_ = false;
      }
      idle_.notify_all();
    }
  }

  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable ready_, idle_;
  std::deque<std::packaged_task<void()>> jobs_;
  bool busy_ = false;     // a job is running
  bool stopped_ = false;  // after exit: no more jobs
  bool forked_ = false;   // a forked child: Kokkos is the parent's
};

KokkosThread& kokkos_thread() {
  static KokkosThread* t = new KokkosThread;  // stopped at exit, never destroyed
  return *t;
}

// A warning of the library (a tuning cache that cannot be used) as Python's RuntimeWarning, once
// per process and message; never printed to C's stderr. The GIL is held.
void warn_once(const std::string& message) {
  static std::vector<std::string> issued;
  if (message.empty() || std::find(issued.begin(), issued.end(), message) != issued.end()) return;
  issued.push_back(message);
  if (PyErr_WarnEx(PyExc_RuntimeWarning, ("apsp: " + message).c_str(), 1) != 0)
    throw py::error_already_set();
}

template <class T>
using HostArray = py::array_t<T, py::array::c_style | py::array::forcecast>;

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

// A RowSink into the n x n NumPy array at `to`.
template <class V>
RowSink<V> rows_into(std::int64_t n, V* to) {
  return [n, to](std::int64_t first, std::int64_t count, const V* rows, std::int64_t stride) {
    copy_rows(rows, stride, first, count, n, to);
  };
}

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

// The distance type of apsp.solve: `asked` (auto, int32, float32 or float64) by
// choose_distance_type (graph.hpp), the command line's --dtype rule.
DistanceType distance_type(const std::string& asked, std::int64_t n, const WeightRange& weights) {
  std::optional<DistanceType> type;
  if (asked != "auto") {
    DistanceType named;
    if (!distance_type_named(asked, named))
      throw py::value_error("dtype must be auto, int32, float32 or float64, got '" + asked + "'");
    type = named;
  }
  try {
    return choose_distance_type(type, n, weights);
  } catch (const Error& e) {
    throw py::value_error(python_words(e));
  }
}

// One process: the module's ranks.
OneRank& one_rank() {
  static OneRank one;
  return one;
}

// The NumPy results of V = n: the distances, and the predecessors where asked for.
template <class T>
std::uint64_t results_bytes(std::int64_t n, bool predecessors) {
  return saturating_sum(
      {matrix_bytes(n, n, sizeof(T)), predecessors ? matrix_bytes(n, n) : std::uint64_t(0)});
}

// The NumPy arrays of the results of V = n: the distances, and the predecessors where asked for.
template <class T>
struct Results {
  HostArray<T> dist;
  HostArray<std::int32_t> pred;
  bool predecessors;
  Results(std::int64_t n, bool with_predecessors)
      : dist({n, n}),
        pred(with_predecessors ? std::vector<py::ssize_t>{n, n} : std::vector<py::ssize_t>{0, 0}),
        predecessors(with_predecessors) {}
  // (distances, predecessors or None). Two returns, not ?:, since pybind11 3's make_tuple gives
  // each element list its own type.
  py::tuple tuple() const {
    if (predecessors) return py::make_tuple(dist, pred);
    return py::make_tuple(dist, py::none());
  }
};

// The `host_need` bytes that the module holds on the host for V = n in T (its NumPy results and
// more), checked with what the device and the host have free (check_device_and_host, memory.hpp):
// what they leave a solver, or a MemoryError before any work.
template <class T>
MemoryLimits limits_beside(std::int64_t n, std::uint64_t host_need) {
  std::uint64_t device_free = 0, host_free = 0;
  kokkos_thread().run([&] {
    device_free = available_memory(Exec());
    host_free = available_memory(Kokkos::DefaultHostExecutionSpace());
  });
  try {
    return check_device_and_host<Exec>(
        "V = " + std::to_string(n) + " in " + distance_type_name(Distance<T>::type), 0, host_need,
        MemoryLimits{device_free, 0, backend_name<Exec>(), false}, host_free);
  } catch (const MemoryError& e) {
    if (std::is_same<T, float>::value) throw;
    throw Error(std::string(e.what()) + "; float32 takes half of float64", e.facts());
  }
}

// Every real distance must stay within what T holds (path_bounds_problem, distance.hpp): else a
// ValueError.
template <class T>
void check_path_bounds(std::int64_t n, const WeightRange& weights) {
  const std::string bounds = path_bounds_problem<T>(n, weights.longest_path, weights.negative());
  if (!bounds.empty())
    throw py::value_error(bounds + (std::is_same<T, double>::value ? "" : ": use dtype='float64'"));
}

// A solver of V = n in T (solver.hpp) whose memory is there: the `host_held` bytes that the
// caller holds on the host (its NumPy results and more; checked here: they are the module's), then
// the solver's own on the device in what they leave (the solver checks it: the padded matrix,
// the edges, the predecessor rows' work space). Otherwise a MemoryError, before any work. The
// plan takes `apsp tune --dtype`'s shape, if any (its warning, once, as a Python warning).
template <class T>
std::unique_ptr<Solver<Exec, T>> solver_within_memory(std::int64_t n, bool negative,
                                                      std::int64_t edges, bool predecessors,
                                                      std::uint64_t host_held,
                                                      const WeightRange& weights = {}) {
  Plan plan;
  std::string warning;
  {
    py::gil_scoped_release release;
    kokkos_thread().run(
        [&] { plan = dense_plan(Exec(), n, negative, {}, Distance<T>::type, warning); });
  }
  warn_once(warning);
  plan.predecessors = predecessors;
  // What the caller holds, and on a device a dense input's padded matrix on its way up from the
  // host.
  const MemoryLimits limits = limits_beside<T>(
      n,
      saturating_sum(
          {host_held, host_memory<Exec> ? 0 : matrix_bytes(plan.padded, plan.padded, sizeof(T))}));
  std::unique_ptr<Solver<Exec, T>> solver;
  {
    py::gil_scoped_release release;
    kokkos_thread().run([&] {
      solver = std::make_unique<Solver<Exec, T>>(Exec(), one_rank(), plan, weights);
      try {
        solver->check_memory(limits, edges);
      } catch (...) {
        solver.reset();  // Kokkos objects end on Kokkos' thread
        throw;
      }
    });
  }
  return solver;
}

// The plan of an edge list: `asked` "fw", "supernodal" or "auto" (supernodal where its ordering
// predicts less work than dense Floyd-Warshall on the planned shape), by the command line's rule
// (plan_run, run_plan.hpp).
template <class T>
RunPlan plan_for(const Graph& graph, const WeightRange& weights, bool predecessors,
                 const std::string& asked) {
  const std::optional<Algorithm> algorithm = algorithm_named(asked);
  if (!algorithm || *algorithm == Algorithm::sssp)
    throw py::value_error("algorithm must be auto, fw or supernodal, got '" + asked + "'");
  RunPlan run;
  {
    py::gil_scoped_release release;
    kokkos_thread().run([&] {
      run = plan_run(Exec(), graph, weights, Distance<T>::type,
                     PlanRequest{*algorithm, {}, predecessors, false});
    });
  }
  warn_once(run.warning);
  return run;
}

// Every row of a solver that has checked its memory (Solver or SupernodalSolver: one shape),
// into the results, on the Kokkos thread: the matrix from the edges (or fill(d), a dense input's
// matrix, for the dense solver), the verdict on negative cycles (float32's re-check included),
// the distance rows, the predecessor rows.
template <class T, class S, class Fill>
void solve_into(S& solver, const std::vector<Edge>& edges, const Fill& fill, Results<T>& results) {
  const std::int64_t n = results.dist.shape(0);
  T* out = results.dist.mutable_data();
  std::int32_t* pred_out = results.pred.mutable_data();
  if constexpr (std::is_same<Fill, std::nullptr_t>::value)
    solver.load(edges);
  else
    solver.load(edges, fill);
  solver.compute();
  solver.distance_rows(rows_into(n, out));
  if (results.predecessors) {
    solver.select_paths();
    solver.predecessor_rows(rows_into(n, pred_out));
  }
}

// Supernodal Floyd-Warshall (SupernodalSolver) on the Kokkos thread, its rows by blocks into the
// results: (distances, predecessors or None). `limits`: what the results leave the solver.
template <class T>
py::tuple run_supernodal(const Graph& graph, const WeightRange& weights, bool predecessors,
                         const SupernodalPlan& plan, const MemoryLimits& limits) {
  const std::int64_t n = graph.vertices;
  Results<T> results(n, predecessors);
  {
    py::gil_scoped_release release;
    kokkos_thread().run([&] {
      SupernodalSolver<Exec, T> solver(Exec(), one_rank(), plan, predecessors, weights);
      solver.check_memory(limits, std::int64_t(graph.edges.size()));
      solve_into(solver, graph.edges, nullptr, results);
    });
  }
  return results.tuple();
}

// Solves with the dense solver (solver.hpp) on the Kokkos thread and returns (distances,
// predecessors or None). The matrix is filled by fill(d) where given (a dense input in float64),
// else from the graph's edges; the edges also give the predecessor rows and, in float32, the
// negative-cycle verdict.
template <class T>
py::tuple run(const Graph& graph, const WeightRange& weights, bool predecessors,
              const std::function<void(const DistanceMatrix<Exec, T>&)>& fill) {
  const std::int64_t n = graph.vertices;
  check_path_bounds<T>(n, weights);
  std::unique_ptr<Solver<Exec, T>> solver =
      solver_within_memory<T>(n, weights.negative(), std::int64_t(graph.edges.size()), predecessors,
                              results_bytes<T>(n, predecessors), weights);
  Results<T> results(n, predecessors);
  {
    py::gil_scoped_release release;
    kokkos_thread().run([&] {
      try {
        solve_into(*solver, graph.edges, fill, results);
      } catch (...) {
        solver.reset();
        throw;
      }
      solver.reset();
    });
  }
  return results.tuple();
}

// apsp.solve in T, a type that holds the graph's paths (choose_distance_type): the results'
// memory first, then the algorithm, then the solve.
template <class T>
py::tuple solve_in(const Graph& graph, const WeightRange& weights, bool predecessors,
                   const std::string& algorithm) {
  const std::int64_t n = graph.vertices;
  // The results at least, before an ordering is tried (each algorithm checks all it needs).
  const MemoryLimits limits = limits_beside<T>(n, results_bytes<T>(n, predecessors));
  const RunPlan plan = plan_for<T>(graph, weights, predecessors, algorithm);
  if (plan.plan.algorithm == Algorithm::supernodal)
    return run_supernodal<T>(graph, weights, predecessors, plan.supernodal, limits);
  return run<T>(graph, weights, predecessors, {});
}

// The edges src[e] -> dst[e] of weight[e] (in float64, as the command line reads weights) on n
// vertices as a Graph; a vertex out of range or a weight that is not finite is a ValueError.
Graph edge_list_graph(const HostArray<std::int64_t>& src, const HostArray<std::int64_t>& dst,
                      const HostArray<double>& weight, std::int64_t n) {
  const std::int64_t count = src.size();
  python::check_lengths(count, dst.size(), weight.size());
  python::check_vertex_count(n);
  Graph graph;
  graph.vertices = std::int32_t(n);
  graph.edges.resize(static_cast<std::size_t>(count));
  {
    const auto s = src.unchecked<1>(), t = dst.unchecked<1>();
    const auto w = weight.unchecked<1>();
    for (std::int64_t e = 0; e < count; ++e) {
      python::check_vertices(e, s(e), t(e), n);
      python::check_weight(e, w(e));
      graph.edges[std::size_t(e)] = Edge{std::int32_t(s(e)), std::int32_t(t(e)), w(e)};
    }
  }
  return graph;
}

// apsp.solve's native part: the edge list in the distance type `dtype` (auto, or a type's name:
// the command line's --dtype rule), by `algorithm`.
py::tuple solve_edge_list(const HostArray<std::int64_t>& src, const HostArray<std::int64_t>& dst,
                          const HostArray<double>& weight, std::int64_t n, const std::string& dtype,
                          bool predecessors, const std::string& algorithm) {
  const Graph graph = edge_list_graph(src, dst, weight, n);
  const WeightRange weights = weight_range(graph);
  return visit_distance_type(distance_type(dtype, n, weights), [&](auto t) {
    return solve_in<decltype(t)>(graph, weights, predecessors, algorithm);
  });
}

// The measures of a graph in T (graph_measures.hpp), by the solver that `algorithm` plans, its
// rows reduced where the solver makes them (reduce_rows): no V x V matrix reaches the host, so
// only the solver's own memory is checked. `bins`: 0 for no histogram (one pass over the rows).
template <class T>
GraphMeasures measures_in(const Graph& graph, const WeightRange& weights,
                          const std::string& algorithm, int bins) {
  const std::int64_t n = graph.vertices;
  check_path_bounds<T>(n, weights);
  const RunPlan plan = plan_for<T>(graph, weights, false, algorithm);
  const MeasureOptions options{bins};
  const auto measure = [&](auto& solver) {
    solver.load(graph.edges);
    solver.compute();
    return graph_measures<T>(Exec(), one_rank(), n, solver.first_row(), solver.real_rows(), options,
                             [&](const MeasureSink<Exec, T>& sink) { solver.reduce_rows(sink); });
  };
  GraphMeasures m;
  if (plan.plan.algorithm == Algorithm::supernodal) {
    const MemoryLimits limits = limits_beside<T>(n, 0);
    py::gil_scoped_release release;
    kokkos_thread().run([&] {
      SupernodalSolver<Exec, T> solver(Exec(), one_rank(), plan.supernodal, false, weights);
      solver.expect_measures();
      solver.check_memory(limits, std::int64_t(graph.edges.size()));
      m = measure(solver);
    });
    return m;
  }
  std::unique_ptr<Solver<Exec, T>> solver = solver_within_memory<T>(
      n, weights.negative(), std::int64_t(graph.edges.size()), false, 0, weights);
  py::gil_scoped_release release;
  kokkos_thread().run([&] {
    try {
      m = measure(*solver);
    } catch (...) {
      solver.reset();  // Kokkos objects end on Kokkos' thread
      throw;
    }
    solver.reset();
  });
  return m;
}

// The measures as apsp.measures returns them, named and ordered as the .json that `apsp measures`
// writes for the same request: the graph's values as Python numbers (int32's exact integers, the
// Wiener index in all its digits), each vertex's as NumPy arrays: distances in T, counts and
// int32's sums in int64, the rest in float64.
template <class T>
py::dict measures_dict(const GraphMeasures& m, const MeasuresRequest& request) {
  const auto number = [&](double x) -> py::object {
    if (m.integral) return py::int_(std::int64_t(x));
    return py::float_(x);
  };
  const auto array = [](const auto& values, auto type) {
    HostArray<decltype(type)> a(py::ssize_t(values.size()));
    std::copy(values.begin(), values.end(), a.mutable_data());
    return a;
  };
  py::dict d;
  d["vertices"] = m.vertices;
  d["connected"] = m.connected;
  if (request.wants("diameter")) d["diameter"] = number(m.diameter);
  if (request.wants("radius")) d["radius"] = number(m.radius);
  if (request.wants("center")) d["center"] = array(m.center, std::int64_t());
  if (request.wants("periphery")) d["periphery"] = array(m.periphery, std::int64_t());
  if (request.wants("average_shortest_path_length"))
    d["average_shortest_path_length"] = m.average_shortest_path_length;
  if (request.wants("wiener_index"))
    d["wiener_index"] = m.integral ? py::int_(py::str(m.wiener_exact.text()))
                                   : py::object(py::float_(m.wiener_index));
  if (request.wants("histogram")) {
    py::dict h;
    h["bins"] = m.bins;
    h["low"] = number(m.low);
    h["high"] = number(m.high);
    h["counts"] = array(m.histogram, std::int64_t());
    h["unreachable"] = m.unreachable_pairs;
    d["histogram"] = h;
  }
  if (request.wants("eccentricity")) d["eccentricity"] = array(m.eccentricity, T());
  if (request.wants("in_eccentricity")) d["in_eccentricity"] = array(m.in_eccentricity, T());
  if (request.wants("reachable")) d["reachable"] = array(m.reachable, std::int64_t());
  if (request.wants("in_reachable")) d["in_reachable"] = array(m.in_reachable, std::int64_t());
  if (request.wants("distance_sum"))
    d["distance_sum"] = m.integral ? py::object(array(m.distance_sum_exact, std::int64_t()))
                                   : py::object(array(m.distance_sum, double()));
  if (request.wants("in_distance_sum"))
    d["in_distance_sum"] = m.integral ? py::object(array(m.in_distance_sum_exact, std::int64_t()))
                                      : py::object(array(m.in_distance_sum, double()));
  if (request.wants("closeness_centrality"))
    d["closeness_centrality"] = array(m.closeness_centrality, double());
  if (request.wants("harmonic_centrality"))
    d["harmonic_centrality"] = array(m.harmonic_centrality, double());
  return d;
}

// apsp.measures' native part: the edge list as apsp.solve takes it; `names` as `apsp measures
// --measures` takes them ("" for all), `bins` as --bins. Returns (the measures (measures_dict),
// the name of the distance type they were computed in).
py::tuple measures_edge_list(const HostArray<std::int64_t>& src, const HostArray<std::int64_t>& dst,
                             const HostArray<double>& weight, std::int64_t n,
                             const std::string& dtype, const std::string& algorithm,
                             const std::string& names, int bins) {
  const MeasuresRequest request = measures_request(MeasuresFormat::json, names, bins);
  const Graph graph = edge_list_graph(src, dst, weight, n);
  const WeightRange weights = weight_range(graph);
  const DistanceType type = distance_type(dtype, n, weights);
  return visit_distance_type(type, [&](auto t) {
    using T = decltype(t);
    const GraphMeasures m = measures_in<T>(graph, weights, algorithm, request.histogram_bins());
    return py::make_tuple(measures_dict<T>(m, request), distance_type_name(type));
  });
}

// What plan_for decides for an edge list (the weights do not matter, only their sign):
// {"algorithm", "decision", "ordering", "symbolic", "predicted_updates", "dense_updates"}.
py::dict explain_choice(const HostArray<std::int64_t>& src, const HostArray<std::int64_t>& dst,
                        std::int64_t n, const std::string& dtype, bool negative, bool predecessors,
                        const std::string& algorithm) {
  python::check_lengths(src.size(), dst.size());
  python::check_vertex_count(n);
  DistanceType type;
  if (!distance_type_named(dtype, type))
    throw py::value_error("dtype must be int32, float32 or float64, got '" + dtype + "'");
  std::vector<Edge> edges(static_cast<std::size_t>(src.size()));
  const auto s = src.unchecked<1>(), t = dst.unchecked<1>();
  for (py::ssize_t e = 0; e < src.size(); ++e) {
    python::check_vertices(e, s(e), t(e), n);
    edges[std::size_t(e)] = Edge{std::int32_t(s(e)), std::int32_t(t(e)), negative ? -1 : 1};
  }
  const Graph graph{std::int32_t(n), std::move(edges)};
  RunPlan run;
  visit_distance_type(type, [&](auto t) {
    run = plan_for<decltype(t)>(graph, weight_range(graph), predecessors, algorithm);
  });
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
    range = python::dense_weight_range(w, n);
    if (predecessors)
      for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t j = 0; j < n; ++j)
          if (i != j && w[i * n + j] != std::numeric_limits<T>::infinity())
            graph.edges.push_back(Edge{std::int32_t(i), std::int32_t(j), w[i * n + j]});
  }
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
  return run<T>(graph, range, predecessors, fill);
}

// The memory check of a solve, for the Python layer to make before it allocates anything of
// size V (a sparse graph's vertex arrays, a dense graph's copy): `edges` and `host_bytes` (what
// it holds besides the results) as far as it knows them. With `dense` false (an edge list that
// auto may order) only the results and host_bytes: each algorithm checks the rest itself.
void check_solve_memory(std::int64_t n, const std::string& dtype, bool predecessors,
                        std::uint64_t edges, std::uint64_t host_bytes, bool dense) {
  if (n < 0 || n > std::numeric_limits<std::int32_t>::max())
    throw py::value_error("at most 2^31-1 vertices, got " + std::to_string(n));
  DistanceType type;
  if (!distance_type_named(dtype, type))
    throw py::value_error("dtype must be int32, float32 or float64, got '" + dtype + "'");
  visit_distance_type(type, [&](auto t) {
    using T = decltype(t);
    const std::uint64_t need = saturating_sum({results_bytes<T>(n, predecessors), host_bytes});
    if (!dense) {
      limits_beside<T>(n, need);
      return;
    }
    auto solver = solver_within_memory<T>(n, false, std::int64_t(edges), predecessors, need);
    kokkos_thread().run([&] { solver.reset(); });  // Kokkos objects end on Kokkos' thread
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
  kokkos_thread();  // initializes Kokkos on its thread
  py::module_::import("atexit").attr("register")(py::cpp_function([] {
    py::gil_scoped_release release;
    kokkos_thread().stop();
  }));
  py::module_::import("os").attr("register_at_fork")(
      py::arg("before") = py::cpp_function([] { kokkos_thread().before_fork(); }),
      py::arg("after_in_parent") = py::cpp_function([] { kokkos_thread().after_fork_in_parent(); }),
      py::arg("after_in_child") = py::cpp_function([] { kokkos_thread().after_fork_in_child(); }));
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
        PyErr_SetObject(negative_cycle.ptr(), error.ptr());
        return;
      }
      PyErr_SetString(
          e.facts().kind == ErrorFacts::Kind::memory ? PyExc_MemoryError : PyExc_RuntimeError,
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
  python::register_batch(
      m, [](const std::function<void()>& f) { kokkos_thread().run(f); }, negative_cycle,
      python_words);
}
