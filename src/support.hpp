// Small helpers the library's sources share: sizes in messages, stage timers, complete POSIX
// writes, and the download of device rows to the output through pinned buffers.
#pragma once

#include <apsp/backends.hpp>
#include <apsp/detail/region.hpp>
#include <apsp/error.hpp>
#include <apsp/floyd_warshall.hpp>
#include <apsp/hw3_io.hpp>
#include <apsp/solve.hpp>
#include <apsp/tuning.hpp>

#include <Kokkos_Core.hpp>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace apsp {
namespace detail {

// "512.00 MiB", "6.40 GiB".
inline std::string size_text(std::uint64_t bytes) {
  char text[32];
  const double mib = double(bytes) / (1024.0 * 1024.0);
  if (mib < 1024)
    std::snprintf(text, sizeof text, "%.2f MiB", mib);
  else
    std::snprintf(text, sizeof text, "%.2f GiB", mib / 1024.0);
  return text;
}

using Clock = std::chrono::steady_clock;
// Memory sizes add up to "too much", never wrap (V near 2^31 makes V^2 * 4 bytes reach 2^64).
inline std::uint64_t saturating_sum(const std::vector<std::uint64_t>& sizes) {
  std::uint64_t sum = 0;
  for (const std::uint64_t s : sizes)
    sum = s > UINT64_MAX - sum ? UINT64_MAX : sum + s;
  return sum;
}

// Bytes a run may allocate on the backend: what is free, capped by --max-memory.
template <class ExecSpace>
std::uint64_t usable_memory(const ExecSpace& exec, std::uint64_t max_memory) {
  const std::uint64_t free_bytes = available_memory(exec);
  return max_memory > 0 && max_memory < free_bytes ? max_memory : free_bytes;
}

inline double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

inline std::string system_error(const std::string& what, const std::string& path) {
  return what + " '" + path + "': " + std::strerror(errno);
}

// pwrite() until all bytes are written; `path` names the file in the error.
inline void write_all_at(int fd, std::uint64_t offset, const void* data, std::size_t bytes,
                         const std::string& path) {
  const char* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t n = ::pwrite(fd, p, bytes, off_t(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw Error(system_error("cannot write output", path));
    p += n;
    offset += std::uint64_t(n);
    bytes -= std::size_t(n);
  }
}

// Host memory that device data passes through: pinned where the backend has it, so that copies
// run asynchronously and at full speed.
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
#if defined(KOKKOS_ENABLE_HIP)
template <>
struct StagingSpace<HipExecutionSpace> {
#if KOKKOS_VERSION >= 40000
  using type = Kokkos::HIPHostPinnedSpace;
#else
  using type = Kokkos::Experimental::HIPHostPinnedSpace;
#endif
};
#endif

// The end of a run: the record of the run written to its file (when one was opened), which
// joins the transaction last, then the commit of every output (src/solve.cpp).
void commit_outputs(OutputTransaction& outputs, std::unique_ptr<AtomicOutputFile> stats_out,
                    const SolveStats& stats);

// The record of a run, with what describes the backend filled in.
template <class ExecSpace>
SolveStats stats_of(const ExecSpace& exec) {
  SolveStats stats;
  stats.backend = backend_name<ExecSpace>();
  stats.device = describe_device(exec);
  stats.concurrency = exec.concurrency();
  return stats;
}

// What a tuned shape must have been measured for to apply here (tuning.hpp).
template <class ExecSpace>
TuningKey tuning_key(const ExecSpace& exec) {
  TuningKey key;
  key.backend = backend_name<ExecSpace>();
  key.device = describe_device(exec);
  key.isa = device_isa(exec);
  key.concurrency = exec.concurrency();
  key.table = shape_table_hash<ExecSpace>();
  return key;
}

// The run's tile shape, decided once: the user's --tile or --shape; else the shape that
// `apsp tune` measured fastest for this V on this device (tuning.hpp); else the table's first
// that fits. options.shape is set to it, so that everything below runs that shape; `source`
// says which ("user", "tuned", "table"). A cache that cannot be used is a warning on stderr.
template <class ExecSpace>
ShapeChoice plan_shape(const ExecSpace& exec, Options& options, std::int64_t vertices,
                       std::string& source) {
  source = options.tile != 0 || options.shape >= 0 ? "user" : "table";
  if (source == "table" && tuning_enabled()) {
    std::string warning;
    const std::vector<TunedShape> cache = read_tuning_cache(tuning_cache_path(), warning);
    const TunedShape* tuned = find_tuned_shape(cache, tuning_key(exec), vertices, warning);
    if (tuned) {
      for (const ShapeChoice& shape : available_shapes(exec))
        if (shape.params == tuned->shape) {
          options.shape = shape.index;
          source = "tuned";
          return shape;
        }
      warning = "ignoring the tuned shape for V = " + std::to_string(vertices) +
                ": this device cannot run it (run apsp tune again)";
    }
    if (!warning.empty()) std::fprintf(stderr, "apsp: warning: %s\n", warning.c_str());
  }
  const ShapeChoice shape = choose_shape(exec, options);
  options.shape = shape.index;
  return shape;
}

// Runs every kernel once on a two-tile matrix, so that a timed solve does not include what
// only the first launch pays (lazy module loading on CUDA, first touch of scratch pools).
// The kernels of the run: options.negative_weights picks the arithmetic.
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
constexpr bool host_memory =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;

// Hands rows [0, count) of `rows` to write_row(i, data) in order, data pointing at the row on
// the host. On a host backend straight from the matrix; on a device through two pinned
// buffers, so that copying one chunk overlaps writing the previous one. Adds the time spent
// waiting for copies to download_s and the time in write_row to write_s.
template <class ExecSpace, class WriteRow>
void download_rows(const ExecSpace& exec, const DistanceMatrix<ExecSpace>& rows, std::int64_t count,
                   WriteRow&& write_row, double& download_s, double& write_s) {
  ScopedRegion region("apsp::download_rows");
  const std::int64_t n = rows.extent(1);
  if (count <= 0) return;
  if constexpr (host_memory<ExecSpace>) {
    const auto start = Clock::now();
    for (std::int64_t i = 0; i < count; ++i)
      write_row(i, rows.data() + i * n);
    write_s += seconds_since(start);
  } else {
    using Staging =
        Kokkos::View<int**, Kokkos::LayoutRight, typename StagingSpace<ExecSpace>::type>;
    const std::int64_t chunk =
        std::max<std::int64_t>(1, std::min<std::int64_t>(count, (64 << 20) / (n * 4)));
    Staging buffers[2] = {
        Staging(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::staging0"), chunk, n),
        Staging(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::staging1"), chunk, n)};
    const auto copy_chunk = [&](std::int64_t from, int buffer) {
      const std::int64_t to = std::min(count, from + chunk);
      Kokkos::deep_copy(
          exec,
          Kokkos::subview(buffers[buffer], std::make_pair(std::int64_t(0), to - from), Kokkos::ALL),
          Kokkos::subview(rows, std::make_pair(from, to), Kokkos::ALL));
    };
    copy_chunk(0, 0);
    int current = 0;
    for (std::int64_t from = 0; from < count; from += chunk) {
      auto start = Clock::now();
      exec.fence();  // chunk `from` is in buffers[current]
      download_s += seconds_since(start);
      if (from + chunk < count) copy_chunk(from + chunk, 1 - current);
      start = Clock::now();
      for (std::int64_t i = from; i < std::min(count, from + chunk); ++i)
        write_row(i, &buffers[current](i - from, 0));
      write_s += seconds_since(start);
      current = 1 - current;
    }
  }
}

}  // namespace detail
}  // namespace apsp
