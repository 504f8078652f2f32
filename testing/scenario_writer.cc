#include "testing/scenario_writer.h"

#include <cstdio>
#include <cstdlib>

#include "trace/collective_senders.h"

namespace cw::testing {
namespace {

[[noreturn]] void DieWriting(const std::string& message) {
  std::fprintf(stderr, "scenario writer: %s\n", message.c_str());
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

// OpenMP constructs as Score-P names them ("!$omp CONSTRUCT @file:line"), and the lock routines.
bool IsOpenMp(const std::string& name) {
  if (name.rfind("!$omp ", 0) == 0) return true;
  return name.rfind("omp_", 0) == 0 && name.size() > 5 &&
         name.compare(name.size() - 5, 5, "_lock") == 0;
}

OTF2_RegionRole OmpRoleOf(const std::string& name) {
  // Longest names first: "critical sblock" before "critical", "implicit barrier" before
  // "barrier".
  static const std::pair<const char*, OTF2_RegionRole> kConstructs[] = {
      {"!$omp parallel", OTF2_REGION_ROLE_PARALLEL},
      {"!$omp implicit barrier", OTF2_REGION_ROLE_IMPLICIT_BARRIER},
      {"!$omp barrier", OTF2_REGION_ROLE_BARRIER},
      {"!$omp for", OTF2_REGION_ROLE_LOOP},
      {"!$omp do", OTF2_REGION_ROLE_LOOP},
      {"!$omp critical sblock", OTF2_REGION_ROLE_CRITICAL_SBLOCK},
      {"!$omp critical", OTF2_REGION_ROLE_CRITICAL},
      {"!$omp atomic", OTF2_REGION_ROLE_ATOMIC},
      {"!$omp ordered sblock", OTF2_REGION_ROLE_ORDERED_SBLOCK},
      {"!$omp ordered", OTF2_REGION_ROLE_ORDERED},
      {"!$omp taskwait", OTF2_REGION_ROLE_TASK_WAIT},
      {"!$omp task", OTF2_REGION_ROLE_TASK},
      {"!$omp flush", OTF2_REGION_ROLE_FLUSH},
      {"!$omp single sblock", OTF2_REGION_ROLE_SINGLE_SBLOCK},
      {"!$omp single", OTF2_REGION_ROLE_SINGLE},
      {"!$omp master", OTF2_REGION_ROLE_MASTER},
  };
  for (const auto& [construct, role] : kConstructs) {
    if (name.rfind(construct, 0) == 0) return role;
  }
  return OTF2_REGION_ROLE_WRAPPER;  // the lock routines
}

OTF2_RegionRole RoleOf(const std::string& name) {
  if (name.rfind("shmem_", 0) == 0) return ShmemRoleOf(name);
  if (IsOpenMp(name)) return OmpRoleOf(name);
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

void ScenarioWriter::Write(const RankScript& script, otf2_writer::EventWriter& ev, uint32_t team) {
  for (const RankScript::Record& rec : script.records_) {
    for (const auto& [name, value] : rec.attributes) ev.AddUint64Attribute(Attribute(name), value);
    if (!WriteLocalRecord(rec, ev, team) && !WriteOneSidedRecord(rec, ev)) WriteMpiRecord(rec, ev);
  }
}

uint32_t ScenarioWriter::Region(const std::string& name) {
  auto it = regions_.find(name);
  if (it != regions_.end()) return it->second;
  const bool mpi = name.rfind("MPI_", 0) == 0;
  const bool shmem = name.rfind("shmem_", 0) == 0;
  const bool omp = IsOpenMp(name);
  // The tracer's buffer flush, as Score-P and causeway's tracer define it.
  const bool flush = name == "TRACE BUFFER FLUSH";
  uint32_t id =
      archive_.DefineRegion(name.rfind("loop:", 0) == 0 ? name.substr(5) : name, RoleOf(name),
                            mpi     ? OTF2_PARADIGM_MPI
                            : shmem ? OTF2_PARADIGM_SHMEM
                            : omp   ? OTF2_PARADIGM_OPENMP
                            : flush ? OTF2_PARADIGM_MEASUREMENT_SYSTEM
                                    : OTF2_PARADIGM_USER,
                            mpi     ? "MPI"
                            : shmem ? "SHMEM"
                            : omp   ? "OMP"
                                    : "");
  regions_.emplace(name, id);
  return id;
}

uint32_t ScenarioWriter::Attribute(const std::string& name) {
  auto it = attributes_.find(name);
  if (it == attributes_.end()) {
    it = attributes_.emplace(name, archive_.DefineAttribute(name, OTF2_TYPE_UINT64)).first;
  }
  return it->second;
}

bool ScenarioWriter::WriteLocalRecord(const RankScript::Record& rec, otf2_writer::EventWriter& ev,
                                      uint32_t team) {
  using R = RankScript::Record;
  switch (rec.kind) {
    case R::kEnter:
      ev.Enter(rec.time, Region(rec.region));
      return true;
    case R::kLeave:
      ev.Leave(rec.time, Region(rec.region));
      return true;
    case R::kEnterId:
      ev.Enter(rec.time, rec.tag);
      return true;
    case R::kLeaveId:
      ev.Leave(rec.time, rec.tag);
      return true;
    case R::kOnOff:
      ev.MeasurementOnOff(rec.time, rec.tag == 1);
      return true;
    case R::kFork:
      ev.ThreadFork(rec.time, OTF2_PARADIGM_OPENMP, rec.tag);
      return true;
    case R::kJoin:
      ev.ThreadJoin(rec.time, OTF2_PARADIGM_OPENMP);
      return true;
    case R::kTeamBegin:
      ev.ThreadTeamBegin(rec.time, team);
      return true;
    case R::kTeamEnd:
      ev.ThreadTeamEnd(rec.time, team);
      return true;
    case R::kAcquireLock:
      ev.ThreadAcquireLock(rec.time, OTF2_PARADIGM_OPENMP, rec.tag,
                           static_cast<uint32_t>(rec.request));
      return true;
    case R::kReleaseLock:
      ev.ThreadReleaseLock(rec.time, OTF2_PARADIGM_OPENMP, rec.tag,
                           static_cast<uint32_t>(rec.request));
      return true;
    default:
      return false;
  }
}

void ScenarioWriter::WriteMpiRecord(const RankScript::Record& rec, otf2_writer::EventWriter& ev) {
  using R = RankScript::Record;
  const auto peer = static_cast<uint32_t>(rec.peer);
  switch (rec.kind) {
    case R::kSend:
      ev.MpiSend(rec.time, peer, rec.comm, rec.tag, rec.bytes);
      break;
    case R::kIsend:
      ev.MpiIsend(rec.time, peer, rec.comm, rec.tag, rec.bytes, rec.request);
      break;
    case R::kIsendComplete:
      ev.MpiIsendComplete(rec.time, rec.request);
      break;
    case R::kIrecvRequest:
      ev.MpiIrecvRequest(rec.time, rec.request);
      break;
    case R::kRecv:
      ev.MpiRecv(rec.time, peer, rec.comm, rec.tag, rec.bytes);
      break;
    case R::kIrecv:
      ev.MpiIrecv(rec.time, peer, rec.comm, rec.tag, rec.bytes, rec.request);
      break;
    case R::kCancelled:
      ev.MpiRequestCancelled(rec.time, rec.request);
      break;
    case R::kCollBegin:
      ev.MpiCollectiveBegin(rec.time);
      break;
    case R::kCollEnd:
      AddSenders(rec, ev);
      ev.MpiCollectiveEnd(rec.time, rec.op, rec.comm, rec.root, rec.bytes, rec.received);
      break;
    case R::kNbcRequest:
      AddSenders(rec, ev);
      ev.NonBlockingCollectiveRequest(rec.time, rec.request);
      break;
    case R::kNbcComplete:
      ev.NonBlockingCollectiveComplete(rec.time, rec.op, rec.comm, rec.root, rec.bytes,
                                       rec.received, rec.request);
      break;
    default:
      DieWriting("a record kind no writer handles");
  }
}

void ScenarioWriter::AddSenders(const RankScript::Record& rec, otf2_writer::EventWriter& ev) {
  if (rec.group == 0) return;
  if (senders_attribute_ == OTF2_UNDEFINED_UINT32)
    senders_attribute_ = archive_.DefineAttribute(trace::kSendersAttribute, OTF2_TYPE_GROUP);
  ev.AddGroupAttribute(senders_attribute_, groups_.at(rec.group - 1));
}

bool ScenarioWriter::WriteOneSidedRecord(const RankScript::Record& rec,
                                         otf2_writer::EventWriter& ev) {
  using R = RankScript::Record;
  const auto peer = static_cast<uint32_t>(rec.peer);
  switch (rec.kind) {
    case R::kRmaCollBegin:
      ev.RmaCollectiveBegin(rec.time);
      return true;
    case R::kRmaCollEnd:
      ev.RmaCollectiveEnd(
          rec.time, rec.op,
          static_cast<OTF2_RmaSyncLevel>(OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY),
          rec.comm, rec.root, rec.bytes, rec.received);
      return true;
    case R::kRmaGroupSync: {
      // Post and start synchronise processes; complete and wait also memory.
      const bool opening = rec.region == "MPI_Win_post" || rec.region == "MPI_Win_start";
      const OTF2_RmaSyncLevel level =
          opening ? static_cast<OTF2_RmaSyncLevel>(OTF2_RMA_SYNC_LEVEL_PROCESS)
                  : static_cast<OTF2_RmaSyncLevel>(OTF2_RMA_SYNC_LEVEL_PROCESS |
                                                   OTF2_RMA_SYNC_LEVEL_MEMORY);
      ev.RmaGroupSync(rec.time, level, rec.comm, groups_.at(rec.group));
      return true;
    }
    case R::kRmaPut:
      ev.RmaPut(rec.time, rec.comm, peer, rec.bytes, rec.request);
      return true;
    case R::kRmaGet:
      ev.RmaGet(rec.time, rec.comm, peer, rec.bytes, rec.request);
      return true;
    case R::kRmaOpComplete:
      ev.RmaOpCompleteBlocking(rec.time, rec.comm, rec.request);
      return true;
    case R::kRmaOpCompleteRemote:
      ev.RmaOpCompleteRemote(rec.time, rec.comm, rec.request);
      return true;
    case R::kRmaRequestLock:
    case R::kRmaAcquireLock: {
      const OTF2_LockType type = rec.exclusive ? OTF2_LOCK_EXCLUSIVE : OTF2_LOCK_SHARED;
      if (rec.kind == R::kRmaRequestLock) {
        ev.RmaRequestLock(rec.time, rec.comm, peer, rec.request, type);
      } else {
        ev.RmaAcquireLock(rec.time, rec.comm, peer, rec.request, type);
      }
      return true;
    }
    case R::kRmaReleaseLock:
      ev.RmaReleaseLock(rec.time, rec.comm, peer, rec.request);
      return true;
    case R::kRmaWaitChange:
      ev.RmaWaitChange(rec.time, rec.comm);
      return true;
    default:
      return false;
  }
}

}  // namespace cw::testing
