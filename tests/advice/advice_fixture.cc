#include "tests/advice/advice_fixture.h"

#include <gtest/gtest.h>

namespace cw::analysis {

test::Analysis AdviseOn(const testing::Scenario& s, const Baselines* baselines,
                        AdviceParameters parameters, unsigned threads) {
  AnalysisOptions options;
  options.threads = threads;
  options.advice = true;
  options.advice_parameters = parameters;
  options.baselines = baselines;
  if (baselines != nullptr) options.baselines_path = "baselines.txt";
  return test::AnalyzeScenarioWith(s, options);
}

std::string Describe(const test::Analysis& a) {
  std::string out;
  for (const AdviceFinding& f : a.result.advice->findings) {
    out += std::string(AdvicePatternName(f.pattern)) + " at " + a.trace.CallpathName(f.callpath) +
           " on";
    for (uint32_t l : f.locations) out += " " + std::to_string(l);
    out += " (excess " + std::to_string(ExcessTime(f)) + ")\n";
  }
  return out;
}

std::vector<std::string> Patterns(const test::Analysis& a) {
  std::vector<std::string> out;
  for (const AdviceFinding& f : a.result.advice->findings) {
    std::string line = std::string(AdvicePatternName(f.pattern)) + " at " +
                       a.trace.CallpathName(f.callpath) + " on";
    for (uint32_t l : f.locations) line += " " + std::to_string(l);
    out.push_back(line);
  }
  return out;
}

const AdviceFinding& Finding(const test::Analysis& a, AdvicePattern pattern,
                             const std::string& callpath) {
  for (const AdviceFinding& f : a.result.advice->findings) {
    if (f.pattern == pattern && a.trace.CallpathName(f.callpath) == callpath) return f;
  }
  ADD_FAILURE() << "no " << AdvicePatternName(pattern) << " at " << callpath << " in\n"
                << Describe(a);
  static const AdviceFinding none;
  return none;
}

Baselines ParseOrDie(const std::string& text) {
  Result<Baselines> b = Baselines::Parse(text, "test");
  EXPECT_TRUE(b.has_value()) << (b ? "" : b.error().message());
  return b ? std::move(*b) : Baselines{};
}

}  // namespace cw::analysis
