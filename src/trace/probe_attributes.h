// How a trace says which message a probe found (Haus 2024 §3.1).
//
// OTF2 3.0 has no probe record: MPI_Probe, MPI_Iprobe, MPI_Mprobe and MPI_Improbe appear as an
// Enter/Leave pair of their region. causeway's tracer writes what the probe found as OTF2
// attributes on the Leave of a successful probe: the communicator, the source rank in it, the
// tag (the actual ones, from the status, also for wildcard probes) and a message handle id (0
// for MPI_Probe/MPI_Iprobe, consecutive from 1 per process for MPI_Mprobe/MPI_Improbe). An
// unsuccessful MPI_Iprobe/MPI_Improbe carries no attributes. The receive of a matched message
// (MPI_Mrecv, MPI_Imrecv) carries the handle id on the record that posts it: the MpiRecv record
// of MPI_Mrecv, the MpiIrecvRequest record of MPI_Imrecv.
//
// Traces without these attributes (Score-P's) get the probed message inferred; see
// match::LinkProbes.
#pragma once

#include <string_view>

namespace cw::trace {

inline constexpr std::string_view kProbeCommAttribute = "causeway::probe_comm";
inline constexpr std::string_view kProbeSourceAttribute = "causeway::probe_source";
inline constexpr std::string_view kProbeTagAttribute = "causeway::probe_tag";
inline constexpr std::string_view kMessageHandleAttribute = "causeway::message_handle";

}  // namespace cw::trace
