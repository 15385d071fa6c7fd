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
// the others after it. Where the caller gives a device link (device_link.hpp: NCCL, IPC) the
// rows go device to device instead, on a stream of their own (PivotRowsExchange). With one rank
// holding rows nothing travels, and the same lookahead runs on two instances of the device where
// the backend has them (below).
//
// Failures: each round has its agreement just before its broadcast, so the collectives of every
// rank run in the same order (agree 0, broadcast 0, agree 1, ...): a rank that fails in a round
// goes straight to its next agreement, which is the next collective of every other rank as well.
// A device link's transfers follow the same order, so every rank has queued the same ones.
#pragma once

#include <apsp/detail/blocked_rounds.hpp>
#include <apsp/detail/instances.hpp>
#include <apsp/detail/measure.hpp>
#include <apsp/detail/staging.hpp>
#include <apsp/device_link.hpp>
#include <apsp/plan.hpp>
#include <apsp/ranks.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace apsp {

// What a rank spent moving pivot rows: the seconds its host waited for or sent them, the seconds
// a device link's stream spent on them (beside the kernels), and the bytes it received and sent.
// transport: "host" (through host memory), a link's name, or "none" where nothing travels.
struct ExchangeStats {
  double seconds = 0;
  double link_seconds = 0;
  std::uint64_t received_bytes = 0;
  std::uint64_t sent_bytes = 0;
  std::string transport = "none";
};

// Called around the rounds: progress(done, total) now and then after a fence (on rank 0 only),
// before_round(r) at the start of each round (tests inject failures there). Either may be empty.
// lookahead: whether one process closes round r + 1's pivot beside round r's tiles (below); by
// default where the backend runs two instances at once (detail/instances.hpp). On one instance
// the same launches only reorder the work, and OpenMP runs them slower in that order
// (docs/PERFORMANCE.md, "Lookahead"), so tests alone ask for it there.
// device_link: how pivot rows travel between the devices of the ranks that hold rows (device
// backends only); empty, or a null link: through host memory.
struct RoundHooks {
  std::function<void(int, int)> progress;
  std::function<void(int)> before_round;
  std::optional<bool> lookahead;
  DeviceLinkMaker device_link;
};

namespace detail {

// The device link's side of PivotRowsExchange, where the backend has streams: the "pivot-rows
// stream" (our own, non-blocking) that the link's transfers run on, and the events that order it
// against the instance's stream. Receivers take round r into buffer r % 2 once the kernels that
// read that buffer two rounds ago are done, and their round-r kernels wait for its arrival; the
// owner sends from its own rows once its close-pivot kernels are done, while its instance goes on
// with the rest of the round, and writes those rows again only after they are sent.
template <class ExecSpace, bool = Streams<ExecSpace>::available>
class LinkedPivotRows {
 public:
  LinkedPivotRows(const ExecSpace&, std::unique_ptr<DeviceLink>) {}
  void staged() {}
  const void* share(Ranks&, const void*, std::uint64_t, int, bool, int) { return nullptr; }
  void finish() {}
  double seconds() const { return 0; }
};

template <class ExecSpace>
class LinkedPivotRows<ExecSpace, true> {
  using api = Streams<ExecSpace>;
  using Stream = OwnedHandle<ExecSpace, typename api::stream>;
  using Event = OwnedHandle<ExecSpace, typename api::event>;

 public:
  LinkedPivotRows(const ExecSpace& exec, std::unique_ptr<DeviceLink> link)
      : native_(api::native(exec)), link_(std::move(link)) {}
  LinkedPivotRows(const LinkedPivotRows&) = delete;
  LinkedPivotRows& operator=(const LinkedPivotRows&) = delete;
  // After an error (finish() not reached): the link goes first, which ends what it still has
  // queued (a rank that failed never queued its part), then the stream it ran on.
  ~LinkedPivotRows() {
    link_.reset();
    try {
      api::synchronize(pivot_rows_stream_.handle);
    } catch (const Error&) {  // the error that brought us here is the one to report
    }
    release_timing();
  }

  // The owner's pivot rows are final once the work queued on the instance so far is done.
  void staged() { api::record(staged_.handle, native_); }

  // Round r's transfer (slot r % 2), in round order on every holder: the owner's `own` rows, or
  // into a receive buffer, returned. Collective on the holders.
  const void* share(Ranks& holders, const void* own, std::uint64_t bytes, int r, bool owner,
                    int root) {
    const int slot = r % 2;
    const typename api::stream link = pivot_rows_stream_.handle;
    std::string error;
    try {
      // The kernels queued since the last round read the buffer received last: it is free for
      // the round after next once they are done.
      if (reading_ >= 0) api::record(free_[reading_].handle, native_);
      // Rows sent earlier are written again from this round on.
      if (sending_) api::wait(native_, sent_.handle);
      api::wait(link, owner ? staged_.handle : free_[slot].handle);
      timing_.emplace_back(api::make_timing_event(), api::make_timing_event());
      api::record(timing_.back().first, link);
    } catch (...) {
      error = current_exception_message();
    }
    reading_ = -1;
    sending_ = false;
    try {
      // Every holder queues the transfer, or none does: the others' part would wait for ever.
      agree(holders, error);
      link_->broadcast(own, bytes, slot, root, link);
    } catch (const Agreed& e) {
      throw Error(e.what(), e.facts());  // agreed by the holders; the caller's agreement is wider
    }
    api::record(timing_.back().second, link);
    if (owner) {
      api::record(sent_.handle, link);
      sending_ = true;
      return own;
    }
    api::order(link, arrived_.handle, native_);
    reading_ = slot;
    return link_->buffer(slot);
  }

  // Every transfer done (after the last round, on every holder), and the link closed: also when
  // the wait fails, so that every holder closes it at the same point.
  void finish() {
    std::string error;
    try {
      api::synchronize(pivot_rows_stream_.handle);
      for (const auto& [from, to] : timing_)
        seconds_ += api::seconds_between(from, to);
    } catch (const Error& e) {
      error = e.what();
    }
    release_timing();
    link_.reset();
    if (!error.empty()) throw Error(error);
  }
  double seconds() const { return seconds_; }

 private:
  void release_timing() {
    for (const auto& [from, to] : timing_) {
      api::destroy(from);
      api::destroy(to);
    }
    timing_.clear();
  }

  typename api::stream native_;  // the instance's
  Stream pivot_rows_stream_{api::make_stream(false)};
  Event staged_{api::make_event()}, sent_{api::make_event()}, arrived_{api::make_event()};
  Event free_[2] = {Event(api::make_event()), Event(api::make_event())};
  // Each transfer's start and end on the pivot-rows stream.
  std::vector<std::pair<typename api::event, typename api::event>> timing_;
  std::unique_ptr<DeviceLink> link_;
  int reading_ = -1;  // the buffer the kernels queued since the last round read
  bool sending_ = false;
  double seconds_ = 0;
};

// Moves each round's pivot rows from their owner to the other ranks that hold rows: through a
// device link where the caller gives one (device backends), else through host memory.
template <class ExecSpace, class T>
class PivotRowsExchange {
 public:
  using memory_space = typename ExecSpace::memory_space;
  using Unmanaged = Kokkos::View<const T*, memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

  // holders: the ranks that hold rows (null on the others); in it, as in ranks, the owner of
  // tile row t is blocks.owner(t). make_link: the device link among the holders, collective on
  // them (RoundHooks::device_link).
  PivotRowsExchange(const ExecSpace& exec, Ranks& ranks, Ranks* holders, const RowBlocks& blocks,
                    std::int64_t elements, const DeviceLinkMaker& make_link = {})
      : exec_(exec), ranks_(ranks), holders_(holders), blocks_(blocks), elements_(elements) {
    if (!distributed() || !holders_) return;
    stats_.transport = "host";
    if constexpr (Streams<ExecSpace>::available) {
      if (make_link) {
        std::unique_ptr<DeviceLink> link;
        try {
          link = make_link(*holders_, bytes(), 2);
        } catch (const Agreed& e) {
          // The holders agreed; the caller's agreement is over every rank.
          throw Error(e.what(), e.facts());
        }
        if (link) {
          stats_.transport = link->name();
          linked_.emplace(exec, std::move(link));
          return;
        }
      }
    }
    pivot_ = Kokkos::View<T*, memory_space>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::pivot_rows"), elements);
    if constexpr (!host_memory<ExecSpace>)
      staging_ = Kokkos::View<T*, typename StagingSpace<ExecSpace>::type>(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::pivot_rows_staging"), elements);
  }

  // Whether pivot rows travel at all: another rank than the owner holds rows.
  bool distributed() const { return blocks_.holders() > 1; }

  // The owner, once the pivot tile and row panel are queued: readies them for share().
  const T* stage(T* local, const RoundGeometry& geo, int tile) {
    own_ = local + std::int64_t(geo.pivot - geo.first_tile) * tile * geo.ld;
    if (linked_) {
      linked_->staged();
      return own_;
    }
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
    if (owner == ranks_.rank()) stats_.sent_bytes += bytes() * std::uint64_t(blocks_.holders() - 1);
    if (linked_) {
      const bool owns = owner == ranks_.rank();
      const T* rows =
          static_cast<const T*>(linked_->share(*holders_, own_, bytes(), r, owns, owner));
      if (!owns) stats_.received_bytes += bytes();
      stats_.seconds += seconds_since(start);
      return rows;
    }
    if (owner == ranks_.rank()) {
      holders_->broadcast(host_memory<ExecSpace> ? const_cast<T*>(own_) : staging_.data(), bytes(),
                          owner);
      stats_.seconds += seconds_since(start);
      return own_;
    }
    if constexpr (host_memory<ExecSpace>) {
      stats_.seconds += seconds_since(start);
      exec_.fence();  // the last round's kernels are done with the pivot buffer
      start = Clock::now();
      holders_->broadcast(pivot_.data(), bytes(), owner);
    } else {
      // Into host memory while the device still runs the last round, which reads pivot_.
      holders_->broadcast(staging_.data(), bytes(), owner);
      stats_.seconds += seconds_since(start);
      exec_.fence();
      start = Clock::now();
      Kokkos::deep_copy(exec_, pivot_, staging_);
      exec_.fence();  // staging_ is free for the next round
    }
    stats_.seconds += seconds_since(start);
    stats_.received_bytes += bytes();
    return pivot_.data();
  }

  // After the last round, on every rank: a link's transfers done.
  void finish() {
    if (!linked_) return;
    const auto start = Clock::now();
    linked_->finish();
    stats_.seconds += seconds_since(start);
    stats_.link_seconds = linked_->seconds();
  }

  const ExchangeStats& stats() const { return stats_; }

 private:
  std::uint64_t bytes() const { return std::uint64_t(elements_) * sizeof(T); }

  ExecSpace exec_;
  Ranks& ranks_;
  Ranks* holders_;
  RowBlocks blocks_;
  std::int64_t elements_;
  Kokkos::View<T*, memory_space> pivot_;
  Kokkos::View<T*, typename StagingSpace<ExecSpace>::type> staging_;
  std::optional<LinkedPivotRows<ExecSpace>> linked_;
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
  exchange.finish();
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
    exchange = std::make_unique<PivotRowsExchange<ExecSpace, T>>(
        exec, ranks, holders.get(), blocks, std::int64_t(tile) * n, hooks.device_link);
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
