// The MPI driver of blocked Floyd-Warshall (include/apsp/distributed.hpp).
//
// Round r needs, on every rank, the Tile x N pivot rows: tile row r once its pivot tile and row
// panel are closed. A rank holding c tile rows then does c * Tile * N * Tile updates for the
// Tile * N * 4 bytes it receives (at V = 40000 on two GPUs: ~5 ms of work per 10 MB). So that
// the transfer runs while the kernels do, the owner of round r+1 works ahead: within round r it
// updates row r+1 first, closes pivot r+1 and stages it, queues the rest of round r, and only
// then broadcasts; on a GPU the host sits in MPI while the device computes, and the ranks that
// receive take the rows while their device still runs round r. The Open MPI here is not
// CUDA-aware: device data goes through pinned host memory, copied by the owner before the
// broadcast and by the others after it.
//
// Failures: every step that can fail on one rank runs inside `collectively`, which ends with an
// agreement (MPI_Allreduce of the lowest failing rank, then that rank's message broadcast), so
// that every rank stops at the same collective with the same message and rank 0 removes the
// unfinished output. Each round has its agreement too, just before its broadcast: the
// collectives of every rank run in the same order (agree 0, broadcast 0, agree 1, ...), so a rank
// that fails in a round goes straight to its next agreement, which is the next collective of
// every other rank as well.
#include <apsp/backends.hpp>
#include <apsp/detail/blocked_rounds.hpp>
#include <apsp/detail/region.hpp>
#include <apsp/distributed.hpp>
#include <apsp/error.hpp>
#include <apsp/floyd_warshall.hpp>
#include <apsp/formats.hpp>
#include <apsp/hw3_io.hpp>

#include "support.hpp"

#include <Kokkos_Core.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif
#if defined(KOKKOS_ENABLE_HIP)
#include <hip/hip_runtime_api.h>
#endif

namespace apsp {
namespace {

using detail::Clock;
using detail::host_memory;
using detail::saturating_sum;
using detail::seconds_since;
using detail::size_text;
using detail::StagingSpace;
using detail::system_error;

template <class ExecSpace>
using Unmanaged = Kokkos::View<const int*, typename ExecSpace::memory_space,
                               Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

struct Ranks {
  explicit Ranks(MPI_Comm c) : comm(c) {
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
  }
  MPI_Comm comm;
  int rank = 0;
  int size = 1;
};

// A communicator freed with its scope.
struct OwnedComm {
  OwnedComm() = default;
  OwnedComm(const OwnedComm&) = delete;
  OwnedComm& operator=(const OwnedComm&) = delete;
  ~OwnedComm() {
    if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
  }
  MPI_Comm comm = MPI_COMM_NULL;
};

// An error all ranks have agreed on: `collectively` lets it pass.
struct Agreed : Error {
  using Error::Error;
};

// MPI counts are int: large buffers go in pieces.
void broadcast_bytes(void* data, std::uint64_t bytes, int root, MPI_Comm comm) {
  constexpr std::uint64_t piece = std::uint64_t(1) << 30;
  char* p = static_cast<char*>(data);
  for (std::uint64_t done = 0; done < bytes; done += piece)
    MPI_Bcast(p + done, int(std::min(piece, bytes - done)), MPI_BYTE, root, comm);
}

std::string broadcast_string(std::string text, int root, MPI_Comm comm) {
  std::uint64_t length = text.size();
  MPI_Bcast(&length, 1, MPI_UINT64_T, root, comm);
  text.resize(length);
  broadcast_bytes(&text[0], length, root, comm);
  return text;
}

// Returns when no rank has an error; otherwise throws, on every rank, the error of the lowest
// rank that has one.
void agree(const Ranks& ranks, const std::string& error) {
  int failing = error.empty() ? ranks.size : ranks.rank;
  MPI_Allreduce(MPI_IN_PLACE, &failing, 1, MPI_INT, MPI_MIN, ranks.comm);
  if (failing == ranks.size) return;
  throw Agreed(broadcast_string(error, failing, ranks.comm));
}

std::string current_exception_message() {
  try {
    throw;
  } catch (const std::bad_alloc& e) {
    return std::string("out of memory (") + e.what() + ")";
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unknown exception";
  }
}

// Runs f on every rank, then agrees: all ranks go on, or all throw the first failing rank's
// error. f must make no MPI call that a failure could skip. name_rank: prefix "rank R of P: "
// (off where only rank 0 can fail and says enough, as for the input).
template <class F>
void collectively(const Ranks& ranks, F&& f, bool name_rank = true) {
  std::string error;
  try {
    f();
  } catch (const Agreed&) {
    throw;
  } catch (...) {
    error = current_exception_message();
    if (error.empty()) error = "unknown error";
    if (name_rank && ranks.size > 1)
      error =
          "rank " + std::to_string(ranks.rank) + " of " + std::to_string(ranks.size) + ": " + error;
  }
  agree(ranks, error);
}

// Tile rows in contiguous blocks: rank p holds [first(p), first(p) + count(p)); the first
// tiles % ranks ranks hold one more. When tiles < ranks, ranks tiles.. hold none, so the ranks
// that hold rows are always 0 .. holders() - 1.
struct Layout {
  int tiles = 0;
  int ranks = 1;
  int count(int p) const { return tiles / ranks + (p < tiles % ranks ? 1 : 0); }
  int first(int p) const { return p * (tiles / ranks) + std::min(p, tiles % ranks); }
  int holders() const { return std::min(tiles, ranks); }
  int owner(int tile) const {
    const int small = tiles / ranks, large = tiles % ranks;
    const int in_large = large * (small + 1);
    return tile < in_large ? tile / (small + 1) : large + (tile - in_large) / small;
  }
};

// APSP_FAIL_RANK=r and APSP_FAIL_ROUND=k: rank r fails at round k (tests of failure handling).
struct InjectedFailure {
  int rank = -1;
  int round = -1;
  static InjectedFailure from_environment() {
    InjectedFailure f;
    const char* rank = std::getenv("APSP_FAIL_RANK");
    const char* round = std::getenv("APSP_FAIL_ROUND");
    if (rank && round) {
      f.rank = std::atoi(rank);
      f.round = std::atoi(round);
    }
    return f;
  }
  void at_round(int my_rank, int r) const {
    if (my_rank == rank && r == round)
      throw Error("injected failure at round " + std::to_string(r) +
                  " (APSP_FAIL_RANK, APSP_FAIL_ROUND)");
  }
};

// Moves each round's pivot rows from their owner to the other ranks that hold rows.
template <class ExecSpace>
class PivotRowsExchange {
 public:
  using memory_space = typename ExecSpace::memory_space;

  // rows_comm: the ranks that hold rows (MPI_COMM_NULL on the others); in it, as in
  // ranks.comm, the owner of tile row t is layout.owner(t).
  PivotRowsExchange(const ExecSpace& exec, const Ranks& ranks, MPI_Comm rows_comm,
                    const Layout& layout, std::int64_t elements)
      : exec_(exec), ranks_(ranks), rows_comm_(rows_comm), layout_(layout), elements_(elements) {
    if (!distributed() || rows_comm_ == MPI_COMM_NULL) return;
    pivot_ = Kokkos::View<int*, memory_space>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::pivot_rows"), elements);
    if constexpr (!host_memory<ExecSpace>)
      staging_ = Kokkos::View<int*, typename StagingSpace<ExecSpace>::type>(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::pivot_rows_staging"), elements);
  }

  // Whether pivot rows travel at all: another rank than the owner holds rows.
  bool distributed() const { return layout_.holders() > 1; }

  // The owner, once the pivot tile and row panel are final: readies them for share().
  const int* stage(int* local, const detail::RoundGeometry& geo, int tile) {
    own_ = local + std::int64_t(geo.pivot - geo.first_tile) * tile * geo.ld;
    exec_.fence();
    if constexpr (!host_memory<ExecSpace>) {
      const auto start = Clock::now();
      Kokkos::deep_copy(exec_, staging_, Unmanaged<ExecSpace>(own_, elements_));
      exec_.fence();
      seconds_ += seconds_since(start);
    }
    return own_;
  }

  // Round r's agreement and broadcast. Every rank calls it once per round, in round order; the
  // owner after stage(). Returns the pivot rows of round r on this device (null on a rank that
  // holds no rows).
  const int* share(int r) {
    auto start = Clock::now();
    agree(ranks_, "");
    if (!distributed() || rows_comm_ == MPI_COMM_NULL) return own_;
    const int owner = layout_.owner(r);
    const std::uint64_t bytes = std::uint64_t(elements_) * sizeof(int);
    if (owner == ranks_.rank) {
      broadcast_bytes(host_memory<ExecSpace> ? const_cast<int*>(own_) : staging_.data(), bytes,
                      owner, rows_comm_);
      seconds_ += seconds_since(start);
      return own_;
    }
    if constexpr (host_memory<ExecSpace>) {
      seconds_ += seconds_since(start);
      exec_.fence();  // the last round's kernels are done with the pivot buffer
      start = Clock::now();
      broadcast_bytes(pivot_.data(), bytes, owner, rows_comm_);
    } else {
      // Into host memory while the device still runs the last round, which reads pivot_.
      broadcast_bytes(staging_.data(), bytes, owner, rows_comm_);
      seconds_ += seconds_since(start);
      exec_.fence();
      start = Clock::now();
      Kokkos::deep_copy(exec_, pivot_, staging_);
      exec_.fence();  // staging_ is free for the next round
    }
    seconds_ += seconds_since(start);
    received_ += bytes;
    return pivot_.data();
  }

  double seconds() const { return seconds_; }
  std::uint64_t received_bytes() const { return received_; }

 private:
  ExecSpace exec_;
  Ranks ranks_;
  MPI_Comm rows_comm_;
  Layout layout_;
  std::int64_t elements_;
  Kokkos::View<int*, memory_space> pivot_;
  Kokkos::View<int*, typename StagingSpace<ExecSpace>::type> staging_;
  const int* own_ = nullptr;
  double seconds_ = 0;
  std::uint64_t received_ = 0;
};

// The exchange argument of BlockedRounds::round for rows updated with pivot rows at hand.
struct GivenPivotRows {
  const int* rows;
  const int* operator()(int*, const detail::RoundGeometry&, int) const { return rows; }
};

// ... and for closing a pivot row: its owner stages it for the broadcast.
template <class ExecSpace>
struct StagedPivotRows {
  PivotRowsExchange<ExecSpace>* exchange;
  const int* operator()(int* local, const detail::RoundGeometry& geo, int tile) const {
    return exchange->stage(local, geo, tile);
  }
};

// All rounds on this rank's tile rows. The kernels work on any block of consecutive tile rows,
// so the work ahead (row r+1 and its pivot) and the rest of a round are BlockedRounds of their
// own over parts of the local rows.
template <class ExecSpace, class Shape, class Relax>
void run_rounds(const ExecSpace& exec, const Ranks& ranks, const Layout& layout, int* local,
                std::int64_t n, PivotRowsExchange<ExecSpace>& exchange, const Options& options,
                const InjectedFailure& failure) {
  using Rounds = detail::BlockedRounds<ExecSpace, Shape, Relax>;
  constexpr int B = Shape::tile;
  const int tiles = layout.tiles;
  const int first = layout.first(ranks.rank), end = first + layout.count(ranks.rank);
  const auto rows_of = [&](int t) { return local + std::int64_t(t - first) * B * n; };
  const auto block = [&](int from, int to) {
    return Rounds(exec, rows_of(from), from, to - from, tiles);
  };
  const auto update = [&](int from, int to, int r, const int* pivot_rows) {
    if (from < to) block(from, to).round(r, GivenPivotRows{pivot_rows});
  };
  const auto close_pivot = [&](int r) {
    block(r, r + 1).round(r, StagedPivotRows<ExecSpace>{&exchange});
  };
  const int every = std::max(1, tiles / 100);
  bool closed_ahead = false;  // this rank closed and sent round r's pivot rows in round r-1
  for (int r = 0; r < tiles; ++r) {
    failure.at_round(ranks.rank, r);
    if (!exchange.distributed()) {
      exchange.share(r);
      if (first < end) block(first, end).round(r, detail::SharedPivotRows{});
    } else {
      const bool owner = layout.owner(r) == ranks.rank;
      const int* pivot_rows;
      if (owner) {
        if (!closed_ahead) {
          close_pivot(r);
          exchange.share(r);
        }
        pivot_rows = rows_of(r);
      } else {
        pivot_rows = exchange.share(r);
      }
      closed_ahead = r + 1 < tiles && layout.owner(r + 1) == ranks.rank;
      // Local rows [skip_from, skip_to) are not updated below: pivot row r is final, row r+1 is
      // done first when this rank owns the next pivot.
      int skip_from = end, skip_to = end;
      if (owner) skip_from = r, skip_to = r + 1;
      if (closed_ahead) {
        update(r + 1, r + 2, r, pivot_rows);
        close_pivot(r + 1);
        if (!owner) skip_from = r + 1;
        skip_to = r + 2;
      }
      update(first, skip_from, r, pivot_rows);
      update(skip_to, end, r, pivot_rows);
      if (closed_ahead) exchange.share(r + 1);
    }
    if (options.progress && ranks.rank == 0 && ((r + 1) % every == 0 || r + 1 == tiles)) {
      exec.fence();
      options.progress(r + 1, tiles);
    }
  }
  exec.fence();
}

// This rank's handle on the output that rank 0 created: each rank writes its rows at their
// offsets, rank 0 renames the file into place once all have.
class OutputRows {
 public:
  OutputRows(const std::string& path, const std::string& target) : target_(target) {
    fd_ = open(path.c_str(), O_WRONLY);
    if (fd_ < 0)
      throw Error(system_error("cannot open the unfinished output", path) +
                  " (every rank writes its rows there: OUT must be on a file system all ranks "
                  "share)");
  }
  ~OutputRows() {
    if (fd_ >= 0) ::close(fd_);
  }
  OutputRows(const OutputRows&) = delete;
  OutputRows& operator=(const OutputRows&) = delete;

  void write_at(std::uint64_t offset, const void* data, std::size_t bytes) {
    detail::write_all_at(fd_, offset, data, bytes, target_);
  }
  // This rank's rows on the disk before rank 0 commits; a pipe or /dev/null cannot be synced
  // (EINVAL) and needs not be.
  void close() {
    const int fd = fd_;
    fd_ = -1;
    const bool synced = fsync(fd) == 0 || errno == EINVAL;
    if (::close(fd) != 0 || !synced) throw Error(system_error("cannot finish output", target_));
  }

 private:
  std::string target_;
  int fd_ = -1;
};

// Writes global rows [first_row, first_row + rows.extent(0)) that are real vertices, their first
// V columns, at their places in OUT. On a device through two pinned buffers, so that copying one
// chunk overlaps writing the previous one.
template <class ExecSpace>
void write_rows(const ExecSpace& exec, const DistanceMatrix<ExecSpace>& rows,
                std::int64_t first_row, std::int64_t vertices, OutputRows& out, SolveStats& stats) {
  const std::int64_t count =
      std::min<std::int64_t>(vertices, first_row + rows.extent(0)) - first_row;
  const std::size_t row_bytes = std::size_t(vertices) * sizeof(int);
  detail::download_rows(
      exec, rows, count,
      [&](std::int64_t i, const int* row) {
        out.write_at(std::uint64_t(first_row + i) * row_bytes, row, row_bytes);
      },
      stats.download_s, stats.write_s);
}

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

template <class ExecSpace>
SolveStats solve_on(const ExecSpace& exec, const Ranks& ranks, const SolveConfig& config) {
  detail::ScopedRegion region("apsp::solve_hw3_distributed");
  const auto start = Clock::now();
  SolveStats stats = detail::stats_of(exec);
  stats.ranks = ranks.size;
  const bool root = ranks.rank == 0;

  // Rank 0 checks that no two files of the run are one, opens the stats file (a name that
  // cannot be written fails before any work), reads the input and picks the tile shape: every
  // rank must run the same one.
  Graph graph;
  ShapeChoice shape;
  OutputTransaction outputs;  // rank 0's: OUT, then the stats file
  std::unique_ptr<AtomicOutputFile> stats_out;
  auto stage = Clock::now();
  collectively(
      ranks,
      [&] {
        if (!root) return;
        check_distinct_files(files_of(config));
        if (!config.stats.empty()) stats_out = std::make_unique<AtomicOutputFile>(config.stats);
        graph = read_graph(config.input, config.format, config.allow_negative);
        Options planned = config.options;
        shape = detail::plan_shape(exec, planned, graph.vertices, stats.shape_source);
      },
      false);
  stats.read_s = seconds_since(stage);
  std::int64_t header[5] = {graph.vertices, std::int64_t(graph.edges.size()), shape.index,
                            shape.tile, has_negative_weight(graph)};
  MPI_Bcast(header, 5, MPI_INT64_T, 0, ranks.comm);
  const std::int64_t vertices = header[0];
  const int shape_index = int(header[2]), tile = int(header[3]);
  Options options = config.options;
  options.negative_weights = header[4] != 0;
  const std::int64_t n = (vertices + tile - 1) / tile * tile;
  stats.vertices = vertices;
  stats.edges = header[1];
  stats.tile = tile;
  stats.shape = shape.name;
  stats.padded = n;
  const Layout layout{int(n / tile), ranks.size};
  const int first = layout.first(ranks.rank), count = layout.count(ranks.rank);

  // How many edges start in each rank's rows.
  std::vector<int> edge_counts(ranks.size, 0);
  if (root)
    for (const Edge& e : graph.edges)
      ++edge_counts[layout.owner(e.src / tile)];
  int my_edges = 0;
  MPI_Scatter(edge_counts.data(), 1, MPI_INT, &my_edges, 1, MPI_INT, 0, ranks.comm);

  // Resources, before any work: device memory on every rank (the ranks sharing a device
  // together), disk space and the unfinished output on rank 0.
  const std::uint64_t pivot_bytes = (count > 0 && layout.holders() > 1) ? matrix_bytes(tile, n) : 0;
  const std::uint64_t need = saturating_sum({matrix_bytes(std::int64_t(count) * tile, n),
                                             pivot_bytes, std::uint64_t(my_edges) * sizeof(Edge)});
  std::vector<std::uint64_t> device_needs;
  {
    OwnedComm node, device;
    MPI_Comm_split_type(ranks.comm, MPI_COMM_TYPE_SHARED, ranks.rank, MPI_INFO_NULL, &node.comm);
    MPI_Comm_split(node.comm, device_key(exec), ranks.rank, &device.comm);
    int size = 1;
    MPI_Comm_size(device.comm, &size);
    device_needs.resize(std::size_t(size));
    MPI_Allgather(&need, 1, MPI_UINT64_T, device_needs.data(), 1, MPI_UINT64_T, device.comm);
  }
  const std::uint64_t device_need = saturating_sum(device_needs);
  const int device_ranks = int(device_needs.size());
  AtomicOutputFile* output = nullptr;
  collectively(ranks, [&] {
    const auto shapes = available_shapes(exec);
    if (std::none_of(shapes.begin(), shapes.end(), [&](const ShapeChoice& s) {
          return s.index == shape_index && s.tile == tile;
        }))
      throw Error("cannot run the " + std::to_string(tile) + "x" + std::to_string(tile) +
                  " tiles that rank 0 chose on " + stats.device);
    const std::string problem = "V = " + std::to_string(vertices) + " needs ";
    const std::string rows = std::to_string(std::int64_t(count) * tile) + " rows of " +
                             std::to_string(n) + " int32 distances" +
                             (pivot_bytes > 0 ? " and the pivot rows" : "");
    const std::string remedy =
        ranks.size > 1 ? "run on more ranks" : "run over several devices with mpirun -np K";
    if (config.max_memory > 0 && need > config.max_memory)
      throw Error(problem + size_text(need) + " of device memory on this rank (" + rows +
                  "), but --max-memory allows " + size_text(config.max_memory) + ": " + remedy);
    const std::uint64_t usable = available_memory(exec);
    if (device_need > usable)
      throw Error(problem + size_text(device_need) + " on " + stats.device + " (" + rows +
                  (device_ranks > 1
                       ? " on each of the " + std::to_string(device_ranks) + " ranks sharing it"
                       : "") +
                  "), but only " + size_text(usable) + " can be used: " + remedy);
    check_path_bounds(vertices, options.negative_weights);
  });
  collectively(
      ranks,
      [&] {
        if (!root) return;
        check_disk_space(config.output, hw3_output_bytes(vertices));
        output = &outputs.add(config.output);
      },
      false);
  // An output that is not a regular file (/dev/null) is written in place.
  const std::string output_path = broadcast_string(
      root ? (output->temporary_path().empty() ? config.output : output->temporary_path()) : "", 0,
      ranks.comm);

  stage = Clock::now();
  OwnedComm rows_comm;
  MPI_Comm_split(ranks.comm, count > 0 ? 0 : MPI_UNDEFINED, ranks.rank, &rows_comm.comm);
  std::unique_ptr<OutputRows> out;
  DistanceMatrix<ExecSpace> local;
  std::unique_ptr<PivotRowsExchange<ExecSpace>> exchange;
  std::vector<Edge> sorted, mine;
  std::vector<int> offsets(ranks.size, 0);
  collectively(ranks, [&] {
    out = std::make_unique<OutputRows>(output_path, config.output);
    local = DistanceMatrix<ExecSpace>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::local_rows"),
        std::int64_t(count) * tile, n);
    exchange = std::make_unique<PivotRowsExchange<ExecSpace>>(exec, ranks, rows_comm.comm, layout,
                                                              std::int64_t(tile) * n);
    if (ranks.size == 1) {
      mine = std::move(graph.edges);
      return;
    }
    mine.resize(std::size_t(my_edges));
    if (!root) return;
    for (int p = 1; p < ranks.size; ++p)
      offsets[p] = offsets[p - 1] + edge_counts[p - 1];
    sorted.resize(graph.edges.size());
    std::vector<int> next = offsets;
    for (const Edge& e : graph.edges)
      sorted[std::size_t(next[layout.owner(e.src / tile)]++)] = e;
    std::vector<Edge>().swap(graph.edges);
  });
  if (ranks.size > 1) {
    MPI_Datatype edge_type;
    MPI_Type_contiguous(3, MPI_INT32_T, &edge_type);
    MPI_Type_commit(&edge_type);
    MPI_Scatterv(sorted.data(), edge_counts.data(), offsets.data(), edge_type, mine.data(),
                 my_edges, edge_type, 0, ranks.comm);
    MPI_Type_free(&edge_type);
    std::vector<Edge>().swap(sorted);
  }
  collectively(ranks, [&] {
    fill_distance_rows(exec, local, std::int64_t(first) * tile, mine);
    std::vector<Edge>().swap(mine);
    Options chosen = options;
    chosen.shape = shape_index;
    detail::warm_up(exec, chosen);
  });
  stats.upload_s = seconds_since(stage);

  stage = Clock::now();
  const InjectedFailure failure = InjectedFailure::from_environment();
  collectively(ranks, [&] {
    detail::visit_shape(typename detail::ShapeTable<ExecSpace>::type{}, shape_index,
                        [&](auto shape_tag) {
                          detail::visit_relaxation(options.negative_weights, [&](auto relax_tag) {
                            run_rounds<ExecSpace, decltype(shape_tag), decltype(relax_tag)>(
                                exec, ranks, layout, local.data(), n, *exchange, options, failure);
                          });
                        });
  });
  if (options.negative_weights) {
    std::int64_t smallest = vertices;
    collectively(ranks, [&] {
      const std::int64_t v =
          negative_cycle_vertex(exec, local, std::int64_t(first) * tile, vertices);
      if (v >= 0) smallest = v;
    });
    MPI_Allreduce(MPI_IN_PLACE, &smallest, 1, MPI_INT64_T, MPI_MIN, ranks.comm);
    if (smallest < vertices) throw negative_cycle_error(smallest);
  }
  stats.compute_s = seconds_since(stage);
  stats.comm_s = exchange->seconds();
  stats.comm_bytes = exchange->received_bytes();
  exchange.reset();

  collectively(ranks, [&] {
    write_rows(exec, local, std::int64_t(first) * tile, vertices, *out, stats);
    out->close();
  });
  double seconds[5] = {stats.upload_s, stats.compute_s, stats.download_s, stats.write_s,
                       stats.comm_s};
  MPI_Reduce(root ? MPI_IN_PLACE : seconds, seconds, 5, MPI_DOUBLE, MPI_MAX, 0, ranks.comm);
  std::uint64_t bytes = stats.comm_bytes;
  MPI_Reduce(root ? MPI_IN_PLACE : &bytes, &bytes, 1, MPI_UINT64_T, MPI_SUM, 0, ranks.comm);
  stats.upload_s = seconds[0];
  stats.compute_s = seconds[1];
  stats.download_s = seconds[2];
  stats.write_s = seconds[3];
  stats.comm_s = seconds[4];
  stats.comm_bytes = bytes;
  stats.total_s = seconds_since(start);
  // Once every rank has written its rows: the stats file and OUT committed together.
  collectively(
      ranks,
      [&] {
        if (root) detail::commit_outputs(outputs, std::move(stats_out), stats);
      },
      false);
  return stats;
}

}  // namespace

SolveStats solve_hw3_distributed(MPI_Comm comm, const SolveConfig& config) {
  const Ranks ranks(comm);
  // Every rank knows the same backends: an unknown name fails on all of them alike.
  collectively(
      ranks, [&] { with_backend(config.backend, [](auto) {}); }, false);
  SolveStats stats;
  with_backend(config.backend, [&](auto exec) { stats = solve_on(exec, ranks, config); });
  return stats;
}

namespace {

int device_count() {
#if defined(KOKKOS_ENABLE_CUDA)
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
#elif defined(KOKKOS_ENABLE_HIP)
  int count = 0;
  return hipGetDeviceCount(&count) == hipSuccess ? count : 0;
#else
  return 0;
#endif
}

bool chooses_device(int argc, char** argv) {
  for (const char* name : {"KOKKOS_DEVICE_ID", "KOKKOS_NUM_DEVICES", "KOKKOS_MAP_DEVICE_ID_BY"})
    if (std::getenv(name)) return true;
  for (int i = 1; i < argc; ++i)
    for (const char* option :
         {"--kokkos-device-id", "--kokkos-num-devices", "--kokkos-map-device-id-by"})
      if (std::strncmp(argv[i], option, std::strlen(option)) == 0) return true;
  return false;
}

}  // namespace

MpiSession::MpiSession(int& argc, char**& argv) {
  MPI_Init(&argc, &argv);
  const int devices = device_count();
  if (devices == 0 || chooses_device(argc, argv)) return;
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int node_rank = 0;
  MPI_Comm_rank(node, &node_rank);
  MPI_Comm_free(&node);
  arguments_.assign(argv, argv + argc);
  arguments_.push_back("--kokkos-device-id=" + std::to_string(node_rank % devices));
  for (std::string& a : arguments_)
    pointers_.push_back(&a[0]);
  pointers_.push_back(nullptr);
  argc = int(arguments_.size());
  argv = pointers_.data();
}

MpiSession::~MpiSession() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

int MpiSession::rank() {
  int initialized = 0, rank = 0;
  MPI_Initialized(&initialized);
  if (initialized) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

}  // namespace apsp
