# FindNCCL: NCCL (nccl.h, libnccl), or on HIP RCCL (rccl/rccl.h, librccl), as find_package(NCCL)
# finds it. Defines the imported target NCCL::NCCL and NCCL_FOUND, NCCL_INCLUDE_DIR, NCCL_LIBRARY.
# Where it looks, first to last: NCCL_ROOT (CMake or environment; CMake's own <Package>_ROOT), the
# CUDA toolkit's own directory (CUDA 12.8+ ship NCCL there: CUDAToolkit_ROOT, CUDA_HOME, CUDA_PATH,
# the directory of the nvcc on the PATH), ROCM_PATH (default /opt/rocm) for RCCL, then the system.
set(_nccl_hints ${NCCL_ROOT} $ENV{NCCL_ROOT} ${CUDAToolkit_ROOT} $ENV{CUDA_HOME} $ENV{CUDA_PATH})
find_program(_nccl_nvcc nvcc)
if(_nccl_nvcc)
  get_filename_component(_nccl_cuda "${_nccl_nvcc}" DIRECTORY)
  get_filename_component(_nccl_cuda "${_nccl_cuda}" DIRECTORY)
  list(APPEND _nccl_hints "${_nccl_cuda}")
endif()
list(APPEND _nccl_hints /usr/local/cuda)
set(_rocm $ENV{ROCM_PATH})
if(NOT _rocm)
  set(_rocm /opt/rocm)
endif()

if(Kokkos_DEVICES MATCHES "HIP")
  find_path(NCCL_INCLUDE_DIR rccl/rccl.h HINTS ${_nccl_hints} ${_rocm} PATH_SUFFIXES include)
  find_library(NCCL_LIBRARY NAMES rccl HINTS ${_nccl_hints} ${_rocm} PATH_SUFFIXES lib lib64)
else()
  find_path(NCCL_INCLUDE_DIR nccl.h HINTS ${_nccl_hints} PATH_SUFFIXES include)
  find_library(NCCL_LIBRARY NAMES nccl HINTS ${_nccl_hints} PATH_SUFFIXES lib lib64)
endif()
mark_as_advanced(NCCL_INCLUDE_DIR NCCL_LIBRARY)

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(NCCL REQUIRED_VARS NCCL_LIBRARY NCCL_INCLUDE_DIR)

if(NCCL_FOUND AND NOT TARGET NCCL::NCCL)
  add_library(NCCL::NCCL UNKNOWN IMPORTED)
  set_target_properties(NCCL::NCCL PROPERTIES
    IMPORTED_LOCATION "${NCCL_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${NCCL_INCLUDE_DIR}")
endif()
unset(_nccl_hints)
unset(_nccl_nvcc CACHE)
unset(_nccl_cuda)
unset(_rocm)
