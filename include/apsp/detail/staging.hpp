// Host memory that device data passes through: pinned where the backend has it, so that copies
// run asynchronously and at full speed; whether a backend's memory is the host's; and a device
// array's download into a caller's host array through it (download_to_host).
#pragma once

#include <apsp/detail/execution_spaces.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

namespace apsp {
namespace detail {

template <class ExecSpace>
constexpr bool host_memory =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;

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
  using type = HipHostPinnedSpace;
};
#endif

// memcpy on several host threads at once, for copies into memory the caller has just allocated:
// its pages are faulted in (the kernel zeroes each) on the thread that first writes them, and one
// thread does that at about a fifth of the speed at which a GPU hands the data over
// (docs/PERFORMANCE.md entry 65). Kokkos' host space may be Serial beside a GPU, so these are
// threads of their own, started once for a download.
class HostCopiers {
 public:
  explicit HostCopiers(int threads) {
    for (int i = 1; i < threads; ++i)
      workers_.emplace_back([this, i] { work(i); });
  }
  HostCopiers(const HostCopiers&) = delete;
  HostCopiers& operator=(const HostCopiers&) = delete;
  ~HostCopiers() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    go_.notify_all();
    for (std::thread& w : workers_)
      w.join();
  }

  // `bytes` from `from` to `to`, a share on each thread (this one's included); returns when done.
  void copy(void* to, const void* from, std::size_t bytes) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      to_ = static_cast<char*>(to);
      from_ = static_cast<const char*>(from);
      bytes_ = bytes;
      pending_ = int(workers_.size());
      ++generation_;
    }
    go_.notify_all();
    copy_share(0);
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return pending_ == 0; });
  }

  // The threads a download uses here: the host's, at most 16 (on a 16-core H200 node 8 threads
  // took 0.09 s for 1.15 GB, 16 took 0.08 s: entry 65).
  static int threads() {
    return int(std::clamp<unsigned>(std::thread::hardware_concurrency(), 1, 16));
  }

 private:
  void copy_share(int i) {
    const std::size_t parts = workers_.size() + 1;
    const std::size_t share = (bytes_ + parts - 1) / parts;
    const std::size_t lo = std::min(bytes_, share * std::size_t(i));
    const std::size_t hi = std::min(bytes_, lo + share);
    if (hi > lo) std::memcpy(to_ + lo, from_ + lo, hi - lo);
  }
  void work(int i) {
    std::uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        go_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
      }
      copy_share(i);
      {
        std::lock_guard<std::mutex> lock(mutex_);
        --pending_;
      }
      done_.notify_one();
    }
  }

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable go_, done_;
  std::uint64_t generation_ = 0;
  int pending_ = 0;
  bool stop_ = false;
  char* to_ = nullptr;
  const char* from_ = nullptr;
  std::size_t bytes_ = 0;
};

// The pinned host memory of download_to_host: two chunks of 32 MiB (none on a host backend).
constexpr std::size_t download_chunk_bytes = std::size_t(32) << 20;
template <class ExecSpace>
constexpr std::uint64_t download_staging_bytes() {
  return host_memory<ExecSpace> ? 0 : 2 * download_chunk_bytes;
}

// The `count` values of the device array `from` into the host array `to`, fenced on return. A
// GPU's copy into pageable memory runs at the speed of the one driver thread that also faults the
// pages in (1.15 GB fresh from NumPy: 0.34-0.43 s on an H200 node); here the data comes through
// two pinned chunks, one on its way up while the other is copied into `to` on HostCopiers'
// threads (0.08-0.09 s). Small arrays go directly.
template <class ExecSpace, class U, class... P>
void download_to_host(const ExecSpace& exec, const Kokkos::View<U*, P...>& from, U* to,
                      std::size_t count) {
  using Host = Kokkos::View<U*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  constexpr std::size_t chunk = download_chunk_bytes / sizeof(U);
  if (host_memory<ExecSpace> || count <= 2 * chunk) {
    Kokkos::deep_copy(exec, Host(to, count),
                      Kokkos::subview(from, std::make_pair(std::size_t(0), count)));
    exec.fence();
    return;
  }
  using Pinned = Kokkos::View<U*, typename StagingSpace<ExecSpace>::type>;
  const Pinned staged[2] = {
      Pinned(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::download::a"), chunk),
      Pinned(Kokkos::view_alloc(Kokkos::WithoutInitializing, "apsp::download::b"), chunk)};
  HostCopiers copiers(HostCopiers::threads());
  const std::size_t chunks = (count + chunk - 1) / chunk;
  const auto issue = [&](std::size_t k) {
    const std::size_t lo = k * chunk, hi = std::min(count, lo + chunk);
    Kokkos::deep_copy(exec, Kokkos::subview(staged[k % 2], std::make_pair(std::size_t(0), hi - lo)),
                      Kokkos::subview(from, std::make_pair(lo, hi)));
  };
  issue(0);
  for (std::size_t k = 0; k < chunks; ++k) {
    exec.fence();  // chunk k is in staged[k % 2]; staged[(k + 1) % 2] was copied out before
    if (k + 1 < chunks) issue(k + 1);
    const std::size_t lo = k * chunk, hi = std::min(count, lo + chunk);
    copiers.copy(to + lo, staged[k % 2].data(), (hi - lo) * sizeof(U));
  }
}

}  // namespace detail
}  // namespace apsp
