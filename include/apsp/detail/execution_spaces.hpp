// Names of Kokkos execution spaces that moved between Kokkos versions, for the kernels' tables
// and the staging buffers of each backend.
#pragma once

#include <Kokkos_Core.hpp>

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

}  // namespace detail
}  // namespace apsp
