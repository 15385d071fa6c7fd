// The job behind `apsp IN OUT`, written once for one process and for P ranks (pipeline.hpp):
//
//   read       rank 0 checks the files and reads IN
//   plan       rank 0 decides the plan (plan.hpp) and every rank checks that it can run it; the
//              rows are partitioned (RowBlocks), each rank's edges sent to it, the resources
//              checked (memory on every device, disk on rank 0), the outputs created
//   upload     each rank's rows filled on its device, the kernels warmed up
//   compute    Floyd-Warshall on the row blocks and the negative-cycle check (apsp::Solver,
//              solver.hpp), or Dijkstra from each rank's sources (sssp.hpp), or (one process)
//              supernodal Floyd-Warshall's factor, then its rows by blocks, written as they come
//              (supernodal.hpp; its ordering and symbolic phase are part of the plan)
//   predecessors  each rank's shortest-path edges, shared, then its predecessor rows (the Solver)
//   write      each rank's rows of OUT and P (row_output.hpp)
//   commit     the rows on the disk on every rank, then rank 0 commits OUT, P and the stats
//
// Each stage is one lap of one stopwatch, so the stages add up to the total. With one rank
// every collective is trivial (ranks.hpp): P = 1 is this same path.
#include <apsp/detail/region.hpp>
#include <apsp/detail/row_block_rounds.hpp>
#include <apsp/floyd_warshall.hpp>
#include <apsp/negative_cycles.hpp>
#include <apsp/paths.hpp>
#include <apsp/plan.hpp>
#include <apsp/ranks.hpp>
#include <apsp/solver.hpp>
#include <apsp/supernodal.hpp>

#include "io/formats.hpp"
#include "io/hw3_io.hpp"
#include "io/outputs.hpp"
#include "io/row_output.hpp"
#include "job/device_choices.hpp"
#include "job/pipeline.hpp"
#include "job/sssp.hpp"
#include "job/supernodal_choice.hpp"
#include "platform/backends.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace apsp {
namespace {

using detail::Clock;
using detail::RowOutput;
using detail::saturating_sum;
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

// Test builds only (APSP_ENABLE_TEST_HOOKS): APSP_FAIL_RANK=r and APSP_FAIL_ROUND=k make rank r
// fail at round k (tests of failure handling). A release build reads no such variable.
std::function<void(int)> injected_failure(int rank) {
#if defined(APSP_TEST_HOOKS)
  const char* fail_rank = std::getenv("APSP_FAIL_RANK");
  const char* fail_round = std::getenv("APSP_FAIL_ROUND");
  if (!fail_rank || !fail_round || std::atoi(fail_rank) != rank) return {};
  const int round = std::atoi(fail_round);
  return [round](int r) {
    if (r == round)
      throw Error("injected failure at round " + std::to_string(r) +
                  " (APSP_FAIL_RANK, APSP_FAIL_ROUND)");
  };
#else
  (void)rank;
  return {};
#endif
}

// What rank 0 decides and every rank runs: plain data, broadcast as bytes.
struct PlanFacts {
  std::int64_t vertices = 0;
  std::int64_t edges = 0;
  std::uint64_t output_bytes = 0;  // the least OUT can take (least_output_bytes)
  double max_abs = 0;              // the heaviest |weight|
  std::int32_t algorithm = 0;
  std::int32_t shape_index = -1;
  std::int32_t tile = 0;
  std::int32_t distance = 0;
  std::int32_t negative_weights = 0;
  std::int32_t predecessors = 0;
  std::int32_t integer_weights = 1;   // every weight a whole number (the predecessors' Tightness)
  std::int32_t cycles_may_round = 0;  // float32 rounding can make or hide negative cycles
  char shape_source[8] = {};          // Plan::shape_source
};

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
    if (plan_.algorithm == Algorithm::sssp) {
      partition_sssp();
      check_sssp_memory();
      create_outputs();
      watch_.lap(seconds().plan);
      solve_sssp();
    } else if (plan_.algorithm == Algorithm::supernodal) {
      partition_supernodal();
      visit_distance_type(plan_.distance, [&](auto t) {
        using T = decltype(t);
        check_supernodal_memory<T>();
        create_outputs();
        watch_.lap(seconds().plan);
        solve_supernodal<T>();
      });
    } else {
      visit_distance_type(plan_.distance, [&](auto t) {
        Solver<ExecSpace, decltype(t)> solver(
            exec_, ranks_, plan_, WeightFacts{facts_.integer_weights != 0, facts_.max_abs});
        partition(solver);
        check_memory(solver);
        create_outputs();
        watch_.lap(seconds().plan);
        solve(solver);
      });
    }
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
    PlanFacts& f = facts_;
    collectively(
        ranks_,
        [&] {
          if (!ranks_.root()) return;
          Plan p;
          p.vertices = graph_.vertices;
          const WeightRange weights = weight_range(graph_);
          p.distance = choose_distance_type(config_.dtype, p.vertices, weights);
          p.negative_weights = weights.negative();
          p.predecessors = !config_.predecessors.empty();
          if (p.predecessors && config_.algorithm == Algorithm::sssp)
            throw Error(
                "--predecessors comes from Floyd-Warshall (sssp does not write them): use "
                "--algorithm fw or supernodal");
          // Checked whichever algorithm runs: a --tile or --shape that this device cannot run
          // is an error, not silently ignored when auto picks Dijkstra.
          const std::string warning = detail::choose_planned_shape(exec_, config_.shape, p);
          if (!warning.empty()) stats_.warnings.push_back(warning);
          // Dijkstra writes no predecessors: auto then chooses between the Floyd-Warshalls.
          const Algorithm asked = p.predecessors && config_.algorithm == Algorithm::automatic
                                      ? Algorithm::floyd_warshall
                                      : config_.algorithm;
          const bool supernodal = asked == Algorithm::supernodal;
          p.algorithm =
              choose_algorithm(supernodal ? Algorithm::floyd_warshall : asked, stats_.backend,
                               detail::host_memory<ExecSpace>, graph_, p.distance);
          p.algorithm = plan_supernodal(p, supernodal);
          f.vertices = p.vertices;
          f.edges = std::int64_t(graph_.edges.size());
          f.output_bytes = least_output_bytes(config_.output_format, p.vertices, p.distance);
          f.max_abs = weights.largest_magnitude();
          f.algorithm = int(p.algorithm);
          f.shape_index = p.shape.index;
          f.tile = p.shape.tile;
          f.distance = int(p.distance);
          f.negative_weights = p.negative_weights;
          f.predecessors = p.predecessors;
          f.integer_weights = weights.integers;
          f.cycles_may_round =
              p.distance == DistanceType::float32 && cycles_may_round<float>(weights, p.vertices);
          if (f.cycles_may_round) cycle_graph_ = graph_;  // for cycle_verdict
          p.shape_source.copy(f.shape_source, sizeof f.shape_source - 1);
        },
        false);
    ranks_.broadcast(&f, sizeof f, 0);
    plan_.vertices = f.vertices;
    stats_.edges = f.edges;
    plan_.algorithm = Algorithm(f.algorithm);
    plan_.negative_weights = f.negative_weights != 0;
    plan_.predecessors = f.predecessors != 0;
    plan_.distance = DistanceType(f.distance);
    plan_.shape_source = f.shape_source;
    // Every rank runs rank 0's shape.
    collectively(ranks_, [&] {
      const auto shapes = available_shapes(exec_, plan_.distance);
      const auto found = std::find_if(shapes.begin(), shapes.end(), [&](const ShapeChoice& s) {
        return s.index == f.shape_index && s.tile == f.tile;
      });
      if (found == shapes.end())
        throw UnavailableError("cannot run the " + std::to_string(f.tile) + "x" +
                               std::to_string(f.tile) + " tiles that rank 0 chose on " +
                               stats_.device);
      plan_.shape = *found;
    });
    const bool fw = plan_.algorithm == Algorithm::floyd_warshall;
    plan_.padded = fw ? padded_size(plan_.vertices, plan_.shape) : plan_.vertices;
    stats_.vertices = plan_.vertices;
    stats_.algorithm = algorithm_name(plan_.algorithm);
    stats_.dtype = distance_type_name(plan_.distance);
    stats_.tile = fw ? plan_.shape.tile : plan_.algorithm == Algorithm::supernodal ? sn_tile_ : 0;
    stats_.shape = fw ? plan_.shape.name
                   : plan_.algorithm == Algorithm::supernodal
                       ? "supernodal: fronts closed in tiles of " + std::to_string(sn_tile_) +
                             ", METIS nested dissection"
                       : "Dijkstra per source, bucket queue";
    stats_.shape_source = fw ? plan_.shape_source : "";
    stats_.padded = plan_.padded;
  }

  // --- supernodal Floyd-Warshall (rank 0, in plan): asked for, or where auto finds it worth it
  // (supernodal_choice.hpp). With P ranks every rank makes the factor and its share of the rows
  // (partition_supernodal).
  Algorithm plan_supernodal(const Plan& p, bool asked) {
    SupernodalStats& sn = stats_.supernodal;
    SupernodalRequest request = device_request(exec_, p.distance, p.vertices, p.shape);
    request.asked = asked;
    request.automatic = config_.algorithm == Algorithm::automatic;
    request.chosen = p.algorithm;
    request.predecessors = p.predecessors;
    SupernodalChoice choice = choose_supernodal(graph_.vertices, graph_.edges, request);
    sn = choice.stats;
    if (choice.algorithm == Algorithm::supernodal) {
      sn_plan_ = std::move(choice.plan);
      sn_tile_ = sn_plan_.tile;
    }
    return choice.algorithm;
  }

  // The factor, its fronts at their peak (with predecessors the edges too) and a block of rows,
  // on the device; the block as large as leaves room, up to supernodal_block_bytes.
  template <class T>
  void check_supernodal_memory() {
    using Sn = SupernodalSolver<ExecSpace, T>;
    const SupernodalPrediction& w = sn_plan_.prediction;
    const std::int64_t v = plan_.vertices, e = stats_.edges;
    const bool paths = plan_.predecessors;
    const std::uint64_t least = Sn::least_bytes(w, v, e, paths);
    const std::uint64_t budget =
        check_device_memory(least,
                            std::string("the supernodal factor") + (paths ? ", the edges" : "") +
                                " and one row of the result" + (paths ? " with its search" : ""),
                            false);
    sn_block_ = supernodal_block_rows<ExecSpace, T>(sn_plan_, e, paths, budget);
    stats_.supernodal.factor_bytes = w.factor_values * sizeof(T);
  }

  template <class T>
  void solve_supernodal() {
    detail::ScopedRegion region("apsp::solve::supernodal");
    SupernodalStats& sn = stats_.supernodal;
    const std::int64_t v = plan_.vertices;
    SupernodalSolver<ExecSpace, T> solver(exec_, v, sn_block_, plan_.predecessors,
                                          WeightFacts{facts_.integer_weights != 0, facts_.max_abs});
    auto start = Clock::now();
    collectively(ranks_, [&] { solver.factor(sn_plan_, edges_, plan_.negative_weights); });
    sn.factor = detail::seconds_since(start);
    std::vector<Edge>().swap(edges_);
    throw_negative_cycle(cycle_verdict<T>(solver.negative_cycle_vertex()), plan_.distance);
    watch_.lap(seconds().compute);

    // This rank's rows by blocks, each handed to OUT as soon as it is made; with predecessors
    // every block twice (SupernodalSolver). Progress: rank 0's blocks, each by its work.
    const std::int64_t from = first_row_, to = first_row_ + real_rows_;
    const int passes = plan_.predecessors ? 2 : 1;
    const int blocks = int((real_rows_ + sn_block_ - 1) / sn_block_);
    const SupernodalPrediction& w = sn_plan_.prediction;
    SupernodalWork work(w.factor_updates, w.row_updates, v, real_rows_, stats_.edges,
                        plan_.predecessors, detail::host_memory<ExecSpace>);
    int done = 0;
    bool searching = false;  // the predecessor rows' pass
    const auto progress = [&](std::int64_t, std::int64_t count) {
      ++done;
      if (searching)
        work.predecessor_rows_done(count);
      else
        work.distance_rows_done(count);
      if (!progress_ || !ranks_.root()) return;
      progress_({"row block", done, passes * blocks, work.done(), work.fraction()});
    };
    RowSeconds rows;
    const double shipped = out_->write([&](const RowOutput::Sink& sink) {
      rows = solver.distance_rows(sink_into<T>(sink), progress, from, to);
    });
    sn.rows = rows.compute;
    watch_.lap(seconds().compute, {{&seconds().write, shipped},
                                   {&seconds().download, rows.download},
                                   {&seconds().predecessors, rows.search}});
    if (!plan_.predecessors) return;
    // Every rank's shortest-path edges, on every rank.
    start = Clock::now();
    const std::vector<Edge> mine = solver.take_path_edges();
    const std::vector<char> all = ranks_.gather(mine.data(), mine.size(), sizeof(Edge));
    std::vector<Edge> every(all.size() / sizeof(Edge));
    std::copy(all.begin(), all.end(), reinterpret_cast<char*>(every.data()));
    collectively(ranks_, [&] { solver.select_paths(every); });
    work.path_edges_found(std::int64_t(every.size()));
    searching = true;
    seconds().predecessors += detail::seconds_since(start);
    const double written = pred_out_->write([&](const RowOutput::Sink& sink) {
      rows = solver.predecessor_rows(sink_into<int>(sink), progress, from, to);
    });
    sn.rows += rows.compute;
    watch_.lap(seconds().predecessors,
               {{&seconds().write, written}, {&seconds().download, rows.download}});
  }

  // --- partition (Floyd-Warshall): each rank gets the edges that start in its rows.
  template <class T>
  void partition(const Solver<ExecSpace, T>& solver) {
    first_row_ = solver.first_row();
    real_rows_ = solver.real_rows();
    if (ranks_.size() == 1) {
      edges_ = std::move(graph_.edges);
      return;
    }
    std::vector<std::uint64_t> counts(std::size_t(ranks_.size()), 0);
    std::vector<Edge> sorted;
    if (ranks_.root()) {
      for (const Edge& e : graph_.edges)
        ++counts[std::size_t(solver.owner(e.src))];
      std::vector<std::uint64_t> next(counts.size(), 0);
      for (std::size_t p = 1; p < counts.size(); ++p)
        next[p] = next[p - 1] + counts[p - 1];
      sorted.resize(graph_.edges.size());
      for (const Edge& e : graph_.edges)
        sorted[next[std::size_t(solver.owner(e.src))]++] = e;
      std::vector<Edge>().swap(graph_.edges);
    }
    const std::vector<char> mine = ranks_.scatter(sorted.data(), counts, sizeof(Edge), 0);
    edges_.resize(mine.size() / sizeof(Edge));
    std::copy(mine.begin(), mine.end(), reinterpret_cast<char*>(edges_.data()));
  }

  // --- partition (sssp, supernodal): contiguous blocks of the `rows` rows; every rank gets
  // every edge.
  void every_edge_to_every_rank(std::int64_t rows) {
    const RowBlocks blocks{int(rows), ranks_.size()};
    first_row_ = blocks.first(ranks_.rank());
    real_rows_ = blocks.count(ranks_.rank());
    if (ranks_.size() == 1) {
      edges_ = std::move(graph_.edges);
      return;
    }
    std::uint64_t count = graph_.edges.size();
    ranks_.broadcast(&count, sizeof count, 0);
    edges_ = std::move(graph_.edges);
    edges_.resize(count);
    ranks_.broadcast(edges_.data(), count * sizeof(Edge), 0);
  }

  void partition_sssp() { every_edge_to_every_rank(plan_.padded); }

  // Supernodal: every rank also gets rank 0's order, makes the same plan (supernodal_symbolic is
  // a function of the order and the edges) and factor, and its block of the rows.
  void partition_supernodal() {
    every_edge_to_every_rank(plan_.vertices);
    if (ranks_.size() == 1) return;
    std::vector<std::int32_t> perm = sn_plan_.perm;
    perm.resize(std::size_t(plan_.vertices));
    ranks_.broadcast(perm.data(), perm.size() * sizeof(std::int32_t), 0);
    collectively(ranks_, [&] {
      if (ranks_.root()) return;
      sn_plan_ = supernodal_symbolic(plan_.vertices, edges_, perm);
      sn_tile_ = sn_plan_.tile;
    });
  }

  // --- resources, before any work: what each rank needs, checked on every device for the ranks
  // sharing it together. Returns the memory this rank may use.
  std::uint64_t check_device_memory(std::uint64_t need, const std::string& what, bool host) {
    std::vector<std::uint64_t> sharing;
    {
      const std::unique_ptr<Ranks> device = ranks_.sharing_device(device_key(exec_));
      std::vector<char> all = device->gather(&need, 1, sizeof need);
      sharing.resize(all.size() / sizeof need);
      std::copy(all.begin(), all.end(), reinterpret_cast<char*>(sharing.data()));
    }
    const std::uint64_t device_need = saturating_sum(sharing);
    std::uint64_t budget = 0;
    collectively(ranks_, [&] {
      const std::string problem = "V = " + std::to_string(plan_.vertices) + " needs ";
      const std::string remedy =
          host ? "use a machine with more memory"
          : plan_.predecessors && ranks_.size() == 1
              ? "run on a device with more memory, or over several with mpirun -np K"
          : ranks_.size() > 1 ? "run on more ranks"
                              : "run on a device with more memory, or over several with "
                                "mpirun -np K (an MPI build)";
      if (config_.max_memory > 0 && need > config_.max_memory)
        throw MemoryError(problem + size_text(need) + (host ? "" : " of device memory") +
                              " on this rank (" + what + "), but --max-memory allows " +
                              size_text(config_.max_memory) + ": " + remedy,
                          need, config_.max_memory, true, int(sharing.size()), host);
      const std::uint64_t usable = available_memory(exec_);
      if (device_need > usable)
        throw MemoryError(
            problem + size_text(device_need) + " on " + stats_.device + " (" + what +
                (sharing.size() > 1
                     ? " on each of the " + std::to_string(sharing.size()) + " ranks sharing it"
                     : "") +
                "), but only " + size_text(usable) + " can be used: " + remedy,
            device_need, usable, false, int(sharing.size()), host);
      budget = detail::usable_memory(exec_, config_.max_memory) / sharing.size();
    });
    return budget;
  }

  template <class T>
  void check_memory(Solver<ExecSpace, T>& solver) {
    const std::int64_t mine = std::int64_t(edges_.size());
    const std::uint64_t budget = check_device_memory(solver.device_bytes(mine, stats_.edges),
                                                     solver.device_bytes_what(), false);
    collectively(ranks_, [&] { solver.set_budget(budget, mine, stats_.edges); });
  }

  void check_sssp_memory() {
#if defined(APSP_HAVE_KOKKOS_KERNELS)
    // Host memory: make_csr_graph's counts and sorted arcs, the CSR graph, a block of rows and
    // each thread's queue.
    const std::uint64_t e = edges_.size();
    const std::int64_t v = plan_.vertices;
    const std::uint64_t need =
        saturating_sum({3 * sizeof(CsrGraph::size_type) * std::uint64_t(v + 1) + 16 * e,
                        matrix_bytes(sssp_block_rows(exec_, v), v),
                        matrix_bytes(exec_.concurrency(), 2 * v + 1024)});
    check_device_memory(need, "host memory for --algorithm sssp (E = " + std::to_string(e) + ")",
                        true);
#endif
  }

  // Rank 0 creates the outputs, then checks the disk space (a file system that takes no new file,
  // read-only or /proc, says so, not that it is full); every rank opens its way of writing rows.
  OutputFormat predecessors_format() const {
    return config_.predecessors_format.value_or(config_.output_format);
  }

  void create_outputs() {
    AtomicOutputFile* out = nullptr;
    AtomicOutputFile* pred = nullptr;
    collectively(
        ranks_,
        [&] {
          if (!ranks_.root()) return;
          out = &outputs_.add(config_.output);
          if (plan_.predecessors) pred = &outputs_.add(config_.predecessors);
          // Text's length is known only once written: refused where even its least cannot fit,
          // a disk that fills midway is a write error like any other.
          std::vector<OutputSpace> space = {
              {config_.output, facts_.output_bytes, config_.output_format == OutputFormat::text}};
          if (plan_.predecessors)
            space.push_back(
                {config_.predecessors,
                 least_output_bytes(predecessors_format(), plan_.vertices, DistanceType::int32),
                 predecessors_format() == OutputFormat::text});
          check_disk_space(space);
        },
        false);
    out_ = std::make_unique<RowOutput>(ranks_, out, config_.output, config_.output_format,
                                       plan_.vertices, plan_.distance);
    if (plan_.predecessors)
      pred_out_ =
          std::make_unique<RowOutput>(ranks_, pred, config_.predecessors, predecessors_format(),
                                      plan_.vertices, DistanceType::int32);
  }

  // The rows a solver hands over, into `output` row by row.
  template <class V>
  static RowSink<V> sink_into(const RowOutput::Sink& sink) {
    return [&sink](std::int64_t first, std::int64_t count, const V* rows, std::int64_t stride) {
      for (std::int64_t i = 0; i < count; ++i)
        sink(first + i, rows + i * stride);
    };
  }

  // float32 sums can make a negative cycle or hide one (negative_cycles.hpp): rank 0 decides in
  // double on the weights it kept for it, every rank gets the verdict. `found`: the solver's
  // cycle vertex, or -1. Collective.
  template <class T>
  CycleVerdict cycle_verdict(std::int64_t found) {
    CycleVerdict verdict{found};
    if (!facts_.cycles_may_round) return verdict;
    collectively(ranks_, [&] {
      if (ranks_.root())
        verdict = negative_cycle_verdict<T>(cycle_graph_, weight_range(cycle_graph_), found);
    });
    static_assert(std::is_trivially_copyable<CycleVerdict>::value, "the verdict travels as bytes");
    ranks_.broadcast(&verdict, sizeof verdict, 0);
    return verdict;
  }

  template <class T>
  void solve(Solver<ExecSpace, T>& solver) {
    detail::ScopedRegion region("apsp::solve::floyd_warshall");
    // --- upload
    solver.load(edges_, {}, true);
    std::vector<Edge>().swap(edges_);
    watch_.lap(seconds().upload);

    // --- compute
    RoundHooks hooks;
    if (progress_ && ranks_.root())
      hooks.progress = [&](int done, int total) {
        const double v = double(plan_.vertices);
        progress_({"round", done, total, v * v * v * done / total, double(done) / total});
      };
    hooks.before_round = injected_failure(ranks_.rank());
    const ExchangeStats exchange =
        solver.compute(hooks, [&](std::int64_t found) { return cycle_verdict<T>(found); });
    seconds().communication = exchange.seconds;
    seconds().communication_bytes = exchange.received_bytes;
    watch_.lap(seconds().compute);

    // --- write the distances
    RowSeconds rows;
    const double shipped = out_->write(
        [&](const RowOutput::Sink& sink) { rows = solver.distance_rows(sink_into<T>(sink)); });
    watch_.lap(seconds().download, {{&seconds().write, shipped}});
    if (!plan_.predecessors) return;

    // --- predecessors: every rank's shortest-path edges, then this rank's rows.
    solver.select_paths();
    watch_.lap(seconds().predecessors);
    const double written = pred_out_->write(
        [&](const RowOutput::Sink& sink) { rows = solver.predecessor_rows(sink_into<int>(sink)); });
    watch_.lap(seconds().download,
               {{&seconds().write, written}, {&seconds().predecessors, rows.search}});
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
        const RowSink<int> rows_to = sink_into<int>(sink);
        for (std::int64_t first = first_row_; first < first_row_ + real_rows_; first += rows) {
          const std::int64_t count = std::min(rows, first_row_ + real_rows_ - first);
          const auto part =
              Kokkos::subview(block, std::make_pair(std::int64_t(0), count), Kokkos::ALL);
          sssp_rows(exec_, csr, first, part);
          rows_to(first, count, part.data(), v);
        }
      });
      watch_.lap(seconds().compute, {{&seconds().write, shipped}});
      return;
    }
#endif
    // The plan never picks sssp where it cannot run (choose_algorithm throws).
    throw UnavailableError("sssp cannot run on " + stats_.backend);
  }

  // --- commit: every rank's rows on the disk; then, once all have, rank 0 writes the record of
  // the run and commits every output together.
  void commit() {
    seconds().write_behind = out_->behind_seconds() + (pred_out_ ? pred_out_->behind_seconds() : 0);
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
    static_assert(std::is_trivially_copyable<StageSeconds>::value, "stages travel as bytes");
    const std::vector<char> all = ranks_.gather(&seconds(), 1, sizeof(StageSeconds));
    stats_.per_rank.resize(all.size() / sizeof(StageSeconds));
    std::copy(all.begin(), all.end(), reinterpret_cast<char*>(stats_.per_rank.data()));
    std::uint64_t bytes = 0;
    for (const StageSeconds& r : stats_.per_rank)
      bytes += r.communication_bytes;
    seconds().communication_bytes = bytes;
  }

  ExecSpace exec_;
  Ranks& ranks_;
  const SolveConfig& config_;
  const Progress& progress_;
  SolveStats stats_;
  Stopwatch watch_;
  Graph graph_;        // rank 0's, until partitioned
  Graph cycle_graph_;  // rank 0's copy where float32 may round cycles (cycle_verdict)
  PlanFacts facts_;
  Plan plan_;
  SupernodalPlan sn_plan_;  // rank 0's, when supernodal runs
  int sn_tile_ = 0;
  std::int64_t sn_block_ = 1;                   // rows of the result made at once
  std::int64_t first_row_ = 0, real_rows_ = 0;  // this rank's real rows
  std::vector<Edge> edges_;                     // this rank's share
  OutputTransaction outputs_;                   // rank 0's: OUT, P, then the stats file
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
