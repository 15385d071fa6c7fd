// Names of Kokkos execution spaces that moved between Kokkos versions, for the kernels' tables
// and the staging buffers of each backend; and where a team's scratch goes.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstddef>

namespace apsp {
namespace detail {

#if defined(KOKKOS_ENABLE_HIP)
// AMD GPUs: Kokkos 4 moved the HIP spaces out of Experimental.
#if KOKKOS_VERSION >= 40000
using HipExecutionSpace = Kokkos::HIP;
using HipHostPinnedSpace = Kokkos::HIPHostPinnedSpace;
#else
using HipExecutionSpace = Kokkos::Experimental::HIP;
using HipHostPinnedSpace = Kokkos::Experimental::HIPHostPinnedSpace;
#endif
#endif

// The scratch level for a team of Policy that needs `bytes`: 0 (a GPU's shared memory) where they
// fit, else 1 (global memory), not a launch that fails.
template <class Policy>
int scratch_level(std::size_t bytes) {
  return bytes <= std::size_t(Policy::scratch_size_max(0)) ? 0 : 1;
}

}  // namespace detail
}  // namespace apsp
