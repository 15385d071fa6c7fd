// The record of a run (pipeline.hpp): rates, and the JSON of --stats.
#include <apsp/plan.hpp>
#include <apsp/shapes.hpp>

#include "io/json.hpp"
#include "plan/stats.hpp"
#include "platform/backends.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

namespace apsp {
namespace {

// {"read": ..., ..., "total": ...}: the stages in pipeline order.
std::string stage_json(const StageSeconds& s) {
  std::ostringstream j;
  j.precision(9);
  j << "{\"read\": " << s.read << ", \"plan\": " << s.plan << ", \"upload\": " << s.upload
    << ", \"compute\": " << s.compute << ", \"predecessors\": " << s.predecessors
    << ", \"download\": " << s.download << ", \"write\": " << s.write
    << ", \"commit\": " << s.commit << ", \"total\": " << s.total
    << ", \"communication\": " << s.communication << ", \"write_behind\": " << s.write_behind
    << ", \"communication_bytes\": " << s.communication_bytes
    << ", \"communication_sent_bytes\": " << s.communication_sent_bytes << ", \"link\": " << s.link
    << "}";
  return j.str();
}

// A rank's entry of per_rank: its stages, then its setup step by step ({"seconds": ..,
// "collective": ..} each) and its rows of OUT (and P).
std::string rank_json(const StageSeconds& s, bool predecessors) {
  std::ostringstream j;
  j.precision(9);
  const std::string stages = stage_json(s);
  j << stages.substr(0, stages.size() - 1) << ", \"setup\": {";
  for (int k = 0; k < SetupSeconds::count; ++k)
    j << (k ? ", " : "") << "\"" << SetupSeconds::name(k)
      << "\": {\"seconds\": " << s.setup.steps[k].seconds
      << ", \"collective\": " << s.setup.steps[k].collective << "}";
  j << "}, \"peak_host_bytes\": " << s.peak_host_bytes << ", \"out\": {\"rows\": " << s.out.rows
    << ", \"bytes\": " << s.out.bytes << "}";
  if (predecessors)
    j << ", \"pred\": {\"rows\": " << s.pred.rows << ", \"bytes\": " << s.pred.bytes << "}";
  j << "}";
  return j.str();
}

}  // namespace

const char* SetupSeconds::name(int step) {
  static const char* const names[count] = {
      "check_files",     "read_input",   "decide",  "broadcast_plan", "shape_check", "partition",
      "supernodal_plan", "memory_check", "outputs", "allocate",       "fill",        "warm_up"};
  return step >= 0 && step < count ? names[step] : "";
}

std::int64_t SolveStats::rows_made() const {
  if (per_rank.empty()) return seconds.rows_made;
  std::int64_t rows = 0;
  for (const StageSeconds& r : per_rank)
    rows += r.rows_made;
  return rows;
}

double SolveStats::updates() const {
  const double v = double(vertices);
  if (algorithm == algorithm_name(Algorithm::floyd_warshall)) return v * v * v;
  if (algorithm != algorithm_name(Algorithm::supernodal) || vertices == 0) return 0;
  return double(ranks) * supernodal.factors * supernodal.factor_updates +
         supernodal.row_updates / v * double(rows_made());
}

const char* SolveStats::updates_counted() const {
  if (algorithm == algorithm_name(Algorithm::floyd_warshall))
    return "V^3: Floyd-Warshall's, the padding to whole tiles left out";
  if (algorithm != algorithm_name(Algorithm::supernodal)) return "";
  static const std::string whole =
      "predicted by the supernodal plan: the factor on each rank, and each distance row made its "
      "share of the plan's row updates";
  static const std::string half = whole + ", each row made in half (a symmetric graph's measures)";
  return (supernodal.half_rows ? half : whole).c_str();
}

double SolveStats::updates_per_s() const {
  return seconds.compute > 0 ? updates() / seconds.compute : 0;
}
double SolveStats::gops() const {
  return 2 * updates_per_s() / 1e9;
}

std::string SolveStats::to_json() const {
  std::ostringstream j;
  j.precision(9);
  j << "{\n"
    << "  \"vertices\": " << vertices << ",\n"
    << "  \"edges\": " << edges << ",\n"
    << "  \"algorithm\": " << detail::json_string(algorithm) << ",\n"
    << "  \"dtype\": " << detail::json_string(dtype) << ",\n"
    << "  \"backend\": " << detail::json_string(backend) << ",\n"
    << "  \"device\": " << detail::json_string(device) << ",\n"
    << "  \"concurrency\": " << concurrency << ",\n"
    << "  \"ranks\": " << ranks << ",\n"
    << "  \"tile\": " << tile << ",\n"
    << "  \"shape\": " << detail::json_string(shape) << ",\n"
    << "  \"shape_source\": " << detail::json_string(shape_source) << ",\n"
    << "  \"padded_vertices\": " << padded << ",\n"
    << "  \"prepared\": " << (prepared ? "true" : "false") << ",\n"
    << "  \"transport\": " << detail::json_string(transport) << ",\n"
    << "  \"transport_requested\": " << detail::json_string(transport_requested) << ",\n"
    << "  \"transport_note\": " << detail::json_string(transport_note) << ",\n"
    << "  \"kokkos_version\": " << KOKKOS_VERSION << ",\n"
    << "  \"seconds\": " << stage_json(seconds) << ",\n"
    << "  \"communication_bytes\": " << seconds.communication_bytes << ",\n"
    << "  \"output_rows\": " << detail::json_string(output_rows) << ",\n";
  std::uint64_t peak = seconds.peak_host_bytes;
  for (const StageSeconds& r : per_rank)
    peak = std::max(peak, r.peak_host_bytes);
  j << "  \"peak_host_bytes\": " << peak << ",\n";
  if (measures.passes > 0)
    j << "  \"measures\": {\"histogram_passes\": " << measures.passes
      << ", \"probed_rows\": " << measures.probed_rows << "},\n";
  if (!predecessor_rows.empty())
    j << "  \"predecessor_rows\": " << detail::json_string(predecessor_rows) << ",\n";
  j << "  \"per_rank\": [";
  for (std::size_t p = 0; p < per_rank.size(); ++p)
    j << (p ? ",\n    " : "\n    ") << rank_json(per_rank[p], !predecessor_rows.empty());
  j << (per_rank.empty() ? "]" : "\n  ]");
  // Each field after per_rank starts with the comma that ends the one before.
  if (supernodal.considered) {
    const SupernodalStats& s = supernodal;
    j << ",\n  \"supernodal\": {\"decision\": " << detail::json_string(s.decision)
      << ", \"ordering\": " << s.ordering << ", \"symbolic\": " << s.symbolic
      << ", \"factor\": " << s.factor << ", \"factors\": " << s.factors << ", \"rows\": " << s.rows
      << ", \"supernodes\": " << s.supernodes << ", \"factor_bytes\": " << s.factor_bytes
      << ", \"path_bytes\": " << s.path_bytes << ", \"row_threads\": " << s.row_threads
      << ", \"predicted_updates\": " << s.predicted_updates
      << ", \"factor_updates\": " << s.factor_updates << ", \"row_updates\": " << s.row_updates
      << ", \"half_rows\": " << (s.half_rows ? "true" : "false")
      << ", \"dense_updates\": " << s.dense_updates << "}";
  }
  if (algorithm == algorithm_name(Algorithm::supernodal))
    j << ",\n  \"rows_made\": " << rows_made();
  if (updates() > 0)
    j << ",\n  \"updates\": " << updates()
      << ",\n  \"updates_counted\": " << detail::json_string(updates_counted())
      << ",\n  \"updates_per_second\": " << updates_per_s() << ",\n  \"gops\": " << gops();
  j << "\n}\n";
  return j.str();
}

std::vector<ShapeChoice> shapes_of(const std::string& backend, DistanceType type) {
  std::vector<ShapeChoice> shapes;
  with_backend(backend, [&](auto exec) { shapes = available_shapes(exec, type); });
  return shapes;
}

}  // namespace apsp
