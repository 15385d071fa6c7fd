// The one shape of every solver of all pairs, stated in code: apsp::is_solver<S> (a trait, C++17;
// also the concept apsp::solver where the compiler has concepts) and APSP_CHECK_SOLVER(S), which
// states it with a static_assert per member, so that a solver missing one names it. Drivers (the
// command line's pipeline, `apsp path`) are written against this shape and ask a solver's
// capabilities(), never its type.
//
// A solver S of distances S::value_type on S::execution_space is made collectively on the ranks
// from its plan (each solver's own: Plan, SupernodalPlan, the vertex count), and then
//   check_memory(limits, edges)   collective, before any work: what this rank needs against the
//                                 driver's MemoryLimits (memory.hpp); throws MemoryError
//   load(edges)                   collective: this rank's edges (kept until compute at least)
//   compute()                     collective: the solve, then with negative weights the verdict:
//                                 throws NegativeCycleError on every rank (negative_cycles.hpp)
//   first_row(), real_rows()      this rank's rows: [first_row, first_row + real_rows)
//   distance_rows(sink, done)     this rank's rows, in order, into a RowSink (row_sink.hpp)
//   reduce_rows(sink, done)       the same rows where they are made, into a DeviceRowSink
// each returning a RowSeconds (row_sink.hpp): where the time went, and the rows it made;
// and, as capabilities() says:
//   rows_of_list        distance_rows_of(vertices, sink): the rows of a list of vertices alone
//   table_columns       distance_rows_of(vertices, sink, columns): of those rows only the listed
//                       columns, chosen where the rows are made (a table sends |columns| a row)
//   predecessors        select_paths(), then predecessor_rows(sink, first, count, done)
//   negative_weights    negative weights solved, with the negative-cycle verdict of compute
//   columns_by_supernode  measures' totals taken from columns as the sweeps finish them
//                       (reduce_rows with a MeasureSink, measures.hpp), no row ever whole
//
// The solvers: Solver (solver.hpp, dense Floyd-Warshall), SupernodalSolver (supernodal.hpp),
// SsspSolver (sssp.hpp, Dijkstra from every source). BatchedSolver (batched.hpp) is not one:
// it solves many small graphs at once, each whole on one device, and hands each graph's matrix
// to a caller's array; it is its own product and shares only MemoryLimits with these.
#pragma once

#include <apsp/graph.hpp>
#include <apsp/memory.hpp>
#include <apsp/row_sink.hpp>

#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace apsp {

// What a solver can do beyond the shape every solver has (the list above).
struct Capabilities {
  bool predecessors = false;
  bool negative_weights = false;
  bool rows_of_list = false;
  bool table_columns = false;
  bool columns_by_supernode = false;
};

namespace detail {

template <class S, class = void>
struct solver_types : std::false_type {};
template <class S>
struct solver_types<S, std::void_t<typename S::execution_space, typename S::value_type>>
    : std::true_type {};

// A constant expression: the template argument fails where capabilities() is not constexpr.
template <class S, class = void>
struct solver_capabilities : std::false_type {};
template <class S>
struct solver_capabilities<
    S, std::void_t<std::integral_constant<bool, S::capabilities().predecessors>>>
    : std::is_same<decltype(S::capabilities()), Capabilities> {};

template <class S, class = void>
struct solver_memory : std::false_type {};
template <class S>
struct solver_memory<S, std::void_t<decltype(std::declval<S&>().check_memory(
                            std::declval<const MemoryLimits&>(), std::int64_t()))>>
    : std::true_type {};

template <class S, class = void>
struct solver_load_compute : std::false_type {};
template <class S>
struct solver_load_compute<
    S, std::void_t<decltype(std::declval<S&>().load(std::declval<const std::vector<Edge>&>())),
                   decltype(std::declval<S&>().compute())>> : std::true_type {};

template <class S, class = void>
struct solver_rows : std::false_type {};
template <class S>
struct solver_rows<S, std::void_t<decltype(std::int64_t(std::declval<const S&>().first_row())),
                                  decltype(std::int64_t(std::declval<const S&>().real_rows())),
                                  decltype(RowSeconds(std::declval<S&>().distance_rows(
                                      std::declval<const RowSink<typename S::value_type>&>(),
                                      std::declval<const BlockDone&>()))),
                                  decltype(RowSeconds(std::declval<S&>().reduce_rows(
                                      std::declval<const DeviceRowSink<typename S::execution_space,
                                                                       typename S::value_type>&>(),
                                      std::declval<const BlockDone&>())))>> : std::true_type {};

template <class S, class = void>
struct solver_rows_of : std::false_type {};
template <class S>
struct solver_rows_of<S, std::void_t<decltype(RowSeconds(std::declval<S&>().distance_rows_of(
                             std::declval<const std::vector<std::int32_t>&>(),
                             std::declval<const RowSink<typename S::value_type>&>())))>>
    : std::true_type {};

template <class S, class = void>
struct solver_table_columns : std::false_type {};
template <class S>
struct solver_table_columns<S, std::void_t<decltype(RowSeconds(std::declval<S&>().distance_rows_of(
                                   std::declval<const std::vector<std::int32_t>&>(),
                                   std::declval<const RowSink<typename S::value_type>&>(),
                                   std::declval<const std::vector<std::int32_t>&>())))>>
    : std::true_type {};

template <class S, class = void>
struct solver_predecessors : std::false_type {};
template <class S>
struct solver_predecessors<S, std::void_t<decltype(std::declval<S&>().select_paths()),
                                          decltype(RowSeconds(std::declval<S&>().predecessor_rows(
                                              std::declval<const RowSink<int>&>(), std::int64_t(),
                                              std::int64_t(), std::declval<const BlockDone&>())))>>
    : std::true_type {};

// The members that capabilities() promises (named only once solver_capabilities holds).
template <class S>
struct solver_capable
    : std::bool_constant<(!S::capabilities().rows_of_list || solver_rows_of<S>::value) &&
                         (!S::capabilities().table_columns || solver_table_columns<S>::value) &&
                         (!S::capabilities().predecessors || solver_predecessors<S>::value)> {};

}  // namespace detail

// Whether S has the shape of a solver (the list above): false, never a compile error, where a
// member is missing or has another signature.
template <class S>
struct is_solver : std::conjunction<detail::solver_types<S>, detail::solver_capabilities<S>,
                                    detail::solver_memory<S>, detail::solver_load_compute<S>,
                                    detail::solver_rows<S>, detail::solver_capable<S>> {};

template <class S>
constexpr bool is_solver_v = is_solver<S>::value;

#if defined(__cpp_concepts)
template <class S>
concept solver = is_solver_v<S>;
#endif

// The capabilities of a solver, checked to be one.
template <class S>
constexpr Capabilities capabilities_of() {
  static_assert(is_solver_v<S>, "not a solver: APSP_CHECK_SOLVER says which member is missing");
  return S::capabilities();
}

}  // namespace apsp

// States that S is a solver, one static_assert per part of the shape (in a block, a class
// scope where S is complete, or at namespace scope). S may contain commas.
#define APSP_CHECK_SOLVER(...)                                                                  \
  static_assert(::apsp::detail::solver_types<__VA_ARGS__>::value,                               \
                "a solver names its execution_space and value_type (solver_interface.hpp)");    \
  static_assert(::apsp::detail::solver_capabilities<__VA_ARGS__>::value,                        \
                "a solver has static constexpr Capabilities capabilities()");                   \
  static_assert(::apsp::detail::solver_memory<__VA_ARGS__>::value,                              \
                "a solver has check_memory(const MemoryLimits&, std::int64_t edges)");          \
  static_assert(::apsp::detail::solver_load_compute<__VA_ARGS__>::value,                        \
                "a solver has load(const std::vector<Edge>&) and compute()");                   \
  static_assert(::apsp::detail::solver_rows<__VA_ARGS__>::value,                                \
                "a solver has first_row(), real_rows(), distance_rows(RowSink, BlockDone) and " \
                "reduce_rows(DeviceRowSink, BlockDone)");                                       \
  static_assert(::apsp::is_solver<__VA_ARGS__>::value,                                          \
                "a solver has the members its capabilities() promise: distance_rows_of "        \
                "(rows_of_list, table_columns), select_paths and predecessor_rows (predecessors)")
