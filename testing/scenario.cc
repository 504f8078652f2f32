#include "testing/scenario.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <vector>

#include "otf2_writer/archive_writer.h"
#include "testing/scenario_writer.h"
#include "trace/probe_attributes.h"

namespace cw::testing {
namespace {

[[noreturn]] void Die(const std::string& message) {
  std::fprintf(stderr, "scenario: %s\n", message.c_str());
  std::abort();
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
RankScript& RankScript::NbcRequestEvent(uint64_t t, uint64_t request, uint32_t senders) {
  Record r{Record::kNbcRequest, t, ""};
  r.request = request;
  r.group = senders + 1;
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
RankScript& RankScript::Fork(uint64_t t, uint32_t threads) {
  Record r{Record::kFork, t, ""};
  r.tag = threads;
  return Add(r);
}
RankScript& RankScript::Join(uint64_t t) { return Add({Record::kJoin, t, ""}); }
RankScript& RankScript::TeamBegin(uint64_t t) { return Add({Record::kTeamBegin, t, ""}); }
RankScript& RankScript::TeamEnd(uint64_t t) { return Add({Record::kTeamEnd, t, ""}); }
RankScript& RankScript::TeamMember(uint64_t begin, uint64_t end,
                                   const std::function<void()>& body) {
  TeamBegin(begin).Enter(begin, "!$omp parallel");
  body();
  return Leave(end, "!$omp parallel").TeamEnd(end);
}
RankScript& RankScript::AcquireLock(uint64_t t, uint32_t lock, uint32_t order) {
  return ThreadLock(Record::kAcquireLock, t, lock, order);
}
RankScript& RankScript::ReleaseLock(uint64_t t, uint32_t lock, uint32_t order) {
  return ThreadLock(Record::kReleaseLock, t, lock, order);
}
RankScript& RankScript::ThreadLock(Record::Kind kind, uint64_t t, uint32_t lock, uint32_t order) {
  Record r{kind, t, ""};
  r.tag = lock;
  r.request = order;
  return Add(r);
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

RankScript& Scenario::thread(int r, int t) {
  if (t == 0) return rank(r);
  std::deque<RankScript>& threads = threads_[r];
  while (static_cast<int>(threads.size()) < t) threads.emplace_back();
  return threads.at(static_cast<size_t>(t - 1));
}

std::string Scenario::WriteOrDie(const std::string& directory) const {
  auto created = otf2_writer::ArchiveWriter::Create(directory, "traces", creator_);
  if (!created) Die(created.error().message());
  otf2_writer::ArchiveWriter& archive = **created;
  if (!rank_endings_.empty()) {
    std::string lines;
    for (const auto& [rank, how] : rank_endings_) lines += std::to_string(rank) + " " + how + "\n";
    if (Status set = archive.SetProperty(otf2_writer::kRankEndingsProperty, lines); !set) {
      Die(set.error().message());
    }
  }

  uint32_t machine = archive.DefineSystemTreeNode("test machine", "machine",
                                                  system_tree_cycle_ ? 1 : OTF2_UNDEFINED_UINT32);
  uint32_t node = archive.DefineSystemTreeNode("node0", "node", machine);
  std::vector<uint64_t> locations;
  std::vector<uint32_t> rank_groups;
  for (size_t r = 0; r < ranks_.size(); ++r) {
    uint32_t group = archive.DefineLocationGroup("MPI Rank " + std::to_string(r), node);
    if (auto it = group_override_.find(static_cast<int>(r)); it != group_override_.end()) {
      group = it->second;
    }
    rank_groups.push_back(group);
    locations.push_back(archive.DefineLocation("Master thread", group));
  }
  // Threads after every master, so that a master's location id is its rank.
  std::map<int, std::vector<uint64_t>> team_members;  // rank -> its threads' locations
  for (const auto& [rank, threads] : threads_) {
    std::vector<uint64_t>& members = team_members[rank];
    members.push_back(locations.at(static_cast<size_t>(rank)));
    for (size_t t = 1; t <= threads.size(); ++t) {
      members.push_back(archive.DefineLocation("OMP thread " + std::to_string(t),
                                               rank_groups.at(static_cast<size_t>(rank))));
    }
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
  // Each rank with threads has one thread team, its master and threads (Score-P's OpenMP
  // locations group holds every such location).
  std::vector<uint64_t> omp_locations;
  for (const auto& [rank, members] : team_members) {
    omp_locations.insert(omp_locations.end(), members.begin(), members.end());
  }
  std::map<int, uint32_t> teams;
  for (const auto& [rank, members] : team_members) {
    std::vector<uint64_t> indices;
    for (uint64_t m : members) {
      indices.push_back(static_cast<uint64_t>(
          std::find(omp_locations.begin(), omp_locations.end(), m) - omp_locations.begin()));
    }
    teams[rank] =
        archive.DefineParadigmComm("Thread team", OTF2_PARADIGM_OPENMP, omp_locations, indices);
  }
  std::vector<uint32_t> groups;  // archive ids of groups_
  for (const std::vector<int>& g : groups_) {
    groups.push_back(archive.DefineGroup("", OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                         std::vector<uint64_t>(g.begin(), g.end())));
  }

  ScenarioWriter writer(archive, std::move(groups));
  for (size_t r = 0; r < ranks_.size(); ++r) {
    auto team = teams.find(static_cast<int>(r));
    const uint32_t team_id = team == teams.end() ? OTF2_UNDEFINED_UINT32 : team->second;
    writer.Write(ranks_[r], archive.Events(locations[r]), team_id);
    auto threads = threads_.find(static_cast<int>(r));
    if (threads == threads_.end()) continue;
    for (size_t t = 0; t < threads->second.size(); ++t) {
      writer.Write(threads->second[t], archive.Events(team_members.at(threads->first).at(t + 1)),
                   team_id);
    }
  }
  Status closed = archive.Close(ticks_per_second_, global_offset_);
  if (!closed) Die(closed.error().message());
  return archive.anchor_path();
}

}  // namespace cw::testing
