// The causes of waits for a group summed per collective instance (advice_internal's
// AddGroupWaitCauses) against the same causes charged one by one, with the numbers derived
// beside them.
#include "analysis/advice/internal/group_waits.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace cw::analysis::advice_internal {
namespace {

// A graph of collective instances and the arrivals of their members (sorted by entry, as
// IndexMembers sorts them), each member's call path 100 + its location.
struct Instances {
  match::SyncGraph graph;
  MemberIndex members;

  // Adds an instance whose members entered at `entered` (by member) on `locations`.
  uint32_t Add(const std::vector<uint64_t>& entered, const std::vector<uint32_t>& locations) {
    match::CollectiveInstance c;
    c.first_member = static_cast<uint32_t>(members.arrivals.size());
    c.member_count = static_cast<uint32_t>(entered.size());
    std::vector<MemberIndex::Arrival> arrivals;
    for (uint32_t k = 0; k < entered.size(); ++k) {
      arrivals.push_back(MemberIndex::Arrival{entered[k], locations[k], locations[k], k});
      members.callpath.push_back(100 + locations[k]);
    }
    std::sort(arrivals.begin(), arrivals.end(), MemberIndex::Arrival::ByEntry);
    members.arrivals.insert(members.arrivals.end(), arrivals.begin(), arrivals.end());
    graph.collectives.push_back(c);
    return static_cast<uint32_t>(graph.collectives.size() - 1);
  }
};

uint64_t Key(uint32_t location) { return (uint64_t{location} << 32) | (100 + location); }

TEST(GroupWaitsTest, EachLaterMemberCausesTheWaitsOfTheMembersBeforeIt) {
  // Instance 0, entries near B = 9e18 ticks, so that the sum of three waiters' entries (2.7e19)
  // does not fit in 64 bits, though every wait does. Sorted: location 3 at B+10, 0 at B+20,
  // 1 at B+50, 2 at B+80. The first three waited for every member after them:
  //   location 0 (B+20): for the waiter at B+10: 10; 1 instance
  //   location 1 (B+50): 40 + 30 = 70; 2 instances
  //   location 2 (B+80): 70 + 60 + 30 = 160; 3 instances
  // Instance 1: location 0 at 1000 waited for location 2 at 1005: 5 more for location 2, which
  // the map already held with 7 ticks, 1 instance, first at 500:
  //   location 2: 160 + 5 + 7 = 172 in 3 + 1 + 1 = 5 instances, first 500.
  constexpr uint64_t B = 9'000'000'000'000'000'000ull;
  Instances in;
  const uint32_t first = in.Add({B + 20, B + 50, B + 10, B + 80}, {0, 1, 3, 2});
  const uint32_t second = in.Add({1000, 1005}, {0, 2});
  std::vector<GroupWait> waits = {
      {second, 1, 2, 1000}, {first, 2, 4, B + 20}, {first, 1, 4, B + 10}, {first, 3, 4, B + 50}};
  std::map<uint64_t, AdviceCause> causes;
  causes[Key(2)] = AdviceCause{2, 102, 7, 1, 500};
  AddGroupWaitCauses(waits, in.graph, in.members, causes);
  ASSERT_EQ(causes.size(), 3u);
  EXPECT_EQ(causes[Key(0)].time, 10u);
  EXPECT_EQ(causes[Key(0)].instances, 1u);
  EXPECT_EQ(causes[Key(0)].first, B + 20);
  EXPECT_EQ(causes[Key(1)].time, 70u);
  EXPECT_EQ(causes[Key(1)].instances, 2u);
  EXPECT_EQ(causes[Key(1)].first, B + 50);
  EXPECT_EQ(causes[Key(2)].time, 172u);
  EXPECT_EQ(causes[Key(2)].instances, 5u);
  EXPECT_EQ(causes[Key(2)].first, 500u);
  EXPECT_EQ(causes[Key(2)].callpath, 102u);
}

TEST(GroupWaitsTest, SummedPerInstanceAsChargedOneByOne) {
  // Random instances and waiters (a waiter's range: some of the members after it), summed both
  // ways.
  std::mt19937 random(7);
  auto draw = [&random](uint32_t below) { return static_cast<uint32_t>(random() % below); };
  Instances in;
  std::vector<GroupWait> waits;
  std::map<uint64_t, AdviceCause> expected;
  for (int i = 0; i < 200; ++i) {
    const uint32_t n = 2 + draw(40);
    std::vector<uint64_t> entered;
    std::vector<uint32_t> locations;
    for (uint32_t k = 0; k < n; ++k) {
      entered.push_back(1'000'000 + draw(1000));
      locations.push_back((k * 7 + static_cast<uint32_t>(i)) % 64);
    }
    const uint32_t c = in.Add(entered, locations);
    const match::CollectiveInstance& inst = in.graph.collectives[c];
    for (uint32_t w = 0; w + 1 < n; ++w) {
      if (draw(3) == 0) continue;  // not a bottleneck instance
      const uint64_t t0 = in.members.arrivals[inst.first_member + w].entered;
      const uint32_t hi = w + 2 + draw(n - w - 1);
      for (uint32_t j = w + 1; j < hi; ++j) {
        const MemberIndex::Arrival& m = in.members.arrivals[inst.first_member + j];
        AdviceCause& e = expected[Key(m.location)];
        if (e.instances == 0) e = AdviceCause{m.location, 100 + m.location, 0, 0, m.entered};
        e.time += m.entered - t0;
        ++e.instances;
        e.first = std::min(e.first, m.entered);
      }
      waits.push_back(GroupWait{c, w + 1, hi, t0});
    }
  }
  std::shuffle(waits.begin(), waits.end(), random);
  std::map<uint64_t, AdviceCause> causes;
  AddGroupWaitCauses(waits, in.graph, in.members, causes);
  ASSERT_EQ(causes.size(), expected.size());
  for (const auto& [key, e] : expected) {
    const AdviceCause& c = causes[key];
    EXPECT_EQ(c.location, e.location);
    EXPECT_EQ(c.callpath, e.callpath);
    EXPECT_EQ(c.time, e.time) << e.location;
    EXPECT_EQ(c.instances, e.instances) << e.location;
    EXPECT_EQ(c.first, e.first) << e.location;
  }
}

}  // namespace
}  // namespace cw::analysis::advice_internal
