#include "tests/common/cube_reader.h"

#include <archive.h>
#include <archive_entry.h>

#include <cstring>
#include <memory>
#include <set>

#include <pugixml.hpp>

namespace cw::test {
namespace {

Error Corrupt(const std::string& path, const std::string& what) {
  return Error(ErrorCode::kCorrupt, path + ": " + what);
}

Result<std::map<std::string, std::string>> ReadTar(const std::string& path) {
  std::unique_ptr<archive, decltype(&archive_read_free)> a(archive_read_new(), &archive_read_free);
  archive_read_support_format_tar(a.get());
  if (archive_read_open_filename(a.get(), path.c_str(), 1 << 16) != ARCHIVE_OK) {
    return tl::unexpected(Corrupt(path, archive_error_string(a.get())));
  }
  std::map<std::string, std::string> files;
  archive_entry* entry = nullptr;
  while (archive_read_next_header(a.get(), &entry) == ARCHIVE_OK) {
    std::string content(static_cast<size_t>(archive_entry_size(entry)), '\0');
    if (archive_read_data(a.get(), content.data(), content.size()) !=
        static_cast<la_ssize_t>(content.size())) {
      return tl::unexpected(
          Corrupt(path, "short member " + std::string(archive_entry_pathname(entry))));
    }
    files[archive_entry_pathname(entry)] = std::move(content);
  }
  return files;
}

void Structure(pugi::xml_node node, const std::string& path, CubeFile& out) {
  for (pugi::xml_node child : node.children()) {
    if (child.type() != pugi::node_element) continue;
    std::string name = child.name();
    std::string child_path = path;
    if (path.size() < name.size() + 1 ||
        path.compare(path.size() - name.size() - 1, std::string::npos, "/" + name) != 0) {
      child_path += "/" + name;
    }
    std::set<std::string>& attributes = out.structure[child_path];
    for (pugi::xml_attribute a : child.attributes()) attributes.insert(a.name());
    Structure(child, child_path, out);
  }
}

void Metrics(pugi::xml_node parent, const std::string& parent_name, CubeFile& out) {
  for (pugi::xml_node m : parent.children("metric")) {
    CubeMetric metric;
    metric.id = m.attribute("id").as_uint();
    metric.type = m.attribute("type").value();
    metric.uniq_name = m.child_value("uniq_name");
    metric.disp_name = m.child_value("disp_name");
    metric.dtype = m.child_value("dtype");
    metric.uom = m.child_value("uom");
    metric.parent = parent_name;
    out.metrics.push_back(metric);
    Metrics(m, metric.uniq_name, out);
  }
}

void Cnodes(pugi::xml_node parent, const std::string& prefix,
            const std::map<uint32_t, std::string>& regions, CubeFile& out) {
  for (pugi::xml_node c : parent.children("cnode")) {
    uint32_t id = c.attribute("id").as_uint();
    auto region = regions.find(c.attribute("calleeId").as_uint());
    std::string name =
        (prefix.empty() ? "" : prefix + "/") + (region == regions.end() ? "?" : region->second);
    if (out.cnodes.size() <= id) out.cnodes.resize(id + 1);
    out.cnodes[id] = name;
    Cnodes(c, name, regions, out);
  }
}

void System(pugi::xml_node node, CubeFile& out) {
  for (pugi::xml_node child : node.children("systemtreenode")) System(child, out);
  for (pugi::xml_node group : node.children("locationgroup")) {
    for (pugi::xml_node l : group.children("location")) {
      uint32_t id = l.attribute("Id").as_uint();
      if (out.locations.size() <= id) out.locations.resize(id + 1);
      out.locations[id] = CubeLocation{l.child_value("name"), group.child_value("name"),
                                       static_cast<uint32_t>(std::stoul(group.child_value("rank"))),
                                       static_cast<uint32_t>(std::stoul(l.child_value("rank")))};
    }
  }
}

template <typename T>
T Read(const std::string& bytes, size_t& at) {
  T value;
  std::memcpy(&value, bytes.data() + at, sizeof(T));
  at += sizeof(T);
  return value;
}

Status Values(const std::string& path, const CubeMetric& metric, const std::string& index,
              const std::string& data, CubeFile& out) {
  const std::string name = metric.uniq_name;
  if (index.compare(0, 11, "CUBEX.INDEX") != 0 || data.compare(0, 10, "CUBEX.DATA") != 0) {
    return tl::unexpected(Corrupt(path, name + ": bad index or data header"));
  }
  if (index.size() < 18) return tl::unexpected(Corrupt(path, name + ": short index"));
  size_t at = 11;
  if (Read<uint32_t>(index, at) != 1) return tl::unexpected(Corrupt(path, "byte order"));
  Read<uint16_t>(index, at);  // version
  const uint8_t format = Read<uint8_t>(index, at);
  std::vector<uint32_t> rows;
  if (format == 1) {
    uint32_t count = Read<uint32_t>(index, at);
    if (index.size() < at + 4ull * count) return tl::unexpected(Corrupt(path, name + ": index"));
    for (uint32_t i = 0; i < count; ++i) rows.push_back(Read<uint32_t>(index, at));
  } else {
    for (uint32_t c = 0; c < out.cnodes.size(); ++c) rows.push_back(c);
  }
  const size_t threads = out.locations.size();
  if (data.size() != 10 + rows.size() * threads * 8) {
    return tl::unexpected(Corrupt(path, name + ": data size does not match the index"));
  }
  const bool floating = metric.dtype.find("DOUBLE") != std::string::npos;
  at = 10;
  for (uint32_t cnode : rows) {
    for (uint32_t l = 0; l < threads; ++l) {
      double v = floating ? Read<double>(data, at) : static_cast<double>(Read<uint64_t>(data, at));
      if (v != 0) out.values[name][{cnode, l}] = v;
    }
  }
  return OkStatus();
}

// CubeLib's anchor parser is a flex scanner, stricter than XML: it knows each element by the
// literal text of its start tag. Elements without attributes must be written exactly `<name>`,
// and the empty-element form `<x/>` exists only for attr, dim and parameter (Score-P writes every
// other element as an open/close pair, and CubeLib rejects `<mirrors />` or a leaf `<cnode
// ... />`). pugixml accepts all of these, so the same rules are checked here on the text.
Status CheckCubeLexicalRules(const std::string& path, const std::string& anchor) {
  static const std::set<std::string> kSelfClosing = {"attr", "dim", "parameter"};
  static const std::set<std::string> kBare = {
      "class",      "cubeplinit", "descr",     "disp_name", "doc",  "dtype", "mangled_name",
      "mirrors",    "murl",       "name",      "paradigm",  "rank", "role",  "severity",
      "topologies", "type",       "uniq_name", "uom",       "url",  "val"};
  size_t at = 0;
  while ((at = anchor.find('<', at)) != std::string::npos) {
    const size_t end = anchor.find('>', at);
    if (end == std::string::npos)
      return tl::unexpected(Corrupt(path, "anchor.xml: unterminated tag"));
    const std::string tag = anchor.substr(at, end - at + 1);
    at = end + 1;
    if (tag.size() < 3 || tag[1] == '/' || tag[1] == '?' || tag[1] == '!') continue;
    const size_t name_end = tag.find_first_of(" \t\n/>", 1);
    const std::string name = tag.substr(1, name_end - 1);
    if (tag[tag.size() - 2] == '/' && kSelfClosing.count(name) == 0) {
      return tl::unexpected(
          Corrupt(path, "anchor.xml: CubeLib rejects the empty-element tag " + tag));
    }
    if (kBare.count(name) != 0 && tag != "<" + name + ">") {
      return tl::unexpected(Corrupt(
          path,
          "anchor.xml: CubeLib accepts only the literal start tag <" + name + ">, not " + tag));
    }
    if (name == "cube" && tag.rfind("<cube version=\"4.", 0) != 0) {
      return tl::unexpected(
          Corrupt(path, "anchor.xml: CubeLib needs the start tag <cube version=\"4.N\">"));
    }
  }
  return OkStatus();
}

}  // namespace

Result<CubeFile> ReadCubex(const std::string& path) {
  CW_ASSIGN_OR_RETURN(auto files, ReadTar(path));
  auto anchor = files.find("anchor.xml");
  if (anchor == files.end()) return tl::unexpected(Corrupt(path, "no anchor.xml"));
  CW_RETURN_IF_ERROR(CheckCubeLexicalRules(path, anchor->second));
  pugi::xml_document doc;
  pugi::xml_parse_result parsed = doc.load_string(anchor->second.c_str());
  if (!parsed)
    return tl::unexpected(Corrupt(path, std::string("anchor.xml: ") + parsed.description()));
  pugi::xml_node cube = doc.child("cube");
  CubeFile out;
  Structure(doc, "", out);
  Metrics(cube.child("metrics"), "", out);
  std::map<uint32_t, std::string> regions;
  for (pugi::xml_node r : cube.child("program").children("region")) {
    regions[r.attribute("id").as_uint()] = r.child_value("name");
  }
  Cnodes(cube.child("program"), "", regions, out);
  System(cube.child("system"), out);
  for (const CubeMetric& m : out.metrics) {
    if (m.dtype != "DOUBLE" && m.dtype != "UINT64" && m.dtype != "INT64" &&
        m.dtype != "MINDOUBLE" && m.dtype != "MAXDOUBLE") {
      continue;  // histograms and TAU atomics: not read here
    }
    auto index = files.find(std::to_string(m.id) + ".index");
    auto data = files.find(std::to_string(m.id) + ".data");
    if (index == files.end() && data == files.end()) continue;  // no values (Score-P omits them)
    if (index == files.end() || data == files.end()) {
      return tl::unexpected(Corrupt(path, "only half the files of metric " + m.uniq_name));
    }
    CW_RETURN_IF_ERROR(Values(path, m, index->second, data->second, out));
  }
  return out;
}

}  // namespace cw::test
