// Session::trace(): the steps of a run (load, attach, begin, consume, end,
// detach), each returning its error.
#include "libtrace/attach.h"
#include "libtrace/bpf_object.h"
#include "libtrace/command_runner.h"
#include "libtrace/consumer.h"
#include "libtrace/interruptible_output.h"
#include "libtrace/kernel_symbols.h"
#include "libtrace/perf_event.h"
#include "libtrace/process_modules.h"
#include "libtrace/unwind_maps.h"
#include "libtrace/unwind_table.h"
#include "libtrace/user_symbols.h"
#include "libtrace/whole_file.h"
#include "providers/provider.h"
#include "session/session_impl.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <dlfcn.h>
#include <sched.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <optional>
#include <set>
#include <utility>

namespace dtx::session {

namespace {

using trace::Activity;
using trace::ProgramDescription;

// The last frame of a user stack that went on but could not be followed.
constexpr std::string_view kTruncatedFrame = "[truncated]";

uint64_t clock_ns(clockid_t clock) {
    timespec ts{};
    clock_gettime(clock, &ts);
    return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}

// BEGIN's or END's program, on CPU `cpu` when given (-x cpu).
int run_program(int fd, std::optional<uint32_t> cpu) {
    LIBBPF_OPTS(bpf_test_run_opts, options);
    if (cpu) {
        options.flags = BPF_F_TEST_RUN_ON_CPU;
        options.cpu = *cpu;
    }
    return bpf_prog_test_run_opts(fd, &options) == 0 ? 0 : -errno;
}

// A shared mapping of a map's memory (the object's .data).
class MapMapping {
public:
    MapMapping() = default;
    MapMapping(const MapMapping &) = delete;
    MapMapping &operator=(const MapMapping &) = delete;
    ~MapMapping() {
        if (address_)
            munmap(address_, size_);
    }
    // False if the map cannot be mapped (it is not mmapable).
    bool map(int map_fd, size_t size) {
        void *mapped = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, map_fd, 0);
        if (mapped == MAP_FAILED)
            return false;
        address_ = mapped;
        size_ = size;
        return true;
    }
    char *data() const { return static_cast<char *>(address_); }

private:
    void *address_ = nullptr;
    size_t size_ = 0;
};

struct RingBufferFree {
    void operator()(ring_buffer *ring) const { ring_buffer__free(ring); }
};

// Why the kernel refused the program, with the clauses it runs: a kernel
// limit in the program's terms, else what the verifier said.
Error load_failure(const Error &error, std::span<const providers::Trampoline> trampolines,
                   const ProgramDescription &description, bool verbose) {
    const providers::Trampoline *rejected = nullptr;
    for (const providers::Trampoline &t : trampolines)
        if (t.spec.program_name == error.subject)
            rejected = &t;
    // The clauses the rejected program runs, and its probes.
    std::vector<std::string> clauses;
    std::set<uint32_t> seen, probes;
    if (rejected)
        for (const trace::Probe *probe : rejected->spec.probes)
            probes.insert(probe->id);
    if (rejected)
        for (const trace::EnabledProbe &enabled : description.enabled_probes) {
            if (!probes.contains(enabled.probe_id) || !seen.insert(enabled.clause).second)
                continue;
            const SourceRange &at = description.clauses.at(enabled.clause).location;
            clauses.push_back(at.file_name() + ":" + std::to_string(at.begin.line) + ":" +
                              std::to_string(at.begin.column));
        }
    auto listed = [](const std::vector<std::string> &items, size_t most) {
        std::string text;
        for (size_t i = 0; i < items.size() && i < most; i++)
            text += (i ? ", " : "") + items[i];
        if (items.size() > most)
            text += " and " + std::to_string(items.size() - most) + " more";
        return text;
    };

    const char *limit = nullptr;
    switch (trace::kernel_limit(error)) {
    case trace::KernelLimit::Instructions:
        limit = "the kernel verifies at most 1,000,000 instructions of one BPF program, "
                "following every path through its clauses";
        break;
    case trace::KernelLimit::Branches:
        limit = "the kernel's verifier follows at most 8,192 branches at once";
        break;
    case trace::KernelLimit::Functions:
        limit = "the kernel verifies at most 256 functions in one BPF program";
        break;
    case trace::KernelLimit::Maps:
        limit = "a BPF program may use at most 64 maps";
        break;
    case trace::KernelLimit::Stack:
        limit = "the calls of a BPF program may use at most 512 bytes of stack";
        break;
    case trace::KernelLimit::None:
        break;
    }
    Error failed("", ErrorKind::Failed, error.errnum);
    failed.subject = error.subject;
    if (limit && rejected) {
        std::vector<std::string> probes;
        for (const trace::Probe *probe : rejected->spec.probes)
            probes.push_back("'" + probe->name.full() + "'");
        failed.message = "could not load the program: the " + std::to_string(clauses.size()) +
                         " clause" + (clauses.size() == 1 ? "" : "s") + " enabled on probe" +
                         (probes.size() == 1 ? "" : "s") + " " + listed(probes, 3) +
                         " are too many or too large for one BPF program: " + limit +
                         "; make them fewer or smaller";
        if (verbose) {
            failed.details.push_back(error.message);
            failed.details.insert(failed.details.end(), error.details.begin(), error.details.end());
        }
    } else {
        failed.message = "could not load the program: " + error.message;
        failed.details = error.details;
    }
    if (rejected)
        failed.message += "\nprogram '" + error.subject + "' runs the clause" +
                          (clauses.size() == 1 ? "" : "s") + " at " + listed(clauses, 10);
    return failed;
}

// Whether process `pid` is stopped and stays so once dtx has exited: in
// group stop ('T' in /proc/PID/stat), in a ptrace stop of dtx's (`traced`:
// dtx's exit lets it go into the group stop), or with a SIGSTOP on its way
// (the firing's record can be here before the signal is taken). A process
// that has gone is not.
bool stays_stopped(pid_t pid, bool traced) {
    const std::string proc = "/proc/" + std::to_string(pid);
    int errnum = 0;
    const std::string stat = trace::read_whole_file(proc + "/stat", errnum, 1024);
    // "PID (COMM) STATE ...": COMM may hold any character, ')' too.
    const size_t name_end = stat.rfind(')');
    if (errnum || name_end == std::string::npos || name_end + 2 >= stat.size())
        return false;
    const char state = stat[name_end + 2];
    if (state == 'T' || (state == 't' && traced))
        return true;
    if (state == 'Z' || state == 'X')
        return false;
    const std::string status = trace::read_whole_file(proc + "/status", errnum, 4096);
    for (std::string_view field : {"\nShdPnd:\t", "\nSigPnd:\t"}) {
        const size_t at = status.find(field);
        if (errnum || at == std::string::npos)
            continue;
        const uint64_t pending = std::strtoull(status.c_str() + at + field.size(), nullptr, 16);
        if (pending & (uint64_t{1} << (SIGSTOP - 1)))
            return true;
    }
    return false;
}

// Exited processes' modules are swept this often (in status ticks, seconds).
constexpr unsigned kSweepTicks = 10;

} // namespace

// What a run holds, released in reverse order when it ends however it ends:
// the ring buffer, the output, every attachment (detached), the .data mapping
// and the object's programs and maps.
struct Session::Impl::Tracing {
    trace::BpfObject object;
    MapMapping data;
    uint32_t *activity = nullptr; // the activity word in the object's .data
    // On a terminal, a detach that waits for grace periods says how it goes.
    trace::AttachmentSet attachments;
    int begin_fd = -1, end_fd = -1;
    std::shared_ptr<trace::UserSymbols> user_symbols;
    std::optional<trace::UnwindMaps> unwind; // when the program takes user stacks
    std::unique_ptr<trace::InterruptibleOutput> output;
    // system()'s commands, whose output the output holds for: it goes first.
    std::unique_ptr<trace::CommandRunner> commands;
    std::unique_ptr<trace::Consumer> consumer;
    std::unique_ptr<ring_buffer, RingBufferFree> ring;
    // Set by the interrupts' reads, in the loop and while output waits.
    bool stop_signalled = false, children_stopped = false;
    int status_without_exit = 0;

    Tracing(trace::BpfObjectOptions options, FILE *err, const Interrupts &interrupts)
        : object(std::move(options)), attachments(detach_progress(err, interrupts)) {}

    // Reads what arrived on `interrupts`; true once tracing is to stop.
    bool read_interrupts(const Interrupts &interrupts) {
        if (interrupts.read) {
            Interrupts::Arrived arrived = interrupts.read();
            stop_signalled |= arrived.stop;
            children_stopped |= arrived.children_stopped;
        }
        return stop_signalled;
    }

    // On a terminal, the detach line; and a Ctrl-C (or SIGTERM) while it
    // shows, which dtx reads and does not obey, is answered with why.
    static trace::DetachProgress detach_progress(FILE *err, const Interrupts &interrupts) {
        trace::DetachProgress line = trace::terminal_detach_progress(err);
        if (!line || !interrupts.read)
            return line;
        return
            [line, err, read = interrupts.read, told = false](size_t left, size_t total) mutable {
                if (left > 0 && !told && read().stop) {
                    told = true;
                    std::fprintf(err, "\rdtx: still detaching: the kernel takes a grace period to "
                                      "remove each of these probes, and dtx exits only when none "
                                      "is left in the kernel\033[K\n");
                }
                line(left, total);
            };
    }
};

Status Session::Impl::load(Tracing &tracing) {
    const ProgramDescription &description = compiled->description;
    // As dtrace refuses an enabling whose buffers cannot hold one record.
    for (const trace::AggregationDescription &aggregation : description.aggregations) {
        uint64_t entry = aggregation.key_size + aggregation.value_word_count() * 8;
        if (compile_options.aggsize < entry)
            return failure("could not enable tracing: aggsize (" +
                           std::to_string(compile_options.aggsize) +
                           " bytes) cannot hold one entry of @" + aggregation.name + " (" +
                           std::to_string(entry) + " bytes)");
    }
    if (!consumer_options.quiet)
        for (const std::string &notice : match_notices)
            std::fprintf(err, "%s\n", notice.c_str());
    // An empty program (-n '', -s /dev/null) would wait for nothing forever.
    if (matched_probes == 0 && !flags.zero_matches_allowed)
        return failure("no probes matched");

    trace::BpfObject &object = tracing.object;
    if (Status opened = object.open(compiled->object); !opened)
        return opened;
    for (const providers::Trampoline &t : trampolines) {
        bpf_program *program = object.program(t.spec.program_name);
        if (!program)
            continue;
        if (t.expected_attach_type)
            bpf_program__set_expected_attach_type(program,
                                                  bpf_attach_type(*t.expected_attach_type));
        if (!t.attach_function.empty())
            bpf_program__set_attach_target(program, 0, t.attach_function.c_str());
    }
    if (!description.loader_watch_program.empty() && trace::kernel_supports_uprobe_multi())
        if (bpf_program *watch = object.program(description.loader_watch_program))
            bpf_program__set_expected_attach_type(watch,
                                                  bpf_attach_type(trace::kBpfTraceUprobeMulti));
    if (bpf_map *dctx = object.map(description.clause_context_map))
        bpf_map__set_max_entries(dctx, uint32_t(std::max(libbpf_num_possible_cpus(), 1)) *
                                           trace::kNestingLevels);
    const auto unwind_rows = uint32_t(flags.unwindsize / sizeof(trace::UnwindRow));
    if (bpf_map *rows = object.map(description.unwind_rows_map))
        bpf_map__set_max_entries(rows, unwind_rows);
    uint64_t walltime_offset = clock_ns(CLOCK_REALTIME) - clock_ns(CLOCK_MONOTONIC);
    object.set_global_variable("dtx_walltime_offset",
                               std::as_bytes(std::span(&walltime_offset, 1)));
    if (!description.dtx_pid_variable.empty()) {
        const auto pid = uint32_t(getpid());
        object.set_global_variable(description.dtx_pid_variable, std::as_bytes(std::span(&pid, 1)));
    }
    if (!description.cpu_info_variable.empty()) {
        const std::vector<trace::CpuInfo> cpus = trace::cpu_info_table();
        object.set_global_variable(description.cpu_info_variable, std::as_bytes(std::span(cpus)));
    }
    if (Status loaded = object.load(); !loaded)
        return load_failure(loaded.error(), trampolines, description, options.verbose);

    // The activity word lives in the object's .data, mapped into our memory:
    // libbpf's own copy of .data is not the kernel's map.
    for (bpf_map *map = bpf_object__next_map(object.get(), nullptr); map;
         map = bpf_object__next_map(object.get(), map)) {
        if (!std::string_view(bpf_map__name(map)).ends_with(".data") ||
            !tracing.data.map(bpf_map__fd(map), bpf_map__value_size(map)))
            continue;
        // The variable's place in the section, from the section's BTF.
        btf *object_btf = bpf_object__btf(object.get());
        const btf_type *section = btf__type_by_id(object_btf, bpf_map__btf_value_type_id(map));
        if (!section || !btf_is_datasec(section))
            continue;
        const btf_var_secinfo *variable = btf_var_secinfos(section);
        for (int i = 0; i < btf_vlen(section); i++, variable++) {
            const btf_type *var = btf__type_by_id(object_btf, variable->type);
            if (description.activity_variable == btf__name_by_offset(object_btf, var->name_off))
                tracing.activity =
                    reinterpret_cast<uint32_t *>(tracing.data.data() + variable->offset);
        }
    }
    if (description.unwinds_user_stacks)
        load_unwind_tables(tracing, unwind_rows);
    return {};
}

// The unwind tables of the -c and -p processes' modules, before they run
// (a -c command's as its dynamic linker will load them): their stacks are
// whole from the first event. Other processes' files are loaded when the
// program asks (Consumer: UnwindRequest).
void Session::Impl::load_unwind_tables(Tracing &tracing, uint32_t rows) {
    const ProgramDescription &description = compiled->description;
    tracing.unwind.emplace(tracing.object.map_fd(description.unwind_rows_map), rows,
                           tracing.object.map_fd(description.unwind_files_map),
                           [this](const std::string &warning) {
                               std::fprintf(err, "dtx: warning: %s\n", warning.c_str());
                           });
    for (pid_t pid : targets.pids()) {
        std::optional<std::string> held = targets.held_executable(pid);
        Result<std::vector<trace::ProcessModule>> modules =
            held ? trace::predict_executable_modules(*held) : trace::read_process_modules(pid);
        if (modules)
            for (const trace::ProcessModule &module : *modules)
                tracing.unwind->load(module.open_path);
    }
    // The dynamic loader and the C library that nearly every process maps
    // (dtx's own): built while tracing starts, so that the first stacks of
    // a system-wide profile go through them.
    if (std::optional<std::string> loader = trace::executable_interpreter("/proc/self/exe"))
        tracing.unwind->load_later(*loader);
    if (Dl_info libc{}; dladdr(reinterpret_cast<void *>(&::getpid), &libc) && libc.dli_fname)
        tracing.unwind->load_later(libc.dli_fname);
    if (options.verbose) {
        const trace::UnwindMaps::Statistics &loaded = tracing.unwind->statistics();
        std::fprintf(err,
                     "dtx: unwind tables of %zu file%s (%zu without) before tracing: %llu of "
                     "%llu rows, built in %.3f s\n",
                     loaded.files, loaded.files == 1 ? "" : "s", loaded.files_without,
                     static_cast<unsigned long long>(loaded.rows),
                     static_cast<unsigned long long>(loaded.capacity), loaded.build_seconds);
    }
}

// The dynamic loader calls _dl_debug_state once it has mapped or unmapped a
// library: there, the program tells which traced processes did (see
// kLoaderRecordEpid). The loader is the one the system's programs name
// (dtx's own PT_INTERP); without it, tables are built when stacks first meet
// the library, as for the others.
void Session::Impl::attach_loader_watch(Tracing &tracing) {
    const std::string &program = compiled->description.loader_watch_program;
    if (program.empty())
        return;
    auto note = [this](const std::string &why) {
        if (options.verbose)
            std::fprintf(err,
                         "dtx: libraries loaded while tracing are unwound from the second "
                         "stack through them: %s\n",
                         why.c_str());
    };
    const std::string loader = trace::executable_interpreter("/proc/self/exe").value_or("");
    if (loader.empty())
        return note("dtx has no dynamic loader");
    Result<std::shared_ptr<const trace::ElfFile>> file = elf_files->get(loader);
    if (!file)
        return note(file.error().message);
    std::vector<const trace::ElfFunction *> found = (*file)->find("_dl_debug_state");
    std::optional<uint64_t> offset =
        found.empty() ? std::nullopt : (*file)->file_offset(found.front()->address);
    if (!offset)
        return note(loader + " has no _dl_debug_state");
    const int fd = tracing.object.program_fd(program);
    const uint64_t offsets[] = {*offset};
    Result<const trace::Attachment *> attached =
        trace::kernel_supports_uprobe_multi()
            ? tracing.attachments.attach_uprobe_multi(fd, loader, offsets, {}, {}, -1, false)
            : tracing.attachments.attach_uprobe(fd, loader, *offset, false);
    if (!attached)
        note(attached.error().message);
}

// The -c command stops where its dynamic loader has mapped a library (see
// kLoaderHoldSignal) until the library's table is built: its stacks unwind
// from the library's first instruction.
void Session::Impl::hold_loader_stops(Tracing &tracing) {
    const int hold_map = tracing.object.map_fd(compiled->description.loader_hold_map);
    if (hold_map < 0 || !tracing.unwind)
        return;
    std::optional<pid_t> held =
        targets.hold_loader_stops(trace::kLoaderHoldSignal, [&tracing](pid_t pid) {
            tracing.user_symbols->reread(pid);
            tracing.unwind->load_process_now(pid);
        });
    const uint8_t yes = 1;
    if (held)
        bpf_map_update_elem(hold_map, &*held, &yes, BPF_ANY);
}

Status Session::Impl::attach(Tracing &tracing) {
    size_t total = 0, done = 0;
    for (const providers::Trampoline &t : trampolines)
        if (t.activation != providers::Activation::Begin &&
            t.activation != providers::Activation::End)
            total += t.spec.probes.size();
    trace::AttachProgressLine progress(err, total);
    // With -x cpu, attached from that CPU: tick-N's timers fire where they
    // were armed.
    std::optional<cpu_set_t> affinity;
    if (compile_options.cpu) {
        cpu_set_t only;
        CPU_ZERO(&only);
        CPU_SET(*compile_options.cpu, &only);
        affinity.emplace();
        if (sched_getaffinity(0, sizeof(*affinity), &*affinity) != 0 ||
            sched_setaffinity(0, sizeof(only), &only) != 0)
            affinity.reset();
    }
    struct RestoreAffinity {
        std::optional<cpu_set_t> &saved;
        ~RestoreAffinity() {
            if (saved)
                sched_setaffinity(0, sizeof(*saved), &*saved);
        }
    } restore{affinity};
    for (providers::Trampoline &t : trampolines) {
        int fd = tracing.object.program_fd(t.spec.program_name);
        if (t.activation == providers::Activation::Begin) {
            tracing.begin_fd = fd;
            continue;
        }
        if (t.activation == providers::Activation::End) {
            tracing.end_fd = fd;
            continue;
        }
        providers::AttachContext context{fd, tracing.object, tracing.attachments};
        // A probe an attachment each, as far as the line can tell (a
        // multi-link holds many, but is one syscall).
        const size_t before = tracing.attachments.size(), probes = t.spec.probes.size();
        tracing.attachments.on_attach([&](size_t attachments) {
            progress.update(done + std::min(attachments - before, probes));
        });
        Status attached = t.attach(context);
        tracing.attachments.on_attach(nullptr);
        done += probes;
        progress.update(done);
        if (!context.warnings.empty() || (options.verbose && !context.notes.empty()))
            progress.finish();
        for (const std::string &warning : context.warnings)
            std::fprintf(err, "dtx: %s\n", warning.c_str());
        if (options.verbose)
            for (const std::string &note : context.notes)
                std::fprintf(err, "dtx: %s\n", note.c_str());
        if (!attached)
            return attached;
    }
    return {};
}

Status Session::Impl::begin(Tracing &tracing, const Interrupts &interrupts) {
    const ProgramDescription &description = compiled->description;
    trace::ConsumerOptions consumer_setup = consumer_options;
    consumer_setup.output_fd = fileno(out);
    auto symbols = std::make_shared<std::optional<trace::KernelSymbolTable>>();
    auto kernel_table = [symbols]() -> const trace::KernelSymbolTable * {
        if (!symbols->has_value()) {
            Result<trace::KernelSymbolTable> loaded = trace::KernelSymbolTable::load();
            if (loaded)
                symbols->emplace(std::move(*loaded));
        }
        return symbols->has_value() ? &**symbols : nullptr;
    };
    auto hex_address = [](uint64_t address) -> std::string {
        char text[32];
        std::snprintf(text, sizeof(text), "0x%llx", static_cast<unsigned long long>(address));
        return text;
    };
    auto kernel_name = [kernel_table, hex_address](uint64_t address) -> std::string {
        if (const trace::KernelSymbolTable *table = kernel_table())
            return table->format(address);
        return hex_address(address);
    };
    // -x noresolve: user addresses print as numbers, as dtrace prints them
    // without the process's symbols.
    const bool noresolve = flags.noresolve;
    // A process's modules are read when it is announced (ProcessRecord), so
    // that its addresses are named after it exits.
    auto user_symbols = std::make_shared<trace::UserSymbols>(elf_files);
    tracing.user_symbols = user_symbols;
    consumer_setup.remember_process = [user_symbols](uint32_t pid) {
        user_symbols->remember(pid_t(pid));
    };
    consumer_setup.loader_changed = [user_symbols, &tracing](uint32_t pid) {
        user_symbols->reread(pid_t(pid));
        if (tracing.unwind)
            tracing.unwind->load_process(pid_t(pid));
    };
    consumer_setup.learn_mapping = [user_symbols](const trace::MappingRecord &mapping) {
        user_symbols->learn(pid_t(mapping.pid), mapping.start, mapping.end, mapping.file_offset,
                            {mapping.inode, mapping.device});
    };
    if (tracing.unwind)
        consumer_setup.unwind_request = [&unwind = *tracing.unwind,
                                         user_symbols](const trace::UnwindRequest &request) {
            unwind.answer(request, [&user_symbols](const trace::FileIdentity &file) {
                return user_symbols->known_path(file);
            });
        };
    consumer_setup.print.name_address = [kernel_table, kernel_name, user_symbols, noresolve,
                                         hex_address](const trace::KeyField &field,
                                                      uint64_t address) -> std::string {
        trace::SymbolForm form =
            field.kind == trace::KeyFieldKind::Symbol ? field.form : trace::SymbolForm::Address;
        if (field.user) {
            if (address == trace::kUserStackTruncated)
                return std::string(kTruncatedFrame);
            if (noresolve)
                return hex_address(address);
            auto pid = pid_t(field.pid);
            return form == trace::SymbolForm::Function ? user_symbols->function(pid, address)
                   : form == trace::SymbolForm::Module ? user_symbols->module(pid, address)
                                                       : user_symbols->format(pid, address);
        }
        const trace::KernelSymbolTable *table = kernel_table();
        std::optional<trace::KernelSymbol> symbol;
        if (table && form != trace::SymbolForm::Address)
            symbol = table->resolve(address);
        if (!symbol)
            return kernel_name(address);
        std::string module(symbol->module);
        return form == trace::SymbolForm::Module ? module
                                                 : module + "`" + std::string(symbol->name);
    };
    consumer_setup.format.symbols.kernel = kernel_name;
    consumer_setup.format.symbols.user = [user_symbols, noresolve, hex_address](uint32_t pid,
                                                                                uint64_t address) {
        if (address == trace::kUserStackTruncated)
            return std::string(kTruncatedFrame);
        return noresolve ? hex_address(address) : user_symbols->format(pid_t(pid), address);
    };
    if (target_pid)
        consumer_setup.format.target_pid = uint32_t(*target_pid);
    // Given up at a signal while its reader does not read: what is left of
    // the records is not read either.
    tracing.output = std::make_unique<trace::InterruptibleOutput>(
        out, interrupts.fd, [&] { return tracing.read_interrupts(interrupts); });
    tracing.commands = std::make_unique<trace::CommandRunner>(
        [&output = *tracing.output] { output.release_one(); },
        [this](const std::string &warning) { std::fprintf(err, "dtx: %s\n", warning.c_str()); });
    consumer_setup.run_command = [&tracing](const std::string &command, int stdout_fd) {
        tracing.output->hold();
        tracing.commands->run(command, stdout_fd);
    };
    consumer_setup.settle_commands = [&tracing, &interrupts] {
        tracing.commands->settle(interrupts.fd,
                                 [&] { return tracing.read_interrupts(interrupts); });
    };
    tracing.consumer = std::make_unique<trace::Consumer>(
        description, tracing.object, probes, consumer_setup, tracing.output->stream(), err);
    tracing.ring.reset(ring_buffer__new(
        tracing.object.map_fd(description.ring_buffer_map),
        [](void *context, void *data, size_t size) {
            auto *run = static_cast<Tracing *>(context);
            if (run->output->abandoned())
                return -EINTR; // stops ring_buffer__consume()
            run->consumer->consume(std::span(static_cast<const std::byte *>(data), size));
            return 0;
        },
        &tracing, nullptr));
    if (!tracing.ring)
        return errno_error("could not open the ring buffer", "ring_buffer__new", errno);

    if (tracing.begin_fd >= 0) {
        if (int e = run_program(tracing.begin_fd, compile_options.cpu); e < 0)
            std::fprintf(err, "dtx: could not fire BEGIN: %s\n", std::strerror(-e));
    } else if (tracing.activity) {
        __atomic_store_n(tracing.activity, uint32_t(Activity::Active), __ATOMIC_SEQ_CST);
    }
    ring_buffer__consume(tracing.ring.get());
    tracing.consumer->flush();
    return {};
}

// Long runs see processes come and go by the thousand: of each that exited
// (seconds ago, so its last records are consumed), keep only the modules
// that aggregation keys still name, and let the program announce its pid
// again, as a new process with that pid is. Records a speculation holds
// may name any of them, so a program with speculations keeps them all.
void Session::Impl::sweep_exited_processes(Tracing &tracing) {
    if (!tracing.user_symbols || compiled->description.speculation_count > 0)
        return;
    std::vector<pid_t> exited = tracing.user_symbols->exited_processes();
    if (exited.empty())
        return;
    const std::set<uint32_t> pids(exited.begin(), exited.end());
    std::map<uint32_t, std::set<uint64_t>> in_use = tracing.consumer->user_addresses_in_keys(pids);
    const int announced = tracing.object.map_fd(compiled->description.processes_map);
    for (pid_t pid : exited) {
        tracing.user_symbols->keep_only(pid, in_use[uint32_t(pid)]);
        if (announced >= 0) {
            const auto key = uint32_t(pid);
            bpf_map_delete_elem(announced, &key);
        }
    }
}

Status Session::Impl::consume(Tracing &tracing, const Interrupts &interrupts) {
    trace::Consumer &consumer = *tracing.consumer;
    ring_buffer *ring = tracing.ring.get();
    // The -c command runs only now: every probe is attached and BEGIN's
    // output is out. Not at all when BEGIN called exit(), or a signal read
    // while BEGIN's output waited for its reader ended tracing.
    if (consumer.exit_status() || tracing.stop_signalled)
        return {};
    // A target that exits before its user addresses are named (aggregations
    // print at the end) is held at its exit until its modules are read.
    if (tracing.object.map(compiled->description.processes_map))
        targets.hold_exits([symbols = tracing.user_symbols](pid_t pid) { symbols->reread(pid); });
    hold_loader_stops(tracing);
    if (Status released = targets.release_command(); !released) {
        tracing.status_without_exit = 1;
        std::fprintf(err, "dtx: %s\n", released.error().message.c_str());
        return {};
    }

    trace::UniqueFd epoll(epoll_create1(EPOLL_CLOEXEC));
    if (!epoll)
        return errno_error("could not wait for records", "epoll_create1", errno);
    // Drops are said while tracing, at most once a second (dtrace's status rate).
    trace::UniqueFd status_timer(timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK));
    itimerspec every_second{{1, 0}, {1, 0}};
    if (!status_timer || timerfd_settime(status_timer.get(), 0, &every_second, nullptr) != 0)
        return errno_error("could not start the status timer", "timerfd", errno);
    std::vector<int> watched = {ring_buffer__epoll_fd(ring), interrupts.fd, status_timer.get(),
                                tracing.commands->fd()};
    for (int fd : targets.exit_fds())
        watched.push_back(fd);
    for (int fd : watched) {
        epoll_event event{};
        event.events = EPOLLIN;
        event.data.fd = fd;
        epoll_ctl(epoll.get(), EPOLL_CTL_ADD, fd, &event);
    }
    bool report_drops = false;
    unsigned ticks = 0;
    while (!consumer.exit_status()) {
        epoll_event ready[8];
        int n = epoll_wait(epoll.get(), ready, 8, -1);
        if (n < 0 && errno == EINTR)
            continue;
        for (int i = 0; i < n; i++) {
            int fd = ready[i].data.fd;
            if (fd == interrupts.fd) {
                tracing.read_interrupts(interrupts);
            } else if (fd == tracing.commands->fd()) {
                tracing.commands->update();
            } else if (fd == status_timer.get()) {
                uint64_t expirations = 0;
                if (read(fd, &expirations, sizeof expirations) > 0) {
                    report_drops = true;
                    if (tracing.unwind)
                        tracing.unwind->retry_due();
                    if (++ticks % kSweepTicks == 0)
                        sweep_exited_processes(tracing);
                }
            } else if (fd != ring_buffer__epoll_fd(ring)) {
                std::string notice = targets.note_exit(fd);
                epoll_ctl(epoll.get(), EPOLL_CTL_DEL, fd, nullptr);
                if (!consumer.options().quiet)
                    std::fprintf(err, "dtx: %s\n", notice.c_str());
            }
        }
        // Records of a target's last moments are in the buffer before its exit shows.
        ring_buffer__consume(ring);
        consumer.flush();
        if (std::exchange(report_drops, false))
            consumer.report_drops();
        if (std::exchange(tracing.children_stopped, false))
            targets.handle_stops();
        // The last target's exit, or a full buffer (bufpolicy=fill), ends
        // tracing as exit(0) would.
        if (tracing.stop_signalled || targets.all_exited() || consumer.buffer_filled())
            break;
    }
    return {};
}

int Session::Impl::end(Tracing &tracing, const Interrupts &interrupts) {
    // Stop every probe but END, fire END, and drain what is left.
    if (tracing.activity)
        __atomic_store_n(tracing.activity, uint32_t(Activity::Draining), __ATOMIC_SEQ_CST);
    if (tracing.end_fd >= 0)
        run_program(tracing.end_fd, compile_options.cpu);
    ring_buffer__consume(tracing.ring.get());
    // system()'s commands end before the aggregations print, as dtrace's
    // (which it waits for); at once after a Ctrl-C.
    if (tracing.stop_signalled)
        tracing.commands->kill_all();
    else
        tracing.commands->finish(interrupts.fd,
                                 [&] { return tracing.read_interrupts(interrupts); });
    tracing.consumer->finish();
    return tracing.consumer->exit_status().value_or(tracing.status_without_exit);
}

void Session::Impl::detach(Tracing &tracing) {
    tracing.ring.reset();
    tracing.attachments.detach_all();
}

void Session::Impl::report_stopped(const Tracing &tracing) {
    std::string pids;
    size_t count = 0;
    for (uint32_t pid : tracing.consumer->stopped_processes())
        if (!targets.killed_at_exit(pid_t(pid)) &&
            stays_stopped(pid_t(pid), targets.traced(pid_t(pid))))
            pids += (count++ ? " " : "") + std::to_string(pid);
    if (count == 1)
        std::fprintf(err, "dtx: pid %s is still stopped by stop(); resume it with: kill -CONT %s\n",
                     pids.c_str(), pids.c_str());
    else if (count > 1)
        std::fprintf(err,
                     "dtx: %zu processes are still stopped by stop() (pids %s); resume them "
                     "with: kill -CONT %s\n",
                     count, pids.c_str(), pids.c_str());
}

Result<int> Session::trace(const Interrupts &interrupts) {
    Impl &session = *impl_;
    trace::BpfObjectOptions object_options;
    object_options.echo_libbpf_up_to =
        session.options.verbose ? std::optional(LIBBPF_INFO) : std::nullopt;
    Impl::Tracing tracing(object_options, session.err, interrupts);
    for (auto step : {&Impl::load, &Impl::attach})
        if (Status done = (session.*step)(tracing); !done)
            return std::move(done).error();
    session.attach_loader_watch(tracing);
    for (auto step : {&Impl::begin, &Impl::consume})
        if (Status done = (session.*step)(tracing, interrupts); !done)
            return std::move(done).error();
    // After an error, `tracing` detaches what was attached as it goes.
    int status = session.end(tracing, interrupts);
    session.detach(tracing);
    session.report_stopped(tracing);
    return status;
}

} // namespace dtx::session
