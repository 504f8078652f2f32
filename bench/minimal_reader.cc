// The baseline of the reading benchmark: decodes every event of an OTF2 archive through the OTF2
// C API with a callback registered for every event record (each only counts), and nothing else.
// It reads the locations in parallel the way causeway does (one OTF2 reader per thread, locations
// balanced by event count), so that the two are compared at the same parallelism.
//
//   minimal-reader TRACE [THREADS]      prints: events seconds events/s
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include <otf2/otf2.h>

namespace {

struct Counter {
  uint64_t events = 0;
};

#define CW_COUNT(Name)                                                                \
  OTF2_EvtReaderCallbacks_Set##Name##Callback(                                        \
      cb,                                                                             \
      [](OTF2_LocationRef, OTF2_TimeStamp, uint64_t, void* user, OTF2_AttributeList*, \
         auto...) -> OTF2_CallbackCode {                                              \
        ++static_cast<Counter*>(user)->events;                                        \
        return OTF2_CALLBACK_SUCCESS;                                                 \
      })

OTF2_EvtReaderCallbacks* AllCallbacks() {
  OTF2_EvtReaderCallbacks* cb = OTF2_EvtReaderCallbacks_New();
  CW_COUNT(BufferFlush);
  CW_COUNT(MeasurementOnOff);
  CW_COUNT(Enter);
  CW_COUNT(Leave);
  CW_COUNT(MpiSend);
  CW_COUNT(MpiIsend);
  CW_COUNT(MpiIsendComplete);
  CW_COUNT(MpiIrecvRequest);
  CW_COUNT(MpiRecv);
  CW_COUNT(MpiIrecv);
  CW_COUNT(MpiRequestTest);
  CW_COUNT(MpiRequestCancelled);
  CW_COUNT(MpiCollectiveBegin);
  CW_COUNT(MpiCollectiveEnd);
  CW_COUNT(OmpFork);
  CW_COUNT(OmpJoin);
  CW_COUNT(OmpAcquireLock);
  CW_COUNT(OmpReleaseLock);
  CW_COUNT(OmpTaskCreate);
  CW_COUNT(OmpTaskSwitch);
  CW_COUNT(OmpTaskComplete);
  CW_COUNT(Metric);
  CW_COUNT(ParameterString);
  CW_COUNT(ParameterInt);
  CW_COUNT(ParameterUnsignedInt);
  CW_COUNT(RmaWinCreate);
  CW_COUNT(RmaWinDestroy);
  CW_COUNT(RmaCollectiveBegin);
  CW_COUNT(RmaCollectiveEnd);
  CW_COUNT(RmaGroupSync);
  CW_COUNT(RmaRequestLock);
  CW_COUNT(RmaAcquireLock);
  CW_COUNT(RmaTryLock);
  CW_COUNT(RmaReleaseLock);
  CW_COUNT(RmaSync);
  CW_COUNT(RmaWaitChange);
  CW_COUNT(RmaPut);
  CW_COUNT(RmaGet);
  CW_COUNT(RmaAtomic);
  CW_COUNT(RmaOpCompleteBlocking);
  CW_COUNT(RmaOpCompleteNonBlocking);
  CW_COUNT(RmaOpTest);
  CW_COUNT(RmaOpCompleteRemote);
  CW_COUNT(ThreadFork);
  CW_COUNT(ThreadJoin);
  CW_COUNT(ThreadTeamBegin);
  CW_COUNT(ThreadTeamEnd);
  CW_COUNT(ThreadAcquireLock);
  CW_COUNT(ThreadReleaseLock);
  CW_COUNT(ThreadTaskCreate);
  CW_COUNT(ThreadTaskSwitch);
  CW_COUNT(ThreadTaskComplete);
  CW_COUNT(ThreadCreate);
  CW_COUNT(ThreadBegin);
  CW_COUNT(ThreadWait);
  CW_COUNT(ThreadEnd);
  CW_COUNT(CallingContextEnter);
  CW_COUNT(CallingContextLeave);
  CW_COUNT(CallingContextSample);
  CW_COUNT(IoCreateHandle);
  CW_COUNT(IoDestroyHandle);
  CW_COUNT(IoDuplicateHandle);
  CW_COUNT(IoSeek);
  CW_COUNT(IoChangeStatusFlags);
  CW_COUNT(IoDeleteFile);
  CW_COUNT(IoOperationBegin);
  CW_COUNT(IoOperationTest);
  CW_COUNT(IoOperationIssued);
  CW_COUNT(IoOperationComplete);
  CW_COUNT(IoOperationCancelled);
  CW_COUNT(IoAcquireLock);
  CW_COUNT(IoReleaseLock);
  CW_COUNT(IoTryLock);
  CW_COUNT(ProgramBegin);
  CW_COUNT(ProgramEnd);
  CW_COUNT(NonBlockingCollectiveRequest);
  CW_COUNT(NonBlockingCollectiveComplete);
  CW_COUNT(CommCreate);
  CW_COUNT(CommDestroy);
  CW_COUNT(Unknown);
  return cb;
}

struct LocationInfo {
  uint64_t id;
  uint64_t events;
};

std::vector<LocationInfo> ReadLocations(const char* anchor) {
  OTF2_Reader* reader = OTF2_Reader_Open(anchor);
  OTF2_Reader_SetSerialCollectiveCallbacks(reader);
  std::vector<LocationInfo> locations;
  OTF2_GlobalDefReader* defs = OTF2_Reader_GetGlobalDefReader(reader);
  OTF2_GlobalDefReaderCallbacks* cb = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(
      cb, [](void* user, OTF2_LocationRef self, OTF2_StringRef, OTF2_LocationType, uint64_t events,
             OTF2_LocationGroupRef) {
        static_cast<std::vector<LocationInfo>*>(user)->push_back({self, events});
        return OTF2_CALLBACK_SUCCESS;
      });
  OTF2_Reader_RegisterGlobalDefCallbacks(reader, defs, cb, &locations);
  uint64_t n = 0;
  OTF2_Reader_ReadAllGlobalDefinitions(reader, defs, &n);
  OTF2_GlobalDefReaderCallbacks_Delete(cb);
  OTF2_Reader_Close(reader);
  return locations;
}

uint64_t ReadShare(const char* anchor, const std::vector<LocationInfo>& share) {
  OTF2_Reader* reader = OTF2_Reader_Open(anchor);
  OTF2_Reader_SetSerialCollectiveCallbacks(reader);
  for (const LocationInfo& loc : share) OTF2_Reader_SelectLocation(reader, loc.id);
  bool defs = OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS;
  OTF2_Reader_OpenEvtFiles(reader);
  OTF2_EvtReaderCallbacks* cb = AllCallbacks();
  Counter counter;
  for (const LocationInfo& loc : share) {
    if (defs) {
      if (OTF2_DefReader* d = OTF2_Reader_GetDefReader(reader, loc.id)) {
        uint64_t n = 0;
        OTF2_Reader_ReadAllLocalDefinitions(reader, d, &n);
        OTF2_Reader_CloseDefReader(reader, d);
      }
    }
    OTF2_EvtReader* evt = OTF2_Reader_GetEvtReader(reader, loc.id);
    OTF2_Reader_RegisterEvtCallbacks(reader, evt, cb, &counter);
    uint64_t n = 0;
    OTF2_Reader_ReadAllLocalEvents(reader, evt, &n);
    OTF2_Reader_CloseEvtReader(reader, evt);
  }
  OTF2_EvtReaderCallbacks_Delete(cb);
  OTF2_Reader_CloseEvtFiles(reader);
  if (defs) OTF2_Reader_CloseDefFiles(reader);
  OTF2_Reader_Close(reader);
  return counter.events;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: minimal-reader TRACE_ANCHOR [THREADS]\n");
    return 1;
  }
  const char* anchor = argv[1];
  unsigned threads = argc > 2 ? static_cast<unsigned>(std::stoul(argv[2]))
                              : std::max(1u, std::thread::hardware_concurrency());
  auto start = std::chrono::steady_clock::now();
  std::vector<LocationInfo> locations = ReadLocations(anchor);
  std::sort(locations.begin(), locations.end(),
            [](const LocationInfo& a, const LocationInfo& b) { return a.events > b.events; });
  threads = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>(locations.size())));
  std::vector<std::vector<LocationInfo>> shares(threads);
  std::vector<uint64_t> load(threads, 0);
  for (const LocationInfo& loc : locations) {
    size_t t = static_cast<size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    shares[t].push_back(loc);
    load[t] += loc.events;
  }
  std::vector<uint64_t> counted(threads, 0);
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] { counted[t] = ReadShare(anchor, shares[t]); });
  }
  for (std::thread& th : pool) th.join();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  uint64_t events = std::accumulate(counted.begin(), counted.end(), uint64_t{0});
  std::printf("%llu %.6f %.0f\n", static_cast<unsigned long long>(events), seconds,
              static_cast<double>(events) / seconds);
  return 0;
}
