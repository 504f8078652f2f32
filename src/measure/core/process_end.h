// What a measurement library must do however its process ends (the tracer's event logs, the
// task activity graph's segment): a fatal signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT,
// SIGTERM, SIGINT) calls `on_signal` with it, then the handler that was there before, with the
// signal raised again; an exit calls `on_exit`. The callbacks must be async-signal-safe.
//
//   WatchProcessEnd(OnFatalSignal, OnExit);   // once, when the measurement starts
#pragma once

namespace cw::measure {

void WatchProcessEnd(void (*on_signal)(int), void (*on_exit)());

}  // namespace cw::measure
