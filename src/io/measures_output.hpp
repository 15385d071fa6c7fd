// The files of `apsp measures`: which measures a run writes (--measures), and their bytes in
// .json (canonical: a "graph" object and a "vertex" object of arrays in vertex order, named as
// NetworkX names them), .csv (a row per vertex) or .npy (a structured array, a field per
// measure). The measures themselves are apsp::GraphMeasures (graph_measures.hpp).
#pragma once

#include <apsp/distance.hpp>
#include <apsp/graph_measures.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace apsp {

enum class MeasuresFormat { json, csv, npy };

// By OUT's extension (any case): .json, .csv or .npy; standard output ("-", outputs.hpp) is
// .json; anything else is an apsp::Error.
MeasuresFormat measures_format_of(const std::string& path);

// The measures of a vertex, then those of the graph, each in the order the files list them.
const std::vector<std::string>& vertex_measure_names();
const std::vector<std::string>& graph_measure_names();

// What `apsp measures` writes: every measure the format holds, or those named.
struct MeasuresRequest {
  MeasuresFormat format = MeasuresFormat::json;
  std::vector<std::string> names;  // in the files' order
  int bins = 64;                   // of the histogram, when it is written

  bool wants(const std::string& name) const;
  // The histogram's bins, 0 when it is not written (no second pass over the rows).
  int histogram_bins() const { return wants("histogram") ? bins : 0; }
};

// The request for `format`: `list` a comma-separated list of names ("" for every measure the
// format holds). Throws apsp::Error for an unknown name, and for a graph's measure in .csv or
// .npy, which hold the vertices' only.
MeasuresRequest measures_request(MeasuresFormat format, const std::string& list, int bins);

// One measure as every writer takes it (the files here, the Python module's dict): its name, its
// kind and its values, pointing into the GraphMeasures it was taken from.
struct MeasureValue {
  enum class Kind {
    number,     // of the graph: x, an integer where `integral`
    digits,     // of the graph: int32's Wiener index, the digits of an integer beyond 2^53
    ids,        // of the graph: vertex ids (center, periphery), *counts
    histogram,  // of the graph: GraphMeasures' bins, low, high, histogram, unreachable_pairs
    distances,  // a vertex's distance (in the run's distance type), *reals
    counts,     // a vertex's count, or int32's sum, *counts
    reals,      // a vertex's real, *reals
  };
  std::string name;
  Kind kind = Kind::number;
  double x = 0;
  bool integral = false;
  std::string digits;
  const std::vector<std::int64_t>* counts = nullptr;
  const std::vector<double>* reals = nullptr;

  bool of_vertex() const { return kind >= Kind::distances; }
};

// The measures `request` names, each once: the graph's, then the vertices' in the files' order.
// The one list of which value each name takes, for every writer.
std::vector<MeasureValue> measure_values(const GraphMeasures& m, const MeasuresRequest& request);

// The file's bytes; `type`: the distances' (the eccentricities' field type in .npy).
std::string measures_file(const GraphMeasures& measures, const MeasuresRequest& request,
                          DistanceType type);

}  // namespace apsp
