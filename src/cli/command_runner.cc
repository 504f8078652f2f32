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
// Signals a program may be asked to act on while it goes on (a batch script's request to write
// a checkpoint before the time limit): passed on to the command at once, as mpirun passes them
// on to the ranks. Their default action would end this process and leave the command's trace
// unwritten.
constexpr int kPassedOnSignals[] = {SIGUSR1, SIGUSR2};

// Written by the handlers, read by the waiting loop (both on the main thread).
volatile sig_atomic_t g_stop_signal = 0;
volatile sig_atomic_t g_stops = 0;
volatile sig_atomic_t g_passed_on_pending[std::size(kPassedOnSignals)] = {};

void NoteStop(int signal) {
  g_stop_signal = signal;
  g_stops = g_stops + 1;
}

void NotePassedOn(int signal) {
  for (size_t i = 0; i < std::size(kPassedOnSignals); ++i) {
    if (kPassedOnSignals[i] == signal) g_passed_on_pending[i] = g_passed_on_pending[i] + 1;
  }
}

// The stop and passed-on signals' handlers while the command runs; the previous ones come back
// with the end of its scope (a second Ctrl-C while the trace is written then ends this process).
class SignalsNoted {
 public:
  SignalsNoted() {
    g_stop_signal = 0;
    g_stops = 0;
    for (volatile sig_atomic_t& pending : g_passed_on_pending) pending = 0;
    for (size_t i = 0; i < std::size(kStopSignals); ++i) Note(kStopSignals[i], NoteStop, i);
    for (size_t i = 0; i < std::size(kPassedOnSignals); ++i) {
      Note(kPassedOnSignals[i], NotePassedOn, std::size(kStopSignals) + i);
    }
  }
  ~SignalsNoted() {
    for (size_t i = 0; i < std::size(kStopSignals); ++i) {
      sigaction(kStopSignals[i], &previous_[i], nullptr);
    }
    for (size_t i = 0; i < std::size(kPassedOnSignals); ++i) {
      sigaction(kPassedOnSignals[i], &previous_[std::size(kStopSignals) + i], nullptr);
    }
  }
  SignalsNoted(const SignalsNoted&) = delete;
  SignalsNoted& operator=(const SignalsNoted&) = delete;

 private:
  void Note(int signal, void (*handler)(int), size_t slot) {
    struct sigaction noted = {};
    noted.sa_handler = handler;
    sigemptyset(&noted.sa_mask);
    noted.sa_flags = 0;  // no SA_RESTART: waitpid returns EINTR and the loop looks at once
    sigaction(signal, nullptr, &previous_[slot]);
    // A signal the shell made this process ignore (nohup, a background job's SIGINT) stays
    // ignored, for the command too.
    if (previous_[slot].sa_handler != SIG_IGN) sigaction(signal, &noted, nullptr);
  }

  struct sigaction previous_[std::size(kStopSignals) + std::size(kPassedOnSignals)] = {};
};

// Passes the signals noted on to the command: SIGUSR1 and SIGUSR2 at once; of the stop signals
// the first one if the command outlives it by kForwardAfterSeconds (it went to this process
// alone), every later one at once.
class Forwarder {
 public:
  explicit Forwarder(pid_t child) : child_(child) {}
  void Look() {
    for (size_t i = 0; i < std::size(kPassedOnSignals); ++i) {
      for (; passed_on_[i] < g_passed_on_pending[i]; ++passed_on_[i]) {
        kill(child_, kPassedOnSignals[i]);
      }
    }
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
  int passed_on_[std::size(kPassedOnSignals)] = {};  // of each passed-on signal, those sent on
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
  SignalsNoted noted;
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
