#include "otf2_writer/archive_writer.h"

#include <algorithm>
#include <filesystem>

#include <otf2/OTF2_Pthread_Locks.h>
#include <otf2/otf2.h>

namespace cw::otf2_writer {
namespace {

// libotf2 writes its chunks out whenever its memory for a location fills (128 chunks). With a
// post-flush callback it would also insert a BUFFER_FLUSH record there, one that the location's
// declared event count leaves out; these flushes happen while the trace is written, not while
// the program runs, so there is nothing to show and no callback.
OTF2_FlushType PreFlush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) { return OTF2_FLUSH; }
const OTF2_FlushCallbacks kFlushCallbacks = {PreFlush, nullptr};

// Buffering::flush_records (other writers' archives, imitated by tests).
OTF2_TimeStamp PostFlushRecord(void* buffering, OTF2_FileType, OTF2_LocationRef) {
  return static_cast<const ArchiveWriter::Buffering*>(buffering)->flush_record_time;
}
const OTF2_FlushCallbacks kFlushRecordCallbacks = {PreFlush, PostFlushRecord};

// The most bytes libotf2 writes for one member of a group (a compressed uint64).
constexpr uint64_t kMaxBytesPerMember = 9;
// Room a definition record needs besides its string or its members.
constexpr uint64_t kRecordOverhead = 256;

// `s` cut to at most `limit` bytes, at a UTF-8 character boundary if there is one (bytes that
// are no UTF-8 are cut at the limit).
std::string Shortened(const std::string& s, size_t limit) {
  if (s.size() <= limit) return s;
  size_t end = limit;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  return s.substr(0, end > 0 ? end : limit);
}

Status Check(OTF2_ErrorCode rc, const std::string& what) {
  if (rc == OTF2_SUCCESS) return OkStatus();
  return MakeError(ErrorCode::kIo, what + ": " + OTF2_Error_GetDescription(rc));
}

}  // namespace

Result<std::unique_ptr<ArchiveWriter>> ArchiveWriter::Create(const std::string& directory,
                                                             const std::string& name,
                                                             const std::string& creator) {
  return Create(directory, name, creator, Buffering{});
}

Result<std::unique_ptr<ArchiveWriter>> ArchiveWriter::Create(const std::string& directory,
                                                             const std::string& name,
                                                             const std::string& creator,
                                                             const Buffering& buffering) {
  std::error_code ec;
  std::filesystem::create_directories(directory, ec);
  if (ec) return MakeError(ErrorCode::kIo, "cannot create " + directory + ": " + ec.message());
  std::unique_ptr<ArchiveWriter> writer(new ArchiveWriter());
  writer->buffering_ = buffering;
  writer->buffering_.definition_chunk_bytes = std::clamp<uint64_t>(
      buffering.definition_chunk_bytes, OTF2_CHUNK_SIZE_MIN, OTF2_CHUNK_SIZE_MAX);
  writer->archive_ = OTF2_Archive_Open(
      directory.c_str(), name.c_str(), OTF2_FILEMODE_WRITE, buffering.event_chunk_bytes,
      writer->buffering_.definition_chunk_bytes, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (writer->archive_ == nullptr) {
    return MakeError(ErrorCode::kIo, "cannot create an OTF2 archive in " + directory);
  }
  writer->anchor_path_ = directory + "/" + name + ".otf2";
  if (buffering.flush_records) {
    OTF2_Archive_SetFlushCallbacks(writer->archive_, &kFlushRecordCallbacks, &writer->buffering_);
  } else {
    OTF2_Archive_SetFlushCallbacks(writer->archive_, &kFlushCallbacks, nullptr);
  }
  OTF2_Archive_SetSerialCollectiveCallbacks(writer->archive_);
  // Event writers of different locations may be used from different threads (the exporter
  // writes ranks in parallel): libotf2 then locks what they share in the archive.
  CW_RETURN_IF_ERROR(Check(OTF2_Pthread_Archive_SetLockingCallbacks(writer->archive_, nullptr),
                           "setting the archive's locking callbacks"));
  OTF2_Archive_SetCreator(writer->archive_, creator.c_str());
  CW_RETURN_IF_ERROR(Check(OTF2_Archive_OpenEvtFiles(writer->archive_), "opening event files"));
  return writer;
}

uint64_t ArchiveWriter::DefinitionChunkBytes(uint64_t largest_group) {
  // A compressed member takes at most 9 bytes; 64 KiB more for the record's other fields and
  // for strings, which are shortened only beyond what the chunk holds.
  const uint64_t needed = kMaxBytesPerMember * largest_group + 64 * 1024;
  uint64_t chunk = OTF2_CHUNK_SIZE_MIN;
  while (chunk < needed && chunk < OTF2_CHUNK_SIZE_MAX) chunk *= 2;
  return chunk;
}

Status ArchiveWriter::SetProperty(const std::string& name, const std::string& value) {
  return Check(OTF2_Archive_SetProperty(archive_, name.c_str(), value.c_str(), true),
               "setting the archive property " + name);
}

ArchiveWriter::~ArchiveWriter() {
  if (!closed_ && archive_ != nullptr) {
    writers_.clear();
    OTF2_Archive_Close(archive_);
  }
}

uint32_t ArchiveWriter::DefineString(std::string_view s) {
  auto [it, inserted] =
      string_ids_.try_emplace(std::string(s), static_cast<uint32_t>(strings_.size()));
  if (inserted) strings_.emplace_back(s);
  return it->second;
}

uint32_t ArchiveWriter::DefineRegion(std::string_view name, OTF2_RegionRole role,
                                     OTF2_Paradigm paradigm, std::string_view source_file,
                                     uint32_t begin_line) {
  uint32_t file = source_file.empty() ? OTF2_UNDEFINED_UINT32 : DefineString(source_file);
  regions_.push_back(RegionDef{DefineString(name), role, paradigm, file, begin_line});
  return static_cast<uint32_t>(regions_.size() - 1);
}

uint32_t ArchiveWriter::DefineSourceCodeLocation(std::string_view file, uint32_t line) {
  const uint32_t name = DefineString(file);
  auto [it, inserted] = source_location_ids_.try_emplace(
      {name, line}, static_cast<uint32_t>(source_locations_.size()));
  if (inserted) source_locations_.push_back(SourceCodeLocationDef{name, line});
  return it->second;
}

uint32_t ArchiveWriter::DefineCallingContext(uint32_t region, uint32_t source_location,
                                             uint32_t parent) {
  calling_contexts_.push_back(CallingContextDef{region, source_location, parent});
  return static_cast<uint32_t>(calling_contexts_.size() - 1);
}

uint32_t ArchiveWriter::DefineInterruptGenerator(std::string_view name, uint64_t period) {
  interrupt_generators_.push_back(InterruptGeneratorDef{DefineString(name), period});
  return static_cast<uint32_t>(interrupt_generators_.size() - 1);
}

uint32_t ArchiveWriter::DefineSystemTreeNode(std::string_view name, std::string_view class_name,
                                             uint32_t parent) {
  nodes_.push_back(NodeDef{DefineString(name), DefineString(class_name), parent});
  return static_cast<uint32_t>(nodes_.size() - 1);
}

uint32_t ArchiveWriter::DefineLocationGroup(std::string_view name, uint32_t system_tree_parent) {
  location_group_names_.push_back(DefineString(name));
  location_group_parents_.push_back(system_tree_parent);
  return static_cast<uint32_t>(location_group_names_.size() - 1);
}

uint64_t ArchiveWriter::DefineLocation(std::string_view name, uint32_t location_group,
                                       OTF2_LocationType type, std::optional<uint64_t> otf2_id) {
  const uint64_t index = locations_.size();
  locations_.push_back(
      LocationDef{DefineString(name), location_group, type, otf2_id.value_or(index)});
  return index;
}

uint32_t ArchiveWriter::DefineGroup(std::string_view name, OTF2_GroupType type,
                                    OTF2_Paradigm paradigm, const std::vector<uint64_t>& members) {
  groups_.push_back(GroupDef{DefineString(name), type, paradigm, members});
  return static_cast<uint32_t>(groups_.size() - 1);
}

uint32_t ArchiveWriter::DefineComm(std::string_view name, uint32_t group, uint32_t parent) {
  comms_.push_back(CommDef{DefineString(name), group, parent});
  return static_cast<uint32_t>(comms_.size() - 1);
}

uint32_t ArchiveWriter::DefineMpiInterComm(std::string_view name,
                                           const std::vector<uint64_t>& group_a,
                                           const std::vector<uint64_t>& group_b, uint32_t parent) {
  const uint32_t a = DefineGroup("", OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, group_a);
  const uint32_t b = DefineGroup("", OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, group_b);
  comms_.push_back(CommDef{DefineString(name), a, parent, b});
  return static_cast<uint32_t>(comms_.size() - 1);
}

uint32_t ArchiveWriter::DefineRmaWindow(std::string_view name, uint32_t comm,
                                        OTF2_RmaWinFlag flags) {
  windows_.push_back(WindowDef{DefineString(name), comm, flags});
  return static_cast<uint32_t>(windows_.size() - 1);
}

uint32_t ArchiveWriter::DefineAttribute(std::string_view name, uint8_t otf2_type) {
  attributes_.push_back(AttributeDef{DefineString(name), otf2_type});
  return static_cast<uint32_t>(attributes_.size() - 1);
}

uint32_t ArchiveWriter::DefineIoFile(std::string_view name, uint32_t scope) {
  auto [it, inserted] = io_file_ids_.try_emplace({std::string(name), scope}, 0);
  if (inserted) {
    it->second = static_cast<uint32_t>(io_files_.size());
    io_files_.push_back(IoFileDef{DefineString(name), scope});
  }
  return it->second;
}

uint32_t ArchiveWriter::DefineMpiIoHandle(std::string_view name, uint32_t file, uint32_t comm) {
  io_handles_.push_back(IoHandleDef{DefineString(name), file, comm});
  return static_cast<uint32_t>(io_handles_.size() - 1);
}

uint32_t ArchiveWriter::DefineMpiWorld(const std::vector<uint64_t>& locations) {
  mpi_world_group_ = DefineGroup("", OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI, locations);
  std::vector<uint64_t> ranks(locations.size());
  for (uint64_t r = 0; r < ranks.size(); ++r) ranks[r] = r;
  return DefineMpiComm("MPI_COMM_WORLD", ranks, OTF2_UNDEFINED_UINT32);
}

uint32_t ArchiveWriter::DefineMpiComm(std::string_view name,
                                      const std::vector<uint64_t>& world_ranks, uint32_t parent) {
  uint32_t group = DefineGroup("", OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, world_ranks);
  return DefineComm(name, group, parent);
}

uint32_t ArchiveWriter::DefineParadigmComm(std::string_view name, OTF2_Paradigm paradigm,
                                           const std::vector<uint64_t>& locations,
                                           const std::vector<uint64_t>& ranks, uint32_t parent) {
  if (paradigm_locations_.count(paradigm) == 0) {
    paradigm_locations_[paradigm] =
        DefineGroup("", OTF2_GROUP_TYPE_COMM_LOCATIONS, paradigm, locations);
  }
  const uint32_t group = DefineGroup("", OTF2_GROUP_TYPE_COMM_GROUP, paradigm, ranks);
  return DefineComm(name, group, parent);
}

EventWriter& ArchiveWriter::Events(uint64_t location) {
  std::unique_ptr<EventWriter>& writer = writers_[location];
  if (!writer)
    writer = std::make_unique<EventWriter>(OTF2_Archive_GetEvtWriter(archive_, Otf2Id(location)));
  return *writer;
}

Status ArchiveWriter::CloseEvents(uint64_t location) {
  // A lookup only: every writer was created before the threads began to close theirs.
  const auto it = writers_.find(location);
  if (it == writers_.end()) return OkStatus();
  const EventWriter& writer = *it->second;
  {
    std::lock_guard<std::mutex> lock(closing_);
    if (!closed_writers_.insert(location).second) return OkStatus();
    event_counts_[location] = writer.events_written();
    end_time_ = std::max(end_time_, writer.last_time());
  }
  return Check(OTF2_Archive_CloseEvtWriter(archive_, writer.raw()),
               "closing the event writer of location " + std::to_string(location));
}

Status ArchiveWriter::WriteDefinitions(uint64_t resolution, uint64_t global_offset) {
  OTF2_GlobalDefWriter* defs = OTF2_Archive_GetGlobalDefWriter(archive_);
  if (defs == nullptr) return MakeError(ErrorCode::kIo, "cannot write global definitions");
  const uint32_t empty = DefineString("");
  OTF2_GlobalDefWriter_WriteClockProperties(
      defs, resolution, global_offset, end_time_ > global_offset ? end_time_ - global_offset : 0,
      OTF2_UNDEFINED_TIMESTAMP);
  // A string longer than a definition chunk holds (a demangled name of a deeply nested
  // template) is shortened to fit: libotf2 refuses a record larger than its chunk.
  const uint64_t chunk = buffering_.definition_chunk_bytes;
  for (uint32_t i = 0; i < strings_.size(); ++i) {
    const std::string& full = strings_[i];
    const bool too_long = full.size() + kRecordOverhead > chunk;
    const std::string fitted = too_long ? Shortened(full, chunk - kRecordOverhead) : std::string();
    CW_RETURN_IF_ERROR(
        Check(OTF2_GlobalDefWriter_WriteString(defs, i, too_long ? fitted.c_str() : full.c_str()),
              "writing string " + std::to_string(i)));
  }
  for (uint32_t i = 0; i < nodes_.size(); ++i) {
    OTF2_GlobalDefWriter_WriteSystemTreeNode(defs, i, nodes_[i].name, nodes_[i].class_name,
                                             nodes_[i].parent);
  }
  for (uint32_t i = 0; i < location_group_names_.size(); ++i) {
    OTF2_GlobalDefWriter_WriteLocationGroup(
        defs, i, location_group_names_[i], OTF2_LOCATION_GROUP_TYPE_PROCESS,
        location_group_parents_[i], OTF2_UNDEFINED_LOCATION_GROUP);
  }
  for (uint64_t i = 0; i < locations_.size(); ++i) {
    auto it = event_counts_.find(i);
    uint64_t events = it == event_counts_.end() ? 0 : it->second;
    if (auto declared = declared_.find(i); declared != declared_.end()) events = declared->second;
    const auto id = declared_ids_.find(i);
    OTF2_GlobalDefWriter_WriteLocation(defs, id == declared_ids_.end() ? Otf2Id(i) : id->second,
                                       locations_[i].name, locations_[i].type, events,
                                       locations_[i].group);
  }
  for (uint32_t i = 0; i < regions_.size(); ++i) {
    const RegionDef& r = regions_[i];
    OTF2_GlobalDefWriter_WriteRegion(defs, i, r.name, r.name, empty, r.role, r.paradigm,
                                     OTF2_REGION_FLAG_NONE, r.file, r.begin_line, 0);
  }
  for (uint32_t i = 0; i < source_locations_.size(); ++i) {
    OTF2_GlobalDefWriter_WriteSourceCodeLocation(defs, i, source_locations_[i].file,
                                                 source_locations_[i].line);
  }
  for (uint32_t i = 0; i < calling_contexts_.size(); ++i) {
    const CallingContextDef& c = calling_contexts_[i];
    OTF2_GlobalDefWriter_WriteCallingContext(defs, i, c.region, c.source_location, c.parent);
  }
  for (uint32_t i = 0; i < interrupt_generators_.size(); ++i) {
    const InterruptGeneratorDef& g = interrupt_generators_[i];
    OTF2_GlobalDefWriter_WriteInterruptGenerator(
        defs, i, g.name, OTF2_INTERRUPT_GENERATOR_MODE_TIME, OTF2_BASE_DECIMAL, -9, g.period);
  }
  for (uint32_t i = 0; i < groups_.size(); ++i) {
    const GroupDef& g = groups_[i];
    std::vector<uint64_t> members = g.members;
    if (g.type == OTF2_GROUP_TYPE_LOCATIONS || g.type == OTF2_GROUP_TYPE_COMM_LOCATIONS) {
      for (uint64_t& m : members) m = Otf2Id(m);
    }
    if (kMaxBytesPerMember * members.size() + kRecordOverhead > chunk) {
      return MakeError(ErrorCode::kInvalidArgument,
                       "group " + std::to_string(i) + " has " + std::to_string(members.size()) +
                           " members, more than a definition chunk of " + std::to_string(chunk) +
                           " bytes holds (ArchiveWriter::DefinitionChunkBytes)");
    }
    CW_RETURN_IF_ERROR(Check(
        OTF2_GlobalDefWriter_WriteGroup(defs, i, g.name, g.type, g.paradigm, OTF2_GROUP_FLAG_NONE,
                                        static_cast<uint32_t>(members.size()), members.data()),
        "writing group " + std::to_string(i)));
  }
  for (uint32_t i = 0; i < comms_.size(); ++i) {
    const CommDef& c = comms_[i];
    if (c.remote_group != OTF2_UNDEFINED_GROUP) {
      OTF2_GlobalDefWriter_WriteInterComm(defs, i, c.name, c.group, c.remote_group, c.parent,
                                          OTF2_COMM_FLAG_NONE);
    } else {
      OTF2_GlobalDefWriter_WriteComm(defs, i, c.name, c.group, c.parent, OTF2_COMM_FLAG_NONE);
    }
  }
  for (uint32_t i = 0; i < windows_.size(); ++i) {
    OTF2_GlobalDefWriter_WriteRmaWin(defs, i, windows_[i].name, windows_[i].comm,
                                     windows_[i].flags);
  }
  for (uint32_t i = 0; i < attributes_.size(); ++i) {
    OTF2_GlobalDefWriter_WriteAttribute(defs, i, attributes_[i].name, empty, attributes_[i].type);
  }
  WriteIoDefinitions(defs);
  return OkStatus();
}

void ArchiveWriter::WriteIoDefinitions(OTF2_GlobalDefWriter* defs) {
  if (io_handles_.empty()) return;
  // Score-P's MPI I/O paradigm: identification "MPI-IO", name "MPI I/O", parallel.
  constexpr OTF2_IoParadigmRef kMpiIo = 0;
  OTF2_GlobalDefWriter_WriteIoParadigm(defs, kMpiIo, DefineString("MPI-IO"),
                                       DefineString("MPI I/O"), OTF2_IO_PARADIGM_CLASS_PARALLEL,
                                       OTF2_IO_PARADIGM_FLAG_NONE, 0, nullptr, nullptr, nullptr);
  for (uint32_t i = 0; i < io_files_.size(); ++i) {
    OTF2_GlobalDefWriter_WriteIoRegularFile(defs, i, io_files_[i].name, io_files_[i].scope);
  }
  for (uint32_t i = 0; i < io_handles_.size(); ++i) {
    const IoHandleDef& h = io_handles_[i];
    OTF2_GlobalDefWriter_WriteIoHandle(defs, i, h.name, h.file, kMpiIo, OTF2_IO_HANDLE_FLAG_NONE,
                                       h.comm, OTF2_UNDEFINED_IO_HANDLE);
  }
}

void ArchiveWriter::AddClockOffset(uint64_t location, uint64_t time, int64_t offset) {
  clock_offsets_[location].emplace_back(time, offset);
}

Status ArchiveWriter::Close(uint64_t resolution, uint64_t global_offset) {
  if (closed_) return OkStatus();
  // Strings that the definitions themselves need must exist before they are written.
  DefineString("");
  if (!io_handles_.empty()) {
    DefineString("MPI-IO");
    DefineString("MPI I/O");
  }
  for (const auto& entry : writers_) CW_RETURN_IF_ERROR(CloseEvents(entry.first));
  CW_RETURN_IF_ERROR(Check(OTF2_Archive_CloseEvtFiles(archive_), "closing event files"));
  // Empty local definition files, as every OTF2 writer leaves them.
  CW_RETURN_IF_ERROR(Check(OTF2_Archive_OpenDefFiles(archive_), "opening definition files"));
  for (uint64_t loc = 0; loc < locations_.size(); ++loc) {
    OTF2_DefWriter* local = OTF2_Archive_GetDefWriter(archive_, Otf2Id(loc));
    if (local == nullptr) continue;
    auto offsets = clock_offsets_.find(loc);
    if (offsets != clock_offsets_.end()) {
      for (const auto& [time, offset] : offsets->second) {
        OTF2_DefWriter_WriteClockOffset(local, time, offset, 0.0);
      }
    }
    OTF2_Archive_CloseDefWriter(archive_, local);
  }
  CW_RETURN_IF_ERROR(Check(OTF2_Archive_CloseDefFiles(archive_), "closing definition files"));
  CW_RETURN_IF_ERROR(WriteDefinitions(resolution, global_offset));
  writers_.clear();
  closed_ = true;
  return Check(OTF2_Archive_Close(archive_), "closing the archive");
}

}  // namespace cw::otf2_writer
