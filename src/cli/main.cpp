// The apsp command line: a thin layer over the library.
//   apsp [options] IN OUT          all-pairs shortest paths, drop-in for `./hw3 IN OUT`
//   apsp generate [options] OUT    a random, grid or road-like HW3 graph
//   apsp compare A B               first difference between two outputs (HW3, .npy, text)
//   apsp verify IN OUT             checks OUT against IN, every row where V x E allows
//   apsp path IN U V               one shortest path, computed or from saved predecessors
//   apsp measures IN OUT           eccentricities, centralities, diameter, ... without the
//   distances
// Errors: one line on stderr, exit code 2, and no output file.
#include <apsp/error.hpp>
#include <apsp/graph_measures.hpp>
#include <apsp/ranks.hpp>
#include <apsp/version.hpp>

#include "io/compare.hpp"
#include "io/output_formats.hpp"
#include "io/read_graph.hpp"
#include "platform/config.hpp"
#if defined(APSP_HAVE_MPI)
#include "platform/mpi.hpp"
#endif

#include <Kokkos_Core.hpp>

#include "io/generate.hpp"
#include "io/hw3_io.hpp"
#include "io/outputs.hpp"
#include "options.hpp"
#include "plan/tuning.hpp"
#include "platform/backends.hpp"
#include "run/pipeline.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace {

using apsp::cli::Arguments;
using apsp::cli::parse;
using apsp::cli::parse_integer;
using apsp::cli::parse_size;
using apsp::cli::parse_vertex_list;
using apsp::cli::UsageError;

// A command, checked and ready to run once MPI and Kokkos have started.
using Command = std::function<int()>;

const char* usage = R"(usage:
  apsp [options] IN OUT
      All-pairs shortest paths of the graph IN (HW3: binary int32 V E, then E triples
      src dst weight, 0 <= weight <= 1000; or a text format, see --format), written to OUT
      as V*V int32 distances (row-major, 0 on the diagonal, 1073741823 where there is no path).
      OUT "-" is standard output (also for P and --stats; ./- is a file named "-").
      --format F          format of IN: auto (default: by extension, .mtx Matrix Market,
                          .gr DIMACS, .txt .el .edges edge list 'u v w', others HW3),
                          hw3, edges, mtx or dimacs; text formats take real weights
      --dtype T           distance type: auto (default: int32 when every weight is a whole
                          number and int32 holds the paths, else float64), int32, float32
                          (exact for whole-number distances below 2^24) or float64; no path
                          is inf in float32/float64, which need --output-format npy or text
      --output-format F   hw3 (default, int32 only), text: V lines of V distances (V <= 10000;
                          floats in their shortest exact form), or npy: NumPy's .npy, a V x V
                          array of the distance type (default when OUT ends in .npy)
      --backend NAME      execution space: %s (default %s)
      --algorithm A       fw (blocked Floyd-Warshall), sssp (Dijkstra from every source,
                          host backends, needs Kokkos Kernels; int32 distances, weights
                          0..1000), supernodal (Floyd-Warshall
                          on a nested-dissection order's separator tree: sparse graphs with
                          small separators, roads, meshes; needs METIS; under mpirun
                          each rank makes the factor and its share of the rows) or
                          auto (default: the one predicted fastest for the graph and backend)
      --tile B            tile size (default: the backend's best that fits the device)
      --shape K           tile shape K of `apsp shapes` (tile, threads, register block)
      --row-threads N     supernodal on GPUs: N threads a row in the row sweeps, 1, 2 or 4
                          (the backend's most at most: NVIDIA 4, AMD 2, CPUs 1; default:
                          more where the rows made at once leave the GPU idle)
      --stats FILE        write timings and rates as JSON ("-" for stdout; the rates
                          count "updates", which "updates_counted" names; sssp has none)
      --progress          report rounds done, rate and ETA on stderr
                          (default: when stderr is a terminal)
      --max-memory SIZE   use at most SIZE bytes of device memory (K, M, G suffixes)
      --allow-negative    accept negative weights (HW3: down to -1000; Floyd-Warshall only); a
                          negative cycle is an error, "negative cycle through vertex v"
      --predecessors P    also write the predecessor matrix to P (.npy when P ends in .npy,
                          else --output-format's, else HW3): P(i,j) = the vertex
                          before j on a shortest i -> j path (among those of fewest edges,
                          the smallest), -1 for j = i and where there is no path; a function
                          of the graph alone, the same on every backend and rank count
      --sources S         only these rows (S: ids from 0 as `apsp path` numbers them, comma-
      --targets T         separated, or @FILE with one a line; order and duplicates kept): an
                          |S| x |T| table in .npy or text, P the same; supernodal and sssp
                          compute only the rows of S
  apsp path IN U V [--predecessors P] [--allow-negative] [--format F] [--dtype T]
                   [--backend NAME] [--algorithm auto|fw|supernodal] [--max-memory SIZE]
      Prints a shortest path from vertex U to vertex V of IN and its length: read from P, the
      predecessor matrix (HW3 or .npy) of an earlier run on IN (checked against IN as it is
      followed), or computed: auto by one search from U (Dijkstra; Bellman-Ford with negative
      weights, after the whole graph's negative-cycle check), fw or supernodal by that solver
      of all pairs; the same path (--predecessors' rule) either way. Exit code 1 when V cannot
      be reached from U.
  apsp measures IN OUT [--measures a,b,...] [--bins N] [options of a run]
      Measures of the graph IN without its distances, which are reduced where they are made
      (on the GPU for GPU backends): per vertex eccentricity, in_eccentricity, reachable,
      in_reachable, distance_sum, in_distance_sum, closeness_centrality and
      harmonic_centrality (NetworkX's: incoming distances, Wasserman-Faust scaling); of the
      graph diameter, radius, center, periphery, average_shortest_path_length, wiener_index
      and histogram (N bins, default 64, over [min(0, least distance), diameter], and the
      unreachable pairs). OUT ends in .json (graph and vertex measures), .csv or .npy (vertex
      measures, a row or record per vertex), or is "-": JSON on standard output. A graph that
      is not strongly connected: values over the pairs with a path, "connected": false.
      --algorithm, --dtype, --backend, --stats, --progress, --max-memory, --allow-negative,
      --format and mpirun as for a run.
  apsp prepare IN PREPARED [options of a run]
      Prepares the graph IN for many runs: PREPARED holds the graph, the plan of supernodal
      Floyd-Warshall (ordering, symbolic phase) and its numeric factor in the distance type of
      --dtype, each with a checksum (docs/USAGE.md). Every command takes PREPARED as IN, told by
      its content whatever its name (without --format): `apsp PREPARED OUT` (--sources,
      --targets, --predecessors) and `apsp measures PREPARED OUT` read the plan and factor
      instead of making them (under mpirun too; "prepared" in --stats); `apsp path` and
      `apsp verify` read its graph; `apsp path --algorithm supernodal` takes its row from the
      factor. --algorithm auto or supernodal: that plan and factor; --algorithm sssp: the
      graph's arrays instead (host backends; Dijkstra then runs from them); fw: refused, dense
      Floyd-Warshall keeps nothing smaller than its V x V distances.
  apsp prepare --update-weights NEW PREPARED_IN PREPARED_OUT [options of a run]
      New weights for a prepared graph: NEW is a graph file (any input format) of the same
      edges in the same order as PREPARED_IN's input, as its reader gives them; PREPARED_OUT
      keeps the plan and holds the factor of the new weights. Refused: other edges, a negative
      weight where PREPARED_IN had none, paths its distance type cannot hold, a negative cycle.
  apsp generate --vertices V --density P [--seed S] [--max-weight W] OUT
  apsp generate --class grid|road --vertices V [--seed S] OUT
      A random HW3 graph: each ordered pair (i, j), i != j, is an edge with probability P,
      weights uniform in [0, W] (default 1000). --class grid: a near-square 2D grid, 4-neighbour
      edges both ways, 8%% deleted, weights 1..100. --class road: a road-like geometric graph
      (random points joined to near neighbours, average degree ~2.9, connected), weights the
      lengths scaled to 1..1000. Byte-identical for the same arguments.
  apsp compare A B
      Compares two outputs by their values: HW3, .npy or text, in any pair (each told apart by
      its content), |S| x |T| tables of --sources and --targets too (.npy carries the shape,
      text has it by its lines); exit code 0 when identical, 1 when not (the shapes differ, or
      the first difference).
  apsp shapes [--backend NAME] [--dtype T]
      The tile shapes this device can run for distances of type T (default int32), the default
      first.
  apsp tune [--backend NAME] [--sizes V,V,...] [--runs N] [--dtype T]
      Times every tile shape of `apsp shapes --dtype T` (T: int32, the default, float32 or
      float64; each type has its own entries) at each size (default 512,1024,2048 on CPUs,
      4096,8192,16384 on GPUs; the median of N runs, default 3), prints the table and stores
      the fastest for each range of V in $XDG_CACHE_HOME/apsp/tuning.json (else
      ~/.cache/apsp/tuning.json); later runs on this device with distances of type T and V
      within a factor of 2 of a size measured take it ("shape_source" in --stats). Sizes
      below two of the largest tiles are too small to time.
      --tile and --shape always win; APSP_TUNING=off (0, no, false, disabled, any case)
      ignores the cache.
  apsp verify IN OUT [--exact-limit N] [--samples K] [--seed S] [--format F] [--backend NAME]
      Checks OUT against IN, streaming OUT in bounded memory. Where V x E <= N (default
      10000000000; 0: never), every row exactly, on the backend: the range, the zero diagonal,
      every edge relaxed and every finite distance the length of a path of edges that it makes
      tight (float sums that round: within their rounding, and K sampled rows besides). Else
      sampled, and it says so: K rows and columns by Dijkstra (default 8, always 0 and V-1, the
      others drawn with seed S; weights >= 0 only), on every row the range, the zero diagonal,
      d(u,v) <= w for each edge and the triangle inequality through the sampled vertices. Exit
      code 0 when every check passes, 1 at the first mismatch. --format as for solving.
  apsp --version | --help
  mpirun -np P apsp [options] IN OUT (an MPI build)
      The same job on P ranks, one device each: every option, the same output bytes.
      --transport T       how Floyd-Warshall's pivot rows go between GPUs: nccl (a build with
                          -DAPSP_ENABLE_NCCL=ON), ipc (ranks of one node, distinct GPUs), host
                          (through host memory and MPI) or auto (default: the first of these
                          that every rank can run; a named one that cannot falls back to
                          host with a warning); ranks sharing a GPU use host; host backends
                          take auto or host ("transport" in --stats)
  Kokkos options (--kokkos-threads=N, --kokkos-device-id=N, ...) are passed to Kokkos.
)";

#if defined(APSP_HAVE_MPI)
constexpr bool have_mpi = true;
#else
constexpr bool have_mpi = false;
#endif

// Under mpirun every rank runs this program and fails alike (the solver makes all ranks agree on
// one error): rank 0 speaks for all.
bool reports_errors() {
#if defined(APSP_HAVE_MPI)
  return apsp::MpiSession::rank() == 0;
#else
  return true;
#endif
}

std::string backend_list() {
  std::string names;
  for (const auto& n : apsp::backend_names())
    names += (names.empty() ? "" : ", ") + n;
  return names;
}

void print_usage(std::FILE* to) {
  std::fprintf(to, usage, backend_list().c_str(), apsp::default_backend_name().c_str());
}

std::optional<apsp::DistanceType> dtype_option(const std::string& value) {
  apsp::DistanceType type;
  if (value == "auto") return std::nullopt;
  if (!apsp::distance_type_named(value, type))
    throw UsageError("--dtype expects auto, int32, float32 or float64, got '" + value + "'");
  return type;
}

apsp::Format format_option(const std::string& value) {
  const auto format = apsp::format_named(value);
  if (!format)
    throw UsageError("--format expects auto, hw3, edges, mtx or dimacs, got '" + value + "'");
  return *format;
}

// "[apsp] round 12/40 (30.0%), 9.1 G updates/s, ETA 3.2 s" (or "row block 3/11 ...") on
// stderr, at most every two seconds, and at the end.
class ProgressLine {
 public:
  void operator()(const apsp::ProgressStep& step) {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (elapsed < printed_ + 2.0 && step.done < step.total) return;
    printed_ = elapsed;
    const double fraction = step.fraction;
    std::fprintf(stderr, "\r[apsp] %s %d/%d (%5.1f%%), %.3g G updates/s, ETA %.1f s   %s",
                 step.unit, step.done, step.total, 100 * fraction, step.updates / elapsed / 1e9,
                 elapsed / fraction - elapsed, step.done == step.total ? "\n" : "");
    std::fflush(stderr);
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  double printed_ = 0;  // seconds after start_ of the last line
};

// The run on this process's ranks: every rank of mpirun in an MPI build (one process is one
// rank), one rank otherwise.
int run_solve(const apsp::SolveConfig& config, bool progress) {
  apsp::Progress report;
  if (progress) report = ProgressLine();
#if defined(APSP_HAVE_MPI)
  const std::unique_ptr<apsp::Ranks> ranks = apsp::MpiSession::active()
                                                 ? apsp::mpi::ranks(MPI_COMM_WORLD)
                                                 : std::make_unique<apsp::OneRank>();
#else
  const std::unique_ptr<apsp::Ranks> ranks = std::make_unique<apsp::OneRank>();
#endif
  const apsp::SolveStats stats = apsp::solve(config, *ranks, report);
  for (const std::string& warning : stats.warnings)
    std::fprintf(stderr, "apsp: warning: %s\n", warning.c_str());
  return 0;
}

// The options of a run that every solving subcommand takes (apsp IN OUT, apsp measures).
const std::vector<std::string> run_options = {
    "--backend",    "--tile",      "--shape", "--stats",     "--format",
    "--max-memory", "--algorithm", "--dtype", "--transport", "--row-threads"};
const std::vector<std::string> run_flags = {"--progress", "--allow-negative"};

// One option of run_options or run_flags into the configuration.
void run_option(const std::string& name, const std::string& value, apsp::SolveConfig& config,
                std::string& stats_path, bool& progress) {
  if (name == "--backend") config.backend = value;
  if (name == "--tile") config.shape.tile = int(parse_integer(name, value, 1, 1024));
  if (name == "--shape") config.shape.shape = int(parse_integer(name, value, 0, 64));
  if (name == "--row-threads") {
    const int threads = int(parse_integer(name, value, 1, 4));
    if (threads == 3) throw UsageError("--row-threads expects 1, 2 or 4, got '" + value + "'");
    config.row_threads = threads;
  }
  if (name == "--stats") stats_path = value;
  if (name == "--progress") progress = true;
  if (name == "--max-memory") config.max_memory = parse_size(name, value);
  if (name == "--allow-negative") config.allow_negative = true;
  if (name == "--format") config.format = format_option(value);
  if (name == "--dtype") config.dtype = dtype_option(value);
  if (name == "--algorithm") {
    const auto algorithm = apsp::algorithm_named(value);
    if (!algorithm)
      throw UsageError("--algorithm expects auto, fw, sssp or supernodal, got '" + value + "'");
    config.algorithm = *algorithm;
  }
  if (name == "--transport") {
    const auto transport = apsp::transport_named(value);
    if (!transport)
      throw UsageError("--transport expects auto, nccl, ipc or host, got '" + value + "'");
    config.transport = *transport;
  }
}

// The stats are one of the run's outputs, standard output ("-") too: written before any output
// is committed, so that a failed write there commits none.
void stats_option(const Arguments& args, const std::string& stats_path, apsp::SolveConfig& config) {
  config.stats = stats_path;
  if (stats_path.empty() && std::any_of(args.options.begin(), args.options.end(),
                                        [](const auto& o) { return o.first == "--stats"; }))
    throw UsageError("--stats is an empty file name");
}

Command solve(int argc, char** argv) {
  std::vector<std::string> with_value = run_options;
  with_value.insert(with_value.end(),
                    {"--output-format", "--predecessors", "--sources", "--targets"});
  const Arguments args = parse(argc, argv, 1, with_value, run_flags);
  if (args.positional.size() != 2)
    throw UsageError("expected IN and OUT (see apsp --help), got " +
                     std::to_string(args.positional.size()) + " file names");
  apsp::SolveConfig config;
  config.input = args.positional[0];
  config.output = args.positional[1];
  std::string stats_path;
  bool progress = isatty(STDERR_FILENO);
  for (const auto& [name, value] : args.options) {
    run_option(name, value, config, stats_path, progress);
    if (name == "--predecessors") config.predecessors = value;
    if (name == "--sources") config.sources = parse_vertex_list(name, value);
    if (name == "--targets") config.targets = parse_vertex_list(name, value);
    if (name == "--output-format") {
      const auto format = apsp::output_format_named(value);
      if (!format)
        throw UsageError("--output-format expects hw3, text or npy, got '" + value + "'");
      config.output_format = *format;
    }
  }
  // Without --output-format, each output's own name decides: .npy (any case) is NumPy's format,
  // anything else HW3; so p.npy beside an HW3 OUT is an .npy file, never raw int32 under that
  // name. With it, OUT and P take it, except that a P named .npy is always .npy.
  const bool format_given = std::any_of(args.options.begin(), args.options.end(),
                                        [](const auto& o) { return o.first == "--output-format"; });
  if (!format_given) config.output_format = apsp::output_format_of(config.output);
  if (!config.predecessors.empty())
    config.predecessors_format =
        apsp::output_format_of(config.predecessors) == apsp::OutputFormat::npy
            ? apsp::OutputFormat::npy
        : format_given ? config.output_format
                       : apsp::OutputFormat::hw3;
  const bool hw3 =
      config.output_format == apsp::OutputFormat::hw3 ||
      (!config.predecessors.empty() && config.predecessors_format == apsp::OutputFormat::hw3);
  if ((config.sources || config.targets) && hw3)
    throw UsageError(
        "--sources and --targets write an |S| x |T| table, and HW3 output carries no shape: name "
        "OUT (and P) .npy, or use --output-format npy or text");
  stats_option(args, stats_path, config);
  if (std::any_of(args.options.begin(), args.options.end(),
                  [](const auto& o) { return o.first == "--predecessors" && o.second.empty(); }))
    throw UsageError("--predecessors is an empty file name");
  // Before anything starts: no two of IN, OUT, P and the stats file may be one file, nor two of
  // them standard output ("-").
  apsp::check_distinct_files(apsp::files_of(config));
  return [config, progress] { return run_solve(config, progress); };
}

// A run of the solver on IN into one file (`second` names it: OUT, PREPARED) with the options of
// a run and `extra` options of its own, each handed to `take` after run_option; `finish` then
// completes the config.
using TakeOption =
    std::function<void(const std::string& name, const std::string& value, apsp::SolveConfig&)>;
Command solver_command(int argc, char** argv, const std::string& subcommand,
                       const std::string& second, const std::vector<std::string>& extra,
                       apsp::SolveConfig config, const TakeOption& take,
                       const std::function<void(apsp::SolveConfig&)>& finish = {}) {
  std::vector<std::string> with_value = run_options;
  with_value.insert(with_value.end(), extra.begin(), extra.end());
  const Arguments args = parse(argc, argv, 2, with_value, run_flags);
  if (args.positional.size() != 2)
    throw UsageError(subcommand + " expects IN and " + second + " (see apsp --help), got " +
                     std::to_string(args.positional.size()) + " file names");
  config.input = args.positional[0];
  config.output = args.positional[1];
  std::string stats_path;
  bool progress = isatty(STDERR_FILENO);
  for (const auto& [name, value] : args.options) {
    run_option(name, value, config, stats_path, progress);
    take(name, value, config);
  }
  stats_option(args, stats_path, config);
  if (finish) finish(config);
  apsp::check_distinct_files(apsp::files_of(config));
  return [config, progress] { return run_solve(config, progress); };
}

// apsp measures IN OUT: the measures of the graph instead of its distances.
Command measures(int argc, char** argv) {
  std::string list;
  int bins = 64;
  return solver_command(
      argc, argv, "measures", "OUT", {"--measures", "--bins"}, {},
      [&](const std::string& name, const std::string& value, apsp::SolveConfig&) {
        if (name == "--measures" && value.empty())
          throw UsageError("--measures is empty: name the measures, or leave it out for all");
        if (name == "--measures") list = value;
        if (name == "--bins") bins = int(parse_integer(name, value, 1, apsp::max_histogram_bins));
      },
      [&](apsp::SolveConfig& config) {
        config.measures =
            apsp::measures_request(apsp::measures_format_of(config.output), list, bins);
      });
}

// apsp prepare IN PREPARED: the graph with its plan and factor, for later runs.
Command prepare_graph(int argc, char** argv) {
  apsp::SolveConfig config;
  config.prepare = true;
  return solver_command(
      argc, argv, "prepare", "PREPARED", {"--update-weights"}, config,
      [](const std::string& name, const std::string& value, apsp::SolveConfig& c) {
        if (name == "--update-weights" && value.empty())
          throw UsageError("--update-weights is an empty file name");
        if (name == "--update-weights") c.update_weights = value;
      });
}

Command generate(int argc, char** argv) {
  const Arguments args =
      parse(argc, argv, 2, {"--class", "--vertices", "--density", "--seed", "--max-weight"}, {});
  if (args.positional.size() != 1) throw UsageError("generate expects one output file name");
  apsp::GenerateConfig config;
  bool have_vertices = false, have_density = false, have_max_weight = false;
  for (const auto& [name, value] : args.options) {
    if (name == "--class") {
      const auto graph_class = apsp::graph_class_named(value);
      if (!graph_class)
        throw UsageError("--class expects random, grid or road, got '" + value + "'");
      config.graph_class = *graph_class;
    }
    if (name == "--vertices") {
      config.vertices = std::int32_t(parse_integer(name, value, 1, INT32_MAX));
      have_vertices = true;
    }
    if (name == "--density") {
      char* end = nullptr;
      config.density = std::strtod(value.c_str(), &end);
      if (value.empty() || *end != '\0' || !(config.density >= 0 && config.density <= 1))
        throw UsageError("--density expects a number in [0, 1], got '" + value + "'");
      have_density = true;
    }
    if (name == "--seed") config.seed = std::uint64_t(parse_integer(name, value, 0, INT64_MAX));
    if (name == "--max-weight") {
      config.max_weight = int(parse_integer(name, value, 0, 1000));
      have_max_weight = true;
    }
  }
  if (!have_vertices) throw UsageError("generate needs --vertices");
  if (config.graph_class == apsp::GraphClass::random && !have_density)
    throw UsageError("generate needs --density (or --class grid or road)");
  if (config.graph_class != apsp::GraphClass::random && (have_density || have_max_weight))
    throw UsageError(
        "--density and --max-weight are for --class random; grid and road graphs "
        "have fixed parameters");
  const std::string out = args.positional[0];
  apsp::check_distinct_files({{"OUT", out}});
  return [config, out] {
    const std::int64_t edges = apsp::generate_hw3(config, out);
    std::fprintf(stderr, "[apsp] wrote %s: V = %d, E = %lld\n", out.c_str(), config.vertices,
                 static_cast<long long>(edges));
    return 0;
  };
}

int shapes(int argc, char** argv) {
  const Arguments args = parse(argc, argv, 2, {"--backend", "--dtype"}, {});
  if (!args.positional.empty()) throw UsageError("shapes takes no file names");
  std::string backend;
  apsp::DistanceType type = apsp::DistanceType::int32;
  for (const auto& [name, value] : args.options) {
    if (name == "--backend") backend = value;
    if (name == "--dtype") {
      if (value == "auto")
        throw UsageError("shapes --dtype names a type: int32, float32 or float64");
      type = *dtype_option(value);
    }
  }
  for (const auto& shape : apsp::shapes_of(backend, type))
    std::printf("%d: %s\n", shape.index, shape.name.c_str());
  return 0;
}

int tune(int argc, char** argv) {
  const Arguments args = parse(argc, argv, 2, {"--backend", "--sizes", "--runs", "--dtype"}, {});
  if (!args.positional.empty()) throw UsageError("tune takes no file names");
  apsp::TuneConfig config;
  for (const auto& [name, value] : args.options) {
    if (name == "--backend") config.backend = value;
    if (name == "--runs") config.runs = int(parse_integer(name, value, 1, 100));
    if (name == "--dtype") {
      if (value == "auto") throw UsageError("tune --dtype names a type: int32, float32 or float64");
      config.dtype = *dtype_option(value);
    }
    if (name == "--sizes") {
      config.sizes.clear();
      for (const std::string& size : apsp::cli::split_list(value))
        config.sizes.push_back(parse_integer(name, size, 1, 1 << 20));
    }
  }
  std::string unknown;
  if (!apsp::tuning_enabled(&unknown))
    std::fprintf(stderr,
                 "apsp: note: %s: the results are stored, but runs ignore them until it is "
                 "unset\n",
                 unknown.empty() ? "APSP_TUNING is off" : unknown.c_str());
  bool header = false;  // printed with the first row: an error comes alone
  const apsp::TuneResult result = apsp::tune(config, [&header](const apsp::TuneRow& row) {
    if (!std::exchange(header, true)) std::printf("%8s  %-64s %14s\n", "V", "shape", "G updates/s");
    std::string rate = row.rate > 0 ? std::to_string(row.rate / 1e9) : "not timed";
    if (row.rate > 0) rate.resize(rate.find('.') + 3);
    std::printf("%8lld  %-64s %14s%s%s\n", static_cast<long long>(row.vertices),
                (std::to_string(row.index) + ": " + row.name).c_str(), rate.c_str(),
                row.is_default ? "  (default)" : "", row.chosen ? "  <- chosen" : "");
    std::fflush(stdout);
  });
  std::printf("%s on %s (%s, %s): stored in %s\n", result.key.backend.c_str(),
              result.key.device.c_str(), result.key.isa.c_str(), result.key.dtype.c_str(),
              result.cache.c_str());
  for (const apsp::TunedShape& e : result.entries) {
    const std::string upper = e.max_vertices == INT64_MAX ? "" : std::to_string(e.max_vertices);
    std::printf(
        "  V %lld-%s: %dx%d tile, %dx%d threads, %dx%d registers (%.2f G; default %.2f G)\n",
        static_cast<long long>(e.min_vertices), upper.c_str(), e.shape.tile, e.shape.tile,
        e.shape.team_rows, e.shape.team_cols, e.shape.reg_rows, e.shape.reg_cols, e.rate / 1e9,
        e.default_rate / 1e9);
  }
  return 0;
}

int compare(int argc, char** argv) {
  const Arguments args = parse(argc, argv, 2, {}, {});
  if (args.positional.size() != 2) throw UsageError("compare expects two file names");
  const apsp::Comparison result = apsp::compare_outputs(args.positional[0], args.positional[1]);
  std::printf("%s\n", result.message.c_str());
  return result.identical ? 0 : 1;
}

int run_path(const apsp::SolveConfig& config, long long source, long long target) {
  const apsp::ShortestPath found = apsp::find_path(config, source, target);
  for (const std::string& warning : found.warnings)
    std::fprintf(stderr, "apsp: warning: %s\n", warning.c_str());
  if (!found.reachable) {
    std::printf("%lld -> %lld: no path\n", source, target);
    return 1;
  }
  const std::size_t edges = found.vertices.size() - 1;
  std::printf("%lld -> %lld: length %s, %zu edge%s\n", source, target,
              apsp::number_text(found.length).c_str(), edges, edges == 1 ? "" : "s");
  std::string line;
  for (const int v : found.vertices)
    line += (line.empty() ? "" : " ") + std::to_string(v);
  std::printf("%s\n", line.c_str());
  return 0;
}

Command path(int argc, char** argv) {
  const Arguments args =
      parse(argc, argv, 2,
            {"--predecessors", "--format", "--backend", "--max-memory", "--dtype", "--algorithm"},
            {"--allow-negative"});
  if (args.positional.size() != 3) throw UsageError("path expects IN, U and V (see apsp --help)");
  apsp::SolveConfig config;
  config.input = args.positional[0];
  const long long source = parse_integer("U", args.positional[1], 0, INT32_MAX - 1);
  const long long target = parse_integer("V", args.positional[2], 0, INT32_MAX - 1);
  for (const auto& [name, value] : args.options) {
    if (name == "--predecessors") config.predecessors = value;
    if (name == "--backend") config.backend = value;
    if (name == "--max-memory") config.max_memory = parse_size(name, value);
    if (name == "--allow-negative") config.allow_negative = true;
    if (name == "--format") config.format = format_option(value);
    if (name == "--dtype") config.dtype = dtype_option(value);
    if (name == "--algorithm") {
      const auto algorithm = apsp::algorithm_named(value);
      if (!algorithm || *algorithm == apsp::Algorithm::sssp)
        throw UsageError("path's --algorithm expects auto, fw or supernodal, got '" + value + "'");
      config.algorithm = *algorithm;
    }
    if (name == "--predecessors" && value.empty())
      throw UsageError("--predecessors is an empty file name");
  }
  if (config.input.empty()) throw UsageError("IN is an empty file name");
  return [config, source, target] { return run_path(config, source, target); };
}

// A library error with the command line's advice: the option that would help (the library
// knows no options, error.hpp).
std::string in_our_words(const apsp::Error& e) {
  using Kind = apsp::ErrorFacts::Kind;
  const apsp::ErrorFacts& facts = e.facts();
  std::string message = e.what();
  switch (facts.kind) {
    case Kind::distance_type:
      if (facts.suggested_type >= 0)
        message += std::string(": use --dtype ") +
                   apsp::distance_type_name(apsp::DistanceType(facts.suggested_type));
      break;
    case Kind::negative_cycle:
      // float32's rounding made or hid the cycle: the way out is the type of the check.
      if (facts.rounding == apsp::NegativeCycleError::made)
        message += "; --dtype float64 gives the distances";
      if (facts.rounding == apsp::NegativeCycleError::hidden)
        message += "; --dtype float64 finds it too";
      break;
    case Kind::shape:
      message += " (see apsp shapes)";
      break;
    case Kind::memory:
      if (facts.capped)
        message += " (--max-memory)";
      else if (facts.host)
        message += ": use a machine with more memory";
      else if (facts.sharing > 1)
        message += ": run fewer ranks on each device, or on more devices";
      else if (facts.fitting_ranks > 1)
        message += ": run on a device with more memory, or over " +
                   std::to_string(facts.fitting_ranks) + " devices with mpirun -np " +
                   std::to_string(facts.fitting_ranks) + (have_mpi ? "" : " (an MPI build)");
      else
        message += ": run on a device with more memory, or over several with mpirun -np K" +
                   std::string(have_mpi ? "" : " (an MPI build)");
      break;
    default:
      break;
  }
  return message;
}

}  // namespace

namespace apsp::cli {
int verify(int argc, char** argv);  // src/cli/verify.cpp
}

// The subcommand's arguments, checked; its work as a Command. Subcommands that write outputs
// check everything before anything starts; the others parse when they run (Kokkos has then
// taken its own arguments out of argv).
Command prepare(int& argc, char**& argv) {
  apsp::cli::check_kokkos_options(argc, argv);
  const std::string subcommand = argc > 1 ? argv[1] : "";
  if (subcommand == "generate") return generate(argc, argv);
  if (subcommand == "path") return path(argc, argv);
  if (subcommand == "measures") return measures(argc, argv);
  if (subcommand == "prepare") return prepare_graph(argc, argv);
  if (subcommand == "compare") return [&argc, &argv] { return compare(argc, argv); };
  if (subcommand == "shapes") return [&argc, &argv] { return shapes(argc, argv); };
  if (subcommand == "tune") return [&argc, &argv] { return tune(argc, argv); };
  if (subcommand == "verify") return [&argc, &argv] { return apsp::cli::verify(argc, argv); };
  return solve(argc, argv);
}

// The exit code once what went to standard output through stdio (path, compare, shapes, tune,
// verify, --help, --version) is out: a write that failed there (standard output closed at the
// start, a full disk, a broken pipe while SIGPIPE is ignored) fails the run like any other write.
int with_standard_output_written(int code) {
  errno = 0;
  if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return code;
  const std::string why = apsp::standard_output_closed() ? "it is closed"
                          : errno != 0                   ? std::strerror(errno)
                                                         : "a write failed";
  if (reports_errors())
    std::fprintf(stderr, "apsp: error: cannot write standard output: %s\n", why.c_str());
  return 2;
}

int main(int argc, char** argv) {
  // First: a descriptor opened while 0, 1 or 2 is closed would take its number (outputs.hpp).
  if (!apsp::hold_standard_streams()) {
    std::fprintf(stderr,
                 "apsp: error: started with descriptor 0, 1 or 2 closed, and /dev/null "
                 "cannot be opened in its place\n");
    return 2;
  }
  apsp::remove_temporaries_on_signals();
  // Kokkos' OpenMP backend prints four lines of advice at every start when OMP_PROC_BIND is
  // unset; the OpenMP runtime has read its environment by now, so setting it here changes no
  // binding, only silences the advice. Users who want threads bound set OMP_PROC_BIND and
  // OMP_PLACES themselves (docs/USAGE.md, "The command line").
  setenv("OMP_PROC_BIND", "false", 0);
  // CUDA loads kernels lazily by default, and some loading still lands in the first rounds
  // after the warm-up; loading them all at start-up costs less than that (docs/PERFORMANCE.md,
  // entry 8, has the measurements). A user's own CUDA_MODULE_LOADING wins.
  setenv("CUDA_MODULE_LOADING", "EAGER", 0);
  // --help and --version need no device: they answer on a node without one too. Help asked
  // for anywhere is ours, never Kokkos' page followed by an error.
  const std::string command = argc > 1 ? argv[1] : "";
  if (apsp::cli::asks_for_help(argc, argv)) {
    print_usage(stdout);
    return with_standard_output_written(0);
  }
  if (command == "--version") {
    std::printf("apsp %s, Kokkos %s, backends: %s\n", APSP_VERSION, apsp::kokkos_version().c_str(),
                backend_list().c_str());
    return with_standard_output_written(0);
  }
#if defined(APSP_HAVE_MPI)
  // Before Kokkos: it gives each rank its own device. The threads that MPI starts inherit the
  // held signals, so that every signal reaches this thread (apsp::HeldSignals). Started by no
  // MPI launcher, the program is one rank without MPI (MpiSession::launched).
  std::optional<apsp::MpiSession> mpi;
  if (apsp::MpiSession::launched()) {
    const apsp::HeldSignals held;
    mpi.emplace(argc, argv);
  }
#endif
  std::optional<Kokkos::ScopeGuard> kokkos;
  try {
    const Command run = prepare(argc, argv);
    {
      // Kokkos takes (and removes) its own --kokkos-* arguments. Starting it can fail (a GPU
      // build on a node without the GPU, or under an address-space limit): that is one error
      // line like any other, never Kokkos' own lines. Its threads start with the ending signals
      // held off, as MPI's.
      const apsp::HeldSignals held;
      try {
        kokkos.emplace(argc, argv);
      } catch (const std::exception& e) {
        throw apsp::Error(apsp::kokkos_start_failure(e));
      }
    }
    return with_standard_output_written(run());
  } catch (const UsageError& e) {
    if (reports_errors()) std::fprintf(stderr, "apsp: %s\n", e.what());
    return 2;
  } catch (const apsp::Error& e) {
    if (reports_errors()) std::fprintf(stderr, "apsp: error: %s\n", in_our_words(e).c_str());
    return 2;
  } catch (const std::bad_alloc&) {
    if (reports_errors()) std::fprintf(stderr, "apsp: error: out of memory\n");
    return 2;
  } catch (const std::exception& e) {
    if (reports_errors()) std::fprintf(stderr, "apsp: error: %s\n", e.what());
    return 2;
  }
}
