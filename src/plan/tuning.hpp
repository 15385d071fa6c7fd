// Tuning by measurement: `apsp tune` times every tile shape this device runs at a few sizes and
// stores the fastest per range of V in a small cache file; later runs of the command line take
// the tuned shape for their V from it ("shape_source": "tuned" in --stats). A user's --tile or
// --shape always wins ("user"); without a usable entry the table's default is taken ("table").
// An entry holds only near the size it was measured at (within a factor of 2, tuned_range): the
// fastest shape at V = 512 says nothing about V = 40000.
//
// The cache, $XDG_CACHE_HOME/apsp/tuning.json (else $HOME/.cache/apsp/tuning.json), is JSON
// with one entry a line. An entry holds for one TuningKey and one range of V, and names its
// shape by its parameters, never by its index: a table that changed no longer has the shape (or
// has another one at that index), and its entries are ignored with a warning. APSP_TUNING=off
// ignores the cache. A cache that cannot be read or parsed is ignored with a warning, never an
// error: it only ever chooses between shapes that all compute the same distances.
#pragma once

#include <apsp/distance.hpp>
#include <apsp/plan.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace apsp {

// What a measurement holds for: the backend, the device (for CPUs the processor's model and the
// threads), the instruction set the kernels were compiled for (AVX-512, AVX2, NEON, sm_90, ...),
// the concurrency, the distance type and a hash of the compiled shape table.
struct TuningKey {
  std::string backend, device, isa;
  int concurrency = 0;
  std::string dtype = "int32";
  std::string table;
  // The same machine and build: everything but the table.
  bool same_machine(const TuningKey& o) const {
    return backend == o.backend && device == o.device && isa == o.isa &&
           concurrency == o.concurrency && dtype == o.dtype;
  }
  bool operator==(const TuningKey& o) const { return same_machine(o) && table == o.table; }
};

// The fastest shape measured at measured_vertices, for V in [min_vertices, max_vertices] (which
// a lookup also bounds by tuned_range(measured_vertices)).
struct TunedShape {
  TuningKey key;
  std::int64_t min_vertices = 0, max_vertices = 0, measured_vertices = 0;
  ShapeParams shape;
  double rate = 0, default_rate = 0;  // V^3 / s of this shape and of the table's default
};

// $XDG_CACHE_HOME/apsp/tuning.json, else $HOME/.cache/apsp/tuning.json ("" when neither is set).
std::string tuning_cache_path();
// Whether runs read the tuning cache: APSP_TUNING unset, or on, 1, yes, true, enable(d), y, t
// (any case). Off, 0, no, false, disable(d), n, f (any case) turn it off; any other value is
// taken as off too (setting the variable asks for a change from the default) and `warning`, when
// given, says so.
bool tuning_enabled(std::string* warning = nullptr);

// The largest cache file read: a cache holds a few hundred bytes an entry.
inline constexpr std::uint64_t max_tuning_cache_bytes = std::uint64_t(1) << 20;

// The entries of the cache file at `path`: none when it does not exist; when it cannot be read,
// is not a regular file (a FIFO is never opened for a blocking read), is larger than
// max_tuning_cache_bytes or an entry cannot be parsed, none and `warning` says why (the caller
// prints it).
std::vector<TunedShape> read_tuning_cache(const std::string& path, std::string& warning);

// Replaces the entries of `entries`' key (same machine, any table) in the cache at `path` by
// `entries`, keeping the others; creates the directory; the file is replaced atomically (a
// temporary renamed into place), the read-modify-write under an exclusive flock() of PATH.lock,
// so that concurrent stores keep each other's entries. Throws apsp::Error when it cannot be
// written.
void store_tuning(const std::string& path, const std::vector<TunedShape>& entries);

// The sizes a measurement at V = measured speaks for: [measured / 2, 2 * measured] (rounded
// outwards). Past that another shape may win (padding, cache sizes, occupancy), so an entry is
// never extrapolated further, whatever range the cache file claims.
struct VertexRange {
  std::int64_t min = 0, max = 0;
  bool holds(std::int64_t v) const { return v >= min && v <= max; }
};
VertexRange tuned_range(std::int64_t measured_vertices);

// The entry for `key` whose range holds `vertices` (and tuned_range of its measured size), if
// any. When the cache has entries of this machine for another shape table only, `warning` says
// that they are stale.
const TunedShape* find_tuned_shape(const std::vector<TunedShape>& cache, const TuningKey& key,
                                   std::int64_t vertices, std::string& warning);

// `apsp tune`: every shape the device runs, timed at each size (a warm-up solve, then the
// median of `runs` solves of a random graph, V^3 / seconds); a shape under half the best rate
// at one size is not timed at the larger ones. At each size the fastest shape wins, unless the
// table's default is within 2% of it (then the default: tuning never picks a shape that
// measured slower than the default). The winners cover the V ranges split at the geometric
// means of neighbouring sizes, each within tuned_range of its size, and replace this machine's
// entries in the cache. A size below min_tune_vertices(largest tile) is refused: a solve there
// takes microseconds and the padding, not the kernel, decides the winner.
struct TuneConfig {
  std::string backend;              // "" = the build's default
  std::vector<std::int64_t> sizes;  // empty: 512, 1024, 2048 on CPUs; 4096, 8192, 16384 on GPUs
  int runs = 3;
  std::string cache;                         // "" = tuning_cache_path()
  DistanceType dtype = DistanceType::int32;  // the distance type whose shapes are timed
};
struct TuneRow {
  std::int64_t vertices = 0;
  int index = -1;  // in `apsp shapes`
  std::string name;
  double rate = 0;  // 0: not timed (too slow at a smaller size)
  bool is_default = false, chosen = false;
};
struct TuneResult {
  TuningKey key;
  std::vector<TuneRow> rows;
  std::vector<TunedShape> entries;
  std::string cache;
};
// Measures, stores the entries in the cache, and returns what it did; `report` sees each row as
// it is measured. Throws apsp::Error when a size does not fit the device or the cache cannot be
// written.
TuneResult tune(const TuneConfig& config, const std::function<void(const TuneRow&)>& report);

// The smallest size tune() times when the table's largest runnable tile is `largest_tile`: two
// such tiles a side.
inline std::int64_t min_tune_vertices(int largest_tile) {
  return 2 * std::int64_t(largest_tile);
}

}  // namespace apsp
