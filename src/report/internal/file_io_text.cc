#include "report/internal/file_io_text.h"

#include <algorithm>
#include <map>
#include <vector>

#include "report/text_summary.h"

namespace cw::report::internal {
namespace {

constexpr size_t kFilesShown = 5;

struct FileTotal {
  std::string name;
  uint64_t reads = 0, writes = 0, bytes_read = 0, bytes_written = 0;
  uint32_t locations = 0;
  uint32_t busiest = 0;  // the location that moved the most bytes
  uint64_t busiest_bytes = 0;
  uint64_t bytes() const { return bytes_read + bytes_written; }
};

std::string Plural(uint64_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

}  // namespace

void AppendFileIoLines(const Report& report, std::string& out) {
  if (report.file_io.empty()) return;
  std::map<std::string, FileTotal> by_name;
  FileTotal all;
  for (const FileIo& row : report.file_io) {
    FileTotal& f = by_name[row.file];
    f.name = row.file.empty() ? "(a file the trace does not name)" : row.file;
    for (FileTotal* t : {&f, &all}) {
      t->reads += row.reads;
      t->writes += row.writes;
      t->bytes_read += row.bytes_read;
      t->bytes_written += row.bytes_written;
    }
    ++f.locations;
    if (f.locations == 1 || row.bytes_read + row.bytes_written > f.busiest_bytes) {
      f.busiest = row.location;
      f.busiest_bytes = row.bytes_read + row.bytes_written;
    }
  }
  out += "File I/O: " + Plural(all.reads, "read") + " and " + Plural(all.writes, "write") + " on " +
         Plural(by_name.size(), "file") + ": " + FormatBytes(double(all.bytes_read)) + " read, " +
         FormatBytes(double(all.bytes_written)) + " written\n";
  std::vector<FileTotal> files;
  for (auto& [name, f] : by_name) files.push_back(f);
  std::stable_sort(files.begin(), files.end(),
                   [](const FileTotal& a, const FileTotal& b) { return a.bytes() > b.bytes(); });
  for (size_t i = 0; i < files.size() && i < kFilesShown; ++i) {
    const FileTotal& f = files[i];
    out += "  " + f.name + ": " + FormatBytes(double(f.bytes_read)) + " read, " +
           FormatBytes(double(f.bytes_written)) + " written by " + Plural(f.locations, "location") +
           "; most by " + report.LocationLabel(f.busiest) + " (" +
           FormatBytes(double(f.busiest_bytes)) + ")\n";
  }
  if (files.size() > kFilesShown) {
    out += "  ... and " + Plural(files.size() - kFilesShown, "other file") +
           " (report.json lists them all)\n";
  }
}

}  // namespace cw::report::internal
