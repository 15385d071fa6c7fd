// The distance types: int32 (the HW3 contract, exact), float32 and float64 (real weights). The
// one algorithm is a template on the type; what differs between types is here.
//
// Distance<T> gives, for each type T:
//   - infinity: "no path" (2^30 - 1 for int32, as HW3 writes it; +inf for the floats);
//   - floor F and threshold: the range of stored values with negative weights
//     (detail/blocked_kernels.hpp, "Negative weights"). Stored values lie in [F, threshold) or
//     are infinity, and no sum of two stored values overflows: for int32 F = -2^29 and
//     threshold = INF + F = 2^29 - 1; for the floats F = -max / 4 (a sum of two is >= -max / 2,
//     never -inf, so never inf + -inf = NaN) and threshold = +inf (a finite float sum stays
//     finite; only infinity itself is >= it).
//   - limit: the largest magnitude a real distance may have, (V - 1) * max|w| < limit
//     (check_path_bounds in floyd_warshall.hpp): the threshold for int32, max / 4 for the floats.
#pragma once

#include <limits>

namespace apsp {

enum class DistanceType { int32, float32, float64 };

template <class T>
struct Distance;

template <>
struct Distance<int> {
  static constexpr DistanceType type = DistanceType::int32;
  static constexpr int infinity = 1073741823;  // 2^30 - 1
  static constexpr int floor = -(1 << 29);
  static constexpr int threshold = infinity + floor;
  static constexpr double limit = threshold;
};

template <class F>
struct FloatDistance {
  static constexpr F infinity = std::numeric_limits<F>::infinity();
  static constexpr F floor = -std::numeric_limits<F>::max() / 4;
  static constexpr F threshold = std::numeric_limits<F>::infinity();
  static constexpr double limit = double(std::numeric_limits<F>::max()) / 4;
};
template <>
struct Distance<float> : FloatDistance<float> {
  static constexpr DistanceType type = DistanceType::float32;
};
template <>
struct Distance<double> : FloatDistance<double> {
  static constexpr DistanceType type = DistanceType::float64;
};

static_assert(Distance<int>::threshold == (1 << 29) - 1, "T = INF + F");

// The names of the types: int32, float32, float64.
inline const char* distance_type_name(DistanceType type) {
  switch (type) {
    case DistanceType::int32:
      return "int32";
    case DistanceType::float32:
      return "float32";
    case DistanceType::float64:
      return "float64";
  }
  return "?";
}

// Calls f(T{}) for the C++ type of `type`.
template <class F>
decltype(auto) visit_distance_type(DistanceType type, F&& f) {
  switch (type) {
    case DistanceType::float32:
      return f(float{});
    case DistanceType::float64:
      return f(double{});
    case DistanceType::int32:
      break;
  }
  return f(int{});
}

}  // namespace apsp
