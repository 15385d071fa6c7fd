// Host memory that device data passes through: pinned where the backend has it, so that copies
// run asynchronously and at full speed; and whether a backend's memory is the host's.
#pragma once

#include <apsp/detail/execution_spaces.hpp>

#include <Kokkos_Core.hpp>

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

}  // namespace detail
}  // namespace apsp
