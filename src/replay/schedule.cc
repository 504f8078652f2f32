#include "replay/schedule.h"

#include "base/check.h"

namespace cw::replay {

Schedule::Schedule(uint32_t locations, uint32_t edges)
    : steps_(locations, std::vector<uint32_t>{0}),
      inputs_(locations),
      consumer_(edges, kNoLocation) {}

void Schedule::AddStep(uint32_t location, std::span<const uint32_t> inputs) {
  std::vector<uint32_t>& in = inputs_[location];
  for (uint32_t edge : inputs) {
    CW_CHECK(consumer_[edge] == kNoLocation);  // one consumer per edge
    consumer_[edge] = location;
    in.push_back(edge);
  }
  steps_[location].push_back(static_cast<uint32_t>(in.size()));
}

}  // namespace cw::replay
