#include "providers/kernel_function_probes.h"

#include "libtrace/btf_spelling.h"
#include "libtrace/hex.h"
#include "libtrace/perf_event.h"
#include "libtrace/usdt_note.h"
#include "libtrace/vmlinux_btf.h"
#include "libtrace/whole_file.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>

namespace dtx::providers {

namespace {

using trace::PtRegsOffset;

constexpr PtRegsOffset kArgumentRegisters[kRegisterArguments] = {
    PtRegsOffset::Rdi, PtRegsOffset::Rsi, PtRegsOffset::Rdx,
    PtRegsOffset::Rcx, PtRegsOffset::R8,  PtRegsOffset::R9};

// Functions the kernel never lets BPF trampolines attach to (btf_id_deny in
// kernel/bpf/verifier.c): tracing them would recurse into the tracing code.
constexpr std::string_view kTrampolineDenied[] = {
    "migrate_disable",   "migrate_enable",  "rcu_read_unlock_strict", "preempt_count_add",
    "preempt_count_sub", "__rcu_read_lock", "__rcu_read_unlock",
};

// Loads of `count` instructions for one feature probe; the fd, or -1 (errno set).
int load_probe_program(bpf_prog_type type, const bpf_insn *insns, size_t count,
                       const bpf_prog_load_opts *options) {
    return bpf_prog_load(type, "dtx_probe", "GPL", insns, count, options);
}

bpf_insn instruction(uint8_t code, uint8_t dst, uint8_t src, int16_t offset, int32_t imm) {
    bpf_insn insn{};
    insn.code = code;
    insn.dst_reg = dst & 0xf;
    insn.src_reg = src & 0xf;
    insn.off = offset;
    insn.imm = imm;
    return insn;
}

const bpf_insn kReturnZero[] = {instruction(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0),
                                instruction(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)};

// "vfs_read+0x10" -> ("vfs_read", 16); nullopt when `field` has no offset.
std::optional<std::pair<std::string_view, uint64_t>> split_offset(std::string_view field) {
    size_t plus = field.find('+');
    if (plus == std::string_view::npos)
        return std::nullopt;
    std::string_view number = field.substr(plus + 1);
    int base = 10;
    if (number.starts_with("0x") || number.starts_with("0X")) {
        number.remove_prefix(2);
        base = 16;
    }
    uint64_t offset = 0;
    auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), offset, base);
    if (ec != std::errc() || end != number.data() + number.size() || number.empty())
        return std::pair(field.substr(0, plus), UINT64_MAX);
    return std::pair(field.substr(0, plus), offset);
}

// What a probe's name does not say.
struct KernelFunctionProbeData final : trace::ProbeData {
    KernelFunctionProbeData(uint64_t offset, bool is_return)
        : offset(offset), is_return(is_return) {}
    uint64_t offset;
    bool is_return;
};

// Shared by every probe at a function's entry, or return: fbt alone has
// ~100,000 probes, which -l lists.
std::shared_ptr<const KernelFunctionProbeData> probe_data(uint64_t offset, bool is_return) {
    static const auto entry = std::make_shared<const KernelFunctionProbeData>(0, false);
    static const auto ret = std::make_shared<const KernelFunctionProbeData>(0, true);
    if (offset == 0)
        return is_return ? ret : entry;
    return std::make_shared<const KernelFunctionProbeData>(offset, is_return);
}

const trace::Probe &add_probe(std::string_view provider, trace::ProbeTable &table,
                              std::string_view module, std::string_view function, uint64_t offset,
                              bool is_return) {
    std::string function_field(function);
    if (offset != 0)
        function_field += "+" + trace::hex(offset);
    trace::ProbeName name{std::string(provider), std::string(module), function_field,
                          is_return ? "return" : "entry"};
    return table.add(std::move(name), probe_data(offset, is_return));
}

} // namespace

KernelFunctionProbe kernel_function_of(const trace::Probe &probe) {
    const auto &data = static_cast<const KernelFunctionProbeData &>(*probe.data);
    std::string_view function = probe.name.function;
    if (data.offset != 0)
        function = function.substr(0, function.rfind('+'));
    return {function, probe.name.module, data.offset, data.is_return};
}

// ---- the catalog ----

const trace::KernelFunctionList *KernelFunctionCatalog::functions() {
    if (!loaded_) {
        loaded_ = true;
        Result<trace::KernelFunctionList> loaded = trace::KernelFunctionList::load();
        if (loaded)
            functions_ = std::move(*loaded);
        else
            error_ = loaded.error().message;
    }
    return functions_ ? &*functions_ : nullptr;
}

const std::string &KernelFunctionCatalog::error() {
    functions();
    return error_;
}

const btf *KernelFunctionCatalog::vmlinux() {
    if (!btf_loaded_) {
        btf_loaded_ = true;
        vmlinux_ = trace::vmlinux_btf();
    }
    return vmlinux_;
}

KernelFunctionCatalog::BtfIndex *KernelFunctionCatalog::btf_index() {
    if (!btf_index_) {
        btf_index_ = std::make_unique<BtfIndex>();
        if (const btf *types = vmlinux()) {
            uint32_t count = btf__type_cnt(types);
            for (uint32_t id = 1; id < count; id++) {
                const btf_type *type = btf__type_by_id(types, id);
                if (btf_is_func(type))
                    btf_index_->functions.emplace(btf__name_by_offset(types, type->name_off), id);
            }
        }
    }
    return btf_index_.get();
}

uint32_t KernelFunctionCatalog::function_id(std::string_view function, std::string_view module) {
    if (module != trace::kKernelImageModule)
        return 0;
    auto &index = btf_index()->functions;
    auto it = index.find(function);
    return it == index.end() ? 0 : it->second;
}

uint32_t KernelFunctionCatalog::prototype(std::string_view function, std::string_view module) {
    uint32_t id = function_id(function, module);
    if (id == 0)
        return 0;
    const btf_type *func = btf__type_by_id(vmlinux(), id);
    const btf_type *proto = func ? btf__type_by_id(vmlinux(), func->type) : nullptr;
    return proto && btf_is_func_proto(proto) ? func->type : 0;
}

std::vector<trace::ProbeArgument>
KernelFunctionCatalog::arguments(const KernelFunctionProbe &probe) {
    std::vector<trace::ProbeArgument> arguments;
    uint32_t proto_id = probe.offset == 0 ? prototype(probe.function, probe.module) : 0;
    if (proto_id == 0)
        return arguments;
    const btf &types = *vmlinux();
    const btf_type *proto = btf__type_by_id(&types, proto_id);
    if (probe.is_return) {
        arguments.push_back({"uint64_t", 0, "offset"});
        if (proto->type != 0)
            arguments.push_back(
                {trace::btf_type_spelling(types, proto->type), proto->type, "return value"});
        return arguments;
    }
    const btf_param *params = btf_params(proto);
    for (uint16_t i = 0; i < btf_vlen(proto) && i < codegen::ClauseContextLayout::arg_count; i++) {
        if (params[i].type == 0) // the ... of a variadic function
            break;
        arguments.push_back({trace::btf_type_spelling(types, params[i].type), params[i].type,
                             btf__name_by_offset(&types, params[i].name_off)});
    }
    return arguments;
}

unsigned KernelFunctionCatalog::argument_count(const KernelFunctionProbe &probe) {
    uint32_t proto_id = prototype(probe.function, probe.module);
    if (proto_id == 0)
        return kRegisterArguments;
    return std::min<unsigned>(btf_vlen(btf__type_by_id(vmlinux(), proto_id)), kRegisterArguments);
}

bool KernelFunctionCatalog::returns_value(const KernelFunctionProbe &probe) {
    uint32_t proto_id = prototype(probe.function, probe.module);
    return proto_id == 0 || btf__type_by_id(vmlinux(), proto_id)->type != 0;
}

std::optional<std::string> KernelFunctionCatalog::fentry_refusal(const KernelFunctionProbe &probe) {
    if (probe.offset != 0)
        return "BPF trampolines trace function entries and returns, not offsets";
    if (probe.module != trace::kKernelImageModule)
        return std::string(probe.function) + " is in module " + std::string(probe.module) +
               ": dtx's fentry traces functions of the kernel image (vmlinux) only";
    if (!vmlinux())
        return std::string("the kernel has no BTF (/sys/kernel/btf/vmlinux)");
    uint32_t proto_id = prototype(probe.function, probe.module);
    if (proto_id == 0) {
        std::string_view base = trace::function_base_name(probe.function);
        if (base != probe.function)
            return std::string(probe.function) + " is a copy of " + std::string(base) +
                   " the compiler specialised; BTF has no type for it";
        return "BTF does not describe " + std::string(probe.function);
    }
    if (std::find(std::begin(kTrampolineDenied), std::end(kTrampolineDenied), probe.function) !=
        std::end(kTrampolineDenied))
        return "the kernel does not let BPF trampolines trace " + std::string(probe.function);
    const btf &types = *vmlinux();
    const btf_type *proto = btf__type_by_id(&types, proto_id);
    auto by_value = [&](uint32_t id) -> std::optional<std::string> {
        const btf_type *type = btf__type_by_id(&types, id);
        while (type && (btf_is_typedef(type) || btf_is_mod(type)))
            type = btf__type_by_id(&types, type->type);
        if (!type)
            return std::nullopt;
        if (btf_is_composite(type))
            return "a struct or union by value";
        if (btf_is_float(type))
            return "a floating-point value";
        if (btf_is_int(type) && type->size > 8)
            return "a 128-bit integer";
        return std::nullopt;
    };
    const btf_param *params = btf_params(proto);
    for (uint16_t i = 0; i < btf_vlen(proto); i++) {
        if (params[i].type == 0)
            return std::string(probe.function) + " is variadic";
        if (auto what = by_value(params[i].type))
            return std::string(probe.function) + " takes " + *what;
    }
    if (btf_vlen(proto) > kRegisterArguments)
        return std::string(probe.function) + " has " + std::to_string(btf_vlen(proto)) +
               " arguments; BPF trampolines take at most " + std::to_string(kRegisterArguments);
    if (proto->type != 0)
        if (auto what = by_value(proto->type))
            return std::string(probe.function) + " returns " + *what;
    return std::nullopt;
}

bool KernelFunctionCatalog::kprobe_blacklisted(std::string_view function) {
    if (!blacklist_)
        blacklist_ = trace::KprobeBlacklist::load();
    return blacklist_->contains(function);
}

bool KernelFunctionCatalog::kallsyms_has_text(std::string_view name, std::string_view module) {
    if (!kallsyms_) {
        int errnum = 0;
        kallsyms_ = trace::read_whole_file("/proc/kallsyms", errnum, std::size_t{16} << 20);
    }
    // " t NAME\n" or " T NAME\t[MODULE]\n"
    std::string_view text = *kallsyms_;
    for (size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
        if (at < 3 || text[at - 1] != ' ' || text[at - 3] != ' ' ||
            (text[at - 2] != 't' && text[at - 2] != 'T'))
            continue;
        std::string_view rest = text.substr(at + name.size());
        std::string_view line = rest.substr(0, rest.find('\n'));
        bool in_kernel = line.empty();
        if (!in_kernel && !line.starts_with("\t["))
            continue;
        if (module.empty() || (module == trace::kKernelImageModule && in_kernel) ||
            (!in_kernel && line.substr(2, line.size() - 3) == module))
            return true;
    }
    return false;
}

Unavailable KernelFunctionCatalog::kprobes() {
    if (!kprobes_) {
        Result<trace::ProbePmu> pmu = trace::read_probe_pmu("kprobe", "kprobes");
        kprobes_ = pmu ? Unavailable{} : Unavailable{pmu.error().message};
    }
    return *kprobes_;
}

Unavailable KernelFunctionCatalog::fentry() {
    if (fentry_)
        return *fentry_;
    // One lookup, without building the index of every function.
    int found = vmlinux() ? btf__find_by_name_kind(vmlinux(), "vfs_read", BTF_KIND_FUNC) : -1;
    uint32_t id = found > 0 ? uint32_t(found) : 0;
    if (id == 0) {
        fentry_ = Unavailable{vmlinux() ? "BTF names no vfs_read to try a BPF trampoline on"
                                        : "the kernel has no BTF (/sys/kernel/btf/vmlinux), which "
                                          "BPF trampolines need"};
        return *fentry_;
    }
    LIBBPF_OPTS(bpf_prog_load_opts, options, .expected_attach_type = BPF_TRACE_FENTRY,
                .attach_btf_id = id);
    trace::UniqueFd fd(
        load_probe_program(BPF_PROG_TYPE_TRACING, kReturnZero, std::size(kReturnZero), &options));
    if (fd) {
        fentry_ = Unavailable{};
        return *fentry_;
    }
    int err = errno;
    std::string why = "the kernel refuses BPF trampoline (fentry) programs: bpf_prog_load of a "
                      "fentry program for vfs_read: ";
    why += std::strerror(err);
    if (err == EPERM)
        why += " (a lockdown mode or a security module forbids them; bpftrace --info would "
               "say 'kfunc: no')";
    else if (err == EINVAL)
        why += " (fentry programs need Linux 5.5 with BTF)";
    fentry_ = Unavailable{why};
    return *fentry_;
}

bool KernelFunctionCatalog::kprobe_multi() {
    if (kprobe_multi_)
        return *kprobe_multi_;
    kprobe_multi_ = false;
    LIBBPF_OPTS(bpf_prog_load_opts, options, .expected_attach_type = BPF_TRACE_KPROBE_MULTI);
    trace::UniqueFd fd(
        load_probe_program(BPF_PROG_TYPE_KPROBE, kReturnZero, std::size(kReturnZero), &options));
    if (!fd)
        return false;
    // A symbol that does not exist: kernels with kprobe_multi links fail to
    // find it; those without refuse the link itself.
    const char *symbol = "dtx_no_such_function";
    LIBBPF_OPTS(bpf_link_create_opts, link_options);
    link_options.kprobe_multi.syms = &symbol;
    link_options.kprobe_multi.cnt = 1;
    trace::UniqueFd link(bpf_link_create(fd.get(), 0, BPF_TRACE_KPROBE_MULTI, &link_options));
    int err = errno;
    kprobe_multi_ = !link && err != EOPNOTSUPP && err != EINVAL;
    return *kprobe_multi_;
}

bool KernelFunctionCatalog::kprobe_cookies() {
    if (!kprobe_cookies_)
        kprobe_cookies_ =
            libbpf_probe_bpf_helper(BPF_PROG_TYPE_KPROBE, BPF_FUNC_get_attach_cookie, nullptr) > 0;
    return *kprobe_cookies_;
}

// ---- matching ----

namespace {

bool offers(const KernelFunctionFilter &filter, KernelFunctionCatalog &catalog,
            const trace::KernelFunction &function) {
    if (filter.needs_fentry) {
        return !catalog.fentry_refusal({function.name, function.module});
    }
    return !catalog.kprobe_blacklisted(function.name);
}

} // namespace

Status match_kernel_functions(std::string_view provider, const ProbePattern &pattern,
                              const KernelFunctionFilter &filter, KernelFunctionCatalog &catalog,
                              trace::ProbeTable &table, std::vector<const trace::Probe *> &out) {
    if (!trace::glob_match(pattern.provider, provider))
        return {};
    bool entry = trace::glob_match(pattern.name, "entry");
    bool ret = trace::glob_match(pattern.name, "return");
    if (!entry && !ret)
        return {};
    bool named = pattern.provider == provider;

    if (filter.kprobe_extras && !trace::has_glob(pattern.function)) {
        if (auto split = split_offset(pattern.function)) {
            auto [function, offset] = *split;
            if (offset == UINT64_MAX)
                return failure("probe '" + pattern.full() + "': '" + pattern.function +
                               "' is not FUNCTION+OFFSET (an offset such as +0x10 or +16)");
            if (!entry)
                return failure("probe '" + pattern.full() +
                               "': an offset into a function takes entry probes only");
            std::string_view module = pattern.module.empty() ? trace::kKernelImageModule
                                                             : std::string_view(pattern.module);
            if (catalog.kallsyms_has_text(function, module) &&
                !catalog.kprobe_blacklisted(function))
                out.push_back(&add_probe(provider, table, module, function, offset, false));
            return {};
        }
    }

    const trace::KernelFunctionList *list = catalog.functions();
    if (!list) {
        if (named)
            return failure("probe '" + pattern.full() +
                           "': cannot list the kernel's functions: " + catalog.error());
        return {};
    }
    size_t before = out.size();
    auto add = [&](const trace::KernelFunction &function) {
        if (entry)
            out.push_back(&add_probe(provider, table, function.module, function.name, 0, false));
        if (ret)
            out.push_back(&add_probe(provider, table, function.module, function.name, 0, true));
    };
    for (const trace::KernelFunction &function : list->functions())
        if (trace::glob_match(pattern.function, function.name) &&
            trace::glob_match(pattern.module, function.module) && offers(filter, catalog, function))
            add(function);
    if (out.size() > before || trace::has_glob(pattern.function) || pattern.function.empty())
        return {};

    // FUNC where the kernel only has the compiler's copies of it.
    for (const trace::KernelFunction &function : list->functions())
        if (trace::function_base_name(function.name) == pattern.function &&
            trace::glob_match(pattern.module, function.module) && offers(filter, catalog, function))
            add(function);
    if (out.size() > before || !filter.kprobe_extras)
        return {};
    // A text symbol ftrace does not list (kprobes can still trace it).
    std::string_view module =
        pattern.module.empty() ? trace::kKernelImageModule : std::string_view(pattern.module);
    if (!trace::has_glob(pattern.module) && catalog.kallsyms_has_text(pattern.function, module) &&
        !catalog.kprobe_blacklisted(pattern.function)) {
        trace::KernelFunction function{pattern.function, module};
        add(function);
    }
    return {};
}

void list_kernel_functions(std::string_view provider, const KernelFunctionFilter &filter,
                           KernelFunctionCatalog &catalog, trace::ProbeTable &table) {
    const trace::KernelFunctionList *list = catalog.functions();
    if (!list)
        return;
    for (const trace::KernelFunction &function : list->functions()) {
        if (!offers(filter, catalog, function))
            continue;
        add_probe(provider, table, function.module, function.name, 0, false);
        add_probe(provider, table, function.module, function.name, 0, true);
    }
}

std::optional<std::string> explain_kernel_function_miss(std::string_view provider,
                                                        const ProbePattern &pattern,
                                                        const KernelFunctionFilter &filter,
                                                        KernelFunctionCatalog &catalog) {
    if (!trace::glob_match(pattern.provider, provider) ||
        !(trace::glob_match(pattern.name, "entry") || trace::glob_match(pattern.name, "return")))
        return std::nullopt;
    const trace::KernelFunctionList *list = catalog.functions();
    if (!list)
        return "cannot list the kernel's functions: " + catalog.error();
    if (trace::has_glob(pattern.function) || pattern.function.empty())
        return std::nullopt;
    std::string_view name = pattern.function;
    if (auto split = split_offset(name))
        name = split->first;
    const trace::KernelFunction *found = nullptr;
    for (const trace::KernelFunction &function : list->functions())
        if (function.name == name || trace::function_base_name(function.name) == name) {
            found = &function;
            break;
        }
    if (!found) {
        std::string why = "the kernel has no traceable function '" + std::string(name) + "' (";
        why += list->source();
        why += " does not list it: it may be inlined, notrace, or not exist";
        if (catalog.kallsyms_has_text(name, {}))
            why += "; /proc/kallsyms has it, so kprobe::" + std::string(name) + ":entry may work";
        return why + ")";
    }
    if (!trace::glob_match(pattern.module, found->module))
        return "'" + std::string(found->name) + "' is in module " + std::string(found->module) +
               ", not " + pattern.module;
    if (catalog.kprobe_blacklisted(found->name) && !filter.needs_fentry)
        return "kprobes cannot trace '" + std::string(found->name) +
               "': it is on the kernel's kprobe blacklist (/sys/kernel/debug/kprobes/blacklist)";
    if (filter.needs_fentry) {
        if (auto refusal = catalog.fentry_refusal({found->name, found->module}))
            return "a BPF trampoline cannot trace it: " + *refusal;
    }
    return std::nullopt;
}

// ---- the providers' common part ----

Status KernelFunctionProvider::match(const ProbePattern &pattern, trace::ProbeTable &table,
                                     std::vector<const trace::Probe *> &out) {
    return match_kernel_functions(name_, pattern, filter_, *catalog_, table, out);
}

void KernelFunctionProvider::list(trace::ProbeTable &table) {
    list_kernel_functions(name_, filter_, *catalog_, table);
}

std::vector<trace::ProbeArgument> KernelFunctionProvider::arguments(const trace::Probe &probe) {
    return catalog_->arguments(kernel_function_of(probe));
}

ProviderAttributes KernelFunctionProvider::attributes() const {
    // As dtrace declares fbt's: names evolve with the kernel; functions,
    // modules and arguments are the kernel's private implementation.
    Attributes evolving{Stability::Evolving, Stability::Evolving, DependencyClass::Common};
    Attributes isa{Stability::Private, Stability::Private, DependencyClass::Isa};
    return {evolving, isa, isa, evolving, isa};
}

std::optional<std::string> KernelFunctionProvider::explain_no_match(const ProbePattern &pattern) {
    return explain_kernel_function_miss(name_, pattern, filter_, *catalog_);
}

// ---- kprobe programs ----

std::vector<Trampoline> kprobe_trampolines(std::span<const trace::Probe *const> probes,
                                           KernelFunctionCatalog &catalog,
                                           std::string_view program_prefix) {
    bool cookies = catalog.kprobe_cookies();
    std::vector<const trace::Probe *> entries, returns;
    // kprobe_multi links take kernel image functions, without offsets.
    bool multi_able = true;
    for (const trace::Probe *probe : probes) {
        KernelFunctionProbe data = kernel_function_of(*probe);
        (data.is_return ? returns : entries).push_back(probe);
        multi_able = multi_able && data.offset == 0 && data.module == trace::kKernelImageModule;
    }
    std::vector<Trampoline> out;
    auto make = [&](std::vector<const trace::Probe *> group, bool is_return, bool multi) {
        Trampoline t;
        t.spec.program_name = std::string(program_prefix) + "_" + std::to_string(out.size());
        t.spec.section = "kprobe";
        t.spec.probes = group;
        if (multi)
            t.expected_attach_type = BPF_TRACE_KPROBE_MULTI;
        uint32_t id = group.front()->id;
        bool with_cookies = cookies;
        t.spec.emit = [is_return, with_cookies, id](codegen::TrampolineBuilder &b) {
            llvm::IRBuilder<> &ir = b.ir();
            llvm::Value *ctx = b.entry().getArg(0);
            auto reg = [&](PtRegsOffset offset) {
                return ir.CreateLoad(ir.getInt64Ty(),
                                     ir.CreateConstGEP1_64(ir.getInt8Ty(), ctx, uint64_t(offset)));
            };
            // Registers first: the cookie helper call clobbers the argument registers.
            std::vector<llvm::Value *> values;
            if (is_return) {
                values = {ir.getInt64(0), reg(PtRegsOffset::Rax)};
            } else {
                for (PtRegsOffset offset : kArgumentRegisters)
                    values.push_back(reg(offset));
            }
            llvm::Value *dctx = b.clause_context();
            b.store_probe_id(dctx, with_cookies ? b.call_helper(BPF_FUNC_get_attach_cookie,
                                                                ir.getInt64Ty(), {ctx})
                                                : ir.getInt64(id));
            b.clear_arguments(dctx);
            for (unsigned i = 0; i < values.size(); i++)
                b.store_argument(dctx, i, values[i]);
            b.run_clauses(dctx);
        };
        t.attach = [group, is_return, with_cookies, multi](AttachContext &context) -> Status {
            if (multi) {
                std::vector<std::string> symbols;
                std::vector<uint64_t> ids;
                for (const trace::Probe *probe : group) {
                    symbols.emplace_back(kernel_function_of(*probe).function);
                    ids.push_back(probe->id);
                }
                auto attached = context.attachments.attach_kprobe_multi(context.program_fd, symbols,
                                                                        ids, is_return);
                if (!attached)
                    return attached.error().prefixed("probes '" + group.front()->name.full() +
                                                     "' and " + std::to_string(group.size() - 1) +
                                                     " more");
                return {};
            }
            for (const trace::Probe *probe : group) {
                KernelFunctionProbe data = kernel_function_of(*probe);
                // "MODULE:FUNCTION" picks the module's function of that name.
                std::string symbol(data.function);
                if (data.module != trace::kKernelImageModule)
                    symbol = std::string(data.module) + ":" + symbol;
                auto attached =
                    context.attachments.attach_kprobe(context.program_fd, symbol, data.offset,
                                                      is_return, with_cookies ? probe->id : 0);
                if (!attached)
                    return attached.error().prefixed("probe '" + probe->name.full() + "'");
            }
            return {};
        };
        out.push_back(std::move(t));
    };
    for (auto [group, is_return] : {std::pair(&entries, false), std::pair(&returns, true)}) {
        if (group->empty())
            continue;
        bool multi = group->size() > 1 && multi_able && cookies && catalog.kprobe_multi();
        if (cookies) {
            make(*group, is_return, multi);
            continue;
        }
        for (const trace::Probe *probe : *group)
            make({probe}, is_return, false);
    }
    return out;
}

// ---- fentry programs ----

std::vector<Trampoline> fentry_trampolines(std::span<const trace::Probe *const> probes,
                                           KernelFunctionCatalog &catalog,
                                           std::string_view program_prefix) {
    std::vector<Trampoline> out;
    for (const trace::Probe *probe : probes) {
        KernelFunctionProbe data = kernel_function_of(*probe);
        unsigned arguments = catalog.argument_count(data);
        bool returns_value = catalog.returns_value(data);
        bool is_return = data.is_return;
        uint32_t id = probe->id;
        Trampoline t;
        t.spec.program_name = std::string(program_prefix) + "_" + std::to_string(out.size());
        t.spec.section = is_return ? "fexit" : "fentry";
        t.spec.probes = {probe};
        // The clause's and the program's frames, and the BPF trampoline's.
        t.spec.kernel_stack_skip = 3;
        t.attach_function = std::string(data.function);
        t.spec.emit = [=](codegen::TrampolineBuilder &b) {
            llvm::IRBuilder<> &ir = b.ir();
            llvm::Value *ctx = b.entry().getArg(0);
            // The context is the function's arguments as u64s, then (fexit)
            // its return value.
            auto slot = [&](unsigned i) {
                return ir.CreateLoad(ir.getInt64Ty(),
                                     ir.CreateConstGEP1_64(ir.getInt64Ty(), ctx, i));
            };
            llvm::Value *dctx = b.clause_context();
            b.store_probe_id(dctx, ir.getInt64(id));
            b.clear_arguments(dctx);
            if (is_return) {
                if (returns_value)
                    b.store_argument(dctx, 1, slot(arguments));
            } else {
                for (unsigned i = 0; i < arguments; i++)
                    b.store_argument(dctx, i, slot(i));
            }
            b.run_clauses(dctx);
        };
        t.attach = [probe, is_return](AttachContext &context) -> Status {
            std::string description = std::string(is_return ? "fexit " : "fentry ") +
                                      std::string(kernel_function_of(*probe).function);
            auto attached = context.attachments.attach_trampoline(context.program_fd, is_return,
                                                                  std::move(description));
            if (!attached)
                return attached.error().prefixed("probe '" + probe->name.full() + "'");
            return {};
        };
        out.push_back(std::move(t));
    }
    return out;
}

} // namespace dtx::providers
