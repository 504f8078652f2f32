// MPI's default error path (MPI_ERRORS_ARE_FATAL) ends the process from inside the MPI library
// without a signal or an exit that the recorder would see: Open MPI's handler aborts the job,
// and the rank's events still in its buffer would be lost. So the recorder puts an error handler
// of its own where the program has the fatal one: it writes everything recorded and notes how
// the rank ended, then hands the error to the MPI library's fatal handler as if nothing had
// come between (Open MPI's is called directly, with the name of the failing call, so that the
// message is the same; other libraries get MPI_Comm_call_errhandler). The program never sees
// the substitute: MPI_Comm_get_errhandler answers MPI_ERRORS_ARE_FATAL for it, and setting
// MPI_ERRORS_ARE_FATAL sets it.
#include <dlfcn.h>

#include <cstdarg>
#include <cstdio>

#include "measure/runtime/error_handlers.h"
#include "measure/runtime/hooks.h"
#include "measure/runtime/recorder.h"

namespace cw::measure::hook {
namespace {

MPI_Errhandler g_fatal_substitute = MPI_ERRHANDLER_NULL;
MPI_Errhandler g_fatal_win_substitute = MPI_ERRHANDLER_NULL;

using CommHandler = void (*)(MPI_Comm*, int*, ...);
using WinHandler = void (*)(MPI_Win*, int*, ...);

// Notes the ending with MPI's text for `code` and writes every recorded event.
void EndOnFatalError(int code) {
  char text[MPI_MAX_ERROR_STRING] = "";
  int length = 0;
  if (PMPI_Error_string(code, text, &length) != MPI_SUCCESS) text[0] = '\0';
  char line[64 + MPI_MAX_ERROR_STRING];
  std::snprintf(line, sizeof line, "fatal error handler %s", text);
  RecordEnding(line);
}

// A window's errors (MPI_Win_create and the others give windows MPI_ERRORS_ARE_FATAL).
void OnFatalWinError(MPI_Win* win, int* code, ...) {
  EndOnFatalError(*code);
  static const auto kOpenMpiHandler =
      reinterpret_cast<WinHandler>(dlsym(RTLD_DEFAULT, "ompi_mpi_errors_are_fatal_win_handler"));
  if (kOpenMpiHandler != nullptr) {
    va_list rest;
    va_start(rest, code);
    const char* call = va_arg(rest, const char*);
    va_end(rest);
    kOpenMpiHandler(win, code, call, nullptr);
  }
  PMPI_Win_set_errhandler(*win, MPI_ERRORS_ARE_FATAL);
  PMPI_Win_call_errhandler(*win, *code);
}

void OnFatalCommError(MPI_Comm* comm, int* code, ...) {
  EndOnFatalError(*code);
  // Open MPI passes the name of the call that failed after the error code.
  static const auto kOpenMpiHandler =
      reinterpret_cast<CommHandler>(dlsym(RTLD_DEFAULT, "ompi_mpi_errors_are_fatal_comm_handler"));
  if (kOpenMpiHandler != nullptr) {
    va_list rest;
    va_start(rest, code);
    const char* call = va_arg(rest, const char*);
    va_end(rest);
    kOpenMpiHandler(comm, code, call, nullptr);
  }
  PMPI_Comm_set_errhandler(*comm, MPI_ERRORS_ARE_FATAL);
  PMPI_Comm_call_errhandler(*comm, *code);
}

// Puts the substitute on `comm` if the fatal handler is there.
void Substitute(MPI_Comm comm) {
  MPI_Errhandler current = MPI_ERRHANDLER_NULL;
  if (PMPI_Comm_get_errhandler(comm, &current) != MPI_SUCCESS) return;
  if (current == MPI_ERRORS_ARE_FATAL) PMPI_Comm_set_errhandler(comm, g_fatal_substitute);
  if (current != MPI_ERRORS_ARE_FATAL && current != MPI_ERRORS_RETURN)
    PMPI_Errhandler_free(&current);
}

}  // namespace

void WatchFatalErrors() {
  if (PMPI_Win_create_errhandler(OnFatalWinError, &g_fatal_win_substitute) != MPI_SUCCESS)
    g_fatal_win_substitute = MPI_ERRHANDLER_NULL;
  if (PMPI_Comm_create_errhandler(OnFatalCommError, &g_fatal_substitute) != MPI_SUCCESS) {
    g_fatal_substitute = MPI_ERRHANDLER_NULL;
    return;
  }
  // Communicators made later inherit their parent's handler, and so the substitute.
  Substitute(MPI_COMM_WORLD);
  Substitute(MPI_COMM_SELF);
}

void WatchWindow(MPI_Win win) {
  MPI_Errhandler current = MPI_ERRHANDLER_NULL;
  if (g_fatal_win_substitute == MPI_ERRHANDLER_NULL ||
      PMPI_Win_get_errhandler(win, &current) != MPI_SUCCESS)
    return;
  if (current == MPI_ERRORS_ARE_FATAL) PMPI_Win_set_errhandler(win, g_fatal_win_substitute);
  if (current != MPI_ERRORS_ARE_FATAL && current != MPI_ERRORS_RETURN)
    PMPI_Errhandler_free(&current);
}

void WinErrhandlerToSet(MPI_Errhandler* handler) {
  if (*handler == MPI_ERRORS_ARE_FATAL && g_fatal_win_substitute != MPI_ERRHANDLER_NULL)
    *handler = g_fatal_win_substitute;
}

void WinErrhandlerAsSeen(MPI_Errhandler* handler) {
  if (g_fatal_win_substitute != MPI_ERRHANDLER_NULL && *handler == g_fatal_win_substitute) {
    PMPI_Errhandler_free(handler);
    *handler = MPI_ERRORS_ARE_FATAL;
  }
}

void ErrhandlerToSet(MPI_Errhandler* handler) {
  if (*handler == MPI_ERRORS_ARE_FATAL && g_fatal_substitute != MPI_ERRHANDLER_NULL)
    *handler = g_fatal_substitute;
}

void ErrhandlerAsSeen(MPI_Errhandler* handler) {
  if (g_fatal_substitute != MPI_ERRHANDLER_NULL && *handler == g_fatal_substitute) {
    PMPI_Errhandler_free(handler);
    *handler = MPI_ERRORS_ARE_FATAL;
  }
}

}  // namespace cw::measure::hook
