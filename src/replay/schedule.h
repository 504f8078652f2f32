// The plan of one replay pass: for every location, the steps it runs in order, and for every
// step the edges whose values it needs first.
//
// A step is one synchronisation role of a location (it waited, or it delayed another location,
// at some call); an edge is one synchronisation between two locations, along which a value
// travels from the step that produces it to the single step that consumes it. The schedule only
// records consumers: any step may produce any edge's value. Which steps exist, in which order,
// and what travels along the edges is the business of the analysis that builds the schedule.
//
//   replay::Schedule s(locations, edges);
//   s.AddStep(loc, {});                 // produces something
//   s.AddStep(other, {edge});           // runs only after `edge` got its value
//   s.Finish();
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <vector>

namespace cw::replay {

inline constexpr uint32_t kNoLocation = 0xFFFFFFFFu;

class Schedule {
 public:
  Schedule(uint32_t locations, uint32_t edges);

  // Appends the next step of `location`, which consumes the values of `inputs`. Steps of
  // different locations may be added from different threads.
  void AddStep(uint32_t location, std::span<const uint32_t> inputs);
  void AddStep(uint32_t location, std::initializer_list<uint32_t> inputs) {
    AddStep(location, std::span<const uint32_t>(inputs.begin(), inputs.size()));
  }

  uint32_t location_count() const { return static_cast<uint32_t>(steps_.size()); }
  uint32_t edge_count() const { return static_cast<uint32_t>(consumer_.size()); }
  uint32_t step_count(uint32_t location) const {
    return static_cast<uint32_t>(steps_[location].size()) - 1;
  }
  std::span<const uint32_t> inputs(uint32_t location, uint32_t step) const {
    const std::vector<uint32_t>& offsets = steps_[location];
    return std::span<const uint32_t>(inputs_[location])
        .subspan(offsets[step], offsets[step + 1] - offsets[step]);
  }
  // The location whose step consumes `edge`, or kNoLocation if no step does.
  uint32_t consumer(uint32_t edge) const { return consumer_[edge]; }

 private:
  std::vector<std::vector<uint32_t>> steps_;   // per location: input offsets, one per step + 1
  std::vector<std::vector<uint32_t>> inputs_;  // per location: the inputs of all its steps
  std::vector<uint32_t> consumer_;             // per edge
};

}  // namespace cw::replay
