#include "trace/mpi_function.h"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <string>

namespace cw::trace {
namespace {

struct Entry {
  std::string_view name;  // lower case, without the "mpi_" prefix
  MpiCategory category;
  MpiCollective collective;
  uint16_t flags;
};

using C = MpiCategory;
using K = MpiCollective;

constexpr uint16_t kSendB = kMpiSend | kMpiBlocking;
constexpr uint16_t kRecvB = kMpiRecv | kMpiBlocking;
constexpr uint16_t kNbc = kMpiNonBlockingColl;

// Calls whose behaviour matters to an analysis. Everything else is classified by prefix in
// ClassifyByName(). Sorted by name for binary search (checked at compile time below).
constexpr std::array kTable = {
    Entry{"allgather", C::kCollective, K::kAllToAll, 0},
    Entry{"allgatherv", C::kCollective, K::kAllToAll, 0},
    Entry{"allreduce", C::kCollective, K::kAllToAll, 0},
    Entry{"alltoall", C::kCollective, K::kAllToAll, 0},
    Entry{"alltoallv", C::kCollective, K::kAllToAll, 0},
    Entry{"alltoallw", C::kCollective, K::kAllToAll, 0},
    Entry{"barrier", C::kCollective, K::kBarrier, 0},
    Entry{"bcast", C::kCollective, K::kOneToAll, 0},
    Entry{"bsend", C::kPointToPoint, K::kNotCollective, kSendB | kMpiBuffered},
    Entry{"bsend_init", C::kPointToPoint, K::kNotCollective, 0},
    Entry{"cancel", C::kOther, K::kNotCollective, 0},
    Entry{"exscan", C::kCollective, K::kScan, 0},
    Entry{"finalize", C::kInitFinalize, K::kNotCollective, kMpiFinalize},
    Entry{"finalized", C::kInitFinalize, K::kNotCollective, 0},
    Entry{"gather", C::kCollective, K::kAllToOne, 0},
    Entry{"gatherv", C::kCollective, K::kAllToOne, 0},
    Entry{"iallgather", C::kCollective, K::kAllToAll, kNbc},
    Entry{"iallgatherv", C::kCollective, K::kAllToAll, kNbc},
    Entry{"iallreduce", C::kCollective, K::kAllToAll, kNbc},
    Entry{"ialltoall", C::kCollective, K::kAllToAll, kNbc},
    Entry{"ialltoallv", C::kCollective, K::kAllToAll, kNbc},
    Entry{"ialltoallw", C::kCollective, K::kAllToAll, kNbc},
    Entry{"ibarrier", C::kCollective, K::kBarrier, kNbc},
    Entry{"ibcast", C::kCollective, K::kOneToAll, kNbc},
    Entry{"ibsend", C::kPointToPoint, K::kNotCollective, kMpiSend | kMpiBuffered},
    Entry{"iexscan", C::kCollective, K::kScan, kNbc},
    Entry{"igather", C::kCollective, K::kAllToOne, kNbc},
    Entry{"igatherv", C::kCollective, K::kAllToOne, kNbc},
    Entry{"improbe", C::kPointToPoint, K::kNotCollective, kMpiProbe | kMpiTest | kMpiMatched},
    Entry{"imrecv", C::kPointToPoint, K::kNotCollective, kMpiRecv | kMpiMatched},
    Entry{"ineighbor_allgather", C::kCollective, K::kAllToAll, kNbc},
    Entry{"ineighbor_allgatherv", C::kCollective, K::kAllToAll, kNbc},
    Entry{"ineighbor_alltoall", C::kCollective, K::kAllToAll, kNbc},
    Entry{"ineighbor_alltoallv", C::kCollective, K::kAllToAll, kNbc},
    Entry{"ineighbor_alltoallw", C::kCollective, K::kAllToAll, kNbc},
    Entry{"init", C::kInitFinalize, K::kNotCollective, kMpiInit},
    Entry{"init_thread", C::kInitFinalize, K::kNotCollective, kMpiInit},
    Entry{"initialized", C::kInitFinalize, K::kNotCollective, 0},
    Entry{"iprobe", C::kPointToPoint, K::kNotCollective, kMpiProbe | kMpiTest},
    Entry{"irecv", C::kPointToPoint, K::kNotCollective, kMpiRecv},
    Entry{"ireduce", C::kCollective, K::kAllToOne, kNbc},
    Entry{"ireduce_scatter", C::kCollective, K::kAllToAll, kNbc},
    Entry{"ireduce_scatter_block", C::kCollective, K::kAllToAll, kNbc},
    Entry{"irsend", C::kPointToPoint, K::kNotCollective, kMpiSend | kMpiReady},
    Entry{"iscan", C::kCollective, K::kScan, kNbc},
    Entry{"iscatter", C::kCollective, K::kOneToAll, kNbc},
    Entry{"iscatterv", C::kCollective, K::kOneToAll, kNbc},
    Entry{"isend", C::kPointToPoint, K::kNotCollective, kMpiSend},
    Entry{"issend", C::kPointToPoint, K::kNotCollective, kMpiSend | kMpiSynchronous},
    Entry{"mprobe", C::kPointToPoint, K::kNotCollective, kMpiProbe | kMpiMatched},
    Entry{"mrecv", C::kPointToPoint, K::kNotCollective, kRecvB | kMpiMatched},
    Entry{"neighbor_allgather", C::kCollective, K::kAllToAll, 0},
    Entry{"neighbor_allgatherv", C::kCollective, K::kAllToAll, 0},
    Entry{"neighbor_alltoall", C::kCollective, K::kAllToAll, 0},
    Entry{"neighbor_alltoallv", C::kCollective, K::kAllToAll, 0},
    Entry{"neighbor_alltoallw", C::kCollective, K::kAllToAll, 0},
    Entry{"probe", C::kPointToPoint, K::kNotCollective, kMpiProbe},
    Entry{"recv", C::kPointToPoint, K::kNotCollective, kRecvB},
    Entry{"recv_init", C::kPointToPoint, K::kNotCollective, 0},
    Entry{"reduce", C::kCollective, K::kAllToOne, 0},
    Entry{"reduce_scatter", C::kCollective, K::kAllToAll, 0},
    Entry{"reduce_scatter_block", C::kCollective, K::kAllToAll, 0},
    Entry{"request_free", C::kOther, K::kNotCollective, 0},
    Entry{"rsend", C::kPointToPoint, K::kNotCollective, kSendB | kMpiReady},
    Entry{"rsend_init", C::kPointToPoint, K::kNotCollective, 0},
    Entry{"scan", C::kCollective, K::kScan, 0},
    Entry{"scatter", C::kCollective, K::kOneToAll, 0},
    Entry{"scatterv", C::kCollective, K::kOneToAll, 0},
    Entry{"send", C::kPointToPoint, K::kNotCollective, kSendB},
    Entry{"send_init", C::kPointToPoint, K::kNotCollective, 0},
    Entry{"sendrecv", C::kPointToPoint, K::kNotCollective, kSendB | kRecvB},
    Entry{"sendrecv_replace", C::kPointToPoint, K::kNotCollective, kSendB | kRecvB},
    Entry{"ssend", C::kPointToPoint, K::kNotCollective, kSendB | kMpiSynchronous},
    Entry{"ssend_init", C::kPointToPoint, K::kNotCollective, 0},
    Entry{"start", C::kOther, K::kNotCollective, 0},
    Entry{"startall", C::kOther, K::kNotCollective, 0},
    Entry{"test", C::kPointToPoint, K::kNotCollective, kMpiTest},
    Entry{"test_cancelled", C::kOther, K::kNotCollective, 0},
    Entry{"testall", C::kPointToPoint, K::kNotCollective, kMpiTest | kMpiMultiWait},
    Entry{"testany", C::kPointToPoint, K::kNotCollective, kMpiTest},
    Entry{"testsome", C::kPointToPoint, K::kNotCollective, kMpiTest | kMpiMultiWait},
    Entry{"wait", C::kPointToPoint, K::kNotCollective, kMpiWait},
    Entry{"waitall", C::kPointToPoint, K::kNotCollective, kMpiWait | kMpiMultiWait},
    Entry{"waitany", C::kPointToPoint, K::kNotCollective, kMpiWait},
    Entry{"waitsome", C::kPointToPoint, K::kNotCollective, kMpiWait | kMpiMultiWait},
};

static_assert(std::is_sorted(kTable.begin(), kTable.end(),
                             [](const Entry& a, const Entry& b) { return a.name < b.name; }),
              "kTable must be sorted by name");

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool OneOf(std::string_view s, std::initializer_list<std::string_view> names) {
  for (std::string_view n : names) {
    if (s == n) return true;
  }
  return false;
}

// Categories of the calls not listed in kTable. The lists follow the time-tree rules of
// Scalasca 2.6 (share/scout.spec), so that times agree with Scalasca's reports.
MpiCategory ClassifyByName(std::string_view rest) {
  if (StartsWith(rest, "file_")) {
    std::string_view op = rest.substr(5);
    bool data_access = StartsWith(op, "read") || StartsWith(op, "write") ||
                       StartsWith(op, "iread") || StartsWith(op, "iwrite");
    if (!data_access) return C::kFileMgmt;
    bool collective =
        op.find("_all") != std::string_view::npos || op.find("_ordered") != std::string_view::npos;
    return collective ? C::kIoCollective : C::kIoIndividual;
  }
  if (StartsWith(rest, "win_")) {
    std::string_view op = rest.substr(4);
    if (OneOf(op, {"complete", "fence", "post", "start", "test", "wait"})) return C::kRmaSyncActive;
    if (OneOf(op, {"lock", "unlock", "lock_all", "unlock_all", "flush", "flush_all", "flush_local",
                   "flush_local_all", "sync"})) {
      return C::kRmaSyncPassive;
    }
    if (OneOf(op,
              {"allocate", "allocate_shared", "attach", "create", "create_dynamic", "create_keyval",
               "delete_attr", "detach", "free", "free_keyval", "get_attr", "get_group", "get_info",
               "get_name", "set_attr", "set_info", "set_name", "shared_query"})) {
      return C::kWinMgmt;
    }
    return C::kOther;
  }
  if (OneOf(rest, {"put", "get", "accumulate", "get_accumulate", "fetch_and_op", "compare_and_swap",
                   "rput", "rget", "raccumulate", "rget_accumulate"})) {
    return C::kRmaComm;
  }
  if (StartsWith(rest, "comm_")) {
    std::string_view op = rest.substr(5);
    if (OneOf(op, {"accept",        "compare",     "connect",        "create",   "create_group",
                   "create_keyval", "delete_attr", "disconnect",     "dup",      "dup_with_info",
                   "free",          "free_keyval", "get_attr",       "get_info", "get_name",
                   "get_parent",    "group",       "idup",           "join",     "rank",
                   "remote_group",  "remote_size", "set_attr",       "set_info", "set_name",
                   "size",          "spawn",       "spawn_multiple", "split",    "split_type",
                   "test_inter"})) {
      return C::kCommMgmt;
    }
    return C::kOther;
  }
  if (StartsWith(rest, "cart_") || StartsWith(rest, "graph_") || StartsWith(rest, "dist_graph_") ||
      StartsWith(rest, "intercomm_") ||
      OneOf(rest, {"cartdim_get", "dims_create", "graphdims_get", "topo_test", "open_port",
                   "close_port", "lookup_name", "publish_name", "unpublish_name"})) {
    return C::kCommMgmt;
  }
  return C::kOther;
}

MpiRmaGroupCall RmaGroupCall(std::string_view rest) {
  if (rest == "win_post") return MpiRmaGroupCall::kPost;
  if (rest == "win_start") return MpiRmaGroupCall::kStart;
  if (rest == "win_complete") return MpiRmaGroupCall::kComplete;
  if (rest == "win_wait") return MpiRmaGroupCall::kWait;
  if (rest == "win_test") return MpiRmaGroupCall::kTest;
  return MpiRmaGroupCall::kOther;
}

}  // namespace

MpiFunction ClassifyMpiRegion(std::string_view name) {
  if (name.size() < 4) return {};
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::string_view view(lower);
  if (!StartsWith(view, "mpi_")) return {};
  std::string_view rest = view.substr(4);
  // Fortran wrappers sometimes carry a trailing underscore ("mpi_send_").
  while (EndsWith(rest, "_")) rest.remove_suffix(1);
  // MPI-4 large-count variants ("MPI_Send_c") behave like their base functions.
  if (EndsWith(rest, "_c")) rest.remove_suffix(2);

  auto it = std::lower_bound(kTable.begin(), kTable.end(), rest,
                             [](const Entry& e, std::string_view key) { return e.name < key; });
  if (it != kTable.end() && it->name == rest) {
    return MpiFunction{it->category, it->collective, it->flags};
  }
  return MpiFunction{ClassifyByName(rest), MpiCollective::kNotCollective, 0, RmaGroupCall(rest)};
}

}  // namespace cw::trace
