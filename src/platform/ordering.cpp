#include <apsp/ordering.hpp>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <mutex>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#if defined(APSP_HAVE_METIS)
#include <metis.h>
#include <pthread.h>

#include <csignal>

static_assert(sizeof(idx_t) == sizeof(std::int32_t), "apsp passes METIS 32-bit indices");

// METIS' random numbers, one generator per thread. METIS 5.1.0 draws every random number through
// GKlib's gk_randint32/64, which call the C library's rand(), and seeds it with srand(seed) when
// each call starts (SetupCtrl -> InitRandom); the rest of its state is per call or thread-local
// (GKlib's memory and error state are __thread; libmetis.a defines no other writable globals,
// `readelf -s` shows it). The C library's rand() keeps one state for the process, so two METIS
// calls on two threads would interleave their draws and order differently from run to run.
// These definitions give the METIS linked into this binary glibc's own generator (random(3)'s
// TYPE_3 additive feedback generator, seeded as glibc's srand seeds it) with its state per
// thread: each METIS call draws the sequence that glibc's rand() would give it alone, so the
// orders are glibc's serial ones on any number of threads. Hidden, so only the code linked into
// the same binary calls them (also a static Kokkos, whose one draw, a random device choice,
// gets the same glibc sequence); shared libraries keep the C library's. nested_dissection_order
// checks that METIS calls this srand (a shared libmetis.so calls the C library's) before it orders
// on more than one thread, and else orders on one thread, one ordering at a time. One thing stays
// process-wide: the SIGABRT/SIGTERM handlers through which METIS turns its internal failures into
// return codes (gk_sigtrap); a call that ends may restore the default while another runs, so
// METIS running out of memory on a thread can end the process instead of returning
// METIS_ERROR_MEMORY. MetisSignals below puts both handlers back after the ordering.
namespace {

struct RandState {
  std::int32_t r[31];
  int front = 3, rear = 0;  // glibc's fptr and rptr
  std::uint64_t seeds = 0;  // srand calls on this thread

  RandState() { seed(1); }

  void seed(unsigned value) {
    if (value == 0) value = 1;
    r[0] = std::int32_t(value);
    std::int32_t word = std::int32_t(value);
    for (int i = 1; i < 31; ++i) {
      // r[i] = 16807 r[i - 1] mod (2^31 - 1) without overflow (Schrage), as glibc writes it.
      const long hi = word / 127773, lo = word % 127773;
      word = std::int32_t(16807 * lo - 2836 * hi);
      if (word < 0) word += 2147483647;
      r[i] = word;
    }
    front = 3;
    rear = 0;
    for (int i = 0; i < 310; ++i)
      next();
  }

  int next() {
    const std::uint32_t value = std::uint32_t(r[front]) + std::uint32_t(r[rear]);
    r[front] = std::int32_t(value);
    front = front + 1 == 31 ? 0 : front + 1;
    rear = rear + 1 == 31 ? 0 : rear + 1;
    return int(value >> 1);
  }
};

thread_local RandState rand_state;

}  // namespace

extern "C" {
__attribute__((visibility("hidden"))) void srand(unsigned seed) noexcept {
  rand_state.seed(seed);
  ++rand_state.seeds;
}
__attribute__((visibility("hidden"))) int rand() noexcept {
  return rand_state.next();
}
}
#endif

namespace apsp {

#if defined(APSP_HAVE_METIS)

bool have_nested_dissection() {
  return true;
}

namespace {

// The symmetrized structure of the non-isolated vertices in METIS' CSR form (xadj, adjncy),
// vertices renumbered 0..n-1 in increasing order of their old number (`old_of`).
struct Structure {
  std::vector<idx_t> xadj, adjncy;
  std::vector<std::int32_t> old_of;
  std::vector<std::int32_t> isolated;
};

Structure symmetrized_structure(std::int32_t vertices, const std::vector<Edge>& edges) {
  std::vector<std::int64_t> start(std::size_t(vertices) + 1, 0);
  for (const Edge& e : edges) {
    if (e.src < 0 || e.src >= vertices || e.dst < 0 || e.dst >= vertices)
      throw Error("ordering: edge " + std::to_string(e.src) + " -> " + std::to_string(e.dst) +
                  " out of range [0, " + std::to_string(vertices) + ")");
    if (e.src == e.dst) continue;
    ++start[std::size_t(e.src) + 1];
    ++start[std::size_t(e.dst) + 1];
  }
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<std::int32_t> neighbours(std::size_t(start.back()));
  std::vector<std::int64_t> fill(start.begin(), start.end() - 1);
  for (const Edge& e : edges) {
    if (e.src == e.dst) continue;
    neighbours[std::size_t(fill[std::size_t(e.src)]++)] = e.dst;
    neighbours[std::size_t(fill[std::size_t(e.dst)]++)] = e.src;
  }
  // Unique neighbours per vertex; new numbers for the vertices that have any.
  std::vector<std::int64_t> unique_end(static_cast<std::size_t>(vertices));
  std::vector<std::int32_t> new_of(static_cast<std::size_t>(vertices), -1);
  Structure s;
  std::int64_t entries = 0;
  for (std::int32_t v = 0; v < vertices; ++v) {
    auto first = neighbours.begin() + start[std::size_t(v)];
    auto last = neighbours.begin() + start[std::size_t(v) + 1];
    std::sort(first, last);
    last = std::unique(first, last);
    unique_end[std::size_t(v)] = last - neighbours.begin();
    if (first == last) {
      s.isolated.push_back(v);
    } else {
      new_of[std::size_t(v)] = std::int32_t(s.old_of.size());
      s.old_of.push_back(v);
      entries += last - first;
    }
  }
  if (entries > INT32_MAX)
    throw Error("ordering: the symmetrized graph has " + std::to_string(entries / 2) +
                " edges; METIS' 32-bit indices hold at most 1073741823");
  s.xadj.reserve(s.old_of.size() + 1);
  s.adjncy.reserve(std::size_t(entries));
  s.xadj.push_back(0);
  for (const std::int32_t v : s.old_of) {
    for (std::int64_t a = start[std::size_t(v)]; a < unique_end[std::size_t(v)]; ++a)
      s.adjncy.push_back(new_of[std::size_t(neighbours[std::size_t(a)])]);
    s.xadj.push_back(idx_t(s.adjncy.size()));
  }
  return s;
}

// One part of the recursion: a subgraph in METIS' CSR form, its vertices' numbers in the
// structure (`label`).
struct Part {
  std::vector<idx_t> xadj, adjncy;
  std::vector<std::int32_t> label;
};

// Parts larger than this are split by apsp's own recursion (a METIS vertex separator, the two
// sides ordered concurrently, the separator last); smaller ones are ordered by METIS_NodeND,
// which does the same recursion inside, on one thread. A constant, not a function of the
// thread count: the order must not depend on the machine.
constexpr idx_t nd_leaf_vertices = 4096;

void set_options(idx_t (&options)[METIS_NOPTIONS]) {
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_NUMBERING] = 0;
  options[METIS_OPTION_SEED] = 1;  // fixed: the order is a function of the graph
}

void check_status(int status, const char* call, idx_t n) {
  if (status == METIS_ERROR_MEMORY)
    throw Error("ordering: METIS ran out of memory ordering " + std::to_string(n) + " vertices");
  if (status != METIS_OK)
    throw Error(std::string("ordering: ") + call + " failed (status " + std::to_string(status) +
                ") on " + std::to_string(n) + " vertices");
}

// METIS_NodeND's order of `part`, written to out[0, n) as the structure's vertices.
void node_nd(Part& part, std::int32_t* out) {
  idx_t n = idx_t(part.label.size());
  idx_t options[METIS_NOPTIONS];
  set_options(options);
  std::vector<idx_t> perm(static_cast<std::size_t>(n)), iperm(perm.size());
  check_status(METIS_NodeND(&n, part.xadj.data(), part.adjncy.data(), nullptr, options, perm.data(),
                            iperm.data()),
               "METIS_NodeND", n);
  for (idx_t i = 0; i < n; ++i)
    out[i] = part.label[std::size_t(perm[std::size_t(i)])];
}

// Writes the nested-dissection order of `part` to out[0, n): out[new] = the structure's vertex.
void order_part(Part part, std::int32_t* out, int threads) {
  idx_t n = idx_t(part.label.size());
  idx_t options[METIS_NOPTIONS];
  set_options(options);
  if (part.adjncy.empty()) {  // no edges, no fill: any order
    std::copy(part.label.begin(), part.label.end(), out);
    return;
  }
  if (n <= nd_leaf_vertices) {
    node_nd(part, out);
    return;
  }
  // where[v]: 0 and 1 the sides, 2 the separator.
  std::vector<idx_t> where(static_cast<std::size_t>(n));
  idx_t separator = 0;
  check_status(METIS_ComputeVertexSeparator(&n, part.xadj.data(), part.adjncy.data(), nullptr,
                                            options, &separator, where.data()),
               "METIS_ComputeVertexSeparator", n);
  Part sides[2];
  std::vector<idx_t> new_of(static_cast<std::size_t>(n));
  std::int32_t* last = out + n;
  for (idx_t v = 0; v < n; ++v) {
    const idx_t w = where[std::size_t(v)];
    if (w == 2) continue;
    new_of[std::size_t(v)] = idx_t(sides[w].label.size());
    sides[w].label.push_back(part.label[std::size_t(v)]);
  }
  if (sides[0].label.empty() || sides[1].label.empty()) {
    // No split (a clique, or METIS found none): METIS orders it whole.
    node_nd(part, out);
    return;
  }
  last -= separator;
  for (idx_t v = 0, k = 0; v < n; ++v)
    if (where[std::size_t(v)] == 2) last[k++] = part.label[std::size_t(v)];
  for (Part& side : sides)
    side.xadj.assign(1, 0);
  for (idx_t v = 0; v < n; ++v) {
    const idx_t w = where[std::size_t(v)];
    if (w == 2) continue;
    for (idx_t a = part.xadj[std::size_t(v)]; a < part.xadj[std::size_t(v) + 1]; ++a) {
      const idx_t u = part.adjncy[std::size_t(a)];
      if (where[std::size_t(u)] == w) sides[w].adjncy.push_back(new_of[std::size_t(u)]);
    }
    sides[w].xadj.push_back(idx_t(sides[w].adjncy.size()));
  }
  part = Part{};
  std::int32_t* right = out + sides[0].label.size();
  if (threads < 2) {
    order_part(std::move(sides[0]), out, 1);
    order_part(std::move(sides[1]), right, 1);
    return;
  }
  std::exception_ptr failed;
  std::thread left([&, half = threads / 2] {
    try {
      order_part(std::move(sides[0]), out, half);
    } catch (...) {
      failed = std::current_exception();
    }
  });
  try {
    order_part(std::move(sides[1]), right, threads - threads / 2);
  } catch (...) {
    left.join();
    throw;
  }
  left.join();
  if (failed) std::rethrow_exception(failed);
}

// METIS (GKlib's gk_sigtrap) sets its own SIGTERM and SIGABRT handlers around each call and puts
// back the ones it found; with calls on several threads the last put back can be METIS' own,
// which longjmps into a call long gone: a SIGTERM while apsp wrote its rows then crashed it
// (tests/cli-signal/interrupt.sh, "writing"). For the whole ordering the calling thread blocks
// SIGTERM (the threads it starts inherit that; a SIGTERM waits, then reaches the handler the
// process had), and at the end both handlers are put back as they were. (GKlib reports its own
// errors by raising SIGTERM; for valid input, which the ordering gives it, it raises none.)
class MetisSignals {
 public:
  MetisSignals() {
    sigaction(SIGTERM, nullptr, &term_);
    sigaction(SIGABRT, nullptr, &abort_);
    sigset_t term;
    sigemptyset(&term);
    sigaddset(&term, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &term, &mask_);
  }
  ~MetisSignals() {
    sigaction(SIGTERM, &term_, nullptr);
    sigaction(SIGABRT, &abort_, nullptr);
    pthread_sigmask(SIG_SETMASK, &mask_, nullptr);
  }
  MetisSignals(const MetisSignals&) = delete;
  MetisSignals& operator=(const MetisSignals&) = delete;

 private:
  struct sigaction term_ = {}, abort_ = {};
  sigset_t mask_ = {};
};

// Whether the METIS linked here draws its random numbers from the per-thread generator above.
bool metis_random_per_thread() {
  static const bool answer = [] {
    idx_t n = 3, xadj[] = {0, 1, 3, 4}, adjncy[] = {1, 0, 2, 1}, perm[3], iperm[3];
    idx_t options[METIS_NOPTIONS];
    set_options(options);
    const std::uint64_t before = rand_state.seeds;
    METIS_NodeND(&n, xadj, adjncy, nullptr, options, perm, iperm);
    return rand_state.seeds != before;
  }();
  return answer;
}

// Held by an ordering whose METIS draws from the process' one generator (a shared libmetis.so:
// the C library's rand()): METIS seeds it when each call starts, so two orderings at once would
// interleave their draws; one at a time, each gets its serial order.
std::mutex shared_random_numbers;

}  // namespace

std::vector<std::int32_t> nested_dissection_order(std::int64_t vertices,
                                                  const std::vector<Edge>& edges, int threads) {
  if (vertices < 0 || vertices > INT32_MAX)
    throw Error("ordering: " + std::to_string(vertices) + " vertices; at most 2147483647");
  Structure s = symmetrized_structure(std::int32_t(vertices), edges);
  std::vector<std::int32_t> perm = s.isolated;
  if (s.old_of.empty()) return perm;
  const std::size_t isolated = perm.size();
  perm.resize(std::size_t(vertices));
  if (threads <= 0) threads = int(std::max(1u, std::thread::hardware_concurrency()));
  const MetisSignals signals;
  std::unique_lock<std::mutex> one_at_a_time(shared_random_numbers, std::defer_lock);
  if (!metis_random_per_thread()) {
    threads = 1;
    one_at_a_time.lock();
  }
  Part all{std::move(s.xadj), std::move(s.adjncy), {}};
  all.label.resize(s.old_of.size());
  std::iota(all.label.begin(), all.label.end(), 0);
  order_part(std::move(all), perm.data() + isolated, threads);
  for (std::size_t i = isolated; i < perm.size(); ++i)
    perm[i] = s.old_of[std::size_t(perm[i])];
  return perm;
}

#else

bool have_nested_dissection() {
  return false;
}

std::vector<std::int32_t> nested_dissection_order(std::int64_t, const std::vector<Edge>&, int) {
  throw OrderingUnavailable(
      "this build has no METIS: nested-dissection orderings need apsp configured with "
      "-DAPSP_ENABLE_METIS=ON (scripts/bootstrap-deps builds METIS)");
}

#endif

}  // namespace apsp
