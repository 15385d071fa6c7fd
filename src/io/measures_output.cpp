#include "io/measures_output.hpp"

#include <apsp/error.hpp>

#include "io/json.hpp"
#include "io/outputs.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>

namespace apsp {
namespace {

std::string lower(std::string s) {
  for (char& c : s)
    c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool ends_with(const std::string& s, const char* suffix) {
  const std::size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

std::string joined(const std::vector<std::string>& names) {
  std::string list;
  for (const std::string& n : names)
    list += (list.empty() ? "" : ", ") + n;
  return list;
}

// x in the fewest digits that read back as x, appended to out (a file's V values: no string
// each).
template <class X>
void append_text(std::string& out, X x) {
  char text[32];
  out.append(text, std::to_chars(text, text + sizeof text, x).ptr);
}

// A real value of a measure, appended to out in the fewest digits that read back as the double
// (denormals too: "5e-324"). One that is not finite (1 / 5e-324 overflows to inf, inf - inf is
// NaN) has no JSON number: the .json writes the string "inf", "-inf" or "nan", which every JSON
// parser reads (and Python's float() converts), the .csv the same words bare (float() reads them).
void append_real(std::string& out, double x, MeasuresFormat format) {
  if (std::isfinite(x)) {
    append_text(out, x);
    return;
  }
  const char* word = std::isnan(x) ? "nan" : x > 0 ? "inf" : "-inf";
  if (format == MeasuresFormat::json)
    out += std::string("\"") + word + "\"";
  else
    out += word;
}

// A value of a measure: int32 distances and their sums as integers, the rest as append_real.
void append_number(std::string& out, double x, bool integral, MeasuresFormat format) {
  if (integral)
    append_text(out, std::int64_t(x));
  else
    append_real(out, x, format);
}

// The same as the .json's text of a graph's measure.
std::string json_number(double x, bool integral) {
  std::string text;
  append_number(text, x, integral, MeasuresFormat::json);
  return text;
}

// One measure of every vertex: its text (JSON or CSV, as the format asks) and its .npy field,
// each appended to out.
struct Column {
  std::string name;
  std::string descr;  // NumPy's type
  std::function<void(std::size_t, std::string&, MeasuresFormat)> text;
  std::function<void(std::size_t, std::string&)> bytes;
};

template <class X>
void append(std::string& out, X value) {
  char raw[sizeof(X)];
  std::memcpy(raw, &value, sizeof(X));
  out.append(raw, sizeof(X));
}

std::vector<Column> columns(const GraphMeasures& m, const MeasuresRequest& request,
                            DistanceType type) {
  const bool integral = m.integral;
  const char* distance_descr = type == DistanceType::int32     ? "<i4"
                               : type == DistanceType::float32 ? "<f4"
                                                               : "<f8";
  const auto distances = [&, distance_descr](const std::vector<double>& values) {
    const std::vector<double>* v = &values;
    return std::make_pair(
        std::function<void(std::size_t, std::string&, MeasuresFormat)>(
            [v, integral](std::size_t i, std::string& out, MeasuresFormat format) {
              append_number(out, (*v)[i], integral, format);
            }),
        std::function<void(std::size_t, std::string&)>([v, type](std::size_t i, std::string& out) {
          if (type == DistanceType::int32)
            append(out, std::int32_t((*v)[i]));
          else if (type == DistanceType::float32)
            append(out, float((*v)[i]));
          else
            append(out, (*v)[i]);
        }));
  };
  const auto counts = [](const std::vector<std::int64_t>& values) {
    const std::vector<std::int64_t>* v = &values;
    return std::make_pair(
        std::function<void(std::size_t, std::string&, MeasuresFormat)>(
            [v](std::size_t i, std::string& out, MeasuresFormat) { append_text(out, (*v)[i]); }),
        std::function<void(std::size_t, std::string&)>(
            [v](std::size_t i, std::string& out) { append(out, (*v)[i]); }));
  };
  const auto reals = [](const std::vector<double>& values) {
    const std::vector<double>* v = &values;
    return std::make_pair(std::function<void(std::size_t, std::string&, MeasuresFormat)>(
                              [v](std::size_t i, std::string& out, MeasuresFormat format) {
                                append_real(out, (*v)[i], format);
                              }),
                          std::function<void(std::size_t, std::string&)>(
                              [v](std::size_t i, std::string& out) { append(out, (*v)[i]); }));
  };
  std::vector<Column> all;
  const auto add = [&](const std::string& name, const char* descr, auto pair) {
    if (request.wants(name)) all.push_back(Column{name, descr, pair.first, pair.second});
  };
  add("eccentricity", distance_descr, distances(m.eccentricity));
  add("in_eccentricity", distance_descr, distances(m.in_eccentricity));
  add("reachable", "<i8", counts(m.reachable));
  add("in_reachable", "<i8", counts(m.in_reachable));
  if (integral) {
    add("distance_sum", "<i8", counts(m.distance_sum_exact));
    add("in_distance_sum", "<i8", counts(m.in_distance_sum_exact));
  } else {
    add("distance_sum", "<f8", reals(m.distance_sum));
    add("in_distance_sum", "<f8", reals(m.in_distance_sum));
  }
  add("closeness_centrality", "<f8", reals(m.closeness_centrality));
  add("harmonic_centrality", "<f8", reals(m.harmonic_centrality));
  return all;
}

std::string id_list(const std::vector<std::int64_t>& ids) {
  std::string list = "[";
  for (std::size_t i = 0; i < ids.size(); ++i)
    list += (i ? ", " : "") + std::to_string(ids[i]);
  return list + "]";
}

std::string json_file(const GraphMeasures& m, const MeasuresRequest& request,
                      const std::vector<Column>& vertex) {
  const bool integral = m.integral;
  std::string graph = "  \"graph\": {\n    \"vertices\": " + std::to_string(m.vertices) +
                      ",\n    \"connected\": " + (m.connected ? "true" : "false");
  const auto field = [&](const std::string& name, const std::string& value) {
    if (request.wants(name)) graph += ",\n    " + detail::json_string(name) + ": " + value;
  };
  field("diameter", json_number(m.diameter, integral));
  field("radius", json_number(m.radius, integral));
  field("center", id_list(m.center));
  field("periphery", id_list(m.periphery));
  field("average_shortest_path_length", json_number(m.average_shortest_path_length, false));
  field("wiener_index", integral ? m.wiener_exact.text() : json_number(m.wiener_index, false));
  if (request.wants("histogram")) {
    std::string counts = "[";
    for (std::size_t b = 0; b < m.histogram.size(); ++b)
      counts += (b ? ", " : "") + std::to_string(m.histogram[b]);
    field("histogram",
          "{\"bins\": " + std::to_string(m.bins) + ", \"low\": " + json_number(m.low, integral) +
              ", \"high\": " + json_number(m.high, integral) + ", \"counts\": " + counts +
              "], \"unreachable\": " + std::to_string(m.unreachable_pairs) + "}");
  }
  std::string text = "{\n" + graph + "\n  },\n  \"vertex\": {";
  text.reserve(text.size() + vertex.size() * std::size_t(m.vertices) * 16 + 64);  // one buffer
  for (std::size_t c = 0; c < vertex.size(); ++c) {
    text += std::string(c ? "," : "") + "\n    " + detail::json_string(vertex[c].name) + ": [";
    for (std::size_t i = 0; i < std::size_t(m.vertices); ++i) {
      if (i) text += ", ";
      vertex[c].text(i, text, MeasuresFormat::json);
    }
    text += "]";
  }
  text += vertex.empty() ? "}\n}\n" : "\n  }\n}\n";
  return text;
}

std::string csv_file(const GraphMeasures& m, const std::vector<Column>& vertex) {
  std::string text = "vertex";
  text.reserve((vertex.size() + 1) * std::size_t(m.vertices) * 16 + 64);  // one buffer
  for (const Column& c : vertex)
    text += "," + c.name;
  text += "\n";
  for (std::size_t i = 0; i < std::size_t(m.vertices); ++i) {
    append_text(text, i);
    for (const Column& c : vertex) {
      text += ',';
      c.text(i, text, MeasuresFormat::csv);
    }
    text += '\n';
  }
  return text;
}

// NumPy's format 1.0: a structured array of V records, a field per measure, little-endian.
std::string npy_file(const GraphMeasures& m, const std::vector<Column>& vertex) {
  std::string descr = "[";
  for (std::size_t c = 0; c < vertex.size(); ++c)
    descr += std::string(c ? ", " : "") + "('" + vertex[c].name + "', '" + vertex[c].descr + "')";
  descr += "]";
  std::string dict = "{'descr': " + descr + ", 'fortran_order': False, 'shape': (" +
                     std::to_string(m.vertices) + ",), }";
  const std::size_t unpadded = 10 + dict.size() + 1;
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict += '\n';
  if (dict.size() > 65535) throw Error("measures: the .npy header is too long");
  std::string out = "\x93NUMPY";
  out += char(1);
  out += char(0);
  out += char(dict.size() & 0xff);
  out += char(dict.size() >> 8);
  out += dict;
  for (std::size_t i = 0; i < std::size_t(m.vertices); ++i)
    for (const Column& c : vertex)
      c.bytes(i, out);
  return out;
}

}  // namespace

MeasuresFormat measures_format_of(const std::string& path) {
  if (path == standard_output) return MeasuresFormat::json;
  const std::string name = lower(path);
  if (ends_with(name, ".json")) return MeasuresFormat::json;
  if (ends_with(name, ".csv")) return MeasuresFormat::csv;
  if (ends_with(name, ".npy")) return MeasuresFormat::npy;
  throw Error(
      "the measures' OUT names its format: it ends in .json, .csv or .npy (or is \"-\", JSON on "
      "standard output), got '" +
      path + "'");
}

const std::vector<std::string>& vertex_measure_names() {
  static const std::vector<std::string> names = {
      "eccentricity",         "in_eccentricity",    "reachable",
      "in_reachable",         "distance_sum",       "in_distance_sum",
      "closeness_centrality", "harmonic_centrality"};
  return names;
}

const std::vector<std::string>& graph_measure_names() {
  static const std::vector<std::string> names = {
      "diameter",     "radius",   "center", "periphery", "average_shortest_path_length",
      "wiener_index", "histogram"};
  return names;
}

bool MeasuresRequest::wants(const std::string& name) const {
  return std::find(names.begin(), names.end(), name) != names.end();
}

MeasuresRequest measures_request(MeasuresFormat format, const std::string& list, int bins) {
  MeasuresRequest request;
  request.format = format;
  request.bins = bins;
  const auto& vertex = vertex_measure_names();
  const auto& graph = graph_measure_names();
  std::vector<std::string> asked;
  for (std::size_t from = 0; !list.empty();) {
    const std::size_t comma = list.find(',', from);
    asked.push_back(list.substr(from, comma == std::string::npos ? comma : comma - from));
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  for (const std::string& name : asked) {
    const bool of_vertex = std::find(vertex.begin(), vertex.end(), name) != vertex.end();
    const bool of_graph = std::find(graph.begin(), graph.end(), name) != graph.end();
    if (!of_vertex && !of_graph)
      throw Error("unknown measure '" + name + "': the measures are " + joined(vertex) + ", " +
                  joined(graph));
    if (of_graph && format != MeasuresFormat::json)
      throw Error(name + " is a measure of the graph, which only a .json OUT holds (.csv and " +
                  ".npy hold a row per vertex)");
  }
  // In the files' order, each once.
  for (const auto* names : {&vertex, &graph})
    for (const std::string& name : *names)
      if (asked.empty() ? (format == MeasuresFormat::json || names == &vertex)
                        : std::find(asked.begin(), asked.end(), name) != asked.end())
        request.names.push_back(name);
  return request;
}

std::string measures_file(const GraphMeasures& measures, const MeasuresRequest& request,
                          DistanceType type) {
  const std::vector<Column> vertex = columns(measures, request, type);
  switch (request.format) {
    case MeasuresFormat::csv:
      return csv_file(measures, vertex);
    case MeasuresFormat::npy:
      return npy_file(measures, vertex);
    default:
      return json_file(measures, request, vertex);
  }
}

}  // namespace apsp
