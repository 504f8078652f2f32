#include "analysis/delay/internal/delayer_intervals.h"

#include <algorithm>
#include <tuple>

#include "analysis/delay/internal/time_wire.h"
#include "base/check.h"
#include "comm/wire.h"

namespace cw::analysis::internal {
namespace {

using trace::kNone;

// A crossing wait whose delayer is on this rank, with the delayer's interval it needs.
struct Candidate {
  uint32_t rank;        // the waiter's
  uint32_t delayer;     // location
  uint32_t boundary;    // the interval's start boundary in the delayer's time map
  uint32_t activity;    // the delayer's call (the interval ends at its Enter)
  uint32_t waits_from;  // the first of the delayer's calls whose wait counts in ω̂
  uint32_t edge;
  uint32_t group = kNone;  // index among the shared intervals, kNone if not shared
};

// Per destination rank: the stream's intervals are numbered in the order they are first sent; a
// wait names its interval as the difference to the one the previous wait named plus one (waits
// come in edge order: each waiter's in time order, so one waiter after another walks the same
// intervals forwards).
struct StreamState {
  uint64_t previous_edge = 0;
  uint32_t intervals = 0;
  uint64_t last = ~uint64_t{0};  // so that the first reference's base is 0
};

}  // namespace

uint32_t WaitsFrom(const LocationSyncPoints& l, uint32_t start_role) {
  if (start_role == kNone) return 0;
  const SyncRole& s = l.roles[start_role];
  return s.activity + (s.kind == RoleKind::kDelayer ? 0 : 1);
}

int64_t WaitingIn(const LocationSyncPoints& l, uint32_t from, uint32_t to) {
  int64_t waiting = 0;
  for (uint32_t a = from; a < to; ++a) {
    if (l.call_wait[a] != kNone) waiting += l.roles[l.call_wait[a]].wait;
  }
  return waiting;
}

DelayerIntervals DelayerIntervals::Share(const SyncPoints& sp) {
  DelayerIntervals shared;
  if (!sp.share.distributed()) return shared;
  comm::Communicator& comm = *sp.share.comm;

  std::vector<Candidate> candidates;
  for (uint32_t e = 0; e < sp.edges.size(); ++e) {
    if (!sp.Crosses(e) || sp.share.Holds(sp.edges[e].waiter)) continue;
    const uint32_t q = sp.edges[e].delayer;
    const LocationSyncPoints& l = sp.locations[q];
    const SyncRole& r = l.roles[sp.ends[e].delayer_role];
    candidates.push_back(Candidate{sp.other_rank[e], q, sp.StartBoundary(q, r.start), r.activity,
                                   WaitsFrom(l, r.start), e});
  }
  auto key = [](const Candidate& c) {
    return std::tie(c.rank, c.delayer, c.activity, c.boundary, c.waits_from);
  };
  std::sort(candidates.begin(), candidates.end(), [&](const Candidate& a, const Candidate& b) {
    return std::tie(a.rank, a.delayer, a.activity, a.boundary, a.waits_from, a.edge) <
           std::tie(b.rank, b.delayer, b.activity, b.boundary, b.waits_from, b.edge);
  });
  uint32_t groups = 0;
  for (size_t i = 0; i < candidates.size();) {
    size_t j = i + 1;
    while (j < candidates.size() && key(candidates[j]) == key(candidates[i])) ++j;
    if (j - i >= 2) {
      for (size_t k = i; k < j; ++k) candidates[k].group = groups;
      ++groups;
    }
    i = j;
  }
  std::sort(candidates.begin(), candidates.end(),
            [](const Candidate& a, const Candidate& b) { return a.edge < b.edge; });

  std::vector<comm::ByteWriter> out(comm.size());
  std::vector<StreamState> streams(comm.size());
  std::vector<uint32_t> index_of(groups, kNone);  // per group: its number in its stream
  shared.shipped_.assign(sp.edges.size(), false);
  TimeVector time;
  for (const Candidate& c : candidates) {
    if (c.group == kNone) continue;
    shared.shipped_[c.edge] = true;
    const LocationSyncPoints& l = sp.locations[c.delayer];
    const SyncRole& r = l.roles[sp.ends[c.edge].delayer_role];
    comm::ByteWriter& w = out[c.rank];
    StreamState& stream = streams[c.rank];
    w.PutDelta(sp.global_edge[c.edge], stream.previous_edge);
    stream.previous_edge = sp.global_edge[c.edge];
    uint32_t& index = index_of[c.group];
    if (index == kNone) {
      index = stream.intervals++;
      w.PutVarint(0);
      const uint32_t cut_path = r.start == kNone ? kNone : l.call_path[l.roles[r.start].activity];
      w.PutVarint(cut_path + 1u);  // kNone in one byte
      w.PutVarint(static_cast<uint64_t>(WaitingIn(l, c.waits_from, c.activity)));
      time.clear();
      l.time.Sum(c.boundary, c.activity + 1, time);
      w.PutVarint(time.size());
      PutTimeEntries(w, time);
    } else {
      w.PutVarint(comm::ZigZag(index, stream.last + 1) + 1);
    }
    stream.last = index;
    w.PutVarint(static_cast<uint64_t>(r.cut));  // a stretch of time: never negative
  }

  const std::vector<comm::Bytes> in = comm.Exchange(comm::TakeAll(out));
  for (uint32_t from = 0; from < in.size(); ++from) {
    comm::ByteReader r(in[from]);
    StreamState stream;
    const auto first = static_cast<uint32_t>(shared.intervals_.size());
    while (!r.done()) {
      stream.previous_edge = r.GetDelta(stream.previous_edge);
      const uint32_t e = sp.LocalEdge(stream.previous_edge);
      CW_CHECK(sp.Crosses(e) && sp.other_rank[e] == from && sp.share.Holds(sp.edges[e].waiter));
      const uint64_t head = r.GetVarint();
      uint64_t index = 0;
      if (head == 0) {
        index = stream.intervals++;
        const auto cut_path = static_cast<uint32_t>(r.GetVarint()) - 1u;
        const auto waiting = static_cast<int64_t>(r.GetVarint());
        shared.intervals_.push_back(Interval{cut_path, waiting, GetTimeEntries(r, r.GetVarint())});
      } else {
        index = comm::UnZigZag(head - 1, stream.last + 1);
        CW_CHECK(index < stream.intervals);
      }
      stream.last = index;
      const auto cut = static_cast<int64_t>(r.GetVarint());
      shared.uses_.push_back(Use{e, first + static_cast<uint32_t>(index), cut});
    }
  }
  std::sort(shared.uses_.begin(), shared.uses_.end(),
            [](const Use& a, const Use& b) { return a.edge < b.edge; });
  return shared;
}

bool DelayerIntervals::Find(uint32_t edge, View& view) const {
  auto it = std::lower_bound(uses_.begin(), uses_.end(), edge,
                             [](const Use& u, uint32_t e) { return u.edge < e; });
  if (it == uses_.end() || it->edge != edge) return false;
  const Interval& interval = intervals_[it->interval];
  // As SyncPoints::CutPath: no cut, no call path to take it off.
  view = View{&interval.time, it->cut == 0 ? kNone : interval.cut_path, it->cut, interval.waiting};
  return true;
}

}  // namespace cw::analysis::internal
