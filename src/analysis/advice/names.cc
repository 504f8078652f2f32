#include "analysis/advice/advice_types.h"

namespace cw::analysis {

std::string_view AdvicePatternName(AdvicePattern p) {
  switch (p) {
    case AdvicePattern::kWaitOnGroup:
      return "wait_on_group";
    case AdvicePattern::kWaitOnLock:
      return "wait_on_lock";
    case AdvicePattern::kWaitOnValue:
      return "wait_on_value";
    case AdvicePattern::kCompetingTransfer:
      return "competing_transfer";
    case AdvicePattern::kLateSender:
      return "late_sender";
    case AdvicePattern::kLateReceiver:
      return "late_receiver";
    case AdvicePattern::kNoRemoteCause:
      return "no_remote_cause";
    case AdvicePattern::kImbalancedBlock:
      return "imbalanced_block";
    case AdvicePattern::kImbalancedCallpath:
      return "imbalanced_callpath";
    case AdvicePattern::kRedundantBarrier:
      return "redundant_barrier";
    case AdvicePattern::kPossiblyRedundantBarrier:
      return "possibly_redundant_barrier";
    case AdvicePattern::kSmallTransfers:
      return "small_transfers";
    case AdvicePattern::kSerialisedTransfers:
      return "serialised_transfers";
    case AdvicePattern::kHighFrequency:
      return "high_frequency";
  }
  return "";
}

std::vector<std::string> UnseenDependencyNames(uint8_t unseen) {
  std::vector<std::string> names;
  if ((unseen & kUnseenSymmetricMemory) != 0) names.emplace_back("symmetric_memory");
  if ((unseen & kUnseenWindowMemory) != 0) names.emplace_back("window_memory");
  if ((unseen & kUnseenFileIo) != 0) names.emplace_back("file_io");
  return names;
}

std::string_view DetectionFilterName(DetectionFilter f) {
  switch (f) {
    case DetectionFilter::kBaseline:
      return "baseline";
    case DetectionFilter::kDeviation:
      return "deviation";
    case DetectionFilter::kNone:
      return "";
    case DetectionFilter::kWaiting:
      return "waiting";
  }
  return "";
}

bool IsWaitPattern(AdvicePattern p) {
  switch (p) {
    case AdvicePattern::kWaitOnGroup:
    case AdvicePattern::kWaitOnLock:
    case AdvicePattern::kWaitOnValue:
    case AdvicePattern::kLateSender:
    case AdvicePattern::kLateReceiver:
      return true;
    default:
      return false;
  }
}

}  // namespace cw::analysis
