// What a measurement library must do however its process ends (the tracer's event logs, the
// task activity graph's segment): a fatal signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, and
// SIGTERM and SIGINT where the program does not handle them) calls `on_signal` with it, then
// the handler that was there before, with the signal raised again; an exit calls `on_exit`. The
// callbacks must be async-signal-safe.
//
// A program that handles SIGTERM or SIGINT itself (installed before the measurement started)
// may go on after one: its handler runs as it would without the measurement, and nothing ends.
// One that ignores them keeps ignoring them.
//
//   WatchProcessEnd(OnFatalSignal, OnExit);   // once, when the measurement starts
#pragma once

namespace cw::measure {

void WatchProcessEnd(void (*on_signal)(int), void (*on_exit)());

}  // namespace cw::measure
