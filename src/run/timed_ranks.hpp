// Ranks that count the seconds spent in their collectives (the setup's profile, pipeline.cpp):
// the time a rank waits there for the others, or moves data among them, apart from its own work.
// Every collective of Ranks (ranks.hpp) is forwarded here, and so are the groups it makes
// (split, sharing_device), counted into the same total: a collective added to Ranks must be
// forwarded here too, or the pipeline would run its default in place of the MPI one.
#pragma once

#include <apsp/detail/measure.hpp>
#include <apsp/ranks.hpp>

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace apsp {
namespace detail {

class TimedRanks final : public Ranks {
 public:
  // `seconds`: the running total, shared with the groups this one makes; it outlives them all.
  TimedRanks(Ranks& ranks, double& seconds) : ranks_(ranks), seconds_(seconds) {}
  TimedRanks(std::unique_ptr<Ranks> owned, double& seconds)
      : owned_(std::move(owned)), ranks_(*owned_), seconds_(seconds) {}

  int rank() const override { return ranks_.rank(); }
  int size() const override { return ranks_.size(); }
  void broadcast(void* data, std::uint64_t bytes, int root) override {
    timed([&] { ranks_.broadcast(data, bytes, root); });
  }
  void min(std::int64_t* values, int count) override {
    timed([&] { ranks_.min(values, count); });
  }
  std::vector<char> gather(const void* data, std::uint64_t count, int unit) override {
    std::vector<char> all;
    timed([&] { all = ranks_.gather(data, count, unit); });
    return all;
  }
  std::vector<char> gather_to(const void* data, std::uint64_t count, int unit, int root) override {
    std::vector<char> all;
    timed([&] { all = ranks_.gather_to(data, count, unit, root); });
    return all;
  }
  std::vector<char> scatter(const void* data, const std::vector<std::uint64_t>& counts, int unit,
                            int root) override {
    std::vector<char> mine;
    timed([&] { mine = ranks_.scatter(data, counts, unit, root); });
    return mine;
  }
  std::unique_ptr<Ranks> split(int color) override {
    std::unique_ptr<Ranks> part;
    timed([&] { part = ranks_.split(color); });
    if (!part) return nullptr;
    return std::make_unique<TimedRanks>(std::move(part), seconds_);
  }
  std::unique_ptr<Ranks> sharing_device(int device_key) override {
    std::unique_ptr<Ranks> sharing;
    timed([&] { sharing = ranks_.sharing_device(device_key); });
    return std::make_unique<TimedRanks>(std::move(sharing), seconds_);
  }

 private:
  template <class F>
  void timed(F&& f) {
    const auto start = Clock::now();
    try {
      f();
    } catch (...) {
      seconds_ += seconds_since(start);
      throw;
    }
    seconds_ += seconds_since(start);
  }

  std::unique_ptr<Ranks> owned_;
  Ranks& ranks_;
  double& seconds_;
};

}  // namespace detail
}  // namespace apsp
