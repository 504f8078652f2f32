#include "analysis/generic/generic_types.h"

#include <array>

namespace cw::analysis {
namespace {

constexpr std::array<std::string_view, kGenericTypeCount> kNames = {
    "local",
    "initialization",
    "termination",
    "environment_inquiry",
    "group_sync",
    "group_comm",
    "memory_management",
    "put",
    "get",
    "send",
    "receive",
    "comm_sync",
    "lock_acquire",
    "lock_release",
    "atomic",
    "work_sharing",
    "wait_on_value",
    "measurement",
};

}  // namespace

std::string_view GenericTypeName(GenericType type) { return kNames[static_cast<size_t>(type)]; }

std::optional<GenericType> ParseGenericType(std::string_view name) {
  for (size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == name) return static_cast<GenericType>(i);
  }
  return std::nullopt;
}

}  // namespace cw::analysis
