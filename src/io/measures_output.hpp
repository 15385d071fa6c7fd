// The files of `apsp measures`: which measures a run writes (--measures), and their bytes in
// .json (canonical: a "graph" object and a "vertex" object of arrays in vertex order, named as
// NetworkX names them), .csv (a row per vertex) or .npy (a structured array, a field per
// measure). The measures themselves are apsp::GraphMeasures (graph_measures.hpp).
#pragma once

#include <apsp/distance.hpp>
#include <apsp/graph_measures.hpp>

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

// The file's bytes; `type`: the distances' (the eccentricities' field type in .npy).
std::string measures_file(const GraphMeasures& measures, const MeasuresRequest& request,
                          DistanceType type);

}  // namespace apsp
