#include "sim/internal/record_writer.h"

#include <string>
#include <vector>

namespace cw::sim::internal {
namespace {

using trace::EventKind;

std::string Placeholder(const char* what, size_t id) {
  return "<undefined " + std::string(what) + " " + std::to_string(id) + ">";
}

// The threading records of OTF2 2.x and later (the deprecated Omp* records are left out).
bool WriteThreadRecord(const trace::LocationEvents& ev, uint32_t i, uint64_t t,
                       otf2_writer::EventWriter& out) {
  const trace::ThreadPayload& p = ev.thread(i);
  auto model = static_cast<OTF2_Paradigm>(p.model);
  switch (ev.kind(i)) {
    case EventKind::kThreadFork:
      out.ThreadFork(t, model, p.count);
      return true;
    case EventKind::kThreadJoin:
      out.ThreadJoin(t, model);
      return true;
    case EventKind::kThreadTeamBegin:
      out.ThreadTeamBegin(t, p.team);
      return true;
    case EventKind::kThreadTeamEnd:
      out.ThreadTeamEnd(t, p.team);
      return true;
    case EventKind::kThreadAcquireLock:
      out.ThreadAcquireLock(t, model, p.lock, p.count);
      return true;
    case EventKind::kThreadReleaseLock:
      out.ThreadReleaseLock(t, model, p.lock, p.count);
      return true;
    case EventKind::kThreadTaskCreate:
      out.ThreadTaskCreate(t, p.team, p.count, p.lock);
      return true;
    case EventKind::kThreadTaskSwitch:
      out.ThreadTaskSwitch(t, p.team, p.count, p.lock);
      return true;
    case EventKind::kThreadTaskComplete:
      out.ThreadTaskComplete(t, p.team, p.count, p.lock);
      return true;
    case EventKind::kThreadCreate:
      out.ThreadCreate(t, p.team, p.id);
      return true;
    case EventKind::kThreadBegin:
      out.ThreadBegin(t, p.team, p.id);
      return true;
    case EventKind::kThreadWait:
      out.ThreadWait(t, p.team, p.id);
      return true;
    case EventKind::kThreadEnd:
      out.ThreadEnd(t, p.team, p.id);
      return true;
    default:
      return false;
  }
}

}  // namespace

void CopyDefinitions(const trace::Definitions& defs, otf2_writer::ArchiveWriter& archive) {
  for (size_t r = 0; r < defs.regions.size(); ++r) {
    const trace::Region& region = defs.regions[r];
    if (!region.defined) {
      archive.DefineRegion(Placeholder("region", r), OTF2_REGION_ROLE_UNKNOWN,
                           OTF2_PARADIGM_UNKNOWN);
      continue;
    }
    archive.DefineRegion(defs.str(region.name), static_cast<OTF2_RegionRole>(region.role),
                         static_cast<OTF2_Paradigm>(region.paradigm), defs.str(region.file));
  }
  for (size_t n = 0; n < defs.system_tree.size(); ++n) {
    const trace::SystemTreeNode& node = defs.system_tree[n];
    archive.DefineSystemTreeNode(node.defined ? defs.str(node.name) : Placeholder("node", n),
                                 defs.str(node.class_name), node.parent);
  }
  for (size_t g = 0; g < defs.location_groups.size(); ++g) {
    const trace::LocationGroup& group = defs.location_groups[g];
    archive.DefineLocationGroup(group.defined ? defs.str(group.name) : Placeholder("process", g),
                                group.system_tree_parent);
  }
  for (const trace::Location& loc : defs.locations) {
    archive.DefineLocation(defs.str(loc.name), loc.group, static_cast<OTF2_LocationType>(loc.type));
  }
  for (const trace::Group& group : defs.groups) {
    std::vector<uint64_t> members = group.members;
    if (group.type == trace::GroupType::kCommLocations ||
        group.type == trace::GroupType::kLocations) {
      // Members are OTF2 location ids; the archive numbers locations densely.
      for (uint64_t& m : members) {
        uint32_t dense = defs.LocationIndex(m);
        m = dense == trace::kNone ? OTF2_UNDEFINED_UINT64 : dense;
      }
    }
    archive.DefineGroup(defs.str(group.name), static_cast<OTF2_GroupType>(group.type),
                        static_cast<OTF2_Paradigm>(group.paradigm), members);
  }
  for (size_t c = 0; c < defs.comms.size(); ++c) {
    const trace::Comm& comm = defs.comms[c];
    archive.DefineComm(comm.defined ? defs.str(comm.name) : Placeholder("communicator", c),
                       comm.group, comm.parent);
  }
  for (size_t w = 0; w < defs.windows.size(); ++w) {
    const trace::RmaWindow& window = defs.windows[w];
    archive.DefineRmaWindow(window.defined ? defs.str(window.name) : Placeholder("window", w),
                            window.comm, static_cast<OTF2_RmaWinFlag>(window.flags));
  }
}

namespace {

// The RMA family's records (trace::PayloadFamily::kRma other than the collectives').
bool WriteRmaRecord(const trace::LocationEvents& ev, uint32_t i, uint64_t t,
                    otf2_writer::EventWriter& out) {
  const trace::RmaPayload& r = ev.rma(i);
  switch (ev.kind(i)) {
    case EventKind::kRmaWinCreate:
      out.RmaWinCreate(t, r.window);
      return true;
    case EventKind::kRmaWinDestroy:
      out.RmaWinDestroy(t, r.window);
      return true;
    case EventKind::kRmaGroupSync:
      out.RmaGroupSync(t, static_cast<OTF2_RmaSyncLevel>(r.detail), r.window, r.remote);
      return true;
    case EventKind::kRmaRequestLock:
      out.RmaRequestLock(t, r.window, r.remote, r.id, static_cast<OTF2_LockType>(r.detail));
      return true;
    case EventKind::kRmaAcquireLock:
      out.RmaAcquireLock(t, r.window, r.remote, r.id, static_cast<OTF2_LockType>(r.detail));
      return true;
    case EventKind::kRmaTryLock:
      out.RmaTryLock(t, r.window, r.remote, r.id, static_cast<OTF2_LockType>(r.detail));
      return true;
    case EventKind::kRmaReleaseLock:
      out.RmaReleaseLock(t, r.window, r.remote, r.id);
      return true;
    case EventKind::kRmaSync:
      out.RmaSync(t, r.window, r.remote, static_cast<OTF2_RmaSyncType>(r.detail));
      return true;
    case EventKind::kRmaWaitChange:
      out.RmaWaitChange(t, r.window);
      return true;
    case EventKind::kRmaPut:
      out.RmaPut(t, r.window, r.remote, r.sent, r.id);
      return true;
    case EventKind::kRmaGet:
      out.RmaGet(t, r.window, r.remote, r.received, r.id);
      return true;
    case EventKind::kRmaAtomic:
      out.RmaAtomic(t, r.window, r.remote, static_cast<OTF2_RmaAtomicType>(r.detail), r.sent,
                    r.received, r.id);
      return true;
    case EventKind::kRmaOpCompleteBlocking:
      out.RmaOpCompleteBlocking(t, r.window, r.id);
      return true;
    case EventKind::kRmaOpCompleteNonBlocking:
      out.RmaOpCompleteNonBlocking(t, r.window, r.id);
      return true;
    case EventKind::kRmaOpTest:
      out.RmaOpTest(t, r.window, r.id);
      return true;
    case EventKind::kRmaOpCompleteRemote:
      out.RmaOpCompleteRemote(t, r.window, r.id);
      return true;
    default:
      return false;
  }
}

// The MPI records: point-to-point, requests and collectives (RMA collectives included).
bool WriteMpiRecord(const trace::LocationEvents& ev, uint32_t i, uint64_t t,
                    otf2_writer::EventWriter& out) {
  const EventKind kind = ev.kind(i);
  switch (kind) {
    case EventKind::kMpiSend:
    case EventKind::kMpiIsend:
    case EventKind::kMpiRecv:
    case EventKind::kMpiIrecv: {
      const trace::P2pPayload& p = ev.p2p(i);
      if (kind == EventKind::kMpiSend) out.MpiSend(t, p.peer, p.comm, p.tag, p.bytes);
      if (kind == EventKind::kMpiRecv) out.MpiRecv(t, p.peer, p.comm, p.tag, p.bytes);
      if (kind == EventKind::kMpiIsend) {
        out.MpiIsend(t, p.peer, p.comm, p.tag, p.bytes, ev.RequestId(i));
      }
      if (kind == EventKind::kMpiIrecv) {
        out.MpiIrecv(t, p.peer, p.comm, p.tag, p.bytes, ev.RequestId(i));
      }
      return true;
    }
    case EventKind::kMpiIsendComplete:
      out.MpiIsendComplete(t, ev.RequestId(i));
      return true;
    case EventKind::kMpiIrecvRequest:
      out.MpiIrecvRequest(t, ev.RequestId(i));
      return true;
    case EventKind::kMpiRequestTest:
      out.MpiRequestTest(t, ev.RequestId(i));
      return true;
    case EventKind::kMpiRequestCancelled:
      out.MpiRequestCancelled(t, ev.RequestId(i));
      return true;
    case EventKind::kNonBlockingCollectiveRequest:
      out.NonBlockingCollectiveRequest(t, ev.RequestId(i));
      return true;
    case EventKind::kMpiCollectiveBegin:
      out.MpiCollectiveBegin(t);
      return true;
    case EventKind::kRmaCollectiveBegin:
      out.RmaCollectiveBegin(t);
      return true;
    case EventKind::kMpiCollectiveEnd:
    case EventKind::kNonBlockingCollectiveComplete:
    case EventKind::kRmaCollectiveEnd: {
      const trace::CollectivePayload& c = ev.collective(i);
      auto op = static_cast<OTF2_CollectiveOp>(c.op);
      if (kind == EventKind::kMpiCollectiveEnd) {
        out.MpiCollectiveEnd(t, op, c.comm_or_window, c.root, c.sent, c.received);
      } else if (kind == EventKind::kNonBlockingCollectiveComplete) {
        out.NonBlockingCollectiveComplete(t, op, c.comm_or_window, c.root, c.sent, c.received,
                                          ev.RequestId(i));
      } else {
        out.RmaCollectiveEnd(t, op, static_cast<OTF2_RmaSyncLevel>(c.sync_level), c.comm_or_window,
                             c.root, c.sent, c.received);
      }
      return true;
    }
    default:
      return false;
  }
}

}  // namespace

bool WriteRecord(const trace::Definitions& defs, const trace::LocationEvents& ev, uint32_t i,
                 uint64_t t, uint32_t region, otf2_writer::ArchiveWriter& archive,
                 otf2_writer::EventWriter& out) {
  const EventKind kind = ev.kind(i);
  switch (kind) {
    case EventKind::kEnter:
      out.Enter(t, region);
      return true;
    case EventKind::kLeave:
      out.Leave(t, region);
      return true;
    case EventKind::kMeasurementOnOff:
      out.MeasurementOnOff(t, ev.generic(i).c == trace::kMeasurementOn);
      return true;
    case EventKind::kProgramBegin: {
      const trace::ProgramPayload& p = ev.program(i);
      std::vector<uint32_t> args;
      for (uint32_t a = 0; a < p.arg_count; ++a) {
        args.push_back(archive.DefineString(defs.str(ev.program_args()[p.first_arg + a])));
      }
      out.ProgramBegin(t, archive.DefineString(defs.str(p.name)), args);
      return true;
    }
    case EventKind::kProgramEnd:
      out.ProgramEnd(t, static_cast<int64_t>(ev.generic(i).a));
      return true;
    default:
      break;
  }
  if (WriteMpiRecord(ev, i, t, out)) return true;
  switch (trace::PayloadFamilyOf(kind)) {
    case trace::PayloadFamily::kThread:
      return WriteThreadRecord(ev, i, t, out);
    case trace::PayloadFamily::kRma:
      return WriteRmaRecord(ev, i, t, out);
    default:
      return false;
  }
}

}  // namespace cw::sim::internal
