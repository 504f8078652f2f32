// The what-if replay on every real Score-P trace: the unchanged replay reproduces every event's
// time, and the replay keeps its order properties under change (slower computation never makes
// a location finish earlier, an ideal network never later).
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "otf2/trace_reader.h"
#include "sim/replay.h"
#include "sim/trace_source.h"
#include "tests/common/paths.h"

namespace cw::sim {
namespace {

class CountingObserver final : public ReplayObserver {
 public:
  explicit CountingObserver(const trace::Trace& t) : trace_(t), next_(t.location_count(), 0) {}
  void OnEvents(uint32_t location, std::span<const SimEvent>,
                std::span<const uint64_t> times) override {
    const trace::LocationEvents& ev = trace_.location(location);
    for (uint64_t t : times) {
      uint32_t i = next_[location]++;
      if (i < ev.size() && ev.time(i) != t) ++moved;
    }
  }
  const trace::Trace& trace_;
  std::vector<uint32_t> next_;
  uint64_t moved = 0;
};

ReplayResult Replay(const trace::Trace& t, const Perturbation& p, ReplayObserver* observer) {
  ReplayOptions options;
  options.perturbation = p;
  options.observer = observer;
  Result<ReplayResult> r = RunReplay(TraceInput(t), options);
  EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().message());
  return r ? std::move(*r) : ReplayResult{};
}

TEST(WhatIfRealTracesTest, UnchangedReplayKeepsEveryTimestamp) {
  for (const std::string& name : test::RealTraceNames()) {
    SCOPED_TRACE(name);
    Result<trace::Trace> t = otf2::ReadTrace(test::RealTrace(name) + "/traces.otf2", {});
    ASSERT_TRUE(t.has_value()) << t.error().message();
    CountingObserver observer(*t);
    ReplayResult r = Replay(*t, {}, &observer);
    EXPECT_EQ(r.stats.events, t->EventCount());
    EXPECT_EQ(observer.moved, 0u);
    EXPECT_EQ(r.stats.cycles_broken, 0u);
    for (uint32_t l = 0; l < t->location_count(); ++l) {
      EXPECT_EQ(r.locations[l].predicted_end, r.locations[l].measured_end) << "location " << l;
    }
  }
}

TEST(WhatIfRealTracesTest, SlowerComputationNeverEndsEarlierAndIdealNetworkNeverLater) {
  for (const std::string& name : test::RealTraceNames()) {
    SCOPED_TRACE(name);
    Result<trace::Trace> t = otf2::ReadTrace(test::RealTrace(name) + "/traces.otf2", {});
    ASSERT_TRUE(t.has_value()) << t.error().message();
    Perturbation slower;
    slower.compute.push_back(*ParseComputeScale("1.5"));
    Perturbation ideal;
    ideal.network.ideal = true;
    ReplayResult s = Replay(*t, slower, nullptr);
    ReplayResult i = Replay(*t, ideal, nullptr);
    for (uint32_t l = 0; l < t->location_count(); ++l) {
      EXPECT_GE(s.locations[l].predicted_end, s.locations[l].measured_end) << "location " << l;
      EXPECT_LE(i.locations[l].predicted_end, i.locations[l].measured_end) << "location " << l;
    }
    EXPECT_EQ(s.stats.cycles_broken + i.stats.cycles_broken, 0u);
  }
}

}  // namespace
}  // namespace cw::sim
