// The job behind `apsp IN OUT`, written once for one process and for P ranks (solve.hpp):
//
//   read       rank 0 checks the files and reads IN
//   plan       rank 0 decides the plan (plan.hpp) and every rank checks that it can run it; the
//              rows are partitioned (RowBlocks), each rank's edges sent to it, the resources
//              checked (memory on every device, disk on rank 0), the outputs created
//   upload     each rank's rows filled on its device, the kernels warmed up
//   compute    Floyd-Warshall on the row blocks (detail/row_block_rounds.hpp) or Dijkstra from
//              each rank's sources (sssp.hpp); the negative-cycle check
//   predecessors  each rank's shortest-path edges, shared, then its predecessor rows (paths.hpp)
//   write      each rank's rows of OUT and P (row_output.hpp)
//   commit     the rows on the disk on every rank, then rank 0 commits OUT, P and the stats
//
// Each stage is one lap of one stopwatch, so the stages add up to the total. With one rank
// every collective is trivial (ranks.hpp): P = 1 is this same path.
#include <apsp/backends.hpp>
#include <apsp/detail/json.hpp>
#include <apsp/detail/region.hpp>
#include <apsp/detail/row_block_rounds.hpp>
#include <apsp/floyd_warshall.hpp>
#include <apsp/formats.hpp>
#include <apsp/hw3_io.hpp>
#include <apsp/negative_cycles.hpp>
#include <apsp/outputs.hpp>
#include <apsp/paths.hpp>
#include <apsp/plan.hpp>
#include <apsp/ranks.hpp>
#include <apsp/solve.hpp>
#include <apsp/sssp.hpp>

#include "row_output.hpp"
#include "support.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace apsp {
namespace {

using detail::Clock;
using detail::RowOutput;
using detail::saturating_sum;
using detail::seconds_since;
using detail::size_text;

// Consecutive laps: each stage gets the time since the previous lap.
class Stopwatch {
 public:
  void lap(double& stage) { stage += advance(); }
  // A lap split among stages: parts measured inside it to theirs, the rest to `rest`.
  void lap(double& rest, std::initializer_list<std::pair<double*, double>> parts) {
    double all = advance();
    for (const auto& [stage, seconds] : parts) {
      *stage += seconds;
      all -= seconds;
    }
    rest += all;
  }
  double total() const { return std::chrono::duration<double>(last_ - start_).count(); }

 private:
  double advance() {
    const auto now = Clock::now();
    const double seconds = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    return seconds;
  }
  Clock::time_point start_ = Clock::now(), last_ = start_;
};

// Ranks that share a device share its memory: all ranks of a node on a host backend, the ranks
// of a node given the same GPU otherwise.
template <class ExecSpace>
int device_key(const ExecSpace& exec) {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same<ExecSpace, Kokkos::Cuda>::value) return exec.cuda_device();
#endif
#if defined(KOKKOS_ENABLE_HIP)
  if constexpr (std::is_same<ExecSpace, detail::HipExecutionSpace>::value) return exec.hip_device();
#endif
  (void)exec;
  return 0;
}

// APSP_FAIL_RANK=r and APSP_FAIL_ROUND=k: rank r fails at round k (tests of failure handling).
std::function<void(int)> injected_failure(int rank) {
  const char* fail_rank = std::getenv("APSP_FAIL_RANK");
  const char* fail_round = std::getenv("APSP_FAIL_ROUND");
  if (!fail_rank || !fail_round || std::atoi(fail_rank) != rank) return {};
  const int round = std::atoi(fail_round);
  return [round](int r) {
    if (r == round)
      throw Error("injected failure at round " + std::to_string(r) +
                  " (APSP_FAIL_RANK, APSP_FAIL_ROUND)");
  };
}

// Predecessor rows computed at once: enough for the device, within `memory` bytes.
template <class T, class ExecSpace>
std::int64_t predecessor_batch(const ExecSpace& exec, std::int64_t rows, std::int64_t n,
                               std::uint64_t memory) {
  const std::int64_t wanted =
      detail::host_memory<ExecSpace> ? 64 * std::int64_t(exec.concurrency()) : 32768;
  std::int64_t batch = std::max<std::int64_t>(1, std::min(rows, wanted));
  while (batch > 1 && PredecessorRows<ExecSpace, T>::bytes(batch, n) > memory)
    batch /= 2;
  return batch;
}

// The predecessor rows' kernels once, on a graph of one edge, as detail::warm_up does for the
// solver's (its distances are final as filled).
template <class T, class ExecSpace>
void warm_up_predecessors(const ExecSpace& exec, Tightness<T> rule) {
  DistanceMatrix<ExecSpace, T> dist("apsp::warm_up", 2, 2);
  const DeviceEdges<ExecSpace> edges = upload_edges(exec, {Edge{0, 1, 0}});
  fill_distance_matrix(exec, dist, edges);
  PredecessorRows<ExecSpace, T>(exec, dist, 0, 2, select_path_edges(exec, dist, 2, edges, rule), 1,
                                rule)
      .compute(0, 1);
}

template <class ExecSpace>
class Pipeline {
 public:
  Pipeline(const ExecSpace& exec, Ranks& ranks, const SolveConfig& config, const Progress& progress)
      : exec_(exec), ranks_(ranks), config_(config), progress_(progress) {
    stats_ = detail::stats_of(exec);
    stats_.ranks = ranks.size();
  }

  SolveStats run() {
    read();
    watch_.lap(seconds().read);
    plan();
    partition();
    check_resources();
    create_outputs();
    watch_.lap(seconds().plan);
    if (plan_.algorithm == Algorithm::sssp)
      solve_sssp();
    else
      visit_distance_type(plan_.distance, [&](auto t) { solve_floyd_warshall<decltype(t)>(); });
    commit();
    return stats_;
  }

 private:
  StageSeconds& seconds() { return stats_.seconds; }

  // --- read: rank 0 checks that no two files of the run are one, opens the stats file (a name
  // that cannot be written fails before any work) and reads the input.
  void read() {
    collectively(
        ranks_,
        [&] {
          if (!ranks_.root()) return;
          check_distinct_files(files_of(config_));
          if (!config_.stats.empty())
            stats_out_ = std::make_unique<AtomicOutputFile>(config_.stats);
          graph_ = read_graph(config_.input, config_.format, config_.allow_negative);
        },
        false);
  }

  // --- plan: decided by rank 0 from the request and the data, the same on every rank.
  void plan() {
    std::int64_t facts[10] = {};
    double max_abs = 0;
    std::string shape_source;
    collectively(
        ranks_,
        [&] {
          if (!ranks_.root()) return;
          Plan p;
          p.vertices = graph_.vertices;
          const WeightRange weights = weight_range(graph_.edges);
          p.distance = choose_distance_type(config_.dtype, p.vertices, weights);
          p.negative_weights = weights.negative();
          max_abs = weights.largest_magnitude();
          facts[8] = weights.integers;
          facts[9] = int(p.distance);
          p.predecessors = !config_.predecessors.empty();
          if (p.predecessors && config_.algorithm == Algorithm::sssp)
            throw Error(
                "--predecessors comes from Floyd-Warshall (sssp does not write them): use "
                "--algorithm fw");
          // Checked whichever algorithm runs: a --tile or --shape that this device cannot run
          // is an error, not silently ignored when auto picks Dijkstra.
          detail::choose_planned_shape(exec_, config_.shape, p);
          const Algorithm asked = p.predecessors ? Algorithm::floyd_warshall : config_.algorithm;
          p.algorithm = choose_algorithm(asked, stats_.backend, detail::host_memory<ExecSpace>,
                                         graph_, p.distance);
          output_bytes_ = output_bytes(config_.output_format, p.vertices, p.distance);
          facts[0] = p.vertices;
          facts[1] = std::int64_t(graph_.edges.size());
          facts[2] = int(p.algorithm);
          facts[3] = p.shape.index;
          facts[4] = p.shape.tile;
          facts[5] = p.negative_weights;
          facts[6] = p.predecessors;
          facts[7] = std::int64_t(output_bytes_);
          shape_source = p.shape_source;
        },
        false);
    ranks_.broadcast(facts, sizeof facts, 0);
    plan_.vertices = facts[0];
    stats_.edges = facts[1];
    plan_.algorithm = Algorithm(facts[2]);
    plan_.negative_weights = facts[5] != 0;
    plan_.predecessors = facts[6] != 0;
    output_bytes_ = std::uint64_t(facts[7]);
    plan_.distance = DistanceType(facts[9]);
    ranks_.broadcast(&max_abs, sizeof max_abs, 0);
    integer_weights_ = facts[8] != 0;
    max_abs_ = max_abs;
    plan_.shape_source = broadcast_string(ranks_, shape_source, 0);
    // Every rank runs rank 0's shape.
    collectively(ranks_, [&] {
      const auto shapes = available_shapes(exec_, plan_.distance);
      const auto found = std::find_if(shapes.begin(), shapes.end(), [&](const ShapeChoice& s) {
        return s.index == facts[3] && s.tile == facts[4];
      });
      if (found == shapes.end())
        throw Error("cannot run the " + std::to_string(facts[4]) + "x" + std::to_string(facts[4]) +
                    " tiles that rank 0 chose on " + stats_.device);
      plan_.shape = *found;
    });
    const bool fw = plan_.algorithm == Algorithm::floyd_warshall;
    plan_.padded = fw ? padded_size(plan_.vertices, plan_.shape) : plan_.vertices;
    stats_.vertices = plan_.vertices;
    stats_.algorithm = algorithm_name(plan_.algorithm);
    stats_.dtype = distance_type_name(plan_.distance);
    stats_.tile = fw ? plan_.shape.tile : 0;
    stats_.shape = fw ? plan_.shape.name : "Dijkstra per source, bucket queue";
    stats_.shape_source = fw ? plan_.shape_source : "";
    stats_.padded = plan_.padded;
  }

  // --- partition: contiguous blocks of tile rows (of rows for sssp); Floyd-Warshall ranks get
  // the edges that start in their rows, sssp ranks every edge.
  void partition() {
    const bool fw = plan_.algorithm == Algorithm::floyd_warshall;
    const int unit = fw ? plan_.shape.tile : 1;
    blocks_ = RowBlocks{int(plan_.padded / unit), ranks_.size()};
    first_row_ = std::int64_t(blocks_.first(ranks_.rank())) * unit;
    rows_ = std::int64_t(blocks_.count(ranks_.rank())) * unit;
    real_rows_ =
        std::max<std::int64_t>(0, std::min(plan_.vertices, first_row_ + rows_) - first_row_);
    if (ranks_.size() == 1) {
      edges_ = std::move(graph_.edges);
      return;
    }
    if (!fw) {
      std::uint64_t count = graph_.edges.size();
      ranks_.broadcast(&count, sizeof count, 0);
      edges_ = std::move(graph_.edges);
      edges_.resize(count);
      ranks_.broadcast(edges_.data(), count * sizeof(Edge), 0);
      return;
    }
    std::vector<std::uint64_t> counts(std::size_t(ranks_.size()), 0);
    std::vector<Edge> sorted;
    if (ranks_.root()) {
      for (const Edge& e : graph_.edges)
        ++counts[std::size_t(blocks_.owner(e.src / unit))];
      std::vector<std::uint64_t> next(counts.size(), 0);
      for (std::size_t p = 1; p < counts.size(); ++p)
        next[p] = next[p - 1] + counts[p - 1];
      sorted.resize(graph_.edges.size());
      for (const Edge& e : graph_.edges)
        sorted[next[std::size_t(blocks_.owner(e.src / unit))]++] = e;
      std::vector<Edge>().swap(graph_.edges);
    }
    const std::vector<char> mine = ranks_.scatter(sorted.data(), counts, sizeof(Edge), 0);
    edges_.resize(mine.size() / sizeof(Edge));
    std::copy(mine.begin(), mine.end(), reinterpret_cast<char*>(edges_.data()));
  }

  // --- resources, before any work: memory on every device (the ranks sharing a device
  // together), disk space on rank 0.
  void check_resources() {
    const bool fw = plan_.algorithm == Algorithm::floyd_warshall;
    const std::int64_t n = plan_.padded;
    std::string what;
    std::uint64_t need = 0;
    const std::uint64_t element = value_bytes(plan_.distance);
    if (fw) {
      const std::uint64_t pivot =
          rows_ > 0 && blocks_.holders() > 1 ? matrix_bytes(plan_.shape.tile, n, element) : 0;
      const std::uint64_t edges = std::uint64_t(edges_.size()) * sizeof(Edge);
      // With paths: the edges kept until their tight ones are selected, those (at most as
      // many), every rank's shortest-path edges (at most E) and the predecessor rows' batch.
      const std::uint64_t paths =
          plan_.predecessors
              ? saturating_sum(
                    {edges, visit_distance_type(plan_.distance,
                                                [&](auto t) {
                                                  return PathEdges<ExecSpace, decltype(t)>::bytes(
                                                      plan_.vertices, stats_.edges);
                                                })})
              : 0;
      need = saturating_sum({matrix_bytes(rows_, n, element), pivot, edges, paths});
      what = std::to_string(rows_) + " rows of " + std::to_string(n) + " " +
             distance_type_name(plan_.distance) + " distances" +
             (pivot > 0 ? " and the pivot rows" : "") +
             (plan_.predecessors ? ", the shortest-path edges and the predecessor rows' work space"
                                 : "");
    } else {
#if defined(APSP_HAVE_KOKKOS_KERNELS)
      // Host memory: make_csr_graph's counts and sorted arcs, the CSR graph, a block of rows and
      // each thread's queue.
      const std::uint64_t e = edges_.size();
      const std::int64_t v = plan_.vertices;
      need = saturating_sum({3 * sizeof(CsrGraph::size_type) * std::uint64_t(v + 1) + 16 * e,
                             matrix_bytes(sssp_block_rows(exec_, v), v),
                             matrix_bytes(exec_.concurrency(), 2 * v + 1024)});
      what = "host memory for --algorithm sssp (E = " + std::to_string(e) + ")";
#endif
    }
    std::vector<std::uint64_t> sharing;
    {
      const std::unique_ptr<Ranks> device = ranks_.sharing_device(device_key(exec_));
      std::vector<char> all = device->gather(&need, 1, sizeof need);
      sharing.resize(all.size() / sizeof need);
      std::copy(all.begin(), all.end(), reinterpret_cast<char*>(sharing.data()));
    }
    const std::uint64_t device_need = saturating_sum(sharing);
    collectively(ranks_, [&] {
      const std::string problem = "V = " + std::to_string(plan_.vertices) + " needs ";
      const std::string remedy =
          !fw ? "use a machine with more memory"
          : plan_.predecessors && ranks_.size() == 1
              ? "run on a device with more memory, or over several with mpirun -np K"
          : ranks_.size() > 1 ? "run on more ranks"
                              : "run on a device with more memory, or over several with "
                                "mpirun -np K (an MPI build)";
      if (config_.max_memory > 0 && need > config_.max_memory)
        throw Error(problem + size_text(need) + (fw ? " of device memory" : "") +
                    " on this rank (" + what + "), but --max-memory allows " +
                    size_text(config_.max_memory) + ": " + remedy);
      const std::uint64_t usable = available_memory(exec_);
      if (device_need > usable)
        throw Error(problem + size_text(device_need) + " on " + stats_.device + " (" + what +
                    (sharing.size() > 1
                         ? " on each of the " + std::to_string(sharing.size()) + " ranks sharing it"
                         : "") +
                    "), but only " + size_text(usable) + " can be used: " + remedy);
      plan_.memory = detail::usable_memory(exec_, config_.max_memory) / sharing.size();
      if (plan_.predecessors)
        batch_ = visit_distance_type(plan_.distance, [&](auto t) {
          return predecessor_batch<decltype(t)>(exec_, real_rows_, n,
                                                plan_.memory > need ? plan_.memory - need : 0);
        });
    });
  }

  // Rank 0 creates the outputs (disk space first); every rank opens its way of writing rows.
  void create_outputs() {
    AtomicOutputFile* out = nullptr;
    AtomicOutputFile* pred = nullptr;
    collectively(
        ranks_,
        [&] {
          if (!ranks_.root()) return;
          if (plan_.predecessors)
            check_disk_space(
                {{config_.output, output_bytes_}, {config_.predecessors, output_bytes_}});
          else
            check_disk_space(config_.output, output_bytes_);
          out = &outputs_.add(config_.output);
          if (plan_.predecessors) pred = &outputs_.add(config_.predecessors);
        },
        false);
    out_ = std::make_unique<RowOutput>(ranks_, out, config_.output, config_.output_format,
                                       plan_.vertices, plan_.distance);
    if (plan_.predecessors)
      pred_out_ =
          std::make_unique<RowOutput>(ranks_, pred, config_.predecessors, config_.output_format,
                                      plan_.vertices, DistanceType::int32);
  }

  // Writes rows [0, count) of `rows` (global rows first_row_ ...) through `output`; the lap is
  // split into download and write.
  template <class T>
  void write_rows(RowOutput& output, const DistanceMatrix<ExecSpace, T>& rows, std::int64_t first,
                  std::int64_t count) {
    double download = 0, write = 0;
    const double shipped = output.write([&](const RowOutput::Sink& sink) {
      detail::download_rows(
          exec_, rows, count, [&](std::int64_t i, const T* row) { sink(first + i, row); }, download,
          write);
    });
    watch_.lap(seconds().download, {{&seconds().write, shipped}});
  }

  // float32 sums can make a negative cycle or hide one (negative_cycles.hpp): rank 0 checks the
  // weights in double, reading the input again (the edges are gone by now), and every rank
  // throws the verdict. `found`: the solver's cycle vertex, or -1.
  template <class T>
  void recheck_negative_cycle(std::int64_t found) {
    std::int64_t verdict[3] = {found, 0, 0};  // CycleVerdict's fields
    collectively(ranks_, [&] {
      if (!ranks_.root()) return;
      const Graph graph = read_graph(config_.input, config_.format, config_.allow_negative);
      const CycleVerdict v = negative_cycle_verdict<T>(graph, weight_range(graph.edges), found);
      verdict[0] = v.vertex;
      verdict[1] = v.rounding_suspected;
      verdict[2] = v.made;
    });
    ranks_.broadcast(verdict, sizeof verdict, 0);
    throw_negative_cycle(CycleVerdict{verdict[0], verdict[1] != 0, verdict[2] != 0},
                         plan_.distance);
  }

  template <class T>
  void solve_floyd_warshall() {
    detail::ScopedRegion region("apsp::solve::floyd_warshall");
    const std::int64_t n = plan_.padded;
    const Tightness<T> rule = tightness_for<T>(plan_.vertices, integer_weights_, max_abs_);
    DistanceMatrix<ExecSpace, T> local;
    DeviceEdges<ExecSpace> device_edges;
    // --- upload
    collectively(ranks_, [&] {
      local = DistanceMatrix<ExecSpace, T>(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::dist_rows"), rows_, n);
      device_edges = upload_edges(exec_, edges_);
      std::vector<Edge>().swap(edges_);
      fill_distance_rows(exec_, local, first_row_, device_edges);
      if (!plan_.predecessors) device_edges = {};
      detail::warm_up<ExecSpace, T>(exec_, plan_);
      if (plan_.predecessors) warm_up_predecessors(exec_, rule);
    });
    watch_.lap(seconds().upload);

    // --- compute
    RoundHooks hooks;
    if (progress_ && ranks_.root())
      hooks.progress = [&](int done, int total) { progress_(done, total, plan_.vertices); };
    hooks.before_round = injected_failure(ranks_.rank());
    const ExchangeStats exchange = detail::floyd_warshall_rows(ranks_, exec_, local, plan_, hooks);
    seconds().communication = exchange.seconds;
    seconds().communication_bytes = exchange.received_bytes;
    if (plan_.negative_weights) {
      std::int64_t smallest = plan_.vertices;
      collectively(ranks_, [&] {
        const std::int64_t v = negative_cycle_vertex(exec_, local, first_row_, plan_.vertices);
        if (v >= 0) smallest = v;
      });
      ranks_.min(&smallest, 1);
      if (std::is_same<T, float>::value &&
          rounding_slack<T>(plan_.vertices, integer_weights_, max_abs_) > 0)
        recheck_negative_cycle<T>(smallest < plan_.vertices ? smallest : -1);
      if (smallest < plan_.vertices) throw negative_cycle_error(smallest);
    }
    watch_.lap(seconds().compute);

    // --- write the distances
    write_rows(*out_, local, first_row_, real_rows_);
    if (!plan_.predecessors) return;

    // --- predecessors: this rank's shortest-path edges, everyone's gathered, then the rows.
    std::vector<Edge> tight;
    collectively(ranks_, [&] {
      const DeviceEdges<ExecSpace> mine = tight_edges(exec_, local, first_row_, device_edges, rule);
      device_edges = {};
      tight.resize(mine.size());
      Kokkos::deep_copy(
          Kokkos::View<Edge*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
              tight.data(), tight.size()),
          mine);
    });
    const std::vector<char> all = ranks_.gather(tight.data(), tight.size(), sizeof(Edge));
    std::vector<Edge>().swap(tight);
    std::unique_ptr<PredecessorRows<ExecSpace, T>> rows;
    collectively(ranks_, [&] {
      std::vector<Edge> every(all.size() / sizeof(Edge));
      std::copy(all.begin(), all.end(), reinterpret_cast<char*>(every.data()));
      const PathEdges<ExecSpace, T> edges =
          path_edges<T>(exec_, plan_.vertices, upload_edges(exec_, every));
      rows = std::make_unique<PredecessorRows<ExecSpace, T>>(exec_, local, first_row_,
                                                             plan_.vertices, edges, batch_, rule);
    });
    watch_.lap(seconds().predecessors);
    double download = 0, write = 0, search = 0;
    const double shipped = pred_out_->write([&](const RowOutput::Sink& sink) {
      for (std::int64_t first = first_row_; first < first_row_ + real_rows_; first += batch_) {
        const std::int64_t count = std::min(batch_, first_row_ + real_rows_ - first);
        const auto start = Clock::now();
        const auto& pred = rows->compute(first, count);
        search += seconds_since(start);
        detail::download_rows(
            exec_, pred, count, [&](std::int64_t i, const int* row) { sink(first + i, row); },
            download, write);
      }
    });
    watch_.lap(seconds().download,
               {{&seconds().write, shipped}, {&seconds().predecessors, search}});
  }

  void solve_sssp() {
#if defined(APSP_HAVE_KOKKOS_KERNELS)
    if constexpr (detail::host_memory<ExecSpace>) {
      detail::ScopedRegion region("apsp::solve::sssp");
      const std::int64_t v = plan_.vertices;
      CsrGraph csr;
      DistanceRows block;
      const std::int64_t rows = sssp_block_rows(exec_, v);
      collectively(ranks_, [&] {
        Graph graph{std::int32_t(v), std::move(edges_)};
        csr = make_csr_graph(graph);
        block = DistanceRows(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::sssp::rows"),
                             rows, v);
      });
      watch_.lap(seconds().upload);
      // Compute and write alternate block by block: one lap, split.
      const double shipped = out_->write([&](const RowOutput::Sink& sink) {
        for (std::int64_t first = first_row_; first < first_row_ + real_rows_; first += rows) {
          const std::int64_t count = std::min(rows, first_row_ + real_rows_ - first);
          const auto part =
              Kokkos::subview(block, std::make_pair(std::int64_t(0), count), Kokkos::ALL);
          sssp_rows(exec_, csr, first, part);
          for (std::int64_t i = 0; i < count; ++i)
            sink(first + i, &part(i, 0));
        }
      });
      watch_.lap(seconds().compute, {{&seconds().write, shipped}});
      return;
    }
#endif
    // The plan never picks sssp where it cannot run (choose_algorithm throws).
    throw Error("sssp cannot run on " + stats_.backend);
  }

  // --- commit: every rank's rows on the disk; then, once all have, rank 0 writes the record of
  // the run and commits every output together.
  void commit() {
    out_->close();
    if (pred_out_) pred_out_->close();
    watch_.lap(seconds().commit);
    seconds().total = watch_.total();
    gather_stats();
    collectively(
        ranks_,
        [&] {
          if (!ranks_.root()) return;
          if (stats_out_) {
            const std::string json = stats_.to_json();
            stats_out_->write(json.data(), json.size());
            outputs_.add(std::move(stats_out_));
          }
          outputs_.commit();
        },
        false);
  }

  // Every rank's stages on every rank (rank 0 reports them); communication bytes summed.
  void gather_stats() {
    const StageSeconds& s = seconds();
    const double mine[11] = {s.read,
                             s.plan,
                             s.upload,
                             s.compute,
                             s.predecessors,
                             s.download,
                             s.write,
                             s.commit,
                             s.total,
                             s.communication,
                             double(s.communication_bytes)};
    const std::vector<char> all = ranks_.gather(mine, 11, sizeof(double));
    std::vector<double> values(all.size() / sizeof(double));
    std::copy(all.begin(), all.end(), reinterpret_cast<char*>(values.data()));
    stats_.per_rank.clear();
    std::uint64_t bytes = 0;
    for (std::size_t p = 0; p < values.size() / 11; ++p) {
      const double* v = &values[p * 11];
      StageSeconds r;
      r.read = v[0], r.plan = v[1], r.upload = v[2], r.compute = v[3], r.predecessors = v[4];
      r.download = v[5], r.write = v[6], r.commit = v[7], r.total = v[8], r.communication = v[9];
      r.communication_bytes = std::uint64_t(v[10]);
      bytes += r.communication_bytes;
      stats_.per_rank.push_back(r);
    }
    seconds().communication_bytes = bytes;
  }

  ExecSpace exec_;
  Ranks& ranks_;
  const SolveConfig& config_;
  const Progress& progress_;
  SolveStats stats_;
  Stopwatch watch_;
  Graph graph_;  // rank 0's, until partitioned
  Plan plan_;
  std::uint64_t output_bytes_ = 0;
  RowBlocks blocks_;
  std::int64_t first_row_ = 0, rows_ = 0, real_rows_ = 0;
  std::vector<Edge> edges_;      // this rank's share
  std::int64_t batch_ = 1;       // predecessor rows at a time
  bool integer_weights_ = true;  // every weight a whole number (the predecessors' Tightness)
  double max_abs_ = 0;           // the heaviest |weight|
  OutputTransaction outputs_;    // rank 0's: OUT, P, then the stats file
  std::unique_ptr<AtomicOutputFile> stats_out_;
  std::unique_ptr<RowOutput> out_, pred_out_;
};

}  // namespace

SolveStats solve(const SolveConfig& config, Ranks& ranks, const Progress& progress) {
  detail::ScopedRegion region("apsp::solve");
  // Every rank knows the same backends: an unknown name fails on all of them alike.
  collectively(
      ranks, [&] { with_backend(config.backend, [](auto) {}); }, false);
  SolveStats stats;
  with_backend(config.backend, [&](auto exec) {
    stats = Pipeline<decltype(exec)>(exec, ranks, config, progress).run();
  });
  return stats;
}

SolveStats solve(const SolveConfig& config) {
  OneRank one;
  return solve(config, one);
}

std::vector<NamedFile> files_of(const SolveConfig& config) {
  std::vector<NamedFile> files = {{"IN", config.input}, {"OUT", config.output}};
  if (!config.predecessors.empty()) files.push_back({"--predecessors", config.predecessors});
  if (!config.stats.empty()) files.push_back({"--stats", config.stats});
  return files;
}

}  // namespace apsp
