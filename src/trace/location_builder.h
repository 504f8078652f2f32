// Builds the LocationEvents of one location from a stream of records in file order.
//
// The builder owns the nesting: it keeps the stack of open regions, interns call paths in a
// location-local call tree (merged into the global tree by TraceAssembler), fills the `pair`
// column, and repairs what real traces contain, counting every repair as a diagnostic:
//   - a Leave of a region that is open but not innermost closes the inner ones at its time;
//   - a Leave of a region that is not open at all gets a synthetic Enter at the same time;
//   - regions still open at the end are closed at the location's last timestamp;
//   - a timestamp earlier than its predecessor is raised to it;
//   - a measurement-off interval becomes an Enter/Leave of the "MEASUREMENT OFF" region, so
//     that its time is visible under its own call path instead of inflating the enclosing one;
//   - ProgramBegin/ProgramEnd enclose everything in an Enter/Leave of the program region (as
//     Scalasca does), so that a location's time runs from program start to program end.
// Repairs add synthetic events, listed in LocationEvents::synthetic().
// While reading it also links non-blocking requests (an Isend to the record that completed it,
// an Irecv to the record that posted it; see P2pPayload::request_link) and measures the time of
// every call path (LocationEvents::profile()), because both need the events in order and are
// cheapest while they pass by.
//
//   LocationBuilder b(expected_events, gap_region);
//   b.Enter(10, main); b.P2p(12, EventKind::kMpiSend, payload); b.Leave(20, main);
//   LocationEvents events = b.Finish();
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "base/diagnostics.h"
#include "base/flat_hash_map.h"
#include "trace/call_tree.h"
#include "trace/location_events.h"

namespace cw::trace {

inline constexpr DiagnosticKind kMisnestedLeave{
    "trace.misnested_leave", Severity::kWarning,
    "a Leave closed a region that was not the innermost open one; the inner regions were "
    "closed at the same time"};
inline constexpr DiagnosticKind kUnmatchedLeave{
    "trace.unmatched_leave", Severity::kWarning,
    "a Leave had no matching open region; it was paired with a zero-length Enter"};
inline constexpr DiagnosticKind kOpenAtEnd{
    "trace.region_open_at_end", Severity::kWarning,
    "a region was still open at the end of its location and was closed at the last event"};
inline constexpr DiagnosticKind kTimeReversed{
    "trace.time_reversed", Severity::kWarning,
    "a timestamp was earlier than the previous event of its location and was raised to it"};
inline constexpr DiagnosticKind kMeasurementGap{
    "trace.measurement_gap", Severity::kInfo,
    "measurement was switched off; the gap appears as region MEASUREMENT OFF"};
inline constexpr DiagnosticKind kUnlinkedRequest{
    "trace.unlinked_request", Severity::kWarning,
    "a request completion, test or cancellation has no earlier request with its id"};
inline constexpr DiagnosticKind kOpenRequest{
    "trace.open_request", Severity::kInfo,
    "a non-blocking request was never completed or cancelled in the trace"};

class LocationBuilder {
 public:
  // `expected_events` sizes the columns (0 if unknown); `gap_region` stands for measurement-off
  // intervals and `program_region` for the program between ProgramBegin and ProgramEnd.
  LocationBuilder(uint64_t expected_events, uint32_t gap_region, uint32_t program_region = kNone);

  // Enter and the common Leave are inline: they run for half of all events.
  void Enter(uint64_t time, uint32_t region) {
    ++recorded_;
    PushFrame(Clamp(time), region, /*synthetic=*/false);
  }
  void Leave(uint64_t time, uint32_t region) {
    if (!stack_.empty() && stack_.back().region == region) [[likely]] {
      ++recorded_;
      PopFrame(Clamp(time), /*synthetic=*/false);
    } else {
      LeaveRepairing(time, region);
    }
  }
  void MeasurementOnOff(uint64_t time, bool on);

  // The frames of Score-P's calling-context records (otf2/internal/calling_context_frames.h):
  // one record enters and leaves any number of frames, so these add Enters and Leaves without
  // counting a record read; CountRecord counts the record once. LeaveFrame closes the innermost
  // open frame of `region` (and, as repairs, any opened inside it); nothing if none is open.
  void EnterFrame(uint64_t time, uint32_t region) {
    PushFrame(Clamp(time), region, /*synthetic=*/false);
  }
  void LeaveFrame(uint64_t time, uint32_t region);
  void CountRecord() { ++recorded_; }
  // The latest timestamp added so far (0 before the first).
  uint64_t last_time() const { return last_time_; }

  // `request` is the OTF2 request id (kNoRequest for blocking records); the builder stores it.
  void P2p(uint64_t time, EventKind kind, P2pPayload payload, uint64_t request = kNoRequest);
  void Request(uint64_t time, EventKind kind, uint64_t request);
  void Collective(uint64_t time, EventKind kind, CollectivePayload payload,
                  uint64_t request = kNoRequest);
  void Rma(uint64_t time, EventKind kind, const RmaPayload& payload);
  void Thread(uint64_t time, EventKind kind, const ThreadPayload& payload);
  void Metric(uint64_t time, uint32_t metric, const uint8_t* types, const uint64_t* values,
              uint32_t count);
  void ProgramBegin(uint64_t time, uint32_t name, const uint32_t* args, uint32_t count);
  void ProgramEnd(uint64_t time, int64_t exit_status);
  void Generic(uint64_t time, EventKind kind, const GenericPayload& payload);
  void NoPayload(uint64_t time, EventKind kind);

  // Attaches an OTF2 attribute to the event added last.
  void AddAttribute(uint32_t attribute, uint8_t type, uint64_t value);

  // Closes what is still open and returns the events; the builder must not be used afterwards.
  LocationEvents Finish();

  // Reading a location in segments (a stream that never holds the whole location): a segment
  // ends without closing its open regions, and the builder of the next segment resumes them, so
  // that the repairs are the same as when the location is read whole. Enter/Leave nesting and
  // timestamps carry over, and the ids of the requests still open: request links do not cross
  // segments, but a request completed in a later segment than the one that started it is no
  // unlinked request.
  struct Continuation {
    struct Open {
      uint32_t region;
      uint64_t entered;
    };
    std::vector<Open> open;  // outermost first
    uint64_t last_time = 0;
    bool measurement_off = false;
    // Requests started in earlier segments, not yet completed: their ids and the events that
    // started them, counted over the whole location (as its diagnostics name events).
    struct Request {
      uint64_t id;
      uint64_t event;
    };
    std::vector<Request> open_requests;
    uint64_t events_before = 0;   // the location's events in the earlier segments
    uint64_t records_before = 0;  // and its records read there (recorded_events)
  };
  // Returns the events so far, leaving open regions open (they have no Leave in this segment),
  // and what the next segment's builder must resume. The builder must not be used afterwards.
  LocationEvents FinishSegment(Continuation& next);
  // Re-enters the regions still open after the previous segment as synthetic Enters at their
  // original times (events 0..open.size()-1 of this segment); call before the first record.
  void Resume(const Continuation& from);

  // Enter/Leave refs are local call-path ids until RemapCallpaths() rewrites them.
  const CallTree& local_tree() const { return tree_; }
  static void RemapCallpaths(LocationEvents& events, const std::vector<uint32_t>& local_to_global);
  // Gives every Enter and Leave the call path `callpath_of(event, its call path)` returns (called
  // in event order) and measures the call-path times again over the new ids, as the builder did:
  // a Leave that carries `calls_attribute` with N > 1 counts N visits (trace/polling.h).
  static void ReplaceCallpaths(LocationEvents& events,
                               const std::function<uint32_t(uint32_t, uint32_t)>& callpath_of,
                               uint32_t calls_attribute);

  // The last event, a Leave, ends `calls` calls (polling compaction, trace/polling.h): its call
  // path counts that many visits.
  void RepeatLastCall(uint64_t calls);

  Diagnostics& diagnostics() { return diagnostics_; }
  // The name (string id) of the first ProgramBegin, or kNone.
  uint32_t program_name() const { return program_name_; }
  uint64_t recorded_events() const { return recorded_; }

 private:
  struct Frame {
    uint32_t enter;  // event index of the Enter
    uint32_t region;
    uint32_t callpath;  // local id
    uint64_t entered;   // time of the Enter
  };
  struct LocalTime {
    uint64_t visits = 0;
    uint64_t inclusive = 0;
    int64_t exclusive = 0;  // children's time is subtracted as they close
  };
  struct CacheSlot {
    uint32_t parent = kNone - 1;
    uint32_t region = kNone;
    uint32_t id = kNone;
  };

  uint64_t Clamp(uint64_t time) {
    if (time < last_time_) [[unlikely]]
      return RaiseReversedTime();
    last_time_ = time;
    return time;
  }
  uint64_t RaiseReversedTime();
  uint32_t Append(uint64_t time, EventKind kind, uint32_t ref) {
    // The kind, ref and pair columns grow together: one capacity check serves all three.
    uint32_t index = size_;
    if (index == room_) [[unlikely]]
      GrowColumns();
    events_.time_.push_back(time);
    kind_data_[index] = kind;
    ref_data_[index] = ref;
    pair_data_[index] = EnclosingEnter();
    size_ = index + 1;
    return index;
  }
  void GrowColumns();
  void CommitColumns();
  void LeaveRepairing(uint64_t time, uint32_t region);
  // Closes the innermost open frame of `region` with a Leave at `time` and, as repairs reported
  // against record `event`, the frames opened inside it; false if no frame of `region` is open.
  bool CloseInnermost(uint64_t time, uint32_t region, uint64_t event);
  // The 32-bit form of a request id of the event about to be appended (index `event`).
  uint32_t StoreRequest(uint32_t event, uint64_t request);
  // Loops enter the same few children over and over; a direct-mapped cache avoids the hash map.
  static size_t CacheIndex(uint32_t parent, uint32_t region) {
    return (parent * 31u + region) & 255u;
  }
  uint32_t InternCallpath(uint32_t parent, uint32_t region) {
    const CacheSlot& slot = cache_[CacheIndex(parent, region)];
    if (slot.parent == parent && slot.region == region) [[likely]]
      return slot.id;
    return InternCallpathSlow(parent, region);
  }
  uint32_t InternCallpathSlow(uint32_t parent, uint32_t region);

  void PushFrame(uint64_t time, uint32_t region, bool synthetic) {
    uint32_t parent = stack_.empty() ? kNone : stack_.back().callpath;
    uint32_t callpath = InternCallpath(parent, region);
    uint32_t index = Append(time, EventKind::kEnter, callpath);
    if (synthetic) [[unlikely]]
      events_.synthetic_.push_back(index);
    stack_.push_back(Frame{index, region, callpath, time});
    ++times_[callpath].visits;
  }

  // Also measures the call path's time: children's time is subtracted from the parent as they
  // close, so exclusive time needs no second pass.
  void PopFrame(uint64_t time, bool synthetic) {
    Frame frame = stack_.back();
    stack_.pop_back();
    uint32_t index = Append(time, EventKind::kLeave, frame.callpath);
    pair_data_[index] = frame.enter;
    pair_data_[frame.enter] = index;
    if (synthetic) [[unlikely]]
      events_.synthetic_.push_back(index);
    uint64_t duration = time - frame.entered;
    LocalTime& t = times_[frame.callpath];
    t.inclusive += duration;
    t.exclusive += static_cast<int64_t>(duration);
    if (!stack_.empty()) times_[stack_.back().callpath].exclusive -= static_cast<int64_t>(duration);
  }
  // Pops (synthetically) every frame down to and including the innermost one of `region`.
  // Returns false if `region` is not open.
  bool CloseDownTo(uint64_t time, uint32_t region);
  uint32_t EnclosingEnter() const { return stack_.empty() ? kNone : stack_.back().enter; }

  void LinkRequest(uint32_t event, uint64_t request);
  // Stores the ids of Isends still open where RequestId() finds them; returns the first one's
  // event index (kNone if none).
  uint32_t KeepOpenRequestIds();

  LocationEvents events_;
  // Raw views of the kind, ref and pair columns while building (committed by Finish).
  EventKind* kind_data_ = nullptr;
  uint32_t* ref_data_ = nullptr;
  uint32_t* pair_data_ = nullptr;
  uint32_t size_ = 0;
  uint32_t room_ = 0;
  CallTree tree_;
  std::vector<LocalTime> times_;  // by local call path
  // request id -> Isend, IrecvRequest or NonBlockingCollectiveRequest event
  FlatHashMap<uint64_t, uint32_t> open_requests_;
  // Requests started in earlier segments (Continuation::open_requests): id -> starting event,
  // counted over the whole location.
  FlatHashMap<uint64_t, uint64_t> earlier_requests_;
  // Where this segment stands in the location: its events before it, and the synthetic Enters
  // of the regions it resumed (its first events, which are no events of the location).
  uint64_t events_before_ = 0;
  uint64_t records_before_ = 0;
  uint32_t resumed_ = 0;
  // Event `index` of this segment, counted over the whole location.
  uint64_t LocationIndex(uint32_t index) const {
    return events_before_ + index - std::min(index, resumed_);
  }
  // Whether `request` was started in an earlier segment; `closes`: the record ends it.
  bool StartedEarlier(uint64_t request, bool closes);
  std::array<CacheSlot, 256> cache_{};
  std::vector<Frame> stack_;
  Diagnostics diagnostics_;
  uint32_t gap_region_;
  uint32_t program_region_;
  uint32_t program_name_ = kNone;
  bool measurement_off_ = false;
  uint64_t last_time_ = 0;
  uint64_t recorded_ = 0;
};

}  // namespace cw::trace
