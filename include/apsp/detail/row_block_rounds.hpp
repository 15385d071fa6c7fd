// All rounds of blocked Floyd-Warshall on the block of tile rows one rank holds: the one loop
// behind apsp::floyd_warshall (one rank, the whole matrix) and apsp::mpi::floyd_warshall.
//
// Round r needs, on every rank, the Tile x N pivot rows: tile row r once its pivot tile and row
// panel are closed. A rank holding c tile rows then does c * Tile * N * Tile updates for the
// Tile * N * 4 bytes it receives (at V = 40000 on two GPUs: ~5 ms of work per 10 MB). So that
// the transfer runs while the kernels do, the owner of round r+1 works ahead: within round r it
// updates row r+1 first, closes pivot r+1 and stages it, queues the rest of round r, and only
// then broadcasts; on a GPU the host sits in MPI while the device computes, and the ranks that
// receive take the rows while their device still runs round r. MPI here need not be CUDA-aware:
// device data goes through pinned host memory, copied by the owner before the broadcast and by
// the others after it. With one rank holding rows nothing travels, and the same lookahead
// runs on two instances of the device where the backend has them (below).
//
// Failures: each round has its agreement just before its broadcast, so the collectives of every
// rank run in the same order (agree 0, broadcast 0, agree 1, ...): a rank that fails in a round
// goes straight to its next agreement, which is the next collective of every other rank as well.
#pragma once

#include <apsp/detail/blocked_rounds.hpp>
#include <apsp/detail/instances.hpp>
#include <apsp/detail/measure.hpp>
#include <apsp/detail/staging.hpp>
#include <apsp/plan.hpp>
#include <apsp/ranks.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

namespace apsp {

// What a rank spent moving pivot rows: the seconds it waited for or sent them, and the bytes it
// received.
struct ExchangeStats {
  double seconds = 0;
  std::uint64_t received_bytes = 0;
};

// Called around the rounds: progress(done, total) now and then after a fence (on rank 0 only),
// before_round(r) at the start of each round (tests inject failures there). Either may be empty.
// lookahead: whether one process closes round r + 1's pivot beside round r's tiles (below); by
// default where the backend runs two instances at once (detail/instances.hpp). On one instance
// the same launches only reorder the work, and OpenMP runs them slower in that order
// (docs/PERFORMANCE.md, "Lookahead"), so tests alone ask for it there.
struct RoundHooks {
  std::function<void(int, int)> progress;
  std::function<void(int)> before_round;
  std::optional<bool> lookahead;
};

namespace detail {

// Moves each round's pivot rows from their owner to the other ranks that hold rows.
template <class ExecSpace, class T>
class PivotRowsExchange {
 public:
  using memory_space = typename ExecSpace::memory_space;
  using Unmanaged = Kokkos::View<const T*, memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

  // holders: the ranks that hold rows (null on the others); in it, as in ranks, the owner of
  // tile row t is blocks.owner(t).
  PivotRowsExchange(const ExecSpace& exec, Ranks& ranks, Ranks* holders, const RowBlocks& blocks,
                    std::int64_t elements)
      : exec_(exec), ranks_(ranks), holders_(holders), blocks_(blocks), elements_(elements) {
    if (!distributed() || !holders_) return;
    pivot_ = Kokkos::View<T*, memory_space>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::pivot_rows"), elements);
    if constexpr (!host_memory<ExecSpace>)
      staging_ = Kokkos::View<T*, typename StagingSpace<ExecSpace>::type>(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::pivot_rows_staging"), elements);
  }

  // Whether pivot rows travel at all: another rank than the owner holds rows.
  bool distributed() const { return blocks_.holders() > 1; }

  // The owner, once the pivot tile and row panel are final: readies them for share().
  const T* stage(T* local, const RoundGeometry& geo, int tile) {
    own_ = local + std::int64_t(geo.pivot - geo.first_tile) * tile * geo.ld;
    exec_.fence();
    if constexpr (!host_memory<ExecSpace>) {
      const auto start = Clock::now();
      Kokkos::deep_copy(exec_, staging_, Unmanaged(own_, elements_));
      exec_.fence();
      stats_.seconds += seconds_since(start);
    }
    return own_;
  }

  // Round r's agreement and broadcast. Every rank calls it once per round, in round order; the
  // owner after stage(). Returns the pivot rows of round r on this device (null on a rank that
  // holds no rows).
  const T* share(int r) {
    auto start = Clock::now();
    agree(ranks_, "");
    if (!distributed() || !holders_) return own_;
    const int owner = blocks_.owner(r);
    const std::uint64_t bytes = std::uint64_t(elements_) * sizeof(T);
    if (owner == ranks_.rank()) {
      holders_->broadcast(host_memory<ExecSpace> ? const_cast<T*>(own_) : staging_.data(), bytes,
                          owner);
      stats_.seconds += seconds_since(start);
      return own_;
    }
    if constexpr (host_memory<ExecSpace>) {
      stats_.seconds += seconds_since(start);
      exec_.fence();  // the last round's kernels are done with the pivot buffer
      start = Clock::now();
      holders_->broadcast(pivot_.data(), bytes, owner);
    } else {
      // Into host memory while the device still runs the last round, which reads pivot_.
      holders_->broadcast(staging_.data(), bytes, owner);
      stats_.seconds += seconds_since(start);
      exec_.fence();
      start = Clock::now();
      Kokkos::deep_copy(exec_, pivot_, staging_);
      exec_.fence();  // staging_ is free for the next round
    }
    stats_.seconds += seconds_since(start);
    stats_.received_bytes += bytes;
    return pivot_.data();
  }

  const ExchangeStats& stats() const { return stats_; }

 private:
  ExecSpace exec_;
  Ranks& ranks_;
  Ranks* holders_;
  RowBlocks blocks_;
  std::int64_t elements_;
  Kokkos::View<T*, memory_space> pivot_;
  Kokkos::View<T*, typename StagingSpace<ExecSpace>::type> staging_;
  const T* own_ = nullptr;
  ExchangeStats stats_;
};

// The exchange argument of BlockedRounds::round for rows updated with pivot rows at hand.
template <class T>
struct GivenPivotRows {
  const T* rows;
  const T* operator()(T*, const RoundGeometry&, int) const { return rows; }
};

// ... and for closing a pivot row: its owner stages it for the broadcast.
template <class ExecSpace, class T>
struct StagedPivotRows {
  PivotRowsExchange<ExecSpace, T>* exchange;
  const T* operator()(T* local, const RoundGeometry& geo, int tile) const {
    return exchange->stage(local, geo, tile);
  }
};

// All rounds on this rank's tile rows. The kernels work on any block of consecutive tile rows,
// so the work ahead (row r+1 and its pivot) and the rest of a round are BlockedRounds of their
// own over parts of the local rows.
template <class ExecSpace, class Shape, class Relax>
void run_rounds(const ExecSpace& exec, Ranks& ranks, const RowBlocks& blocks,
                typename Relax::value_type* local, std::int64_t n,
                PivotRowsExchange<ExecSpace, typename Relax::value_type>& exchange,
                const RoundHooks& hooks) {
  using T = typename Relax::value_type;
  using Rounds = BlockedRounds<ExecSpace, Shape, Relax>;
  constexpr int B = Shape::tile;
  const int tiles = blocks.units;
  const int first = blocks.first(ranks.rank()), end = first + blocks.count(ranks.rank());
  const auto rows_of = [&](int t) { return local + std::int64_t(t - first) * B * n; };
  const auto block = [&](int from, int to) {
    return Rounds(exec, rows_of(from), from, to - from, tiles);
  };
  const auto update = [&](int from, int to, int r, const T* pivot_rows) {
    if (from < to) block(from, to).round(r, GivenPivotRows<T>{pivot_rows});
  };
  const auto close_pivot = [&](int r) {
    block(r, r + 1).round(r, StagedPivotRows<ExecSpace, T>{&exchange});
  };
  // One process: round r + 1's pivot tile and panels close on the side instance while main
  // updates the rest of round r. First the side updates the "cross" of round r (the tiles of
  // row and column r + 1), which needs round r - 1's tiles from main, then closes pivot r + 1;
  // main's part of round r (every tile outside rows and columns r and r + 1) reads only round
  // r's panels, which the side no longer writes, and writes nothing the side reads; main's round
  // r + 1 waits for the side's panels. Where the backend has one instance, it runs the same
  // launches in the order queued, which satisfies the same dependencies (RoundHooks::lookahead).
  using Part = typename Rounds::Part;
  std::optional<Instances<ExecSpace>> instances;
  if (!exchange.distributed() && first < end &&
      hooks.lookahead.value_or(Instances<ExecSpace>::concurrent))
    instances.emplace(exec);
  const auto block_on = [&](const ExecSpace& on) {
    return Rounds(on, local, first, end - first, tiles);
  };
  const auto fence = [&] {
    if (instances) instances->fence();
    exec.fence();
  };
  const int every = std::max(1, tiles / 100);
  bool closed_ahead = false;  // this rank closed and sent round r's pivot rows in round r-1
  for (int r = 0; r < tiles; ++r) {
    if (hooks.before_round) hooks.before_round(r);
    if (!exchange.distributed()) {
      exchange.share(r);
      if (first < end && !instances) {
        block(first, end).round(r, SharedPivotRows{});
      } else if (first < end) {
        // Lookahead: the side closes round r + 1's pivot while main updates round r's tiles.
        Rounds main = block_on(instances->main()), side = block_on(instances->side());
        if (r == 0) side.close(0, SharedPivotRows{});
        instances->main_after_side();  // round r's panels
        if (r + 1 < tiles) {
          instances->side_after_main();  // round r - 1's tiles
          side.remaining(r, rows_of(r), Part::next_cross);
          side.close(r + 1, SharedPivotRows{});
        }
        main.remaining(r, rows_of(r), r + 1 < tiles ? Part::outside_next : Part::all);
      }
    } else {
      const bool owner = blocks.owner(r) == ranks.rank();
      const T* pivot_rows;
      if (owner) {
        if (!closed_ahead) {
          close_pivot(r);
          exchange.share(r);
        }
        pivot_rows = rows_of(r);
      } else {
        pivot_rows = exchange.share(r);
      }
      closed_ahead = r + 1 < tiles && blocks.owner(r + 1) == ranks.rank();
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
    if (hooks.progress && ranks.root() && ((r + 1) % every == 0 || r + 1 == tiles)) {
      fence();
      hooks.progress(r + 1, tiles);
    }
  }
  fence();
}

// Floyd-Warshall on the rows of this rank: `rows` holds tile rows [first(p), first(p) +
// count(p)) of the plan's N x N matrix, blocks = {N / tile, P}. Collective; a failure on any rank
// throws the same apsp::Error on every rank.
template <class ExecSpace, class T>
ExchangeStats floyd_warshall_rows(
    Ranks& ranks, const ExecSpace& exec,
    const Kokkos::View<T**, Kokkos::LayoutRight, typename ExecSpace::memory_space>& rows,
    const Plan& plan, const RoundHooks& hooks = {}) {
  if (plan.distance != Distance<T>::type)
    throw Error(std::string("the plan is for ") + distance_type_name(plan.distance) +
                " distances, the matrix holds " + distance_type_name(Distance<T>::type));
  const int tile = plan.shape.tile;
  const std::int64_t n = rows.extent(1);
  if (tile <= 0 || n % tile != 0)
    throw Error("distance rows of " + std::to_string(n) + " columns are not whole tiles of " +
                std::to_string(tile) + ": allocate them with the plan's padded size");
  const RowBlocks blocks{int(n / tile), ranks.size()};
  if (std::int64_t(rows.extent(0)) != std::int64_t(blocks.count(ranks.rank())) * tile)
    throw Error("rank " + std::to_string(ranks.rank()) + " holds " +
                std::to_string(rows.extent(0)) + " rows, but its block of tile rows has " +
                std::to_string(std::int64_t(blocks.count(ranks.rank())) * tile));
  if (n == 0) return {};
  std::unique_ptr<Ranks> holders = ranks.split(blocks.count(ranks.rank()) > 0 ? 0 : -1);
  std::unique_ptr<PivotRowsExchange<ExecSpace, T>> exchange;
  collectively(ranks, [&] {
    exchange = std::make_unique<PivotRowsExchange<ExecSpace, T>>(exec, ranks, holders.get(), blocks,
                                                                 std::int64_t(tile) * n);
  });
  collectively(ranks, [&] {
    bool ran = false;
    visit_shape(typename ShapeTable<ExecSpace, T>::type{}, plan.shape.index, [&](auto shape_tag) {
      if (decltype(shape_tag)::tile != tile)
        throw Error("the plan's shape " + std::to_string(plan.shape.index) + " has tiles of " +
                    std::to_string(decltype(shape_tag)::tile) + ", not " + std::to_string(tile) +
                    ": make plans with apsp::make_plan");
      visit_relaxation<T>(plan.negative_weights, [&](auto relax_tag) {
        run_rounds<ExecSpace, decltype(shape_tag), decltype(relax_tag)>(
            exec, ranks, blocks, rows.data(), n, *exchange, hooks);
      });
      ran = true;
    });
    if (!ran)
      throw Error("no shape " + std::to_string(plan.shape.index) + " in the table of " +
                  ExecSpace::name() + ": make plans with apsp::make_plan");
  });
  return exchange->stats();
}

}  // namespace detail
}  // namespace apsp
