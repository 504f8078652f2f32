#include "measure/core/process_end.h"

#include <csignal>
#include <cstdlib>
#include <cstring>

namespace cw::measure {
namespace {

constexpr int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGINT};
struct sigaction g_previous[65];
void (*g_on_signal)(int) = nullptr;

void OnFatalSignal(int sig) {
  if (g_on_signal != nullptr) g_on_signal(sig);
  sigaction(sig, &g_previous[sig], nullptr);
  raise(sig);
}

}  // namespace

void WatchProcessEnd(void (*on_signal)(int), void (*on_exit)()) {
  g_on_signal = on_signal;
  for (int sig : kFatalSignals) {
    struct sigaction action;
    std::memset(&action, 0, sizeof action);
    action.sa_handler = OnFatalSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;  // OnFatalSignal puts the previous handler back itself
    sigaction(sig, &action, &g_previous[sig]);
  }
  std::atexit(on_exit);
}

}  // namespace cw::measure
