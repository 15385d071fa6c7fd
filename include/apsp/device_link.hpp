// A link between the devices of a group of ranks: device buffers travel device to device (NCCL,
// CUDA/HIP IPC: the application's src/platform/device_links.cpp) instead of through host memory
// and Ranks::broadcast. The row-block rounds (detail/row_block_rounds.hpp) take one from their
// caller (RoundHooks::device_link) for each round's pivot rows; without one, or on a host backend,
// the rows go through host memory.
#pragma once

#include <apsp/ranks.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace apsp {

class DeviceLink {
 public:
  virtual ~DeviceLink() = default;

  // What the stats call it: "nccl", "ipc".
  virtual std::string name() const = 0;

  // Receive buffer `slot` on this rank's device. The link allocates its buffers itself: CUDA/HIP
  // IPC maps only plain allocations, never memory of a pool.
  virtual void* buffer(int slot) = 0;

  // Collective over the group, every rank in the same order: `bytes` at `from` (device memory of
  // the root; ignored elsewhere) into buffer(slot) of every other rank. Queued on `stream`, a
  // native stream of this rank's device (cudaStream_t, hipStream_t): on every rank the transfer
  // starts after the work queued on `stream` so far, and work queued on it later sees it done.
  // Destroying a link (on every rank alike) ends what it still has queued.
  virtual void broadcast(const void* from, std::uint64_t bytes, int slot, int root,
                         void* stream) = 0;
};

// Makes a link among `holders` (collective on them) with `slots` receive buffers of `bytes`; may
// return null (the rows then go through host memory).
using DeviceLinkMaker =
    std::function<std::unique_ptr<DeviceLink>(Ranks& holders, std::uint64_t bytes, int slots)>;

}  // namespace apsp
