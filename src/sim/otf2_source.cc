#include "sim/otf2_source.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "otf2/anchor.h"
#include "otf2/location_stream.h"
#include "otf2/trace_reader.h"
#include "sim/internal/translate.h"
#include "trace/thread_teams.h"

namespace cw::sim {

// One location's events, segment by segment.
class Otf2Source final : public EventSource {
 public:
  Otf2Source(StreamedTrace& owner, uint32_t location) : owner_(owner), location_(location) {
    Result<std::unique_ptr<otf2::LocationStream>> stream =
        otf2::LocationStream::Open(owner.anchor_, owner.defs_, owner.regions_, location);
    if (stream) {
      stream_ = std::move(*stream);
    } else {
      open_error_ = stream.error();
    }
  }

  size_t Read(std::vector<SimEvent>& out, size_t max) override {
    size_t count = 0;
    while (count < max) {
      if (next_ >= segment_.events.size()) {
        if (!NextSegment()) break;
        continue;
      }
      SimEvent e = internal::TranslateEvent(owner_.defs_, segment_.events, next_, location_);
      if (e.callpath != kNone) {
        e.region = segment_.local_tree.region(e.callpath);
        e.callpath = GlobalCallpath(e);
      }
      out.push_back(e);
      ++next_;
      ++count;
    }
    return count;
  }

  std::optional<Error> error() const override {
    if (open_error_) return open_error_;
    return stream_ ? stream_->error() : std::nullopt;
  }

  Diagnostics diagnostics() const override {
    return stream_ ? stream_->diagnostics() : Diagnostics{};
  }

 private:
  bool NextSegment() {
    if (!stream_ || stream_->done()) return false;
    segment_ = stream_->Next(owner_.segment_records);
    if (owner_.program_name_.empty() && stream_->program_name() != trace::kNone) {
      owner_.program_name_ = otf2::ProgramDisplayName(owner_.defs_.str(stream_->program_name()));
    }
    // Local ids number parents before children, so one pass maps every path.
    const trace::CallTree& local = segment_.local_tree;
    to_global_.resize(local.size());
    for (uint32_t id = 0; id < local.size(); ++id) {
      const uint32_t parent = local.parent(id);
      const uint32_t global_parent = parent == trace::kNone
                                         ? owner_.ThreadRootParent(location_, local.region(id))
                                         : to_global_[parent];
      to_global_[id] = owner_.tree_.Intern(global_parent, local.region(id));
    }
    next_ = segment_.resumed;  // re-opened regions were handed out with an earlier segment
    grafted_.clear();
    return !segment_.events.empty();
  }

  // The global call path of an Enter's or Leave's local one. Each team a worker thread runs
  // hangs below its master's call path at the fork that started it (trace/thread_teams.h);
  // without one, where the master first entered the region (to_global_).
  uint32_t GlobalCallpath(const SimEvent& e) {
    const trace::CallTree& local = segment_.local_tree;
    if (e.kind == trace::EventKind::kEnter) {
      if (depth_++ == 0) team_parent_ = owner_.TeamParent(location_, e.region, e.time);
    } else if (e.kind == trace::EventKind::kLeave && depth_ > 0) {
      --depth_;
    }
    if (team_parent_ == kNone) return to_global_[e.callpath];
    std::vector<uint32_t> path;  // local ids not yet known below this team's parent
    uint32_t id = e.callpath;
    const uint64_t team = uint64_t{team_parent_} << 32;
    while (id != kNone && grafted_.count(team | id) == 0) {
      path.push_back(id);
      id = local.parent(id);
    }
    uint32_t global = id == kNone ? team_parent_ : grafted_[team | id];
    for (auto p = path.rbegin(); p != path.rend(); ++p) {
      global = owner_.tree_.Intern(global, local.region(*p));
      grafted_[team | *p] = global;
    }
    return global;
  }

  StreamedTrace& owner_;
  uint32_t location_;
  std::unique_ptr<otf2::LocationStream> stream_;
  std::optional<Error> open_error_;
  otf2::LocationStream::Segment segment_;
  std::vector<uint32_t> to_global_;
  uint32_t next_ = 0;
  uint32_t depth_ = 0;            // regions open
  uint32_t team_parent_ = kNone;  // the global call path the current team hangs below
  std::unordered_map<uint64_t, uint32_t> grafted_;  // (team parent, local id) -> global id
};

Result<std::unique_ptr<StreamedTrace>> StreamedTrace::Open(const std::string& path) {
  auto streamed = std::make_unique<StreamedTrace>();
  CW_ASSIGN_OR_RETURN(streamed->anchor_, otf2::ResolveAnchor(path));
  CW_ASSIGN_OR_RETURN(streamed->defs_,
                      otf2::ReadDefinitions(streamed->anchor_, streamed->definition_problems_));
  streamed->regions_ = otf2::AddReaderRegions(streamed->defs_);
  streamed->masters_ = trace::MastersOfThreads(streamed->defs_);
  return streamed;
}

StreamedTrace::MasterScan* StreamedTrace::ScanOfMaster(uint32_t location, uint32_t region) {
  if (location >= masters_.size() || masters_[location] == trace::kNone ||
      masters_[location] >= location || !trace::IsOmpParallelRegion(defs_, region)) {
    return nullptr;
  }
  MasterScan& scan = master_scans_[masters_[location]];
  if (!scan.stream && !scan.done) {
    Result<std::unique_ptr<otf2::LocationStream>> stream =
        otf2::LocationStream::Open(anchor_, defs_, regions_, masters_[location]);
    if (stream) {
      scan.stream = std::move(*stream);
    } else {
      scan.done = true;  // its own source reports the error
    }
  }
  return &scan;
}

uint32_t StreamedTrace::InternPath(const trace::CallTree& local, uint32_t id) {
  std::vector<uint32_t> path;  // the regions from `id` up, innermost first
  for (uint32_t p = id; p != trace::kNone; p = local.parent(p)) path.push_back(local.region(p));
  uint32_t global = trace::kNone;
  for (auto r = path.rbegin(); r != path.rend(); ++r) global = tree_.Intern(global, *r);
  return global;
}

// One more segment of the master's records: its forks with the call path open at each, and each
// parallel region's first Enter below another region.
void StreamedTrace::ScanMasterSegment(MasterScan& scan) {
  if (scan.done || scan.stream->done()) {
    scan.done = true;
    return;
  }
  const otf2::LocationStream::Segment segment = scan.stream->Next(segment_records);
  const trace::CallTree& local = segment.local_tree;
  std::vector<uint32_t> open;  // the segment begins by re-entering the regions still open
  for (uint32_t i = 0; i < segment.events.size(); ++i) {
    const trace::EventKind kind = segment.events.kind(i);
    if (kind == trace::EventKind::kThreadFork || kind == trace::EventKind::kOmpFork) {
      scan.forks.push_back(
          {segment.events.time(i), open.empty() ? trace::kNone : InternPath(local, open.back())});
    } else if (kind == trace::EventKind::kLeave) {
      if (!open.empty()) open.pop_back();
    } else if (kind == trace::EventKind::kEnter) {
      const uint32_t entered = segment.events.ref(i);
      open.push_back(entered);
      const uint32_t parent = local.parent(entered);
      if (i < segment.resumed || parent == trace::kNone ||
          !trace::IsOmpParallelRegion(defs_, local.region(entered)) ||
          scan.first_entered.count(local.region(entered)) != 0) {
        continue;
      }
      scan.first_entered[local.region(entered)] = InternPath(local, parent);
    }
  }
}

uint32_t StreamedTrace::ThreadRootParent(uint32_t location, uint32_t region) {
  MasterScan* scan = ScanOfMaster(location, region);
  if (scan == nullptr) return trace::kNone;
  while (scan->first_entered.count(region) == 0 && !scan->done) ScanMasterSegment(*scan);
  auto found = scan->first_entered.find(region);
  return found == scan->first_entered.end() ? trace::kNone : found->second;
}

uint32_t StreamedTrace::TeamParent(uint32_t location, uint32_t region, uint64_t time) {
  MasterScan* scan = ScanOfMaster(location, region);
  if (scan == nullptr) return trace::kNone;
  // The latest fork at or before `time` is known once a later one (or the end) is.
  while (!scan->done && (scan->forks.empty() || scan->forks.back().time <= time)) {
    ScanMasterSegment(*scan);
  }
  auto after = std::upper_bound(scan->forks.begin(), scan->forks.end(), time,
                                [](uint64_t t, const trace::ForkPoint& f) { return t < f.time; });
  return after == scan->forks.begin() ? trace::kNone : std::prev(after)->callpath;
}

uint64_t StreamedTrace::declared_events() const {
  uint64_t events = 0;
  for (const trace::Location& loc : defs_.locations) events += loc.event_count;
  return events;
}

ReplayInput StreamedTrace::Input() {
  ReplayInput input;
  input.defs = &defs_;
  input.locations = static_cast<uint32_t>(defs_.locations.size());
  input.open = [this](uint32_t l) -> std::unique_ptr<EventSource> {
    return std::make_unique<Otf2Source>(*this, l);
  };
  return input;
}

std::string StreamedTrace::CallpathName(uint32_t callpath) const {
  return tree_.PathName(callpath, [this](uint32_t region) { return RegionName(region); });
}

std::string StreamedTrace::CallpathLabel(uint32_t callpath) const {
  return tree_.PathLabel(callpath, [this](uint32_t region) { return RegionName(region); });
}

std::string StreamedTrace::RegionName(uint32_t region) const {
  if (region == regions_.program && !program_name_.empty()) return program_name_;
  return std::string(defs_.RegionName(region));
}

}  // namespace cw::sim
