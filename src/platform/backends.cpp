#include <apsp/config.hpp>
#include <apsp/detail/tile_shapes.hpp>

#include "io/posix_files.hpp"
#include "platform/backends.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <fstream>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif
#if defined(KOKKOS_ENABLE_HIP)
#include <hip/hip_runtime_api.h>
#endif

namespace apsp {

int gpu_count() {
#if defined(KOKKOS_ENABLE_CUDA)
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
#elif defined(KOKKOS_ENABLE_HIP)
  int count = 0;
  return hipGetDeviceCount(&count) == hipSuccess ? count : 0;
#else
  return -1;
#endif
}

namespace {
template <class Tuple, std::size_t... I>
void collect_names(std::vector<std::string>& names, std::index_sequence<I...>) {
  (
      [&] {
        const std::string name = backend_name<std::tuple_element_t<I, Tuple>>();
        for (const auto& n : names)
          if (n == name) return;
        names.push_back(name);
      }(),
      ...);
}

std::uint64_t host_available_memory() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  return std::uint64_t(-1);  // unknown: do not refuse
}
}  // namespace

std::vector<std::string> backend_names() {
  std::vector<std::string> names{default_backend_name()};
  collect_names<EnabledBackends>(
      names, std::make_index_sequence<std::tuple_size<EnabledBackends>::value>{});
  return names;
}

std::string default_backend_name() {
#if defined(APSP_DEFAULT_BACKEND)
  return APSP_DEFAULT_BACKEND;
#elif defined(APSP_MINIMAL_INSTANTIATIONS)
  return backend_name<std::tuple_element_t<0, EnabledBackends>>();
#else
  return backend_name<Kokkos::DefaultExecutionSpace>();
#endif
}

template <class ExecSpace>
std::string describe_device(const ExecSpace& exec) {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same<ExecSpace, Kokkos::Cuda>::value) {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, exec.cuda_device());
    return std::string(prop.name) + ", " + std::to_string(prop.multiProcessorCount) + " SMs, " +
           detail::size_text(prop.totalGlobalMem);
  }
#endif
#if defined(KOKKOS_ENABLE_HIP)
  if constexpr (std::is_same<ExecSpace, detail::HipExecutionSpace>::value) {
    hipDeviceProp_t prop;
    if (hipGetDeviceProperties(&prop, exec.hip_device()) == hipSuccess)
      return std::string(prop.name) + " (" + prop.gcnArchName + "), " +
             std::to_string(prop.multiProcessorCount) + " CUs, " +
             detail::size_text(prop.totalGlobalMem);
  }
#endif
  return std::string(ExecSpace::name()) + ", " + std::to_string(exec.concurrency()) + " threads";
}

namespace {
// /proc/cpuinfo's first "model name" (x86) or "CPU part" (Arm), else "unknown processor".
std::string host_processor() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);)
    for (const char* key : {"model name", "CPU part"})
      if (line.rfind(key, 0) == 0 && line.find(':') != std::string::npos)
        return line.substr(line.find_first_not_of(" \t", line.find(':') + 1));
  return "unknown processor";
}
}  // namespace

template <class ExecSpace>
std::string device_isa(const ExecSpace& exec) {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same<ExecSpace, Kokkos::Cuda>::value) {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, exec.cuda_device());
    return "sm_" + std::to_string(prop.major) + std::to_string(prop.minor);
  }
#endif
#if defined(KOKKOS_ENABLE_HIP)
  if constexpr (std::is_same<ExecSpace, detail::HipExecutionSpace>::value) {
    hipDeviceProp_t prop;
    if (hipGetDeviceProperties(&prop, exec.hip_device()) == hipSuccess) return prop.gcnArchName;
  }
#endif
  (void)exec;
  return std::string(detail::HostVectorRegisters::isa) + ", " + host_processor();
}

template <class ExecSpace>
std::uint64_t available_memory(const ExecSpace&) {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same<ExecSpace, Kokkos::Cuda>::value) {
    std::size_t free_bytes = 0, total = 0;
    if (cudaMemGetInfo(&free_bytes, &total) == cudaSuccess) return free_bytes;
    return std::uint64_t(-1);
  }
#endif
#if defined(KOKKOS_ENABLE_HIP)
  if constexpr (std::is_same<ExecSpace, detail::HipExecutionSpace>::value) {
    std::size_t free_bytes = 0, total = 0;
    if (hipMemGetInfo(&free_bytes, &total) == hipSuccess) return free_bytes;
    return std::uint64_t(-1);
  }
#endif
  return host_available_memory();
}

std::string kokkos_start_failure(const std::exception& e) {
  std::string reason = e.what();
  reason.erase(std::min(reason.find('\n'), reason.size()));
  // A CUDA or HIP error ends in Kokkos' source, " /path/to/Kokkos_Cuda_Instance.cpp:224": a
  // file of the machine that built Kokkos, which tells a user nothing.
  const std::size_t last = reason.rfind(' ');
  if (last != std::string::npos && reason.find('/', last) != std::string::npos &&
      reason.find(':', last) != std::string::npos)
    reason.erase(last);
  std::string message = "Kokkos could not start the " +
                        backend_name<Kokkos::DefaultExecutionSpace>() + " backend: " + reason;
  struct rlimit limit;
  if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    message +=
        " (the address space is limited to " + detail::size_text(limit.rlim_cur) + ": ulimit -v)";
  return message;
}

#define APSP_INSTANTIATE_BACKEND(EXEC)                     \
  template std::string describe_device<EXEC>(const EXEC&); \
  template std::string device_isa<EXEC>(const EXEC&);      \
  template std::uint64_t available_memory<EXEC>(const EXEC&);

#if defined(KOKKOS_ENABLE_CUDA)
APSP_INSTANTIATE_BACKEND(Kokkos::Cuda)
#endif
#if defined(KOKKOS_ENABLE_HIP)
APSP_INSTANTIATE_BACKEND(detail::HipExecutionSpace)
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
APSP_INSTANTIATE_BACKEND(Kokkos::OpenMP)
#endif
#if defined(KOKKOS_ENABLE_SERIAL)
APSP_INSTANTIATE_BACKEND(Kokkos::Serial)
#endif

}  // namespace apsp
