// apsp_peak_probe: the attainable min-plus rate of every backend of this build (peak_probe.hpp),
// so that a solver rate can be expressed as a fraction of it (architectural efficiency).
//   apsp_peak_probe [--backend NAME] [--repeats N] [--seconds S] [--json FILE] [Kokkos options]
// For each backend and register block: a calibration, one warm-up run, then N timed runs
// (fence, timer, launch, fence); the median is the rate. The backend's ceiling is the best
// median over its register blocks.
#include "peak_probe.hpp"

#include <apsp/version.hpp>

#include "io/json.hpp"
#include "platform/backends.hpp"

#include <Kokkos_Core.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct Settings {
  std::string backend;  // "" = every backend of the build
  int repeats = 7;
  double seconds = 0.2;  // per timed run, roughly
  std::string json;
  std::string type = "int32";  // --type: the element type of the loop
};

struct Measurement {
  std::string backend, device, lanes, block;
  int concurrency = 0;
  std::int64_t items = 0;
  int iterations = 0;
  double updates = 0;
  std::vector<double> seconds;
  double median_rate = 0, best_rate = 0;
  std::int64_t checksum = 0;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

template <class ExecSpace>
Kokkos::View<const int*, typename ExecSpace::memory_space> make_seeds(const ExecSpace& exec) {
  // Weights as the solver sees them (0..1000), from a fixed LCG: run-time data the compiler
  // cannot see through.
  Kokkos::View<int*, typename ExecSpace::memory_space> seeds("apsp::bench::seeds", 1024);
  auto host = Kokkos::create_mirror_view(seeds);
  std::uint32_t x = 12345;
  for (std::size_t i = 0; i < host.extent(0); ++i) {
    x = x * 1664525u + 1013904223u;
    host(i) = int((x >> 8) % 1001);
  }
  Kokkos::deep_copy(exec, seeds, host);
  exec.fence();
  return seeds;
}

template <class ExecSpace, class Lane, int Half>
Measurement probe(const ExecSpace& exec, const Settings& settings, const char* lanes) {
  using Probe = apsp::bench::MinPlusRegisters<ExecSpace, Lane, Half>;
  const bool host = Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;
  Measurement m;
  m.backend = apsp::backend_name<ExecSpace>();
  m.device = apsp::describe_device(exec);
  m.concurrency = exec.concurrency();
  m.lanes = lanes;
  m.block = Probe::block();
  // GPUs: a few threads per resident thread slot; CPUs: many items per thread for balance.
  m.items = std::int64_t(m.concurrency) * (host ? 64 : 4);

  Kokkos::View<int*, typename ExecSpace::memory_space> sink("apsp::bench::sink", m.items);
  Probe functor{make_seeds(exec), sink, 1};
  const Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>> policy(exec, 0, m.items);
  auto run = [&] {
    exec.fence();
    Kokkos::Timer timer;
    Kokkos::parallel_for("apsp::bench::min_plus_registers", policy, functor);
    exec.fence();
    return timer.seconds();
  };
  // Calibrate: double the loop until a run (the faster of two) takes half the target, then
  // scale. Not less: on a busy machine a short parallel region can take milliseconds just
  // waiting for its threads to be scheduled, and a calibration on that waiting would time it
  // instead of the arithmetic. Rescale while the timed runs come out much shorter.
  auto shortest = [&] { return std::min(run(), run()); };
  double t = shortest();
  while (t < settings.seconds / 2 && functor.iterations < (1 << 26)) {
    functor.iterations *= 2;
    t = shortest();
  }
  for (int attempt = 0; attempt < 8; ++attempt) {
    functor.iterations =
        std::max(1, int(std::min(double(1 << 28), functor.iterations * settings.seconds / t)));
    run();  // warm-up at the final size
    m.seconds.clear();
    for (int r = 0; r < settings.repeats; ++r)
      m.seconds.push_back(run());
    t = median(m.seconds);
    if (t > settings.seconds / 2) break;
  }
  m.iterations = functor.iterations;
  m.updates = double(m.items) * double(Probe::updates_per_item(functor.iterations));
  m.median_rate = m.updates / median(m.seconds);
  m.best_rate = m.updates / *std::min_element(m.seconds.begin(), m.seconds.end());
  Kokkos::parallel_reduce(
      "apsp::bench::checksum", policy,
      KOKKOS_LAMBDA(std::int64_t i, std::int64_t & s) { s += sink(i); }, m.checksum);
  return m;
}

// The probes of one backend on elements of type E (int: the solver's int32 ceiling).
template <class ExecSpace, class E>
std::vector<Measurement> probe_backend(const ExecSpace& exec, const Settings& settings) {
  std::vector<Measurement> results;
  const char* scalar = std::is_same<E, int>::value ? "int" : apsp::bench::element_name<E>();
  if constexpr (Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible) {
#if defined(APSP_BENCH_HOST_VECTORS)
    // 16, 24 and 28 of the host's 32 (AVX-512) vector registers; fewer spill on 16-register ISAs.
    using V = typename apsp::bench::HostVectorOf<E>::type;
    results.push_back(probe<ExecSpace, V, 8>(exec, settings, "simd"));
    results.push_back(probe<ExecSpace, V, 12>(exec, settings, "simd"));
    results.push_back(probe<ExecSpace, V, 14>(exec, settings, "simd"));
    results.push_back(probe<ExecSpace, V, 4>(exec, settings, "simd"));
#else
    // A host backend of a GPU build (nvcc compiles the host code): scalar registers.
    results.push_back(probe<ExecSpace, E, 6>(exec, settings, scalar));
#endif
  } else {
    // 32, 64 and 128 registers per thread.
    results.push_back(probe<ExecSpace, E, 16>(exec, settings, scalar));
    results.push_back(probe<ExecSpace, E, 32>(exec, settings, scalar));
    results.push_back(probe<ExecSpace, E, 64>(exec, settings, scalar));
  }
  return results;
}

template <class ExecSpace>
std::vector<Measurement> probe_backend(const ExecSpace& exec, const Settings& settings) {
  if (settings.type == "float32") return probe_backend<ExecSpace, float>(exec, settings);
  if (settings.type == "float64") return probe_backend<ExecSpace, double>(exec, settings);
  return probe_backend<ExecSpace, int>(exec, settings);
}

template <std::size_t I = 0>
void probe_all(const Settings& settings, std::vector<Measurement>& results) {
  if constexpr (I < std::tuple_size<apsp::EnabledBackends>::value) {
    using Exec = std::tuple_element_t<I, apsp::EnabledBackends>;
    if (settings.backend.empty() || settings.backend == apsp::backend_name<Exec>()) {
      for (auto& m : probe_backend(Exec(), settings)) {
        std::printf("%-8s %-5s %6s  %10.3f G updates/s  (median of %zu; best %.3f G)  %s\n",
                    m.backend.c_str(), m.lanes.c_str(), m.block.c_str(), m.median_rate / 1e9,
                    m.seconds.size(), m.best_rate / 1e9, m.device.c_str());
        std::fflush(stdout);
        results.push_back(std::move(m));
      }
    }
    probe_all<I + 1>(settings, results);
  }
}

std::string to_json(const std::vector<Measurement>& results) {
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  std::ostringstream j;
  j.precision(9);
  j << "{\n  \"tool\": \"apsp_peak_probe\",\n  \"apsp_version\": \"" << APSP_VERSION
    << "\",\n  \"kokkos_version\": " << KOKKOS_VERSION
    << ",\n  \"hostname\": " << apsp::detail::json_string(host) << ",\n  \"probes\": [";
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto& m = results[i];
    j << (i ? "," : "") << "\n    {\"backend\": " << apsp::detail::json_string(m.backend)
      << ", \"device\": " << apsp::detail::json_string(m.device)
      << ", \"concurrency\": " << m.concurrency
      << ", \"lanes\": " << apsp::detail::json_string(m.lanes)
      << ", \"block\": " << apsp::detail::json_string(m.block) << ", \"items\": " << m.items
      << ", \"iterations\": " << m.iterations << ", \"updates\": " << m.updates
      << ", \"seconds\": [";
    for (std::size_t r = 0; r < m.seconds.size(); ++r)
      j << (r ? ", " : "") << m.seconds[r];
    j << "], \"updates_per_second\": " << m.median_rate
      << ", \"best_updates_per_second\": " << m.best_rate << ", \"checksum\": " << m.checksum
      << "}";
  }
  j << "\n  ],\n  \"ceilings\": {";
  std::vector<std::string> done;
  for (const auto& m : results) {
    if (std::find(done.begin(), done.end(), m.backend) != done.end()) continue;
    done.push_back(m.backend);
    const Measurement* best = &m;
    for (const auto& o : results)
      if (o.backend == m.backend && o.median_rate > best->median_rate) best = &o;
    j << (done.size() > 1 ? "," : "") << "\n    " << apsp::detail::json_string(m.backend)
      << ": {\"updates_per_second\": " << best->median_rate
      << ", \"lanes\": " << apsp::detail::json_string(best->lanes)
      << ", \"block\": " << apsp::detail::json_string(best->block)
      << ", \"concurrency\": " << best->concurrency
      << ", \"device\": " << apsp::detail::json_string(best->device) << "}";
  }
  j << "\n  }\n}\n";
  return j.str();
}

const char* const usage_text =
    "usage: apsp_peak_probe [--backend NAME] [--type int32|float32|float64] [--repeats N] "
    "[--seconds S] [--json FILE] [Kokkos options]\n"
    "  --type: the element type of the min-plus loop (default int32, the solver's HW3 path)\n";

int usage(const std::string& why) {
  std::fprintf(stderr, "apsp_peak_probe: %s\n%s", why.c_str(), usage_text);
  return 2;
}

int error(const std::string& message) {
  std::fprintf(stderr, "apsp_peak_probe: %s\n", message.c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  Settings settings;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
      return argv[++i];
    };
    try {
      if (a == "--backend") {
        settings.backend = value();
      } else if (a == "--type") {
        settings.type = value();
        if (settings.type != "int32" && settings.type != "float32" && settings.type != "float64")
          return usage("--type must be int32, float32 or float64");
      } else if (a == "--repeats") {
        settings.repeats = std::max(1, std::stoi(value()));
      } else if (a == "--seconds") {
        settings.seconds = std::stod(value());
      } else if (a == "--json") {
        settings.json = value();
      } else if (a == "--help" || a == "-h") {
        std::printf("%s", usage_text);
        return 0;
      } else {
        return usage("unknown option '" + a + "'");
      }
    } catch (const std::exception& e) {
      return usage(e.what());
    }
  }
  std::printf("apsp %s peak probe, Kokkos %s\n", APSP_VERSION, apsp::kokkos_version().c_str());
  std::vector<Measurement> results;
  try {
    probe_all(settings, results);
  } catch (const std::exception& e) {
    return error(e.what());
  }
  if (results.empty()) {
    std::string names;
    for (const auto& n : apsp::backend_names())
      names += (names.empty() ? "" : ", ") + n;
    return error("backend '" + settings.backend + "' is not in this build (" + names + ")");
  }
  if (!settings.json.empty()) {
    std::ofstream out(settings.json);
    out << to_json(results);
    if (!out) return error("cannot write " + settings.json);
  }
  return 0;
}
