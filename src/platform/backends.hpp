// The Kokkos execution spaces this build of apsp runs on, chosen by name at run time, and what
// the program needs to know of each device (its name, its free memory).
#pragma once

#include <apsp/config.hpp>
#include <apsp/detail/execution_spaces.hpp>
#include <apsp/error.hpp>

#include <Kokkos_Core.hpp>

#include <cctype>
#include <cstdint>
#include <exception>
#include <string>
#include <tuple>
#include <vector>

namespace apsp {

// decltype of a tuple_cat: unevaluated, only the list of types matters.
using KokkosBackends = decltype(std::tuple_cat(
#if defined(KOKKOS_ENABLE_CUDA)
    std::tuple<Kokkos::Cuda>(),
#endif
#if defined(KOKKOS_ENABLE_HIP)
    std::tuple<detail::HipExecutionSpace>(),
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
    std::tuple<Kokkos::OpenMP>(),
#endif
#if defined(KOKKOS_ENABLE_SERIAL)
    std::tuple<Kokkos::Serial>(),
#endif
    std::tuple<>()));

// The backends apsp runs on: every one of Kokkos' above, except in a checking build configured
// with APSP_CHECK_INSTANTIATIONS=minimal (CMakeLists.txt), which compiles and tests the first
// alone (the GPU's, else OpenMP), its default: the full builds check the others.
#if defined(APSP_MINIMAL_INSTANTIATIONS)
using EnabledBackends = std::tuple<std::tuple_element_t<0, KokkosBackends>>;
#else
using EnabledBackends = KokkosBackends;
#endif

template <class ExecSpace>
std::string backend_name() {
  std::string name = ExecSpace::name();
  for (char& c : name)
    c = char(std::tolower(static_cast<unsigned char>(c)));
  return name;
}

// The Kokkos this code was compiled against, "major.minor.patch".
inline std::string kokkos_version() {
  return std::to_string(KOKKOS_VERSION / 10000) + "." + std::to_string(KOKKOS_VERSION / 100 % 100) +
         "." + std::to_string(KOKKOS_VERSION % 100);
}

// Names of the enabled backends, the default first.
std::vector<std::string> backend_names();
// The backend `apsp` uses when none is asked for (a CMake option may pick it; else Kokkos').
std::string default_backend_name();

namespace detail {
template <class F, std::size_t I = 0>
void with_backend_at(const std::string& name, F& f) {
  if constexpr (I < std::tuple_size<EnabledBackends>::value) {
    using Exec = std::tuple_element_t<I, EnabledBackends>;
    if (backend_name<Exec>() == name) {
      f(Exec());
      return;
    }
    with_backend_at<F, I + 1>(name, f);
  } else {
    std::string names;
    for (const auto& n : backend_names())
      names += (names.empty() ? "" : ", ") + n;
    throw Error("backend '" + name + "' is not in this build (available: " + names + ")");
  }
}
}  // namespace detail

// Calls f(exec) with an instance of the execution space called `name` ("" for the default).
template <class F>
void with_backend(const std::string& name, F&& f) {
  detail::with_backend_at(name.empty() ? default_backend_name() : name, f);
}

// "NVIDIA H200, 132 SMs, 139.7 GiB" / "OpenMP, 2 threads".
template <class ExecSpace>
std::string describe_device(const ExecSpace& exec);
// What the kernels were compiled for: "sm_90" (CUDA: the device's compute capability),
// "gfx90a" (HIP), or the host's vector ISA ("avx512", "avx2", "neon", "generic") followed by the
// processor's model name.
template <class ExecSpace>
std::string device_isa(const ExecSpace& exec);
// GPUs that a GPU backend of this build could use (0 when none is visible); -1 when the build has
// no GPU backend.
int gpu_count();

// Bytes the backend can still allocate (device memory; host memory for host backends).
template <class ExecSpace>
std::uint64_t available_memory(const ExecSpace& exec);

// Why Kokkos::initialize threw (`e`), in one line for an error message. Kokkos words a backend
// that cannot start (a CUDA build on a node without its GPU; the CUDA runtime under an
// address-space limit, `ulimit -v`, that its start-up reservations do not fit in) on several
// lines: the error, the source file and line of Kokkos that saw it, and a "Traceback" line. This
// keeps the first line without the source, names the backend, and the address-space limit when
// one is set.
std::string kokkos_start_failure(const std::exception& e);

}  // namespace apsp
