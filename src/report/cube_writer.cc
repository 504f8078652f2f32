#include "report/cube_writer.h"

#include <archive.h>
#include <archive_entry.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <map>
#include <memory>
#include <sstream>
#include <vector>

#include <pugixml.hpp>

#include "analysis/metrics/metric_catalog.h"
#include "base/utf8.h"

namespace cw::report {
namespace {

using trace::kNone;

// The binary headers of Score-P's and CubeLib's files: a tag, then (index only) the byte order
// mark 1, the format version 0 and the sparse marker 1.
constexpr char kIndexTag[] = "CUBEX.INDEX";
constexpr char kDataTag[] = "CUBEX.DATA";

template <typename T>
void Append(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

// Cube ids of everything, in the depth-first order of each tree (so that ordering rows by id or
// by tree order gives the same file).
struct CubeIds {
  std::vector<uint32_t> cnode;     // by causeway call path
  std::vector<uint32_t> region;    // by trace region id (kNone: unused)
  std::vector<uint32_t> location;  // by causeway location
  uint32_t locations = 0;
};

// Text from the trace as XML 1.0 allows it: valid UTF-8, and no control characters other than
// tab and line breaks (each becomes U+FFFD). pugixml escapes the markup characters.
std::string XmlText(std::string_view raw) {
  std::string text = ValidUtf8(raw);
  std::string out;
  for (char c : text) {
    if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') {
      out += "\xEF\xBF\xBD";
    } else {
      out += c;
    }
  }
  return out;
}

void AddText(pugi::xml_node parent, const char* name, const std::string& text) {
  parent.append_child(name).text().set(XmlText(text).c_str());
}

// CubeLib's scanner accepts the empty-element form `<x/>` only for the elements Score-P writes
// that way (attr, dim, parameter); every other element must be an open/close pair even when
// empty (`<mirrors></mirrors>`, a leaf `<cnode ...></cnode>`). pugixml writes an element with an
// empty text child as a pair, so each empty element other than those three gets one.
void WriteEmptyElementsAsPairs(pugi::xml_node root) {
  std::vector<pugi::xml_node> stack{root};
  while (!stack.empty()) {
    pugi::xml_node node = stack.back();
    stack.pop_back();
    if (!node.first_child()) {
      const std::string_view name = node.name();
      if (name != "attr" && name != "dim" && name != "parameter") {
        node.append_child(pugi::node_pcdata);
      }
      continue;
    }
    for (pugi::xml_node child : node.children()) {
      if (child.type() == pugi::node_element) stack.push_back(child);
    }
  }
}

class AnchorBuilder {
 public:
  AnchorBuilder(const Report& report, const trace::Trace& trace)
      : report_(report), trace_(trace), defs_(trace.defs) {}

  std::string Build(CubeIds& ids);

 private:
  void Metrics(pugi::xml_node cube);
  void Program(pugi::xml_node cube, CubeIds& ids);
  void Cnode(pugi::xml_node parent, uint32_t callpath, CubeIds& ids);
  void System(pugi::xml_node cube, CubeIds& ids);
  void SystemNode(pugi::xml_node parent, uint32_t node, CubeIds& ids);
  void Group(pugi::xml_node parent, uint32_t group, CubeIds& ids);

  const Report& report_;
  const trace::Trace& trace_;
  const trace::Definitions& defs_;
  std::vector<std::vector<uint32_t>> children_;  // call paths by parent
  pugi::xml_node program_;
  uint32_t next_cnode_ = 0, next_region_ = 0;
  uint32_t next_node_ = 0, next_group_ = 0;
  // System tree: children nodes and location groups per node, locations per group.
  std::vector<std::vector<uint32_t>> node_children_, node_groups_, group_locations_;
};

std::string AnchorBuilder::Build(CubeIds& ids) {
  pugi::xml_document doc;
  pugi::xml_node declaration = doc.append_child(pugi::node_declaration);
  declaration.append_attribute("version") = "1.0";
  declaration.append_attribute("encoding") = "UTF-8";
  pugi::xml_node cube = doc.append_child("cube");
  cube.append_attribute("version") = "4.3";
  auto attr = [&cube](const char* key, const std::string& value) {
    pugi::xml_node a = cube.append_child("attr");
    a.append_attribute("key") = key;
    a.append_attribute("value") = value.c_str();
  };
  attr("CubePL Version", "1.0");
  attr("Creator", "causeway");
  attr("CUBE_CT_AGGR", "SUM");
  attr("causeway::trace", XmlText(report_.trace.path));
  cube.append_child("doc").append_child("mirrors");
  Metrics(cube);
  Program(cube, ids);
  System(cube, ids);
  WriteEmptyElementsAsPairs(cube);
  // One element per line and no indentation: indenting every level would make the file grow
  // with the square of the call tree's depth (a region nested 30,000 deep gave 1.8 GB).
  std::ostringstream out;
  doc.save(out, "", pugi::format_indent);
  return out.str();
}

void AnchorBuilder::Metrics(pugi::xml_node cube) {
  pugi::xml_node metrics = cube.append_child("metrics");
  // The catalog lists parents before children; a metric's element nests in its parent's.
  std::map<analysis::MetricId, pugi::xml_node> element;
  uint32_t next = 0;
  for (const analysis::MetricInfo& m : analysis::AllMetrics()) {
    pugi::xml_node parent = m.parent ? element.at(*m.parent) : metrics;
    pugi::xml_node metric = parent.append_child("metric");
    metric.append_attribute("id") = next++;
    metric.append_attribute("type") = "EXCLUSIVE";
    AddText(metric, "disp_name", std::string(m.display));
    AddText(metric, "uniq_name", std::string(m.name));
    const bool seconds = m.unit == analysis::MetricUnit::kSeconds;
    AddText(metric, "dtype", seconds ? "DOUBLE" : "UINT64");
    AddText(metric, "uom",
            seconds                                  ? "sec"
            : m.unit == analysis::MetricUnit::kBytes ? "bytes"
                                                     : "occ");
    AddText(metric, "url", "");
    AddText(metric, "descr", std::string(m.description));
    element[m.id] = metric;
  }
}

void AnchorBuilder::Program(pugi::xml_node cube, CubeIds& ids) {
  program_ = cube.append_child("program");
  ids.cnode.assign(report_.callpaths.size(), kNone);
  ids.region.assign(defs_.regions.size() + 1, kNone);
  children_.assign(report_.callpaths.size(), {});
  std::vector<uint32_t> roots;
  for (const Callpath& c : report_.callpaths) {
    (c.parent ? children_[*c.parent] : roots).push_back(c.id);
  }
  // Regions first (Cube wants them before the cnodes that call them): every region a call path
  // enters, in depth-first order of first use.
  std::vector<uint32_t> order;
  std::vector<uint32_t> stack(roots.rbegin(), roots.rend());
  while (!stack.empty()) {
    uint32_t cp = stack.back();
    stack.pop_back();
    order.push_back(cp);
    for (auto it = children_[cp].rbegin(); it != children_[cp].rend(); ++it) stack.push_back(*it);
  }
  for (uint32_t cp : order) {
    uint32_t r =
        std::min<uint32_t>(trace_.CallpathRegion(cp), static_cast<uint32_t>(defs_.regions.size()));
    if (ids.region[r] != kNone) continue;
    ids.region[r] = next_region_++;
    pugi::xml_node region = program_.append_child("region");
    region.append_attribute("id") = ids.region[r];
    const trace::Region* def = r < defs_.regions.size() ? &defs_.regions[r] : nullptr;
    region.append_attribute("mod") = def ? XmlText(defs_.str(def->file)).c_str() : "";
    region.append_attribute("begin") =
        def && def->begin_line != 0 ? static_cast<long long>(def->begin_line) : -1LL;
    region.append_attribute("end") =
        def && def->end_line != 0 ? static_cast<long long>(def->end_line) : -1LL;
    AddText(region, "name", report_.callpaths[cp].region);
    AddText(region, "url", "");
    AddText(region, "descr", def ? trace::ParadigmName(def->paradigm) : "unknown");
  }
  for (uint32_t root : roots) Cnode(program_, root, ids);
}

void AnchorBuilder::Cnode(pugi::xml_node parent, uint32_t root, CubeIds& ids) {
  // Depth first with an explicit stack: a hostile trace can nest regions deeper than the
  // process's stack would allow recursion.
  std::vector<std::pair<pugi::xml_node, uint32_t>> stack{{parent, root}};
  while (!stack.empty()) {
    auto [into, callpath] = stack.back();
    stack.pop_back();
    ids.cnode[callpath] = next_cnode_++;
    pugi::xml_node cnode = into.append_child("cnode");
    cnode.append_attribute("id") = ids.cnode[callpath];
    // Where the call path is called from (walked call paths with debug information): Cube shows
    // the call site's file and line.
    const Callpath& walked = report_.callpaths[callpath];
    if (walked.line != 0) {
      cnode.append_attribute("line") = walked.line;
      cnode.append_attribute("mod") = XmlText(walked.file).c_str();
    }
    uint32_t r = std::min<uint32_t>(trace_.CallpathRegion(callpath),
                                    static_cast<uint32_t>(defs_.regions.size()));
    cnode.append_attribute("calleeId") = ids.region[r];
    const std::vector<uint32_t>& children = children_[callpath];
    for (auto it = children.rbegin(); it != children.rend(); ++it) stack.emplace_back(cnode, *it);
  }
}

void AnchorBuilder::System(pugi::xml_node cube, CubeIds& ids) {
  pugi::xml_node system = cube.append_child("system");
  const size_t nodes = defs_.system_tree.size(), groups = defs_.location_groups.size();
  // Index `nodes` is a machine for process groups without a defined node, `groups` a process
  // for locations without a defined group.
  node_children_.assign(nodes + 1, {});
  node_groups_.assign(nodes + 1, {});
  group_locations_.assign(groups + 1, {});
  std::vector<uint32_t> roots;
  for (uint32_t n = 0; n < nodes; ++n) {
    uint32_t parent = defs_.system_tree[n].parent;
    (parent < nodes && parent != n ? node_children_[parent] : roots).push_back(n);
  }
  for (uint32_t l = 0; l < report_.locations.size(); ++l) {
    uint32_t g = defs_.locations[l].group;
    group_locations_[g < groups ? g : groups].push_back(l);
  }
  // Nodes no root reaches (a parent cycle in damaged definitions) lose their place: their
  // processes go to the synthetic machine, so that every location is in the system tree.
  std::vector<bool> reached(nodes, false);
  std::vector<uint32_t> stack(roots.begin(), roots.end());
  while (!stack.empty()) {
    const uint32_t n = stack.back();
    stack.pop_back();
    reached[n] = true;
    for (uint32_t child : node_children_[n]) stack.push_back(child);
  }
  for (uint32_t g = 0; g <= groups; ++g) {
    if (group_locations_[g].empty()) continue;
    uint32_t node = g < groups ? defs_.location_groups[g].system_tree_parent : kNone;
    node_groups_[node < nodes && reached[node] ? node : nodes].push_back(g);
  }
  ids.location.assign(report_.locations.size(), kNone);
  for (uint32_t root : roots) SystemNode(system, root, ids);
  if (!node_groups_[nodes].empty()) SystemNode(system, static_cast<uint32_t>(nodes), ids);
  system.append_child("topologies");
}

void AnchorBuilder::SystemNode(pugi::xml_node parent, uint32_t root, CubeIds& ids) {
  // Depth first with an explicit stack, as the call tree: definitions can nest nodes deeply. A
  // node's processes follow its child nodes (numbered after theirs), so each node is visited
  // twice: to write it and queue its children, then, once they are done, to write its processes.
  struct Frame {
    pugi::xml_node element;  // the parent's element on the first visit, its own on the second
    uint32_t node;
    bool children_done;
  };
  std::vector<Frame> stack{{parent, root, false}};
  while (!stack.empty()) {
    Frame frame = stack.back();
    stack.pop_back();
    if (frame.children_done) {
      for (uint32_t g : node_groups_[frame.node]) Group(frame.element, g, ids);
      continue;
    }
    const uint32_t node = frame.node;
    const bool defined = node < defs_.system_tree.size();
    pugi::xml_node element = frame.element.append_child("systemtreenode");
    element.append_attribute("Id") = next_node_++;
    AddText(element, "name",
            defined ? std::string(defs_.str(defs_.system_tree[node].name)) : "machine");
    AddText(element, "class",
            defined ? std::string(defs_.str(defs_.system_tree[node].class_name)) : "machine");
    stack.push_back({element, node, true});
    if (!defined) continue;
    const std::vector<uint32_t>& children = node_children_[node];
    for (auto it = children.rbegin(); it != children.rend(); ++it) {
      stack.push_back({element, *it, false});
    }
  }
}

void AnchorBuilder::Group(pugi::xml_node parent, uint32_t g, CubeIds& ids) {
  const bool defined = g < defs_.location_groups.size();
  pugi::xml_node group = parent.append_child("locationgroup");
  group.append_attribute("Id") = next_group_;
  uint32_t rank = defined ? defs_.location_groups[g].rank : kNone;
  AddText(group, "name",
          defined ? std::string(defs_.str(defs_.location_groups[g].name)) : "process");
  AddText(group, "rank", std::to_string(rank != kNone ? rank : next_group_));
  AddText(group, "type", "process");
  ++next_group_;
  uint32_t thread = 0;
  for (uint32_t l : group_locations_[g]) {
    ids.location[l] = ids.locations++;
    pugi::xml_node location = group.append_child("location");
    location.append_attribute("Id") = ids.location[l];
    AddText(location, "name", report_.locations[l].name);
    AddText(location, "rank", std::to_string(thread++));
    AddText(location, "type", "thread");
  }
}

// The .index and .data files of one metric: the call-tree nodes with a value (sparse), and per
// node one value per thread.
std::pair<std::string, std::string> MetricFiles(const analysis::MetricInfo& metric,
                                                const std::vector<const Value*>& values,
                                                const CubeIds& ids) {
  std::map<uint32_t, std::vector<double>> rows;  // by cnode id, ascending
  for (const Value* v : values) {
    std::vector<double>& row = rows[ids.cnode[v->callpath]];
    row.resize(ids.locations, 0.0);
    row[ids.location[v->location]] += v->value;
  }
  std::string index = kIndexTag, data = kDataTag;
  Append<uint32_t>(index, 1);  // byte order mark
  Append<uint16_t>(index, 0);  // version
  Append<uint8_t>(index, 1);   // sparse
  Append<uint32_t>(index, static_cast<uint32_t>(rows.size()));
  const bool floating = metric.unit == analysis::MetricUnit::kSeconds;
  for (const auto& [cnode, row] : rows) {
    Append<uint32_t>(index, cnode);
    for (double v : row) {
      if (floating) {
        Append<double>(data, v);
      } else {
        Append<uint64_t>(data, static_cast<uint64_t>(std::llround(v)));
      }
    }
  }
  return {index, data};
}

// An uncompressed tar archive through libarchive, renamed into place when complete.
Status WriteTar(const std::string& path,
                const std::vector<std::pair<std::string, std::string>>& files) {
  const std::string temporary = path + ".partial";
  std::unique_ptr<archive, decltype(&archive_write_free)> a(archive_write_new(),
                                                            &archive_write_free);
  auto fail = [&](const std::string& what) {
    // libarchive leaves its message empty for some failures (a full disk among them); errno
    // then says what went wrong.
    const int error_number = archive_errno(a.get()) != 0 ? archive_errno(a.get()) : errno;
    std::string reason = archive_error_string(a.get()) != nullptr ? archive_error_string(a.get())
                         : error_number != 0                      ? std::strerror(error_number)
                                                                  : "unknown libarchive failure";
    std::remove(temporary.c_str());
    return MakeError(ErrorCode::kIo, path + ": " + what + ": " + reason);
  };
  // A ustar member holds at most 8 GiB - 1 bytes, and CubeLib reads no other tar format.
  constexpr uint64_t kMaxMember = (uint64_t{1} << 33) - 1;
  for (const auto& [name, content] : files) {
    if (content.size() > kMaxMember) {
      return MakeError(ErrorCode::kIo, path + ": cannot write " + name + ": it would take " +
                                           std::to_string(content.size()) +
                                           " bytes, more than a tar member of a .cubex can hold");
    }
  }
  if (archive_write_set_format_ustar(a.get()) != ARCHIVE_OK ||
      archive_write_open_filename(a.get(), temporary.c_str()) != ARCHIVE_OK) {
    return fail("cannot create");
  }
  std::unique_ptr<archive_entry, decltype(&archive_entry_free)> entry(archive_entry_new(),
                                                                      &archive_entry_free);
  const time_t now = std::time(nullptr);
  for (const auto& [name, content] : files) {
    archive_entry_clear(entry.get());
    archive_entry_set_pathname(entry.get(), name.c_str());
    archive_entry_set_size(entry.get(), static_cast<la_int64_t>(content.size()));
    archive_entry_set_filetype(entry.get(), AE_IFREG);
    archive_entry_set_perm(entry.get(), 0644);
    archive_entry_set_mtime(entry.get(), now, 0);
    if (archive_write_header(a.get(), entry.get()) != ARCHIVE_OK ||
        archive_write_data(a.get(), content.data(), content.size()) !=
            static_cast<la_ssize_t>(content.size())) {
      return fail("cannot write " + name);
    }
  }
  if (archive_write_close(a.get()) != ARCHIVE_OK) return fail("cannot write");
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) return MakeError(ErrorCode::kIo, path + ": cannot write: " + ec.message());
  return OkStatus();
}

}  // namespace

Status WriteCubex(const Report& report, const trace::Trace& trace, const std::string& path) {
  CubeIds ids;
  AnchorBuilder anchor(report, trace);
  std::vector<std::pair<std::string, std::string>> files;
  files.emplace_back("anchor.xml", anchor.Build(ids));
  std::vector<std::vector<const Value*>> by_metric(analysis::kMetricCount);
  for (const Value& v : report.values) {
    if (v.callpath < ids.cnode.size() && v.location < ids.location.size()) {
      by_metric[static_cast<size_t>(v.metric)].push_back(&v);
    }
  }
  uint32_t id = 0;
  for (const analysis::MetricInfo& m : analysis::AllMetrics()) {
    const std::vector<const Value*>& values = by_metric[static_cast<size_t>(m.id)];
    // A metric without values has no files, as in Score-P's profiles: Cube reads it as zero.
    if (!values.empty()) {
      auto [index, data] = MetricFiles(m, values, ids);
      files.emplace_back(std::to_string(id) + ".index", std::move(index));
      files.emplace_back(std::to_string(id) + ".data", std::move(data));
    }
    ++id;
  }
  return WriteTar(path, files);
}

}  // namespace cw::report
