#include "libtrace/kernel_functions.h"

#include "libtrace/tracefs.h"
#include "libtrace/vmlinux_btf.h"
#include "libtrace/whole_file.h"

#include <bpf/btf.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <unordered_set>

namespace dtx::trace {

namespace {

constexpr std::string_view kSuffixes[] = {".isra.", ".constprop.", ".part.", ".cold", ".llvm."};

// The names of the FUNC entries of `types` with ids from `first` on (a split
// BTF's own types follow its base's).
std::unordered_set<std::string_view> btf_function_names(const btf &types, uint32_t first) {
    std::unordered_set<std::string_view> names;
    uint32_t count = btf__type_cnt(&types);
    for (uint32_t id = first; id < count; id++) {
        const btf_type *type = btf__type_by_id(&types, id);
        if (btf_is_func(type))
            names.insert(btf__name_by_offset(&types, type->name_off));
    }
    return names;
}

} // namespace

KernelFunctionList KernelFunctionList::from_filter_functions(std::string text) {
    KernelFunctionList list;
    list.text_ = std::make_shared<const std::string>(std::move(text));
    list.source_ = "available_filter_functions";
    std::string_view rest = *list.text_;
    while (!rest.empty()) {
        size_t end = rest.find('\n');
        std::string_view line = rest.substr(0, end);
        rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 1);
        // "NAME" or "NAME [MODULE]"
        std::string_view name = line.substr(0, line.find(' '));
        std::string_view module = kKernelImageModule;
        if (size_t open = line.find('['); open != std::string_view::npos) {
            size_t close = line.find(']', open);
            if (close == std::string_view::npos)
                continue;
            module = line.substr(open + 1, close - open - 1);
        }
        if (!name.empty() && !name.starts_with("__pfx_") && !is_cold_part(name))
            list.functions_.push_back({name, module});
    }
    list.finish();
    return list;
}

void KernelFunctionList::finish() {
    auto key = [](const KernelFunction &f) { return std::pair(f.module, f.name); };
    std::sort(functions_.begin(), functions_.end(),
              [&](const KernelFunction &a, const KernelFunction &b) { return key(a) < key(b); });
    functions_.erase(std::unique(functions_.begin(), functions_.end(),
                                 [&](const KernelFunction &a, const KernelFunction &b) {
                                     return key(a) == key(b);
                                 }),
                     functions_.end());
}

Result<KernelFunctionList> KernelFunctionList::load() {
    std::string filter_error;
    Result<std::string> tracefs = find_or_mount_tracefs();
    if (tracefs) {
        int errnum = 0;
        std::string path = *tracefs + "/available_filter_functions";
        std::string text = read_whole_file(path, errnum, std::size_t{2} << 20);
        if (errnum == 0)
            return from_filter_functions(std::move(text));
        filter_error = path + ": " + std::strerror(errnum);
    } else {
        filter_error = tracefs.error().message;
    }

    const btf *vmlinux = vmlinux_btf();
    if (!vmlinux)
        return failure(filter_error + "; and the kernel has no BTF (/sys/kernel/btf/vmlinux) "
                                      "to list its functions instead");
    int errnum = 0;
    std::string kallsyms = read_whole_file("/proc/kallsyms", errnum, std::size_t{16} << 20);
    if (errnum != 0)
        return Error(filter_error + "; and /proc/kallsyms: " + std::strerror(errnum), errnum);

    std::unordered_set<std::string_view> kernel_functions = btf_function_names(*vmlinux, 1);
    // Each module's BTF on first sight of the module; modules without BTF
    // (or whose BTF does not parse) keep an empty set.
    struct ModuleFunctions {
        std::unique_ptr<btf, decltype(&btf__free)> types{nullptr, btf__free};
        std::unordered_set<std::string_view> names;
    };
    std::map<std::string, ModuleFunctions, std::less<>> modules;
    auto is_btf_function = [&](std::string_view name, std::string_view module) {
        if (module == kKernelImageModule)
            return kernel_functions.contains(name);
        auto it = modules.find(module);
        if (it == modules.end()) {
            it = modules.emplace(std::string(module), ModuleFunctions{}).first;
            std::string path = "/sys/kernel/btf/" + std::string(module);
            it->second.types.reset(btf__parse_split(path.c_str(), const_cast<btf *>(vmlinux)));
            if (it->second.types)
                it->second.names = btf_function_names(*it->second.types, btf__type_cnt(vmlinux));
        }
        return it->second.names.contains(name);
    };
    return from_kallsyms(std::move(kallsyms), is_btf_function);
}

std::string_view function_base_name(std::string_view name) {
    size_t cut = name.size();
    for (std::string_view suffix : kSuffixes)
        if (size_t at = name.find(suffix); at != std::string_view::npos && at > 0)
            cut = std::min(cut, at);
    return name.substr(0, cut);
}

bool is_cold_part(std::string_view name) {
    size_t at = name.find(".cold");
    return at != std::string_view::npos && at > 0 && (at + 5 == name.size() || name[at + 5] == '.');
}

KprobeBlacklist KprobeBlacklist::parse(std::string_view text) {
    KprobeBlacklist list;
    while (!text.empty()) {
        size_t end = text.find('\n');
        std::string_view line = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
        // "0xSTART-0xEND\tNAME"
        size_t tab = line.find_first_of("\t ");
        if (tab == std::string_view::npos)
            continue;
        std::string_view name = line.substr(tab + 1);
        size_t start = name.find_first_not_of("\t ");
        name = start == std::string_view::npos ? std::string_view{} : name.substr(start);
        name = name.substr(0, name.find_first_of("\t ["));
        if (!name.empty())
            list.names_.emplace_back(name);
    }
    std::sort(list.names_.begin(), list.names_.end());
    return list;
}

KprobeBlacklist KprobeBlacklist::load() {
    int errnum = 0;
    std::string text = read_whole_file("/sys/kernel/debug/kprobes/blacklist", errnum);
    return errnum == 0 ? parse(text) : KprobeBlacklist{};
}

bool KprobeBlacklist::contains(std::string_view name) const {
    return std::binary_search(names_.begin(), names_.end(), name,
                              [](std::string_view a, std::string_view b) { return a < b; });
}

} // namespace dtx::trace
