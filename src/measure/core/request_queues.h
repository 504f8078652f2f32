// Requests by handle, for the hooks that follow a request from its start to its completion.
// MPI may give several requests one handle at once (Open MPI returns a shared, already
// completed request for sends that complete immediately), so a handle holds a queue, and a
// completion of the handle takes its oldest request.
#pragma once

#include <mpi.h>

#include <unordered_map>
#include <vector>

namespace cw::measure {

template <typename Request>
class RequestQueues {
 public:
  // The request as stored (valid until the next Add under the same handle).
  Request& Add(MPI_Request handle, const Request& request) {
    std::vector<Request>& queue = table_[handle];
    queue.push_back(request);
    return queue.back();
  }
  Request* Oldest(MPI_Request handle) {
    auto it = table_.find(handle);
    return it == table_.end() || it->second.empty() ? nullptr : &it->second.front();
  }
  void RemoveOldest(MPI_Request handle) {
    auto it = table_.find(handle);
    if (it == table_.end()) return;
    if (!it->second.empty()) it->second.erase(it->second.begin());
    if (it->second.empty()) table_.erase(it);
  }

 private:
  std::unordered_map<MPI_Request, std::vector<Request>> table_;
};

}  // namespace cw::measure
