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
//   - limit: with negative weights, what the magnitude of every real distance must stay below
//     (path_bounds_problem below): the threshold for int32, max / 4 for the floats. Without
//     negative weights the limit is int32's infinity, and nearly the floats' largest value
//     (path_limit).
#pragma once

#include <apsp/config.hpp>
#include <apsp/error.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

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

// The names the drivers take for the types: int32, float32, float64.
inline bool distance_type_named(const std::string& name, DistanceType& type) {
  for (DistanceType t : {DistanceType::int32, DistanceType::float32, DistanceType::float64})
    if (name == distance_type_name(t)) {
      type = t;
      return true;
    }
  return false;
}

// x in the fewest digits that read back as x ("2.5", "1e+300", "inf"), a whole number below
// 2^53 in all its digits ("900000", where the fewest would be "9e+05").
inline std::string number_text(double x) {
  char text[32];
  const bool whole = x == std::trunc(x) && std::abs(x) < 9007199254740992.0;
  const auto written = whole ? std::to_chars(text, text + sizeof text, x, std::chars_format::fixed)
                             : std::to_chars(text, text + sizeof text, x);
  return std::string(text, written.ptr);
}

// What the magnitude of every real distance of V vertices must stay below for T to hold it:
// with negative weights Distance<T>::limit (the range the negative variant of the kernels keeps,
// detail/blocked_kernels.hpp); without, int32's infinity, and for the floats their largest finite
// value less the rounding of a path's sum (4 V epsilon, as rounding_slack's): every real distance
// is then finite as computed, and a sum that overflows to +inf (a walk through a heavy cycle)
// only fails to lower a minimum.
template <class T>
double path_limit(std::int64_t vertices, bool negative) {
  if (negative) return Distance<T>::limit;
  if (std::is_integral<T>::value) return double(Distance<T>::infinity);
  return double(std::numeric_limits<T>::max()) /
         (1 + 4.0 * double(vertices) * double(std::numeric_limits<T>::epsilon()));
}

// Why a graph of V vertices whose real distances have magnitude at most `longest_path` (with
// negative weights or not) cannot be solved in T, or "" when it can. A shortest path is simple:
// it has at most V - 1 edges, each once, so the sum of the V - 1 largest |w| bounds it (an edge
// alone counts, V = 1 too: WeightRange::longest_path, graph.hpp), and it must stay below
// path_limit. The sum is formed in double: near the int32 limits it is an exact integer.
template <class T>
std::string path_bounds_problem(std::int64_t vertices, double longest_path, bool negative) {
  const double limit = path_limit<T>(vertices, negative);
  if (longest_path < limit) return "";
  return "V = " + std::to_string(vertices) +
         ", summing the V - 1 largest |w|: a shortest path could reach " +
         (std::isinf(longest_path) ? "more than " + number_text(std::numeric_limits<double>::max())
                                   : number_text(longest_path)) +
         ", which " + distance_type_name(Distance<T>::type) + " distances cannot hold" +
         (negative && std::is_integral<T>::value ? " with negative weights" : "") + " (limit " +
         number_text(limit) + ")";
}

// How far a computed distance of type T may be from the exact one, relative to the magnitudes
// summed: 0 where every sum the solver forms is exact (int32, or whole-number weights whose path
// lengths, (V - 1) * max|w|, stay below 2^digits of T), else 4 V epsilon (a path of up to V - 1
// rounded additions). paths.hpp (Tightness) and verify use it.
template <class T>
double rounding_slack(std::int64_t vertices, bool integer_weights, double max_abs) {
  if (std::is_integral<T>::value) return 0;
  const double m = double(std::max<std::int64_t>(vertices - 1, 1)) * max_abs;
  if (integer_weights && m < double(std::uint64_t(1) << std::numeric_limits<T>::digits)) return 0;
  return 4.0 * double(vertices) * double(std::numeric_limits<T>::epsilon());
}

// The unit roundoff of T, half its epsilon: a rounded sum is within unit * |sum| of the exact
// one (2^-24 for float32, 2^-53 for float64; 0 for int32, whose sums are exact).
template <class T>
constexpr double unit_roundoff() {
  return std::is_integral<T>::value ? 0.0 : double(std::numeric_limits<T>::epsilon()) / 2;
}

// Whether this build compiles the solver for distances of type T: every type, except in a
// checking build configured with APSP_CHECK_INSTANTIATIONS=minimal (CMakeLists.txt: the
// sanitizer, HIP and Arm builds), which compiles int32 alone to compile in minutes what the
// full builds (the test command's CPU build among them) check on every type.
#if defined(APSP_MINIMAL_INSTANTIATIONS)
template <class T>
constexpr bool distance_type_compiled = std::is_same<T, int>::value;
#else
template <class T>
constexpr bool distance_type_compiled = true;
#endif

// The refusal of a type this build does not compile (the words "not compiled into this build"
// let the tests of a minimal build count it as a skip, tests/CMakeLists.txt).
inline Error distance_type_not_compiled(DistanceType type) {
  return Error(std::string(distance_type_name(type)) +
               " distances are not compiled into this build (APSP_CHECK_INSTANTIATIONS=minimal: "
               "int32 only)");
}

// Calls f(T{}) for the C++ type of `type`; throws for a type this build does not compile.
template <class F>
decltype(auto) visit_distance_type(DistanceType type, F&& f) {
#if defined(APSP_MINIMAL_INSTANTIATIONS)
  if (type != DistanceType::int32) throw distance_type_not_compiled(type);
  return f(int{});
#else
  switch (type) {
    case DistanceType::float32:
      return f(float{});
    case DistanceType::float64:
      return f(double{});
    case DistanceType::int32:
      break;
  }
  return f(int{});
#endif
}

}  // namespace apsp
