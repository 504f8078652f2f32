#include "report/internal/file_io_text.h"

#include "report/text_summary.h"

namespace cw::report::internal {
namespace {

constexpr size_t kFilesShown = 5;

std::string Plural(uint64_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

}  // namespace

void AppendFileIoLines(const Report& report, std::string& out) {
  if (report.file_totals.empty()) return;
  const FileTotal all = report.FileIoTotal();
  out += "File I/O: " + Plural(all.reads, "read") + " and " + Plural(all.writes, "write") + " on " +
         Plural(report.file_totals.size(), "file") + ": " + FormatBytes(double(all.bytes_read)) +
         " read, " + FormatBytes(double(all.bytes_written)) + " written\n";
  for (size_t i = 0; i < report.file_totals.size() && i < kFilesShown; ++i) {
    const FileTotal& f = report.file_totals[i];
    out += "  " + (f.file.empty() ? std::string("(a file the trace does not name)") : f.file) +
           ": " + FormatBytes(double(f.bytes_read)) + " read, " +
           FormatBytes(double(f.bytes_written)) + " written by " + Plural(f.locations, "location") +
           "; most by " + report.LocationLabel(f.busiest) + " (" +
           FormatBytes(double(f.busiest_bytes)) + ")\n";
  }
  if (report.file_totals.size() > kFilesShown) {
    out += "  ... and " + Plural(report.file_totals.size() - kFilesShown, "other file") +
           " (report.json lists them all)\n";
  }
}

}  // namespace cw::report::internal
