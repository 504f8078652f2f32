// The OTF2 callbacks of I/O records (handles, operations, locks), kept as generic payloads
// (trace::GenericPayload) for the I/O analysis.
#include <otf2/otf2.h>

#include "otf2/internal/callback_support.h"

namespace cw::otf2::internal {
namespace {

using trace::EventKind;

OTF2_CallbackCode OnIoCreateHandle(CW_EVT_ARGS, OTF2_IoHandleRef handle, OTF2_IoAccessMode mode,
                                   OTF2_IoCreationFlag creation, OTF2_IoStatusFlag status) {
  return Generic(user, attributes, time, EventKind::kIoCreateHandle, creation, status, handle,
                 mode);
}
OTF2_CallbackCode OnIoDestroyHandle(CW_EVT_ARGS, OTF2_IoHandleRef handle) {
  return Generic(user, attributes, time, EventKind::kIoDestroyHandle, 0, 0, handle, 0);
}
OTF2_CallbackCode OnIoDuplicateHandle(CW_EVT_ARGS, OTF2_IoHandleRef old_handle,
                                      OTF2_IoHandleRef new_handle, OTF2_IoStatusFlag status) {
  return Generic(user, attributes, time, EventKind::kIoDuplicateHandle, status, 0, old_handle,
                 new_handle);
}
OTF2_CallbackCode OnIoSeek(CW_EVT_ARGS, OTF2_IoHandleRef handle, int64_t request,
                           OTF2_IoSeekOption whence, uint64_t result) {
  return Generic(user, attributes, time, EventKind::kIoSeek, static_cast<uint64_t>(request), result,
                 handle, whence);
}
OTF2_CallbackCode OnIoChangeStatusFlags(CW_EVT_ARGS, OTF2_IoHandleRef handle,
                                        OTF2_IoStatusFlag flags) {
  return Generic(user, attributes, time, EventKind::kIoChangeStatusFlags, flags, 0, handle, 0);
}
OTF2_CallbackCode OnIoDeleteFile(CW_EVT_ARGS, OTF2_IoParadigmRef paradigm, OTF2_IoFileRef file) {
  return Generic(user, attributes, time, EventKind::kIoDeleteFile, 0, 0, paradigm, file);
}
OTF2_CallbackCode OnIoOperationBegin(CW_EVT_ARGS, OTF2_IoHandleRef handle,
                                     OTF2_IoOperationMode mode, OTF2_IoOperationFlag flags,
                                     uint64_t bytes, uint64_t matching) {
  return Generic(user, attributes, time, EventKind::kIoOperationBegin, bytes, matching, handle,
                 static_cast<uint32_t>(mode) | (static_cast<uint32_t>(flags) << 8));
}
OTF2_CallbackCode OnIoOperationTest(CW_EVT_ARGS, OTF2_IoHandleRef handle, uint64_t matching) {
  return Generic(user, attributes, time, EventKind::kIoOperationTest, 0, matching, handle, 0);
}
OTF2_CallbackCode OnIoOperationIssued(CW_EVT_ARGS, OTF2_IoHandleRef handle, uint64_t matching) {
  return Generic(user, attributes, time, EventKind::kIoOperationIssued, 0, matching, handle, 0);
}
OTF2_CallbackCode OnIoOperationComplete(CW_EVT_ARGS, OTF2_IoHandleRef handle, uint64_t bytes,
                                        uint64_t matching) {
  return Generic(user, attributes, time, EventKind::kIoOperationComplete, bytes, matching, handle,
                 0);
}
OTF2_CallbackCode OnIoOperationCancelled(CW_EVT_ARGS, OTF2_IoHandleRef handle, uint64_t matching) {
  return Generic(user, attributes, time, EventKind::kIoOperationCancelled, 0, matching, handle, 0);
}
OTF2_CallbackCode OnIoAcquireLock(CW_EVT_ARGS, OTF2_IoHandleRef handle, OTF2_LockType type) {
  return Generic(user, attributes, time, EventKind::kIoAcquireLock, 0, 0, handle, type);
}
OTF2_CallbackCode OnIoReleaseLock(CW_EVT_ARGS, OTF2_IoHandleRef handle, OTF2_LockType type) {
  return Generic(user, attributes, time, EventKind::kIoReleaseLock, 0, 0, handle, type);
}
OTF2_CallbackCode OnIoTryLock(CW_EVT_ARGS, OTF2_IoHandleRef handle, OTF2_LockType type) {
  return Generic(user, attributes, time, EventKind::kIoTryLock, 0, 0, handle, type);
}

}  // namespace

void SetIoCallbacks(OTF2_EvtReaderCallbacks* cb) {
#define CW_SET(Name) OTF2_EvtReaderCallbacks_Set##Name##Callback(cb, TimeChecked<On##Name>::Call)
  CW_SET(IoCreateHandle);
  CW_SET(IoDestroyHandle);
  CW_SET(IoDuplicateHandle);
  CW_SET(IoSeek);
  CW_SET(IoChangeStatusFlags);
  CW_SET(IoDeleteFile);
  CW_SET(IoOperationBegin);
  CW_SET(IoOperationTest);
  CW_SET(IoOperationIssued);
  CW_SET(IoOperationComplete);
  CW_SET(IoOperationCancelled);
  CW_SET(IoAcquireLock);
  CW_SET(IoReleaseLock);
  CW_SET(IoTryLock);
#undef CW_SET
}

}  // namespace cw::otf2::internal
