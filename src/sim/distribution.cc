#include "sim/distribution.h"

#include <cmath>
#include <fstream>
#include <map>
#include <numeric>

#include "base/units.h"

namespace cw::sim {
namespace {

Error SpecError(std::string_view spec, const std::string& why) {
  return Error(ErrorCode::kInvalidArgument,
               "noise distribution '" + std::string(spec) + "': " + why +
                   " (write const:2us, uniform:min=0,max=4us, exp:mean=2us, "
                   "normal:mean=2us,sd=1us or lognormal:mean=2us,sigma=0.5)");
}

// "mean=2us,sd=1us" -> {mean: "2us", sd: "1us"}; a lone value "2us" is stored under "".
Result<std::map<std::string, std::string>> SplitParameters(std::string_view spec,
                                                           std::string_view text) {
  std::map<std::string, std::string> out;
  while (!text.empty()) {
    size_t comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    size_t eq = item.find('=');
    std::string key = eq == std::string_view::npos ? "" : std::string(item.substr(0, eq));
    std::string value(eq == std::string_view::npos ? item : item.substr(eq + 1));
    if (!out.emplace(key, value).second) {
      return tl::unexpected(SpecError(spec, "parameter '" + key + "' given twice"));
    }
  }
  return out;
}

}  // namespace

Distribution Distribution::Constant(double seconds) {
  Distribution d;
  d.kind_ = Kind::kConstant;
  d.a_ = seconds;
  return d;
}

Result<Distribution> ParseDistribution(std::string_view spec) {
  size_t colon = spec.find(':');
  if (colon == std::string_view::npos) return tl::unexpected(SpecError(spec, "no family"));
  std::string_view family = spec.substr(0, colon);
  CW_ASSIGN_OR_RETURN(auto params, SplitParameters(spec, spec.substr(colon + 1)));
  auto take = [&](const std::string& key, bool duration) -> Result<double> {
    auto it = params.find(key);
    if (it == params.end()) {
      return tl::unexpected(SpecError(spec, "missing parameter '" + key + "'"));
    }
    std::string value = it->second;
    params.erase(it);
    if (duration) {
      Result<double> d = ParseDuration(value);
      if (!d) return tl::unexpected(SpecError(spec, d.error().message()));
      return d;
    }
    char* end = nullptr;
    double x = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0' || !std::isfinite(x) || x < 0) {
      return tl::unexpected(SpecError(spec, "'" + value + "' is not a non-negative number"));
    }
    return x;
  };
  Distribution d;
  if (family == "const" || family == "constant") {
    d.kind_ = Distribution::Kind::kConstant;
    if (params.count("value")) {
      CW_ASSIGN_OR_RETURN(d.a_, take("value", true));
    } else {
      CW_ASSIGN_OR_RETURN(d.a_, take("", true));
    }
  } else if (family == "uniform") {
    d.kind_ = Distribution::Kind::kUniform;
    CW_ASSIGN_OR_RETURN(d.a_, take("min", true));
    CW_ASSIGN_OR_RETURN(d.b_, take("max", true));
    if (d.b_ < d.a_) return tl::unexpected(SpecError(spec, "max is below min"));
  } else if (family == "exp" || family == "exponential") {
    d.kind_ = Distribution::Kind::kExponential;
    CW_ASSIGN_OR_RETURN(d.a_, take("mean", true));
  } else if (family == "normal") {
    d.kind_ = Distribution::Kind::kNormal;
    CW_ASSIGN_OR_RETURN(d.a_, take("mean", true));
    CW_ASSIGN_OR_RETURN(d.b_, take("sd", true));
  } else if (family == "lognormal") {
    d.kind_ = Distribution::Kind::kLogNormal;
    CW_ASSIGN_OR_RETURN(d.a_, take("mean", true));
    CW_ASSIGN_OR_RETURN(d.b_, take("sigma", false));
    if (d.a_ <= 0) return tl::unexpected(SpecError(spec, "a log-normal mean must be positive"));
  } else {
    return tl::unexpected(SpecError(spec, "unknown family '" + std::string(family) + "'"));
  }
  if (!params.empty()) {
    std::string key = params.begin()->first;
    return tl::unexpected(SpecError(
        spec, key.empty() ? "a value without a name" : "unknown parameter '" + key + "'"));
  }
  return d;
}

Result<Distribution> EmpiricalDistribution(std::vector<double> samples, const std::string& origin) {
  if (samples.empty()) {
    return MakeError(ErrorCode::kInvalidArgument, origin + ": no samples");
  }
  Distribution d;
  d.kind_ = Distribution::Kind::kEmpirical;
  d.samples_ = std::move(samples);
  d.origin_ = origin;
  return d;
}

Result<Distribution> ReadEmpiricalDistribution(const std::string& path) {
  std::ifstream in(path);
  if (!in) return MakeError(ErrorCode::kNotFound, "cannot open noise samples " + path);
  std::vector<double> samples;
  std::string line;
  for (size_t number = 1; std::getline(in, line); ++number) {
    size_t hash = line.find('#');
    if (hash != std::string::npos) line.erase(hash);
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    Result<double> d = ParseDuration(line.substr(0, line.find_last_not_of(" \t\r") + 1));
    if (!d) {
      return MakeError(ErrorCode::kInvalidArgument,
                       path + ":" + std::to_string(number) + ": " + d.error().message());
    }
    samples.push_back(*d);
  }
  if (in.bad()) return MakeError(ErrorCode::kIo, "reading " + path + " failed");
  return EmpiricalDistribution(std::move(samples), path);
}

double Distribution::Draw(std::mt19937_64& rng) const {
  switch (kind_) {
    case Kind::kNone:
      return 0;
    case Kind::kConstant:
      return a_;
    case Kind::kUniform:
      return std::uniform_real_distribution<double>(a_, b_)(rng);
    case Kind::kExponential:
      return a_ == 0 ? 0 : std::exponential_distribution<double>(1.0 / a_)(rng);
    case Kind::kNormal:
      return std::max(0.0, std::normal_distribution<double>(a_, b_)(rng));
    case Kind::kLogNormal: {
      double mu = std::log(a_) - b_ * b_ / 2;  // so that the draws' mean is a_
      return std::lognormal_distribution<double>(mu, b_)(rng);
    }
    case Kind::kEmpirical: {
      std::uniform_int_distribution<size_t> pick(0, samples_.size() - 1);
      return samples_[pick(rng)];
    }
  }
  return 0;
}

double Distribution::Mean() const {
  switch (kind_) {
    case Kind::kNone:
      return 0;
    case Kind::kConstant:
    case Kind::kExponential:
    case Kind::kLogNormal:
      return a_;
    case Kind::kUniform:
      return (a_ + b_) / 2;
    case Kind::kNormal:
      return a_;  // before clamping negative draws
    case Kind::kEmpirical:
      return std::accumulate(samples_.begin(), samples_.end(), 0.0) /
             static_cast<double>(samples_.size());
  }
  return 0;
}

std::string Distribution::Describe() const {
  switch (kind_) {
    case Kind::kNone:
      return "none";
    case Kind::kConstant:
      return "const:" + FormatDuration(a_);
    case Kind::kUniform:
      return "uniform:min=" + FormatDuration(a_) + ",max=" + FormatDuration(b_);
    case Kind::kExponential:
      return "exp:mean=" + FormatDuration(a_);
    case Kind::kNormal:
      return "normal:mean=" + FormatDuration(a_) + ",sd=" + FormatDuration(b_);
    case Kind::kLogNormal:
      return "lognormal:mean=" + FormatDuration(a_) + ",sigma=" + std::to_string(b_);
    case Kind::kEmpirical:
      return "empirical: " + std::to_string(samples_.size()) + " samples from " + origin_ +
             ", mean " + FormatDuration(Mean());
  }
  return "";
}

}  // namespace cw::sim
