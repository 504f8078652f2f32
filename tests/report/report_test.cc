#include <nlohmann/json.hpp>

#include <limits>

#include <gtest/gtest.h>

#include "report/html_report.h"
#include "report/json_writer.h"
#include "report/text_summary.h"
#include "tests/common/analysis_fixture.h"

namespace cw::report {
namespace {

using nlohmann::json;

test::Analysis LateSenderRun() {
  // Rank 1 waits 6 s in MPI_Recv for rank 0 (see LateSenderTest).
  testing::Scenario s(2);
  s.rank(0).Enter(0, "main").Send(10, 11, 1, 0, 8).Leave(20, "main");
  s.rank(1).Enter(0, "main").Recv(4, 12, 0, 0, 8).Leave(20, "main");
  return test::AnalyzeScenario(s);
}

TEST(ReportJsonTest, FollowsTheContract) {
  test::Analysis a = LateSenderRun();
  json j = json::parse(ToJson(a.report));
  EXPECT_EQ(j["format"], "causeway-report");
  EXPECT_EQ(j["version"], 1);
  for (const char* key : {"path", "locations", "events", "duration", "timer_resolution",
                          "clock_violations", "time_corrected"}) {
    EXPECT_TRUE(j["trace"].contains(key)) << key;
  }
  EXPECT_EQ(j["trace"]["locations"], 2);
  EXPECT_EQ(j["trace"]["duration"], 20.0);
  EXPECT_EQ(j["trace"]["clock_violations"]["p2p"], 0);
  EXPECT_EQ(j["trace"]["time_corrected"], false);

  ASSERT_EQ(j["locations"].size(), 2u);
  EXPECT_EQ(j["locations"][1]["id"], 1);
  EXPECT_EQ(j["locations"][1]["rank"], 1);
  EXPECT_EQ(j["locations"][1]["group"], "MPI Rank 1");

  // Call paths: dense ids from 0, parents null or an earlier id.
  const json& callpaths = j["callpaths"];
  for (size_t i = 0; i < callpaths.size(); ++i) {
    EXPECT_EQ(callpaths[i]["id"], i);
    if (!callpaths[i]["parent"].is_null()) {
      EXPECT_LT(callpaths[i]["parent"].get<size_t>(), i);
    }
  }
  EXPECT_EQ(callpaths[0]["region"], "main");
  EXPECT_TRUE(callpaths[0]["parent"].is_null());

  bool found_ls = false;
  for (const json& m : j["metrics"]) {
    for (const char* key : {"name", "display", "unit", "parent", "description"}) {
      EXPECT_TRUE(m.contains(key)) << key;
    }
    if (m["name"] == "mpi_latesender") {
      found_ls = true;
      EXPECT_EQ(m["parent"], "mpi_point2point");
      EXPECT_EQ(m["unit"], "seconds");
    }
  }
  EXPECT_TRUE(found_ls);

  double late_sender = 0;
  for (const json& v : j["values"]) {
    EXPECT_NE(v["value"].get<double>(), 0.0);  // sparse: zeros are omitted
    if (v["metric"] == "mpi_latesender") late_sender += v["value"].get<double>();
  }
  EXPECT_EQ(late_sender, 6.0);

  ASSERT_FALSE(j["instances"].empty());
  const json& worst = j["instances"][0];
  EXPECT_EQ(worst["metric"], "mpi_latesender");
  EXPECT_EQ(worst["location"], 1);
  EXPECT_EQ(worst["time"], 4.0);
  EXPECT_EQ(worst["value"], 6.0);
  EXPECT_EQ(worst["partner"], 0);
  for (size_t i = 1; i < j["instances"].size(); ++i) {
    EXPECT_GE(j["instances"][i - 1]["value"].get<double>(),
              j["instances"][i]["value"].get<double>());
  }
  EXPECT_EQ(j["matching"]["messages"], 1);
}

TEST(ReportJsonTest, TheValuesAreWrittenAsTheDocumentWritesItsMembers) {
  // The values are written directly, not as the document's members (ToJson): the text must be
  // what the library writes for the same member, byte for byte, with none, one or several
  // values, among them numbers the library formats specially (a tiny one, one without a
  // fraction, a non-finite one: null).
  test::Analysis a = LateSenderRun();
  Report r = a.report;
  auto library_text = [](const Report& report) {
    json values = json::array();
    for (const Value& v : report.values) {
      values.push_back({{"metric", analysis::Metric(v.metric).name},
                        {"callpath", v.callpath},
                        {"location", v.location},
                        {"value", v.value}});
    }
    json j = json::parse(ToJson(report));
    j["values"] = values;
    return j.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
  };
  EXPECT_EQ(ToJson(r), library_text(r));
  r.values.push_back(Value{analysis::MetricId::kTime, 0, 1, 1e-300});
  r.values.push_back(Value{analysis::MetricId::kVisits, 1, 0, 3.0});
  r.values.push_back(
      Value{analysis::MetricId::kTime, 0, 0, std::numeric_limits<double>::infinity()});
  EXPECT_EQ(ToJson(r), library_text(r));
  r.values.clear();
  EXPECT_EQ(ToJson(r), library_text(r));
  EXPECT_TRUE(json::parse(ToJson(r))["values"].empty());
}

TEST(HtmlDataTest, ValuesBelowTheSmallestNormalDoubleAreWritten) {
  // A long-term delay cost scaled down along a long chain of waits ends below the smallest normal
  // double (2.2e-308): MPICH's coll/nonblocking3 gave 1e-323 s. The page rounds each value to 6
  // significant digits; the rounding once threw for such values and lost the whole report.
  test::Analysis a = LateSenderRun();
  const uint32_t main_path = a.report.values.front().callpath;
  for (double tiny : {1e-310, 1e-323, std::numeric_limits<double>::denorm_min(), -1e-315}) {
    a.report.values.push_back({analysis::MetricId::kDelayFinalizeLongterm, main_path, 0, tiny});
  }
  std::string html;
  ASSERT_NO_THROW(html = HtmlReport(a.report, a.trace, a.graph));
  // 1e-310 keeps its 6 digits; 1e-323 and 4.9e-324 are as precise as such a double can be.
  EXPECT_NE(html.find("1e-310"), std::string::npos);
  EXPECT_NE(html.find("-1e-315"), std::string::npos);
  EXPECT_NE(html.find("1e-323"), std::string::npos);
  EXPECT_NE(html.find("5e-324"), std::string::npos);
}

TEST(ReportJsonTest, UntrustedRegionNamesAreEscaped) {
  testing::Scenario s(1);
  s.rank(0).Call(0, 5, "<script>alert(\"x\")</script>\\");
  test::Analysis a = test::AnalyzeScenario(s);
  std::string text = ToJson(a.report);
  json j = json::parse(text);  // still valid JSON
  EXPECT_EQ(j["callpaths"][0]["region"], "<script>alert(\"x\")</script>\\");
}

TEST(SummaryTest, ThePopModelSaysWhyItIsNotComputedWithoutComputation) {
  // Two ranks that only communicate: main holds nothing but an MPI_Allreduce (0..2). Every POP
  // efficiency is a share of the computation, 0 here: the summary says why instead of 0 %.
  testing::Scenario s(2);
  for (int r = 0; r < 2; ++r) {
    s.rank(r)
        .Enter(0, "main")
        .Collective(0, 2, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, 8, 8)
        .Leave(2, "main");
  }
  const test::Analysis a = test::AnalyzeScenario(s);
  const std::string text = ToSummaryText(a.report);
  EXPECT_NE(text.find("Efficiency (POP model): not computed: the trace records no computation"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("Parallel efficiency"), std::string::npos) << text;
  // With 1 s of computation before the allreduce on each rank, the model is there.
  testing::Scenario computed(2);
  for (int r = 0; r < 2; ++r) {
    computed.rank(r)
        .Enter(0, "main")
        .Collective(1, 2, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, 8, 8)
        .Leave(2, "main");
  }
  const std::string with = ToSummaryText(test::AnalyzeScenario(computed).report);
  EXPECT_NE(with.find("Parallel efficiency"), std::string::npos) << with;
}

TEST(SummaryTest, TheCommunicationLineCountsOneSidedTransfers) {
  // Rank 0 puts 8 bytes into rank 1's window twice (0..1, 1..2) and gets 16 bytes once (2..3):
  // no message to match, but communication all the same.
  const std::string text = ToSummaryText(test::AnalyzeScenario(test::TwoPutsAndAGet()).report);
  EXPECT_NE(text.find("Communication: 0 messages matched (0 B sent), 0 collective operations, 3 "
                      "one-sided transfers (2 puts of 16 B, 1 gets of 16 B)"),
            std::string::npos)
      << text;
}

TEST(SummaryTest, NamesTheWaitStateWhereAndWho) {
  test::Analysis a = LateSenderRun();
  std::string text = ToSummaryText(a.report);
  EXPECT_NE(text.find("Late Sender"), std::string::npos) << text;
  EXPECT_NE(text.find("main/MPI_Recv"), std::string::npos) << text;
  EXPECT_NE(text.find("rank 1 waited 6.00 s for rank 0"), std::string::npos) << text;
  EXPECT_NE(text.find("Time breakdown"), std::string::npos);
  EXPECT_NE(text.find("Clock condition: no violations"), std::string::npos);
}

TEST(SummaryTest, SaysWhatToLookAtNext) {
  // The worst (only) wait: 6 s of Late Sender entered at 4 s (the trace starts at 0); the
  // suggested timeline window is a wait's length on either side: -2 (clamped to 0) to 16 s.
  test::Analysis a = LateSenderRun();
  std::string text = ToSummaryText(a.report);
  EXPECT_NE(text.find("report.html#instances"), std::string::npos) << text;
  EXPECT_NE(text.find("1. Late Sender 6.00 s at main/MPI_Recv on rank 1, from 4.000000 s"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("-o worst.json --window 0.000000:16.000000"), std::string::npos) << text;
}

TEST(SummaryTest, FormatsUnits) {
  EXPECT_EQ(FormatSeconds(30.02), "30.0 s");
  EXPECT_EQ(FormatSeconds(0.0123), "12.3 ms");
  EXPECT_EQ(FormatSeconds(4.5e-6), "4.50 us");
  EXPECT_EQ(FormatSeconds(350e-9), "350 ns");
  EXPECT_EQ(FormatSeconds(0), "0 s");
  EXPECT_EQ(FormatBytes(512), "512 B");
  EXPECT_EQ(FormatBytes(4177920), "4.18 MB");
}

// A path deeper than six regions is labelled with its root and its innermost four. Two paths
// that differ only above those four would read alike: each keeps more innermost regions until
// they differ, or shows itself whole.
//   0 main - 1 a - 2 x - 3 c - 4 d - 5 e - 6 f - 7 MPI_Send     (eight regions)
//                - 8 y - 9 c - 10 d - 11 e - 12 f - 13 MPI_Send  (differs from 7 at x/y only)
//                                          - 14 g - 15 MPI_Send  (differs from 7 at g)
// 7 and 13 read "main/.../d/e/f/MPI_Send" with four, "main/.../c/d/e/f/MPI_Send" with five,
// and need all eight; 15 reads "main/.../d/e/g/MPI_Send", unlike any other, and keeps four.
TEST(ReportLabelTest, CallPathsThatWouldReadAlikeKeepMoreOfTheirPath) {
  Report r;
  auto add = [&r](const char* region, std::optional<uint32_t> parent) {
    Callpath c;
    c.id = static_cast<uint32_t>(r.callpaths.size());
    c.region = region;
    c.parent = parent;
    r.callpaths.push_back(c);
  };
  add("main", std::nullopt);
  add("a", 0);
  add("x", 1);
  add("c", 2);
  add("d", 3);
  add("e", 4);
  add("f", 5);
  add("MPI_Send", 6);
  add("y", 1);
  add("c", 8);
  add("d", 9);
  add("e", 10);
  add("f", 11);
  add("MPI_Send", 12);
  add("g", 11);
  add("MPI_Send", 14);
  AssignLabelTails(r.callpaths);
  EXPECT_EQ(r.CallpathLabel(7), "main/a/x/c/d/e/f/MPI_Send");
  EXPECT_EQ(r.CallpathLabel(13), "main/a/y/c/d/e/f/MPI_Send");
  EXPECT_EQ(r.CallpathLabel(15), "main/.../d/e/g/MPI_Send");
  EXPECT_EQ(r.callpaths[15].label_tail, 4u);
  // 6 and 12 (seven regions) both read "main/.../c/d/e/f" with four; with five they are whole.
  EXPECT_EQ(r.CallpathLabel(6), "main/a/x/c/d/e/f");
  EXPECT_EQ(r.CallpathLabel(12), "main/a/y/c/d/e/f");
}

}  // namespace
}  // namespace cw::report
