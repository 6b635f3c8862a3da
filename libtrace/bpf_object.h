// Loading a compiled BPF object (the ELF image from codegen::BpfEmitter) with
// libbpf: maps, BTF, relocations, programs. Attaching is the link layer's job;
// this class hands it the loaded programs.
//
// libbpf talks through one process-wide print callback. dtx routes it to the
// innermost LibbpfMessageCapture of the calling thread, so that "libbpf: ..."
// lines reach the user's stderr only when asked for (verbose), and a failure
// can quote what libbpf and the verifier said instead of "Permission denied".
#pragma once

#include "libtrace/error.h"

#include <bpf/libbpf.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dtx::trace {

struct LibbpfMessage {
    libbpf_print_level level;
    std::string line; // one line, without its newline
};

// Collects libbpf's messages printed on this thread while it is alive.
// Captures nest: the innermost one receives the messages. With no capture
// active, messages are dropped.
class LibbpfMessageCapture {
public:
    // Messages at `echo_up_to` or more severe are also written to stderr
    // (LIBBPF_WARN < LIBBPF_INFO < LIBBPF_DEBUG).
    explicit LibbpfMessageCapture(std::optional<libbpf_print_level> echo_up_to = std::nullopt);
    ~LibbpfMessageCapture();
    LibbpfMessageCapture(const LibbpfMessageCapture &) = delete;
    LibbpfMessageCapture &operator=(const LibbpfMessageCapture &) = delete;

    const std::vector<LibbpfMessage> &messages() const { return messages_; }

    // Called by the print callback; `text` may hold several lines or a part of one.
    void add(libbpf_print_level level, std::string_view text);

private:
    std::optional<libbpf_print_level> echo_up_to_;
    std::vector<LibbpfMessage> messages_;
    std::string partial_line_;
    LibbpfMessageCapture *outer_;
};

struct BpfObjectOptions {
    // libbpf's object name; it prefixes internal map names ("dtx.rodata").
    std::string name = "dtx";
    // 0: ask the verifier for a log only when a program fails to load (libbpf
    // then loads it again with level 1). 1 or 2 (| 4 for statistics): ask for
    // every program, for a verifier-log dump.
    uint32_t verifier_log_level = 0;
    // Per program. The kernel keeps the end of a longer log, but reports
    // ENOSPC even for a program it accepted, so size it for verbose dumps.
    size_t verifier_log_size = size_t{1} << 20;
    // Lines of verifier log (or libbpf messages) quoted in an error.
    size_t error_log_lines = 20;
    // Echo libbpf's messages up to this level on stderr (verbose mode).
    std::optional<libbpf_print_level> echo_libbpf_up_to{};
};

// A kernel limit that the verifier says a program exceeded (the end of its
// log, in the load error's details), for saying it in the program's terms.
enum class KernelLimit {
    None,
    Instructions, // "BPF program is too large": 1,000,000 instructions verified
    Branches,     // "The sequence of N jumps is too complex": paths pending at once
    Functions,    // "too many subprograms": 256 functions per program
    Maps,         // "total number of maps per program": 64
    Stack,        // "combined stack size": 512 bytes down a chain of calls
};
KernelLimit kernel_limit(const Error &error);

class BpfObject {
public:
    explicit BpfObject(BpfObjectOptions options = {});
    ~BpfObject();
    BpfObject(const BpfObject &) = delete;
    BpfObject &operator=(const BpfObject &) = delete;

    // Parses the ELF image; nothing reaches the kernel yet. Errors here and
    // from load() have the failing program as their subject, if one failed,
    // and the end of its verifier log (else libbpf's warnings) as details.
    Status open(std::vector<char> elf_image);

    // Sets a global variable of ".rodata" or ".data" (defined with
    // codegen::BpfDebugInfo::define_global_variable) between open() and
    // load(). False if there is no such variable or its size differs.
    bool set_global_variable(std::string_view name, std::span<const std::byte> value);

    // Creates the maps and loads every program.
    Status load();

    // Null / -1 if there is no such program or map (or it is not loaded).
    bpf_program *program(std::string_view name) const;
    bpf_map *map(std::string_view name) const;
    int program_fd(std::string_view name) const;
    int map_fd(std::string_view name) const;

    // What the verifier said about a program (empty unless a log was asked for
    // with verifier_log_level, or the program failed).
    std::string_view verifier_log(std::string_view program) const;

    // Messages libbpf printed while opening and loading.
    const std::vector<LibbpfMessage> &libbpf_messages() const { return libbpf_messages_; }

    bpf_object *get() const { return object_; }

private:
    struct VerifierLog {
        std::string program;
        std::unique_ptr<char[]> buffer;
    };

    Error describe_load_failure(int error_code) const;
    const VerifierLog *find_verifier_log(std::string_view program) const;
    void keep_messages(const LibbpfMessageCapture &capture);

    BpfObjectOptions options_;
    std::vector<char> elf_image_;
    bpf_object *object_ = nullptr;
    std::vector<VerifierLog> verifier_logs_;
    std::vector<LibbpfMessage> libbpf_messages_;
};

} // namespace dtx::trace
