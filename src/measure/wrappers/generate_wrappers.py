#!/usr/bin/python3
"""Generates causeway's PMPI wrappers from mpi_functions.def.

    generate_wrappers.py mpi_functions.def OUT_DIR

writes OUT_DIR/mpi_functions.gen.h (the table of intercepted functions: names and region roles,
without MPI types, so that code that does not link MPI can name them),
OUT_DIR/mpi_wrappers.gen.cc (one C wrapper per function, calling the hooks of
measure/runtime/hooks.h around the PMPI call) and OUT_DIR/mpi_fortran_wrappers.gen.cc (the
same for Fortran programs, mpif.h and `use mpi`: MPI libraries implement the Fortran calls
without going through the C MPI_ functions, so they are intercepted on their own).

It writes the same two wrapper files a second time for libcauseway-tag.so, the task activity
graph's library (mpi_tag_wrappers.gen.cc, mpi_tag_fortran_wrappers.gen.cc): their hooks are
measure/tag_runtime/tag_hooks.h's, of the same names, and only those in TAG_HOOKS run (the
graph needs no record of windows or epochs), with the lines' tag_before and tag_after hooks; the
scope learns when the PMPI call begins and returns, so that the tool's own work before and after
the call counts neither in the call nor in the computation around it, and MPI_Finalize is
followed by Finalized().

Hundreds of wrappers differ only in their signature and in which hooks run around the call;
writing them from one description keeps them consistent and lets a new function be added with
one line.
"""
import re
import sys
from pathlib import Path

ROLES = {
    "function": "OTF2_REGION_ROLE_FUNCTION",
    "point2point": "OTF2_REGION_ROLE_POINT2POINT",
    "barrier": "OTF2_REGION_ROLE_BARRIER",
    "coll_one2all": "OTF2_REGION_ROLE_COLL_ONE2ALL",
    "coll_all2one": "OTF2_REGION_ROLE_COLL_ALL2ONE",
    "coll_all2all": "OTF2_REGION_ROLE_COLL_ALL2ALL",
    "coll_other": "OTF2_REGION_ROLE_COLL_OTHER",
    "file_io": "OTF2_REGION_ROLE_FILE_IO",
    "rma": "OTF2_REGION_ROLE_FUNCTION",
}


# Score-P's default MPI groups (measure/raw/mpi_groups.h's kDefaultMpiGroups, XNONBLOCK being
# part of P2P here).
DEFAULT_GROUPS = {"CG", "COLL", "ENV", "IO", "P2P", "RMA", "TOPO"}


# The hooks libcauseway-tag.so implements (measure/tag_runtime/tag_hooks.h); a function's other
# hooks are left out of its tag wrapper.
TAG_HOOKS = {"Send", "PostPiggyback", "PostPiggybacks", "Recv", "Isend", "Irecv", "SendInit", "RecvInit", "StartRequests",
             "MProbed", "IMProbed", "SaveMessage", "MRecv", "IMRecv", "CollStarted", "SaveRequests", "CompleteAll",
             "CompleteOne", "CompleteSome", "TestAll", "TestOne", "RequestFree", "CollBegin",
             "CollEnd", "UntracedRequest", "CommCreated", "CommFreed", "Abort"}


def hook_name(hook):
    return hook.split("(", 1)[0].strip()


class Flavour:
    """What differs between the tracer's wrappers and the task activity graph's."""

    def __init__(self, namespace, tag):
        self.namespace = namespace
        self.tag = tag

    def hooks(self, hooks, tag_hooks=()):
        return ([h for h in hooks if hook_name(h) in TAG_HOOKS] + list(tag_hooks) if self.tag
                else hooks)


TRACE = Flavour("cw::measure::hook", tag=False)
TAG = Flavour("cw::measure::tag_hook", tag=True)


class Function:
    def __init__(self, line_number, name, params, role, hooks):
        self.line_number = line_number
        self.name = name
        self.params = params  # list of (declaration, name)
        self.role = role
        self.before = [h[len("before="):] for h in hooks if h.startswith("before=")]
        self.after = [h[len("after="):] for h in hooks if h.startswith("after=")]
        # Hooks of the task activity graph's library only.
        self.tag_before = [h[len("tag_before="):] for h in hooks if h.startswith("tag_before=")]
        self.tag_after = [h[len("tag_after="):] for h in hooks if h.startswith("tag_after=")]
        self.kind = "init" if "init" in hooks else "finalize" if "finalize" in hooks else "plain"
        unknown = [h for h in hooks
                   if not h.startswith(("before=", "after=", "tag_before=", "tag_after="))
                   and h not in ("init", "finalize")]
        if unknown:
            fail(line_number, f"unknown hook {unknown[0]!r}")

    @property
    def enum(self):
        return "k" + self.name

    @property
    def group(self):
        """The function's Score-P MPI group (SCOREP_MPI_ENABLE_GROUPS), which --mpi-groups
        names."""
        n = self.name
        if self.role == "file_io" or n.startswith("MPI_File_"):
            return "IO"
        if "errhandler" in n.lower() or n.startswith(("MPI_Error_", "MPI_Add_error")):
            return "ERR"
        if self.role == "point2point" or n in ("MPI_Start", "MPI_Startall", "MPI_Cancel",
                                              "MPI_Request_free"):
            return "P2P"
        if self.role in ("barrier", "coll_one2all", "coll_all2one", "coll_all2all", "coll_other"):
            return "COLL"
        if self.role == "rma":
            return "RMA"
        if n.startswith(("MPI_Cart", "MPI_Graph", "MPI_Dist_graph", "MPI_Dims_create",
                         "MPI_Topo_test")):
            return "TOPO"
        if n.startswith(("MPI_Comm_", "MPI_Group_", "MPI_Intercomm_")):
            return "CG"
        if n.startswith(("MPI_Type_", "MPI_Pack", "MPI_Unpack", "MPI_Get_address")):
            return "TYPE"
        if self.kind != "plain" or n in ("MPI_Abort", "MPI_Initialized", "MPI_Finalized",
                                         "MPI_Query_thread", "MPI_Is_thread_main",
                                         "MPI_Get_processor_name", "MPI_Get_version"):
            return "ENV"
        return "MISC"

    @property
    def filterable(self):
        """Whether --filter-exclude may leave the function out: its records carry nothing the
        analysis matches (no hooks, no communication role)."""
        return (self.kind == "plain" and not (self.before or self.after or self.tag_before or
                                              self.tag_after) and self.role == "function")

    def declaration(self):
        return ", ".join(p[0] for p in self.params) if self.params else "void"

    def arguments(self):
        return ", ".join(p[1] for p in self.params)


def fail(line_number, message):
    sys.exit(f"mpi_functions.def:{line_number}: {message}")


def parameter_name(declaration, line_number):
    match = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\s*(\[\])?\s*$", declaration)
    if not match:
        fail(line_number, f"cannot find the name in parameter {declaration!r}")
    return match.group(1)


def parse(path):
    functions = []
    for number, raw in enumerate(Path(path).read_text().splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        fields = [f.strip() for f in line.split("|")]
        if len(fields) < 3:
            fail(number, "expected: name | parameters | role | hooks")
        name, params, role = fields[0], fields[1], fields[2]
        if role not in ROLES:
            fail(number, f"unknown region role {role!r}")
        declared = [p.strip() for p in params.split(",")] if params else []
        parameters = [(d, parameter_name(d, number)) for d in declared]
        hooks = [h for h in fields[3:] if h]
        functions.append(Function(number, name, parameters, role, hooks))
    names = [f.name for f in functions]
    duplicates = {n for n in names if names.count(n) > 1}
    if duplicates:
        sys.exit(f"mpi_functions.def: {sorted(duplicates)[0]} is described twice")
    return functions


HEADER = """// Generated by src/measure/wrappers/generate_wrappers.py from mpi_functions.def. Do not edit.
"""


def write_table(functions, out):
    lines = [HEADER, "#pragma once", "", "#include <cstdint>", "", "#include <otf2/OTF2_Definitions.h>",
             "", "namespace cw::measure {", "",
             "// The intercepted MPI functions; a function's value is its region index.",
             "enum class MpiFunction : uint32_t {"]
    lines += [f"  {f.enum}," for f in functions]
    lines += ["};", "",
              f"inline constexpr uint32_t kMpiFunctionCount = {len(functions)};", "",
              "// filterable: the function's records carry nothing the analysis matches (no hooks,",
              "// no communication role), so --filter-exclude may leave it out.",
              "// group: Score-P's MPI group of the function (SCOREP_MPI_ENABLE_GROUPS).",
              "struct MpiFunctionInfo {", "  const char* name;", "  OTF2_RegionRole role;",
              "  bool filterable;", "  const char* group;", "};", "",
              "inline constexpr MpiFunctionInfo kMpiFunctions[kMpiFunctionCount] = {"]
    lines += [f'    {{"{f.name}", {ROLES[f.role]}, {"true" if f.filterable else "false"}, '
              f'"{f.group}"}},' for f in functions]
    lines += ["};", "", "}  // namespace cw::measure", ""]
    out.write_text("\n".join(lines))


def count_parameter(function):
    for candidate in ("count", "incount"):
        if any(p[1] == candidate for p in function.params):
            return candidate
    return None


def locked_hooks(hooks, opening, prelude=()):
    """A block that runs `hooks` under the recorder's lock (HookLock): `opening` is its first
    line ("{" or an if), `prelude` lines run before the lock is taken."""
    if not hooks:
        return []
    return ([f"  {opening}"] + [f"    {line}" for line in prelude] + ["    HookLock lock;"] +
            [f"    {hook};" for hook in hooks] + ["  }"])


def wrapper(f, flavour):
    call = f"PMPI_{f.name[4:]}({f.arguments()})"
    enum = f"MpiFunction::{f.enum}"
    before, after = flavour.hooks(f.before, f.tag_before), flavour.hooks(f.after, f.tag_after)
    body = []
    if f.kind == "init":
        body += ["  NoteProgramSignalHandlers();  // before the runtime installs its own",
                 "  const uint64_t enter = Now();",
                 f"  const int result = {call};",
                 f"  if (result == MPI_SUCCESS) Started({enum}, enter);",
                 "  return result;"]
    elif f.kind == "finalize" and flavour.tag:
        body += [f"  Finalizing({enum});", f"  const int result = {call};", "  Finalized();",
                 "  return result;"]
    elif f.kind == "finalize":
        body += [f"  Finalizing({enum});", f"  return {call};"]
    elif flavour.tag and f.filterable and f.group not in DEFAULT_GROUPS:
        # The task activity graph has the activities a default trace has (--mpi-groups is the
        # tracer's).
        body += [f"  return {call};"]
    else:
        recording = "Recording()"
        if f.filterable and not flavour.tag:
            recording += f" && !Filtered({enum})"
        body += [f"  if (!({recording})) return {call};", f"  CallScope scope({enum});"]
        needs = " ".join(after)
        names = {p[1] for p in f.params}
        if "status" in names and re.search(r"\bstatus\b", needs):
            body += ["  MPI_Status own_status;",
                     "  if (status == MPI_STATUS_IGNORE) status = &own_status;"]
        if "array_of_statuses" in names and re.search(r"\barray_of_statuses\b", needs):
            count = count_parameter(f)
            if count is None:
                fail(f.line_number, "array_of_statuses needs a count or incount parameter")
            body += ["  if (array_of_statuses == MPI_STATUSES_IGNORE)",
                     f"    array_of_statuses = StatusBuffer({count});"]
        body += locked_hooks(before, "{")
        if flavour.tag:
            body += ["  scope.Calling();"]
        body += [f"  const int result = {call};"]
        if flavour.tag:
            body += ["  scope.Returned();"]
        body += locked_hooks(after, "if (result == MPI_SUCCESS) {")
        body += ["  return result;"]
    return "\n".join([f'extern "C" int {f.name}({f.declaration()}) {{'] + body + ["}", ""])


def hooks_header(flavour):
    return "measure/tag_runtime/tag_hooks.h" if flavour.tag else "measure/runtime/hooks.h"


def write_wrappers(functions, out, flavour):
    lines = [HEADER,
             "// Each wrapper records the Enter and Leave of its region (CallScope) and runs its hooks",
             "// around the PMPI call, under the recorder's lock (HookLock) but never across the",
             "// call; before MPI_Init and after MPI_Finalize it only forwards.",
             "#include <mpi.h>", "", "#include \"measure/core/process_end.h\"", f"#include \"{hooks_header(flavour)}\"", "",
             "using namespace cw::measure;", f"using namespace {flavour.namespace};", ""]
    lines += [wrapper(f, flavour) for f in functions]
    out.write_text("\n".join(lines))


# --- Fortran
#
# A Fortran wrapper passes its arguments unchanged to the MPI library's pmpi_xxx_ (so Fortran's
# own constants, such as its MPI_IN_PLACE, keep their meaning) and gives the hooks C views of the
# arguments they name, converted with the MPI_xxx_f2c functions. Symbols follow gfortran's
# convention (lower case, one trailing underscore).

HANDLE_F2C = {"MPI_Comm": "PMPI_Comm_f2c", "MPI_Datatype": "PMPI_Type_f2c",
              "MPI_Op": "PMPI_Op_f2c", "MPI_Group": "PMPI_Group_f2c",
              "MPI_Info": "PMPI_Info_f2c", "MPI_Request": "PMPI_Request_f2c",
              "MPI_Message": "PMPI_Message_f2c", "MPI_Win": "PMPI_Win_f2c",
              "MPI_File": "PMPI_File_f2c"}


def c_type(declaration, name):
    """The declaration without its name, normalised: 'const int[]', 'MPI_Request*', ..."""
    text = re.sub(r"\b" + re.escape(name) + r"\b", "", declaration)
    text = text.replace(" ", "")
    return text


def fortran_views(f, used, count):
    """C views of the parameters in `used`: (before the call, after the call) lines, or None if
    some parameter has no Fortran conversion."""
    before, after = [], []
    for declaration, name in f.params:
        if name not in used:
            continue
        t = c_type(declaration, name)
        v = name + "_f"
        if t == "int":
            before.append(f"const int {name} = static_cast<int>(*{v});")
        elif t in HANDLE_F2C:
            before.append(f"const {t} {name} = {HANDLE_F2C[t]}(*{v});")
        elif t.endswith("*") and t[:-1] in HANDLE_F2C:
            base, conv = t[:-1], HANDLE_F2C[t[:-1]]
            before += [f"{base} {name}_c = {conv}(*{v});", f"{base}* {name} = &{name}_c;"]
            after.append(f"{name}_c = {conv}(*{v});")
        elif t == "MPI_Request[]":
            before += [f"std::vector<MPI_Request> {name}_c(Count({count}));",
                       f"for (size_t i = 0; i < {name}_c.size(); ++i) "
                       f"{name}_c[i] = PMPI_Request_f2c({v}[i]);",
                       f"MPI_Request* {name} = {name}_c.data();"]
        elif t == "MPI_Status*":
            before += [f"MPI_Fint {name}_own[kFortranStatusSize];",
                       f"if ({v} == MPI_F_STATUS_IGNORE) {v} = {name}_own;",
                       f"MPI_Status {name}_c;", f"MPI_Status* {name} = &{name}_c;"]
            after.append(f"PMPI_Status_f2c({v}, &{name}_c);")
        elif t == "MPI_Status[]":
            before += [f"std::vector<MPI_Fint> {name}_own;",
                       f"if ({v} == MPI_F_STATUSES_IGNORE) {{ "
                       f"{name}_own.resize(Count({count}) * kFortranStatusSize); "
                       f"{v} = {name}_own.data(); }}",
                       f"std::vector<MPI_Status> {name}_c(Count({count}));",
                       f"MPI_Status* {name} = {name}_c.data();"]
            after.append(f"for (size_t i = 0; i < {name}_c.size(); ++i) "
                         f"PMPI_Status_f2c({v} + i * kFortranStatusSize, &{name}_c[i]);")
        elif t == "int*" and name == "index":  # Fortran counts from 1
            before += [f"int {name}_c = MPI_UNDEFINED;", f"int* {name} = &{name}_c;"]
            after.append(f"{name}_c = *{v} == MPI_UNDEFINED ? MPI_UNDEFINED : *{v} - 1;")
        elif t == "int*":  # flag (LOGICAL), outcount, provided
            before += [f"int {name}_c = 0;", f"int* {name} = &{name}_c;"]
            after.append(f"{name}_c = static_cast<int>(*{v});")
        elif t == "int[]" and name == "array_of_indices":
            before += [f"std::vector<int> {name}_c(Count({count}));",
                       f"int* {name} = {name}_c.data();"]
            after.append(f"for (size_t i = 0; i < {name}_c.size(); ++i) "
                         f"{name}_c[i] = static_cast<int>({v}[i]) - 1;")
        elif t in ("constvoid*", "void*"):  # a buffer: only compared with MPI_IN_PLACE
            before.append(f"const void* {name} = FortranBuffer({v});")
        elif t == "constint[]":
            before.append(f"const int* {name} = reinterpret_cast<const int*>({v});")
        elif t == "constchar*":  # CHARACTER: its hidden length, trailing blanks not part of it
            before += [f"const std::string {name}_s = FortranString({v}, {name}_len);",
                       f"const char* {name} = {name}_s.c_str();"]
        else:
            return None
    return before, after


# `use mpi_f08` (Open MPI): the same calls under NAME_f08_, whose handles are derived types
# holding the Fortran integer (passed by reference like it) and whose IERROR is optional: absent,
# it arrives as a null pointer, and the wrapper gives the library its own.
F08_OWN_IERR = ["  MPI_Fint ierr_own = MPI_SUCCESS;", "  if (ierr == nullptr) ierr = &ierr_own;"]


def fortran_wrapper(f, flavour, f08=False):
    lower = f.name.lower()
    suffix = "_f08_" if f08 else "_"
    own_ierr = F08_OWN_IERR if f08 else []
    if f.kind == "init":
        if f.name == "MPI_Init":
            params, args = "MPI_Fint* ierr", "ierr"
        else:
            params, args = "MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierr", \
                "required, provided, ierr"
        return "\n".join([
            f'extern "C" void p{lower}{suffix}({", ".join("MPI_Fint*" for _ in args.split(", "))}) '
            "__attribute__((weak));",
            f'extern "C" void {lower}{suffix}({params}) {{'] + own_ierr + [
            "  NoteProgramSignalHandlers();  // before the runtime installs its own",
            "  const uint64_t enter = Now();",
            f"  p{lower}{suffix}({args});",
            f"  if (*ierr == MPI_SUCCESS) Started(MpiFunction::{f.enum}, enter);",
            "}", ""])
    if f.kind == "finalize":
        return "\n".join([
            f'extern "C" void p{lower}{suffix}(MPI_Fint*) __attribute__((weak));',
            f'extern "C" void {lower}{suffix}(MPI_Fint* ierr) {{'] + own_ierr + [
            f"  Finalizing(MpiFunction::{f.enum});",
            f"  p{lower}{suffix}(ierr);"] + (["  Finalized();"] if flavour.tag else []) + ["}", ""])
    # gfortran passes each CHARACTER argument's length as a hidden size_t after all the others
    # (IERROR included), in the order of the arguments: the wrapper takes them and passes them on.
    strings = [n for d, n in f.params if re.search(r"\bchar\b", d)]
    f_before, f_after = flavour.hooks(f.before, f.tag_before), flavour.hooks(f.after, f.tag_after)
    hooks = f_before + f_after
    used = {p[1] for p in f.params if any(re.search(r"\b" + re.escape(p[1]) + r"\b", h)
                                          for h in hooks)}
    count = count_parameter(f)
    views = fortran_views(f, used, (count or "count") + "_f")
    if views is None:
        return f"// {f.name}: no Fortran wrapper (a parameter its hooks need has no conversion)\n"
    before, after = views
    fparams = [("char* " if n in strings else "void* " if "void" in d else "MPI_Fint* ") + n + "_f"
               for d, n in f.params]
    fparams.append("MPI_Fint* ierr")
    fparams += ["size_t " + n + "_len" for n in strings]
    args = ", ".join([n + "_f" for _, n in f.params] + ["ierr"] + [n + "_len" for n in strings])
    ptypes = ", ".join(p.rsplit(" ", 1)[0] for p in fparams)
    recording = "Recording()"
    if f.filterable and not flavour.tag:
        recording += f" && !Filtered(MpiFunction::{f.enum})"
    if flavour.tag and f.filterable and f.group not in DEFAULT_GROUPS:
        recording = "false"
    lines = [f'extern "C" void p{lower}{suffix}({ptypes}) __attribute__((weak));',
             f'extern "C" void {lower}{suffix}({", ".join(fparams)}) {{'] + own_ierr + [
             f"  if (!({recording}) || p{lower}{suffix} == nullptr) {{",
             f"    if (p{lower}{suffix} != nullptr) p{lower}{suffix}({args});", "    return;", "  }",
             f"  CallScope scope(MpiFunction::{f.enum});"]
    lines += ["  " + l for l in before]
    lines += locked_hooks(f_before, "{")
    if flavour.tag:
        lines += ["  scope.Calling();"]
    lines += [f"  p{lower}{suffix}({args});"]
    if flavour.tag:
        lines += ["  scope.Returned();"]
    lines += locked_hooks(f_after, "if (*ierr == MPI_SUCCESS) {", after)
    lines += ["}", ""]
    return "\n".join(lines)


def write_fortran_wrappers(functions, out, flavour):
    lines = [HEADER,
             "// Fortran (mpif.h, `use mpi`) entry points: see generate_wrappers.py.",
             "#include <mpi.h>", "", "#include <cstddef>", "#include <cstdint>", "#include <string>", "#include <vector>",
             "", "#include \"measure/core/process_end.h\"", f"#include \"{hooks_header(flavour)}\"", "",
             "using namespace cw::measure;", f"using namespace {flavour.namespace};", "",
             "namespace {",
             "// A Fortran status is as many integers as a C MPI_Status holds (Open MPI 6, MPICH 5).",
             "constexpr size_t kFortranStatusSize = sizeof(MPI_Status) / sizeof(MPI_Fint);",
             "static_assert(sizeof(MPI_Fint) == sizeof(int), \"Fortran integer arrays are read as int\");",
             "size_t Count(const MPI_Fint* n) { return *n > 0 ? static_cast<size_t>(*n) : 0; }",
             "}  // namespace",
             "// Fortran's MPI_IN_PLACE is the address of a common block of the MPI library's",
             "// (Open MPI's name; weak, so that other libraries link too).",
             'extern "C" int mpi_fortran_in_place_ __attribute__((weak));',
             "namespace {",
             "const void* FortranBuffer(const void* b) {",
             "  return &mpi_fortran_in_place_ != nullptr && b == &mpi_fortran_in_place_ ? MPI_IN_PLACE : b;",
             "}",
             "// A CHARACTER argument as C text: Fortran pads it with blanks to its length.",
             "[[maybe_unused]] std::string FortranString(const char* s, size_t length) {",
             "  while (length > 0 && s[length - 1] == ' ') --length;",
             "  return std::string(s, length);",
             "}",
             "}  // namespace", ""]
    lines += [fortran_wrapper(f, flavour) for f in functions]
    lines += ["// use mpi_f08 (Open MPI's NAME_f08_ entry points)", ""]
    lines += [fortran_wrapper(f, flavour, f08=True) for f in functions]
    out.write_text("\n".join(lines))


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: generate_wrappers.py mpi_functions.def OUT_DIR")
    functions = parse(sys.argv[1])
    out = Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    write_table(functions, out / "mpi_functions.gen.h")
    write_wrappers(functions, out / "mpi_wrappers.gen.cc", TRACE)
    write_fortran_wrappers(functions, out / "mpi_fortran_wrappers.gen.cc", TRACE)
    write_wrappers(functions, out / "mpi_tag_wrappers.gen.cc", TAG)
    write_fortran_wrappers(functions, out / "mpi_tag_fortran_wrappers.gen.cc", TAG)


if __name__ == "__main__":
    main()
