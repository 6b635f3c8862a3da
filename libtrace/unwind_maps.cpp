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

size_t mapped_size(uint32_t capacity) {
    const size_t page = size_t(sysconf(_SC_PAGESIZE));
    const size_t bytes = size_t(capacity) * sizeof(UnwindRow);
    return (bytes + page - 1) / page * page;
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

Result<UnwindMaps> UnwindMaps::open(int rows_fd, uint32_t capacity, int files_fd,
                                    std::function<void(const std::string &)> warn) {
    void *rows =
        mmap(nullptr, mapped_size(capacity), PROT_READ | PROT_WRITE, MAP_SHARED, rows_fd, 0);
    if (rows == MAP_FAILED)
        return errno_error("could not map the unwind tables' map", "mmap", errno);
    return UnwindMaps(rows, capacity, files_fd, std::move(warn));
}

UnwindMaps::UnwindMaps(void *rows, uint32_t capacity, int files_fd,
                       std::function<void(const std::string &)> warn)
    : rows_(rows), capacity_(capacity), files_fd_(files_fd), warn_(std::move(warn)) {
    statistics_.capacity = capacity;
}

UnwindMaps::UnwindMaps(UnwindMaps &&other) noexcept
    : rows_(std::exchange(other.rows_, nullptr)), capacity_(other.capacity_),
      files_fd_(other.files_fd_), warn_(std::move(other.warn_)), warned_full_(other.warned_full_),
      published_(std::move(other.published_)), failed_requests_(std::move(other.failed_requests_)),
      statistics_(other.statistics_) {}

UnwindMaps::~UnwindMaps() {
    if (rows_)
        munmap(rows_, mapped_size(capacity_));
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
    // The mapping's own file, as the program saw it, even where the path in
    // the maps names another (a file replaced since, another mount namespace).
    const std::string proc = "/proc/" + std::to_string(request.pid);
    for (const MapsEntry &entry : parse_maps(read_text(proc + "/maps"))) {
        if (request.address < entry.start || request.address >= entry.end)
            continue;
        char range[48];
        std::snprintf(range, sizeof(range), "%" PRIx64 "-%" PRIx64, entry.start, entry.end);
        const std::string path = proc + "/map_files/" + range;
        std::optional<UnwindFileKey> found = key_of(path);
        if (found && found->inode == key.inode && found->device == key.device) {
            load_file(path, key);
            return;
        }
        break;
    }
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
            std::memcpy(static_cast<UnwindRow *>(rows_) + used, rows.data(),
                        rows.size() * sizeof(UnwindRow));
            file = UnwindFile{uint32_t(used), uint32_t(rows.size()), UnwindFile::Table, 0};
            statistics_.rows += rows.size();
        } else if (!warned_full_ && warn_) {
            warned_full_ = true;
            warn_("the unwind tables' room (unwindsize, " +
                  std::to_string(uint64_t(capacity_) * sizeof(UnwindRow)) +
                  " bytes) is full: user stacks through " + path +
                  " and files after it follow frame pointers; raise -x unwindsize");
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
