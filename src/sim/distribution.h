// Random durations for OS noise (Sottile et al. 2006 §5): a parametric family or measured samples.
//
// Specs as users write them (--noise):
//   const:2us                      every draw is 2 us
//   uniform:min=0,max=4us
//   exp:mean=2us                   exponential (queueing-like detours)
//   normal:mean=2us,sd=0.5us       negative draws count as 0: noise only adds time
//   lognormal:mean=2us,sigma=0.5   sigma of the logarithm; `mean` is the mean of the draws
// and an empirical distribution from a file of measured detours (--noise-file): one duration per
// line ("12.5us"; a bare number is seconds), '#' starts a comment. Draws pick a sample uniformly.
#pragma once

#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace cw::sim {

class Distribution {
 public:
  enum class Kind { kNone, kConstant, kUniform, kExponential, kNormal, kLogNormal, kEmpirical };

  Distribution() = default;
  static Distribution Constant(double seconds);

  Kind kind() const { return kind_; }
  bool active() const { return kind_ != Kind::kNone; }
  // One draw in seconds, never negative.
  double Draw(std::mt19937_64& rng) const;
  // The mean of the draws (seconds), for reports.
  double Mean() const;
  // "exp:mean=2 us", "empirical: 1000 samples, mean 3.1 us".
  std::string Describe() const;

 private:
  friend Result<Distribution> ParseDistribution(std::string_view spec);
  friend Result<Distribution> EmpiricalDistribution(std::vector<double> samples,
                                                    const std::string& origin);

  Kind kind_ = Kind::kNone;
  double a_ = 0;  // constant: value; uniform: min; exp, normal, lognormal: mean
  double b_ = 0;  // uniform: max; normal: standard deviation; lognormal: sigma of the logarithm
  std::vector<double> samples_;
  std::string origin_;
};

Result<Distribution> ParseDistribution(std::string_view spec);
Result<Distribution> EmpiricalDistribution(std::vector<double> samples, const std::string& origin);
// Reads the samples of an empirical distribution from a file (format above).
Result<Distribution> ReadEmpiricalDistribution(const std::string& path);

}  // namespace cw::sim
