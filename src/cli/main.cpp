// The apsp command line: a thin layer over the library.
//   apsp [options] IN OUT          all-pairs shortest paths, drop-in for `./hw3 IN OUT`
//   apsp generate [options] OUT    a random HW3 graph
//   apsp compare A B               first difference between two HW3 outputs
//   apsp verify IN OUT             checks OUT against IN without recomputing all pairs
//   apsp path IN U V               one shortest path, computed or from saved predecessors
// Errors: one line on stderr, exit code 2, and no output file.
#include <apsp/backends.hpp>
#include <apsp/error.hpp>
#include <apsp/formats.hpp>
#include <apsp/generate.hpp>
#include <apsp/hw3_io.hpp>
#include <apsp/solve.hpp>
#include <apsp/version.hpp>
#if defined(APSP_HAVE_MPI)
#include <apsp/distributed.hpp>
#endif

#include <Kokkos_Core.hpp>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace {

const char* usage = R"(usage:
  apsp [options] IN OUT
      All-pairs shortest paths of the graph IN (HW3: binary int32 V E, then E triples
      src dst weight, 0 <= weight <= 1000; or a text format, see --format), written to OUT
      as V*V int32 distances (row-major, 0 on the diagonal, 1073741823 where there is no path).
      --format F          format of IN: auto (default: by extension, .mtx Matrix Market,
                          .gr DIMACS, .txt .el .edges edge list 'u v w', others HW3),
                          hw3, edges, mtx or dimacs
      --output-format F   hw3 (default), or text: V lines of V distances (V <= 10000)
      --backend NAME      execution space: %s (default %s)
      --algorithm A       fw (blocked Floyd-Warshall), sssp (Dijkstra from every source,
                          host backends, needs Kokkos Kernels) or auto (default: sssp for
                          sparse graphs on a host backend when available, else fw)
      --tile B            tile size (default: the backend's best that fits the device)
      --shape K           tile shape K of `apsp shapes` (tile, threads, register block)
      --stats FILE        write timings and rates as JSON ("-" for stdout)
      --progress          report rounds done, rate and ETA on stderr
                          (default: when stderr is a terminal)
      --max-memory SIZE   use at most SIZE bytes of device memory (K, M, G suffixes)
      --allow-negative    accept negative weights (-1000 to 1000; Floyd-Warshall only); a
                          negative cycle is an error, "negative cycle through vertex v"
      --predecessors P    also write the predecessor matrix to P, like OUT: P(i,j) = the vertex
                          before j on a shortest i -> j path (among those of fewest edges,
                          the smallest), -1 for j = i and where there is no path; a function
                          of the graph alone, the same on every backend (one process)
  apsp path IN U V [--predecessors P] [--allow-negative] [--format F] [--backend NAME]
      Prints a shortest path from vertex U to vertex V of IN and its length: read from P, the
      HW3 predecessor matrix of an earlier run on IN (checked against IN as it is followed),
      or computed. Exit code 1 when V cannot be reached from U.
  apsp generate --vertices V --density P [--seed S] [--max-weight W] OUT
      A random HW3 graph: each ordered pair (i, j), i != j, is an edge with probability P,
      weights uniform in [0, W] (default 1000). Byte-identical for the same arguments.
  apsp compare A B
      Compares two HW3 outputs; exit code 0 when identical, 1 when not.
  apsp shapes [--backend NAME]
      The tile shapes this device can run, the default first.
  apsp verify IN OUT [--samples K] [--seed S] [--format F]
      Checks OUT against IN without recomputing all pairs, streaming OUT in bounded memory:
      K rows and columns exactly by Dijkstra (default 8, always vertices 0 and V-1; the others
      drawn with seed S), and on every row the range, the zero diagonal, d(u,v) <= w for each
      edge and the triangle inequality through the sampled vertices. Exit code 0 when every
      check passes, 1 at the first mismatch. --format as for solving.
  apsp --version | --help
  Kokkos options (--kokkos-threads=N, --kokkos-device-id=N, ...) are passed to Kokkos.
)";

struct UsageError : apsp::Error {
  using apsp::Error::Error;
};

// Under mpirun every rank runs this program and fails alike (the solver makes all ranks agree on
// one error): rank 0 speaks for all.
bool reports_errors() {
#if defined(APSP_HAVE_MPI)
  return apsp::MpiSession::rank() == 0;
#else
  return true;
#endif
}

// Ctrl-C (SIGINT) or SIGTERM must leave no partial output, but a signal handler cannot run the
// destructors that remove temporary files. So AtomicOutputFile reports its temporaries here
// (apsp::temporary_file_hook), into fixed buffers that the handler can read without
// allocating; the handler unlinks them and dies of the same signal, so that the parent sees
// how the process ended. Outputs are created by one thread only.
struct TemporarySlot {
  char path[4096];
  volatile std::sig_atomic_t used;
};
TemporarySlot temporary_outputs[4];

void track_temporary(const char* path, bool exists) {
  for (auto& slot : temporary_outputs) {
    if (exists && !slot.used && std::strlen(path) < sizeof slot.path) {
      std::strcpy(slot.path, path);
      std::atomic_signal_fence(std::memory_order_seq_cst);  // the path before the flag
      slot.used = 1;
      return;
    }
    if (!exists && slot.used && std::strcmp(slot.path, path) == 0) {
      slot.used = 0;
      return;
    }
  }
}

void remove_temporaries_and_die(int signal_number) {
  for (auto& slot : temporary_outputs)
    if (slot.used) unlink(slot.path);
  // SA_RESETHAND and SA_NODEFER: the default action is back and the signal is not blocked, so
  // this kills the process now.
  std::raise(signal_number);
  _exit(128 + signal_number);
}

void remove_temporaries_on_signals() {
  apsp::temporary_file_hook = track_temporary;
  struct sigaction action = {};
  action.sa_handler = remove_temporaries_and_die;
  action.sa_flags = SA_RESETHAND | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  for (const int signal : {SIGINT, SIGTERM}) {
    struct sigaction inherited;
    // A signal the parent ignores stays ignored (a script's background job survives Ctrl-C).
    if (sigaction(signal, nullptr, &inherited) == 0 && inherited.sa_handler == SIG_IGN) continue;
    sigaction(signal, &action, nullptr);
  }
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

long long parse_integer(const std::string& option, const std::string& text, long long lo,
                        long long hi) {
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE || value < lo || value > hi)
    throw UsageError(option + " expects an integer in [" + std::to_string(lo) + ", " +
                     std::to_string(hi) + "], got '" + text + "'");
  return value;
}

std::uint64_t parse_size(const std::string& option, const std::string& text) {
  std::string digits = text;
  std::uint64_t scale = 1;
  if (!digits.empty()) {
    const char suffix = char(std::toupper(static_cast<unsigned char>(digits.back())));
    const std::string units = "KMGT";
    const auto u = units.find(suffix);
    if (u != std::string::npos) {
      scale = 1ull << (10 * (u + 1));
      digits.pop_back();
    }
  }
  return std::uint64_t(parse_integer(option, digits, 1, (1ll << 50))) * scale;
}

apsp::Format format_option(const std::string& value) {
  const auto format = apsp::format_named(value);
  if (!format)
    throw UsageError("--format expects auto, hw3, edges, mtx or dimacs, got '" + value + "'");
  return *format;
}

// Splits argv into options (with their values) and positional arguments.
struct Arguments {
  std::vector<std::string> positional;
  std::vector<std::pair<std::string, std::string>> options;
};
Arguments parse(int argc, char** argv, int first, const std::vector<std::string>& with_value,
                const std::vector<std::string>& flags) {
  Arguments args;
  for (int i = first; i < argc; ++i) {
    std::string a = argv[i];
    if (a.size() > 1 && a[0] == '-' && a != "-") {
      std::string value;
      const auto eq = a.find('=');
      if (eq != std::string::npos) {
        value = a.substr(eq + 1);
        a = a.substr(0, eq);
      }
      bool takes_value = false, known = false;
      for (const auto& o : with_value)
        takes_value = takes_value || o == a;
      for (const auto& f : flags)
        known = known || f == a;
      if (takes_value) {
        if (eq == std::string::npos) {
          if (i + 1 >= argc) throw UsageError(a + " needs a value");
          value = argv[++i];
        }
      } else if (!known) {
        throw UsageError("unknown option '" + a + "' (see apsp --help)");
      }
      args.options.emplace_back(a, value);
    } else {
      args.positional.push_back(a);
    }
  }
  return args;
}

class ProgressLine {
 public:
  // V = 0 when it is not known in advance: no rate then.
  explicit ProgressLine(std::int64_t vertices) : vertices_(vertices), start_(Clock::now()) {}
  void operator()(int done, int total) {
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    if (elapsed < 2.0 && done < total) return;
    const double fraction = double(done) / total;
    const double v = double(vertices_);
    const double rate = v * v * v * fraction / elapsed;
    char rate_text[32] = "";
    if (vertices_ > 0) std::snprintf(rate_text, sizeof rate_text, ", %.3g G updates/s", rate / 1e9);
    std::fprintf(stderr, "\r[apsp] round %d/%d (%5.1f%%)%s, ETA %.1f s   %s", done, total,
                 100 * fraction, rate_text, elapsed / fraction - elapsed,
                 done == total ? "\n" : "");
    std::fflush(stderr);
  }

 private:
  using Clock = std::chrono::steady_clock;
  std::int64_t vertices_;
  Clock::time_point start_;
};

int solve(int argc, char** argv) {
  const Arguments args = parse(argc, argv, 1,
                               {"--backend", "--tile", "--shape", "--stats", "--max-memory",
                                "--format", "--output-format", "--algorithm", "--predecessors"},
                               {"--progress", "--allow-negative"});
  if (args.positional.size() != 2)
    throw UsageError("expected IN and OUT (see apsp --help), got " +
                     std::to_string(args.positional.size()) + " file names");
  apsp::SolveConfig config;
  config.input = args.positional[0];
  config.output = args.positional[1];
  std::string stats_path;
  bool progress = isatty(STDERR_FILENO);
  for (const auto& [name, value] : args.options) {
    if (name == "--backend") config.backend = value;
    if (name == "--tile") config.options.tile = int(parse_integer(name, value, 1, 1024));
    if (name == "--shape") config.options.shape = int(parse_integer(name, value, 0, 64));
    if (name == "--stats") stats_path = value;
    if (name == "--progress") progress = true;
    if (name == "--max-memory") config.max_memory = parse_size(name, value);
    if (name == "--allow-negative") config.allow_negative = true;
    if (name == "--predecessors") config.predecessors = value;
    if (name == "--format") config.format = format_option(value);
    if (name == "--algorithm") {
      const auto algorithm = apsp::algorithm_named(value);
      if (!algorithm) throw UsageError("--algorithm expects auto, fw or sssp, got '" + value + "'");
      config.algorithm = *algorithm;
    }
    if (name == "--output-format") {
      if (value != "hw3" && value != "text")
        throw UsageError("--output-format expects hw3 or text, got '" + value + "'");
      config.output_format = value == "text" ? apsp::OutputFormat::text : apsp::OutputFormat::hw3;
    }
  }
  // Check the input header for V before the progress line needs it; the solver reads it again.
  // Text formats have no V to peek at cheaply.
  std::unique_ptr<ProgressLine> line;
  if (progress) {
    std::int32_t header[2] = {0, 0};
    const apsp::Format format =
        config.format == apsp::Format::automatic ? apsp::format_of(config.input) : config.format;
    std::ifstream in(config.input, std::ios::binary);
    if (format == apsp::Format::hw3) in.read(reinterpret_cast<char*>(header), sizeof header);
    line = std::make_unique<ProgressLine>(header[0]);
    config.options.progress = [&line](int done, int total) { (*line)(done, total); };
  }
#if defined(APSP_HAVE_MPI)
  // Ranks write their rows of OUT in place, at offsets that only fixed-size HW3 rows have; text
  // output, for V <= 10000, is one process's job.
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const bool text = config.output_format == apsp::OutputFormat::text;
  if (text && ranks > 1)
    throw UsageError("--output-format text needs a single process (it is for V <= " +
                     std::to_string(apsp::max_text_vertices) + "): run without mpirun");
  // The distributed driver is Floyd-Warshall only (auto means fw there); sssp is one process's.
  const bool sssp = config.algorithm == apsp::Algorithm::sssp;
  if (sssp && ranks > 1)
    throw UsageError(
        "--algorithm sssp needs a single process (the MPI driver runs fw only): "
        "run without mpirun, or with --algorithm fw");
  // Each predecessor row needs only its distance row and the graph's shortest-path edges
  // (include/apsp/paths.hpp), but the MPI driver does not gather those edges yet.
  const bool paths = !config.predecessors.empty();
  if (paths && ranks > 1)
    throw UsageError(
        "--predecessors needs a single process (the MPI driver does not share the "
        "shortest-path edges between ranks yet): run without mpirun");
  const apsp::SolveStats stats = text || sssp || paths
                                     ? apsp::solve_hw3(config)
                                     : apsp::solve_hw3_distributed(MPI_COMM_WORLD, config);
  if (apsp::MpiSession::rank() != 0) return 0;  // rank 0 writes the stats
#else
  const apsp::SolveStats stats = apsp::solve_hw3(config);
#endif
  if (!stats_path.empty()) {
    if (stats_path == "-") {
      std::cout << stats.to_json();
    } else {
      apsp::AtomicOutputFile out(stats_path);
      const std::string json = stats.to_json();
      out.write(json.data(), json.size());
      out.commit();
    }
  }
  return 0;
}

int generate(int argc, char** argv) {
  const Arguments args =
      parse(argc, argv, 2, {"--vertices", "--density", "--seed", "--max-weight"}, {});
  if (args.positional.size() != 1) throw UsageError("generate expects one output file name");
  apsp::GenerateConfig config;
  bool have_vertices = false, have_density = false;
  for (const auto& [name, value] : args.options) {
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
    if (name == "--max-weight") config.max_weight = int(parse_integer(name, value, 0, 1000));
  }
  if (!have_vertices || !have_density) throw UsageError("generate needs --vertices and --density");
  const std::int64_t edges = apsp::generate_hw3(config, args.positional[0]);
  std::fprintf(stderr, "[apsp] wrote %s: V = %d, E = %lld\n", args.positional[0].c_str(),
               config.vertices, static_cast<long long>(edges));
  return 0;
}

int shapes(int argc, char** argv) {
  const Arguments args = parse(argc, argv, 2, {"--backend"}, {});
  if (!args.positional.empty()) throw UsageError("shapes takes no file names");
  std::string backend;
  for (const auto& option : args.options)
    backend = option.second;
  for (const auto& shape : apsp::shapes_of(backend))
    std::printf("%d: %s\n", shape.index, shape.name.c_str());
  return 0;
}

int compare(int argc, char** argv) {
  const Arguments args = parse(argc, argv, 2, {}, {});
  if (args.positional.size() != 2) throw UsageError("compare expects two file names");
  const apsp::Comparison result = apsp::compare_hw3_outputs(args.positional[0], args.positional[1]);
  std::printf("%s\n", result.message.c_str());
  return result.identical ? 0 : 1;
}

int path(int argc, char** argv) {
  const Arguments args =
      parse(argc, argv, 2, {"--predecessors", "--format", "--backend", "--max-memory"},
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
  }
  const apsp::ShortestPath found = apsp::find_path(config, source, target);
  if (!found.reachable) {
    std::printf("%lld -> %lld: no path\n", source, target);
    return 1;
  }
  std::printf("%lld -> %lld: length %lld, %zu edges\n", source, target,
              static_cast<long long>(found.length), found.vertices.size() - 1);
  std::string line;
  for (const int v : found.vertices)
    line += (line.empty() ? "" : " ") + std::to_string(v);
  std::printf("%s\n", line.c_str());
  return 0;
}

}  // namespace

namespace apsp::cli {
int verify(int argc, char** argv);  // src/cli/verify.cpp
}

int main(int argc, char** argv) {
  remove_temporaries_on_signals();
  // Kokkos' OpenMP backend prints four lines of advice at every start when OMP_PROC_BIND is
  // unset; the OpenMP runtime has read its environment by now, so setting it here changes no
  // binding, only silences the advice. Users who want threads bound set OMP_PROC_BIND and
  // OMP_PLACES themselves (README, "Performance").
  setenv("OMP_PROC_BIND", "false", 0);
  // CUDA loads kernels lazily by default, and some loading still lands in the first rounds
  // after the warm-up: 0.7-1.4 ms of every solve on an H200, 5-10% at V = 5000. Loading them
  // all at start-up costs no measurable time (docs/PERFORMANCE.md, entry 8). A user's own
  // CUDA_MODULE_LOADING wins.
  setenv("CUDA_MODULE_LOADING", "EAGER", 0);
  // --help and --version need no device: they answer on a node without one too.
  const std::string command = argc > 1 ? argv[1] : "";
  if (command == "--help" || command == "-h") {
    print_usage(stdout);
    return 0;
  }
  if (command == "--version") {
    std::printf("apsp %s, Kokkos %d.%d.%d, backends: %s\n", APSP_VERSION, KOKKOS_VERSION / 10000,
                KOKKOS_VERSION / 100 % 100, KOKKOS_VERSION % 100, backend_list().c_str());
    return 0;
  }
#if defined(APSP_HAVE_MPI)
  apsp::MpiSession mpi(argc, argv);  // before Kokkos: it gives each rank its own device
#endif
  std::optional<Kokkos::ScopeGuard> kokkos;
  try {
    // Kokkos takes (and removes) its own --kokkos-* arguments. Starting it can fail (a GPU
    // build on a node without the GPU): that is one error line like any other.
    kokkos.emplace(argc, argv);
    const std::string subcommand = argc > 1 ? argv[1] : "";
    if (subcommand == "generate") return generate(argc, argv);
    if (subcommand == "compare") return compare(argc, argv);
    if (subcommand == "shapes") return shapes(argc, argv);
    if (subcommand == "verify") return apsp::cli::verify(argc, argv);
    if (subcommand == "path") return path(argc, argv);
    return solve(argc, argv);
  } catch (const UsageError& e) {
    if (reports_errors()) std::fprintf(stderr, "apsp: %s\n", e.what());
    return 2;
  } catch (const apsp::Error& e) {
    if (reports_errors()) std::fprintf(stderr, "apsp: error: %s\n", e.what());
    return 2;
  } catch (const std::bad_alloc&) {
    if (reports_errors()) std::fprintf(stderr, "apsp: error: out of memory\n");
    return 2;
  } catch (const std::exception& e) {
    if (reports_errors()) std::fprintf(stderr, "apsp: error: %s\n", e.what());
    return 2;
  }
}
