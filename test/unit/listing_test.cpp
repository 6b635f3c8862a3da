// dtx -l against a provider of our own: the listing's format and order, its
// filters (union, IDs, unmatched descriptions), the -lv block with the
// attributes dtrace computes from the fields a probe name gives, and which
// descriptions of a program name probe IDs.
#include "session/listing.h"

#include "parser/parser.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

namespace dtx::session {
namespace {

using providers::Attributes;
using providers::DependencyClass;
using providers::ProbePattern;
using providers::Stability;

// Probes fake:mod:fn:a, fake:mod:fn:b and fake:::c (IDs 1, 2, 3).
class FakeProvider final : public providers::Provider {
public:
    std::string_view name() const override { return "fake"; }

    Status match(const ProbePattern &pattern, trace::ProbeTable &table,
                 std::vector<const trace::Probe *> &out) override {
        list(table);
        for (const trace::Probe &probe : table)
            if (trace::glob_match(pattern.provider, probe.name.provider) &&
                trace::glob_match(pattern.module, probe.name.module) &&
                trace::glob_match(pattern.function, probe.name.function) &&
                trace::glob_match(pattern.name, probe.name.name))
                out.push_back(&probe);
        if (pattern.name == "bad")
            return failure("probe 'fake:::bad': rejected");
        return {};
    }

    void list(trace::ProbeTable &table) override {
        table.add({"fake", "mod", "fn", "a"});
        table.add({"fake", "mod", "fn", "b"});
        table.add({"fake", "", "", "c"});
    }

    std::vector<trace::ProbeArgument> arguments(const trace::Probe &probe) override {
        if (probe.name.name != "a")
            return {};
        return {{"int", 0, "count"}, {"const char *", 0, ""}};
    }

    // Listing never traces.
    std::vector<providers::Trampoline> trampolines(std::span<const trace::Probe *const>) override {
        return {};
    }

    providers::ProviderAttributes attributes() const override {
        return {{Stability::Stable, Stability::Stable, DependencyClass::Common},
                {Stability::Private, Stability::Unstable, DependencyClass::Unknown},
                {Stability::Evolving, Stability::Private, DependencyClass::Isa},
                {Stability::Stable, Stability::Evolving, DependencyClass::Common},
                {Stability::Evolving, Stability::Evolving, DependencyClass::Isa}};
    }
};

struct Listing {
    int status = 0;
    std::string out, err;
};

std::string read_stream(FILE *stream, char *&buffer, size_t &size) {
    std::fclose(stream);
    std::string text(buffer, size);
    std::free(buffer);
    return text;
}

Listing list(std::vector<ProbeFilter> filters, bool verbose = false) {
    std::vector<std::unique_ptr<providers::Provider>> providers;
    providers.push_back(std::make_unique<FakeProvider>());
    char *out_buffer = nullptr, *err_buffer = nullptr;
    size_t out_size = 0, err_size = 0;
    FILE *out = open_memstream(&out_buffer, &out_size);
    FILE *err = open_memstream(&err_buffer, &err_size);
    Listing listing;
    dtx::Status listed = list_probes(providers, filters, verbose, out);
    listing.status = listed ? 0 : 1;
    if (!listed) {
        // As the command says each of the error's lines.
        std::string message = listed.error().message;
        for (size_t at = 0; at != std::string::npos;) {
            size_t end = message.find('\n', at);
            std::fprintf(err, "dtx: %s\n", message.substr(at, end - at).c_str());
            at = end == std::string::npos ? end : end + 1;
        }
    }
    listing.out = read_stream(out, out_buffer, out_size);
    listing.err = read_stream(err, err_buffer, err_size);
    return listing;
}

ProbeFilter description(std::string provider, std::string module, std::string function,
                        std::string name) {
    ProbeFilter filter;
    filter.pattern = {provider, module, function, name};
    filter.text = provider + ":" + module + ":" + function + ":" + name;
    return filter;
}

ProbeFilter probe_id(std::string digits) {
    ProbeFilter filter;
    filter.pattern.name = digits;
    filter.by_id = true;
    filter.text = digits;
    return filter;
}

constexpr const char *kHeader =
    "   ID   PROVIDER            MODULE                          FUNCTION NAME\n";
constexpr const char *kProbeA =
    "    1       fake               mod                                fn a\n";
constexpr const char *kProbeB =
    "    2       fake               mod                                fn b\n";
constexpr const char *kProbeC =
    "    3       fake                                                     c\n";

TEST(Listing, WithoutFiltersListsEveryProbe) {
    Listing listing = list({});
    EXPECT_EQ(listing.status, 0);
    EXPECT_EQ(listing.out, std::string(kHeader) + kProbeA + kProbeB + kProbeC);
    EXPECT_EQ(listing.err, "");
}

TEST(Listing, FiltersUniteSortedByIdEachProbeOnce) {
    Listing listing = list({description("", "", "", "c"), probe_id("1"),
                            description("fake", "", "", "*"), description("", "", "", "a")});
    EXPECT_EQ(listing.status, 0);
    EXPECT_EQ(listing.out, std::string(kHeader) + kProbeA + kProbeB + kProbeC);
}

TEST(Listing, UnmatchedDescriptionIsReportedAfterTheListing) {
    Listing listing = list({description("", "", "nosuch", ""), description("", "", "", "b")});
    EXPECT_EQ(listing.status, 1);
    EXPECT_EQ(listing.out, std::string(kHeader) + kProbeB);
    EXPECT_EQ(listing.err, "dtx: failed to match ::nosuch:: No probe matches description\n");
}

TEST(Listing, UnknownIdIsAnErrorBeforeTheListing) {
    for (const char *digits : {"0", "4", "99999999999"}) {
        Listing listing = list({description("", "", "", "a"), probe_id(digits)});
        EXPECT_EQ(listing.status, 1);
        EXPECT_EQ(listing.out, "");
        EXPECT_EQ(listing.err, std::string("dtx: invalid probe specifier ") + digits +
                                   ": invalid probe identifier " + digits + "\n");
    }
}

TEST(Listing, DescriptionTheProviderRejectsIsAnErrorBeforeTheListing) {
    Listing listing = list({description("", "", "", "bad")});
    EXPECT_EQ(listing.status, 1);
    EXPECT_EQ(listing.out, "");
    EXPECT_EQ(listing.err, "dtx: probe 'fake:::bad': rejected\n");
}

TEST(Listing, VerboseShowsAttributesAndArgumentTypes) {
    // fake:mod:fn:a gives every field: the weakest of all four, field by field.
    // fake:::c gives no module or function: those promise nothing either way.
    Listing listing =
        list({description("", "", "", "a"), description("", "", "", "c")}, /*verbose=*/true);
    EXPECT_EQ(listing.status, 0);
    EXPECT_EQ(listing.out, std::string(kHeader) + kProbeA +
                               "\n\tProbe Description Attributes\n"
                               "\t\tIdentifier Names: Private\n"
                               "\t\tData Semantics:   Private\n"
                               "\t\tDependency Class: Unknown\n"
                               "\n\tArgument Attributes\n"
                               "\t\tIdentifier Names: Evolving\n"
                               "\t\tData Semantics:   Evolving\n"
                               "\t\tDependency Class: ISA\n"
                               "\n\tArgument Types\n"
                               "\t\targs[0]: int (count)\n"
                               "\t\targs[1]: const char *\n"
                               "\n" +
                               kProbeC +
                               "\n\tProbe Description Attributes\n"
                               "\t\tIdentifier Names: Stable\n"
                               "\t\tData Semantics:   Evolving\n"
                               "\t\tDependency Class: Common\n"
                               "\n\tArgument Attributes\n"
                               "\t\tIdentifier Names: Evolving\n"
                               "\t\tData Semantics:   Evolving\n"
                               "\t\tDependency Class: ISA\n"
                               "\n\tArgument Types\n"
                               "\t\tNone\n"
                               "\n");
}

TEST(ProbeFilters, BareNumbersFromTheCommandLineAreProbeIds) {
    std::vector<LoadedSource> sources;
    sources.push_back({std::make_unique<SourceFile>("<command line 1>", "42"), true});
    sources.push_back({std::make_unique<SourceFile>("<command line 2>", "syscall::read*:"), true});
    sources.push_back(
        {std::make_unique<SourceFile>("x.d", "7 {}\ndtrace:::BEGIN, END {}\n"), false});
    ast::Program program;
    parser::TypeNames types;
    DiagnosticEngine diagnostics;
    for (const LoadedSource &source : sources)
        ASSERT_TRUE(parser::parse_program(*source.file, types, program, diagnostics,
                                          {.allow_bare_descriptions = source.from_command_line}));
    std::vector<ProbeFilter> filters = probe_filters(program, sources);
    ASSERT_EQ(filters.size(), 5u);
    EXPECT_TRUE(filters[0].by_id);
    EXPECT_EQ(filters[0].pattern.name, "42");
    EXPECT_FALSE(filters[1].by_id);
    EXPECT_EQ(filters[1].pattern.provider, "syscall");
    EXPECT_EQ(filters[1].pattern.function, "read*");
    EXPECT_EQ(filters[1].text, "syscall::read*:");
    EXPECT_FALSE(filters[2].by_id); // a script's "7" is a probe name
    EXPECT_EQ(filters[3].pattern.name, "BEGIN");
    EXPECT_EQ(filters[4].pattern.name, "END");
}

} // namespace
} // namespace dtx::session
