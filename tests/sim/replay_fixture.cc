#include "tests/sim/replay_fixture.h"

#include <gtest/gtest.h>

#include "otf2/trace_reader.h"
#include "sim/trace_source.h"

namespace cw::sim {
namespace {

class TimesObserver final : public ReplayObserver {
 public:
  explicit TimesObserver(size_t locations) : times(locations) {}
  void OnEvents(uint32_t location, std::span<const SimEvent>,
                std::span<const uint64_t> new_times) override {
    times[location].insert(times[location].end(), new_times.begin(), new_times.end());
  }
  std::vector<std::vector<uint64_t>> times;
};

}  // namespace

Replayed Replay(const testing::Scenario& s, const Perturbation& p) {
  std::string dir = testing::MakeTempDir("sim");
  Result<trace::Trace> t = otf2::ReadTrace(s.WriteOrDie(dir), {});
  EXPECT_TRUE(t.has_value());
  Replayed out{std::move(*t), {}, {}};
  TimesObserver observer(out.trace.location_count());
  ReplayOptions options;
  options.perturbation = p;
  options.observer = &observer;
  options.turn_events = 3;  // small turns: locations interleave as they would on a big trace
  Result<ReplayResult> r = RunReplay(TraceInput(out.trace), options);
  EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().message());
  if (r) out.result = std::move(*r);
  out.times = std::move(observer.times);
  return out;
}

// Every event keeps its time when nothing changes.
void ExpectIdentity(const Replayed& r) {
  for (uint32_t l = 0; l < r.trace.location_count(); ++l) {
    const trace::LocationEvents& ev = r.trace.location(l);
    ASSERT_EQ(r.times[l].size(), ev.size()) << "location " << l;
    for (uint32_t i = 0; i < ev.size(); ++i) {
      EXPECT_EQ(r.times[l][i], ev.time(i)) << "location " << l << " event " << i;
    }
  }
}

Perturbation ComputeScaled(const std::string& spec) {
  Perturbation p;
  p.compute.push_back(*ParseComputeScale(spec));
  return p;
}

}  // namespace cw::sim
