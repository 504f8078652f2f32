// The hooks of MPI-IO: file handles and their operations, as OTF2's I/O records (hooks.h).
//
// Matching ids of operations come from the request counter, so that a non-blocking operation's
// id is its request's, and ids never repeat on a handle.
#include <string>

#include "measure/runtime/hooks.h"
#include "measure/runtime/recorder.h"

namespace cw::measure::hook {
namespace {

// The local id of `fh`, with its definition line written on first use: `name` and the local
// id of its communicator when the open was seen, "" and -1 otherwise.
uint32_t DefineFile(MPI_File fh, const std::string& name, long long comm) {
  State& s = S();
  const uint32_t id = s.next_local_file++;
  s.files[fh] = id;
  // The name ends the line: a line break in it would start another definition.
  std::string one_line = name;
  for (char& c : one_line) {
    if (c == '\n' || c == '\r') c = '?';
  }
  s.log.Define("file " + std::to_string(id) + " " + std::to_string(comm) + " " + one_line);
  return id;
}

uint32_t FileId(MPI_File fh) {
  State& s = S();
  auto it = s.files.find(fh);
  return it != s.files.end() ? it->second : DefineFile(fh, "", -1);
}

uint8_t AccessMode(int amode) {
  if (amode & MPI_MODE_RDWR) return OTF2_IO_ACCESS_MODE_READ_WRITE;
  if (amode & MPI_MODE_WRONLY) return OTF2_IO_ACCESS_MODE_WRITE_ONLY;
  return OTF2_IO_ACCESS_MODE_READ_ONLY;
}

uint32_t CreationFlags(int amode) {
  uint32_t flags = OTF2_IO_CREATION_FLAG_NONE;
  if (amode & MPI_MODE_CREATE) flags |= OTF2_IO_CREATION_FLAG_CREATE;
  if (amode & MPI_MODE_EXCL) flags |= OTF2_IO_CREATION_FLAG_EXCLUSIVE;
  if (amode & MPI_MODE_UNIQUE_OPEN) flags |= OTF2_IO_CREATION_FLAG_UNIQUE;
  if (amode & MPI_MODE_SEQUENTIAL) flags |= OTF2_IO_CREATION_FLAG_NO_SEEK;
  return flags;
}

uint32_t StatusFlags(int amode) {
  uint32_t flags = OTF2_IO_STATUS_FLAG_NONE;
  if (amode & MPI_MODE_APPEND) flags |= OTF2_IO_STATUS_FLAG_APPEND;
  if (amode & MPI_MODE_DELETE_ON_CLOSE) flags |= OTF2_IO_STATUS_FLAG_DELETE_ON_CLOSE;
  return flags;
}

uint32_t OperationFlags(IoAccess access, bool non_blocking) {
  uint32_t flags = access == IoAccess::kCollective ? OTF2_IO_OPERATION_FLAG_COLLECTIVE
                                                   : OTF2_IO_OPERATION_FLAG_NONE;
  return non_blocking ? flags | OTF2_IO_OPERATION_FLAG_NON_BLOCKING : flags;
}

// Records the operation's begin at the call's Enter and returns its matching id.
uint64_t Begin(uint32_t file, uint8_t mode, uint32_t flags, uint64_t bytes) {
  const uint64_t id = S().next_request++;
  RecordAtEnter(RawKind::kIoOperationBegin, file, flags, mode, bytes, id);
  return id;
}

}  // namespace

void FileOpened(MPI_Comm comm, const char* filename, int amode, const MPI_File* fh) {
  if (fh == nullptr || *fh == MPI_FILE_NULL) return;
  const uint32_t id = DefineFile(*fh, filename != nullptr ? filename : "", CommId(comm));
  Record(RawKind::kIoCreateHandle, id, AccessMode(amode), StatusFlags(amode), CreationFlags(amode));
}

void SaveFile(const MPI_File* fh) {
  State& s = S();
  auto it = fh != nullptr ? s.files.find(*fh) : s.files.end();
  T().saved_file = it != s.files.end() ? it->second : kNoRank;
  if (it != s.files.end()) s.files.erase(it);  // MPI may give the next file the same handle
}

void FileClosed() {
  if (T().saved_file != kNoRank) Record(RawKind::kIoDestroyHandle, T().saved_file);
  T().saved_file = kNoRank;
}

void FileIo(MPI_File fh, IoMode mode, IoAccess access, int count, MPI_Datatype type,
            const MPI_Status* status) {
  const uint32_t file = FileId(fh);
  const uint64_t id =
      Begin(file, static_cast<uint8_t>(mode), OperationFlags(access, false), Bytes(count, type));
  Record(RawKind::kIoOperationComplete, file, 0, 0, ReceivedBytes(status), id);
}

void FileIoStarted(MPI_File fh, IoMode mode, IoAccess access, int count, MPI_Datatype type,
                   const MPI_Request* request) {
  const uint32_t file = FileId(fh);
  PendingRequest p;
  p.id = Begin(file, static_cast<uint8_t>(mode), OperationFlags(access, true), Bytes(count, type));
  p.comm = file;
  p.kind = RequestKind::kFileIo;
  S().requests.Add(*request, p);
  Record(RawKind::kIoOperationIssued, file, 0, 0, 0, p.id);
}

void FileIoBegun(MPI_File fh, IoMode mode, int count, MPI_Datatype type) {
  const uint32_t file = FileId(fh);
  const uint64_t id = Begin(file, static_cast<uint8_t>(mode),
                            OperationFlags(IoAccess::kCollective, true), Bytes(count, type));
  S().split_io[file] = id;
  Record(RawKind::kIoOperationIssued, file, 0, 0, 0, id);
}

void FileIoEnded(MPI_File fh, const MPI_Status* status) {
  const uint32_t file = FileId(fh);
  auto it = S().split_io.find(file);
  if (it == S().split_io.end()) return;  // its _begin was not recorded
  Record(RawKind::kIoOperationComplete, file, 0, 0, ReceivedBytes(status), it->second);
  S().split_io.erase(it);
}

void FileSynced(MPI_File fh) {
  const uint32_t file = FileId(fh);
  const uint64_t id =
      Begin(file, OTF2_IO_OPERATION_MODE_FLUSH, OperationFlags(IoAccess::kCollective, false), 0);
  Record(RawKind::kIoOperationComplete, file, 0, 0, 0, id);
}

}  // namespace cw::measure::hook
