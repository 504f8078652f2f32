#include "trace/location_builder.h"

#include <gtest/gtest.h>

namespace cw::trace {
namespace {

constexpr uint32_t kMain = 0, kFoo = 1, kBar = 2, kGap = 3, kProgram = 4;

// Enter/Leave refs are local call-path ids; map them back to regions for readable checks.
std::vector<std::pair<EventKind, uint32_t>> Shape(const LocationEvents& ev, const CallTree& tree) {
  std::vector<std::pair<EventKind, uint32_t>> shape;
  for (uint32_t i = 0; i < ev.size(); ++i) {
    uint32_t ref = ev.kind(i) == EventKind::kEnter || ev.kind(i) == EventKind::kLeave
                       ? tree.region(ev.ref(i))
                       : kNone;
    shape.emplace_back(ev.kind(i), ref);
  }
  return shape;
}

TEST(LocationBuilderTest, PairsEnterAndLeaveAndNestsOtherEvents) {
  LocationBuilder b(0, kGap);
  b.Enter(1, kMain);
  b.Enter(2, kFoo);
  b.P2p(3, EventKind::kMpiSend, P2pPayload{8, 0, 1, 7, kNoRequest32});
  b.Leave(4, kFoo);
  b.Leave(5, kMain);
  CallTree tree = b.local_tree();
  LocationEvents ev = b.Finish();
  ASSERT_EQ(ev.size(), 5u);
  EXPECT_EQ(ev.pair(0), 4u);
  EXPECT_EQ(ev.pair(4), 0u);
  EXPECT_EQ(ev.pair(1), 3u);
  EXPECT_EQ(ev.pair(2), 1u);  // the send sits inside foo
  EXPECT_EQ(ev.callpath(2), ev.ref(1));
  EXPECT_EQ(tree.parent(ev.ref(1)), ev.ref(0));
  EXPECT_EQ(ev.p2p(2).tag, 7u);
  EXPECT_TRUE(ev.synthetic().empty());
  EXPECT_TRUE(b.diagnostics().empty());
}

TEST(LocationBuilderTest, MisnestedLeaveClosesInnerRegions) {
  // main { foo { bar } leaves main while foo and bar are open: both close at t=6.
  LocationBuilder b(0, kGap);
  b.Enter(1, kMain);
  b.Enter(2, kFoo);
  b.Enter(3, kBar);
  b.Leave(6, kMain);
  CallTree tree = b.local_tree();
  EXPECT_EQ(b.diagnostics().Count(kMisnestedLeave), 1u);
  LocationEvents ev = b.Finish();
  auto shape = Shape(ev, tree);
  ASSERT_EQ(shape.size(), 6u);
  EXPECT_EQ(shape[3], std::make_pair(EventKind::kLeave, kBar));
  EXPECT_EQ(shape[4], std::make_pair(EventKind::kLeave, kFoo));
  EXPECT_EQ(shape[5], std::make_pair(EventKind::kLeave, kMain));
  EXPECT_EQ(ev.time(3), 6u);
  EXPECT_EQ(ev.synthetic().size(), 2u);
  EXPECT_EQ(ev.recorded_size(), 4u);
}

TEST(LocationBuilderTest, UnmatchedLeaveGetsZeroLengthEnter) {
  LocationBuilder b(0, kGap);
  b.Enter(1, kMain);
  b.Leave(2, kMain);
  b.Leave(3, kFoo);
  EXPECT_EQ(b.diagnostics().Count(kUnmatchedLeave), 1u);
  EXPECT_EQ(b.recorded_events(), 3u);
  LocationEvents ev = b.Finish();
  ASSERT_EQ(ev.size(), 4u);
  EXPECT_EQ(ev.kind(2), EventKind::kEnter);
  EXPECT_EQ(ev.time(2), 3u);
  EXPECT_EQ(ev.pair(3), 2u);
  EXPECT_EQ(ev.recorded_size(), 3u);
}

TEST(LocationBuilderTest, OpenRegionsCloseAtTheLastEvent) {
  LocationBuilder b(0, kGap);
  b.Enter(1, kMain);
  b.Enter(2, kFoo);
  b.P2p(9, EventKind::kMpiRecv, P2pPayload{});
  LocationEvents ev = b.Finish();
  ASSERT_EQ(ev.size(), 5u);
  EXPECT_EQ(ev.kind(3), EventKind::kLeave);
  EXPECT_EQ(ev.time(3), 9u);
  EXPECT_EQ(ev.time(4), 9u);
  EXPECT_EQ(ev.pair(0), 4u);
}

TEST(LocationBuilderTest, OpenRegionsAreDiagnosed) {
  LocationBuilder b(0, kGap);
  b.Enter(1, kMain);
  b.Enter(2, kFoo);
  (void)b.Finish();
  EXPECT_EQ(b.diagnostics().Count(kOpenAtEnd), 2u);
}

TEST(LocationBuilderTest, TimeGoingBackwardsIsRaised) {
  LocationBuilder b(0, kGap);
  b.Enter(10, kMain);
  b.Leave(7, kMain);
  EXPECT_EQ(b.diagnostics().Count(kTimeReversed), 1u);
  LocationEvents ev = b.Finish();
  EXPECT_EQ(ev.time(1), 10u);
}

TEST(LocationBuilderTest, MeasurementGapBecomesARegion) {
  LocationBuilder b(0, kGap);
  b.Enter(1, kMain);
  b.MeasurementOnOff(2, false);
  b.MeasurementOnOff(5, true);
  b.Leave(6, kMain);
  CallTree tree = b.local_tree();
  EXPECT_EQ(b.diagnostics().Count(kMeasurementGap), 1u);
  LocationEvents ev = b.Finish();
  auto shape = Shape(ev, tree);
  ASSERT_EQ(shape.size(), 6u);
  EXPECT_EQ(shape[1].first, EventKind::kMeasurementOnOff);
  EXPECT_EQ(shape[2], std::make_pair(EventKind::kEnter, kGap));
  EXPECT_EQ(shape[3], std::make_pair(EventKind::kLeave, kGap));
  EXPECT_EQ(ev.time(2), 2u);
  EXPECT_EQ(ev.time(3), 5u);
  EXPECT_EQ(shape[4].first, EventKind::kMeasurementOnOff);
  EXPECT_EQ(ev.recorded_size(), 4u);
}

TEST(LocationBuilderTest, TrailingMeasurementOffIsNotAnOpenRegion) {
  LocationBuilder b(0, kGap);
  b.Enter(1, kMain);
  b.Leave(2, kMain);
  b.MeasurementOnOff(3, false);
  LocationEvents ev = b.Finish();
  EXPECT_EQ(b.diagnostics().Count(kOpenAtEnd), 0u);
  EXPECT_EQ(ev.size(), 5u);
}

TEST(LocationBuilderTest, ProgramBeginAndEndEncloseEverything) {
  LocationBuilder b(0, kGap, kProgram);
  uint32_t no_args = 0;
  b.ProgramBegin(1, /*name=*/42, &no_args, 0);
  b.Enter(2, kMain);
  b.Leave(8, kMain);
  b.ProgramEnd(9, 0);
  EXPECT_EQ(b.program_name(), 42u);
  CallTree tree = b.local_tree();
  LocationEvents ev = b.Finish();
  auto shape = Shape(ev, tree);
  ASSERT_EQ(shape.size(), 6u);
  EXPECT_EQ(shape[1], std::make_pair(EventKind::kEnter, kProgram));
  EXPECT_EQ(shape[4], std::make_pair(EventKind::kLeave, kProgram));
  EXPECT_EQ(ev.time(4), 9u);
  EXPECT_EQ(tree.parent(ev.ref(2)), ev.ref(1));  // main runs inside the program
  EXPECT_EQ(ev.recorded_size(), 4u);
}

TEST(LocationBuilderTest, RequestsCompletedInALaterSegmentAreNotUnlinked) {
  // Segment 1 posts a receive (request 5) and starts a send (request 6); segment 2 tests the
  // send, completes both and completes request 9, which nobody started; request 7, started in
  // segment 1, is never completed. As when the location is read whole: one unlinked request
  // (9) and one open request (7).
  LocationBuilder first(0, kGap);
  first.Enter(1, kMain);
  first.Request(2, EventKind::kMpiIrecvRequest, 5);
  first.P2p(3, EventKind::kMpiIsend, P2pPayload{8, 0, 1, 7, kNoRequest32}, 6);
  first.P2p(4, EventKind::kMpiIsend, P2pPayload{8, 0, 1, 7, kNoRequest32}, 7);
  LocationBuilder::Continuation next;
  first.FinishSegment(next);
  EXPECT_EQ(first.diagnostics().Count(kUnlinkedRequest), 0u);
  LocationBuilder second(0, kGap);
  second.Resume(next);
  second.Request(5, EventKind::kMpiRequestTest, 6);
  second.P2p(6, EventKind::kMpiIrecv, P2pPayload{8, 0, 1, 7, kNoRequest32}, 5);
  second.Request(7, EventKind::kMpiIsendComplete, 6);
  second.Request(8, EventKind::kMpiIsendComplete, 9);
  second.Leave(9, kMain);
  EXPECT_EQ(second.diagnostics().Count(kUnlinkedRequest), 1u);
  LocationEvents ev = second.Finish();
  EXPECT_EQ(second.diagnostics().Count(kOpenRequest), 1u);
  // The receive keeps its request id though its posting is in the other segment.
  EXPECT_EQ(ev.RequestId(2), 5u);
}

TEST(LocationBuilderTest, NonBlockingCollectivesTestedBeforeTheyCompleteAreLinked) {
  // Request 4 (an MPI_Ialltoallv) is tested twice, then completed: nothing unlinked, nothing
  // open. Request 8 completes without a start (unlinked); request 9 starts and never completes
  // (open).
  LocationBuilder b(0, kGap);
  b.Enter(1, kMain);
  b.Request(2, EventKind::kNonBlockingCollectiveRequest, 4);
  b.Request(3, EventKind::kNonBlockingCollectiveRequest, 9);
  b.Request(4, EventKind::kMpiRequestTest, 4);
  b.Request(5, EventKind::kMpiRequestTest, 4);
  CollectivePayload p;
  p.op = CollectiveOp::kAlltoallv;
  b.Collective(6, EventKind::kNonBlockingCollectiveComplete, p, 4);
  EXPECT_EQ(b.diagnostics().Count(kUnlinkedRequest), 0u);
  b.Collective(7, EventKind::kNonBlockingCollectiveComplete, p, 8);
  EXPECT_EQ(b.diagnostics().Count(kUnlinkedRequest), 1u);
  b.Leave(8, kMain);
  LocationEvents ev = b.Finish();
  EXPECT_EQ(b.diagnostics().Count(kOpenRequest), 1u);
  EXPECT_EQ(ev.RequestId(5), 4u);  // the completion keeps its request id
}

TEST(LocationBuilderTest, AttributesAttachToTheLastEvent) {
  LocationBuilder b(0, kGap);
  b.Enter(1, kMain);
  b.AddAttribute(5, 0, 77);
  b.Leave(2, kMain);
  LocationEvents ev = b.Finish();
  ASSERT_EQ(ev.attributes().size(), 1u);
  EXPECT_EQ(ev.attributes()[0].event, 0u);
  EXPECT_EQ(ev.attributes()[0].value, 77u);
}

}  // namespace
}  // namespace cw::trace
