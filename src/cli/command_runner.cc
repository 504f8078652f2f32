#include "cli/command_runner.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iterator>

namespace cw::cli {
namespace {

constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};

// Written by the handler, read by the waiting loop (both on the main thread).
volatile sig_atomic_t g_stop_signal = 0;
volatile sig_atomic_t g_stops = 0;

void NoteStop(int signal) {
  g_stop_signal = signal;
  g_stops = g_stops + 1;
}

// The stop signals' handlers while the command runs; the previous ones come back with the end
// of its scope (a second Ctrl-C while the trace is written then ends this process).
class StopSignalsNoted {
 public:
  StopSignalsNoted() {
    g_stop_signal = 0;
    g_stops = 0;
    struct sigaction noted = {};
    noted.sa_handler = NoteStop;
    sigemptyset(&noted.sa_mask);
    noted.sa_flags = 0;  // no SA_RESTART: waitpid returns EINTR and the loop looks at once
    for (size_t i = 0; i < std::size(kStopSignals); ++i) {
      sigaction(kStopSignals[i], nullptr, &previous_[i]);
      // A signal the shell made this process ignore (nohup, a background job's SIGINT) stays
      // ignored, for the command too.
      if (previous_[i].sa_handler != SIG_IGN) sigaction(kStopSignals[i], &noted, nullptr);
    }
  }
  ~StopSignalsNoted() {
    for (size_t i = 0; i < std::size(kStopSignals); ++i) {
      sigaction(kStopSignals[i], &previous_[i], nullptr);
    }
  }
  StopSignalsNoted(const StopSignalsNoted&) = delete;
  StopSignalsNoted& operator=(const StopSignalsNoted&) = delete;

 private:
  struct sigaction previous_[std::size(kStopSignals)] = {};
};

// Passes the stop signals on to the command: the first one if the command outlives it by
// kForwardAfterSeconds (it went to this process alone), every later one at once.
class Forwarder {
 public:
  explicit Forwarder(pid_t child) : child_(child) {}
  void Look() {
    const int stops = g_stops;
    if (stops == 0 || stops == forwarded_) return;
    const auto now = std::chrono::steady_clock::now();
    if (seen_ == 0) {
      first_ = now;
      seen_ = stops;
    }
    const bool again = stops > seen_ || forwarded_ > 0;
    const bool late = std::chrono::duration<double>(now - first_).count() >= kForwardAfterSeconds;
    if (again || late) {
      kill(child_, g_stop_signal);
      forwarded_ = stops;
    }
  }

 private:
  pid_t child_;
  int seen_ = 0;       // stops counted when the first was noticed
  int forwarded_ = 0;  // stops counted when a signal was last passed on
  std::chrono::steady_clock::time_point first_;
};

}  // namespace

Result<CommandEnd> RunTracedCommand(const std::vector<std::string>& command, double interval,
                                    const std::function<void(double)>& tick) {
  std::vector<std::string> args = command;
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  std::fflush(nullptr);
  StopSignalsNoted noted;
  const pid_t child = fork();
  if (child < 0) return MakeError(ErrorCode::kIo, "cannot start " + command[0]);
  if (child == 0) {
    // exec gives the noted signals their default action back; ignored ones stay ignored.
    execvp(argv[0], argv.data());
    std::fprintf(stderr, "causeway trace: cannot run %s\n", argv[0]);
    _exit(127);
  }
  Forwarder forwarder(child);
  int status = 0;
  const auto start = std::chrono::steady_clock::now();
  double next = interval;
  for (;;) {
    // After a stop signal the loop polls, to pass it on in time if the command outlives it.
    const bool polling = interval > 0 || g_stops != 0;
    const pid_t done = waitpid(child, &status, polling ? WNOHANG : 0);
    if (done == child) break;
    if (done < 0 && errno != EINTR) return MakeError(ErrorCode::kIo, "lost track of " + command[0]);
    forwarder.Look();
    if (done < 0 || !polling) continue;
    // WNOHANG, still running: sleep towards the next snapshot in short steps, so that the end
    // of the command is noticed at once.
    const double now =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (interval > 0 && now >= next) {
      tick(now);
      next += interval * (1 + std::floor((now - next) / interval));
      continue;
    }
    const double wait = interval > 0 ? std::min(next - now, 0.05) : 0.05;
    usleep(static_cast<useconds_t>(wait * 1e6));
  }
  CommandEnd end;
  end.stop_signal = g_stop_signal;
  if (WIFEXITED(status)) {
    end.exit_status = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    end.exit_status = 128 + WTERMSIG(status);
  } else {
    end.exit_status = 1;
  }
  // An interrupted run does not pass for a successful one, whatever the launcher returned.
  if (end.stop_signal != 0 && end.exit_status == 0) end.exit_status = 128 + end.stop_signal;
  return end;
}

}  // namespace cw::cli
