// The recorder's watch on MPI's fatal error path (error_handlers.cc).
#pragma once

#include <mpi.h>

namespace cw::measure::hook {

// Puts the recorder's substitute for MPI_ERRORS_ARE_FATAL on MPI_COMM_WORLD and MPI_COMM_SELF
// (when MPI starts), and makes the one for windows: a fatal error then writes what was recorded
// before MPI ends the process.
void WatchFatalErrors();

// Puts the window substitute on a new window whose handler is MPI_ERRORS_ARE_FATAL (windows do
// not inherit their communicator's handler).
void WatchWindow(MPI_Win win);
// MPI_Win_set_errhandler's argument and MPI_Win_get_errhandler's result, as for communicators.
void WinErrhandlerToSet(MPI_Errhandler* handler);
void WinErrhandlerAsSeen(MPI_Errhandler* handler);

// MPI_Comm_set_errhandler's argument: MPI_ERRORS_ARE_FATAL becomes the substitute.
void ErrhandlerToSet(MPI_Errhandler* handler);
// MPI_Comm_get_errhandler's result: the substitute reads as MPI_ERRORS_ARE_FATAL.
void ErrhandlerAsSeen(MPI_Errhandler* handler);

}  // namespace cw::measure::hook
