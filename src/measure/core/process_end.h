// What a measurement library must do however its process ends (the tracer's event logs, the
// task activity graph's segment): a fatal signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, and
// SIGTERM and SIGINT where the program does not handle them) calls `on_signal` with it, then
// the handler that was there before, with the signal raised again; an exit calls `on_exit`. The
// callbacks must be async-signal-safe.
//
// A program that handles SIGTERM or SIGINT itself (its handler installed before it initialised
// MPI or OpenSHMEM, and still in place when the measurement started) may go on after one: its
// handler runs as it would without the measurement, and nothing ends. A handler the runtime
// installed while it initialised (Open MPI's oshmem ends the PE on SIGTERM) is an end as the
// default action is. One that ignores them keeps ignoring them.
//
//   WatchProcessEnd(OnFatalSignal, OnExit);   // once, when the measurement starts
#pragma once

namespace cw::measure {

void WatchProcessEnd(void (*on_signal)(int), void (*on_exit)());

// Notes the program's handlers of SIGTERM and SIGINT: the init wrappers call it before they
// call MPI_Init, MPI_Init_thread, shmem_init or shmem_init_thread (the first call counts).
// Async-signal-safe.
void NoteProgramSignalHandlers();

}  // namespace cw::measure
