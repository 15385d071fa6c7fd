// A thread that owns Kokkos, for a program that embeds it and calls from threads of its own (the
// Python module, src/python): Kokkos is initialized there, every job runs there, one at a time,
// and it is finalized there. So calls from any thread of the host program work (Kokkos 3.4's
// OpenMP backend runs only from the thread that initialized it, and is not re-entrant), and the
// host program's fork (Python's os.fork, multiprocessing) finds no half-done job.
#pragma once

#include "platform/backends.hpp"

#include <Kokkos_Core.hpp>

#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>

namespace apsp {
namespace detail {

// Whether a forked child can take over the Kokkos its parent started: on Serial and OpenMP
// everything Kokkos keeps is memory, which the child has a copy of (OpenMP's threads are the
// runtime's, started anew for the child's worker thread). A device context does not survive fork.
template <class Space>
inline constexpr bool survives_fork = false;
#ifdef KOKKOS_ENABLE_SERIAL
template <>
inline constexpr bool survives_fork<Kokkos::Serial> = true;
#endif
#ifdef KOKKOS_ENABLE_OPENMP
template <>
inline constexpr bool survives_fork<Kokkos::OpenMP> = true;
#endif

}  // namespace detail

// The thread that owns Kokkos: run(f) runs f there and waits for it (f's exceptions come back).
//
// Fork (os.fork, multiprocessing's default start method on Linux) copies only the thread that
// forks. So before a fork the forking thread waits until the worker is idle and holds the queue's
// lock through the fork (os.register_at_fork, at import): the child inherits no half-done job,
// and OpenMP's threads parked. The child starts no thread at fork time (it may be about to exec);
// its first call starts a worker of its own, which takes over the inherited Kokkos where the
// backend allows it (survives_fork) and otherwise fails naming the 'spawn' start method. At exit a
// child leaves Kokkos to the process that started it, so a child that never called waits for
// nothing.
class KokkosThread {
 public:
  KokkosThread() {
    thread_ = std::thread([this] { loop(); });
    // No warnings on import (Kokkos 3.4's OpenMP one about OMP_PROC_BIND goes to stdout): the
    // command-line form of the option, which every Kokkos from 3.4 to 5.x reads.
    try {
      run([] {
        char name[] = "apsp", quiet[] = "--kokkos-disable-warnings";
        char* argv[] = {name, quiet, nullptr};
        int argc = 2;
        Kokkos::initialize(argc, argv);
      });
    } catch (const std::exception& e) {
      // Kokkos could not start (a CUDA build on a machine without a GPU): end the thread before
      // the members it waits on go, and let the import fail with the reason, in one line.
      end_thread();
      throw std::runtime_error("apsp: " + kokkos_start_failure(e));
    }
  }
  void run(const std::function<void()>& f) {
    std::future<void> done;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopped_) throw std::runtime_error("apsp: Kokkos has been finalized (interpreter exit)");
      if (!thread_.joinable()) start_in_child();
      std::function<void()> job = f;
      if (forked_)
        job = [&f] {
          take_over_kokkos();
          f();
        };
      std::packaged_task<void()> task(std::move(job));
      done = task.get_future();
      jobs_.push_back(std::move(task));
    }
    ready_.notify_one();
    done.get();
  }
  // Finalizes Kokkos and ends the thread; later calls fail with an error. A forked child only
  // ends its own worker, if it started one.
  void stop() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopped_) return;
      if (!thread_.joinable()) {
        stopped_ = true;
        return;
      }
    }
    if (!forked_)
      run([] {
        if (Kokkos::is_initialized()) Kokkos::finalize();
      });
    end_thread();
  }

  // os.register_at_fork's three hooks. They keep the GIL (no job takes it, and two threads that
  // fork at once then wait here in turn).
  void before_fork() {
    std::unique_lock<std::mutex> lock(mutex_);
    idle_.wait(lock, [this] { return !busy_ && jobs_.empty(); });
    lock.release();  // held through the fork, unlocked by after_fork_*
  }
  void after_fork_in_parent() { mutex_.unlock(); }
  // The child has none of the parent's threads: its members start afresh (the old ones are
  // abandoned, not destroyed: a joinable std::thread's destructor terminates, and the lock, the
  // condition variables and the queue may record threads that the child does not have).
  void after_fork_in_child() {
    new (&thread_) std::thread();
    new (&mutex_) std::mutex();
    new (&ready_) std::condition_variable();
    new (&idle_) std::condition_variable();
    new (&jobs_) std::deque<std::packaged_task<void()>>();
    busy_ = false;
    forked_ = true;
  }

 private:
  // A forked child's first call (mutex_ held): a worker of its own.
  void start_in_child() {
    if (!detail::survives_fork<Kokkos::DefaultExecutionSpace> ||
        !detail::survives_fork<Kokkos::DefaultHostExecutionSpace>)
      throw std::runtime_error(
          std::string("apsp: this process is a fork of one that had started Kokkos on ") +
          Kokkos::DefaultExecutionSpace::name() +
          ", which does not survive fork: start worker processes with multiprocessing's 'spawn' "
          "start method (multiprocessing.get_context('spawn')), or import apsp only in them");
    thread_ = std::thread([this] { loop(); });
  }
  // On a forked child's worker, before each job: the inherited Kokkos made usable there. Kokkos
  // 3's OpenMP backend keeps its instance in a thread_local of the thread that initialized it, so
  // the child's worker makes its own (once; the rest of Kokkos is inherited, and OpenMP gives the
  // new thread a new pool of threads). Kokkos 4 and later keep one instance for the process.
  static void take_over_kokkos() {
#if defined(KOKKOS_ENABLE_OPENMP) && KOKKOS_VERSION < 40000
    if (!Kokkos::OpenMP::impl_is_initialized())
      Kokkos::OpenMP::impl_initialize(Kokkos::OpenMP::concurrency());
#endif
  }

  void end_thread() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopped_ = true;
    }
    ready_.notify_one();
    thread_.join();
  }

  void loop() {
    for (;;) {
      std::packaged_task<void()> task;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        ready_.wait(lock, [this] { return stopped_ || !jobs_.empty(); });
        if (jobs_.empty()) return;
        task = std::move(jobs_.front());
        jobs_.pop_front();
        busy_ = true;
      }
      task();
      {
        std::lock_guard<std::mutex> lock(mutex_);
        busy_ = false;
      }
      idle_.notify_all();
    }
  }

  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable ready_, idle_;
  std::deque<std::packaged_task<void()>> jobs_;
  bool busy_ = false;     // a job is running
  bool stopped_ = false;  // after exit: no more jobs
  bool forked_ = false;   // a forked child: Kokkos is the parent's
};

// The process's one KokkosThread, started at the first call (Kokkos initialized then); stopped by
// the host program at its exit (stop()), never destroyed.
inline KokkosThread& kokkos_thread() {
  static KokkosThread* t = new KokkosThread;
  return *t;
}

}  // namespace apsp
