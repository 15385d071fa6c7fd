# The Python module `apsp` (-DAPSP_ENABLE_PYTHON=ON): the package src/python/apsp and its native
# part _native (src/python/module.cpp), built into ${PROJECT_BINARY_DIR}/python (importable with
# PYTHONPATH=build/<preset>/python) and installed by `cmake --install` into
# ${APSP_PYTHON_INSTALL_DIR}/apsp under the prefix.
if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
  # Debian's python3-numpy, python3-scipy and pybind11-dev belong to the system interpreter,
  # whatever other python3 comes first on PATH (pass -DPython3_EXECUTABLE=... for another).
  set(Python3_EXECUTABLE /usr/bin/python3)
endif()
find_package(Python3 REQUIRED COMPONENTS Interpreter Development.Module)
find_package(pybind11 2.6 CONFIG REQUIRED)

# A static Kokkos must be position-independent to go into the module: say so now, not as a
# relocation error at link time. The check builds with the project's compiler (nvcc_wrapper for
# a CUDA Kokkos, which hands -fPIC to its host compiler).
get_target_property(apsp_kokkos_type Kokkos::kokkoscore TYPE)
if(apsp_kokkos_type STREQUAL "STATIC_LIBRARY" AND NOT DEFINED CACHE{APSP_KOKKOS_PIC})
  try_compile(apsp_kokkos_pic ${PROJECT_BINARY_DIR}/pic-check ${PROJECT_SOURCE_DIR}/cmake/pic-check
              apsp_pic_check
              CMAKE_FLAGS -DKokkos_DIR=${Kokkos_DIR} -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}
              OUTPUT_VARIABLE apsp_pic_output)
  if(NOT apsp_kokkos_pic)
    message(FATAL_ERROR
      "APSP_ENABLE_PYTHON: the Kokkos at ${Kokkos_DIR} is a static library that cannot be linked "
      "into a shared library (the Python module): rebuild it with "
      "-DCMAKE_POSITION_INDEPENDENT_CODE=ON (scripts/bootstrap-deps does, for every backend), or "
      "configure with -DAPSP_ENABLE_PYTHON=OFF.")
  endif()
  set(APSP_KOKKOS_PIC ON CACHE INTERNAL "Kokkos links into shared libraries")
endif()

# With nvcc_wrapper as the compiler pybind11's extras need no care: -fvisibility=hidden passes
# through to the host compiler, and pybind11's own -flto probe fails (HAS_FLTO), so it adds no
# LTO flags that nvcc would reject.
pybind11_add_module(apsp_python MODULE src/python/module.cpp src/python/batch.cpp
                    src/python/graph.cpp)
set_target_properties(apsp_python PROPERTIES OUTPUT_NAME _native
                      LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/python/apsp)
# module.cpp (run_graph) and graph.cpp (apsp.Graph) instantiate the same supernodal solver for
# three distance types: compiled as one unit, its kernels are compiled once (apart, a minute of
# one core each; docs/PERFORMANCE.md entry 71).
set_source_files_properties(src/python/module.cpp src/python/graph.cpp PROPERTIES
                            UNITY_GROUP solvers)
set_target_properties(apsp_python PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
target_link_libraries(apsp_python PRIVATE apsp_lib)
set(apsp_python_sources __init__.py graph.py networkx.py)
set(apsp_python_copies)
foreach(file IN LISTS apsp_python_sources)
  add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/python/apsp/${file}
    COMMAND ${CMAKE_COMMAND} -E copy ${PROJECT_SOURCE_DIR}/src/python/apsp/${file}
            ${PROJECT_BINARY_DIR}/python/apsp/${file}
    DEPENDS ${PROJECT_SOURCE_DIR}/src/python/apsp/${file})
  list(APPEND apsp_python_copies ${PROJECT_BINARY_DIR}/python/apsp/${file})
endforeach()
add_custom_target(apsp_python_package ALL DEPENDS ${apsp_python_copies})
add_dependencies(apsp_python apsp_python_package)

# The package's metadata beside it, so that importlib.metadata finds its entry points on
# PYTHONPATH: NetworkX (3.2 and later) finds the backend "apsp" (apsp/networkx.py) by them.
set(apsp_dist_info apsp-${PROJECT_VERSION}.dist-info)
file(WRITE ${PROJECT_BINARY_DIR}/python/${apsp_dist_info}/METADATA
     "Metadata-Version: 2.1\nName: apsp\nVersion: ${PROJECT_VERSION}\n"
     "Summary: ${PROJECT_DESCRIPTION}\n")
file(WRITE ${PROJECT_BINARY_DIR}/python/${apsp_dist_info}/entry_points.txt
     "[networkx.backends]\napsp = apsp.networkx:backend_interface\n\n"
     "[networkx.backend_info]\napsp = apsp.networkx:backend_info\n")

set(APSP_PYTHON_INSTALL_DIR "${CMAKE_INSTALL_LIBDIR}/python3/dist-packages" CACHE PATH
    "Where `cmake --install` puts the Python package apsp, relative to the prefix")
install(TARGETS apsp_python LIBRARY DESTINATION ${APSP_PYTHON_INSTALL_DIR}/apsp)
install(FILES src/python/apsp/__init__.py src/python/apsp/graph.py src/python/apsp/networkx.py
        DESTINATION ${APSP_PYTHON_INSTALL_DIR}/apsp)
install(DIRECTORY ${PROJECT_BINARY_DIR}/python/${apsp_dist_info}
        DESTINATION ${APSP_PYTHON_INSTALL_DIR})
