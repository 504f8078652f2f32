#include "sim/replay.h"

#include "sim/internal/engine.h"

namespace cw::sim {

Result<ReplayResult> RunReplay(const ReplayInput& input, const ReplayOptions& options) {
  if (input.defs == nullptr || !input.open) {
    return MakeError(ErrorCode::kInternal, "replay input without definitions or sources");
  }
  internal::Engine engine(input, options);
  return engine.Run();
}

}  // namespace cw::sim
