// Writes the events of one location (see archive_writer.h). Timestamps must not decrease.
// Every call mirrors the OTF2 record of the same name; ids are those the ArchiveWriter returned.
#pragma once

#include <cstdint>
#include <vector>

#include <otf2/otf2.h>

namespace cw::otf2_writer {

class EventWriter {
 public:
  explicit EventWriter(OTF2_EvtWriter* writer);
  ~EventWriter();
  EventWriter(const EventWriter&) = delete;
  EventWriter& operator=(const EventWriter&) = delete;

  void Enter(uint64_t time, uint32_t region);
  void Leave(uint64_t time, uint32_t region);
  void MeasurementOnOff(uint64_t time, bool on);
  // Score-P's unwinding records (ArchiveWriter::DefineCallingContext).
  void CallingContextEnter(uint64_t time, uint32_t context, uint32_t unwind_distance);
  void CallingContextLeave(uint64_t time, uint32_t context);
  void CallingContextSample(uint64_t time, uint32_t context, uint32_t unwind_distance,
                            uint32_t interrupt_generator);
  void ProgramBegin(uint64_t time, uint32_t name, const std::vector<uint32_t>& arguments);
  void ProgramEnd(uint64_t time, int64_t exit_status);

  void MpiSend(uint64_t time, uint32_t receiver, uint32_t comm, uint32_t tag, uint64_t bytes);
  void MpiIsend(uint64_t time, uint32_t receiver, uint32_t comm, uint32_t tag, uint64_t bytes,
                uint64_t request);
  void MpiIsendComplete(uint64_t time, uint64_t request);
  void MpiIrecvRequest(uint64_t time, uint64_t request);
  void MpiRecv(uint64_t time, uint32_t sender, uint32_t comm, uint32_t tag, uint64_t bytes);
  void MpiIrecv(uint64_t time, uint32_t sender, uint32_t comm, uint32_t tag, uint64_t bytes,
                uint64_t request);
  void MpiRequestTest(uint64_t time, uint64_t request);
  void MpiRequestCancelled(uint64_t time, uint64_t request);
  void MpiCollectiveBegin(uint64_t time);
  void MpiCollectiveEnd(uint64_t time, OTF2_CollectiveOp op, uint32_t comm, uint32_t root,
                        uint64_t sent, uint64_t received);
  void NonBlockingCollectiveRequest(uint64_t time, uint64_t request);
  void NonBlockingCollectiveComplete(uint64_t time, OTF2_CollectiveOp op, uint32_t comm,
                                     uint32_t root, uint64_t sent, uint64_t received,
                                     uint64_t request);

  void RmaWinCreate(uint64_t time, uint32_t window);
  void RmaWinDestroy(uint64_t time, uint32_t window);
  void RmaCollectiveBegin(uint64_t time);
  void RmaCollectiveEnd(uint64_t time, OTF2_CollectiveOp op, OTF2_RmaSyncLevel level,
                        uint32_t window, uint32_t root, uint64_t sent, uint64_t received);
  void RmaGroupSync(uint64_t time, OTF2_RmaSyncLevel level, uint32_t window, uint32_t group);
  void RmaRequestLock(uint64_t time, uint32_t window, uint32_t remote, uint64_t lock,
                      OTF2_LockType type);
  void RmaAcquireLock(uint64_t time, uint32_t window, uint32_t remote, uint64_t lock,
                      OTF2_LockType type);
  void RmaReleaseLock(uint64_t time, uint32_t window, uint32_t remote, uint64_t lock);
  void RmaSync(uint64_t time, uint32_t window, uint32_t remote, OTF2_RmaSyncType type);
  void RmaPut(uint64_t time, uint32_t window, uint32_t remote, uint64_t bytes, uint64_t matching);
  void RmaGet(uint64_t time, uint32_t window, uint32_t remote, uint64_t bytes, uint64_t matching);
  void RmaAtomic(uint64_t time, uint32_t window, uint32_t remote, OTF2_RmaAtomicType type,
                 uint64_t sent, uint64_t received, uint64_t matching);
  void RmaTryLock(uint64_t time, uint32_t window, uint32_t remote, uint64_t lock,
                  OTF2_LockType type);
  void RmaWaitChange(uint64_t time, uint32_t window);
  void RmaOpCompleteBlocking(uint64_t time, uint32_t window, uint64_t matching);
  void RmaOpCompleteNonBlocking(uint64_t time, uint32_t window, uint64_t matching);
  void RmaOpTest(uint64_t time, uint32_t window, uint64_t matching);
  void RmaOpCompleteRemote(uint64_t time, uint32_t window, uint64_t matching);

  void IoCreateHandle(uint64_t time, uint32_t handle, OTF2_IoAccessMode mode,
                      OTF2_IoCreationFlag creation, OTF2_IoStatusFlag status);
  void IoDestroyHandle(uint64_t time, uint32_t handle);
  void IoOperationBegin(uint64_t time, uint32_t handle, OTF2_IoOperationMode mode,
                        OTF2_IoOperationFlag flags, uint64_t bytes, uint64_t matching);
  void IoOperationIssued(uint64_t time, uint32_t handle, uint64_t matching);
  void IoOperationComplete(uint64_t time, uint32_t handle, uint64_t bytes, uint64_t matching);

  void ThreadFork(uint64_t time, OTF2_Paradigm model, uint32_t threads);
  void ThreadJoin(uint64_t time, OTF2_Paradigm model);
  void ThreadTeamBegin(uint64_t time, uint32_t team);
  void ThreadTeamEnd(uint64_t time, uint32_t team);
  void ThreadAcquireLock(uint64_t time, OTF2_Paradigm model, uint32_t lock, uint32_t order);
  void ThreadReleaseLock(uint64_t time, OTF2_Paradigm model, uint32_t lock, uint32_t order);
  void ThreadTaskCreate(uint64_t time, uint32_t team, uint32_t creator, uint32_t generation);
  void ThreadTaskSwitch(uint64_t time, uint32_t team, uint32_t creator, uint32_t generation);
  void ThreadTaskComplete(uint64_t time, uint32_t team, uint32_t creator, uint32_t generation);
  void ThreadCreate(uint64_t time, uint32_t contingent, uint64_t sequence);
  void ThreadBegin(uint64_t time, uint32_t contingent, uint64_t sequence);
  void ThreadWait(uint64_t time, uint32_t contingent, uint64_t sequence);
  void ThreadEnd(uint64_t time, uint32_t contingent, uint64_t sequence);

  // Attaches a uint64 attribute to the next event written (e.g. probe information).
  void AddUint64Attribute(uint32_t attribute, uint64_t value);
  void AddSourceCodeLocationAttribute(uint32_t attribute, uint32_t source_code_location);
  void AddGroupAttribute(uint32_t attribute, uint32_t group);

  uint64_t events_written() const { return events_; }
  uint64_t last_time() const { return last_time_; }
  OTF2_EvtWriter* raw() const { return writer_; }

 private:
  // Counts the event about to be written and returns the pending attributes (or nullptr).
  OTF2_AttributeList* TakeAttributes(uint64_t time);

  OTF2_EvtWriter* writer_;
  OTF2_AttributeList* attributes_;
  bool has_attributes_ = false;
  uint64_t events_ = 0;
  uint64_t last_time_ = 0;
};

}  // namespace cw::otf2_writer
