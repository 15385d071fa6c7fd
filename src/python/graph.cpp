// apsp._native's prepared graphs, the native part of apsp.Graph (apsp/graph.py): a graph planned
// and factored once (PreparedGraph, src/run/prepared_graph.hpp) and kept on the device for many
// queries: tables of distances, the measures, new weights on the same edges; saved to and
// loaded from apsp prepare's file (io/prepared_file.hpp).
//
// Every query runs on the module's Kokkos thread, one at a time, so queries from many Python
// threads are safe. close() frees the device memory at once; at exit every graph still open is
// freed before Kokkos is finalized (close_graphs). A graph used after either is a ValueError.
#include "module.hpp"

#include <apsp/distance.hpp>
#include <apsp/error.hpp>
#include <apsp/graph.hpp>
#include <apsp/measures.hpp>
#include <apsp/memory.hpp>
#include <apsp/row_sink.hpp>

#include "io/outputs.hpp"
#include "io/prepared_file.hpp"
#include "platform/kokkos_thread.hpp"
#include "run/prepared_graph.hpp"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace py = pybind11;

namespace apsp {
namespace python {
namespace {

using Exec = Kokkos::DefaultExecutionSpace;

// A prepared graph of some distance type, used on the Kokkos thread only.
class AnyGraph {
 public:
  virtual ~AnyGraph() = default;
  // The table of `sources` x `targets` (empty: every vertex) into `out`, row-major, `columns` a
  // row, of the graph's distance type.
  virtual void distances(const std::vector<std::int32_t>& sources,
                         const std::vector<std::int32_t>& targets, std::uint64_t host_bytes,
                         void* out, std::int64_t columns) = 0;
  // The same for the predecessors (int32, -1: none).
  virtual void predecessors(const std::vector<std::int32_t>& sources,
                            const std::vector<std::int32_t>& targets, std::uint64_t host_bytes,
                            int* out, std::int64_t columns) = 0;
  virtual GraphMeasures measures(const MeasureOptions& options) = 0;
  virtual void update_weights(const std::vector<double>& weights) = 0;
  virtual std::uint64_t device_bytes() const = 0;
  virtual std::string warning() const = 0;
  virtual PreparedFile file() const = 0;
};

template <class T>
class TypedGraph final : public AnyGraph {
 public:
  TypedGraph(Graph graph, const GraphRequest& request)
      : prepared_(Exec(), std::move(graph), request) {}
  TypedGraph(PreparedFile file, const GraphRequest& request)
      : prepared_(Exec(), std::move(file), request) {}
  void distances(const std::vector<std::int32_t>& sources, const std::vector<std::int32_t>& targets,
                 std::uint64_t host_bytes, void* out, std::int64_t columns) override {
    prepared_.distances(sources, targets, host_bytes, matrix_sink(static_cast<T*>(out), columns));
  }
  void predecessors(const std::vector<std::int32_t>& sources,
                    const std::vector<std::int32_t>& targets, std::uint64_t host_bytes, int* out,
                    std::int64_t columns) override {
    prepared_.predecessors(sources, targets, host_bytes, matrix_sink(out, columns));
  }
  GraphMeasures measures(const MeasureOptions& options) override {
    return prepared_.measures(options);
  }
  void update_weights(const std::vector<double>& weights) override {
    prepared_.update_weights(weights);
  }
  std::uint64_t device_bytes() const override { return prepared_.device_bytes(); }
  std::string warning() const override { return prepared_.warning(); }
  PreparedFile file() const override { return prepared_.file(); }

 private:
  PreparedGraph<Exec, T> prepared_;
};

class NativeGraph;
std::mutex registry_mutex;
std::set<NativeGraph*> open_graphs;  // every NativeGraph alive (close_graphs)

// A list of vertices from Python (None: every vertex), each in [0, n).
struct Vertices {
  bool every = true;
  std::vector<std::int32_t> list;
};
Vertices vertices_of(const py::object& given, std::int64_t n, const char* name) {
  Vertices v;
  if (given.is_none()) return v;
  const auto array = given.cast<HostArray<std::int64_t>>();
  if (array.ndim() != 1) throw py::value_error(std::string(name) + " must be one-dimensional");
  v.every = false;
  v.list.resize(std::size_t(array.size()));
  const std::int64_t* x = array.data();
  for (std::size_t i = 0; i < v.list.size(); ++i) {
    if (x[i] < 0 || x[i] >= n)
      throw py::value_error(std::string(name) + "[" + std::to_string(i) +
                            "] = " + std::to_string(x[i]) + " is not a vertex (0.." +
                            std::to_string(n - 1) + ")");
    v.list[i] = std::int32_t(x[i]);
  }
  return v;
}

class NativeGraph {
 public:
  NativeGraph(const HostArray<std::int64_t>& src, const HostArray<std::int64_t>& dst,
              const HostArray<double>& weight, std::int64_t n, const std::string& dtype,
              const std::string& algorithm) {
    Graph graph = edge_list_graph(src, dst, &weight, n);
    type_ = distance_type(dtype, n, weight_range(graph));
    vertices_ = n;
    edges_ = std::int64_t(graph.edges.size());
    start(std::move(graph), request_of(algorithm));
  }
  // The graph of the prepared file at `path` (apsp prepare's, or save's).
  explicit NativeGraph(const std::string& path) {
    PreparedFile file;
    {
      py::gil_scoped_release release;
      file = read_prepared(path);
    }
    type_ = file.type;
    vertices_ = file.graph.vertices;
    edges_ = std::int64_t(file.graph.edges.size());
    src_.reserve(file.graph.edges.size());
    dst_.reserve(file.graph.edges.size());
    for (const Edge& e : file.graph.edges) {
      src_.push_back(e.src);
      dst_.push_back(e.dst);
    }
    start(std::move(file), GraphRequest{});
  }
  NativeGraph(const NativeGraph&) = delete;
  NativeGraph& operator=(const NativeGraph&) = delete;
  ~NativeGraph() {
    {
      std::lock_guard<std::mutex> lock(registry_mutex);
      open_graphs.erase(this);
    }
    py::gil_scoped_release release;
    close_on_kokkos();
  }

  // The table d(s, t) for s in sources, t in targets (None: every vertex) as a 2-D array of the
  // graph's distance type.
  py::array distances(const py::object& sources, const py::object& targets) {
    return visit_distance_type(type_, [&](auto like) -> py::array {
      using T = decltype(like);
      return table<T>(
          sources, targets,
          [](AnyGraph& g, const Vertices& s, const Vertices& t, std::uint64_t bytes, T* out,
             std::int64_t columns) { g.distances(s.list, t.list, bytes, out, columns); });
    });
  }

  // The predecessors of the same table, as a 2-D int32 array (-1: none).
  py::array predecessors(const py::object& sources, const py::object& targets) {
    return table<int>(
        sources, targets,
        [](AnyGraph& g, const Vertices& s, const Vertices& t, std::uint64_t bytes, int* out,
           std::int64_t columns) { g.predecessors(s.list, t.list, bytes, out, columns); });
  }

  // (the measures as apsp.measures gives them, the distance type's name).
  py::tuple measures(const std::string& names, int bins) {
    const MeasuresRequest request = measures_request(MeasuresFormat::json, names, bins);
    GraphMeasures m;
    {
      py::gil_scoped_release release;
      kokkos_thread().run([&] { m = open().measures(MeasureOptions{request.histogram_bins()}); });
    }
    return py::make_tuple(measures_dict(m, request, type_), distance_type_name(type_));
  }

  void update_weights(const HostArray<double>& weight) {
    if (weight.ndim() != 1) throw py::value_error("weights must be one-dimensional");
    std::vector<double> w(weight.data(), weight.data() + weight.size());
    py::gil_scoped_release release;
    kokkos_thread().run([&] { open().update_weights(w); });
  }

  // The prepared file of the graph as it is now (its current weights and factor) at `path`,
  // written whole or not at all.
  void save(const std::string& path) {
    py::gil_scoped_release release;
    PreparedFile file;
    kokkos_thread().run([&] { file = open().file(); });
    check_disk_space(path, prepared_file_bytes(file));
    AtomicOutputFile out(path);
    write_prepared(out, file);
    out.commit();
  }
  // A loaded graph's edges (src, dst), in the file's order.
  py::tuple edge_arrays() const {
    HostArray<std::int64_t> src({std::int64_t(src_.size())}), dst({std::int64_t(dst_.size())});
    std::copy(src_.begin(), src_.end(), src.mutable_data());
    std::copy(dst_.begin(), dst_.end(), dst.mutable_data());
    return py::make_tuple(src, dst);
  }

  void close() {
    py::gil_scoped_release release;
    close_on_kokkos();
  }
  // Frees the device memory of every open graph (close_graphs).
  static void close_all() {
    py::gil_scoped_release release;  // before the lock: a destructor takes it holding the GIL
    std::lock_guard<std::mutex> lock(registry_mutex);
    try {
      kokkos_thread().run([] {
        for (NativeGraph* g : open_graphs)
          g->graph_.reset();
      });
    } catch (const std::exception&) {  // Kokkos already gone: nothing left to free
    }
  }

  bool closed() const {
    bool is = false;
    py::gil_scoped_release release;
    kokkos_thread().run([&] { is = !graph_; });
    return is;
  }
  std::string dtype() const { return distance_type_name(type_); }
  std::int64_t vertices() const { return vertices_; }
  std::int64_t edges() const { return edges_; }
  std::uint64_t nbytes() const { return device_bytes_; }

 private:
  // A sources x targets table of V (the lists as distances takes them): the host's and the
  // device's memory for it checked, then fill(graph, s, t, bytes, out, columns) on the Kokkos
  // thread.
  template <class V, class Fill>
  py::array table(const py::object& sources, const py::object& targets, const Fill& fill) {
    const Vertices s = vertices_of(sources, vertices_, "sources"),
                   t = vertices_of(targets, vertices_, "targets");
    const std::int64_t rows = s.every ? vertices_ : std::int64_t(s.list.size()),
                       columns = t.every ? vertices_ : std::int64_t(t.list.size());
    const std::uint64_t bytes = matrix_bytes(rows, columns, sizeof(V));
    {
      py::gil_scoped_release release;
      kokkos_thread().run([&] {
        open();
        visit_distance_type(
            type_, [&](auto like) { answer_limits<decltype(like)>(Exec(), vertices_, bytes); });
      });
    }
    HostArray<V> out({rows, columns});
    if (rows == 0 || columns == 0) return std::move(out);
    {
      py::gil_scoped_release release;
      kokkos_thread().run([&] { fill(open(), s, t, bytes, out.mutable_data(), columns); });
    }
    return std::move(out);
  }

  // The graph (a Graph or a PreparedFile) prepared on the Kokkos thread, then registered.
  template <class From>
  void start(From from, const GraphRequest& request) {
    std::string warning;
    {
      py::gil_scoped_release release;
      kokkos_thread().run([&] {
        visit_distance_type(type_, [&](auto t) {
          graph_ = std::make_unique<TypedGraph<decltype(t)>>(std::move(from), request);
        });
        warning = graph_->warning();
        device_bytes_ = graph_->device_bytes();
      });
    }
    warn_once(warning);
    std::lock_guard<std::mutex> lock(registry_mutex);
    open_graphs.insert(this);
  }
  AnyGraph& open() {
    if (!graph_) throw py::value_error("the Graph is closed");
    return *graph_;
  }
  // The graph freed on the Kokkos thread; where Kokkos is no more (after exit, or in a forked
  // child of a GPU process) its memory went with it, and the graph is let go.
  void close_on_kokkos() noexcept {
    try {
      kokkos_thread().run([this] { graph_.reset(); });
    } catch (const std::exception&) {
      (void)graph_.release();
    }
  }

  std::unique_ptr<AnyGraph> graph_;  // null once closed; touched on the Kokkos thread only
  DistanceType type_ = DistanceType::int32;
  std::int64_t vertices_ = 0, edges_ = 0;
  std::uint64_t device_bytes_ = 0;
  std::vector<std::int64_t> src_, dst_;  // a loaded graph's edges (edge_arrays)
};

}  // namespace

void close_graphs() {
  NativeGraph::close_all();
}

void register_graph(py::module_& m) {
  py::class_<NativeGraph>(m, "PreparedGraph")
      .def(py::init<const HostArray<std::int64_t>&, const HostArray<std::int64_t>&,
                    const HostArray<double>&, std::int64_t, const std::string&,
                    const std::string&>(),
           py::arg("src"), py::arg("dst"), py::arg("weight"), py::arg("num_vertices"),
           py::arg("dtype"), py::arg("algorithm"))
      .def(py::init<const std::string&>(), py::arg("path"))
      .def("save", &NativeGraph::save, py::arg("path"))
      .def("edge_arrays", &NativeGraph::edge_arrays)
      .def("distances", &NativeGraph::distances, py::arg("sources"), py::arg("targets"))
      .def("predecessors", &NativeGraph::predecessors, py::arg("sources"), py::arg("targets"))
      .def("measures", &NativeGraph::measures, py::arg("names"), py::arg("bins"))
      .def("update_weights", &NativeGraph::update_weights, py::arg("weight"))
      .def("close", &NativeGraph::close)
      .def_property_readonly("closed", &NativeGraph::closed)
      .def_property_readonly("dtype", &NativeGraph::dtype)
      .def_property_readonly("num_vertices", &NativeGraph::vertices)
      .def_property_readonly("num_edges", &NativeGraph::edges)
      .def_property_readonly("nbytes", &NativeGraph::nbytes);
}

}  // namespace python
}  // namespace apsp
