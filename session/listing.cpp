#include "session/listing.h"

#include "libtrace/btf_spelling.h"
#include "libtrace/vmlinux_btf.h"

#include <bpf/btf.h>

#include <algorithm>
#include <charconv>
#include <optional>
#include <set>

namespace dtx::session {

namespace {

using providers::Attributes;
using providers::DependencyClass;
using providers::Provider;
using providers::ProviderAttributes;
using providers::Stability;

const char *stability_name(Stability stability) {
    static constexpr const char *kNames[] = {"Internal", "Private",  "Obsolete", "External",
                                             "Unstable", "Evolving", "Stable",   "Standard"};
    return kNames[size_t(stability)];
}

const char *dependency_class_name(DependencyClass dependency) {
    static constexpr const char *kNames[] = {"Unknown", "CPU", "Platform",
                                             "Group",   "ISA", "Common"};
    return kNames[size_t(dependency)];
}

Attributes weakest(const Attributes &a, const Attributes &b) {
    return {std::min(a.names, b.names), std::min(a.data, b.data),
            std::min(a.dependency, b.dependency)};
}

// As dtrace computes them for a probe: the weakest of the provider's
// attributes and those of each field the name gives (an empty field names
// nothing, so promises nothing either way).
Attributes description_attributes(const ProviderAttributes &declared,
                                  const trace::ProbeName &name) {
    Attributes attributes = declared.provider;
    if (!name.module.empty())
        attributes = weakest(attributes, declared.module);
    if (!name.function.empty())
        attributes = weakest(attributes, declared.function);
    if (!name.name.empty())
        attributes = weakest(attributes, declared.name);
    return attributes;
}

// The C spelling of an argument's type; those a provider gives only as a
// vmlinux BTF type are spelled from the kernel's BTF.
std::string argument_type_spelling(const trace::ProbeArgument &argument) {
    if (!argument.type.empty() || argument.btf_id == 0)
        return argument.type;
    const btf *kernel = trace::vmlinux_btf();
    if (!kernel)
        return "(unknown)"; // as dtrace spells a type it cannot resolve
    return trace::btf_type_spelling(*kernel, argument.btf_id);
}

void print_attributes(FILE *out, const char *title, const Attributes &attributes) {
    std::fprintf(out, "\n\t%s\n", title);
    std::fprintf(out, "\t\tIdentifier Names: %s\n", stability_name(attributes.names));
    std::fprintf(out, "\t\tData Semantics:   %s\n", stability_name(attributes.data));
    std::fprintf(out, "\t\tDependency Class: %s\n", dependency_class_name(attributes.dependency));
}

// dtrace -lv's block under a probe. The source field or parameter of each
// argument follows its type in parentheses, where the provider knows it.
void print_probe_details(FILE *out, Provider &provider, const trace::Probe &probe) {
    ProviderAttributes declared = provider.attributes();
    print_attributes(out, "Probe Description Attributes",
                     description_attributes(declared, probe.name));
    print_attributes(out, "Argument Attributes", declared.arguments);
    std::fprintf(out, "\n\tArgument Types\n");
    std::vector<trace::ProbeArgument> arguments = provider.arguments(probe);
    for (size_t i = 0; i < arguments.size(); i++) {
        std::string type = argument_type_spelling(arguments[i]);
        if (arguments[i].name.empty())
            std::fprintf(out, "\t\targs[%zu]: %s\n", i, type.c_str());
        else
            std::fprintf(out, "\t\targs[%zu]: %s (%s)\n", i, type.c_str(),
                         arguments[i].name.c_str());
    }
    if (arguments.empty())
        std::fprintf(out, "\t\tNone\n");
    if (std::optional<std::string> why = provider.probe_unavailable(probe))
        std::fprintf(out, "\n\tUnavailable on this kernel: %s\n", why->c_str());
    std::fprintf(out, "\n");
}

const trace::Probe *find_by_id(const trace::ProbeTable &table, const std::string &digits) {
    uint32_t id = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), id);
    if (ec != std::errc() || end != digits.data() + digits.size())
        return nullptr;
    return table.find(id);
}

bool is_decimal_number(std::string_view text) {
    return !text.empty() &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

} // namespace

std::vector<ProbeFilter> probe_filters(const ast::Program &program,
                                       std::span<const LoadedSource> sources) {
    std::set<const SourceFile *> command_line;
    for (const LoadedSource &source : sources)
        if (source.from_command_line)
            command_line.insert(source.file.get());
    std::vector<ProbeFilter> filters;
    for (const auto &clause : program.clauses)
        for (const ast::ProbeDescription &description : clause->probes) {
            ProbeFilter filter;
            filter.pattern = {description.provider, description.module, description.function,
                              description.name};
            filter.by_id = command_line.contains(description.range.source) &&
                           is_decimal_number(description.text);
            filter.text = description.text;
            filters.push_back(std::move(filter));
        }
    return filters;
}

Status list_probes(std::span<const std::unique_ptr<Provider>> providers,
                   std::span<const ProbeFilter> filters, bool verbose, FILE *out) {
    // Providers after the last one a filter can match need not list their
    // probes (fbt alone has ~100,000); those before it must, so that every probe
    // keeps the ID the full listing gives it. Lookups by ID need the whole table.
    size_t wanted = 0;
    for (size_t i = 0; i < providers.size(); i++)
        for (const ProbeFilter &filter : filters) {
            const std::string &field = filter.pattern.provider;
            if (filter.by_id || field.empty() || trace::has_glob(field) ||
                providers[i]->owns(field))
                wanted = i + 1;
        }
    if (filters.empty())
        wanted = providers.size();
    trace::ProbeTable table;
    for (size_t i = 0; i < wanted; i++)
        providers[i]->list(table);

    std::set<uint32_t> selected;
    std::vector<std::string> problems;  // rejected before listing, as dtrace's compiler does
    std::vector<std::string> unmatched; // reported after it
    for (const ProbeFilter &filter : filters) {
        if (filter.by_id) {
            if (const trace::Probe *probe = find_by_id(table, filter.pattern.name))
                selected.insert(probe->id);
            else
                problems.push_back("invalid probe specifier " + filter.text +
                                   ": invalid probe identifier " + filter.pattern.name);
            continue;
        }
        std::vector<const trace::Probe *> found;
        for (const auto &provider : providers)
            if (Status matched = provider->match(filter.pattern, table, found); !matched)
                problems.push_back(matched.error().message);
        if (found.empty()) {
            const providers::ProbePattern &p = filter.pattern;
            unmatched.push_back("failed to match " + p.full() + ": No probe matches description");
        }
        for (const trace::Probe *probe : found)
            selected.insert(probe->id);
    }
    auto lines = [](const std::vector<std::string> &messages) {
        std::string text;
        for (const std::string &message : messages)
            text += (text.empty() ? "" : "\n") + message;
        return failure(text);
    };
    if (!problems.empty())
        return lines(problems);

    std::fprintf(out, "%5s %10s %17s %33s %s\n", "ID", "PROVIDER", "MODULE", "FUNCTION", "NAME");
    for (const trace::Probe &probe : table) {
        if (!filters.empty() && !selected.contains(probe.id))
            continue;
        const trace::ProbeName &name = probe.name;
        std::fprintf(out, "%5u %10s %17s %33s %s\n", probe.id, name.provider.c_str(),
                     name.module.c_str(), name.function.c_str(), name.name.c_str());
        if (!verbose)
            continue;
        for (const auto &provider : providers)
            if (provider->owns(name.provider))
                print_probe_details(out, *provider, probe);
    }
    std::fflush(out);
    if (!unmatched.empty())
        return lines(unmatched);
    return {};
}

} // namespace dtx::session
