#include <map>

#include <nlohmann/json.hpp>

#include "tag/model/loops.h"
#include "tag/output/tag_writers.h"

namespace cw::tag {
namespace {

using nlohmann::json;

// A window's graph (what happened between two snapshots) has no extremes of its own: they
// cannot be taken apart from the run's before it.
json StatsJson(const Stats& s, const ProcessGraph& g, bool window) {
  return {{"time", g.Seconds(s.total)},
          {"min", window ? json(nullptr) : json(g.Seconds(s.min))},
          {"max", window ? json(nullptr) : json(g.Seconds(s.max))},
          {"mean", g.Seconds(s.mean())},
          {"stddev", g.Seconds(s.stddev())}};
}

json OptionalNode(uint32_t node) { return node == kNoNode ? json(nullptr) : json(node); }

json SectionsJson(const std::vector<Section>& sections, const ProcessGraph& g) {
  const double total = g.TotalTicks();
  json out = json::array();
  for (const Section& s : sections) {
    json j = {{"key", s.key},
              {"kind", SectionKindName(s.kind)},
              {"label", s.label},
              {"nodes", s.nodes},
              {"time", g.Seconds(s.ticks)},
              {"share", total > 0 ? s.ticks / total : 0.0}};
    if (s.kind == SectionKind::kLoop) j["iterations"] = s.iterations;
    out.push_back(std::move(j));
  }
  return out;
}

json ProcessJson(const ProcessGraph& g, bool window) {
  const double total = g.TotalTicks();
  auto share = [&](double ticks) { return total > 0 ? ticks / total : 0.0; };
  json nodes = json::array();
  for (uint32_t v = 0; v < g.nodes.size(); ++v) {
    const Node& n = g.nodes[v];
    json j = {{"id", v},
              {"kind", NodeKindName(n.kind)},
              {"name", n.name},
              {"callpath", n.callpath},
              {"count", n.time.count},
              {"share", share(n.time.total)}};
    if (!n.callsite.empty()) j["callsite"] = n.callsite;
    if (n.kind == NodeKind::kLoopEntry) j["iterations"] = n.iterations;
    j.update(StatsJson(n.time, g, window));
    nodes.push_back(std::move(j));
  }
  json edges = json::array();
  for (const Edge& e : g.edges) {
    json j = {{"from", OptionalNode(e.from)},
              {"to", OptionalNode(e.to)},
              {"kind", EdgeKindName(e.kind)},
              {"count", e.time.count},
              {"share", e.kind == EdgeKind::kFlow ? share(e.time.total) : 0.0}};
    j.update(StatsJson(e.time, g, window));
    if (e.kind == EdgeKind::kFlow) j["back"] = e.back;
    if (e.kind == EdgeKind::kMessageIn || e.kind == EdgeKind::kMessageOut) {
      j["peer"] = e.peer;
      j["peer_location"] = e.peer_location;
      j["via"] = MessageViaName(e.via);
      j["bytes"] = e.bytes;
      json histogram = json::array();
      for (int b = 0; b < kSizeBuckets; ++b) {
        uint64_t count = e.size_histogram[static_cast<size_t>(b)];
        if (count == 0) continue;
        histogram.push_back({{"min_bytes", b == 0 ? 0 : uint64_t{1} << (b - 1)}, {"count", count}});
      }
      j["size_histogram"] = std::move(histogram);
    }
    if (e.kind == EdgeKind::kMessageIn) j["delta_t"] = StatsJson(e.delta_t, g, window);
    edges.push_back(std::move(j));
  }
  json loops = json::array();
  for (const Loop& l : FindLoops(g)) {
    loops.push_back({{"head", l.head},
                     {"nodes", l.body},
                     {"iterations", l.iterations},
                     {"instances", l.instances},
                     {"time", g.Seconds(l.ticks)},
                     {"share", share(l.ticks)}});
  }
  json paths = json::array();
  for (const CausalPath& p : g.paths) {
    json steps = json::array();
    for (const PathStep& s : p.steps) {
      steps.push_back(
          {{"node", s.node}, {"peer", s.peer == kNoRank ? json(nullptr) : json(s.peer)}});
    }
    json j = {{"loop", p.loop},
              {"steps", std::move(steps)},
              {"count", p.time.count},
              {"truncated", p.truncated}};
    j.update(StatsJson(p.time, g, window));
    paths.push_back(std::move(j));
  }
  return {{"rank", g.rank},
          {"location", g.location},
          {"name", g.location_name},
          {"total_time", g.Seconds(total)},
          {"nodes", std::move(nodes)},
          {"edges", std::move(edges)},
          {"loops", std::move(loops)},
          {"paths", std::move(paths)}};
}

// The behaviour classes, whole and section by section.
json ClassesJson(const TagDocument& doc) {
  json clusters = json::array();
  for (size_t i = 0; i < doc.clusters.size(); ++i) {
    const Cluster& c = doc.clusters[i];
    const ProcessGraph& rep = doc.processes[c.representative];
    json differs = nullptr;
    if (i >= 1 && i - 1 < doc.class_contrasts.size()) {
      const ClassContrast& contrast = doc.class_contrasts[i - 1];
      differs = {{"class", contrast.closest}, {"in", DifferenceName(contrast.difference)}};
      if (contrast.difference == Difference::kTimes) {
        differs["distance"] = rep.Seconds(contrast.distance.ticks);
        differs["allowed_by_tolerance"] = rep.Seconds(contrast.distance.share_allowance);
        differs["allowed_by_scatter"] = rep.Seconds(contrast.distance.noise_allowance);
      }
    }
    clusters.push_back({{"members", MemberRanks(doc, c)},
                        {"representative", rep.rank},
                        {"total_time",
                         {{"min", rep.Seconds(c.min_ticks)},
                          {"mean", rep.Seconds(c.mean_ticks)},
                          {"max", rep.Seconds(c.max_ticks)}}},
                        {"differs_from", std::move(differs)}});
  }
  return clusters;
}

json SectionClassesJson(const TagDocument& doc) {
  json sections = json::array();
  for (const SectionClasses& sc : doc.section_classes) {
    json classes = json::array();
    for (const Cluster& c : sc.classes) {
      const ProcessGraph& rep = doc.processes[c.representative];
      classes.push_back({{"members", MemberRanks(doc, c)},
                         {"representative", rep.rank},
                         {"time",
                          {{"min", rep.Seconds(c.min_ticks)},
                           {"mean", rep.Seconds(c.mean_ticks)},
                           {"max", rep.Seconds(c.max_ticks)}}}});
    }
    json section = {{"key", sc.key},
                    {"kind", SectionKindName(sc.kind)},
                    {"label", sc.label},
                    {"classes", std::move(classes)}};
    if (auto it = doc.section_spreads.find(sc.key); it != doc.section_spreads.end()) {
      const SectionSpread& sp = it->second;
      section["time"] = {{"min", sp.min_seconds},
                         {"mean", sp.mean_seconds},
                         {"max", sp.max_seconds},
                         {"slowest_rank", sp.slowest_rank},
                         {"processes", sp.processes}};
    }
    sections.push_back(std::move(section));
  }
  return sections;
}

// The inter-process edges, and the communication views per process and per class.
void CommunicationJson(const TagDocument& doc, json& j) {
  const double tps = doc.processes.empty() ? 1 : doc.processes.front().ticks_per_second;
  json ptag = json::array();
  for (const PtagEdge& e : doc.ptag) {
    ptag.push_back({{"from_rank", e.from_rank},
                    {"from_node", e.from_node},
                    {"to_rank", e.to_rank},
                    {"to_node", e.to_node},
                    {"via", MessageViaName(e.via)},
                    {"count", e.count},
                    {"bytes", e.bytes},
                    {"time", e.ticks / tps}});
  }
  j["ptag_edges"] = std::move(ptag);
  json phases = json::array();
  for (const PhaseEdge& e : doc.communication_view) {
    phases.push_back({{"from_rank", e.from_rank},
                      {"to_rank", e.to_rank},
                      {"count", e.count},
                      {"bytes", e.bytes}});
  }
  j["communication_view"] = std::move(phases);
  json class_view = json::array();
  for (const ClassEdge& e : doc.class_communication_view) {
    class_view.push_back({{"from_class", e.from_class},
                          {"to_class", e.to_class},
                          {"count", e.count},
                          {"bytes", e.bytes}});
  }
  j["class_communication_view"] = std::move(class_view);
}

// The tendencies and the imbalance within and between classes.
void FindingsJson(const TagDocument& doc, json& j) {
  const double tps = doc.processes.empty() ? 1 : doc.processes.front().ticks_per_second;
  json tendencies = json::array();
  for (const Tendency& t : doc.findings.tendencies) {
    const ProcessGraph& g = doc.processes[t.process];
    tendencies.push_back({{"kind", TendencyKindName(t.kind)},
                          {"rank", g.rank},
                          {"node", t.node},
                          {"callpath", g.nodes[t.node].callpath},
                          {"callsite", g.nodes[t.node].callsite},
                          {"peers", t.peers},
                          {"messages", t.messages},
                          {"late", t.late},
                          {"time", t.ticks / tps},
                          {"many_senders", t.many_senders}});
  }
  j["tendencies"] = std::move(tendencies);
  auto spread_json = [&](const ClassSpread& s) {
    return json{{"class", s.cluster},       {"callpath", s.callpath},
                {"min", s.min_ticks / tps}, {"mean", s.mean_ticks / tps},
                {"max", s.max_ticks / tps}, {"slowest_rank", s.slowest_rank}};
  };
  json spreads = json::array();
  for (const ClassSpread& s : doc.findings.class_spreads) spreads.push_back(spread_json(s));
  j["class_imbalance"] = std::move(spreads);
  json between = json::array();
  for (const auto& group : doc.findings.between_classes) {
    json classes = json::array();
    for (const ClassSpread& s : group) classes.push_back(spread_json(s));
    between.push_back({{"callpath", group.front().callpath}, {"classes", std::move(classes)}});
  }
  j["between_classes"] = std::move(between);
}

}  // namespace

std::string TagJson(const TagDocument& doc) {
  json j;
  j["format"] = "causeway-tag";
  j["version"] = 1;
  j["source"] = doc.source;
  j["recorded"] = doc.online ? "online" : "trace";
  j["window"] = doc.window.empty() ? json(nullptr) : json(doc.window);
  j["notes"] = doc.notes;
  j["parameters"] = {{"tolerance", doc.tolerance},
                     {"noise_sigmas", doc.noise_sigmas},
                     {"recursion_depth", doc.recursion_depth},
                     {"regions", doc.regions}};
  j["folded_callpaths"] = doc.folded_callpaths;
  json processes = json::array();
  for (size_t p = 0; p < doc.processes.size(); ++p) {
    json process = ProcessJson(doc.processes[p], !doc.window.empty());
    if (p < doc.sections.size()) {
      process["sections"] = SectionsJson(doc.sections[p], doc.processes[p]);
    }
    if (p < doc.segment_bytes.size()) process["segment_bytes"] = doc.segment_bytes[p];
    if (p < doc.tool_seconds.size()) process["tool_time"] = doc.tool_seconds[p];
    processes.push_back(std::move(process));
  }
  j["processes"] = std::move(processes);
  j["clusters"] = ClassesJson(doc);
  j["sections"] = SectionClassesJson(doc);
  CommunicationJson(doc, j);
  FindingsJson(doc, j);
  return j.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace cw::tag
