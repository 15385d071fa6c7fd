# Finds METIS 5 (metis.h with a 32-bit idx_t, libmetis) and defines the imported target
# apsp_metis; leaves it undefined when none is found. Where it looks, first to last: METIS_ROOT
# (CMake or environment), $APSP_DEPS_DIR/metis (default ~/.cache/apsp-deps/metis, the static
# library scripts/bootstrap-deps builds), the system. A static libmetis.a is preferred to a shared
# one in every place. Cross builds look only in their sysroot (CMAKE_FIND_ROOT_PATH_MODE_*).
set(apsp_deps_dir "$ENV{APSP_DEPS_DIR}")
if(NOT apsp_deps_dir AND DEFINED ENV{HOME})
  set(apsp_deps_dir "$ENV{HOME}/.cache/apsp-deps")
endif()
set(apsp_metis_hints ${METIS_ROOT} $ENV{METIS_ROOT})
if(apsp_deps_dir)
  list(APPEND apsp_metis_hints "${apsp_deps_dir}/metis")
endif()

find_path(APSP_METIS_INCLUDE_DIR metis.h HINTS ${apsp_metis_hints} PATH_SUFFIXES include)
find_library(APSP_METIS_LIBRARY NAMES libmetis.a metis HINTS ${apsp_metis_hints}
             PATH_SUFFIXES lib lib64)
mark_as_advanced(APSP_METIS_INCLUDE_DIR APSP_METIS_LIBRARY)

if(APSP_METIS_INCLUDE_DIR AND APSP_METIS_LIBRARY)
  file(STRINGS "${APSP_METIS_INCLUDE_DIR}/metis.h" apsp_metis_idx REGEX "^#define IDXTYPEWIDTH ")
  if(NOT apsp_metis_idx MATCHES "IDXTYPEWIDTH 32")
    message(WARNING "${APSP_METIS_INCLUDE_DIR}/metis.h: idx_t is not 32-bit (${apsp_metis_idx}); "
                    "apsp's ordering passes 32-bit indices, so METIS is not used")
  else()
    add_library(apsp_metis INTERFACE IMPORTED)
    set_target_properties(apsp_metis PROPERTIES
      INTERFACE_INCLUDE_DIRECTORIES "${APSP_METIS_INCLUDE_DIR}"
      INTERFACE_LINK_LIBRARIES "${APSP_METIS_LIBRARY};m")
  endif()
endif()
