# FindMETIS: METIS 5 (metis.h with a 32-bit idx_t, libmetis), as find_package(METIS) finds it.
# Defines the imported target METIS::METIS and METIS_FOUND, METIS_INCLUDE_DIR, METIS_LIBRARY.
# Where it looks, first to last: METIS_ROOT (CMake or environment; CMake's own <Package>_ROOT),
# the hints in METIS_HINTS (apsp's installed package config passes the METIS apsp was built
# with), $APSP_DEPS_DIR/metis (default ~/.cache/apsp-deps/metis, the static library
# scripts/bootstrap-deps builds), the system (Debian's libmetis-dev). A static libmetis.a is
# preferred to a shared one in every place: a binary carried to another machine would need the
# shared one there too. Cross builds look only in their sysroot (CMAKE_FIND_ROOT_PATH_MODE_*).
# A METIS whose idx_t is 64-bit is not found: apsp's ordering passes 32-bit indices.
set(_metis_deps_dir "$ENV{APSP_DEPS_DIR}")
if(NOT _metis_deps_dir AND DEFINED ENV{HOME})
  set(_metis_deps_dir "$ENV{HOME}/.cache/apsp-deps")
endif()
set(_metis_hints ${METIS_ROOT} $ENV{METIS_ROOT} ${METIS_HINTS})
if(_metis_deps_dir)
  list(APPEND _metis_hints "${_metis_deps_dir}/metis")
endif()

find_path(METIS_INCLUDE_DIR metis.h HINTS ${_metis_hints} PATH_SUFFIXES include)
find_library(METIS_LIBRARY NAMES libmetis.a metis HINTS ${_metis_hints} PATH_SUFFIXES lib lib64)
mark_as_advanced(METIS_INCLUDE_DIR METIS_LIBRARY)

set(METIS_IDXTYPEWIDTH_32 FALSE)
if(METIS_INCLUDE_DIR)
  file(STRINGS "${METIS_INCLUDE_DIR}/metis.h" _metis_idx REGEX "^#define IDXTYPEWIDTH ")
  if(_metis_idx MATCHES "IDXTYPEWIDTH 32")
    set(METIS_IDXTYPEWIDTH_32 TRUE)
  elseif(NOT METIS_FIND_QUIETLY)
    message(WARNING "${METIS_INCLUDE_DIR}/metis.h: idx_t is not 32-bit (${_metis_idx}); "
                    "apsp's ordering passes 32-bit indices, so METIS is not used")
  endif()
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(METIS
  REQUIRED_VARS METIS_LIBRARY METIS_INCLUDE_DIR METIS_IDXTYPEWIDTH_32)

if(METIS_FOUND AND NOT TARGET METIS::METIS)
  add_library(METIS::METIS UNKNOWN IMPORTED)
  set_target_properties(METIS::METIS PROPERTIES
    IMPORTED_LOCATION "${METIS_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${METIS_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES m)
endif()
unset(_metis_deps_dir)
unset(_metis_hints)
unset(_metis_idx)
unset(METIS_IDXTYPEWIDTH_32)
