// A profiling region for the whole of a scope (Kokkos::Profiling::ScopedRegion is not in every
// Kokkos we support: it came after 3.4), so Kokkos Tools output reads like the code.
#pragma once

#include <Kokkos_Core.hpp>

#include <string>

namespace apsp {
namespace detail {

class ScopedRegion {
 public:
  explicit ScopedRegion(const std::string& name) { Kokkos::Profiling::pushRegion(name); }
  ~ScopedRegion() { Kokkos::Profiling::popRegion(); }
  ScopedRegion(const ScopedRegion&) = delete;
  ScopedRegion& operator=(const ScopedRegion&) = delete;
};

}  // namespace detail
}  // namespace apsp
