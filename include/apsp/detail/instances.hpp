// Two instances of one execution space, `main` and `side`, that run concurrently where the
// backend has streams (Cuda, HIP), so that the rounds' short, latency-bound closures of the next
// pivot overlap the current remaining tiles (row_block_rounds.hpp). Kokkos 3.4 makes instances
// only from a stream (Kokkos::Cuda(cudaStream_t), HIP(hipStream_t)), so the backend part is that
// and an event per direction; both streams are our own and non-blocking: Kokkos' default Cuda
// instance may be the legacy default stream, which waits for every other stream. On every other
// backend main and side are the caller's instance, and the ordering calls do nothing: one
// instance runs its work in the order it was queued, which already satisfies every dependency.
#pragma once

#include <apsp/error.hpp>

#include <Kokkos_Core.hpp>

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>

namespace apsp {
namespace detail {

// The stream and event calls of a backend; available only where instances run concurrently.
template <class ExecSpace>
struct Streams {
  static constexpr bool available = false;
};

#define APSP_STREAMS(Space, prefix)                                                                \
  template <>                                                                                      \
  struct Streams<Space> {                                                                          \
    static constexpr bool available = true;                                                        \
    using stream = prefix##Stream_t;                                                               \
    using event = prefix##Event_t;                                                                 \
    static void check(prefix##Error_t e, const char* what) {                                       \
      if (e != prefix##Success) throw Error(std::string(what) + ": " + prefix##GetErrorString(e)); \
    }                                                                                              \
    /* high: the greatest priority, so that the short kernels of the side start first */           \
    static stream make_stream(bool high) {                                                         \
      int least = 0, greatest = 0;                                                                 \
      check(prefix##DeviceGetStreamPriorityRange(&least, &greatest), #prefix "StreamPriority");    \
      stream s;                                                                                    \
      check(prefix##StreamCreateWithPriority(&s, prefix##StreamNonBlocking,                        \
                                             high ? greatest : least),                             \
            #prefix "StreamCreate");                                                               \
      return s;                                                                                    \
    }                                                                                              \
    static event make_event() {                                                                    \
      event e;                                                                                     \
      check(prefix##EventCreateWithFlags(&e, prefix##EventDisableTiming), #prefix "EventCreate");  \
      return e;                                                                                    \
    }                                                                                              \
    static int current_device() {                                                                  \
      int device = 0;                                                                              \
      check(prefix##GetDevice(&device), #prefix "GetDevice");                                      \
      return device;                                                                               \
    }                                                                                              \
    static void destroy(stream s) { (void)prefix##StreamDestroy(s); }                              \
    static void destroy(event e) { (void)prefix##EventDestroy(e); }                                \
    /* `to` waits for the work queued on `from` so far */                                          \
    static void order(stream from, event e, stream to) {                                           \
      record(e, from);                                                                             \
      wait(to, e);                                                                                 \
    }                                                                                              \
    static void record(event e, stream s) {                                                        \
      check(prefix##EventRecord(e, s), #prefix "EventRecord");                                     \
    }                                                                                              \
    static void wait(stream s, event e) {                                                          \
      check(prefix##StreamWaitEvent(s, e, 0), #prefix "StreamWaitEvent");                          \
    }                                                                                              \
    static void synchronize(stream s) {                                                            \
      check(prefix##StreamSynchronize(s), #prefix "StreamSynchronize");                            \
    }                                                                                              \
    /* the stream an instance queues its work on */                                                \
    static stream native(const Space& exec) { return exec.prefix##_stream(); }                     \
    /* events that time the work between two of them */                                            \
    static event make_timing_event() {                                                             \
      event e;                                                                                     \
      check(prefix##EventCreate(&e), #prefix "EventCreate");                                       \
      return e;                                                                                    \
    }                                                                                              \
    static double seconds_between(event from, event to) {                                          \
      float ms = 0;                                                                                \
      check(prefix##EventElapsedTime(&ms, from, to), #prefix "EventElapsedTime");                  \
      return ms / 1e3;                                                                             \
    }                                                                                              \
  };

#if defined(KOKKOS_ENABLE_CUDA)
APSP_STREAMS(Kokkos::Cuda, cuda)
#endif
#if defined(KOKKOS_ENABLE_HIP)
#if KOKKOS_VERSION >= 40000
APSP_STREAMS(Kokkos::HIP, hip)
#else
APSP_STREAMS(Kokkos::Experimental::HIP, hip)
#endif
#endif
#undef APSP_STREAMS

// A stream or event of Streams<ExecSpace>, destroyed with its owner.
template <class ExecSpace, class Handle>
struct OwnedHandle {
  Handle handle;
  explicit OwnedHandle(Handle h) : handle(h) {}
  OwnedHandle(const OwnedHandle&) = delete;
  OwnedHandle& operator=(const OwnedHandle&) = delete;
  ~OwnedHandle() { Streams<ExecSpace>::destroy(handle); }
};

// Elsewhere: both are the caller's instance.
template <class ExecSpace, bool = Streams<ExecSpace>::available>
class Instances {
 public:
  static constexpr bool concurrent = false;
  explicit Instances(const ExecSpace& exec) : exec_(exec) {}
  const ExecSpace& main() const { return exec_; }
  const ExecSpace& side() const { return exec_; }
  void side_after_main() {}
  void main_after_side() {}
  void fence() const { exec_.fence(); }

 private:
  ExecSpace exec_;
};

// Two streams of our own. The caller's instance is fenced first (its work on the matrix is done
// before either stream reads it), and fence() (also on destruction) ends the work of both.
// The streams and their instances are made once per device and calling thread, on first use
// (the solver's warm-up), and destroyed when Kokkos finalizes: Kokkos makes an instance from a
// stream with device and pinned host allocations of its own, a cost that shows in every solve
// when they are made in every solve (docs/PERFORMANCE.md, "Lookahead"). A stream belongs to the
// device that was current when it was made, and two threads that shared a pair of streams and
// their event would order each other's work: hence one pair per device and thread.
template <class ExecSpace>
class Instances<ExecSpace, true> {
  using api = Streams<ExecSpace>;
  template <class Handle>
  using Owned = OwnedHandle<ExecSpace, Handle>;
  struct Pool {
    Owned<typename api::stream> main_stream{api::make_stream(false)};
    Owned<typename api::stream> side_stream{api::make_stream(true)};
    Owned<typename api::event> event{api::make_event()};
    std::optional<ExecSpace> main{main_stream.handle}, side{side_stream.handle};
    ~Pool() {  // the instances go before their streams
      main->fence();
      side->fence();
      main.reset();
      side.reset();
    }
  };
  using Pools = std::map<std::pair<int, std::thread::id>, std::unique_ptr<Pool>>;
  static std::mutex& mutex() {
    static std::mutex m;
    return m;
  }
  static Pools*& made() {
    static Pools* pools = nullptr;
    return pools;
  }
  static Pool& pool() {
    const std::pair<int, std::thread::id> key{api::current_device(), std::this_thread::get_id()};
    const std::lock_guard<std::mutex> lock(mutex());
    if (!made()) {
      made() = new Pools;
      Kokkos::push_finalize_hook([] {
        const std::lock_guard<std::mutex> at_finalize(mutex());
        delete made();
        made() = nullptr;
      });
    }
    std::unique_ptr<Pool>& slot = (*made())[key];
    if (!slot) slot = std::make_unique<Pool>();
    return *slot;
  }

 public:
  static constexpr bool concurrent = true;
  explicit Instances(const ExecSpace& exec) : pool_((exec.fence(), pool())) {}
  Instances(const Instances&) = delete;
  Instances& operator=(const Instances&) = delete;
  ~Instances() { fence(); }

  const ExecSpace& main() const { return *pool_.main; }
  const ExecSpace& side() const { return *pool_.side; }
  // The instance named first waits for everything queued on the other one so far.
  void side_after_main() {
    api::order(pool_.main_stream.handle, pool_.event.handle, pool_.side_stream.handle);
  }
  void main_after_side() {
    api::order(pool_.side_stream.handle, pool_.event.handle, pool_.main_stream.handle);
  }
  void fence() const {
    main().fence();
    side().fence();
  }

 private:
  Pool& pool_;
};

}  // namespace detail
}  // namespace apsp
