#include "sim/otf2_source.h"

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
        e.callpath = to_global_[e.callpath];
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
    return !segment_.events.empty();
  }

  StreamedTrace& owner_;
  uint32_t location_;
  std::unique_ptr<otf2::LocationStream> stream_;
  std::optional<Error> open_error_;
  otf2::LocationStream::Segment segment_;
  std::vector<uint32_t> to_global_;
  uint32_t next_ = 0;
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

uint32_t StreamedTrace::ThreadRootParent(uint32_t location, uint32_t region) {
  if (location >= masters_.size() || masters_[location] == trace::kNone ||
      masters_[location] >= location || !trace::IsOmpParallelRegion(defs_, region)) {
    return trace::kNone;
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
  // Each parallel region's first Enter below another region, in the order the master made them.
  while (scan.first_entered.count(region) == 0 && !scan.done) {
    if (scan.stream->done()) {
      scan.done = true;
      break;
    }
    const otf2::LocationStream::Segment segment = scan.stream->Next(segment_records);
    const trace::CallTree& local = segment.local_tree;
    for (uint32_t i = segment.resumed; i < segment.events.size(); ++i) {
      if (segment.events.kind(i) != trace::EventKind::kEnter) continue;
      const uint32_t entered = segment.events.ref(i);
      const uint32_t parent = local.parent(entered);
      if (parent == trace::kNone || !trace::IsOmpParallelRegion(defs_, local.region(entered)) ||
          scan.first_entered.count(local.region(entered)) != 0) {
        continue;
      }
      std::vector<uint32_t> path;  // the parent's regions, innermost first
      for (uint32_t p = parent; p != trace::kNone; p = local.parent(p))
        path.push_back(local.region(p));
      uint32_t global = trace::kNone;
      for (auto r = path.rbegin(); r != path.rend(); ++r) global = tree_.Intern(global, *r);
      scan.first_entered[local.region(entered)] = global;
    }
  }
  auto found = scan.first_entered.find(region);
  return found == scan.first_entered.end() ? trace::kNone : found->second;
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
