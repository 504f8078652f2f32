#include "measure/core/process_end.h"

#include <pthread.h>

#include <csignal>
#include <cstdlib>
#include <cstring>

namespace cw::measure {
namespace {

// Signals of a fault in the process itself: it cannot go on, whoever handles them.
constexpr int kCrashSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
// Requests from outside to end: fatal unless the program handles them itself.
constexpr int kEndRequests[] = {SIGTERM, SIGINT};

struct sigaction g_previous[65];
// The program's own handlers of the end requests, as they were before the runtime's
// initialisation (NoteProgramSignalHandlers); noted once.
struct sigaction g_program[65];
bool g_program_noted = false;
void (*g_on_signal)(int) = nullptr;

bool IsHandler(const struct sigaction& action) {
  return (action.sa_flags & SA_SIGINFO) != 0 ||
         (action.sa_handler != SIG_DFL && action.sa_handler != SIG_IGN);
}

// Whether the handler in place when the measurement started is the one the program installed
// before the runtime's initialisation: not one the runtime put there (Open MPI's oshmem handles
// SIGTERM to clean up and end the PE, which is an end like any other).
bool IsProgramHandler(int sig) {
  const struct sigaction& now = g_previous[sig];
  const struct sigaction& before = g_program[sig];
  if (!g_program_noted || !IsHandler(now) || !IsHandler(before)) return false;
  if ((now.sa_flags & SA_SIGINFO) != (before.sa_flags & SA_SIGINFO)) return false;
  return (now.sa_flags & SA_SIGINFO) != 0 ? now.sa_sigaction == before.sa_sigaction
                                          : now.sa_handler == before.sa_handler;
}

// The program's own handler of an end request, as the kernel would have run it: with its mask
// of blocked signals, and once only if it asked for SA_RESETHAND.
void RunProgramHandler(int sig, siginfo_t* info, void* context) {
  const struct sigaction handler = g_previous[sig];
  if ((static_cast<unsigned>(handler.sa_flags) & SA_RESETHAND) != 0) {
    g_previous[sig].sa_handler = SIG_DFL;
    g_previous[sig].sa_flags &= ~SA_SIGINFO;
  }
  sigset_t mask = handler.sa_mask, saved;
  pthread_sigmask(SIG_BLOCK, &mask, &saved);
  if ((handler.sa_flags & SA_SIGINFO) != 0) {
    handler.sa_sigaction(sig, info, context);
  } else {
    handler.sa_handler(sig);
  }
  pthread_sigmask(SIG_SETMASK, &saved, nullptr);
}

void OnSignal(int sig, siginfo_t* info, void* context) {
  bool request = false;
  for (int r : kEndRequests) request = request || r == sig;
  if (request && IsProgramHandler(sig)) {
    // The program handles the request itself and may well go on (write a checkpoint, then
    // finalize): the recording goes on with it.
    RunProgramHandler(sig, info, context);
    return;
  }
  if (g_on_signal != nullptr) g_on_signal(sig);
  sigaction(sig, &g_previous[sig], nullptr);
  raise(sig);
}

void Watch(int sig, bool request) {
  struct sigaction action;
  std::memset(&action, 0, sizeof action);
  action.sa_sigaction = OnSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_SIGINFO;  // OnSignal puts the previous handler back itself
  struct sigaction previous;
  if (sigaction(sig, nullptr, &previous) != 0) return;
  // An ignored request stays ignored: the program goes on, and so does the recording. (A fault
  // ends the process even where its signal is ignored: the kernel then delivers it all the same.)
  if (request && previous.sa_handler == SIG_IGN && (previous.sa_flags & SA_SIGINFO) == 0) return;
  g_previous[sig] = previous;
  sigaction(sig, &action, nullptr);
}

}  // namespace

void NoteProgramSignalHandlers() {
  if (g_program_noted) return;
  g_program_noted = true;
  for (int sig : kEndRequests) sigaction(sig, nullptr, &g_program[sig]);
}

void WatchProcessEnd(void (*on_signal)(int), void (*on_exit)()) {
  g_on_signal = on_signal;
  for (int sig : kCrashSignals) Watch(sig, false);
  for (int sig : kEndRequests) Watch(sig, true);
  std::atexit(on_exit);
}

}  // namespace cw::measure
