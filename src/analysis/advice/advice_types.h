// What the automatic bottleneck analysis (Su 2010, PPW ch. 5) finds, in the analysis's units
// (ticks; the report converts). advice.h runs it; docs/metrics.md ("Bottlenecks and what to
// do") defines every pattern and filter.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/generic/generic_types.h"
#include "trace/enums.h"

namespace cw::analysis {

// A finding's pattern: the cause-analysis patterns of PPW's Table 5-2 (with the standard meaning
// of Late Sender and Late Receiver), an instance without a remote cause, and the patterns of the
// global and frequency analyses.
enum class AdvicePattern : uint8_t {
  kWaitOnGroup,        // a collective or epoch synchronisation waited for members entering later
  kWaitOnLock,         // a lock acquisition waited for the holder's release
  kWaitOnValue,        // a wait for a value waited for the remote write that changed it
  kCompetingTransfer,  // a one-sided transfer overlapped other processes' transfers to its target
  kLateSender,         // a receive waited for its send
  kLateReceiver,       // a send waited for its receive
  kNoRemoteCause,      // slow without a remote operation to blame: the operation itself
  kImbalancedBlock,    // global analyses
  kImbalancedCallpath,
  kRedundantBarrier,
  kPossiblyRedundantBarrier,  // redundant as far as the trace shows, but it may order what the
                              // trace cannot see (UnseenDependency): never removed
  kSmallTransfers,            // frequency analysis
  kSerialisedTransfers,
  kHighFrequency,
};
inline constexpr int kAdvicePatternCount = static_cast<int>(AdvicePattern::kHighFrequency) + 1;
std::string_view AdvicePatternName(AdvicePattern p);
// The patterns of waiting for another process or thread (whose root causes are computation).
bool IsWaitPattern(AdvicePattern p);

// What a barrier may order that a trace cannot show: a barrier between two synchronisations with
// no transfer is only surely redundant when none of these can be there.
enum UnseenDependency : uint8_t {
  kUnseenSymmetricMemory = 1,  // OpenSHMEM: local stores into symmetric memory that others get
                               // after it, shmem_ptr loads and stores, pSync arrays reused
  kUnseenWindowMemory = 2,     // MPI windows: local stores into a window (or a shared-memory
                               // window's loads and stores) that others access after it
  kUnseenFileIo = 4,           // file I/O before it that others may read after it
};
// "symmetric_memory", "window_memory", "file_io": the names of the bits set in `unseen`.
std::vector<std::string> UnseenDependencyNames(uint8_t unseen);

// How bottleneck detection found a call path (PPW §5.2.2).
enum class DetectionFilter : uint8_t {
  kBaseline,   // its mean instance time exceeds the measured baseline by the baseline ratio
  kDeviation,  // its instances differ: max/mean or min/mean beyond the deviation bounds
  kNone,       // found by a global or frequency analysis
  kWaiting,    // neither filter found it, but its wait states take a hotspot's share of the time
};
// "baseline", "deviation", "", "waiting"
std::string_view DetectionFilterName(DetectionFilter f);

// Every threshold of the analysis, printed in the reports.
struct AdviceParameters {
  double hotspot_share = 0.01;  // a call path takes more than this share of all time
  double baseline_ratio = 2.0;  // mean instance time / baseline above this: a bottleneck
  double deviation_high = 2.0;  // max instance / mean above this: a bottleneck
  double deviation_low = 0.5;   // min instance / mean below this: a bottleneck
  size_t max_findings = 20;     // findings reported (the rest are counted)
  // Global analyses: a program block or a local call path is imbalanced if its max - mean over
  // the processes exceeds `hotspot_share` of all time and max/mean - 1 exceeds this.
  double imbalance = 0.25;
  // Frequency analysis: a call path is high-frequency on a location with at least this many
  // instances of at most `frequent_mean` seconds on average.
  uint64_t frequent_count = 1000;
  double frequent_mean = 10e-6;
  // Runs of consecutive transfers: this many or more of at most `small_bytes` each to one
  // target (merge them), or blocking ones to as many different targets (make them
  // non-blocking), taking more than `hotspot_share` of all time together.
  uint64_t transfer_run = 8;
  uint64_t small_bytes = 4096;
};

// A remote operation that made bottleneck instances wait, summed over the instances.
struct AdviceCause {
  uint32_t location = trace::kNone;
  uint32_t callpath = trace::kNone;  // of the remote operation
  uint64_t time = 0;                 // ticks of waiting it caused (or overlap, for transfers)
  uint64_t instances = 0;            // bottleneck instances it took part in
  uint64_t first = 0;                // timestamp of its earliest causing operation
};

// Where a root cause of a wait finding comes from.
enum class RootCauseSource : uint8_t {
  // An imbalanced local call path on a process that made the finding's instances wait (its
  // `imbalanced_callpath` finding, folded in).
  kImbalance,
  // Where no imbalanced call path explains the waits: the computation that the delay analysis
  // charged the waiting to, on the processes that caused it (delay_root_causes.h).
  kDelay,
};

// The computation a wait finding's causes did too much of.
struct RootCause {
  uint32_t callpath = trace::kNone;
  uint32_t location = trace::kNone;  // the slowest process, or the delaying one
  uint64_t time = 0;                 // ticks of its computation there
  // Imbalance: ticks per process. Delay: what its time there would be without the excess that
  // the delay analysis charged this finding's kind of waiting to (time - delay).
  double mean = 0;
  RootCauseSource source = RootCauseSource::kImbalance;
  double delay = 0;  // ticks: the delay costs charged to it (source kDelay; else 0)
};

// One imbalanced program block that an `imbalanced_block` finding's synchronisation ends: the
// slowest process's work in it, which the what-if replay balances.
struct ImbalancedBlock {
  uint32_t location = trace::kNone;  // the slowest process
  uint64_t begin = 0;                // its work there: from the previous synchronisation's end
  uint64_t end = 0;                  // to this one's start (timestamps)
  double mean = 0;                   // ticks of work per process
};

struct AdviceFinding {
  AdvicePattern pattern = AdvicePattern::kNoRemoteCause;  // the instances' dominant pattern
  uint32_t callpath = trace::kNone;
  GenericType type = GenericType::kLocal;
  // Its construct synchronises the threads of a process (OpenMP's): its causes are threads,
  // and the fixes are OpenMP's.
  bool between_threads = false;
  DetectionFilter filter = DetectionFilter::kNone;
  std::vector<uint32_t> locations;  // holding bottleneck instances, ascending
  uint64_t time = 0;                // ticks: all instances of the call path, every location
  uint64_t bottleneck_time = 0;     // ticks: its bottleneck instances
  double mean = 0;                  // ticks per instance
  uint64_t min = 0, max = 0;        // the shortest and longest instance
  std::optional<double> expected;   // ticks per instance: the baseline (baseline filter)
  uint64_t instances = 0;           // of the call path
  uint64_t bottleneck_instances = 0;
  std::array<uint64_t, kAdvicePatternCount> pattern_counts{};  // of the bottleneck instances
  std::array<uint64_t, kAdvicePatternCount> pattern_time{};    // their ticks
  std::vector<AdviceCause> causes;                             // most waiting first
  std::vector<RootCause> root_causes;   // wait patterns: the computation behind the causes
  uint64_t imbalanced_blocks = 0;       // imbalanced program blocks this synchronisation ends
  std::vector<ImbalancedBlock> blocks;  // imbalanced_block (or folded into a wait): each of them
  uint8_t unseen = 0;        // possibly redundant barriers: what the trace cannot rule out
  uint64_t caused_wait = 0;  // transfer runs: ticks their targets waited for them
  std::vector<uint32_t> completed_by;  // transfer runs: call paths of the calls completing them
  std::vector<std::string> hints;
  std::optional<double> predicted_saving;  // ticks, from the what-if replay
  std::string no_prediction;               // why predicted_saving is empty (else empty)
  // The earlier finding (its index) whose fix is this one's too: a wait whose root causes are
  // that finding's. Its saving is that finding's, not one to add to it.
  std::optional<uint32_t> same_fix_as;
};

// High-level load balance (PPW §5.2.3): each process's time by what it did, from the generic
// types of its call paths' exclusive time. Waiting inside point-to-point calls (Late Sender,
// Late Receiver) counts as synchronisation.
struct ProcessBalance {
  uint32_t location = trace::kNone;
  uint64_t computation = 0;      // ticks: local operations and work sharing
  uint64_t communication = 0;    // transfers, sends, receives, data-moving collectives
  uint64_t synchronisation = 0;  // barriers, completion calls, locks, waits for a value, p2p waits
  uint64_t other = 0;            // initialisation, termination, queries, memory management
};

// A program block: the interval between two consecutive global synchronisations, on every
// process (PPW's block-level analysis).
struct BlockBalance {
  uint32_t index = 0;               // its place among the blocks
  uint32_t closing = trace::kNone;  // the call path of the synchronisation that ends it
  uint64_t begin = 0;               // the earliest start over the processes (timestamp)
  double mean = 0;                  // ticks of work per process
  uint64_t max = 0;
  uint32_t max_location = trace::kNone;
  uint64_t max_begin = 0;  // the start of the slowest process's work (timestamp)
};

// A call path's time across the processes (PPW's event-level analysis).
struct CallpathBalance {
  uint32_t callpath = trace::kNone;
  double mean = 0;  // ticks per location of the roles that visited it (the master threads, ...)
  uint64_t max = 0;
  uint32_t max_location = trace::kNone;
  uint32_t processes = 0;
};

struct LoadBalance {
  std::vector<ProcessBalance> processes;       // by location
  double computation_imbalance = 0;            // max / mean of computation over the processes
  std::vector<uint32_t> bottleneck_processes;  // those with the most computation
  std::vector<BlockBalance> blocks;            // most imbalanced first (max - mean), at most 20
  uint64_t block_count = 0;
  std::vector<CallpathBalance> callpaths;  // most imbalanced first, at most 20
};

// A barrier call path none of whose instances had communication since the previous
// synchronisation on any member (PPW's barrier-redundancy analysis).
struct RedundantBarrier {
  uint32_t callpath = trace::kNone;
  uint64_t instances = 0;  // all of them redundant
  uint64_t time = 0;       // ticks, over every member
  uint8_t unseen = 0;      // UnseenDependency bits: set, it is only possibly redundant
};

struct Advice {
  AdviceParameters parameters;
  std::optional<std::string> baselines;  // the file whose baselines were used
  uint64_t total_time = 0;               // ticks: every location's span, summed
  uint64_t candidates = 0;               // call paths past the hotspot filter
  std::vector<AdviceFinding> findings;   // ranked
  uint64_t findings_left_out = 0;        // beyond parameters.max_findings
  // Findings whose fix the replay predicts to save no runtime (their time was hidden by waiting
  // elsewhere): not bottlenecks, left out of `findings`. Their call paths.
  std::vector<uint32_t> saving_nothing;
  LoadBalance load_balance;
  std::vector<RedundantBarrier> redundant_barriers;
};

}  // namespace cw::analysis
