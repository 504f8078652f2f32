// The analysis ranks of an MPI job (MPI_COMM_WORLD), for `mpirun -np K causeway analyze`.
//
// MPI is initialised only when a launcher started the process (comm/launch.h): run alone,
// causeway never touches MPI, so it starts fast and works where no MPI runtime is set up.
// Only the thread that created the session calls MPI (MPI_THREAD_FUNNELED); worker threads
// never do.
//
//   if (comm::LaunchedJobSize() > 0) {
//     CW_ASSIGN_OR_RETURN(auto session, comm::MpiSession::Start());
//     Run(session->world());
//   }
#pragma once

#include <memory>

#include "base/status.h"
#include "comm/communicator.h"

namespace cw::comm {

class MpiSession {
 public:
  // MPI_Init_thread; an error if MPI cannot start.
  static Result<std::unique_ptr<MpiSession>> Start();
  ~MpiSession();  // MPI_Finalize
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  Communicator& world() { return *world_; }
  // Ends the whole job after an error on this rank: a rank that stops alone would leave the
  // others waiting in a collective call forever.
  [[noreturn]] void Abort(int exit_code);

 private:
  MpiSession();
  std::unique_ptr<Communicator> world_;
};

}  // namespace cw::comm
