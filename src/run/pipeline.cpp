// The job behind `apsp IN OUT`, written once for one process and for P ranks (pipeline.hpp):
//
//   read       rank 0 checks the files and reads IN
//   plan       rank 0 decides the plan (run_plan.hpp: the algorithm, the distance type, the
//              shape; supernodal's ordering and symbolic phase) and every rank checks that it can
//              run it; the edges go to the ranks that need them; the solver checks its memory on
//              every device; rank 0 creates the outputs and checks the disk
//   upload     the solver loads this rank's share (dense: its rows filled, the kernels warmed up)
//   compute    the solver computes and gives its negative-cycle verdict: apsp::Solver (dense
//              Floyd-Warshall on the ranks' row blocks), apsp::SupernodalSolver (the factor), or
//              apsp::SsspSolver (Dijkstra, which makes its rows as it hands them over)
//   write      each rank's rows of OUT, as the solver hands them over (row_output.hpp); with
//              --predecessors the shortest-path edges shared, then the predecessor rows into P
//   commit     the rows on the disk on every rank, then rank 0 commits OUT, P and the stats
//
// The solvers share one shape (apsp/solver_interface.hpp), so the stages are written once for all
// of them (hand_over), which asks a solver's capabilities(), never its type.
// Each stage is one lap of one stopwatch, so the stages add up to the total. With one rank
// every collective is trivial (ranks.hpp): P = 1 is this same path.
#include <apsp/detail/region.hpp>
#include <apsp/detail/row_block_rounds.hpp>
#include <apsp/floyd_warshall.hpp>
#include <apsp/measures.hpp>
#include <apsp/memory.hpp>
#include <apsp/negative_cycles.hpp>
#include <apsp/paths.hpp>
#include <apsp/plan.hpp>
#include <apsp/ranks.hpp>
#include <apsp/solver.hpp>
#include <apsp/solver_interface.hpp>
#include <apsp/supernodal.hpp>

#include "io/hw3_io.hpp"
#include "io/measures_output.hpp"
#include "io/output_formats.hpp"
#include "io/outputs.hpp"
#include "io/prepared_file.hpp"
#include "io/read_graph.hpp"
#include "io/row_output.hpp"
#include "plan/device_choices.hpp"
#include "plan/run_plan.hpp"
#include "plan/sssp_choice.hpp"
#include "plan/supernodal_choice.hpp"
#include "platform/backends.hpp"
#include "platform/config.hpp"
#include "run/pipeline.hpp"
#include "run/prepared_graph.hpp"
#include "run/run_graph.hpp"
#include "run/subsets.hpp"
#include "run/timed_ranks.hpp"
#include "verify/host_dijkstra.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <future>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <sys/resource.h>

namespace apsp {
namespace {

using detail::Clock;
using detail::RowOutput;
using detail::saturating_sum;

// The process's peak resident set so far, in bytes (Linux gives kilobytes); 0 where unknown.
std::uint64_t peak_resident_bytes() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0 || usage.ru_maxrss < 0) return 0;
  return std::uint64_t(usage.ru_maxrss) * 1024;
}

// Consecutive laps: each stage gets the time since the previous lap. Within the stages of the
// setup, consecutive steps: each gets the time since the previous step ended, and of it the time
// spent in collectives (a running total, `in_collectives`, read at each step's end).
class Stopwatch {
 public:
  void lap(double& stage) { stage += advance(Clock::now()); }
  void step(StepSeconds& step, double in_collectives) {
    end_step(step, in_collectives, Clock::now());
  }
  // A step that ends a stage, at the same instant.
  void lap(double& stage, StepSeconds& step, double in_collectives) {
    const auto now = Clock::now();
    end_step(step, in_collectives, now);
    stage += advance(now);
  }
  // A lap split among stages: parts measured inside it to theirs, the rest to `rest`.
  void lap(double& rest, std::initializer_list<std::pair<double*, double>> parts) {
    double all = advance(Clock::now());
    for (const auto& [stage, seconds] : parts) {
      *stage += seconds;
      all -= seconds;
    }
    rest += all;
  }
  double total() const { return std::chrono::duration<double>(last_ - start_).count(); }

 private:
  double advance(Clock::time_point now) {
    const double seconds = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    return seconds;
  }
  void end_step(StepSeconds& step, double in_collectives, Clock::time_point now) {
    step.seconds += std::chrono::duration<double>(now - step_end_).count();
    step.collective += in_collectives - collectives_at_;
    step_end_ = now;
    collectives_at_ = in_collectives;
  }
  Clock::time_point start_ = Clock::now(), last_ = start_, step_end_ = start_;
  double collectives_at_ = 0;
};

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
  WeightRange weights;             // the graph's (the predecessors' rule, the cycle verdict)
  std::int32_t algorithm = 0;
  std::int32_t shape_index = -1;
  std::int32_t tile = 0;
  std::int32_t distance = 0;
  std::int32_t negative_weights = 0;
  std::int32_t predecessors = 0;
  std::int32_t prepared = 0;  // IN is a prepared graph: rank 0 has its factor
  char shape_source[8] = {};  // Plan::shape_source
};

// The rows from which `apsp measures` guesses its histogram's range (guess_range, measures.hpp)
// on a GPU, where the solver's row of one vertex is one thread's work: Dijkstra on the host, a
// row a thread, on a copy of the graph's edges, started as soon as a rank has them, so that it
// runs beside the ordering and the factor instead of before the rows' one pass (a million-vertex
// road: 9 rows, 1.4 s). The guess picks each row from what the rows before it hold: the rows it
// will ask for are found by making the same guess here, every row kept.
class HostProbe {
 public:
  // Starts the probe of distances of `type` (the guess depends on their rounding).
  void start(DistanceType type, std::int32_t vertices, std::vector<Edge> edges) {
    type_ = type;
    rows_ = std::async(std::launch::async, [type, vertices, edges = std::move(edges)] {
      const detail::ArcLists arcs = detail::build_adjacency(vertices, edges, false);
      Rows kept;
      visit_distance_type(type, [&](auto t) {
        using T = decltype(t);
        detail::guess_range<T>(vertices, [&](const std::vector<std::int32_t>& list,
                                             const RowSink<T>& sink) {
          std::vector<std::future<std::vector<double>>> made;
          for (const std::int32_t v : list)
            made.push_back(std::async(std::launch::async, [&arcs, v] {
              return detail::shortest_distances(arcs, v, [](std::int32_t, const detail::Arc&) {});
            }));
          for (std::size_t k = 0; k < list.size(); ++k) {
            std::vector<double>& d = kept[list[k]];
            d = made[k].get();
            const std::vector<T> row = as_row<T>(d);
            sink(std::int64_t(k), 1, row.data(), std::int64_t(row.size()));
          }
        });
      });
      return kept;
    });
  }
  bool started_for(DistanceType type) const { return type_ == type; }

  // The probe of graph_measures: the rows the guess asks for, once the probe has made them.
  template <class T>
  void rows(const std::vector<std::int32_t>& list, const RowSink<T>& sink) {
    if (rows_.valid()) kept_ = rows_.get();
    for (std::size_t k = 0; k < list.size(); ++k) {
      const auto row = kept_.find(list[k]);
      if (row == kept_.end())
        throw Error("measures: the histogram's range probe has no row of vertex " +
                    std::to_string(list[k]));
      const std::vector<T> values = as_row<T>(row->second);
      sink(std::int64_t(k), 1, values.data(), std::int64_t(values.size()));
    }
  }

 private:
  using Rows = std::map<std::int32_t, std::vector<double>>;
  template <class T>
  static std::vector<T> as_row(const std::vector<double>& d) {
    std::vector<T> row(d.size());
    for (std::size_t j = 0; j < d.size(); ++j)
      row[j] = d[j] == detail::unreachable ? Distance<T>::infinity : T(d[j]);
    return row;
  }

  std::optional<DistanceType> type_;
  std::future<Rows> rows_;
  Rows kept_;
};

template <class ExecSpace>
class Pipeline {
 public:
  Pipeline(const ExecSpace& exec, Ranks& ranks, const SolveConfig& config, const Progress& progress)
      : exec_(exec), timed_(ranks, in_collectives_), config_(config), progress_(progress) {
    stats_ = detail::stats_of(exec);
    stats_.ranks = ranks.size();
    stats_.transport_requested = transport_name(config.transport);
  }

  SolveStats run() {
    read();
    watch_.lap(seconds().read, step(Setup::read_input), in_collectives_);
    plan();
    visit_distance_type(plan_.distance, [&](auto t) {
      using T = decltype(t);
      if (plan_.algorithm == Algorithm::supernodal)
        solve_supernodal<T>();
      else if (plan_.algorithm == Algorithm::sssp)
        solve_sssp<T>();
      else
        solve_dense<T>();
    });
    commit();
    return stats_;
  }

 private:
  using Setup = SetupSeconds;
  StageSeconds& seconds() { return stats_.seconds; }
  StepSeconds& step(Setup::Step s) { return seconds().setup.steps[s]; }
  // Ends step s of the setup (this rank's: a step that only rank 0 takes is part of the next one
  // on the others).
  void end(Setup::Step s) { watch_.step(step(s), in_collectives_); }

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
          end(Setup::check_files);
          const bool updating = !config_.update_weights.empty();
          if (config_.format == Format::automatic && is_prepared_file(config_.input)) {
            prepared_ = read_prepared(config_.input);
            graph_ = updating ? reweighted(*prepared_, config_.input,
                                           read_graph(config_.update_weights, config_.format,
                                                      config_.allow_negative),
                                           config_.update_weights)
                              : open_graph(*prepared_, config_.input, config_.allow_negative);
          } else if (updating) {
            throw Error("--update-weights: IN '" + config_.input +
                        "' is not a prepared graph (apsp prepare makes one)");
          } else {
            graph_ = read_graph(config_.input, config_.format, config_.allow_negative);
          }
        },
        false);
  }

  // --- plan: decided by rank 0 from the request and the data (plan_run, the rule of every
  // driver), the same on every rank.
  void plan() {
    PlanFacts& f = facts_;
    collectively(
        ranks_,
        [&] {
          if (!ranks_.root()) return;
          const WeightRange weights = weight_range(graph_);
          if (config_.prepare && config_.algorithm == Algorithm::floyd_warshall)
            throw Error(
                "apsp prepare keeps the plan and factor of supernodal Floyd-Warshall (--algorithm "
                "supernodal or auto) or the graph's arrays for sssp (--algorithm sssp); dense "
                "Floyd-Warshall (fw) has nothing smaller than its V x V distances to keep");
          const DistanceType type =
              prepared_ ? prepared_type(weights)
                        : choose_distance_type(config_.dtype, graph_.vertices, weights);
          if (ranks_.size() == 1 && wants_probe(config_.algorithm, weights.negative()))
            probe_.start(type, graph_.vertices, graph_.edges);  // beside the ordering
          const bool predecessors = !config_.predecessors.empty();
          const Algorithm algorithm = config_.prepare && config_.algorithm != Algorithm::sssp
                                          ? Algorithm::supernodal
                                          : config_.algorithm;
          RunPlan run =
              prepared_ ? prepared_run(exec_, *prepared_, "prepared graph '" + config_.input + "'",
                                       weights, config_.shape, predecessors,
                                       !config_.update_weights.empty())
                        : plan_run(exec_, graph_, weights, type,
                                   PlanRequest{algorithm, config_.shape, predecessors, true});
          if (prepared_ && config_.update_weights.empty())  // for the solver
            prepared_bytes_ = std::move(
                prepared_->algorithm == Algorithm::sssp ? prepared_->plan : prepared_->factor);
          stats_.prepared = prepared_.has_value();
          if (!run.warning.empty()) stats_.warnings.push_back(run.warning);
          stats_.supernodal = run.stats;
          sn_plan_ = std::move(run.supernodal);
          const Plan& p = run.plan;
          f.vertices = p.vertices;
          f.edges = std::int64_t(graph_.edges.size());
          f.output_bytes = config_.measures || subsets_requested() || config_.prepare
                               ? 0
                               : least_output_bytes(config_.output_format, p.vertices, p.distance);
          if (subsets_requested()) {  // the ids checked before any work; rows of |T| values
            const Subsets s = Subsets::of(config_.sources, config_.targets, p.vertices);
            f.output_bytes =
                least_table_bytes(config_.output_format, std::int64_t(s.sources.size()),
                                  std::int64_t(s.targets.size()), p.distance);
          }
          f.weights = weights;
          f.algorithm = int(p.algorithm);
          f.shape_index = p.shape.index;
          f.tile = p.shape.tile;
          f.distance = int(p.distance);
          f.negative_weights = p.negative_weights;
          f.predecessors = p.predecessors;
          f.prepared = prepared_ && config_.update_weights.empty();
          p.shape_source.copy(f.shape_source, sizeof f.shape_source - 1);
        },
        false);
    end(Setup::decide);
    broadcast_value(ranks_, f, 0);
    end(Setup::broadcast_plan);
    if (subsets_requested())
      subsets_ =
          std::make_unique<Subsets>(Subsets::of(config_.sources, config_.targets, f.vertices));
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
    end(Setup::shape_check);
    const bool fw = plan_.algorithm == Algorithm::floyd_warshall;
    const bool supernodal = plan_.algorithm == Algorithm::supernodal;
    plan_.padded = fw ? padded_size(plan_.vertices, plan_.shape) : plan_.vertices;
    stats_.vertices = plan_.vertices;
    stats_.algorithm = algorithm_name(plan_.algorithm);
    stats_.dtype = distance_type_name(plan_.distance);
    stats_.tile = fw ? plan_.shape.tile : supernodal ? sn_plan_.tile : 0;
    stats_.shape = fw           ? plan_.shape.name
                   : supernodal ? "supernodal: fronts closed in tiles of " +
                                      std::to_string(sn_plan_.tile) + ", METIS nested dissection"
                                : "Dijkstra per source, bucket queue";
    stats_.shape_source = fw ? plan_.shape_source : "";
    stats_.padded = plan_.padded;
  }

  // Where this rank's memory is: what its device has free, and --max-memory, less what `apsp
  // measures` keeps beside the solver (its totals of every row and column: measure_device_bytes).
  template <class T>
  MemoryLimits limits() const {
    const MemoryLimits limits{available_memory(exec_), config_.max_memory, stats_.device};
    return config_.measures ? beside_measures<T>(limits, plan_.vertices) : limits;
  }

  // A prepared graph's distance type: its own (apsp::prepared_type, which refuses another
  // --dtype or --algorithm); new weights may not add negative ones, nor paths it cannot hold.
  DistanceType prepared_type(const WeightRange& weights) const {
    const PreparedFile& file = *prepared_;
    const std::string in = "prepared graph '" + config_.input + "'";
    apsp::prepared_type(file, in, config_.dtype, config_.algorithm);
    if (!config_.update_weights.empty() && weights.negative() && !file.weights.negative())
      throw Error("--update-weights '" + config_.update_weights + "': a negative weight (" +
                  number_text(weights.lowest) + ") where " + in +
                  " had none (its kernels were chosen for weights >= 0): prepare the graph "
                  "with the new weights");
    choose_distance_type(file.type, graph_.vertices, weights);  // the type holds the paths
    return file.type;
  }

  // --- dense Floyd-Warshall (apsp::Solver): each rank gets the edges that start in its rows.
  template <class T>
  void solve_dense() {
    Solver<ExecSpace, T> solver(exec_, ranks_, plan_, facts_.weights);
    partition(solver);
    end(Setup::partition);
    solver.check_memory(limits<T>(), stats_.edges, edges_);
    end(Setup::memory_check);
    create_outputs();
    watch_.lap(seconds().plan, step(Setup::outputs), in_collectives_);

    detail::ScopedRegion region("apsp::solve::floyd_warshall");
    const LoadSeconds load = solver.load(edges_, {}, true);
    std::vector<Edge>().swap(edges_);
    // The allocation and the fill were timed inside load; the rest of the lap (the warm-up and
    // the agreement after it, every collective of the stage) is the warm-up's step.
    watch_.lap(seconds().upload, step(Setup::warm_up), in_collectives_);
    step(Setup::warm_up).seconds -= load.allocate + load.fill;
    step(Setup::allocate).seconds += load.allocate;
    step(Setup::fill).seconds += load.fill;

    RoundHooks hooks;
    if (progress_ && ranks_.root())
      hooks.progress = [&](int done, int total) {
        const double v = double(plan_.vertices);
        progress_({"round", done, total, v * v * v * done / total, double(done) / total});
      };
    hooks.before_round = injected_failure(ranks_.rank());
    if constexpr (!detail::host_memory<ExecSpace>) {
      TransportChoice transport = choose_transport(ranks_, config_.transport);
      // A transport asked for by name that cannot run is worth a warning; under auto, ranks
      // that share a GPU are a setup the user chose, which the stats record.
      stats_.transport_note = transport.note;
      if (!transport.note.empty() && config_.transport != Transport::automatic && ranks_.root())
        stats_.warnings.push_back(transport.note);
      hooks.device_link = std::move(transport.link);
    }
    const ExchangeStats exchange = solver.compute(hooks);
    stats_.transport = exchange.transport;
    seconds().communication = exchange.seconds;
    seconds().communication_bytes = exchange.received_bytes;
    seconds().communication_sent_bytes = exchange.sent_bytes;
    seconds().link = exchange.link_seconds;
    watch_.lap(seconds().compute);
    hand_over<T>(solver, seconds().download, seconds().download, {});
  }

  // --- supernodal Floyd-Warshall (apsp::SupernodalSolver): every rank gets every edge, makes
  // the factor and its block of the rows, written as they come.
  template <class T>
  void solve_supernodal() {
    every_edge_to_every_rank();
    if (!probe_.started_for(plan_.distance) &&
        wants_probe(Algorithm::supernodal, plan_.negative_weights))
      probe_.start(plan_.distance, std::int32_t(plan_.vertices), edges_);  // beside the factor
    end(Setup::partition);
    SupernodalSolver<ExecSpace, T> solver(exec_, ranks_, sn_plan_, plan_.predecessors,
                                          facts_.weights);
    end(Setup::supernodal_plan);
    if (config_.measures) solver.expect_measures();
    solver.set_row_split(config_.row_threads);
    solver.check_memory(limits<T>(), stats_.edges);
    end(Setup::memory_check);
    const SupernodalPrediction& w = solver.plan().prediction;
    stats_.supernodal.factor_bytes = w.factor_values * sizeof(T);
    stats_.supernodal.path_bytes = SupernodalSolver<ExecSpace, T>::path_bytes(w);
    create_outputs();
    watch_.lap(seconds().plan, step(Setup::outputs), in_collectives_);

    detail::ScopedRegion region("apsp::solve::supernodal");
    const auto start = Clock::now();
    solver.load(edges_);
    if (facts_.prepared) {  // the factor that rank 0 read, on every rank
      prepared_bytes_to_every_rank();
      solver.load_factor(reinterpret_cast<const T*>(prepared_bytes_.data()),
                         prepared_bytes_.size() / sizeof(T));
    }
    solver.compute();
    prepared_bytes_ = Bytes();
    stats_.supernodal.factor = detail::seconds_since(start);
    stats_.supernodal.factors = solver.factors() - facts_.prepared;
    if (config_.measures && solver.rows_in_halves()) {  // the rates count the half rows' work
      stats_.supernodal.half_rows = true;
      stats_.supernodal.row_updates = detail::half_row_updates(solver.plan());
    }
    if (config_.prepare) {  // the factor downloaded and written, by rank 0
      double written = 0;
      collectively(
          ranks_,
          [&] {
            if (!ranks_.root()) return;
            const auto write_start = Clock::now();
            // The graph as read (every edge, in its order), the solver's plan and factor.
            Graph graph;
            graph.vertices = std::int32_t(plan_.vertices);
            graph.edges = edges_;
            write_prepared(*prepared_out_, prepared_file_of<T>(graph, facts_.weights, solver));
            written = detail::seconds_since(write_start);
          },
          false);
      watch_.lap(seconds().compute, {{&seconds().write, written}});
      return;
    }
    std::vector<Edge>().swap(edges_);
    watch_.lap(seconds().compute);

    // Progress: rank 0's blocks, each by its work; with predecessors every block twice. A
    // histogram of measures is made in the same pass where its range was guessed (measure), else
    // in a pass of its own, reported apart.
    const int passes = plan_.predecessors ? 2 : 1;
    const std::int64_t blocks = solver.blocks();
    SupernodalWork work(w.factor_updates, w.row_updates, plan_.vertices, solver.real_rows(),
                        stats_.edges, plan_.predecessors, detail::host_memory<ExecSpace>);
    int done = 0;
    const auto progress = [&](std::int64_t, std::int64_t count) {
      ++done;
      if (done > passes * blocks) {  // the histogram's own pass
        const int again = int(done - passes * blocks);
        if (progress_ && ranks_.root())
          progress_({"histogram row block", again, int(blocks), work.done(),
                     double(again) / double(std::max<std::int64_t>(1, blocks))});
        return;
      }
      if (done <= blocks || !plan_.predecessors)
        work.distance_rows_done(count);
      else
        work.predecessor_rows_done(count);
      if (!progress_ || !ranks_.root()) return;
      progress_({"row block", done, int(passes * blocks), work.done(), work.fraction()});
    };
    stats_.supernodal.rows =
        hand_over<T>(solver, seconds().compute, seconds().predecessors, progress,
                     [&] { work.path_edges_found(solver.path_edge_count()); });
    stats_.supernodal.row_threads = solver.row_threads();
  }

  // --- sssp: every rank gets every edge and runs the sources of its rows.
  template <class T>
  void solve_sssp() {
#if defined(APSP_HAVE_KOKKOS_KERNELS)
    if constexpr (detail::host_memory<ExecSpace> && std::is_same<T, int>::value) {
      // A prepared graph's arrays go to every rank instead of its edges.
      if (facts_.prepared) {
        prepared_bytes_to_every_rank();
        std::vector<Edge>().swap(graph_.edges);
      } else {
        every_edge_to_every_rank();
      }
      end(Setup::partition);
      SsspSolver<ExecSpace> solver(exec_, ranks_, plan_.vertices);
      solver.check_memory(limits<int>(), stats_.edges);
      end(Setup::memory_check);
      create_outputs();
      watch_.lap(seconds().plan, step(Setup::outputs), in_collectives_);
      detail::ScopedRegion region("apsp::solve::sssp");
      if (facts_.prepared)
        collectively(ranks_, [&] {
          try {
            solver.load(detail::csr_from_bytes(prepared_bytes_.data(), prepared_bytes_.size(),
                                               plan_.vertices));
          } catch (const Error& e) {
            throw Error("prepared graph '" + config_.input + "': " + e.what());
          }
        });
      else
        solver.load(edges_);
      prepared_bytes_ = Bytes();
      watch_.lap(seconds().upload, step(Setup::fill), in_collectives_);
      if (config_.prepare) {  // the graph's arrays written, by rank 0
        collectively(
            ranks_,
            [&] {
              if (!ranks_.root()) return;
              PreparedFile file;
              file.algorithm = Algorithm::sssp;
              file.graph.vertices = std::int32_t(plan_.vertices);
              file.graph.edges = std::move(edges_);
              file.weights = facts_.weights;
              file.plan = Bytes(detail::csr_bytes(solver.graph()));
              write_prepared(*prepared_out_, file);
            },
            false);
        watch_.lap(seconds().write);
        return;
      }
      std::vector<Edge>().swap(edges_);
      hand_over<int>(solver, seconds().compute, seconds().compute, {});
      return;
    }
#endif
    // The plan never picks sssp where it cannot run (choose_algorithm throws).
    throw UnavailableError("sssp cannot run on " + stats_.backend);
  }

  // --- write: the solver's rows into OUT (whole rows, or with --sources/--targets a table),
  // then with predecessors (after paths_selected) its predecessor rows into P. Each is one lap:
  // what the rows' making, download, search and writing took to their stages, the rest to
  // `rest` (distances) and `pred_rest`. Returns the seconds of making rows (RowSeconds::compute).
  template <class T, class S>
  double hand_over(S& solver, double& rest, double& pred_rest, const BlockDone& done,
                   const std::function<void()>& paths_selected = {}) {
    APSP_CHECK_SOLVER(S);
    if (config_.measures) return measure<T>(solver, done);
    RowSeconds rows;
    const double shipped = subsets_ ? table_rows<T>(solver, done, rows)
                                    : out_->write([&](const RowOutput::Sink& sink) {
                                        rows = solver.distance_rows(sink_into<T>(sink), done);
                                      });
    seconds().rows_made += rows.made;
    watch_.lap(rest, {{&seconds().write, shipped},
                      {&seconds().download, rows.download},
                      {&seconds().predecessors, rows.search},
                      {&seconds().compute, rows.compute}});
    double made = rows.compute;
    if constexpr (S::capabilities().predecessors) {
      if (!plan_.predecessors) return made;
      solver.select_paths();
      if (paths_selected) paths_selected();
      watch_.lap(seconds().predecessors);
      const double written =
          subsets_ ? table_predecessors(solver, done, rows)
                   : pred_out_->write([&](const RowOutput::Sink& sink) {
                       rows = solver.predecessor_rows(sink_into<int>(sink), -1, -1, done);
                     });
      watch_.lap(pred_rest, {{&seconds().write, written},
                             {&seconds().download, rows.download},
                             {&seconds().predecessors, rows.search}});
      made += rows.compute;
    }
    return made;
  }

  // --- --sources, --targets (subsets.hpp): hand_over's products as |S| x |T| tables, gathered on
  // rank 0, which writes them. Each returns the seconds of writing; `rows`: the making's.
  bool subsets_requested() const {
    return config_.sources || config_.targets;
  }

  // The distances: this rank's share of S alone where the solver makes the rows of a list (and
  // of them T's columns alone where it can), else its rows, each kept where S holds it.
  template <class T, class S>
  double table_rows(S& solver, const BlockDone& done, RowSeconds& rows) {
    constexpr Capabilities can = S::capabilities();
    SubsetTable<T> table(*subsets_);
    bool made = false;
    if constexpr (can.rows_of_list) {
      if (!plan_.predecessors) {
        const auto [first, count] = subsets_->share(ranks_);
        const std::vector<std::int32_t> mine(subsets_->sources.begin() + first,
                                             subsets_->sources.begin() + first + count);
        if constexpr (can.table_columns)
          rows =
              solver.distance_rows_of(mine, table.by_position_of_targets(first), subsets_->targets);
        else
          rows = solver.distance_rows_of(mine, table.by_position(first));
        made = true;
      }
    }
    if (!made) rows = solver.distance_rows(table.by_vertex(), done);
    return out_->write([&](const RowOutput::Sink& sink) { table.write_into(ranks_, sink); });
  }

  // The predecessors: this rank's rows, each kept where S holds it.
  template <class S>
  double table_predecessors(S& solver, const BlockDone& done, RowSeconds& rows) {
    SubsetTable<int> pred(*subsets_);
    rows = solver.predecessor_rows(pred.by_vertex(), -1, -1, done);
    return pred_out_->write([&](const RowOutput::Sink& sink) { pred.write_into(ranks_, sink); });
  }

  // --- measures (`apsp measures`): the solver's rows reduced where it makes them (measures.hpp),
  // never written; then rank 0 writes the measures' file. The reduction and the file are the
  // write stage. Returns the seconds of making rows (RowSeconds::compute).
  template <class T, class S>
  double measure(S& solver, const BlockDone& done) {
    RowSeconds rows;
    // Solvers that make rows of a list (supernodal, sssp) let the histogram's range be guessed
    // from a few rows, and the histogram made in the same pass; Floyd-Warshall's rows stay on
    // the device, and a second pass only reads them.
    RowProbe<T> probe;
    if constexpr (S::capabilities().rows_of_list) {
      if (plan_.algorithm == Algorithm::supernodal && probe_.started_for(plan_.distance))
        probe = [&](const std::vector<std::int32_t>& list, const RowSink<T>& sink) {
          const auto start = Clock::now();
          probe_.rows<T>(list, sink);
          rows.compute += detail::seconds_since(start);
        };
      else
        probe = [&](const std::vector<std::int32_t>& list, const RowSink<T>& sink) {
          const RowSeconds probed = solver.distance_rows_of(list, sink);
          rows.compute += probed.compute;
          seconds().rows_made += probed.made;
        };
    }
    const GraphMeasures measures = graph_measures<T>(
        exec_, ranks_, plan_.vertices, solver.first_row(), solver.real_rows(),
        MeasureOptions{config_.measures->histogram_bins()},
        [&](const MeasureSink<ExecSpace, T>& sink) {
          const RowSeconds reduced = solver.reduce_rows(sink, done);
          rows.compute += reduced.compute;
          seconds().rows_made += reduced.made;
        },
        probe);
    stats_.measures = {measures.passes, measures.probed_rows};
    collectively(
        ranks_,
        [&] {
          if (!ranks_.root()) return;
          const std::string bytes = measures_file(measures, *config_.measures, plan_.distance);
          measures_out_->write(bytes.data(), bytes.size());
        },
        false);
    watch_.lap(seconds().write, {{&seconds().compute, rows.compute}});
    return rows.compute;
  }

  // On a GPU the solver's row of one vertex is one thread's work (the road of 115,000
  // vertices: ~0.15 s), so the histogram's range is guessed from rows that Dijkstra makes on the
  // host (HostProbe): where measures ask for a histogram, no weight is negative and the algorithm
  // may be supernodal (the solver that would otherwise make the probe's rows itself).
  bool wants_probe(Algorithm algorithm, bool negative_weights) const {
    return !detail::host_memory<ExecSpace> && config_.measures &&
           config_.measures->histogram_bins() > 0 && !negative_weights &&
           (algorithm == Algorithm::supernodal || algorithm == Algorithm::automatic);
  }

  // --- partition (Floyd-Warshall): each rank gets the edges that start in its rows.
  template <class T>
  void partition(const Solver<ExecSpace, T>& solver) {
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
    edges_ = scatter_parts(ranks_, sorted, counts, 0);
  }

  // --- partition (sssp, supernodal): every rank gets every edge.
  void every_edge_to_every_rank() {
    edges_ = std::move(graph_.edges);
    if (ranks_.size() > 1) broadcast_vector(ranks_, edges_, 0);
  }

  // ... and a prepared graph's factor or arrays, which rank 0 read.
  void prepared_bytes_to_every_rank() {
    if (ranks_.size() == 1) return;
    std::uint64_t size = prepared_bytes_.size();
    broadcast_value(ranks_, size, 0);
    if (!ranks_.root()) prepared_bytes_ = Bytes(std::size_t(size));
    ranks_.broadcast(prepared_bytes_.data(), size, 0);
  }

  // Rank 0 creates the outputs, then checks the disk space (a file system that takes no new file,
  // read-only or /proc, says so, not that it is full); every rank opens its way of writing rows.
  OutputFormat predecessors_format() const {
    return config_.predecessors_format.value_or(config_.output_format);
  }

  void create_outputs() {
    if (config_.prepare) {  // one file, which rank 0 writes once the factor is made
      collectively(
          ranks_,
          [&] {
            if (!ranks_.root()) return;
            prepared_out_ = &outputs_.add(config_.output);
            std::uint64_t plan = 0, factor = 0;
            if (plan_.algorithm == Algorithm::sssp) {  // the graph's arrays: at most E arcs
              plan = 16 + 8 * std::uint64_t(plan_.vertices + 1) + 8 * std::uint64_t(stats_.edges);
            } else {  // the plan, and the factor's values
              plan = detail::plan_bytes(sn_plan_).size();
              factor = std::uint64_t(sn_plan_.values_start.back()) * value_bytes(plan_.distance);
            }
            check_disk_space(config_.output, prepared_file_bytes(stats_.edges, plan, factor));
          },
          false);
      return;
    }
    if (config_.measures) {  // one small file, which rank 0 writes at the end (measure)
      collectively(
          ranks_, [&] { measures_out_ = ranks_.root() ? &outputs_.add(config_.output) : nullptr; },
          false);
      return;
    }
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
            space.push_back({config_.predecessors,
                             subsets_ ? least_table_bytes(predecessors_format(), table_rows(),
                                                          table_columns(), DistanceType::int32)
                                      : least_output_bytes(predecessors_format(), plan_.vertices,
                                                           DistanceType::int32),
                             predecessors_format() == OutputFormat::text});
          check_disk_space(space);
        },
        false);
    out_ = std::make_unique<RowOutput>(ranks_, out, config_.output, config_.output_format,
                                       table_rows(), plan_.distance, table_columns());
    stats_.output_rows = out_->way_name();
    if (plan_.predecessors)
      pred_out_ =
          std::make_unique<RowOutput>(ranks_, pred, config_.predecessors, predecessors_format(),
                                      table_rows(), DistanceType::int32, table_columns());
    if (pred_out_) stats_.predecessor_rows = pred_out_->way_name();
  }

  // OUT's and P's rows and columns: V x V, or |S| x |T|.
  std::int64_t table_rows() const {
    return subsets_ ? std::int64_t(subsets_->sources.size()) : plan_.vertices;
  }
  std::int64_t table_columns() const {
    return subsets_ ? std::int64_t(subsets_->targets.size()) : plan_.vertices;
  }

  // The rows a solver hands over, into `output` row by row.
  template <class V>
  static RowSink<V> sink_into(const RowOutput::Sink& sink) {
    return [&sink](std::int64_t first, std::int64_t count, const V* rows, std::int64_t stride) {
      for (std::int64_t i = 0; i < count; ++i)
        sink(first + i, rows + i * stride);
    };
  }

  // --- commit: every rank's rows on the disk; then, once all have, rank 0 writes the record of
  // the run and commits every output together.
  void commit() {
    seconds().write_behind =
        (out_ ? out_->behind_seconds() : 0) + (pred_out_ ? pred_out_->behind_seconds() : 0);
    if (out_) seconds().out = {out_->rows(), out_->bytes()};
    if (pred_out_) seconds().pred = {pred_out_->rows(), pred_out_->bytes()};
    if (out_) out_->close();
    if (pred_out_) pred_out_->close();
    watch_.lap(seconds().commit);
    seconds().total = watch_.total();
    seconds().peak_host_bytes = peak_resident_bytes();
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
    stats_.per_rank = gather_all(ranks_, std::vector<StageSeconds>{seconds()});
    std::uint64_t bytes = 0;
    for (const StageSeconds& r : stats_.per_rank)
      bytes += r.communication_bytes;
    seconds().communication_bytes = bytes;
  }

  ExecSpace exec_;
  double in_collectives_ = 0;  // this rank's seconds in collectives so far (timed_)
  detail::TimedRanks timed_;
  Ranks& ranks_ = timed_;
  const SolveConfig& config_;
  const Progress& progress_;
  SolveStats stats_;
  Stopwatch watch_;
  Graph graph_;  // rank 0's, until partitioned
  PlanFacts facts_;
  Plan plan_;
  SupernodalPlan sn_plan_;     // rank 0's, when supernodal runs
  std::vector<Edge> edges_;    // this rank's share
  OutputTransaction outputs_;  // rank 0's: OUT, P, then the stats file
  std::unique_ptr<AtomicOutputFile> stats_out_;
  std::unique_ptr<RowOutput> out_, pred_out_;
  AtomicOutputFile* measures_out_ = nullptr;  // rank 0's, with `apsp measures`
  AtomicOutputFile* prepared_out_ = nullptr;  // rank 0's, with `apsp prepare`
  std::optional<PreparedFile> prepared_;      // rank 0's, when IN is a prepared graph
  Bytes prepared_bytes_;  // its factor (supernodal) or arrays (sssp), until the solver has them
  std::unique_ptr<Subsets> subsets_;  // with --sources or --targets
  HostProbe probe_;                   // the histogram's probe on GPUs
};

// Where a solve on `exec` may take its memory: what the device has free, and --max-memory.
template <class ExecSpace>
MemoryLimits limits_of(const ExecSpace& exec, const SolveConfig& config) {
  return MemoryLimits{available_memory(exec), config.max_memory, describe_device(exec), false};
}

// Row `source` of the predecessor matrix from one search, for `apsp path` without P: the
// distances from `source` on the host (distances_from, after the whole graph's negative-cycle
// check, which a solve of all pairs makes too), then the rule of paths.hpp on them
// (PredecessorRows, on the device) over every edge. An edge that ends a shortest path in this
// row ends a shortest path of its own, so the row is the one a solver's predecessor file holds.
// Device memory: the edges twice (as uploaded, and by source), the row and its search.
template <class T, class ExecSpace>
std::vector<int> searched_predecessor_row(const ExecSpace& exec, const SolveConfig& config,
                                          const Graph& graph, const WeightRange& weights,
                                          std::int64_t source) {
  const std::int64_t v = graph.vertices, e = std::int64_t(graph.edges.size());
  OneRank one;
  check_memory(exec, one, v,
               detail::saturating_sum(
                   {std::uint64_t(e) * sizeof(Edge), PathEdges<ExecSpace, T>::bytes(v, e),
                    matrix_bytes(1, v, sizeof(T)), PredecessorRows<ExecSpace, T>::bytes(1, v)}),
               "the edges and one row with its search", limits_of(exec, config));
  if (weights.negative())
    throw_negative_cycle(CycleVerdict{negative_closed_walk_vertex(graph.vertices, graph.edges)},
                         Distance<T>::type);
  const std::vector<double> dist = detail::distances_from(graph, weights.negative(), source).dist;
  DistanceMatrix<ExecSpace, T> row(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::path::distances"), 1, v);
  const auto host_row = Kokkos::create_mirror_view(row);
  for (std::int64_t j = 0; j < v; ++j)
    host_row(0, j) = dist[std::size_t(j)] == detail::unreachable ? Distance<T>::infinity
                                                                 : T(dist[std::size_t(j)]);
  Kokkos::deep_copy(exec, row, host_row);
  PredecessorRows<ExecSpace, T> search(
      exec, row, source, v, path_edges<T>(exec, v, upload_edges(exec, graph.edges)), 1,
      tightness_for<T>(v, weights.integers, weights.largest_magnitude()));
  const auto pred =
      Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), search.compute(source, 1));
  return std::vector<int>(pred.data(), pred.data() + v);
}

}  // namespace

SolveStats solve(const SolveConfig& config, Ranks& ranks, const Progress& progress) {
  detail::ScopedRegion region("apsp::solve");
  // Every rank knows the same backends: an unknown name fails on all of them alike; so does a
  // transport that the build or the backend cannot run.
  collectively(
      ranks,
      [&] {
        with_backend(config.backend, [&](auto exec) {
          using Space = decltype(exec);
          check_transport(config.transport, backend_name<Space>(), !detail::host_memory<Space>);
        });
      },
      false);
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

std::vector<int> predecessor_row(const SolveConfig& config, const Graph& graph,
                                 const WeightRange& weights, std::int64_t source,
                                 std::string& warning, std::optional<PreparedFile> prepared) {
  const DistanceType type = prepared
                                ? prepared_type(*prepared, "prepared graph '" + config.input + "'",
                                                config.dtype, config.algorithm)
                                : choose_distance_type(config.dtype, graph.vertices, weights);
  std::vector<int> pred;
  with_backend(config.backend, [&](auto exec) {
    visit_distance_type(type, [&](auto t) {
      using T = decltype(t);
      // One pair needs one search; a solver of all pairs only where --algorithm names one, or
      // where T's sums round (float32 above all): the search sums in double, and the answer
      // (a cycle that rounding makes or hides included) is asked in T.
      if (config.algorithm == Algorithm::automatic &&
          rounding_slack<T>(graph.vertices, weights.integers, weights.largest_magnitude()) == 0) {
        pred = searched_predecessor_row<T>(exec, config, graph, weights, source);
        return;
      }
      const GraphRequest request{config.algorithm, config.shape, config.max_memory};
      if (prepared) {  // the file's factor: its row from the factor, then its search
        check_predecessors(prepared->algorithm, true);
        PreparedGraph<decltype(exec), T> kept(exec, std::move(*prepared), request);
        warning = kept.warning();
        kept.predecessors({std::int32_t(source)}, {}, matrix_bytes(1, graph.vertices, sizeof(int)),
                          [&](std::int64_t, std::int64_t, const int* row, std::int64_t) {
                            pred.assign(row, row + graph.vertices);
                          });
        return;
      }
      // Else the solver of all pairs that the plan names, on one process (run_graph).
      Answer<decltype(exec), T> to;
      to.predecessors = [&](std::int64_t, std::int64_t, const int* row, std::int64_t) {
        pred.assign(row, row + graph.vertices);
      };
      to.predecessors_first = source;
      to.predecessors_count = 1;
      OneRank one;
      warning = run_graph(exec, one, graph, weights, request, to);
    });
  });
  return pred;
}

std::vector<NamedFile> files_of(const SolveConfig& config) {
  std::vector<NamedFile> files = {{"IN", config.input},
                                  {config.prepare ? "PREPARED" : "OUT", config.output}};
  if (!config.predecessors.empty()) files.push_back({"--predecessors", config.predecessors});
  if (!config.stats.empty()) files.push_back({"--stats", config.stats});
  if (!config.update_weights.empty()) files.push_back({"--update-weights", config.update_weights});
  return files;
}

}  // namespace apsp
