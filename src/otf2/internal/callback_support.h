// What the OTF2 event callbacks share (private to otf2/): the reading context behind `user`, the
// bookkeeping after each record, the time check every callback runs behind, and the callback
// families kept in files of their own (thread_callbacks.cc, io_callbacks.cc). event_callbacks.cc
// puts them together in NewEventCallbacks.
#pragma once

#include <cstdint>

#include <otf2/otf2.h>

#include "otf2/internal/event_callbacks.h"
#include "trace/event_kind.h"

namespace cw::otf2::internal {

// The common head of every callback's parameter list.
#define CW_EVT_ARGS \
  OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void *user, OTF2_AttributeList *attributes

inline EventContext& Ctx(void* user) { return *static_cast<EventContext*>(user); }

// Bookkeeping after each record: its attributes, the reading's progress.
OTF2_CallbackCode Done(EventContext& ctx, OTF2_AttributeList* attributes);

// A record kept as a generic payload (trace::GenericPayload's four fields).
OTF2_CallbackCode Generic(void* user, OTF2_AttributeList* attributes, OTF2_TimeStamp time,
                          trace::EventKind kind, uint64_t a, uint64_t b, uint32_t c, uint32_t d);

// Every callback runs behind this check of its timestamp (see EventContext::earliest): an event
// outside the valid range interrupts the reading before it is stored.
template <auto Callback>
struct TimeChecked;
template <typename... Rest,
          OTF2_CallbackCode (*Callback)(OTF2_LocationRef, OTF2_TimeStamp, uint64_t, void*,
                                        OTF2_AttributeList*, Rest...)>
struct TimeChecked<Callback> {
  static OTF2_CallbackCode Call(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                void* user, OTF2_AttributeList* attributes, Rest... rest) {
    EventContext& ctx = Ctx(user);
    if (time < ctx.earliest || time > ctx.latest) [[unlikely]] {
      ctx.out_of_range = time;
      return OTF2_CALLBACK_INTERRUPT;
    }
    return Callback(location, time, position, user, attributes, rest...);
  }
};

// Threads (OpenMP, pthreads) and OpenMP's own records.
void SetThreadCallbacks(OTF2_EvtReaderCallbacks* callbacks);
// I/O records (MPI-IO and the other I/O paradigms).
void SetIoCallbacks(OTF2_EvtReaderCallbacks* callbacks);

}  // namespace cw::otf2::internal
