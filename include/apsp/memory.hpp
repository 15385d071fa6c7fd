// The memory check of every solver (Solver, SupernodalSolver, BatchedSolver): before any work,
// what a rank needs against what its device can give, for the ranks that share one device
// together. The driver says where the memory is (MemoryLimits: what the device has free, its own
// cap); the solver says what it needs and decides how to use its budget.
#pragma once

#include <apsp/detail/execution_spaces.hpp>
#include <apsp/detail/measure.hpp>
#include <apsp/detail/staging.hpp>
#include <apsp/error.hpp>
#include <apsp/ranks.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace apsp {

// Where a solve's memory is, as the driver finds it.
struct MemoryLimits {
  std::uint64_t free = 0;  // what the device has free, for all the ranks given it
  std::uint64_t cap = 0;   // the caller's cap on each rank (0: none)
  std::string device;      // the device's name, for errors
  bool host = false;       // host memory (an algorithm of the host), not a device's
  // What the caller keeps out of `free` and `cap` for itself, in words for the errors ("" none).
  std::string beside;
};

// Memory as the solvers count it, for drivers that count their own beside it: sums that saturate
// instead of wrapping, sizes in words ("6.40 GiB"), and whether ExecSpace's memory is the host's
// (then a driver's host memory and the solver's come out of one budget).
using detail::saturating_sum;
using detail::size_text;
template <class ExecSpace>
constexpr bool host_memory = detail::host_memory<ExecSpace>;

namespace detail {

// Ranks that share a device share its memory: all ranks of a node on a host backend, the ranks
// of a node given the same GPU otherwise.
template <class ExecSpace>
int device_key(const ExecSpace& exec) {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same<ExecSpace, Kokkos::Cuda>::value) return exec.cuda_device();
#endif
#if defined(KOKKOS_ENABLE_HIP)
  if constexpr (std::is_same<ExecSpace, HipExecutionSpace>::value) return exec.hip_device();
#endif
  (void)exec;
  return 0;
}

}  // namespace detail

// The fewest ranks whose solve fits in the given bytes on each rank (0: no rank count would), as
// a solver whose rows split over ranks computes it from its plan (Solver::fitting_ranks).
using FittingRanks = std::function<int(std::uint64_t bytes_per_rank)>;

// Collective on `ranks`: this rank needs `need` bytes of its device's memory (`what`, in words,
// for the error). The ranks that share the device (`sharing`) need the sum of theirs. Throws
// MemoryError on every rank when one rank's need passes the cap, or a device's the free bytes;
// returns this rank's budget: an equal share of what the device may give (capped). `fitting`,
// where given, names in the error the fewest ranks that would hold the solve, each with what
// this rank may use (the cap, or the device's free memory).
inline std::uint64_t check_memory(Ranks& ranks, Ranks& sharing, std::int64_t vertices,
                                  std::uint64_t need, const std::string& what,
                                  const MemoryLimits& limits, const FittingRanks& fitting = {}) {
  const std::vector<std::uint64_t> needs = gather_all(sharing, std::vector<std::uint64_t>{need});
  const std::uint64_t device_need = detail::saturating_sum(needs);
  const int ranks_sharing = int(needs.size());
  std::uint64_t budget = 0;
  const std::uint64_t usable =
      limits.cap > 0 && limits.cap < limits.free ? limits.cap : limits.free;
  collectively(ranks, [&] {
    const bool capped = limits.cap > 0 && need > limits.cap;
    if (!capped && device_need <= limits.free) return;
    const int fitting_ranks = fitting ? fitting(usable) : 0;
    std::string fit;
    if (fitting_ranks > 0)
      fit = "; with " + std::to_string(fitting_ranks) + (fitting_ranks > 1 ? " ranks" : " rank") +
            " of " +
            (capped        ? "that"
             : limits.host ? "this machine's"
                           : "this device's") +
            " memory each it would fit";
    const std::string problem = "V = " + std::to_string(vertices) + " needs ";
    if (capped)
      throw MemoryError(problem + detail::size_text(need) +
                            (limits.host ? "" : " of device memory") + " on this rank (" + what +
                            "), but the cap allows " + detail::size_text(limits.cap) +
                            (limits.beside.empty() ? "" : " beside " + limits.beside) + fit,
                        need, limits.cap, true, ranks_sharing, limits.host, fitting_ranks);
    throw MemoryError(
        problem + detail::size_text(device_need) + " on " + limits.device + " (" + what +
            (ranks_sharing > 1
                 ? " on each of the " + std::to_string(ranks_sharing) + " ranks sharing it"
                 : "") +
            "), but only " + detail::size_text(limits.free) + " can be used" +
            (limits.beside.empty() ? "" : " beside " + limits.beside) + fit,
        device_need, limits.free, false, ranks_sharing, limits.host, fitting_ranks);
  });
  budget = usable / std::uint64_t(ranks_sharing);
  return budget;
}

// The same for a solver on `exec`: the ranks sharing its device found from the device.
template <class ExecSpace>
std::uint64_t check_memory(const ExecSpace& exec, Ranks& ranks, std::int64_t vertices,
                           std::uint64_t need, const std::string& what, const MemoryLimits& limits,
                           const FittingRanks& fitting = {}) {
  const std::unique_ptr<Ranks> sharing = ranks.sharing_device(detail::device_key(exec));
  return check_memory(ranks, *sharing, vertices, need, what, limits, fitting);
}

// One process's memory on both sides of a solve on ExecSpace, before any work: `device_need`
// bytes of the device (`limits`) and `host_need` of the host (`host_free` there). On a host
// backend the two are one memory, which must hold their sum. Throws MemoryError, worded
// "<what> needs ..."; returns what the device leaves a solver's own check (check_memory): on a
// host backend, the free memory less host_need.
template <class ExecSpace>
MemoryLimits check_device_and_host(const std::string& what, std::uint64_t device_need,
                                   std::uint64_t host_need, const MemoryLimits& limits,
                                   std::uint64_t host_free) {
  using detail::size_text;
  const std::uint64_t usable =
      limits.cap > 0 && limits.cap < limits.free ? limits.cap : limits.free;
  MemoryLimits left = limits;
  if (detail::host_memory<ExecSpace>) {
    const std::uint64_t need = detail::saturating_sum({device_need, host_need});
    if (need > usable)
      throw MemoryError(
          what + " needs " + size_text(need) + " of memory, " + size_text(usable) + " available",
          need, usable, false, 1, true);
    left.free = limits.free > host_need ? limits.free - host_need : 0;
  } else if (device_need > usable || host_need > host_free) {
    const bool device_short = device_need > usable;
    throw MemoryError(what + " needs " + size_text(device_need) + " on " + limits.device + " (" +
                          size_text(usable) + " available) and " + size_text(host_need) +
                          " on the host (" + size_text(host_free) + " available)",
                      device_short ? device_need : host_need, device_short ? usable : host_free,
                      false, 1, !device_short);
  }
  return left;
}

}  // namespace apsp
