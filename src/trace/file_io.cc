#include "trace/file_io.h"

#include <map>

#include "trace/event_kind.h"

namespace cw::trace {
namespace {

uint32_t FileOfHandle(const Definitions& defs, uint32_t handle) {
  return handle < defs.io_handles.size() && defs.io_handles[handle].defined
             ? defs.io_handles[handle].file
             : kNone;
}

}  // namespace

std::vector<FileIoUse> FileIoOf(const Trace& trace, uint32_t location) {
  const LocationEvents& ev = trace.location(location);
  std::span<const EventKind> kinds = ev.kinds();
  std::map<uint32_t, FileIoUse> by_file;
  IoOperationPairing<uint32_t> open;  // the mode of each operation begun and not completed
  for (uint32_t i = 0; i < kinds.size(); ++i) {
    if (kinds[i] == EventKind::kIoOperationBegin) {
      const GenericPayload& p = ev.generic(i);
      const uint32_t mode = IoOperationMode(p);
      if (mode != kIoModeRead && mode != kIoModeWrite) continue;
      FileIoUse& use = by_file[FileOfHandle(trace.defs, p.c)];
      ++(mode == kIoModeRead ? use.reads : use.writes);
      open.Begin(p, mode);
    } else if (kinds[i] == EventKind::kIoOperationComplete) {
      const GenericPayload& p = ev.generic(i);
      const uint32_t* mode = open.Complete(p);
      if (mode == nullptr) continue;
      FileIoUse& use = by_file[FileOfHandle(trace.defs, p.c)];
      (*mode == kIoModeRead ? use.bytes_read : use.bytes_written) += p.a;
    }
  }
  std::vector<FileIoUse> result;
  result.reserve(by_file.size());
  for (auto& [file, use] : by_file) {
    use.location = location;
    use.file = file;
    result.push_back(use);
  }
  return result;
}

}  // namespace cw::trace
