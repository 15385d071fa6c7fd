# Cross-compiling for 64-bit Arm Linux with Debian's cross toolchain (g++-aarch64-linux-gnu),
# as scripts/check-arm does. Tests run under qemu-user (qemu-aarch64 from Debian's qemu-user or
# qemu-user-static) when it is installed; no binfmt registration is needed.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(APSP_AARCH64_SYSROOT /usr/aarch64-linux-gnu CACHE PATH
    "Where the aarch64 libraries (libc, libstdc++, libgomp) of the cross toolchain live")

# Libraries and packages only from the cross sysroot and the aarch64 prefixes the caller adds to
# CMAKE_FIND_ROOT_PATH (-DCMAKE_FIND_ROOT_PATH=<Kokkos prefix>), never the build machine's x86-64
# ones; programs (Python, bash) from the build machine.
list(APPEND CMAKE_FIND_ROOT_PATH ${APSP_AARCH64_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  find_program(APSP_QEMU_AARCH64 NAMES qemu-aarch64 qemu-aarch64-static)
  if(APSP_QEMU_AARCH64)
    set(CMAKE_CROSSCOMPILING_EMULATOR ${APSP_QEMU_AARCH64} -L ${APSP_AARCH64_SYSROOT})
  endif()
endif()
