#include "tag/online/online_graphs.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <unordered_map>

#include "base/parallel.h"
#include "elf/address_names.h"
#include "tag/model/callpath_folding.h"
#include "tag/model/loops.h"

namespace cw::tag {
namespace {

namespace fs = std::filesystem;
using elf::AddressNames;
using elf::FrameName;
using elf::IsProgramStart;
using elf::ModuleCache;

Stats ToStats(const seg::Stats& s) {
  Stats t;
  t.count = s.count;
  t.total = s.total;
  t.min = s.min;
  t.max = s.max;
  t.m2 = s.m2;
  return t;
}

NodeKind ToKind(seg::NodeKind k) { return static_cast<NodeKind>(k); }
EdgeKind ToKind(seg::EdgeKind k) { return static_cast<EdgeKind>(k); }
MessageVia ToVia(seg::Via v) { return static_cast<MessageVia>(v); }

// One rank's graph while it is built: its merged nodes first, its edges once every rank's
// nodes are known.
struct RankWork {
  const OnlineRank* rank = nullptr;
  ProcessGraph graph;
  std::vector<uint32_t> node_of;  // segment node -> graph node
  uint64_t folded = 0;
  uint64_t unnamed_frames = 0;
  uint64_t truncated = 0;
};

void ResolveNodes(RankWork& w, const OnlineOptions& options, ModuleCache& modules) {
  const SegmentImage& image = w.rank->image;
  const seg::Header& h = image.header();
  AddressNames names(w.rank->maps, modules);
  std::unordered_map<uint64_t, FrameName> named;  // per return address
  std::map<std::tuple<NodeKind, std::string, std::string>, uint32_t> merged;
  w.graph.rank = static_cast<uint32_t>(h.rank);
  w.graph.location = static_cast<uint32_t>(h.rank);
  w.graph.location_name = "rank " + std::to_string(h.rank);
  w.graph.ticks_per_second = image.ticks_per_second();
  w.node_of.assign(image.nodes().size(), kNoNode);
  uint32_t id = 0;
  for (const seg::Node& n : image.nodes()) {
    const NodeKind kind = ToKind(n.kind);
    std::string name(image.Name(n.name));
    std::vector<std::string> path;
    std::vector<bool> unnamed, c_start;
    std::string site;
    for (const seg::Frame& f : image.FramesOf(n)) {
      if ((f.address & seg::kRegionFrame) != 0) {
        path.emplace_back(image.Name(static_cast<uint32_t>(f.address)));
        unnamed.push_back(false);
        c_start.push_back(false);
        continue;
      }
      auto [it, inserted] = named.try_emplace(f.address);
      if (inserted) it->second = names.Name(f.address);
      path.push_back(it->second.function);
      unnamed.push_back(!it->second.named);
      c_start.push_back(IsProgramStart(it->second));
      site = it->second.site;
    }
    // The program's frames begin at main: what runs before it (the C library's start) is the
    // same for every path and says nothing. In an executable without a symbol table (most
    // packaged programs) main has no name: it is the frame the C library's start called.
    size_t first = 0;
    if (auto main = std::find(path.begin(), path.end(), "main"); main != path.end()) {
      first = static_cast<size_t>(main - path.begin());
    } else if (auto start = std::find(c_start.rbegin(), c_start.rend(), true);
               start != c_start.rend() && start != c_start.rbegin()) {
      first = static_cast<size_t>(c_start.rend() - start);  // the frame after the last one
      if (unnamed[first]) {
        path[first] = "main";
        unnamed[first] = false;
      }
    }
    path.erase(path.begin(), path.begin() + static_cast<std::ptrdiff_t>(first));
    unnamed.erase(unnamed.begin(), unnamed.begin() + static_cast<std::ptrdiff_t>(first));
    w.unnamed_frames += static_cast<uint64_t>(std::count(unnamed.begin(), unnamed.end(), true));
    if (n.truncated) {
      ++w.truncated;
      path.insert(path.begin(), "...");
    }
    const size_t before = path.size();
    path = FoldRecursion(std::move(path), options.recursion_depth);
    if (path.size() != before) ++w.folded;
    std::string callpath;
    if (kind == NodeKind::kStart || kind == NodeKind::kEnd) {
      callpath = name;
      site.clear();
    } else {
      for (const std::string& p : path) callpath += p + "/";
      callpath += name;
    }
    auto [it, inserted] =
        merged.try_emplace({kind, callpath, site}, static_cast<uint32_t>(w.graph.nodes.size()));
    if (inserted) {
      Node& node = w.graph.nodes.emplace_back();
      node.kind = kind;
      node.name = name;
      node.callpath = callpath;
      node.callsite = site;
    }
    Node& node = w.graph.nodes[it->second];
    node.time.Merge(ToStats(n.time));
    node.iterations += n.iterations;
    w.node_of[id++] = it->second;
  }
}

void BuildEdges(RankWork& w, const std::map<uint32_t, const RankWork*>& by_rank) {
  const SegmentImage& image = w.rank->image;
  struct Key {
    EdgeKind kind;
    MessageVia via;
    uint32_t from, to, peer;
    bool operator<(const Key& o) const {
      return std::tie(kind, via, from, to, peer) < std::tie(o.kind, o.via, o.from, o.to, o.peer);
    }
  };
  std::map<Key, uint32_t> index;
  for (const seg::Edge& e : image.edges()) {
    const EdgeKind kind = ToKind(e.kind);
    const bool message = kind == EdgeKind::kMessageIn || kind == EdgeKind::kMessageOut;
    uint32_t from = kNoNode, to = kNoNode;
    if (kind == EdgeKind::kMessageIn) {
      to = w.node_of[e.to];
      auto sender = by_rank.find(e.peer);
      if (sender != by_rank.end() && e.from < sender->second->node_of.size()) {
        from = sender->second->node_of[e.from];
      }
    } else {
      from = w.node_of[e.from];
      if (kind != EdgeKind::kMessageOut) to = w.node_of[e.to];
    }
    const uint32_t peer = message ? e.peer : kNoRank;
    auto [it, inserted] = index.try_emplace(Key{kind, ToVia(e.via), from, to, peer},
                                            static_cast<uint32_t>(w.graph.edges.size()));
    if (inserted) {
      Edge& edge = w.graph.edges.emplace_back();
      edge.kind = kind;
      edge.via = ToVia(e.via);
      edge.from = from;
      edge.to = to;
      edge.peer = peer;
      edge.peer_location = peer;
    }
    Edge& edge = w.graph.edges[it->second];
    edge.time.Merge(ToStats(e.time));
    if (!message) continue;
    const seg::Message& m = image.messages()[e.message];
    edge.bytes += m.bytes;
    for (int b = 0; b < kSizeBuckets && b < seg::kSizeBuckets; ++b) {
      edge.size_histogram[static_cast<size_t>(b)] += m.size_histogram[b];
    }
    if (kind == EdgeKind::kMessageIn) {
      edge.delta_t.Merge(ToStats(m.delta_t));
      edge.late_senders += m.late_senders;
      edge.late_sender_ticks += m.late_sender_ticks;
      edge.late_receivers += m.late_receivers;
      edge.late_receiver_ticks += m.late_receiver_ticks;
    }
  }
}

// The causal paths, in the merged nodes: paths that became one are one.
void BuildPaths(RankWork& w) {
  const SegmentImage& image = w.rank->image;
  std::map<std::pair<uint32_t, std::vector<PathStep>>, uint32_t> index;
  for (const seg::Path& p : image.paths()) {
    std::vector<PathStep> steps;
    for (const seg::PathStep& s : image.StepsOf(p)) {
      steps.push_back({w.node_of[s.node], s.peer == seg::kNone ? kNoRank : s.peer});
    }
    const uint32_t loop = w.node_of[p.loop];
    auto [it, inserted] =
        index.try_emplace({loop, steps}, static_cast<uint32_t>(w.graph.paths.size()));
    if (inserted) {
      CausalPath& path = w.graph.paths.emplace_back();
      path.loop = loop;
      path.steps = std::move(steps);
    }
    CausalPath& path = w.graph.paths[it->second];
    path.truncated |= p.truncated != 0;
    path.time.Merge(ToStats(p.time));
  }
}

std::string RankNotes(const RankWork& w) {
  const SegmentImage& image = w.rank->image;
  const seg::Header& h = image.header();
  std::ostringstream out;
  const std::string who = "rank " + std::to_string(h.rank);
  switch (image.state()) {
    case seg::RunState::kEnded:
      break;
    case seg::RunState::kAborted:
      out << who << " called MPI_Abort; ";
      break;
    case seg::RunState::kSignalled:
      out << who << " ended by signal " << h.signal << "; ";
      break;
    case seg::RunState::kExited:
      out << who << " exited without MPI_Finalize; ";
      break;
    default:
      out << who << " did not end its graph (killed, or still running); ";
      break;
  }
  if (image.interrupted()) out << who << "'s last activity was cut short (partly recorded); ";
  if (h.lost_nodes + h.lost_edges + h.lost_messages + h.lost_paths > 0) {
    out << who << ": " << h.lost_nodes << " activities, " << h.lost_edges << " edges, "
        << h.lost_messages << " message edges and " << h.lost_paths
        << " iterations' causal paths did not fit the segment and are missing; ";
  }
  if (h.other_thread_calls > 0) {
    out << who << ": " << h.other_thread_calls
        << " MPI calls of threads other than the one that initialised MPI are not in its graph; ";
  }
  if (w.unnamed_frames > 0) out << who << ": " << w.unnamed_frames << " frames have no symbol; ";
  if (w.truncated > 0) {
    out << who << ": " << w.truncated
        << " call paths were deeper than the walk keeps (rooted at ...); ";
  }
  std::string text = out.str();
  if (text.size() >= 2) text.resize(text.size() - 2);
  return text;
}

}  // namespace

OnlineGraphs BuildOnlineGraphs(const std::vector<OnlineRank>& ranks, const OnlineOptions& options) {
  std::vector<RankWork> work(ranks.size());
  ModuleCache modules;
  ParallelFor(ranks.size(), options.threads, [&](size_t r) {
    work[r].rank = &ranks[r];
    ResolveNodes(work[r], options, modules);
  });
  std::map<uint32_t, const RankWork*> by_rank;
  for (const RankWork& w : work) by_rank[w.graph.rank] = &w;
  ParallelFor(ranks.size(), options.threads, [&](size_t r) {
    BuildEdges(work[r], by_rank);
    BuildPaths(work[r]);
  });
  OnlineGraphs result;
  for (RankWork& w : work) {
    result.folded_callpaths += w.folded;
    if (std::string note = RankNotes(w); !note.empty()) result.notes.push_back(note);
  }
  std::sort(work.begin(), work.end(),
            [](const RankWork& a, const RankWork& b) { return a.graph.rank < b.graph.rank; });
  for (RankWork& w : work) {
    MarkBackEdges(w.graph);
    result.segment_bytes.push_back(w.rank->image.bytes().size());
    result.tool_seconds.push_back(static_cast<double>(w.rank->image.header().tool_ticks) /
                                  w.graph.ticks_per_second);
    result.processes.push_back(std::move(w.graph));
  }
  return result;
}

bool IsOnlineRun(const std::string& dir) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(fs::path(dir) / "tag", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("rank-", 0) == 0 && entry.path().extension() == ".seg") return true;
  }
  return false;
}

namespace {

Result<std::string> ReadText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return MakeError(ErrorCode::kNotFound, "cannot read " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The ranks' segments of one point of the run: "end" (the final segments) or snapshot k.
Result<std::map<int, SegmentImage>> ReadPoint(const fs::path& tag, const std::string& point) {
  const fs::path where = point == "end" ? tag : tag / "snapshots" / point;
  std::map<int, SegmentImage> images;
  std::error_code ec;
  fs::directory_iterator it(where, ec);
  if (ec)
    return MakeError(ErrorCode::kNotFound, "no snapshot " + point + " (" + where.string() + ")");
  for (const auto& entry : it) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("rank-", 0) != 0 || entry.path().extension() != ".seg") continue;
    CW_ASSIGN_OR_RETURN(SegmentImage image, ReadSegmentFile(entry.path().string()));
    const int rank = image.header().rank;
    if (images.count(rank) > 0) {
      return MakeError(ErrorCode::kCorrupt,
                       where.string() + " holds two segments of rank " + std::to_string(rank));
    }
    images.emplace(rank, std::move(image));
  }
  if (images.empty())
    return MakeError(ErrorCode::kNotFound, "no rank segments in " + where.string());
  return images;
}

}  // namespace

Result<std::vector<OnlineRank>> ReadOnlineRun(const std::string& dir, const std::string& window) {
  const fs::path tag = fs::path(dir) / "tag";
  std::string from = "0", to = "end";
  if (!window.empty()) {
    const size_t colon = window.find(':');
    if (colon == std::string::npos) {
      return MakeError(ErrorCode::kInvalidArgument,
                       "--window wants A:B (snapshot numbers, 0 "
                       "for the start, end for the final graphs)");
    }
    from = window.substr(0, colon);
    to = window.substr(colon + 1);
    // A snapshot number: digits only, and within 64 bits (stoull would throw beyond them).
    auto number = [](const std::string& s, uint64_t& value) {
      const char* end = s.data() + s.size();
      const auto [stop, error] = std::from_chars(s.data(), end, value);
      return !s.empty() && error == std::errc() && stop == end;
    };
    uint64_t first = 0, last = 0;
    const bool to_number = number(to, last);
    if (!(number(from, first) && (to_number || to == "end")) || (to_number && last <= first)) {
      return MakeError(ErrorCode::kInvalidArgument,
                       "--window " + window +
                           ": A and B are snapshot numbers with A < B (0 for "
                           "the start, end for the final graphs)");
    }
  }
  CW_ASSIGN_OR_RETURN(auto later, ReadPoint(tag, to));
  if (from != "0") {
    CW_ASSIGN_OR_RETURN(auto earlier, ReadPoint(tag, from));
    for (auto& [rank, image] : later) {
      auto it = earlier.find(rank);
      if (it != earlier.end()) CW_RETURN_IF_ERROR(image.Subtract(it->second));
    }
  }
  std::vector<OnlineRank> ranks;
  for (auto& [rank, image] : later) {
    OnlineRank r{std::move(image), {}};
    // A rank's memory map: written when it started and again whenever a library appeared.
    Result<std::string> maps = ReadText(tag / ("rank-" + std::to_string(rank) + ".maps"));
    if (maps) r.maps = std::move(*maps);
    ranks.push_back(std::move(r));
  }
  return ranks;
}

}  // namespace cw::tag
