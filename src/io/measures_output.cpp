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

std::vector<Column> columns(const GraphMeasures& m, const std::vector<MeasureValue>& values,
                            DistanceType type) {
  const bool integral = m.integral;
  const char* distance_descr = type == DistanceType::int32     ? "<i4"
                               : type == DistanceType::float32 ? "<f4"
                                                               : "<f8";
  std::vector<Column> all;
  for (const MeasureValue& value : values) {
    const std::vector<double>* v = value.reals;
    const std::vector<std::int64_t>* c = value.counts;
    if (value.kind == MeasureValue::Kind::distances)
      all.push_back(Column{value.name, distance_descr,
                           [v, integral](std::size_t i, std::string& out, MeasuresFormat format) {
                             append_number(out, (*v)[i], integral, format);
                           },
                           [v, type](std::size_t i, std::string& out) {
                             if (type == DistanceType::int32)
                               append(out, std::int32_t((*v)[i]));
                             else if (type == DistanceType::float32)
                               append(out, float((*v)[i]));
                             else
                               append(out, (*v)[i]);
                           }});
    else if (value.kind == MeasureValue::Kind::counts)
      all.push_back(Column{
          value.name, "<i8",
          [c](std::size_t i, std::string& out, MeasuresFormat) { append_text(out, (*c)[i]); },
          [c](std::size_t i, std::string& out) { append(out, (*c)[i]); }});
    else if (value.kind == MeasureValue::Kind::reals)
      all.push_back(Column{value.name, "<f8",
                           [v](std::size_t i, std::string& out, MeasuresFormat format) {
                             append_real(out, (*v)[i], format);
                           },
                           [v](std::size_t i, std::string& out) { append(out, (*v)[i]); }});
  }
  return all;
}

std::string id_list(const std::vector<std::int64_t>& ids) {
  std::string list = "[";
  for (std::size_t i = 0; i < ids.size(); ++i)
    list += (i ? ", " : "") + std::to_string(ids[i]);
  return list + "]";
}

std::string json_file(const GraphMeasures& m, const std::vector<MeasureValue>& values,
                      const std::vector<Column>& vertex) {
  std::string graph = "  \"graph\": {\n    \"vertices\": " + std::to_string(m.vertices) +
                      ",\n    \"connected\": " + (m.connected ? "true" : "false");
  for (const MeasureValue& v : values) {
    if (v.of_vertex()) continue;
    graph += ",\n    " + detail::json_string(v.name) + ": ";
    if (v.kind == MeasureValue::Kind::number) {
      graph += json_number(v.x, v.integral);
    } else if (v.kind == MeasureValue::Kind::digits) {
      graph += v.digits;
    } else if (v.kind == MeasureValue::Kind::ids) {
      graph += id_list(*v.counts);
    } else {  // the histogram
      std::string counts = "[";
      for (std::size_t b = 0; b < m.histogram.size(); ++b)
        counts += (b ? ", " : "") + std::to_string(m.histogram[b]);
      graph += "{\"bins\": " + std::to_string(m.bins) +
               ", \"low\": " + json_number(m.low, m.integral) +
               ", \"high\": " + json_number(m.high, m.integral) + ", \"counts\": " + counts +
               "], \"unreachable\": " + std::to_string(m.unreachable_pairs) + "}";
    }
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

// Every measure's value in m, the graph's then the vertices', in the files' order: the one list
// of the measures, their names and their values; those `wanted` names.
std::vector<MeasureValue> values_of(const GraphMeasures& m,
                                    const std::function<bool(const std::string&)>& wanted) {
  using Kind = MeasureValue::Kind;
  const bool integral = m.integral;
  std::vector<MeasureValue> all;
  const auto add = [&](MeasureValue v) {
    if (wanted(v.name)) all.push_back(std::move(v));
  };
  add({"diameter", Kind::number, m.diameter, integral});
  add({"radius", Kind::number, m.radius, integral});
  add({"center", Kind::ids, 0, false, {}, &m.center});
  add({"periphery", Kind::ids, 0, false, {}, &m.periphery});
  add({"average_shortest_path_length", Kind::number, m.average_shortest_path_length, false});
  if (integral)
    add({"wiener_index", Kind::digits, 0, false, m.wiener_exact.text()});
  else
    add({"wiener_index", Kind::number, m.wiener_index, false});
  add({"histogram", Kind::histogram});
  add({"eccentricity", Kind::distances, 0, false, {}, nullptr, &m.eccentricity});
  add({"in_eccentricity", Kind::distances, 0, false, {}, nullptr, &m.in_eccentricity});
  add({"reachable", Kind::counts, 0, false, {}, &m.reachable});
  add({"in_reachable", Kind::counts, 0, false, {}, &m.in_reachable});
  if (integral) {
    add({"distance_sum", Kind::counts, 0, false, {}, &m.distance_sum_exact});
    add({"in_distance_sum", Kind::counts, 0, false, {}, &m.in_distance_sum_exact});
  } else {
    add({"distance_sum", Kind::reals, 0, false, {}, nullptr, &m.distance_sum});
    add({"in_distance_sum", Kind::reals, 0, false, {}, nullptr, &m.in_distance_sum});
  }
  add({"closeness_centrality", Kind::reals, 0, false, {}, nullptr, &m.closeness_centrality});
  add({"harmonic_centrality", Kind::reals, 0, false, {}, nullptr, &m.harmonic_centrality});
  return all;
}

std::vector<std::string> names_of(bool vertex) {
  std::vector<std::string> names;
  for (const MeasureValue& v : values_of(GraphMeasures(), [](const std::string&) { return true; }))
    if (v.of_vertex() == vertex) names.push_back(v.name);
  return names;
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

// The names in the files' order, from the one list (values_of).
const std::vector<std::string>& vertex_measure_names() {
  static const std::vector<std::string> names = names_of(true);
  return names;
}

const std::vector<std::string>& graph_measure_names() {
  static const std::vector<std::string> names = names_of(false);
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

std::vector<MeasureValue> measure_values(const GraphMeasures& m, const MeasuresRequest& request) {
  return values_of(m, [&](const std::string& name) { return request.wants(name); });
}

std::string measures_file(const GraphMeasures& measures, const MeasuresRequest& request,
                          DistanceType type) {
  const std::vector<MeasureValue> values = measure_values(measures, request);
  const std::vector<Column> vertex = columns(measures, values, type);
  switch (request.format) {
    case MeasuresFormat::csv:
      return csv_file(measures, vertex);
    case MeasuresFormat::npy:
      return npy_file(measures, vertex);
    default:
      return json_file(measures, values, vertex);
  }
}

}  // namespace apsp
