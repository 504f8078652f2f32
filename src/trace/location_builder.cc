#include "trace/location_builder.h"

#include <algorithm>
#include <string>
#include <unordered_map>

namespace cw::trace {

LocationBuilder::LocationBuilder(uint64_t expected_events, uint32_t gap_region,
                                 uint32_t program_region)
    : gap_region_(gap_region), program_region_(program_region) {
  // The declared count is a hint from the file; a hostile value must not allocate unbounded
  // memory before a single event was read. A few slots spare the repairs a reallocation.
  constexpr uint64_t kMaxReserve = uint64_t{1} << 28;
  size_t reserve = static_cast<size_t>(std::min(expected_events, kMaxReserve)) + 16;
  events_.time_.reserve(reserve);
  events_.kind_.EnsureRoom(reserve);
  events_.ref_.EnsureRoom(reserve);
  events_.pair_.EnsureRoom(reserve);
  kind_data_ = events_.kind_.data();
  ref_data_ = events_.ref_.data();
  pair_data_ = events_.pair_.data();
  room_ = static_cast<uint32_t>(reserve);
}

void LocationBuilder::CommitColumns() {
  events_.kind_.CommitSize(size_);
  events_.ref_.CommitSize(size_);
  events_.pair_.CommitSize(size_);
}

void LocationBuilder::GrowColumns() {
  CommitColumns();
  size_t more = std::max<size_t>(1024, size_ / 2);
  events_.kind_.EnsureRoom(more);
  events_.ref_.EnsureRoom(more);
  events_.pair_.EnsureRoom(more);
  kind_data_ = events_.kind_.data();
  ref_data_ = events_.ref_.data();
  pair_data_ = events_.pair_.data();
  room_ = static_cast<uint32_t>(std::min(
      events_.kind_.capacity(), std::min(events_.ref_.capacity(), events_.pair_.capacity())));
}

uint64_t LocationBuilder::RaiseReversedTime() {
  diagnostics_.Report(kTimeReversed, "event " + std::to_string(LocationIndex(size_)));
  return last_time_;
}

uint32_t LocationBuilder::InternCallpathSlow(uint32_t parent, uint32_t region) {
  uint32_t id = tree_.Intern(parent, region);
  if (id >= times_.size()) times_.resize(id + 1);
  cache_[CacheIndex(parent, region)] = CacheSlot{parent, region, id};
  return id;
}

bool LocationBuilder::CloseDownTo(uint64_t time, uint32_t region) {
  size_t depth = stack_.size();
  while (depth > 0 && stack_[depth - 1].region != region) --depth;
  if (depth == 0) return false;
  while (stack_.size() >= depth) PopFrame(time, /*synthetic=*/true);
  return true;
}

void LocationBuilder::LeaveFrame(uint64_t time, uint32_t region) {
  CloseInnermost(Clamp(time), region, recorded_);
}

void LocationBuilder::LeaveRepairing(uint64_t time, uint32_t region) {
  ++recorded_;
  time = Clamp(time);
  if (CloseInnermost(time, region, recorded_ - 1)) return;
  // Keep the record: pair it with a synthetic zero-length Enter so that nesting stays intact.
  diagnostics_.Report(kUnmatchedLeave, "event " + std::to_string(records_before_ + recorded_ - 1));
  PushFrame(time, region, /*synthetic=*/true);
  PopFrame(time, /*synthetic=*/false);
}

bool LocationBuilder::CloseInnermost(uint64_t time, uint32_t region, uint64_t event) {
  size_t depth = stack_.size();
  while (depth > 0 && stack_[depth - 1].region != region) --depth;
  if (depth == 0) return false;
  if (depth < stack_.size()) {
    diagnostics_.Report(kMisnestedLeave, "event " + std::to_string(records_before_ + event));
  }
  while (stack_.size() > depth) {
    if (stack_.back().region == gap_region_) measurement_off_ = false;
    PopFrame(time, /*synthetic=*/true);
  }
  PopFrame(time, /*synthetic=*/false);
  return true;
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
  Append(time, EventKind::kMeasurementOnOff, events_.generic_.push_back(payload));
  if (!on && !measurement_off_ && gap_region_ != kNone) {
    diagnostics_.Report(kMeasurementGap,
                        "event " + std::to_string(records_before_ + recorded_ - 1));
    PushFrame(time, gap_region_, /*synthetic=*/true);
    measurement_off_ = true;
  }
}

uint32_t LocationBuilder::StoreRequest(uint32_t event, uint64_t request) {
  if (request == kNoRequest) return kNoRequest32;
  if (request < kWideRequest32) return static_cast<uint32_t>(request);
  events_.wide_requests_.emplace(event, request);
  return kWideRequest32;
}

void LocationBuilder::P2p(uint64_t time, EventKind kind, P2pPayload payload, uint64_t request) {
  ++recorded_;
  uint32_t index = size_;
  payload.request_link = kNone;
  if (kind == EventKind::kMpiIsend) {
    open_requests_.Insert(request, index);
  } else if (kind == EventKind::kMpiIrecv) {
    if (uint32_t* posted = open_requests_.Find(request)) {
      payload.request_link = *posted;
      open_requests_.Erase(request);
    } else {
      events_.wide_requests_.emplace(index, request);  // no linked record to hold the id
      if (!StartedEarlier(request, /*closes=*/true))
        diagnostics_.Report(kUnlinkedRequest, "event " + std::to_string(LocationIndex(index)));
    }
  }
  Append(Clamp(time), kind, events_.p2p_.push_back(payload));
}

void LocationBuilder::Request(uint64_t time, EventKind kind, uint64_t request) {
  ++recorded_;
  uint32_t index = size_;
  uint32_t stored = StoreRequest(index, request);
  Append(Clamp(time), kind, stored);
  LinkRequest(index, request);
}

// Links request records by id: an Isend to the record that completes or cancels it, an Irecv
// (in P2p) to the IrecvRequest that posted it. A non-blocking collective's request stays open
// until its completion record (in Collective), so that the tests of it in between link too.
void LocationBuilder::LinkRequest(uint32_t event, uint64_t request) {
  EventKind kind = kind_data_[event];
  if (kind == EventKind::kMpiIrecvRequest || kind == EventKind::kNonBlockingCollectiveRequest) {
    open_requests_.Insert(request, event);
    return;
  }
  uint32_t* start = open_requests_.Find(request);
  if (start == nullptr) {
    if (!StartedEarlier(request, /*closes=*/kind != EventKind::kMpiRequestTest))
      diagnostics_.Report(kUnlinkedRequest, "event " + std::to_string(LocationIndex(event)));
    return;
  }
  if (kind == EventKind::kMpiRequestTest) return;  // still open
  if (kind_data_[*start] == EventKind::kMpiIsend) {
    events_.p2p_[ref_data_[*start]].request_link = event;
  }
  // A completed Isend or a cancelled request of either kind is closed; a cancelled IrecvRequest
  // has no Irecv record to link.
  open_requests_.Erase(request);
}

void LocationBuilder::Collective(uint64_t time, EventKind kind, CollectivePayload payload,
                                 uint64_t request) {
  ++recorded_;
  const uint32_t index = size_;
  payload.request = StoreRequest(index, request);
  Append(Clamp(time), kind, events_.collective_.push_back(payload));
  if (kind != EventKind::kNonBlockingCollectiveComplete) return;
  if (open_requests_.Find(request) != nullptr) {
    open_requests_.Erase(request);
  } else if (!StartedEarlier(request, /*closes=*/true)) {
    diagnostics_.Report(kUnlinkedRequest, "event " + std::to_string(LocationIndex(index)));
  }
}

void LocationBuilder::Rma(uint64_t time, EventKind kind, const RmaPayload& payload) {
  ++recorded_;
  Append(Clamp(time), kind, events_.rma_.push_back(payload));
}

void LocationBuilder::Thread(uint64_t time, EventKind kind, const ThreadPayload& payload) {
  ++recorded_;
  Append(Clamp(time), kind, events_.thread_.push_back(payload));
}

void LocationBuilder::Metric(uint64_t time, uint32_t metric, const uint8_t* types,
                             const uint64_t* values, uint32_t count) {
  ++recorded_;
  Append(Clamp(time), EventKind::kMetric,
         events_.metric_.push_back(
             MetricPayload{metric, static_cast<uint32_t>(events_.metric_values_.size()), count}));
  events_.metric_values_.insert(events_.metric_values_.end(), values, values + count);
  events_.metric_types_.insert(events_.metric_types_.end(), types, types + count);
}

void LocationBuilder::ProgramBegin(uint64_t time, uint32_t name, const uint32_t* args,
                                   uint32_t count) {
  ++recorded_;
  Append(Clamp(time), EventKind::kProgramBegin,
         events_.program_.push_back(
             ProgramPayload{name, static_cast<uint32_t>(events_.program_args_.size()), count}));
  events_.program_args_.insert(events_.program_args_.end(), args, args + count);
  if (program_name_ == kNone) program_name_ = name;
  if (program_region_ != kNone) PushFrame(last_time_, program_region_, /*synthetic=*/true);
}

void LocationBuilder::ProgramEnd(uint64_t time, int64_t exit_status) {
  time = Clamp(time);
  if (program_region_ != kNone) CloseDownTo(time, program_region_);
  ++recorded_;
  Append(
      time, EventKind::kProgramEnd,
      events_.generic_.push_back(GenericPayload{static_cast<uint64_t>(exit_status), 0, kNone, 0}));
}

void LocationBuilder::Generic(uint64_t time, EventKind kind, const GenericPayload& payload) {
  ++recorded_;
  Append(Clamp(time), kind, events_.generic_.push_back(payload));
}

void LocationBuilder::NoPayload(uint64_t time, EventKind kind) {
  ++recorded_;
  Append(Clamp(time), kind, kNone);
}

void LocationBuilder::AddAttribute(uint32_t attribute, uint8_t type, uint64_t value) {
  if (size_ == 0) return;
  events_.attributes_.push_back(EventAttribute{size_ - 1, attribute, type, value});
}

void LocationBuilder::RepeatLastCall(uint64_t calls) {
  if (size_ == 0 || calls < 2 || kind_data_[size_ - 1] != EventKind::kLeave) return;
  const uint32_t callpath = ref_data_[size_ - 1];
  if (callpath < times_.size()) times_[callpath].visits += calls - 1;
}

bool LocationBuilder::StartedEarlier(uint64_t request, bool closes) {
  if (earlier_requests_.Find(request) == nullptr) return false;
  if (closes) earlier_requests_.Erase(request);
  return true;
}

LocationEvents LocationBuilder::Finish() {
  if (!open_requests_.empty() || !earlier_requests_.empty()) {
    // The first request left open, as reading the location whole names it.
    uint64_t first = open_requests_.empty() ? UINT64_MAX : LocationIndex(KeepOpenRequestIds());
    earlier_requests_.ForEach([&](uint64_t, uint64_t event) { first = std::min(first, event); });
    diagnostics_.Report(kOpenRequest, "event " + std::to_string(first),
                        open_requests_.size() + earlier_requests_.size());
  }
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
  events_.profile_.reserve(times_.size());
  for (uint32_t cp = 0; cp < times_.size(); ++cp) {
    const LocalTime& t = times_[cp];
    events_.profile_.push_back(LocationEvents::CallpathTime{cp, t.visits, t.inclusive,
                                                            static_cast<uint64_t>(t.exclusive)});
  }
  CommitColumns();
  return std::move(events_);
}

uint32_t LocationBuilder::KeepOpenRequestIds() {
  uint32_t first = kNone;
  open_requests_.ForEach([&](uint64_t request, uint32_t event) {
    first = std::min(first, event);
    // An Isend not completed (yet) has no linked record to hold its id.
    if (kind_data_[event] == EventKind::kMpiIsend) events_.wide_requests_.emplace(event, request);
  });
  return first;
}

LocationEvents LocationBuilder::FinishSegment(Continuation& next) {
  KeepOpenRequestIds();
  next.open_requests.clear();
  earlier_requests_.ForEach([&](uint64_t request, uint64_t event) {
    next.open_requests.push_back({request, event});
  });
  open_requests_.ForEach([&](uint64_t request, uint32_t event) {
    next.open_requests.push_back({request, LocationIndex(event)});
  });
  next.events_before = LocationIndex(size_);
  next.records_before = records_before_ + recorded_;
  next.open.clear();
  for (const Frame& frame : stack_) next.open.push_back({frame.region, frame.entered});
  next.last_time = last_time_;
  next.measurement_off = measurement_off_;
  CommitColumns();
  return std::move(events_);
}

void LocationBuilder::Resume(const Continuation& from) {
  for (const Continuation::Open& open : from.open) {
    PushFrame(open.entered, open.region, /*synthetic=*/true);
  }
  last_time_ = from.last_time;
  measurement_off_ = from.measurement_off;
  for (const Continuation::Request& request : from.open_requests) {
    earlier_requests_.Insert(request.id, request.event);
  }
  events_before_ = from.events_before;
  records_before_ = from.records_before;
  resumed_ = static_cast<uint32_t>(from.open.size());
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
  for (LocationEvents::CallpathTime& t : events.profile_) t.callpath = local_to_global[t.callpath];
  std::sort(events.profile_.begin(), events.profile_.end(),
            [](const auto& a, const auto& b) { return a.callpath < b.callpath; });
  // Two local call paths may meet in one global one (a worker's team grafted at its fork and
  // one hung where the master first entered the region, trace/thread_teams.h).
  std::vector<LocationEvents::CallpathTime>& profile = events.profile_;
  size_t kept = 0;
  for (size_t k = 0; k < profile.size(); ++k) {
    if (kept > 0 && profile[kept - 1].callpath == profile[k].callpath) {
      profile[kept - 1].visits += profile[k].visits;
      profile[kept - 1].inclusive += profile[k].inclusive;
      profile[kept - 1].exclusive += profile[k].exclusive;
    } else {
      profile[kept++] = profile[k];
    }
  }
  profile.resize(kept);
}

void LocationBuilder::ReplaceCallpaths(
    LocationEvents& events, const std::function<uint32_t(uint32_t, uint32_t)>& callpath_of,
    uint32_t calls_attribute) {
  std::unordered_map<uint32_t, uint64_t> folded;  // Leave -> the calls it stands for
  for (const EventAttribute& a : events.attributes_) {
    if (a.attribute == calls_attribute && a.value > 1) folded[a.event] = a.value;
  }
  std::vector<LocalTime> times;
  std::vector<uint32_t> open;  // call paths of the open regions
  for (uint32_t i = 0; i < events.size(); ++i) {
    const EventKind kind = events.kind_[i];
    if (kind != EventKind::kEnter && kind != EventKind::kLeave) continue;
    const uint32_t callpath = callpath_of(i, events.ref_[i]);
    events.ref_[i] = callpath;
    if (callpath >= times.size()) times.resize(callpath + 1);
    if (kind == EventKind::kEnter) {
      open.push_back(callpath);
      ++times[callpath].visits;
      continue;
    }
    if (open.empty()) continue;
    open.pop_back();
    if (auto it = folded.find(i); it != folded.end()) times[callpath].visits += it->second - 1;
    const uint64_t duration = events.time_[i] - events.time_[events.pair_[i]];
    times[callpath].inclusive += duration;
    times[callpath].exclusive += static_cast<int64_t>(duration);
    if (!open.empty()) times[open.back()].exclusive -= static_cast<int64_t>(duration);
  }
  events.profile_.clear();
  for (uint32_t cp = 0; cp < times.size(); ++cp) {
    const LocalTime& t = times[cp];
    if (t.visits == 0 && t.inclusive == 0) continue;
    events.profile_.push_back(LocationEvents::CallpathTime{
        cp, t.visits, t.inclusive, static_cast<uint64_t>(std::max<int64_t>(t.exclusive, 0))});
  }
}

}  // namespace cw::trace
