#include "testing/scenario.h"

#include <signal.h>
#include <unistd.h>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <vector>

#include "otf2_writer/archive_writer.h"
#include "trace/collective_senders.h"
#include "trace/probe_attributes.h"

namespace cw::testing {
namespace {

[[noreturn]] void Die(const std::string& message) {
  std::fprintf(stderr, "scenario: %s\n", message.c_str());
  std::abort();
}

bool Contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

// OpenSHMEM routines' roles as causeway's tracer gives them.
OTF2_RegionRole ShmemRoleOf(const std::string& name) {
  if (Contains(name, "barrier") || Contains(name, "sync")) return OTF2_REGION_ROLE_BARRIER;
  if (Contains(name, "broadcast")) return OTF2_REGION_ROLE_COLL_ONE2ALL;
  if (Contains(name, "collect") || Contains(name, "_to_all") || Contains(name, "alltoall"))
    return OTF2_REGION_ROLE_COLL_ALL2ALL;
  if (Contains(name, "atomic")) return OTF2_REGION_ROLE_ATOMIC;
  if (Contains(name, "lock") || Contains(name, "wait") || Contains(name, "quiet") ||
      Contains(name, "fence"))
    return OTF2_REGION_ROLE_FUNCTION;
  if (Contains(name, "put") || Contains(name, "get") || Contains(name, "_p") ||
      Contains(name, "_g"))
    return OTF2_REGION_ROLE_RMA;
  return OTF2_REGION_ROLE_FUNCTION;
}

OTF2_RegionRole RoleOf(const std::string& name) {
  if (name.rfind("shmem_", 0) == 0) return ShmemRoleOf(name);
  // Loops as include/causeway's loop API records them: "loop:NAME" is the loop's region,
  // "NAME iteration" its iteration marker.
  if (name.rfind("loop:", 0) == 0) return OTF2_REGION_ROLE_LOOP;
  if (name.size() > 10 && name.compare(name.size() - 10, 10, " iteration") == 0) {
    return OTF2_REGION_ROLE_ARTIFICIAL;
  }
  if (name == "MPI_Barrier" || name == "MPI_Ibarrier") return OTF2_REGION_ROLE_BARRIER;
  for (const char* one2all : {"MPI_Bcast", "MPI_Scatter", "MPI_Scatterv"}) {
    if (name == one2all) return OTF2_REGION_ROLE_COLL_ONE2ALL;
  }
  for (const char* all2one : {"MPI_Reduce", "MPI_Gather", "MPI_Gatherv"}) {
    if (name == all2one) return OTF2_REGION_ROLE_COLL_ALL2ONE;
  }
  for (const char* all2all : {"MPI_Allreduce", "MPI_Allgather", "MPI_Allgatherv", "MPI_Alltoall",
                              "MPI_Alltoallv", "MPI_Reduce_scatter"}) {
    if (name == all2all) return OTF2_REGION_ROLE_COLL_ALL2ALL;
  }
  if (name == "MPI_Scan" || name == "MPI_Exscan") return OTF2_REGION_ROLE_COLL_OTHER;
  for (const char* p2p : {"MPI_Send", "MPI_Ssend", "MPI_Bsend", "MPI_Rsend", "MPI_Isend",
                          "MPI_Issend", "MPI_Recv", "MPI_Irecv", "MPI_Sendrecv", "MPI_Probe",
                          "MPI_Iprobe", "MPI_Mprobe", "MPI_Improbe", "MPI_Mrecv", "MPI_Imrecv"}) {
    if (name == p2p) return OTF2_REGION_ROLE_POINT2POINT;
  }
  return OTF2_REGION_ROLE_FUNCTION;
}

}  // namespace

RankScript& RankScript::Add(Record record) {
  records_.push_back(std::move(record));
  return *this;
}

RankScript& RankScript::Enter(uint64_t t, const std::string& region) {
  return Add({Record::kEnter, t, region});
}
RankScript& RankScript::EnterRegionId(uint64_t t, uint32_t region) {
  Record r{Record::kEnterId, t, ""};
  r.tag = region;
  return Add(r);
}
RankScript& RankScript::LeaveRegionId(uint64_t t, uint32_t region) {
  Record r{Record::kLeaveId, t, ""};
  r.tag = region;
  return Add(r);
}
RankScript& RankScript::Leave(uint64_t t, const std::string& region) {
  return Add({Record::kLeave, t, region});
}
RankScript& RankScript::MeasurementOnOff(uint64_t t, bool on) {
  Record r{Record::kOnOff, t, ""};
  r.tag = on ? 1 : 0;
  return Add(r);
}

RankScript& RankScript::SendEvent(uint64_t t, int to, uint32_t tag, uint64_t bytes, uint32_t comm) {
  Record r{Record::kSend, t, ""};
  r.peer = to;
  r.tag = tag;
  r.bytes = bytes;
  r.comm = comm;
  return Add(r);
}
RankScript& RankScript::IsendEvent(uint64_t t, int to, uint32_t tag, uint64_t bytes,
                                   uint64_t request, uint32_t comm) {
  Record r{Record::kIsend, t, ""};
  r.peer = to;
  r.tag = tag;
  r.bytes = bytes;
  r.request = request;
  r.comm = comm;
  return Add(r);
}
RankScript& RankScript::IsendCompleteEvent(uint64_t t, uint64_t request) {
  Record r{Record::kIsendComplete, t, ""};
  r.request = request;
  return Add(r);
}
RankScript& RankScript::IrecvRequestEvent(uint64_t t, uint64_t request) {
  Record r{Record::kIrecvRequest, t, ""};
  r.request = request;
  return Add(r);
}
RankScript& RankScript::RecvEvent(uint64_t t, int from, uint32_t tag, uint64_t bytes,
                                  uint32_t comm) {
  Record r{Record::kRecv, t, ""};
  r.peer = from;
  r.tag = tag;
  r.bytes = bytes;
  r.comm = comm;
  return Add(r);
}
RankScript& RankScript::IrecvEvent(uint64_t t, int from, uint32_t tag, uint64_t bytes,
                                   uint64_t request, uint32_t comm) {
  Record r{Record::kIrecv, t, ""};
  r.peer = from;
  r.tag = tag;
  r.bytes = bytes;
  r.request = request;
  r.comm = comm;
  return Add(r);
}
RankScript& RankScript::RequestCancelledEvent(uint64_t t, uint64_t request) {
  Record r{Record::kCancelled, t, ""};
  r.request = request;
  return Add(r);
}
RankScript& RankScript::NbcRequestEvent(uint64_t t, uint64_t request) {
  Record r{Record::kNbcRequest, t, ""};
  r.request = request;
  return Add(r);
}
RankScript& RankScript::NbcCompleteEvent(uint64_t t, OTF2_CollectiveOp op, uint32_t comm,
                                         uint32_t root, uint64_t sent, uint64_t received,
                                         uint64_t request) {
  Record r{Record::kNbcComplete, t, ""};
  r.op = op;
  r.comm = comm;
  r.root = root;
  r.bytes = sent;
  r.received = received;
  r.request = request;
  return Add(r);
}
RankScript& RankScript::CollectiveBeginEvent(uint64_t t) {
  return Add({Record::kCollBegin, t, ""});
}
RankScript& RankScript::CollectiveEndEvent(uint64_t t, OTF2_CollectiveOp op, uint32_t comm,
                                           uint32_t root, uint64_t sent, uint64_t received) {
  Record r{Record::kCollEnd, t, ""};
  r.op = op;
  r.comm = comm;
  r.root = root;
  r.bytes = sent;
  r.received = received;
  return Add(r);
}

RankScript& RankScript::Send(uint64_t enter, uint64_t leave, int to, uint32_t tag, uint64_t bytes,
                             const std::string& call, uint32_t comm) {
  return Enter(enter, call).SendEvent(enter, to, tag, bytes, comm).Leave(leave, call);
}
RankScript& RankScript::Recv(uint64_t enter, uint64_t leave, int from, uint32_t tag, uint64_t bytes,
                             uint32_t comm) {
  return Enter(enter, "MPI_Recv").RecvEvent(leave, from, tag, bytes, comm).Leave(leave, "MPI_Recv");
}
RankScript& RankScript::Sendrecv(uint64_t enter, uint64_t leave, int to, uint32_t send_tag,
                                 int from, uint32_t recv_tag, uint64_t bytes, uint32_t comm) {
  return Enter(enter, "MPI_Sendrecv")
      .SendEvent(enter, to, send_tag, bytes, comm)
      .RecvEvent(leave, from, recv_tag, bytes, comm)
      .Leave(leave, "MPI_Sendrecv");
}
RankScript& RankScript::Isend(uint64_t enter, uint64_t leave, int to, uint32_t tag, uint64_t bytes,
                              uint64_t request, const std::string& call, uint32_t comm) {
  return Enter(enter, call).IsendEvent(enter, to, tag, bytes, request, comm).Leave(leave, call);
}
RankScript& RankScript::Irecv(uint64_t enter, uint64_t leave, uint64_t request) {
  return Enter(enter, "MPI_Irecv").IrecvRequestEvent(enter, request).Leave(leave, "MPI_Irecv");
}
RankScript& RankScript::Complete(uint64_t enter, uint64_t leave, const std::string& call,
                                 const std::function<void(RankScript&)>& records) {
  Enter(enter, call);
  records(*this);
  return Leave(leave, call);
}
RankScript& RankScript::Collective(uint64_t enter, uint64_t leave, const std::string& call,
                                   OTF2_CollectiveOp op, uint64_t sent, uint64_t received,
                                   uint32_t root, uint32_t comm) {
  return Enter(enter, call)
      .CollectiveBeginEvent(enter)
      .CollectiveEndEvent(leave, op, comm, root, sent, received)
      .Leave(leave, call);
}
RankScript& RankScript::VCollective(uint64_t enter, uint64_t leave, const std::string& call,
                                    OTF2_CollectiveOp op, uint64_t sent, uint64_t received,
                                    uint32_t senders, uint32_t comm) {
  Enter(enter, call).CollectiveBeginEvent(enter);
  Record r{Record::kCollEnd, leave, ""};
  r.op = op;
  r.comm = comm;
  r.bytes = sent;
  r.received = received;
  r.group = senders + 1;
  return Add(r).Leave(leave, call);
}
RankScript& RankScript::RmaCollective(uint64_t enter, uint64_t leave, const std::string& call,
                                      OTF2_CollectiveOp op, uint32_t window, uint32_t root,
                                      uint64_t sent, uint64_t received) {
  Enter(enter, call);
  Add({Record::kRmaCollBegin, enter, ""});
  Record r{Record::kRmaCollEnd, leave, ""};
  r.op = op;
  r.comm = window;
  r.root = root;
  r.bytes = sent;
  r.received = received;
  Add(r);
  return Leave(leave, call);
}
RankScript& RankScript::RmaGroupSync(uint64_t enter, uint64_t leave, const std::string& call,
                                     uint32_t window, uint32_t group,
                                     const std::function<void(RankScript&)>& records) {
  Enter(enter, call);
  if (records) records(*this);
  Record r{Record::kRmaGroupSync, leave, call};
  r.comm = window;
  r.group = group;
  Add(r);
  return Leave(leave, call);
}
RankScript& RankScript::RmaTransfer(uint64_t enter, uint64_t leave, const std::string& call,
                                    uint32_t window, uint32_t target, uint64_t bytes,
                                    uint64_t matching) {
  Enter(enter, call);
  Record r{call == "MPI_Get" ? Record::kRmaGet : Record::kRmaPut, enter, ""};
  r.comm = window;
  r.peer = static_cast<int>(target);
  r.bytes = bytes;
  r.request = matching;
  Add(r);
  return Leave(leave, call);
}
RankScript& RankScript::ShmemPut(uint64_t enter, uint64_t leave, const std::string& call,
                                 uint32_t window, uint32_t target, uint64_t bytes,
                                 uint64_t matching) {
  Enter(enter, call);
  Record r{Record::kRmaPut, enter, ""};
  r.comm = window;
  r.peer = static_cast<int>(target);
  r.bytes = bytes;
  r.request = matching;
  Add(r);
  RmaOpCompleteEvent(leave, window, matching);
  return Leave(leave, call);
}
RankScript& RankScript::ShmemWaitUntil(uint64_t enter, uint64_t leave, uint32_t window,
                                       const std::string& call) {
  Enter(enter, call);
  Record r{Record::kRmaWaitChange, enter, ""};
  r.comm = window;
  Add(r);
  return Leave(leave, call);
}
RankScript& RankScript::RmaOpCompleteEvent(uint64_t t, uint32_t window, uint64_t matching) {
  Record r{Record::kRmaOpComplete, t, ""};
  r.comm = window;
  r.request = matching;
  return Add(r);
}
RankScript& RankScript::RmaOpCompleteRemoteEvent(uint64_t t, uint32_t window, uint64_t matching) {
  Record r{Record::kRmaOpCompleteRemote, t, ""};
  r.comm = window;
  r.request = matching;
  return Add(r);
}
RankScript& RankScript::RmaLock(uint64_t enter, uint64_t leave, const std::string& call,
                                uint32_t window, uint32_t target, uint64_t lock, bool exclusive) {
  Enter(enter, call);
  for (auto [kind, t] :
       {std::pair{Record::kRmaRequestLock, enter}, std::pair{Record::kRmaAcquireLock, leave}}) {
    Record r{kind, t, ""};
    r.comm = window;
    r.peer = static_cast<int>(target);
    r.request = lock;
    r.exclusive = exclusive;
    Add(r);
  }
  return Leave(leave, call);
}
RankScript& RankScript::RmaUnlock(uint64_t enter, uint64_t leave, const std::string& call,
                                  uint32_t window, uint32_t target, uint64_t lock,
                                  const std::function<void(RankScript&)>& records) {
  Enter(enter, call);
  if (records) records(*this);
  Record r{Record::kRmaReleaseLock, leave, ""};
  r.comm = window;
  r.peer = static_cast<int>(target);
  r.request = lock;
  Add(r);
  return Leave(leave, call);
}
RankScript& RankScript::Probe(uint64_t enter, uint64_t leave, int from, uint32_t tag,
                              uint64_t handle, const std::string& call, uint32_t comm) {
  Enter(enter, call);
  Record r{Record::kLeave, leave, call};
  r.attributes = {{std::string(trace::kProbeCommAttribute), comm},
                  {std::string(trace::kProbeSourceAttribute), static_cast<uint64_t>(from)},
                  {std::string(trace::kProbeTagAttribute), tag},
                  {std::string(trace::kMessageHandleAttribute), handle}};
  return Add(r);
}
RankScript& RankScript::Mrecv(uint64_t enter, uint64_t leave, int from, uint32_t tag,
                              uint64_t bytes, uint64_t handle, uint32_t comm) {
  Enter(enter, "MPI_Mrecv");
  Record r{Record::kRecv, leave, ""};
  r.peer = from;
  r.tag = tag;
  r.bytes = bytes;
  r.comm = comm;
  if (handle != 0) r.attributes = {{std::string(trace::kMessageHandleAttribute), handle}};
  Add(r);
  return Leave(leave, "MPI_Mrecv");
}
RankScript& RankScript::Call(uint64_t enter, uint64_t leave, const std::string& region) {
  return Enter(enter, region).Leave(leave, region);
}

Scenario::Scenario(int ranks, uint64_t ticks_per_second)
    : ticks_per_second_(ticks_per_second), ranks_(static_cast<size_t>(ranks)) {}

uint32_t Scenario::AddWindow(uint32_t comm) {
  windows_.push_back(WindowDef{comm, {}});
  return static_cast<uint32_t>(windows_.size() - 1);
}
uint32_t Scenario::AddShmemWindow(const std::vector<int>& pes) {
  windows_.push_back(WindowDef{0, pes});
  return static_cast<uint32_t>(windows_.size() - 1);
}
uint32_t Scenario::AddGroup(const std::vector<int>& world_ranks) {
  groups_.push_back(world_ranks);
  return static_cast<uint32_t>(groups_.size() - 1);
}
uint32_t Scenario::AddComm(const std::vector<int>& world_ranks) {
  comms_.push_back(world_ranks);
  return static_cast<uint32_t>(comms_.size());  // 0 is MPI_COMM_WORLD
}

std::string Scenario::WriteOrDie(const std::string& directory) const {
  auto created = otf2_writer::ArchiveWriter::Create(directory, "traces", creator_);
  if (!created) Die(created.error().message());
  otf2_writer::ArchiveWriter& archive = **created;

  uint32_t machine = archive.DefineSystemTreeNode("test machine", "machine",
                                                  system_tree_cycle_ ? 1 : OTF2_UNDEFINED_UINT32);
  uint32_t node = archive.DefineSystemTreeNode("node0", "node", machine);
  std::vector<uint64_t> locations;
  for (size_t r = 0; r < ranks_.size(); ++r) {
    uint32_t group = archive.DefineLocationGroup("MPI Rank " + std::to_string(r), node);
    if (auto it = group_override_.find(static_cast<int>(r)); it != group_override_.end()) {
      group = it->second;
    }
    locations.push_back(archive.DefineLocation("Master thread", group));
  }
  for (const ClockOffset& c : clock_offsets_) {
    archive.AddClockOffset(locations.at(static_cast<size_t>(c.rank)), c.time, c.offset);
  }
  for (const auto& [rank, events] : declared_events_) {
    archive.DeclareEventCount(locations.at(static_cast<size_t>(rank)), events);
  }
  for (const auto& [rank, id] : location_id_override_) {
    archive.DeclareLocationId(locations.at(static_cast<size_t>(rank)), id);
  }
  uint32_t world = archive.DefineMpiWorld(locations);
  (void)world;
  for (const std::vector<int>& comm : comms_) {
    archive.DefineMpiComm("", std::vector<uint64_t>(comm.begin(), comm.end()), 0);
  }
  for (const WindowDef& w : windows_) {
    if (w.shmem_pes.empty()) {
      archive.DefineRmaWindow("", w.comm);
      continue;
    }
    const uint32_t comm =
        archive.DefineParadigmComm("", OTF2_PARADIGM_SHMEM, locations,
                                   std::vector<uint64_t>(w.shmem_pes.begin(), w.shmem_pes.end()));
    archive.DefineRmaWindow("", comm);
  }
  std::vector<uint32_t> groups;  // archive ids of groups_
  for (const std::vector<int>& g : groups_) {
    groups.push_back(archive.DefineGroup("", OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                         std::vector<uint64_t>(g.begin(), g.end())));
  }

  std::map<std::string, uint32_t> regions;
  auto region = [&](const std::string& name) {
    auto it = regions.find(name);
    if (it != regions.end()) return it->second;
    const bool mpi = name.rfind("MPI_", 0) == 0;
    const bool shmem = name.rfind("shmem_", 0) == 0;
    // The tracer's buffer flush, as Score-P and causeway's tracer define it.
    const bool flush = name == "TRACE BUFFER FLUSH";
    uint32_t id =
        archive.DefineRegion(name.rfind("loop:", 0) == 0 ? name.substr(5) : name, RoleOf(name),
                             mpi     ? OTF2_PARADIGM_MPI
                             : shmem ? OTF2_PARADIGM_SHMEM
                             : flush ? OTF2_PARADIGM_MEASUREMENT_SYSTEM
                                     : OTF2_PARADIGM_USER,
                             mpi     ? "MPI"
                             : shmem ? "SHMEM"
                                     : "");
    regions.emplace(name, id);
    return id;
  };

  std::map<std::string, uint32_t> attributes;
  constexpr uint32_t kNoAttribute = UINT32_MAX;
  uint32_t senders_attribute = kNoAttribute;
  for (size_t r = 0; r < ranks_.size(); ++r) {
    otf2_writer::EventWriter& ev = archive.Events(locations[r]);
    for (const RankScript::Record& rec : ranks_[r].records_) {
      uint32_t peer = static_cast<uint32_t>(rec.peer);
      for (const auto& [name, value] : rec.attributes) {
        auto it = attributes.find(name);
        if (it == attributes.end()) {
          it = attributes.emplace(name, archive.DefineAttribute(name, OTF2_TYPE_UINT64)).first;
        }
        ev.AddUint64Attribute(it->second, value);
      }
      switch (rec.kind) {
        case RankScript::Record::kEnter:
          ev.Enter(rec.time, region(rec.region));
          break;
        case RankScript::Record::kEnterId:
          ev.Enter(rec.time, rec.tag);
          break;
        case RankScript::Record::kLeaveId:
          ev.Leave(rec.time, rec.tag);
          break;
        case RankScript::Record::kLeave:
          ev.Leave(rec.time, region(rec.region));
          break;
        case RankScript::Record::kOnOff:
          ev.MeasurementOnOff(rec.time, rec.tag == 1);
          break;
        case RankScript::Record::kSend:
          ev.MpiSend(rec.time, peer, rec.comm, rec.tag, rec.bytes);
          break;
        case RankScript::Record::kIsend:
          ev.MpiIsend(rec.time, peer, rec.comm, rec.tag, rec.bytes, rec.request);
          break;
        case RankScript::Record::kIsendComplete:
          ev.MpiIsendComplete(rec.time, rec.request);
          break;
        case RankScript::Record::kIrecvRequest:
          ev.MpiIrecvRequest(rec.time, rec.request);
          break;
        case RankScript::Record::kRecv:
          ev.MpiRecv(rec.time, peer, rec.comm, rec.tag, rec.bytes);
          break;
        case RankScript::Record::kIrecv:
          ev.MpiIrecv(rec.time, peer, rec.comm, rec.tag, rec.bytes, rec.request);
          break;
        case RankScript::Record::kCancelled:
          ev.MpiRequestCancelled(rec.time, rec.request);
          break;
        case RankScript::Record::kCollBegin:
          ev.MpiCollectiveBegin(rec.time);
          break;
        case RankScript::Record::kCollEnd:
          if (rec.group != 0) {
            if (senders_attribute == kNoAttribute)
              senders_attribute =
                  archive.DefineAttribute(trace::kSendersAttribute, OTF2_TYPE_GROUP);
            ev.AddGroupAttribute(senders_attribute, groups.at(rec.group - 1));
          }
          ev.MpiCollectiveEnd(rec.time, rec.op, rec.comm, rec.root, rec.bytes, rec.received);
          break;
        case RankScript::Record::kNbcRequest:
          ev.NonBlockingCollectiveRequest(rec.time, rec.request);
          break;
        case RankScript::Record::kNbcComplete:
          ev.NonBlockingCollectiveComplete(rec.time, rec.op, rec.comm, rec.root, rec.bytes,
                                           rec.received, rec.request);
          break;
        case RankScript::Record::kRmaCollBegin:
          ev.RmaCollectiveBegin(rec.time);
          break;
        case RankScript::Record::kRmaCollEnd:
          ev.RmaCollectiveEnd(rec.time, rec.op,
                              static_cast<OTF2_RmaSyncLevel>(OTF2_RMA_SYNC_LEVEL_PROCESS |
                                                             OTF2_RMA_SYNC_LEVEL_MEMORY),
                              rec.comm, rec.root, rec.bytes, rec.received);
          break;
        case RankScript::Record::kRmaGroupSync: {
          // Post and start synchronise processes; complete and wait also memory.
          const bool opening = rec.region == "MPI_Win_post" || rec.region == "MPI_Win_start";
          const OTF2_RmaSyncLevel level =
              opening ? static_cast<OTF2_RmaSyncLevel>(OTF2_RMA_SYNC_LEVEL_PROCESS)
                      : static_cast<OTF2_RmaSyncLevel>(OTF2_RMA_SYNC_LEVEL_PROCESS |
                                                       OTF2_RMA_SYNC_LEVEL_MEMORY);
          ev.RmaGroupSync(rec.time, level, rec.comm, groups.at(rec.group));
          break;
        }
        case RankScript::Record::kRmaPut:
          ev.RmaPut(rec.time, rec.comm, peer, rec.bytes, rec.request);
          break;
        case RankScript::Record::kRmaGet:
          ev.RmaGet(rec.time, rec.comm, peer, rec.bytes, rec.request);
          break;
        case RankScript::Record::kRmaOpComplete:
          ev.RmaOpCompleteBlocking(rec.time, rec.comm, rec.request);
          break;
        case RankScript::Record::kRmaOpCompleteRemote:
          ev.RmaOpCompleteRemote(rec.time, rec.comm, rec.request);
          break;
        case RankScript::Record::kRmaRequestLock:
        case RankScript::Record::kRmaAcquireLock: {
          const OTF2_LockType type = rec.exclusive ? OTF2_LOCK_EXCLUSIVE : OTF2_LOCK_SHARED;
          if (rec.kind == RankScript::Record::kRmaRequestLock) {
            ev.RmaRequestLock(rec.time, rec.comm, peer, rec.request, type);
          } else {
            ev.RmaAcquireLock(rec.time, rec.comm, peer, rec.request, type);
          }
          break;
        }
        case RankScript::Record::kRmaReleaseLock:
          ev.RmaReleaseLock(rec.time, rec.comm, peer, rec.request);
          break;
        case RankScript::Record::kRmaWaitChange:
          ev.RmaWaitChange(rec.time, rec.comm);
          break;
      }
    }
  }
  Status closed = archive.Close(ticks_per_second_, global_offset_);
  if (!closed) Die(closed.error().message());
  return archive.anchor_path();
}

namespace {

// Test directories hold generated traces of up to tens of megabytes, and a
// full test run makes thousands of them: left behind, they fill the disk of
// the machine that runs the tests. Each process removes its own directories
// when it exits normally (CW_KEEP_TEST_DIRS=1 keeps them for inspection), and
// the first call sweeps away those of processes that died before they could.
class TempDirRegistry {
 public:
  ~TempDirRegistry() {
    if (getpid() != owner_ || KeepRequested()) return;
    std::error_code ignored;
    for (const std::filesystem::path& dir : dirs_) std::filesystem::remove_all(dir, ignored);
  }

  std::filesystem::path Make(const std::string& prefix) {
    std::lock_guard<std::mutex> lock(mu_);
    const std::filesystem::path base = std::filesystem::temp_directory_path() / "causeway-tests";
    if (!swept_) {
      swept_ = true;
      SweepOrphans(base);
    }
    std::filesystem::path dir =
        base / (prefix + "-" + std::to_string(owner_) + "-" + std::to_string(counter_++));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    dirs_.push_back(dir);
    return dir;
  }

 private:
  static bool KeepRequested() {
    const char* keep = std::getenv("CW_KEEP_TEST_DIRS");
    return keep != nullptr && *keep != '\0' && std::string(keep) != "0";
  }

  // Names end in "-<pid>-<counter>"; a directory whose process is gone is an
  // orphan (kill(pid, 0) fails with ESRCH only when no such process exists).
  static void SweepOrphans(const std::filesystem::path& base) {
    if (KeepRequested()) return;
    std::error_code ec;
    std::filesystem::directory_iterator it(base, ec);
    if (ec) return;
    for (const std::filesystem::directory_entry& entry : it) {
      const std::string name = entry.path().filename().string();
      const size_t last = name.rfind('-');
      if (last == std::string::npos || last == 0) continue;
      const size_t before = name.rfind('-', last - 1);
      if (before == std::string::npos) continue;
      const std::string pid_text = name.substr(before + 1, last - before - 1);
      if (pid_text.empty() || pid_text.find_first_not_of("0123456789") != std::string::npos) {
        continue;
      }
      const long pid = std::strtol(pid_text.c_str(), nullptr, 10);
      if (pid <= 0 || pid > INT_MAX) continue;
      if (kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
      std::error_code ignored;
      std::filesystem::remove_all(entry.path(), ignored);
    }
  }

  const pid_t owner_ = getpid();
  std::mutex mu_;
  bool swept_ = false;
  int counter_ = 0;
  std::vector<std::filesystem::path> dirs_;
};

}  // namespace

std::string MakeTempDir(const std::string& prefix) {
  static TempDirRegistry registry;
  return registry.Make(prefix).string();
}

}  // namespace cw::testing
