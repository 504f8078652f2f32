// Writes a Scenario's records through the OTF2 writer (scenario.cc's WriteOrDie uses it): each
// location's events, the regions they name (with the paradigm and role their names give, as
// Score-P and causeway's tracer define them), their attributes and groups. Private to
// testing/.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "otf2_writer/archive_writer.h"
#include "otf2_writer/event_writer.h"
#include "testing/scenario.h"

namespace cw::testing {

class ScenarioWriter {
 public:
  // `groups`: the archive ids of Scenario::AddGroup's groups, in order.
  ScenarioWriter(otf2_writer::ArchiveWriter& archive, std::vector<uint32_t> groups)
      : archive_(archive), groups_(std::move(groups)) {}

  // `team`: the thread team of the location's rank (OTF2_UNDEFINED_UINT32 if it has none).
  void Write(const RankScript& script, otf2_writer::EventWriter& ev, uint32_t team);

 private:
  uint32_t Region(const std::string& name);
  uint32_t Attribute(const std::string& name);
  // Regions, measurement switches, threads and thread locks; false for other records.
  bool WriteLocalRecord(const RankScript::Record& rec, otf2_writer::EventWriter& ev, uint32_t team);
  // RMA and OpenSHMEM records; false for other records.
  bool WriteOneSidedRecord(const RankScript::Record& rec, otf2_writer::EventWriter& ev);
  // MPI's point-to-point and collective records (dies on anything else).
  void WriteMpiRecord(const RankScript::Record& rec, otf2_writer::EventWriter& ev);
  // The attribute causeway::senders of a record whose `group` names them (group + 1; 0: none).
  void AddSenders(const RankScript::Record& rec, otf2_writer::EventWriter& ev);

  otf2_writer::ArchiveWriter& archive_;
  std::vector<uint32_t> groups_;
  std::map<std::string, uint32_t> regions_;
  std::map<std::string, uint32_t> attributes_;
  uint32_t senders_attribute_ = OTF2_UNDEFINED_UINT32;
};

}  // namespace cw::testing
