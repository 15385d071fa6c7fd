#include <Kokkos_Core.hpp>

void apsp_pic_check() {
  Kokkos::initialize();
  Kokkos::finalize();
}
