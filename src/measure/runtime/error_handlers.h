// The recorder's watch on MPI's fatal error path (error_handlers.cc).
#pragma once

#include <mpi.h>

namespace cw::measure::hook {

// Puts the recorder's substitute for MPI_ERRORS_ARE_FATAL on MPI_COMM_WORLD and MPI_COMM_SELF
// (when MPI starts): a fatal error then writes what was recorded before MPI ends the process.
void WatchFatalErrors();

// MPI_Comm_set_errhandler's argument: MPI_ERRORS_ARE_FATAL becomes the substitute.
void ErrhandlerToSet(MPI_Errhandler* handler);
// MPI_Comm_get_errhandler's result: the substitute reads as MPI_ERRORS_ARE_FATAL.
void ErrhandlerAsSeen(MPI_Errhandler* handler);

}  // namespace cw::measure::hook
