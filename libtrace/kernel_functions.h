// The kernel functions that can be traced, for the fbt, kprobe and fentry
// providers.
//
// Where tracefs' available_filter_functions is readable it is the list: every
// function ftrace can hook, "NAME" for the kernel image and "NAME [MODULE]"
// for modules (a name repeats when several static functions share it). Where
// it is not (locked down, or no ftrace), the list is every function of the
// kernel's BTF (vmlinux and each module's /sys/kernel/btf/MODULE) that
// /proc/kallsyms has as a text symbol: BTF only describes functions the
// compiler kept, and kallsyms says the symbol is really there.
//
// Compilers rename the copies they specialise (foo.isra.0, foo.constprop.0,
// foo.part.0) and split out cold code (foo.cold): the copies are functions in
// their own right (kprobes can trace them; BTF has no types for them), the
// cold parts are not function entries at all.
#pragma once

#include "libtrace/error.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtx::trace {

// The module name of functions of the kernel image itself.
inline constexpr std::string_view kKernelImageModule = "vmlinux";

struct KernelFunction {
    std::string_view name;   // as the kernel spells it: "vfs_read", "foo.isra.0"
    std::string_view module; // kKernelImageModule or the module's name
};

class KernelFunctionList {
public:
    // Parses available_filter_functions text (the list keeps it).
    static KernelFunctionList from_filter_functions(std::string text);
    // The functions of `kallsyms` text that `is_btf_function(name, module)`
    // says BTF describes (or, for the compiler's copies, describes under the
    // original name): text symbols only ('t'/'T'), without __pfx_ padding
    // and .cold parts.
    template <typename IsBtfFunction>
    static KernelFunctionList from_kallsyms(std::string text, IsBtfFunction &&is_btf_function);

    // The running kernel's list (see the file comment); an error names the files
    // that could not be read and why.
    static Result<KernelFunctionList> load();

    const std::vector<KernelFunction> &functions() const { return functions_; }
    // Where the list came from, for -v: "available_filter_functions" or
    // "BTF and /proc/kallsyms".
    std::string_view source() const { return source_; }

private:
    // Sorts by module and name and drops repeated names (static functions).
    void finish();

    std::shared_ptr<const std::string> text_; // the functions' names point into it
    std::vector<KernelFunction> functions_;
    std::string source_;
};

// `name` without a compiler suffix: "foo" for foo.isra.0, foo.constprop.3,
// foo.part.1, foo.cold, foo.llvm.123; `name` itself otherwise.
std::string_view function_base_name(std::string_view name);
// Whether `name` is the cold part split out of a function (foo.cold, foo.cold.2).
bool is_cold_part(std::string_view name);

// The functions kprobes refuse (/sys/kernel/debug/kprobes/blacklist: the
// kprobes code itself, NOKPROBE_SYMBOL functions, the entry code).
class KprobeBlacklist {
public:
    static KprobeBlacklist parse(std::string_view text);
    // Reads the blacklist from debugfs; empty when it cannot be read.
    static KprobeBlacklist load();
    bool contains(std::string_view name) const;

private:
    std::vector<std::string> names_; // sorted
};

template <typename IsBtfFunction>
KernelFunctionList KernelFunctionList::from_kallsyms(std::string text,
                                                     IsBtfFunction &&is_btf_function) {
    KernelFunctionList list;
    list.text_ = std::make_shared<const std::string>(std::move(text));
    list.source_ = "BTF and /proc/kallsyms";
    std::string_view rest = *list.text_;
    while (!rest.empty()) {
        size_t end = rest.find('\n');
        std::string_view line = rest.substr(0, end);
        rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 1);
        // "ADDRESS TYPE NAME[\t[MODULE]]"
        size_t type_at = line.find(' ');
        if (type_at == std::string_view::npos || type_at + 3 > line.size())
            continue;
        char type = line[type_at + 1];
        if (type != 't' && type != 'T')
            continue;
        std::string_view name = line.substr(type_at + 3);
        std::string_view module = kKernelImageModule;
        if (size_t tab = name.find('\t'); tab != std::string_view::npos) {
            module = name.substr(tab + 1);
            name = name.substr(0, tab);
            if (module.size() < 2 || module.front() != '[' || module.back() != ']')
                continue;
            module = module.substr(1, module.size() - 2);
            // [bpf], [__builtin__ftrace]...: generated code, not functions.
            if (module == "bpf" || module.starts_with("__builtin"))
                continue;
        }
        if (name.starts_with("__pfx_") || is_cold_part(name))
            continue;
        // The compiler's copies (foo.isra.0) are functions BTF knows as foo.
        std::string_view base = function_base_name(name);
        if (!is_btf_function(name, module) && (base == name || !is_btf_function(base, module)))
            continue;
        list.functions_.push_back({name, module});
    }
    list.finish();
    return list;
}

} // namespace dtx::trace
