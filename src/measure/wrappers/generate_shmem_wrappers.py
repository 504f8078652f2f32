#!/usr/bin/python3
"""Generates causeway's OpenSHMEM wrappers from shmem_functions.def.

    generate_shmem_wrappers.py shmem_functions.def OUT_DIR

writes OUT_DIR/shmem_functions.gen.h (the table of intercepted routines: names and region roles,
without OpenSHMEM types, so that the exporter can name them) and OUT_DIR/shmem_wrappers.gen.cc
(one wrapper per routine, calling the hooks of measure/runtime/shmem_hooks.h around the pshmem
call).

OpenSHMEM 1.4 has close to a thousand routines that differ only in their element type and in
whether they take a communication context: the description names each family once with its
type list, so that every type and context variant is wrapped the same way.

The wrappers do not include shmem.h: each declares the routine it defines and its pshmem_
twin itself, the twin as a weak reference, so that libcauseway-mpi.so neither needs an
OpenSHMEM library to build nor loads one into MPI programs. A routine whose library has no
pshmem_ twin (Open MPI 4.1 lacks a few) is forwarded to the library's own definition, found
with dlsym(RTLD_NEXT).
"""
import re
import sys
from pathlib import Path

ROLES = {
    "function": "OTF2_REGION_ROLE_FUNCTION",
    "rma": "OTF2_REGION_ROLE_RMA",
    "atomic": "OTF2_REGION_ROLE_ATOMIC",
    "barrier": "OTF2_REGION_ROLE_BARRIER",
    "coll_one2all": "OTF2_REGION_ROLE_COLL_ONE2ALL",
    "coll_all2all": "OTF2_REGION_ROLE_COLL_ALL2ALL",
    "allocate": "OTF2_REGION_ROLE_ALLOCATE",
    "deallocate": "OTF2_REGION_ROLE_DEALLOCATE",
    "reallocate": "OTF2_REGION_ROLE_REALLOCATE",
}
OPTIONS = ("ctx", "init", "finalize")


class Routine:
    def __init__(self, line_number, name, returns, params, role, hooks, kind, ok):
        self.line_number = line_number
        self.name = name
        self.returns = returns
        self.params = params  # list of (declaration, name)
        self.role = role
        self.before = [h[len("before="):] for h in hooks if h.startswith("before=")]
        self.after = [h[len("after="):] for h in hooks if h.startswith("after=")]
        self.kind = kind  # plain, init or finalize
        self.ok = ok  # init routines with a status: when the call succeeded
        self.has_ctx_parameter = any(p[1] == "ctx" for p in params)

    @property
    def enum(self):
        return "k_" + self.name

    @property
    def filterable(self):
        return self.kind == "plain" and not self.before and not self.after and \
            self.role == "function"

    def declaration(self):
        return ", ".join(p[0] for p in self.params) if self.params else "void"

    def arguments(self):
        return ", ".join(p[1] for p in self.params)


def fail(line_number, message):
    sys.exit(f"shmem_functions.def:{line_number}: {message}")


def parameter_name(declaration, line_number):
    match = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\s*$", declaration)
    if not match:
        fail(line_number, f"cannot find the name in parameter {declaration!r}")
    return match.group(1)


def parse_types(line, number):
    match = re.match(r"types\s+(\w+)\s*=\s*(.+)$", line)
    if not match:
        fail(number, "expected: types NAME = TYPENAME:C type, ...")
    entries = []
    for item in match.group(2).split(","):
        if ":" not in item:
            fail(number, f"type entry {item.strip()!r} has no ':'")
        typename, ctype = item.split(":", 1)
        entries.append((typename.strip(), ctype.strip()))
    return match.group(1), entries


def expand(text, typename, ctype):
    return text.replace("{T}", typename).replace("{C}", ctype)


def parse(path):
    types, routines = {}, []
    for number, raw in enumerate(Path(path).read_text().splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("types "):
            name, entries = parse_types(line, number)
            types[name] = entries
            continue
        fields = [f.strip() for f in line.split("|")]
        if len(fields) < 4:
            fail(number, "expected: name | return type | parameters | role | options and hooks")
        name, returns, params, role = fields[:4]
        extras = [f for f in fields[4:] if f]
        if role not in ROLES:
            fail(number, f"unknown region role {role!r}")
        family = [e[len("for="):] for e in extras if e.startswith("for=")]
        ok = [e[len("ok="):] for e in extras if e.startswith("ok=")]
        hooks = [e for e in extras if e.startswith(("before=", "after="))]
        unknown = [e for e in extras
                   if e not in OPTIONS and not e.startswith(("for=", "ok=", "before=", "after="))]
        if unknown:
            fail(number, f"unknown option or hook {unknown[0]!r}")
        kind = "init" if "init" in extras else "finalize" if "finalize" in extras else "plain"
        instances = [("", "")]
        if family:
            if family[0] not in types:
                fail(number, f"unknown type list {family[0]!r}")
            instances = types[family[0]]
        elif "{T}" in name or "{C}" in line:
            fail(number, "{T} and {C} need a type list (for=LIST)")
        for typename, ctype in instances:
            variants = [(expand(name, typename, ctype), expand(params, typename, ctype))]
            if "ctx" in extras:
                if not name.startswith("shmem_"):
                    fail(number, "only shmem_ routines have context variants")
                ctx_params = "shmem_ctx_t ctx" + (", " + variants[0][1] if variants[0][1] else "")
                variants.append(("shmem_ctx_" + variants[0][0][len("shmem_"):], ctx_params))
            for routine_name, routine_params in variants:
                declared = [p.strip() for p in routine_params.split(",")] if routine_params else []
                parameters = [(d, parameter_name(d, number)) for d in declared]
                routines.append(Routine(number, routine_name, expand(returns, typename, ctype),
                                        parameters, role,
                                        [expand(h, typename, ctype) for h in hooks], kind,
                                        ok[0] if ok else None))
    names = [r.name for r in routines]
    duplicates = {n for n in names if names.count(n) > 1}
    if duplicates:
        sys.exit(f"shmem_functions.def: {sorted(duplicates)[0]} is described twice")
    return routines


HEADER = """// Generated by src/measure/wrappers/generate_shmem_wrappers.py from shmem_functions.def.
// Do not edit.
"""


def write_table(routines, out):
    lines = [HEADER, "#pragma once", "", "#include <cstdint>", "",
             "#include <otf2/OTF2_Definitions.h>", "", "namespace cw::measure {", "",
             "// The intercepted OpenSHMEM routines; a routine's region index is",
             "// kShmemFirstRegion + its value (the MPI functions come first).",
             "enum class ShmemFunction : uint32_t {"]
    lines += [f"  {r.enum}," for r in routines]
    lines += ["};", "",
              f"inline constexpr uint32_t kShmemFunctionCount = {len(routines)};", "",
              "// filterable: the routine's records carry nothing the analysis matches (no hooks,",
              "// no communication role), so --filter-exclude may leave it out.",
              "struct ShmemFunctionInfo {", "  const char* name;", "  OTF2_RegionRole role;",
              "  bool filterable;", "};",
              "",
              "inline constexpr ShmemFunctionInfo kShmemFunctions[kShmemFunctionCount] = {"]
    lines += [f'    {{"{r.name}", {ROLES[r.role]}, {"true" if r.filterable else "false"}}},'
              for r in routines]
    lines += ["};", "", "}  // namespace cw::measure", ""]
    out.write_text("\n".join(lines))


def mentions(hooks, name):
    return any(re.search(r"\b" + re.escape(name) + r"\b", h) for h in hooks)


def locked_hooks(hooks):
    if not hooks:
        return []
    return ["  {", "    HookLock hook_lock;"] + [f"    {hook};" for hook in hooks] + ["  }"]


def wrapper(r):
    returns_value = r.returns != "void"
    target = f"Target_{r.name}()"
    call = f"{target}({r.arguments()})"
    region = f"ShmemRegion(ShmemFunction::{r.enum})"
    lines = [f'extern "C" {r.returns} p{r.name}({r.declaration()}) __attribute__((weak));',
             "namespace {",
             f"using Fn_{r.name} = {r.returns} (*)({r.declaration()});",
             f"Fn_{r.name} Target_{r.name}() {{",
             f"  static Fn_{r.name} target = p{r.name} != nullptr ? p{r.name} : "
             f'reinterpret_cast<Fn_{r.name}>(NextDefinition("{r.name}"));',
             "  return target;", "}", "}  // namespace",
             f'extern "C" {r.returns} {r.name}({r.declaration()}) {{']
    if r.kind == "init":
        lines += ["  NoteProgramSignalHandlers();  // before the runtime installs its own",
                  "  const uint64_t enter = Now();"]
        lines += [f"  {r.returns} result = {call};" if returns_value else f"  {call};"]
        condition = r.ok if r.ok else "true"
        lines += [f"  if ({condition}) ShmemStarted({region}, enter);"]
        if returns_value:
            lines += ["  return result;"]
        lines += ["}", ""]
        return "\n".join(lines)
    if r.kind == "finalize":
        lines += [f"  ShmemFinalizing({region});",
                  f"  return {call};" if returns_value else f"  {call};", "}", ""]
        return "\n".join(lines)
    recording = "RecordingShmem()"
    if r.filterable:
        recording += f" && !ShmemFiltered(ShmemFunction::{r.enum})"
    lines += [f"  if (!({recording})) return {call};", f"  ShmemCallScope scope({region});"]
    if not r.has_ctx_parameter and mentions(r.before + r.after, "ctx"):
        lines += ["  const ShmemContext ctx = kShmemDefaultContext;"]
    lines += locked_hooks(r.before)
    if returns_value:
        lines += [f"  {r.returns} result = {call};"]
    else:
        lines += [f"  {call};"]
    lines += locked_hooks(r.after)
    if returns_value:
        lines += ["  return result;"]
    lines += ["}", ""]
    return "\n".join(lines)


def write_wrappers(routines, out):
    lines = [HEADER,
             "// Each wrapper records the Enter and Leave of its region (ShmemCallScope) and runs",
             "// its hooks around the pshmem call, under the recorder's lock but never across the",
             "// call. Calls the OpenSHMEM library makes to itself, and calls before shmem_init or",
             "// after shmem_finalize, are only forwarded.",
             "#include <cstddef>", "#include <cstdint>", "",
             "#include \"measure/core/process_end.h\"",
             "#include \"measure/runtime/shmem_hooks.h\"", "",
             "using namespace cw::measure;", "using namespace cw::measure::hook;",
             "// The context handle: a pointer in every implementation (the ABI is what matters).",
             "using shmem_ctx_t = ShmemContext;", ""]
    lines += [wrapper(r) for r in routines]
    out.write_text("\n".join(lines))


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: generate_shmem_wrappers.py shmem_functions.def OUT_DIR")
    routines = parse(sys.argv[1])
    out = Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    write_table(routines, out / "shmem_functions.gen.h")
    write_wrappers(routines, out / "shmem_wrappers.gen.cc")


if __name__ == "__main__":
    main()
