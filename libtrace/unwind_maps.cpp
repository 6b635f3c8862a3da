#include "libtrace/unwind_maps.h"

#include "libtrace/process_modules.h"
#include "libtrace/unwind_table.h"

#include <bpf/bpf.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace dtx::trace {

namespace {

// A file whose process is gone before its request is answered is asked for
// again (by the next process meeting it) this many times, then given up.
constexpr int kRequestAttempts = 3;

// Writes `rows` at row `first` of the rows map through a mapping of just
// the pages they fall in: a mapping of the whole map would count all of it
// (16 MB by default) in dtx's resident memory.
bool write_rows(int rows_fd, uint64_t first, std::span<const UnwindRow> rows) {
    const uint64_t page = uint64_t(sysconf(_SC_PAGESIZE));
    const uint64_t begin = first * sizeof(UnwindRow);
    const uint64_t end = begin + rows.size_bytes();
    const uint64_t mapped_begin = begin / page * page;
    const uint64_t mapped_size = (end - mapped_begin + page - 1) / page * page;
    void *mapped = mmap(nullptr, mapped_size, PROT_READ | PROT_WRITE, MAP_SHARED, rows_fd,
                        off_t(mapped_begin));
    if (mapped == MAP_FAILED)
        return false;
    std::memcpy(static_cast<char *>(mapped) + (begin - mapped_begin), rows.data(),
                rows.size_bytes());
    munmap(mapped, mapped_size);
    return true;
}

std::pair<uint64_t, uint64_t> identity(const UnwindFileKey &key) {
    return {key.inode, key.device};
}

std::optional<UnwindFileKey> key_of(const std::string &path) {
    struct stat status {};
    if (stat(path.c_str(), &status) != 0)
        return std::nullopt;
    return UnwindFileKey{uint64_t(status.st_ino), kernel_device(status.st_dev)};
}

std::string read_text(const std::string &path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

uint64_t kernel_device(dev_t device) {
    return (uint64_t(major(device)) << 20) | minor(device);
}

UnwindMaps::UnwindMaps(int rows_fd, uint32_t capacity, int files_fd,
                       std::function<void(const std::string &)> warn)
    : rows_fd_(rows_fd), capacity_(capacity), files_fd_(files_fd), warn_(std::move(warn)) {
    statistics_.capacity = capacity;
}

void UnwindMaps::load(const std::string &path) {
    std::optional<UnwindFileKey> key = key_of(path);
    if (key && !published_.contains(identity(*key)))
        load_file(path, *key);
}

void UnwindMaps::answer(const UnwindRequest &request) {
    const UnwindFileKey key{request.inode, request.device};
    if (published_.contains(identity(key)))
        return;
    // The mappings' own files, as the program saw them, even where the path
    // in the maps names another (a file replaced since, another mount
    // namespace). The process's other code is loaded with the file asked
    // for: its stacks soon run through them too.
    const std::string proc = "/proc/" + std::to_string(request.pid);
    bool found = false;
    for (const MapsEntry &entry : parse_maps(read_text(proc + "/maps"))) {
        if (!entry.executable || entry.inode == 0)
            continue;
        char range[48];
        std::snprintf(range, sizeof(range), "%" PRIx64 "-%" PRIx64, entry.start, entry.end);
        const std::string path = proc + "/map_files/" + range;
        std::optional<UnwindFileKey> file = key_of(path);
        if (!file || published_.contains(identity(*file)))
            continue;
        found |= file->inode == key.inode && file->device == key.device;
        load_file(path, *file);
    }
    if (found)
        return;
    if (++failed_requests_[identity(key)] < kRequestAttempts)
        bpf_map_delete_elem(files_fd_, &key);
    else
        publish(key, UnwindFile{0, 0, UnwindFile::NoTable, 0});
}

void UnwindMaps::load_file(const std::string &path, const UnwindFileKey &key) {
    const auto started = std::chrono::steady_clock::now();
    UnwindFile file{0, 0, UnwindFile::NoTable, 0};
    const uint64_t used = statistics_.rows;
    if (Result<UnwindTable> table = build_unwind_table(path); table && !table->rows.empty()) {
        const std::vector<UnwindRow> &rows = table->rows;
        if (rows.size() <= capacity_ - used) {
            if (write_rows(rows_fd_, used, rows)) {
                file = UnwindFile{uint32_t(used), uint32_t(rows.size()), UnwindFile::Table, 0};
                statistics_.rows += rows.size();
            }
        } else if (!warned_full_ && warn_) {
            warned_full_ = true;
            warn_("the unwind tables' room (unwindsize, " +
                  std::to_string(uint64_t(capacity_) * sizeof(UnwindRow)) +
                  " bytes) is full: user stacks through " + path +
                  " and other files whose tables do not fit follow frame pointers; raise "
                  "-x unwindsize");
        }
    }
    publish(key, file);
    statistics_.build_seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

void UnwindMaps::publish(const UnwindFileKey &key, const UnwindFile &file) {
    published_[identity(key)] = file;
    (file.state == UnwindFile::Table ? statistics_.files : statistics_.files_without)++;
    bpf_map_update_elem(files_fd_, &key, &file, BPF_ANY);
}

} // namespace dtx::trace
