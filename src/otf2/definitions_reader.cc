#include "otf2/definitions_reader.h"

#include <algorithm>
#include <optional>
#include <string>

#include "otf2/library_errors.h"
#include "trace/call_sites.h"

namespace cw::otf2 {
namespace {

using trace::kNone;

struct Context {
  trace::Definitions& defs;
  Diagnostics& diagnostics;
  std::optional<Error> fatal;
};

Context& Ctx(void* user_data) { return *static_cast<Context*>(user_data); }

// The slot for definition `id` in `table`, growing it as needed. Returns nullptr (and records
// why) when the id is out of range or already defined.
template <typename T>
T* Slot(Context& ctx, std::vector<T>& table, uint32_t id, const char* what) {
  if (id >= kMaxDefinitionId) {
    ctx.fatal = Error(ErrorCode::kCorrupt, std::string(what) + " definition id " +
                                               std::to_string(id) + " is out of range");
    return nullptr;
  }
  if (id >= table.size()) table.resize(id + 1);
  if (table[id].defined) {
    ctx.diagnostics.Report(kDuplicateDefinition, std::string(what) + " " + std::to_string(id));
    return nullptr;
  }
  table[id].defined = true;
  return &table[id];
}

OTF2_CallbackCode Stop(Context& ctx) {
  return ctx.fatal ? OTF2_CALLBACK_INTERRUPT : OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode OnUnknown(void* user) {
  Ctx(user).diagnostics.Report(kUnknownDefinition);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode OnClock(void* user, uint64_t resolution, uint64_t offset, uint64_t length,
                          uint64_t) {
  trace::ClockProperties& clock = Ctx(user).defs.clock;
  clock.defined = true;
  clock.resolution = resolution;
  clock.global_offset = offset;
  clock.trace_length = length;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode OnString(void* user, OTF2_StringRef self, const char* string) {
  Context& ctx = Ctx(user);
  std::vector<std::string>& strings = ctx.defs.strings;
  if (self >= kMaxDefinitionId) {
    ctx.fatal = Error(ErrorCode::kCorrupt, "string id " + std::to_string(self) + " out of range");
    return OTF2_CALLBACK_INTERRUPT;
  }
  if (self >= strings.size()) strings.resize(self + 1);
  strings[self] = string != nullptr ? string : "";
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode OnAttribute(void* user, OTF2_AttributeRef self, OTF2_StringRef name,
                              OTF2_StringRef description, OTF2_Type type) {
  Context& ctx = Ctx(user);
  if (trace::Attribute* a = Slot(ctx, ctx.defs.attributes, self, "attribute")) {
    a->name = name;
    a->description = description;
    a->type = type;
  }
  return Stop(ctx);
}

OTF2_CallbackCode OnSourceCodeLocation(void* user, OTF2_SourceCodeLocationRef self,
                                       OTF2_StringRef file, uint32_t line) {
  Context& ctx = Ctx(user);
  if (trace::SourceLocation* l =
          Slot(ctx, ctx.defs.source_locations, self, "source code location")) {
    l->file = file;
    l->line = line;
  }
  return Stop(ctx);
}

OTF2_CallbackCode OnCallingContext(void* user, OTF2_CallingContextRef self, OTF2_RegionRef region,
                                   OTF2_SourceCodeLocationRef source_location,
                                   OTF2_CallingContextRef parent) {
  Context& ctx = Ctx(user);
  if (trace::CallingContext* c = Slot(ctx, ctx.defs.calling_contexts, self, "calling context")) {
    c->region = region;
    c->source_location = source_location;
    c->parent = parent == OTF2_UNDEFINED_CALLING_CONTEXT ? kNone : parent;
  }
  return Stop(ctx);
}

// A trace of Score-P's unwinding names each frame's line in its calling context; the reader
// gives the Enter of each frame its parent's line as the attribute causeway's walked call paths
// carry (trace/call_sites.h), so that every report shows call sites the same way. The attribute
// is defined here if the trace does not define it.
void DefineCallSiteAttribute(trace::Definitions& defs) {
  if (defs.calling_contexts.empty()) return;
  for (const trace::Attribute& a : defs.attributes) {
    if (a.defined && defs.str(a.name) == trace::kCallSiteAttribute) return;
  }
  trace::Attribute attribute;
  attribute.defined = true;
  attribute.name = static_cast<uint32_t>(defs.strings.size());
  attribute.type = OTF2_TYPE_SOURCE_CODE_LOCATION;
  defs.strings.emplace_back(trace::kCallSiteAttribute);
  defs.attributes.push_back(attribute);
}

OTF2_CallbackCode OnSystemTreeNode(void* user, OTF2_SystemTreeNodeRef self, OTF2_StringRef name,
                                   OTF2_StringRef class_name, OTF2_SystemTreeNodeRef parent) {
  Context& ctx = Ctx(user);
  if (trace::SystemTreeNode* n = Slot(ctx, ctx.defs.system_tree, self, "system tree node")) {
    n->name = name;
    n->class_name = class_name;
    n->parent = parent;
  }
  return Stop(ctx);
}

OTF2_CallbackCode OnLocationGroup(void* user, OTF2_LocationGroupRef self, OTF2_StringRef name,
                                  OTF2_LocationGroupType type, OTF2_SystemTreeNodeRef parent,
                                  OTF2_LocationGroupRef creating) {
  Context& ctx = Ctx(user);
  if (trace::LocationGroup* g = Slot(ctx, ctx.defs.location_groups, self, "location group")) {
    g->name = name;
    g->type = static_cast<trace::LocationGroupType>(type);
    g->system_tree_parent = parent;
    g->creating_group = creating;
  }
  return Stop(ctx);
}

OTF2_CallbackCode OnLocation(void* user, OTF2_LocationRef self, OTF2_StringRef name,
                             OTF2_LocationType type, uint64_t events, OTF2_LocationGroupRef group) {
  Context& ctx = Ctx(user);
  for (const trace::Location& existing : ctx.defs.locations) {
    if (existing.otf2_id == self) {
      // Event files are named by location id: which events would be whose cannot be known.
      ctx.fatal =
          Error(ErrorCode::kCorrupt, "two locations have the id " + std::to_string(self) + " (\"" +
                                         std::string(ctx.defs.str(existing.name)) + "\" and \"" +
                                         std::string(ctx.defs.str(name)) +
                                         "\"): the definitions are damaged, and the event file " +
                                         std::to_string(self) + ".evt cannot belong to both");
      return OTF2_CALLBACK_INTERRUPT;
    }
  }
  if (ctx.defs.locations.size() >= kMaxDefinitionId) {
    ctx.fatal = Error(ErrorCode::kCorrupt, "too many locations");
    return OTF2_CALLBACK_INTERRUPT;
  }
  trace::Location loc;
  loc.otf2_id = self;
  loc.name = name;
  loc.type = static_cast<trace::LocationType>(type);
  loc.event_count = events;
  loc.group = group;
  ctx.defs.locations.push_back(loc);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode OnRegion(void* user, OTF2_RegionRef self, OTF2_StringRef name,
                           OTF2_StringRef canonical, OTF2_StringRef description,
                           OTF2_RegionRole role, OTF2_Paradigm paradigm, OTF2_RegionFlag flags,
                           OTF2_StringRef file, uint32_t begin, uint32_t end) {
  Context& ctx = Ctx(user);
  if (trace::Region* r = Slot(ctx, ctx.defs.regions, self, "region")) {
    r->name = name;
    r->canonical_name = canonical;
    r->description = description;
    r->role = static_cast<trace::RegionRole>(role);
    r->paradigm = static_cast<trace::Paradigm>(paradigm);
    r->flags = flags;
    r->file = file;
    r->begin_line = begin;
    r->end_line = end;
  }
  return Stop(ctx);
}

OTF2_CallbackCode OnGroup(void* user, OTF2_GroupRef self, OTF2_StringRef name, OTF2_GroupType type,
                          OTF2_Paradigm paradigm, OTF2_GroupFlag flags, uint32_t count,
                          const uint64_t* members) {
  Context& ctx = Ctx(user);
  if (self < ctx.defs.groups.size() && ctx.defs.groups[self].defined) {
    // Some Score-P versions repeat group definitions; identical repeats are harmless.
    const trace::Group& g = ctx.defs.groups[self];
    bool same = g.type == static_cast<trace::GroupType>(type) && g.members.size() == count &&
                std::equal(g.members.begin(), g.members.end(), members);
    if (!same) ctx.diagnostics.Report(kDuplicateDefinition, "group " + std::to_string(self));
    return OTF2_CALLBACK_SUCCESS;
  }
  if (trace::Group* g = Slot(ctx, ctx.defs.groups, self, "group")) {
    g->name = name;
    g->type = static_cast<trace::GroupType>(type);
    g->paradigm = static_cast<trace::Paradigm>(paradigm);
    g->flags = flags;
    g->members.assign(members, members + count);
  }
  return Stop(ctx);
}

OTF2_CallbackCode OnMetricMember(void* user, OTF2_MetricMemberRef self, OTF2_StringRef name,
                                 OTF2_StringRef description, OTF2_MetricType metric_type,
                                 OTF2_MetricMode mode, OTF2_Type value_type, OTF2_Base base,
                                 int64_t exponent, OTF2_StringRef unit) {
  Context& ctx = Ctx(user);
  if (trace::MetricMember* m = Slot(ctx, ctx.defs.metric_members, self, "metric member")) {
    m->name = name;
    m->description = description;
    m->metric_type = metric_type;
    m->mode = mode;
    m->value_type = value_type;
    m->base = base;
    m->exponent = exponent;
    m->unit = unit;
  }
  return Stop(ctx);
}

OTF2_CallbackCode OnMetricClass(void* user, OTF2_MetricRef self, uint8_t count,
                                const OTF2_MetricMemberRef* members, OTF2_MetricOccurrence,
                                OTF2_RecorderKind) {
  Context& ctx = Ctx(user);
  if (trace::Metric* m = Slot(ctx, ctx.defs.metrics, self, "metric class")) {
    m->members.assign(members, members + count);
  }
  return Stop(ctx);
}

OTF2_CallbackCode OnMetricInstance(void* user, OTF2_MetricRef self, OTF2_MetricRef metric_class,
                                   OTF2_LocationRef recorder, OTF2_MetricScope, uint64_t) {
  Context& ctx = Ctx(user);
  if (trace::Metric* m = Slot(ctx, ctx.defs.metrics, self, "metric instance")) {
    m->is_instance = true;
    m->metric_class = metric_class;
    m->recorder = recorder;
  }
  return Stop(ctx);
}

OTF2_CallbackCode OnComm(void* user, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef group,
                         OTF2_CommRef parent, OTF2_CommFlag flags) {
  Context& ctx = Ctx(user);
  if (trace::Comm* c = Slot(ctx, ctx.defs.comms, self, "communicator")) {
    c->name = name;
    c->group = group;
    c->parent = parent;
    c->flags = flags;
  }
  return Stop(ctx);
}

OTF2_CallbackCode OnInterComm(void* user, OTF2_CommRef self, OTF2_StringRef name,
                              OTF2_GroupRef group_a, OTF2_GroupRef group_b, OTF2_CommRef parent,
                              OTF2_CommFlag flags) {
  Context& ctx = Ctx(user);
  if (trace::Comm* c = Slot(ctx, ctx.defs.comms, self, "communicator")) {
    c->name = name;
    c->group = group_a;
    c->remote_group = group_b;
    c->parent = parent;
    c->flags = flags;
  }
  return Stop(ctx);
}

OTF2_CallbackCode OnParameter(void* user, OTF2_ParameterRef self, OTF2_StringRef name,
                              OTF2_ParameterType type) {
  Context& ctx = Ctx(user);
  if (trace::Parameter* p = Slot(ctx, ctx.defs.parameters, self, "parameter")) {
    p->name = name;
    p->type = type;
  }
  return Stop(ctx);
}

OTF2_CallbackCode OnRmaWin(void* user, OTF2_RmaWinRef self, OTF2_StringRef name, OTF2_CommRef comm,
                           OTF2_RmaWinFlag flags) {
  Context& ctx = Ctx(user);
  if (trace::RmaWindow* w = Slot(ctx, ctx.defs.windows, self, "RMA window")) {
    w->name = name;
    w->comm = comm;
    w->flags = flags;
  }
  return Stop(ctx);
}

OTF2_CallbackCode OnIoParadigm(void* user, OTF2_IoParadigmRef self, OTF2_StringRef identification,
                               OTF2_StringRef name, OTF2_IoParadigmClass paradigm_class,
                               OTF2_IoParadigmFlag, uint8_t, const OTF2_IoParadigmProperty*,
                               const OTF2_Type*, const OTF2_AttributeValue*) {
  Context& ctx = Ctx(user);
  if (trace::IoParadigm* p = Slot(ctx, ctx.defs.io_paradigms, self, "I/O paradigm")) {
    p->identification = identification;
    p->name = name;
    p->parallel = paradigm_class == OTF2_IO_PARADIGM_CLASS_PARALLEL;
  }
  return Stop(ctx);
}

OTF2_CallbackCode OnIoFile(Context& ctx, OTF2_IoFileRef self, OTF2_StringRef name, bool directory) {
  if (trace::IoFile* f = Slot(ctx, ctx.defs.io_files, self, "I/O file")) {
    f->name = name;
    f->directory = directory;
  }
  return Stop(ctx);
}
OTF2_CallbackCode OnIoRegularFile(void* user, OTF2_IoFileRef self, OTF2_StringRef name,
                                  OTF2_SystemTreeNodeRef) {
  return OnIoFile(Ctx(user), self, name, false);
}
OTF2_CallbackCode OnIoDirectory(void* user, OTF2_IoFileRef self, OTF2_StringRef name,
                                OTF2_SystemTreeNodeRef) {
  return OnIoFile(Ctx(user), self, name, true);
}

OTF2_CallbackCode OnIoHandle(void* user, OTF2_IoHandleRef self, OTF2_StringRef name,
                             OTF2_IoFileRef file, OTF2_IoParadigmRef paradigm, OTF2_IoHandleFlag,
                             OTF2_CommRef comm, OTF2_IoHandleRef) {
  Context& ctx = Ctx(user);
  if (trace::IoHandle* h = Slot(ctx, ctx.defs.io_handles, self, "I/O handle")) {
    h->name = name;
    h->file = file == OTF2_UNDEFINED_IO_FILE ? trace::kNone : file;
    h->paradigm = paradigm;
    h->comm = comm == OTF2_UNDEFINED_COMM ? trace::kNone : comm;
  }
  return Stop(ctx);
}

OTF2_CallbackCode OnCartDimension(void* user, OTF2_CartDimensionRef self, OTF2_StringRef name,
                                  uint32_t size, OTF2_CartPeriodicity periodic) {
  Context& ctx = Ctx(user);
  if (trace::CartDimension* d = Slot(ctx, ctx.defs.cart_dimensions, self, "cart dimension")) {
    d->name = name;
    d->size = size;
    d->periodic = periodic == OTF2_CART_PERIODIC_TRUE;
  }
  return Stop(ctx);
}

OTF2_CallbackCode OnCartTopology(void* user, OTF2_CartTopologyRef self, OTF2_StringRef name,
                                 OTF2_CommRef comm, uint8_t count,
                                 const OTF2_CartDimensionRef* dimensions) {
  Context& ctx = Ctx(user);
  if (trace::CartTopology* t = Slot(ctx, ctx.defs.cart_topologies, self, "cart topology")) {
    t->name = name;
    t->comm = comm;
    t->dimensions.assign(dimensions, dimensions + count);
  }
  return Stop(ctx);
}

OTF2_CallbackCode OnCartCoordinate(void* user, OTF2_CartTopologyRef topology, uint32_t rank,
                                   uint8_t count, const uint32_t* coordinates) {
  Context& ctx = Ctx(user);
  if (topology < ctx.defs.cart_topologies.size() && ctx.defs.cart_topologies[topology].defined) {
    ctx.defs.cart_topologies[topology].coordinates.emplace_back(
        rank, std::vector<uint32_t>(coordinates, coordinates + count));
  }
  return OTF2_CALLBACK_SUCCESS;
}

}  // namespace

Result<uint64_t> ReadGlobalDefinitions(OTF2_Reader* reader, trace::Definitions& defs,
                                       Diagnostics& diagnostics) {
  Context ctx{defs, diagnostics, std::nullopt};
  OTF2_GlobalDefReader* def_reader = OTF2_Reader_GetGlobalDefReader(reader);
  if (def_reader == nullptr) {
    return tl::unexpected(Error(ErrorCode::kCorrupt,
                                "cannot open the global definitions: " + TakeLastLibraryMessage()));
  }
  OTF2_GlobalDefReaderCallbacks* cb = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetUnknownCallback(cb, OnUnknown);
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, OnClock);
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, OnString);
  OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(cb, OnAttribute);
  OTF2_GlobalDefReaderCallbacks_SetSourceCodeLocationCallback(cb, OnSourceCodeLocation);
  OTF2_GlobalDefReaderCallbacks_SetCallingContextCallback(cb, OnCallingContext);
  OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(cb, OnSystemTreeNode);
  OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(cb, OnLocationGroup);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, OnLocation);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, OnRegion);
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, OnGroup);
  OTF2_GlobalDefReaderCallbacks_SetMetricMemberCallback(cb, OnMetricMember);
  OTF2_GlobalDefReaderCallbacks_SetMetricClassCallback(cb, OnMetricClass);
  OTF2_GlobalDefReaderCallbacks_SetMetricInstanceCallback(cb, OnMetricInstance);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, OnComm);
  OTF2_GlobalDefReaderCallbacks_SetInterCommCallback(cb, OnInterComm);
  OTF2_GlobalDefReaderCallbacks_SetParameterCallback(cb, OnParameter);
  OTF2_GlobalDefReaderCallbacks_SetRmaWinCallback(cb, OnRmaWin);
  OTF2_GlobalDefReaderCallbacks_SetIoParadigmCallback(cb, OnIoParadigm);
  OTF2_GlobalDefReaderCallbacks_SetIoRegularFileCallback(cb, OnIoRegularFile);
  OTF2_GlobalDefReaderCallbacks_SetIoDirectoryCallback(cb, OnIoDirectory);
  OTF2_GlobalDefReaderCallbacks_SetIoHandleCallback(cb, OnIoHandle);
  OTF2_GlobalDefReaderCallbacks_SetCartDimensionCallback(cb, OnCartDimension);
  OTF2_GlobalDefReaderCallbacks_SetCartTopologyCallback(cb, OnCartTopology);
  OTF2_GlobalDefReaderCallbacks_SetCartCoordinateCallback(cb, OnCartCoordinate);
  OTF2_ErrorCode rc = OTF2_Reader_RegisterGlobalDefCallbacks(reader, def_reader, cb, &ctx);
  OTF2_GlobalDefReaderCallbacks_Delete(cb);
  if (rc != OTF2_SUCCESS) {
    return tl::unexpected(LibraryError(ErrorCode::kInternal, "registering callbacks", rc));
  }
  uint64_t read = 0;
  rc = OTF2_Reader_ReadAllGlobalDefinitions(reader, def_reader, &read);
  OTF2_Reader_CloseGlobalDefReader(reader, def_reader);
  if (ctx.fatal) return tl::unexpected(*ctx.fatal);
  if (rc != OTF2_SUCCESS) {
    return tl::unexpected(LibraryError(ErrorCode::kCorrupt, "reading the global definitions", rc));
  }
  if (!defs.clock.defined || defs.clock.resolution == 0) {
    // Every time in the trace is divided by the resolution: without one, no duration means
    // anything (a run of 43.7 us would read as 43700 s).
    return tl::unexpected(
        Error(ErrorCode::kCorrupt, defs.clock.defined
                                       ? "the clock properties declare 0 ticks per second"
                                       : "the definitions have no clock properties (ticks per "
                                         "second)"));
  }
  DefineCallSiteAttribute(defs);
  return read;
}

}  // namespace cw::otf2
