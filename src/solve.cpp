#include <apsp/backends.hpp>
#include <apsp/detail/region.hpp>
#include <apsp/hw3_io.hpp>
#include <apsp/solve.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>

namespace apsp {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string gib(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f GiB", double(bytes) / (1024.0 * 1024.0 * 1024.0));
  return text;
}

// Host memory the device copies through: pinned where the backend has it, so that copies run
// asynchronously and at full speed.
template <class ExecSpace>
struct StagingSpace {
  using type = Kokkos::HostSpace;
};
#if defined(KOKKOS_ENABLE_CUDA)
template <>
struct StagingSpace<Kokkos::Cuda> {
  using type = Kokkos::CudaHostPinnedSpace;
};
#endif

// Writes rows [0, V) of dist, first V columns of each, to `out`. On a host backend straight
// from the matrix; on a device through two pinned buffers, so that copying one chunk overlaps
// writing the previous one.
template <class ExecSpace>
void write_distances(const ExecSpace& exec, const DistanceMatrix<ExecSpace>& dist,
                     std::int64_t vertices, AtomicOutputFile& out, SolveStats& stats) {
  detail::ScopedRegion region("apsp::write_distances");
  const std::int64_t n = dist.extent(0);
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                           typename ExecSpace::memory_space>::accessible) {
    const auto start = Clock::now();
    for (std::int64_t i = 0; i < vertices; ++i)
      out.write(dist.data() + i * n, std::size_t(vertices) * sizeof(int));
    stats.write_s = seconds_since(start);
  } else {
    using Staging = Kokkos::View<int**, Kokkos::LayoutRight, typename StagingSpace<ExecSpace>::type>;
    const std::int64_t rows =
        std::max<std::int64_t>(1, std::min<std::int64_t>(vertices, (64 << 20) / (n * 4)));
    Staging buffers[2] = {
        Staging(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::staging0"), rows, n),
        Staging(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::staging1"), rows, n)};
    auto copy_chunk = [&](std::int64_t first, int buffer) {
      const std::int64_t last = std::min(vertices, first + rows);
      Kokkos::deep_copy(exec,
                        Kokkos::subview(buffers[buffer], std::make_pair(std::int64_t(0), last - first),
                                        Kokkos::ALL),
                        Kokkos::subview(dist, std::make_pair(first, last), Kokkos::ALL));
    };
    copy_chunk(0, 0);
    int current = 0;
    for (std::int64_t first = 0; first < vertices; first += rows) {
      auto start = Clock::now();
      exec.fence();  // chunk `first` is in buffers[current]
      stats.download_s += seconds_since(start);
      if (first + rows < vertices) copy_chunk(first + rows, 1 - current);
      start = Clock::now();
      const std::int64_t last = std::min(vertices, first + rows);
      for (std::int64_t i = first; i < last; ++i)
        out.write(&buffers[current](i - first, 0), std::size_t(vertices) * sizeof(int));
      stats.write_s += seconds_since(start);
      current = 1 - current;
    }
  }
}

// Runs every kernel once on a two-tile matrix, so that the timed solve does not include what
// only the first launch pays (lazy module loading on CUDA, first-touch of scratch pools).
template <class ExecSpace>
void warm_up(const ExecSpace& exec, const Options& options) {
  const std::int64_t n = 2 * std::int64_t(choose_shape(exec, options).tile);
  DistanceMatrix<ExecSpace> dist("apsp::warm_up", n, n);
  fill_distance_matrix(exec, dist, {});
  Options quiet = options;
  quiet.progress = nullptr;
  floyd_warshall(exec, dist, quiet);
}

template <class ExecSpace>
SolveStats solve_on(const ExecSpace& exec, const SolveConfig& config) {
  detail::ScopedRegion region("apsp::solve_hw3");
  const auto start = Clock::now();
  SolveStats stats;
  stats.backend = backend_name<ExecSpace>();
  stats.device = describe_device(exec);
  stats.concurrency = exec.concurrency();

  auto stage = Clock::now();
  const Graph graph = read_hw3(config.input);
  stats.read_s = seconds_since(stage);
  stats.vertices = graph.vertices;
  stats.edges = std::int64_t(graph.edges.size());

  const ShapeChoice shape = choose_shape(exec, config.options);
  const std::int64_t n = padded_size(graph.vertices, shape);
  stats.tile = shape.tile;
  stats.shape = shape.name;
  stats.padded = n;

  // Resources, before any work: device memory for the matrix (and the edge list while it is
  // scattered), disk space for the output.
  const std::uint64_t needed = matrix_bytes(n, n) + std::uint64_t(graph.edges.size()) * sizeof(Edge);
  std::uint64_t usable = available_memory(exec);
  if (config.max_memory > 0) usable = std::min(usable, config.max_memory);
  if (needed > usable)
    throw Error("V = " + std::to_string(graph.vertices) + " needs " + gib(needed) + " on " +
                stats.device + " (" + std::to_string(n) + " x " + std::to_string(n) +
                " int32 distances), but only " + gib(usable) +
                " can be used: run on a device with more memory, or over several with "
                "mpirun -np K (an MPI build)");
  check_disk_space(config.output, hw3_output_bytes(graph.vertices));
  AtomicOutputFile out(config.output);

  stage = Clock::now();
  DistanceMatrix<ExecSpace> dist(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::dist"), n,
                                 n);
  fill_distance_matrix(exec, dist, graph.edges);
  warm_up(exec, config.options);
  stats.upload_s = seconds_since(stage);

  stage = Clock::now();
  floyd_warshall(exec, dist, config.options);
  stats.compute_s = seconds_since(stage);

  write_distances(exec, dist, graph.vertices, out, stats);
  out.commit();
  stats.total_s = seconds_since(start);
  return stats;
}

std::string json_string(const std::string& s) {
  std::string quoted = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return quoted + "\"";
}

}  // namespace

double SolveStats::updates_per_s() const {
  const double v = double(vertices);
  return compute_s > 0 ? v * v * v / compute_s : 0;
}
double SolveStats::gops() const { return 2 * updates_per_s() / 1e9; }

std::string SolveStats::to_json() const {
  std::ostringstream j;
  j.precision(9);
  j << "{\n"
    << "  \"vertices\": " << vertices << ",\n"
    << "  \"edges\": " << edges << ",\n"
    << "  \"backend\": " << json_string(backend) << ",\n"
    << "  \"device\": " << json_string(device) << ",\n"
    << "  \"concurrency\": " << concurrency << ",\n"
    << "  \"ranks\": " << ranks << ",\n"
    << "  \"tile\": " << tile << ",\n"
    << "  \"shape\": " << json_string(shape) << ",\n"
    << "  \"padded_vertices\": " << padded << ",\n"
    << "  \"kokkos_version\": " << KOKKOS_VERSION << ",\n"
    << "  \"seconds\": {\"read\": " << read_s << ", \"upload\": " << upload_s
    << ", \"compute\": " << compute_s << ", \"download\": " << download_s
    << ", \"write\": " << write_s << ", \"communication\": " << comm_s
    << ", \"total\": " << total_s << "},\n"
    << "  \"communication_bytes\": " << comm_bytes << ",\n"
    << "  \"updates_per_second\": " << updates_per_s() << ",\n"
    << "  \"gops\": " << gops() << "\n"
    << "}\n";
  return j.str();
}

std::vector<ShapeChoice> shapes_of(const std::string& backend) {
  std::vector<ShapeChoice> shapes;
  with_backend(backend, [&](auto exec) { shapes = available_shapes(exec); });
  return shapes;
}

SolveStats solve_hw3(const SolveConfig& config) {
  SolveStats stats;
  with_backend(config.backend, [&](auto exec) { stats = solve_on(exec, config); });
  return stats;
}

}  // namespace apsp
