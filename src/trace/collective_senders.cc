#include "trace/collective_senders.h"

namespace cw::trace {

uint32_t CollectiveSenders(const Definitions& defs, const LocationEvents& events, uint32_t event) {
  for (const EventAttribute& a : events.AttributesOf(event)) {
    if (a.type != kGroupAttributeType || a.attribute >= defs.attributes.size()) continue;
    const Attribute& definition = defs.attributes[a.attribute];
    if (!definition.defined || defs.str(definition.name) != kSendersAttribute) continue;
    // A group reference fills the low 32 bits of the value's raw bits.
    const auto group = static_cast<uint32_t>(a.value);
    if (group < defs.groups.size() && defs.groups[group].defined) return group;
  }
  return kNone;
}

}  // namespace cw::trace
