// Probe <-> receive matching (Haus 2024 §3.2 and its test case §4.2.1).
#include <gtest/gtest.h>

#include "match/matcher.h"
#include "otf2/trace_reader.h"
#include "testing/scenario.h"

namespace cw::match {
namespace {

trace::Trace ReadProbes(const testing::Scenario& s) {
  Result<trace::Trace> t =
      otf2::ReadTrace(s.WriteOrDie(testing::MakeTempDir("probes")), otf2::ReadOptions{});
  EXPECT_TRUE(t) << t.error().message();
  return std::move(*t);
}

// (probe Enter, tag of the message it found) for every probe link of `location`.
std::vector<std::pair<uint32_t, uint32_t>> Links(const trace::Trace& t, const SyncGraph& g,
                                                 uint32_t location, bool inferred) {
  std::vector<std::pair<uint32_t, uint32_t>> links;
  const LocationSync& s = g.by_location[location];
  for (uint32_t p = s.first_probe; p < s.first_probe + s.probe_count; ++p) {
    const ProbeLink& link = g.probes[p];
    EXPECT_EQ(link.inferred, inferred);
    const Message& m = g.messages[link.message];
    EXPECT_EQ(m.receiver, location);
    links.emplace_back(link.probe, t.location(m.sender).p2p(m.send_event).tag);
  }
  return links;
}

// Haus 2024 §4.2.1 (its Listing 1), with the probe attributes of causeway's tracer:
//   rank 0: Send(tag 1) Send(tag 2) Probe(tag 3) Probe(tag 3) Recv(tag 3)
//   rank 1: Mprobe(tag 1, handle 1) Probe(tag 2) Recv(tag 2) Mrecv(handle 1) Send(tag 3)
// Expected: rank 1's Mprobe finds the message received by Mrecv, its Probe the message of the
// Recv(tag 2) that comes first; rank 0's first probe finds tag 3, the second is repeated.
// Event indices: rank 0: main Enter 0, Send 1-3, Send 4-6, Probe 7-8, Probe 9-10, Recv 11-13;
// rank 1: main Enter 0, Mprobe 1-2, Probe 3-4, Recv 5-7, Mrecv 8-10, Send 11-13.
testing::Scenario Listing1(bool recorded) {
  testing::Scenario s(2);
  s.rank(0).Enter(0, "main").Send(1, 2, 1, 1, 4).Send(3, 4, 1, 2, 4);
  if (recorded) {
    s.rank(0).Probe(5, 8, 1, 3).Probe(9, 10, 1, 3);
  } else {
    s.rank(0).Call(5, 8, "MPI_Probe").Call(9, 10, "MPI_Probe");
  }
  s.rank(0).Recv(11, 12, 1, 3, 4).Leave(20, "main");
  s.rank(1).Enter(0, "main");
  if (recorded) {
    s.rank(1).Probe(1, 2, 0, 1, /*handle=*/1, "MPI_Mprobe").Probe(3, 4, 0, 2);
  } else {
    s.rank(1).Call(1, 2, "MPI_Mprobe").Call(3, 4, "MPI_Probe");
  }
  s.rank(1)
      .Recv(5, 6, 0, 2, 4)
      .Mrecv(6, 7, 0, 1, 4, recorded ? 1 : 0)
      .Send(7, 8, 0, 3, 4)
      .Leave(20, "main");
  return s;
}

TEST(ProbeMatcherTest, RecordedProbesFindTheirMessagesAndRepeatedProbesAreIgnored) {
  trace::Trace t = ReadProbes(Listing1(/*recorded=*/true));
  SyncGraph g = MatchTrace(t, 2);
  ASSERT_EQ(g.messages.size(), 3u);
  using L = std::vector<std::pair<uint32_t, uint32_t>>;
  EXPECT_EQ(Links(t, g, 0, false), (L{{7, 3}}));
  EXPECT_EQ(Links(t, g, 1, false), (L{{1, 1}, {3, 2}}));
  EXPECT_EQ(g.stats.probes_linked, 3u);
  EXPECT_EQ(g.stats.probes_inferred, 0u);
  EXPECT_EQ(g.stats.probes_repeated, 1u);
  EXPECT_EQ(g.stats.probes_unlinked, 0u);
  EXPECT_EQ(g.diagnostics.Count(kProbeInferred), 0u);
}

TEST(ProbeMatcherTest, ScorePStyleProbesAreInferredFromTheNextReceive) {
  // Without attributes, the Mprobe is linked to the next Mrecv and the Probe to the next plain
  // receive: the same links as recorded; the second Probe on rank 0 is taken as repeated.
  trace::Trace t = ReadProbes(Listing1(/*recorded=*/false));
  SyncGraph g = MatchTrace(t, 1);
  using L = std::vector<std::pair<uint32_t, uint32_t>>;
  EXPECT_EQ(Links(t, g, 0, true), (L{{7, 3}}));
  EXPECT_EQ(Links(t, g, 1, true), (L{{1, 1}, {3, 2}}));
  EXPECT_EQ(g.stats.probes_linked, 3u);
  EXPECT_EQ(g.stats.probes_inferred, 3u);
  EXPECT_EQ(g.stats.probes_repeated, 1u);
  EXPECT_EQ(g.diagnostics.Count(kProbeInferred), 3u);
}

TEST(ProbeMatcherTest, RecordedWildcardProbeFindsTheEnvelopeItReports) {
  // Rank 2 probes and finds rank 1's message (tag 5), then receives rank 0's (tag 5) first and
  // rank 1's second: the probe belongs to the second receive, not to the next one.
  testing::Scenario s(3);
  s.rank(0).Enter(0, "main").Send(1, 2, 2, 5, 4).Leave(20, "main");
  s.rank(1).Enter(0, "main").Send(1, 2, 2, 5, 4).Leave(20, "main");
  s.rank(2)
      .Enter(0, "main")            // 0
      .Probe(3, 4, /*from=*/1, 5)  // 1-2
      .Recv(5, 6, 0, 5, 4)         // 3-5
      .Recv(7, 8, 1, 5, 4)         // 6-8
      .Leave(20, "main");
  trace::Trace t = ReadProbes(s);
  SyncGraph g = MatchTrace(t, 1);
  const LocationSync& s2 = g.by_location[2];
  ASSERT_EQ(s2.probe_count, 1u);
  const ProbeLink& link = g.probes[s2.first_probe];
  EXPECT_EQ(link.probe, 1u);
  EXPECT_EQ(g.messages[link.message].sender, 1u);
  EXPECT_EQ(g.messages[link.message].recv_event, 7u);
}

TEST(ProbeMatcherTest, UnsuccessfulAndUnresolvableProbesAreNotLinked) {
  // Recorded trace: an MPI_Iprobe without attributes found nothing. Score-P trace: an
  // MPI_Iprobe may or may not have found something, so it is left out and counted.
  for (bool recorded : {true, false}) {
    testing::Scenario s(2);
    s.rank(0).Enter(0, "main").Send(5, 6, 1, 1, 4).Leave(20, "main");
    s.rank(1).Enter(0, "main").Call(1, 2, "MPI_Iprobe");
    if (recorded) s.rank(1).Probe(3, 4, 0, 9);  // defines the attributes; never received
    s.rank(1).Recv(7, 8, 0, 1, 4).Leave(20, "main");
    trace::Trace t = ReadProbes(s);
    SyncGraph g = MatchTrace(t, 1);
    EXPECT_EQ(g.stats.probes_linked, 0u) << recorded;
    EXPECT_EQ(g.stats.probes_unlinked, recorded ? 1u : 0u);
    EXPECT_EQ(g.stats.probes_unresolved, recorded ? 0u : 1u);
  }
}

}  // namespace
}  // namespace cw::match
