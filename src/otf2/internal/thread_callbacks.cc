// The OTF2 callbacks of thread records (fork, join, teams, locks, tasks, thread creation) and of
// OpenMP's own records, as the location builder stores them (trace::ThreadPayload).
#include <otf2/otf2.h>

#include "otf2/internal/callback_support.h"

namespace cw::otf2::internal {
namespace {

using trace::EventKind;
using trace::kNone;

OTF2_CallbackCode Thread(void* user, OTF2_AttributeList* attributes, OTF2_TimeStamp time,
                         EventKind kind, trace::ThreadPayload payload) {
  EventContext& ctx = Ctx(user);
  ctx.builder.Thread(time, kind, payload);
  return Done(ctx, attributes);
}

trace::ThreadPayload ThreadData(uint64_t id, uint32_t team, uint32_t count, uint32_t lock,
                                OTF2_Paradigm model) {
  return trace::ThreadPayload{id, team, count, lock, static_cast<trace::Paradigm>(model)};
}

OTF2_CallbackCode OnThreadFork(CW_EVT_ARGS, OTF2_Paradigm model, uint32_t threads) {
  return Thread(user, attributes, time, EventKind::kThreadFork,
                ThreadData(0, kNone, threads, 0, model));
}
OTF2_CallbackCode OnThreadJoin(CW_EVT_ARGS, OTF2_Paradigm model) {
  return Thread(user, attributes, time, EventKind::kThreadJoin, ThreadData(0, kNone, 0, 0, model));
}
OTF2_CallbackCode OnThreadTeamBegin(CW_EVT_ARGS, OTF2_CommRef team) {
  return Thread(user, attributes, time, EventKind::kThreadTeamBegin,
                ThreadData(0, team, 0, 0, OTF2_PARADIGM_UNKNOWN));
}
OTF2_CallbackCode OnThreadTeamEnd(CW_EVT_ARGS, OTF2_CommRef team) {
  return Thread(user, attributes, time, EventKind::kThreadTeamEnd,
                ThreadData(0, team, 0, 0, OTF2_PARADIGM_UNKNOWN));
}
OTF2_CallbackCode OnThreadAcquireLock(CW_EVT_ARGS, OTF2_Paradigm model, uint32_t lock,
                                      uint32_t order) {
  return Thread(user, attributes, time, EventKind::kThreadAcquireLock,
                ThreadData(0, kNone, order, lock, model));
}
OTF2_CallbackCode OnThreadReleaseLock(CW_EVT_ARGS, OTF2_Paradigm model, uint32_t lock,
                                      uint32_t order) {
  return Thread(user, attributes, time, EventKind::kThreadReleaseLock,
                ThreadData(0, kNone, order, lock, model));
}
OTF2_CallbackCode OnThreadTaskCreate(CW_EVT_ARGS, OTF2_CommRef team, uint32_t creator,
                                     uint32_t generation) {
  return Thread(user, attributes, time, EventKind::kThreadTaskCreate,
                ThreadData(0, team, creator, generation, OTF2_PARADIGM_UNKNOWN));
}
OTF2_CallbackCode OnThreadTaskSwitch(CW_EVT_ARGS, OTF2_CommRef team, uint32_t creator,
                                     uint32_t generation) {
  return Thread(user, attributes, time, EventKind::kThreadTaskSwitch,
                ThreadData(0, team, creator, generation, OTF2_PARADIGM_UNKNOWN));
}
OTF2_CallbackCode OnThreadTaskComplete(CW_EVT_ARGS, OTF2_CommRef team, uint32_t creator,
                                       uint32_t generation) {
  return Thread(user, attributes, time, EventKind::kThreadTaskComplete,
                ThreadData(0, team, creator, generation, OTF2_PARADIGM_UNKNOWN));
}
OTF2_CallbackCode OnThreadCreate(CW_EVT_ARGS, OTF2_CommRef contingent, uint64_t sequence) {
  return Thread(user, attributes, time, EventKind::kThreadCreate,
                ThreadData(sequence, contingent, 0, 0, OTF2_PARADIGM_UNKNOWN));
}
OTF2_CallbackCode OnThreadBegin(CW_EVT_ARGS, OTF2_CommRef contingent, uint64_t sequence) {
  return Thread(user, attributes, time, EventKind::kThreadBegin,
                ThreadData(sequence, contingent, 0, 0, OTF2_PARADIGM_UNKNOWN));
}
OTF2_CallbackCode OnThreadWait(CW_EVT_ARGS, OTF2_CommRef contingent, uint64_t sequence) {
  return Thread(user, attributes, time, EventKind::kThreadWait,
                ThreadData(sequence, contingent, 0, 0, OTF2_PARADIGM_UNKNOWN));
}
OTF2_CallbackCode OnThreadEnd(CW_EVT_ARGS, OTF2_CommRef contingent, uint64_t sequence) {
  return Thread(user, attributes, time, EventKind::kThreadEnd,
                ThreadData(sequence, contingent, 0, 0, OTF2_PARADIGM_UNKNOWN));
}
OTF2_CallbackCode OnOmpFork(CW_EVT_ARGS, uint32_t threads) {
  return Thread(user, attributes, time, EventKind::kOmpFork,
                ThreadData(0, kNone, threads, 0, OTF2_PARADIGM_OPENMP));
}
OTF2_CallbackCode OnOmpAcquireLock(CW_EVT_ARGS, uint32_t lock, uint32_t order) {
  return Thread(user, attributes, time, EventKind::kOmpAcquireLock,
                ThreadData(0, kNone, order, lock, OTF2_PARADIGM_OPENMP));
}
OTF2_CallbackCode OnOmpReleaseLock(CW_EVT_ARGS, uint32_t lock, uint32_t order) {
  return Thread(user, attributes, time, EventKind::kOmpReleaseLock,
                ThreadData(0, kNone, order, lock, OTF2_PARADIGM_OPENMP));
}
OTF2_CallbackCode OnOmpTaskCreate(CW_EVT_ARGS, uint64_t task) {
  return Thread(user, attributes, time, EventKind::kOmpTaskCreate,
                ThreadData(task, kNone, 0, 0, OTF2_PARADIGM_OPENMP));
}
OTF2_CallbackCode OnOmpTaskSwitch(CW_EVT_ARGS, uint64_t task) {
  return Thread(user, attributes, time, EventKind::kOmpTaskSwitch,
                ThreadData(task, kNone, 0, 0, OTF2_PARADIGM_OPENMP));
}
OTF2_CallbackCode OnOmpTaskComplete(CW_EVT_ARGS, uint64_t task) {
  return Thread(user, attributes, time, EventKind::kOmpTaskComplete,
                ThreadData(task, kNone, 0, 0, OTF2_PARADIGM_OPENMP));
}

OTF2_CallbackCode OnOmpJoin(CW_EVT_ARGS) {
  EventContext& ctx = Ctx(user);
  ctx.builder.NoPayload(time, EventKind::kOmpJoin);
  return Done(ctx, attributes);
}

}  // namespace

void SetThreadCallbacks(OTF2_EvtReaderCallbacks* cb) {
#define CW_SET(Name) OTF2_EvtReaderCallbacks_Set##Name##Callback(cb, TimeChecked<On##Name>::Call)
  CW_SET(ThreadFork);
  CW_SET(ThreadJoin);
  CW_SET(ThreadTeamBegin);
  CW_SET(ThreadTeamEnd);
  CW_SET(ThreadAcquireLock);
  CW_SET(ThreadReleaseLock);
  CW_SET(ThreadTaskCreate);
  CW_SET(ThreadTaskSwitch);
  CW_SET(ThreadTaskComplete);
  CW_SET(ThreadCreate);
  CW_SET(ThreadBegin);
  CW_SET(ThreadWait);
  CW_SET(ThreadEnd);
  CW_SET(OmpFork);
  CW_SET(OmpAcquireLock);
  CW_SET(OmpReleaseLock);
  CW_SET(OmpTaskCreate);
  CW_SET(OmpTaskSwitch);
  CW_SET(OmpTaskComplete);
  CW_SET(OmpJoin);
#undef CW_SET
}

}  // namespace cw::otf2::internal
