// The backends of this build as a GoogleTest type list, so each test body runs on all of them.
#pragma once

#include "platform/backends.hpp"

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
using Backends = typename AsTestTypes<apsp::EnabledBackends>::type;

// Names the typed tests after the backend ("FloydWarshall/openmp.MatchesReference...").
struct BackendName {
  template <class ExecSpace>
  static std::string GetName(int) {
    return apsp::backend_name<ExecSpace>();
  }
};

}  // namespace apsp_test
