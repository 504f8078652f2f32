#include "otf2_writer/event_writer.h"

#include <otf2/otf2.h>

namespace cw::otf2_writer {

EventWriter::EventWriter(OTF2_EvtWriter* writer)
    : writer_(writer), attributes_(OTF2_AttributeList_New()) {}

EventWriter::~EventWriter() { OTF2_AttributeList_Delete(attributes_); }

OTF2_AttributeList* EventWriter::TakeAttributes(uint64_t time) {
  ++events_;
  if (time > last_time_) last_time_ = time;
  if (!has_attributes_) return nullptr;
  has_attributes_ = false;
  return attributes_;  // OTF2 empties the list when it writes the event
}

void EventWriter::AddUint64Attribute(uint32_t attribute, uint64_t value) {
  OTF2_AttributeList_AddUint64(attributes_, attribute, value);
  has_attributes_ = true;
}

void EventWriter::AddSourceCodeLocationAttribute(uint32_t attribute,
                                                 uint32_t source_code_location) {
  OTF2_AttributeList_AddSourceCodeLocationRef(attributes_, attribute, source_code_location);
  has_attributes_ = true;
}

void EventWriter::AddGroupAttribute(uint32_t attribute, uint32_t group) {
  OTF2_AttributeList_AddGroupRef(attributes_, attribute, group);
  has_attributes_ = true;
}

void EventWriter::Enter(uint64_t time, uint32_t region) {
  OTF2_EvtWriter_Enter(writer_, TakeAttributes(time), time, region);
}

void EventWriter::CallingContextEnter(uint64_t time, uint32_t context, uint32_t unwind_distance) {
  OTF2_EvtWriter_CallingContextEnter(writer_, TakeAttributes(time), time, context, unwind_distance);
}

void EventWriter::CallingContextLeave(uint64_t time, uint32_t context) {
  OTF2_EvtWriter_CallingContextLeave(writer_, TakeAttributes(time), time, context);
}

void EventWriter::CallingContextSample(uint64_t time, uint32_t context, uint32_t unwind_distance,
                                       uint32_t interrupt_generator) {
  OTF2_EvtWriter_CallingContextSample(writer_, TakeAttributes(time), time, context, unwind_distance,
                                      interrupt_generator);
}

void EventWriter::Leave(uint64_t time, uint32_t region) {
  OTF2_EvtWriter_Leave(writer_, TakeAttributes(time), time, region);
}

void EventWriter::MeasurementOnOff(uint64_t time, bool on) {
  OTF2_EvtWriter_MeasurementOnOff(writer_, TakeAttributes(time), time,
                                  on ? OTF2_MEASUREMENT_ON : OTF2_MEASUREMENT_OFF);
}

void EventWriter::ProgramBegin(uint64_t time, uint32_t name,
                               const std::vector<uint32_t>& arguments) {
  OTF2_EvtWriter_ProgramBegin(writer_, TakeAttributes(time), time, name,
                              static_cast<uint32_t>(arguments.size()), arguments.data());
}

void EventWriter::ProgramEnd(uint64_t time, int64_t exit_status) {
  OTF2_EvtWriter_ProgramEnd(writer_, TakeAttributes(time), time, exit_status);
}

void EventWriter::MpiSend(uint64_t time, uint32_t receiver, uint32_t comm, uint32_t tag,
                          uint64_t bytes) {
  OTF2_EvtWriter_MpiSend(writer_, TakeAttributes(time), time, receiver, comm, tag, bytes);
}

void EventWriter::MpiIsend(uint64_t time, uint32_t receiver, uint32_t comm, uint32_t tag,
                           uint64_t bytes, uint64_t request) {
  OTF2_EvtWriter_MpiIsend(writer_, TakeAttributes(time), time, receiver, comm, tag, bytes, request);
}

void EventWriter::MpiIsendComplete(uint64_t time, uint64_t request) {
  OTF2_EvtWriter_MpiIsendComplete(writer_, TakeAttributes(time), time, request);
}

void EventWriter::MpiIrecvRequest(uint64_t time, uint64_t request) {
  OTF2_EvtWriter_MpiIrecvRequest(writer_, TakeAttributes(time), time, request);
}

void EventWriter::MpiRecv(uint64_t time, uint32_t sender, uint32_t comm, uint32_t tag,
                          uint64_t bytes) {
  OTF2_EvtWriter_MpiRecv(writer_, TakeAttributes(time), time, sender, comm, tag, bytes);
}

void EventWriter::MpiIrecv(uint64_t time, uint32_t sender, uint32_t comm, uint32_t tag,
                           uint64_t bytes, uint64_t request) {
  OTF2_EvtWriter_MpiIrecv(writer_, TakeAttributes(time), time, sender, comm, tag, bytes, request);
}

void EventWriter::MpiRequestTest(uint64_t time, uint64_t request) {
  OTF2_EvtWriter_MpiRequestTest(writer_, TakeAttributes(time), time, request);
}

void EventWriter::MpiRequestCancelled(uint64_t time, uint64_t request) {
  OTF2_EvtWriter_MpiRequestCancelled(writer_, TakeAttributes(time), time, request);
}

void EventWriter::MpiCollectiveBegin(uint64_t time) {
  OTF2_EvtWriter_MpiCollectiveBegin(writer_, TakeAttributes(time), time);
}

void EventWriter::MpiCollectiveEnd(uint64_t time, OTF2_CollectiveOp op, uint32_t comm,
                                   uint32_t root, uint64_t sent, uint64_t received) {
  OTF2_EvtWriter_MpiCollectiveEnd(writer_, TakeAttributes(time), time, op, comm, root, sent,
                                  received);
}

void EventWriter::NonBlockingCollectiveRequest(uint64_t time, uint64_t request) {
  OTF2_EvtWriter_NonBlockingCollectiveRequest(writer_, TakeAttributes(time), time, request);
}

void EventWriter::NonBlockingCollectiveComplete(uint64_t time, OTF2_CollectiveOp op, uint32_t comm,
                                                uint32_t root, uint64_t sent, uint64_t received,
                                                uint64_t request) {
  OTF2_EvtWriter_NonBlockingCollectiveComplete(writer_, TakeAttributes(time), time, op, comm, root,
                                               sent, received, request);
}

void EventWriter::RmaWinCreate(uint64_t time, uint32_t window) {
  OTF2_EvtWriter_RmaWinCreate(writer_, TakeAttributes(time), time, window);
}

void EventWriter::RmaWinDestroy(uint64_t time, uint32_t window) {
  OTF2_EvtWriter_RmaWinDestroy(writer_, TakeAttributes(time), time, window);
}

void EventWriter::RmaCollectiveBegin(uint64_t time) {
  OTF2_EvtWriter_RmaCollectiveBegin(writer_, TakeAttributes(time), time);
}

void EventWriter::RmaCollectiveEnd(uint64_t time, OTF2_CollectiveOp op, OTF2_RmaSyncLevel level,
                                   uint32_t window, uint32_t root, uint64_t sent,
                                   uint64_t received) {
  OTF2_EvtWriter_RmaCollectiveEnd(writer_, TakeAttributes(time), time, op, level, window, root,
                                  sent, received);
}

void EventWriter::RmaGroupSync(uint64_t time, OTF2_RmaSyncLevel level, uint32_t window,
                               uint32_t group) {
  OTF2_EvtWriter_RmaGroupSync(writer_, TakeAttributes(time), time, level, window, group);
}

void EventWriter::RmaRequestLock(uint64_t time, uint32_t window, uint32_t remote, uint64_t lock,
                                 OTF2_LockType type) {
  OTF2_EvtWriter_RmaRequestLock(writer_, TakeAttributes(time), time, window, remote, lock, type);
}

void EventWriter::RmaAcquireLock(uint64_t time, uint32_t window, uint32_t remote, uint64_t lock,
                                 OTF2_LockType type) {
  OTF2_EvtWriter_RmaAcquireLock(writer_, TakeAttributes(time), time, window, remote, lock, type);
}

void EventWriter::RmaReleaseLock(uint64_t time, uint32_t window, uint32_t remote, uint64_t lock) {
  OTF2_EvtWriter_RmaReleaseLock(writer_, TakeAttributes(time), time, window, remote, lock);
}

void EventWriter::RmaSync(uint64_t time, uint32_t window, uint32_t remote, OTF2_RmaSyncType type) {
  OTF2_EvtWriter_RmaSync(writer_, TakeAttributes(time), time, window, remote, type);
}

void EventWriter::RmaAtomic(uint64_t time, uint32_t window, uint32_t remote,
                            OTF2_RmaAtomicType type, uint64_t sent, uint64_t received,
                            uint64_t matching) {
  OTF2_EvtWriter_RmaAtomic(writer_, TakeAttributes(time), time, window, remote, type, sent,
                           received, matching);
}

void EventWriter::RmaPut(uint64_t time, uint32_t window, uint32_t remote, uint64_t bytes,
                         uint64_t matching) {
  OTF2_EvtWriter_RmaPut(writer_, TakeAttributes(time), time, window, remote, bytes, matching);
}

void EventWriter::RmaGet(uint64_t time, uint32_t window, uint32_t remote, uint64_t bytes,
                         uint64_t matching) {
  OTF2_EvtWriter_RmaGet(writer_, TakeAttributes(time), time, window, remote, bytes, matching);
}

void EventWriter::RmaOpCompleteBlocking(uint64_t time, uint32_t window, uint64_t matching) {
  OTF2_EvtWriter_RmaOpCompleteBlocking(writer_, TakeAttributes(time), time, window, matching);
}

void EventWriter::RmaTryLock(uint64_t time, uint32_t window, uint32_t remote, uint64_t lock,
                             OTF2_LockType type) {
  OTF2_EvtWriter_RmaTryLock(writer_, TakeAttributes(time), time, window, remote, lock, type);
}

void EventWriter::RmaWaitChange(uint64_t time, uint32_t window) {
  OTF2_EvtWriter_RmaWaitChange(writer_, TakeAttributes(time), time, window);
}

void EventWriter::RmaOpCompleteNonBlocking(uint64_t time, uint32_t window, uint64_t matching) {
  OTF2_EvtWriter_RmaOpCompleteNonBlocking(writer_, TakeAttributes(time), time, window, matching);
}

void EventWriter::RmaOpTest(uint64_t time, uint32_t window, uint64_t matching) {
  OTF2_EvtWriter_RmaOpTest(writer_, TakeAttributes(time), time, window, matching);
}

void EventWriter::RmaOpCompleteRemote(uint64_t time, uint32_t window, uint64_t matching) {
  OTF2_EvtWriter_RmaOpCompleteRemote(writer_, TakeAttributes(time), time, window, matching);
}

void EventWriter::IoCreateHandle(uint64_t time, uint32_t handle, OTF2_IoAccessMode mode,
                                 OTF2_IoCreationFlag creation, OTF2_IoStatusFlag status) {
  OTF2_EvtWriter_IoCreateHandle(writer_, TakeAttributes(time), time, handle, mode, creation,
                                status);
}

void EventWriter::IoDestroyHandle(uint64_t time, uint32_t handle) {
  OTF2_EvtWriter_IoDestroyHandle(writer_, TakeAttributes(time), time, handle);
}

void EventWriter::IoOperationBegin(uint64_t time, uint32_t handle, OTF2_IoOperationMode mode,
                                   OTF2_IoOperationFlag flags, uint64_t bytes, uint64_t matching) {
  OTF2_EvtWriter_IoOperationBegin(writer_, TakeAttributes(time), time, handle, mode, flags, bytes,
                                  matching);
}

void EventWriter::IoOperationIssued(uint64_t time, uint32_t handle, uint64_t matching) {
  OTF2_EvtWriter_IoOperationIssued(writer_, TakeAttributes(time), time, handle, matching);
}

void EventWriter::IoOperationComplete(uint64_t time, uint32_t handle, uint64_t bytes,
                                      uint64_t matching) {
  OTF2_EvtWriter_IoOperationComplete(writer_, TakeAttributes(time), time, handle, bytes, matching);
}

void EventWriter::ThreadFork(uint64_t time, OTF2_Paradigm model, uint32_t threads) {
  OTF2_EvtWriter_ThreadFork(writer_, TakeAttributes(time), time, model, threads);
}

void EventWriter::ThreadJoin(uint64_t time, OTF2_Paradigm model) {
  OTF2_EvtWriter_ThreadJoin(writer_, TakeAttributes(time), time, model);
}

void EventWriter::ThreadTeamBegin(uint64_t time, uint32_t team) {
  OTF2_EvtWriter_ThreadTeamBegin(writer_, TakeAttributes(time), time, team);
}

void EventWriter::ThreadTeamEnd(uint64_t time, uint32_t team) {
  OTF2_EvtWriter_ThreadTeamEnd(writer_, TakeAttributes(time), time, team);
}

void EventWriter::ThreadAcquireLock(uint64_t time, OTF2_Paradigm model, uint32_t lock,
                                    uint32_t order) {
  OTF2_EvtWriter_ThreadAcquireLock(writer_, TakeAttributes(time), time, model, lock, order);
}

void EventWriter::ThreadReleaseLock(uint64_t time, OTF2_Paradigm model, uint32_t lock,
                                    uint32_t order) {
  OTF2_EvtWriter_ThreadReleaseLock(writer_, TakeAttributes(time), time, model, lock, order);
}

void EventWriter::ThreadTaskCreate(uint64_t time, uint32_t team, uint32_t creator,
                                   uint32_t generation) {
  OTF2_EvtWriter_ThreadTaskCreate(writer_, TakeAttributes(time), time, team, creator, generation);
}

void EventWriter::ThreadTaskSwitch(uint64_t time, uint32_t team, uint32_t creator,
                                   uint32_t generation) {
  OTF2_EvtWriter_ThreadTaskSwitch(writer_, TakeAttributes(time), time, team, creator, generation);
}

void EventWriter::ThreadTaskComplete(uint64_t time, uint32_t team, uint32_t creator,
                                     uint32_t generation) {
  OTF2_EvtWriter_ThreadTaskComplete(writer_, TakeAttributes(time), time, team, creator, generation);
}

void EventWriter::ThreadCreate(uint64_t time, uint32_t contingent, uint64_t sequence) {
  OTF2_EvtWriter_ThreadCreate(writer_, TakeAttributes(time), time, contingent, sequence);
}

void EventWriter::ThreadBegin(uint64_t time, uint32_t contingent, uint64_t sequence) {
  OTF2_EvtWriter_ThreadBegin(writer_, TakeAttributes(time), time, contingent, sequence);
}

void EventWriter::ThreadWait(uint64_t time, uint32_t contingent, uint64_t sequence) {
  OTF2_EvtWriter_ThreadWait(writer_, TakeAttributes(time), time, contingent, sequence);
}

void EventWriter::ThreadEnd(uint64_t time, uint32_t contingent, uint64_t sequence) {
  OTF2_EvtWriter_ThreadEnd(writer_, TakeAttributes(time), time, contingent, sequence);
}

}  // namespace cw::otf2_writer
