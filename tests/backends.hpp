// The backends of this build as a GoogleTest type list, so each test body runs on all of them.
#pragma once

#include "platform/backends.hpp"

#include <apsp/config.hpp>
#include <apsp/distance.hpp>

#include <gtest/gtest.h>

#include <string>
#include <tuple>

namespace apsp_test {

template <class Tuple>
struct AsTestTypes;
template <class... T>
struct AsTestTypes<std::tuple<T...>> {
  using type = ::testing::Types<T...>;
};
// Every backend the build compiles kernels for (apsp::EnabledBackends: a checking build that
// compiles int32 alone, APSP_CHECK_INSTANTIATIONS=minimal, has its first alone, the GPU's, else
// OpenMP, and leaves the others to the full builds).
using Backends = typename AsTestTypes<apsp::EnabledBackends>::type;

// Names the typed tests after the backend ("FloydWarshall/openmp.MatchesReference...").
struct BackendName {
  template <class ExecSpace>
  static std::string GetName(int) {
    return apsp::backend_name<ExecSpace>();
  }
};

// Every tested backend with every distance type, as (exec, value) pairs; a minimal build tests
// int32 alone.
template <class ExecSpace, class T>
struct Case {
  using exec = ExecSpace;
  using value = T;
};
template <class Tuple>
struct AsTypedCases;
template <class... E>
struct AsTypedCases<std::tuple<E...>> {
#if defined(APSP_MINIMAL_INSTANTIATIONS)
  using type = ::testing::Types<Case<E, int>...>;
#else
  using type = ::testing::Types<Case<E, int>..., Case<E, float>..., Case<E, double>...>;
#endif
};
using BackendsAndTypes = typename AsTypedCases<apsp::EnabledBackends>::type;

// Names those typed tests after both ("Supernodal/openmp_float32.Grids").
struct CaseName {
  template <class C>
  static std::string GetName(int) {
    return apsp::backend_name<typename C::exec>() + "_" +
           apsp::distance_type_name(apsp::Distance<typename C::value>::type);
  }
};

}  // namespace apsp_test
