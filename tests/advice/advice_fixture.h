// Helpers of the bottleneck analysis's scenario tests (advice_test.cc, advice_global_test.cc):
// one scenario analysed with the advice on, and its findings by pattern and call path.
#pragma once

#include <string>
#include <vector>

#include "analysis/advice/baselines.h"
#include "tests/common/analysis_fixture.h"

namespace cw::analysis {

inline constexpr double kAdviceEps = 1e-9;

// `s` analysed with the bottleneck analysis (and `baselines`, if given) on `threads` threads.
test::Analysis AdviseOn(const testing::Scenario& s, const Baselines* baselines = nullptr,
                        AdviceParameters parameters = {}, unsigned threads = 2);

// "pattern at call path on locations (excess)" for each finding, for failure messages.
std::string Describe(const test::Analysis& a);

// Each finding as "pattern at call path on locations", in rank order.
std::vector<std::string> Patterns(const test::Analysis& a);

// The finding of `pattern` at `callpath`; fails the test if there is none.
const AdviceFinding& Finding(const test::Analysis& a, AdvicePattern pattern,
                             const std::string& callpath);

// Baselines from `text`; fails the test if they do not parse.
Baselines ParseOrDie(const std::string& text);

}  // namespace cw::analysis
