#include "libtrace/unwind_maps.h"

#include "libtrace/attach.h"
#include "libtrace/unwind_table.h"
#include "libtrace/whole_file.h"

#include <bpf/bpf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <vector>

namespace dtx::trace {

namespace {

// A file not found when asked for may be asked for again after 1 s, then
// 2, 4 ... up to 2^kLongestPause s.
constexpr int kLongestPause = 6;

// The building threads' lanes, by file size: a library's table is built in
// milliseconds, an interpreter's in a tenth of a second, a compiler's or
// dtx's own in a second or more; none waits behind a larger one.
constexpr uint64_t kLaneLimits[] = {1 << 20, 16 << 20};

size_t lane_of(uint64_t file_size) {
    return size_t(std::upper_bound(std::begin(kLaneLimits), std::end(kLaneLimits), file_size) -
                  std::begin(kLaneLimits));
}

// "START-END" as /proc/PID/map_files names a mapping.
std::string map_files_range(uint64_t start, uint64_t end) {
    char range[48];
    std::snprintf(range, sizeof(range), "%" PRIx64 "-%" PRIx64, start, end);
    return range;
}

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

// The file's name for a message: where a /proc/PID/map_files link leads.
std::string shown_path(const std::string &path) {
    if (!path.starts_with("/proc/"))
        return path;
    char target[4096];
    const ssize_t length = readlink(path.c_str(), target, sizeof(target) - 1);
    return length > 0 ? std::string(target, size_t(length)) : path;
}

UnwindFileKey key_of(const FileIdentity &file) {
    return UnwindFileKey{file.inode, file.device};
}

} // namespace

struct UnwindMaps::Shared {
    // A file opened while its mapping lived, waiting for its table.
    struct Pending {
        FileIdentity file;
        UniqueFd fd;
        std::string name; // for messages
        uint64_t size = 0;
    };
    // A file asked for and not found: how often, and when the program may
    // ask again.
    struct Retry {
        int failures = 0;
        std::chrono::steady_clock::time_point due;
        bool waiting = false;
    };

    UniqueFd rows_fd, files_fd;
    uint32_t capacity = 0;
    std::function<void(const std::string &)> warn;

    std::mutex mutex;
    std::condition_variable wake;
    bool stopping = false;
    int building = 0;    // threads building a table now
    bool warned = false; // once: the advice is the same
    std::vector<Pending> queue;
    std::set<FileIdentity> queued; // in `queue` or being built
    std::map<FileIdentity, UnwindFile> published;
    std::map<FileIdentity, Retry> retries;
    Statistics statistics;

    // Builds the table of `pending` and publishes it; `met` (asked for
    // while tracing) caps its size. Takes the mutex once built.
    void build(const Pending &pending, bool met);
    void publish(const FileIdentity &file, const UnwindFile &given);
    // A building thread: the smallest file queued first, of those of lane
    // `lane`, until stopping.
    void run(size_t lane);
};

void UnwindMaps::Shared::build(const Pending &pending, bool met) {
    const auto started = std::chrono::steady_clock::now();
    Result<UnwindTable> table = build_unwind_table(pending.fd.get(), pending.name);
    std::lock_guard lock(mutex);
    queued.erase(pending.file);
    if (stopping && met)
        return;
    UnwindFile given{0, 0, UnwindFile::NoTable, 0};
    if (table && !table->rows.empty()) {
        const std::vector<UnwindRow> &rows = table->rows;
        const uint64_t used = statistics.rows;
        if (met && rows.size() > capacity / 4) {
            if (!std::exchange(warned, true) && warn)
                warn("the unwind table of " + pending.name + " (" +
                     std::to_string(rows.size() * sizeof(UnwindRow)) +
                     " bytes) would take more than a quarter of the unwind tables' room "
                     "(unwindsize): user stacks through it and other files as large follow "
                     "frame pointers; raise -x unwindsize");
        } else if (rows.size() <= capacity - used) {
            if (write_rows(rows_fd.get(), used, rows)) {
                given = UnwindFile{uint32_t(used), uint32_t(rows.size()), UnwindFile::Table, 0};
                statistics.rows += rows.size();
            }
        } else if (!std::exchange(warned, true) && warn) {
            warn("the unwind tables' room (unwindsize, " +
                 std::to_string(uint64_t(capacity) * sizeof(UnwindRow)) +
                 " bytes) is full: user stacks through " + pending.name +
                 " and other files whose tables do not fit follow frame pointers; raise "
                 "-x unwindsize");
        }
    }
    publish(pending.file, given);
    statistics.build_seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

void UnwindMaps::Shared::publish(const FileIdentity &file, const UnwindFile &given) {
    published[file] = given;
    retries.erase(file);
    (given.state == UnwindFile::Table ? statistics.files : statistics.files_without)++;
    const UnwindFileKey key = key_of(file);
    bpf_map_update_elem(files_fd.get(), &key, &given, BPF_ANY);
}

void UnwindMaps::Shared::run(size_t lane) {
    auto mine = [lane](const Pending &pending) { return lane_of(pending.size) == lane; };
    std::unique_lock lock(mutex);
    for (;;) {
        wake.wait(lock, [&] { return stopping || std::any_of(queue.begin(), queue.end(), mine); });
        if (stopping)
            return;
        auto smallest = queue.end();
        for (auto it = queue.begin(); it != queue.end(); ++it)
            if (mine(*it) && (smallest == queue.end() || it->size < smallest->size))
                smallest = it;
        Pending pending = std::move(*smallest);
        queue.erase(smallest);
        building++;
        lock.unlock();
        build(pending, true);
        lock.lock();
        building--;
    }
}

UnwindMaps::UnwindMaps(int rows_fd, uint32_t capacity, int files_fd,
                       std::function<void(const std::string &)> warn)
    : shared_(std::make_shared<Shared>()) {
    shared_->rows_fd.reset(fcntl(rows_fd, F_DUPFD_CLOEXEC, 0));
    shared_->files_fd.reset(fcntl(files_fd, F_DUPFD_CLOEXEC, 0));
    shared_->capacity = capacity;
    shared_->warn = std::move(warn);
    shared_->statistics.capacity = capacity;
}

UnwindMaps::~UnwindMaps() {
    bool busy = false;
    {
        std::lock_guard lock(shared_->mutex);
        shared_->stopping = true;
        busy = shared_->building > 0;
    }
    shared_->wake.notify_all();
    for (std::thread &builder : builders_) {
        if (!builder.joinable())
            continue;
        // A thread still building holds `shared_` and publishes nothing more.
        if (busy)
            builder.detach();
        else
            builder.join();
    }
}

void UnwindMaps::load(const std::string &path) {
    std::optional<FileIdentity> file = file_identity(path);
    if (!file)
        return;
    {
        std::lock_guard lock(shared_->mutex);
        if (shared_->published.contains(*file) || !shared_->queued.insert(*file).second)
            return;
    }
    Shared::Pending pending{*file, UniqueFd(open(path.c_str(), O_RDONLY | O_CLOEXEC)),
                            shown_path(path), 0};
    shared_->build(pending, false);
}

bool UnwindMaps::queue(const std::string &path, const std::optional<FileIdentity> &expected,
                       uint64_t build_now_below) {
    UniqueFd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC));
    struct stat status {};
    if (!fd || fstat(fd.get(), &status) != 0)
        return false;
    const FileIdentity file{uint64_t(status.st_ino), kernel_device(status.st_dev)};
    if (expected && file != *expected)
        return false;
    {
        std::unique_lock lock(shared_->mutex);
        if (shared_->published.contains(file) || !shared_->queued.insert(file).second)
            return true;
        if (uint64_t(status.st_size) < build_now_below) {
            lock.unlock();
            shared_->build({file, std::move(fd), shown_path(path), uint64_t(status.st_size)}, true);
            return true;
        }
        shared_->queue.push_back({file, std::move(fd), shown_path(path), uint64_t(status.st_size)});
        const size_t lane = lane_of(uint64_t(status.st_size));
        if (!builders_[lane].joinable())
            builders_[lane] = std::thread([shared = shared_, lane] { shared->run(lane); });
    }
    shared_->wake.notify_all();
    return true;
}

void UnwindMaps::answer(const UnwindRequest &request, const KnownPaths &known_paths) {
    const FileIdentity file{request.inode, request.device};
    {
        std::lock_guard lock(shared_->mutex);
        // Asked again for a file given already: its entry went (a retry let
        // the program ask while the file was loaded another way).
        if (auto given = shared_->published.find(file); given != shared_->published.end()) {
            const UnwindFileKey key = key_of(file);
            bpf_map_update_elem(shared_->files_fd.get(), &key, &given->second, BPF_ANY);
            return;
        }
        if (shared_->queued.contains(file))
            return;
    }
    // The mapping's own file, as the program saw it, even where the path in
    // the maps names another (a file replaced since, another mount
    // namespace); else another mapping of it (a library unloaded and loaded
    // again), else where the file was seen before. The process's other code
    // is loaded with the file asked for: its stacks soon run through them
    // too.
    const std::string proc = "/proc/" + std::to_string(request.pid);
    const std::vector<MapsEntry> maps =
        parse_maps(read_file(proc + "/maps", 64 << 10).value_or(""));
    bool found = queue(proc + "/map_files/" + map_files_range(request.start, request.end), file);
    for (const MapsEntry &entry : maps)
        if (!found && entry.executable && entry.inode == file.inode)
            found = queue(proc + "/map_files/" + map_files_range(entry.start, entry.end), file);
    if (!found && known_paths)
        if (std::optional<std::string> known = known_paths(file))
            found = queue(*known, file);
    if (!found) {
        std::lock_guard lock(shared_->mutex);
        Shared::Retry &retry = shared_->retries[file];
        const auto pause = std::chrono::seconds(1 << std::min(retry.failures++, kLongestPause));
        retry.due = std::chrono::steady_clock::now() + pause;
        retry.waiting = true;
        return;
    }
    queue_mappings(proc, maps);
}

void UnwindMaps::load_process(pid_t pid) {
    const std::string proc = "/proc/" + std::to_string(pid);
    queue_mappings(proc, parse_maps(read_file(proc + "/maps", 64 << 10).value_or("")));
}

void UnwindMaps::load_process_now(pid_t pid) {
    const std::string proc = "/proc/" + std::to_string(pid);
    queue_mappings(proc, parse_maps(read_file(proc + "/maps", 64 << 10).value_or("")),
                   kLaneLimits[0]);
}

void UnwindMaps::load_later(const std::string &path) {
    queue(path, std::nullopt);
}

void UnwindMaps::queue_mappings(const std::string &proc, const std::vector<MapsEntry> &maps,
                                uint64_t build_now_below) {
    for (const MapsEntry &entry : maps)
        if (entry.executable && entry.inode != 0)
            queue(proc + "/map_files/" + map_files_range(entry.start, entry.end), std::nullopt,
                  build_now_below);
}

void UnwindMaps::retry_due() {
    const auto now = std::chrono::steady_clock::now();
    std::lock_guard lock(shared_->mutex);
    for (auto &[file, retry] : shared_->retries)
        if (retry.waiting && retry.due <= now) {
            const UnwindFileKey key = key_of(file);
            bpf_map_delete_elem(shared_->files_fd.get(), &key);
            retry.waiting = false;
        }
}

UnwindMaps::Statistics UnwindMaps::statistics() const {
    std::lock_guard lock(shared_->mutex);
    return shared_->statistics;
}

} // namespace dtx::trace
