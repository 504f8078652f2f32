#include "trace/location_builder.h"

#include <string>

namespace cw::trace {

LocationBuilder::LocationBuilder(uint64_t expected_events, uint32_t gap_region,
                                 uint32_t program_region)
    : gap_region_(gap_region), program_region_(program_region) {
  // The declared count is a hint from the file; a hostile value must not allocate unbounded
  // memory before a single event was read.
  constexpr uint64_t kMaxReserve = uint64_t{1} << 28;
  size_t reserve = static_cast<size_t>(std::min(expected_events, kMaxReserve));
  events_.time_.reserve(reserve);
  events_.kind_.reserve(reserve);
  events_.ref_.reserve(reserve);
  events_.pair_.reserve(reserve);
}

uint64_t LocationBuilder::Clamp(uint64_t time) {
  if (time < last_time_) {
    diagnostics_.Report(kTimeReversed, "event " + std::to_string(events_.size()));
    return last_time_;
  }
  last_time_ = time;
  return time;
}

uint32_t LocationBuilder::Append(uint64_t time, EventKind kind, uint32_t ref) {
  uint32_t index = events_.size();
  events_.time_.push_back(time);
  events_.kind_.push_back(kind);
  events_.ref_.push_back(ref);
  events_.pair_.push_back(EnclosingEnter());
  return index;
}

uint32_t LocationBuilder::InternCallpath(uint32_t parent, uint32_t region) {
  // Loops enter the same few children over and over; a direct-mapped cache avoids the hash map.
  CacheSlot& slot = cache_[(parent * 31u + region) & 255u];
  if (slot.parent == parent && slot.region == region) return slot.id;
  uint32_t id = tree_.Intern(parent, region);
  slot = CacheSlot{parent, region, id};
  return id;
}

void LocationBuilder::PushFrame(uint64_t time, uint32_t region, bool synthetic) {
  uint32_t parent = stack_.empty() ? kNone : stack_.back().callpath;
  uint32_t callpath = InternCallpath(parent, region);
  uint32_t index = Append(time, EventKind::kEnter, callpath);
  if (synthetic) events_.synthetic_.push_back(index);
  stack_.push_back(Frame{index, region, callpath});
}

void LocationBuilder::PopFrame(uint64_t time, bool synthetic) {
  Frame frame = stack_.back();
  stack_.pop_back();
  uint32_t index = Append(time, EventKind::kLeave, frame.callpath);
  events_.pair_[index] = frame.enter;
  events_.pair_[frame.enter] = index;
  if (synthetic) events_.synthetic_.push_back(index);
}

bool LocationBuilder::CloseDownTo(uint64_t time, uint32_t region) {
  size_t depth = stack_.size();
  while (depth > 0 && stack_[depth - 1].region != region) --depth;
  if (depth == 0) return false;
  while (stack_.size() >= depth) PopFrame(time, /*synthetic=*/true);
  return true;
}

void LocationBuilder::Enter(uint64_t time, uint32_t region) {
  ++recorded_;
  PushFrame(Clamp(time), region, /*synthetic=*/false);
}

void LocationBuilder::Leave(uint64_t time, uint32_t region) {
  ++recorded_;
  time = Clamp(time);
  size_t depth = stack_.size();
  while (depth > 0 && stack_[depth - 1].region != region) --depth;
  if (depth == 0) {
    // Keep the record: pair it with a synthetic zero-length Enter so that nesting stays intact.
    diagnostics_.Report(kUnmatchedLeave, "event " + std::to_string(recorded_ - 1));
    PushFrame(time, region, /*synthetic=*/true);
    PopFrame(time, /*synthetic=*/false);
    return;
  }
  if (depth != stack_.size()) {
    diagnostics_.Report(kMisnestedLeave, "event " + std::to_string(recorded_ - 1));
    while (stack_.size() > depth) {
      if (stack_.back().region == gap_region_) measurement_off_ = false;
      PopFrame(time, /*synthetic=*/true);
    }
  }
  PopFrame(time, /*synthetic=*/false);
}

void LocationBuilder::MeasurementOnOff(uint64_t time, bool on) {
  time = Clamp(time);
  if (on && measurement_off_) {
    // Close the gap and anything a malformed trace opened inside it.
    CloseDownTo(time, gap_region_);
    measurement_off_ = false;
  }
  ++recorded_;
  GenericPayload payload;
  payload.c = on ? kMeasurementOn : kMeasurementOff;
  Append(time, EventKind::kMeasurementOnOff, static_cast<uint32_t>(events_.generic_.size()));
  events_.generic_.push_back(payload);
  if (!on && !measurement_off_ && gap_region_ != kNone) {
    diagnostics_.Report(kMeasurementGap, "event " + std::to_string(recorded_ - 1));
    PushFrame(time, gap_region_, /*synthetic=*/true);
    measurement_off_ = true;
  }
}

void LocationBuilder::P2p(uint64_t time, EventKind kind, const P2pPayload& payload) {
  ++recorded_;
  Append(Clamp(time), kind, static_cast<uint32_t>(events_.p2p_.size()));
  events_.p2p_.push_back(payload);
}

void LocationBuilder::Request(uint64_t time, EventKind kind, uint64_t request) {
  ++recorded_;
  Append(Clamp(time), kind, static_cast<uint32_t>(events_.request_ids_.size()));
  events_.request_ids_.push_back(request);
}

void LocationBuilder::Collective(uint64_t time, EventKind kind, const CollectivePayload& payload) {
  ++recorded_;
  Append(Clamp(time), kind, static_cast<uint32_t>(events_.collective_.size()));
  events_.collective_.push_back(payload);
}

void LocationBuilder::Rma(uint64_t time, EventKind kind, const RmaPayload& payload) {
  ++recorded_;
  Append(Clamp(time), kind, static_cast<uint32_t>(events_.rma_.size()));
  events_.rma_.push_back(payload);
}

void LocationBuilder::Thread(uint64_t time, EventKind kind, const ThreadPayload& payload) {
  ++recorded_;
  Append(Clamp(time), kind, static_cast<uint32_t>(events_.thread_.size()));
  events_.thread_.push_back(payload);
}

void LocationBuilder::Metric(uint64_t time, uint32_t metric, const uint8_t* types,
                             const uint64_t* values, uint32_t count) {
  ++recorded_;
  Append(Clamp(time), EventKind::kMetric, static_cast<uint32_t>(events_.metric_.size()));
  events_.metric_.push_back(
      MetricPayload{metric, static_cast<uint32_t>(events_.metric_values_.size()), count});
  events_.metric_values_.insert(events_.metric_values_.end(), values, values + count);
  events_.metric_types_.insert(events_.metric_types_.end(), types, types + count);
}

void LocationBuilder::ProgramBegin(uint64_t time, uint32_t name, const uint32_t* args,
                                   uint32_t count) {
  ++recorded_;
  Append(Clamp(time), EventKind::kProgramBegin, static_cast<uint32_t>(events_.program_.size()));
  events_.program_.push_back(
      ProgramPayload{name, static_cast<uint32_t>(events_.program_args_.size()), count});
  events_.program_args_.insert(events_.program_args_.end(), args, args + count);
  if (program_name_ == kNone) program_name_ = name;
  if (program_region_ != kNone) PushFrame(last_time_, program_region_, /*synthetic=*/true);
}

void LocationBuilder::ProgramEnd(uint64_t time, int64_t exit_status) {
  time = Clamp(time);
  if (program_region_ != kNone) CloseDownTo(time, program_region_);
  ++recorded_;
  Append(time, EventKind::kProgramEnd, static_cast<uint32_t>(events_.generic_.size()));
  events_.generic_.push_back(GenericPayload{static_cast<uint64_t>(exit_status), 0, kNone, 0});
}

void LocationBuilder::Generic(uint64_t time, EventKind kind, const GenericPayload& payload) {
  ++recorded_;
  Append(Clamp(time), kind, static_cast<uint32_t>(events_.generic_.size()));
  events_.generic_.push_back(payload);
}

void LocationBuilder::NoPayload(uint64_t time, EventKind kind) {
  ++recorded_;
  Append(Clamp(time), kind, kNone);
}

void LocationBuilder::AddAttribute(uint32_t attribute, uint8_t type, uint64_t value) {
  if (events_.empty()) return;
  events_.attributes_.push_back(EventAttribute{events_.size() - 1, attribute, type, value});
}

LocationEvents LocationBuilder::Finish() {
  if (!stack_.empty()) {
    // A trailing measurement-off gap is expected (Score-P switches off before the end); any other
    // open region is a truncated or unbalanced trace.
    bool only_gap = stack_.size() == 1 && stack_.back().region == gap_region_;
    if (!only_gap) {
      diagnostics_.Report(kOpenAtEnd, std::to_string(stack_.size()) + " region(s) open",
                          stack_.size() - (measurement_off_ ? 1 : 0));
    }
    while (!stack_.empty()) PopFrame(last_time_, /*synthetic=*/true);
  }
  return std::move(events_);
}

void LocationBuilder::RemapCallpaths(LocationEvents& events,
                                     const std::vector<uint32_t>& local_to_global) {
  const size_t n = events.size();
  for (size_t i = 0; i < n; ++i) {
    EventKind k = events.kind_[i];
    if (k == EventKind::kEnter || k == EventKind::kLeave) {
      events.ref_[i] = local_to_global[events.ref_[i]];
    }
  }
}

}  // namespace cw::trace
