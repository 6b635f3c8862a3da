#include "libtrace/tracefs.h"

#include "libtrace/whole_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <optional>

namespace dtx::trace {
namespace {

constexpr const char *kTracefsMountPoint = "/sys/kernel/tracing";
// With debugfs mounted, tracefs is automounted here on first access.
constexpr const char *kDebugfsTracingDir = "/sys/kernel/debug/tracing";

bool is_tracefs(const std::string &dir) {
    struct statfs fs {};
    return statfs(dir.c_str(), &fs) == 0 && fs.f_type == TRACEFS_MAGIC;
}

// /proc/self/mounts writes space, tab, newline and backslash as \ooo.
std::string unescape_mount_path(std::string_view escaped) {
    std::string path;
    for (size_t i = 0; i < escaped.size(); ++i) {
        unsigned value = 0;
        if (escaped[i] == '\\' && i + 3 < escaped.size() &&
            std::from_chars(escaped.data() + i + 1, escaped.data() + i + 4, value, 8).ptr ==
                escaped.data() + i + 4) {
            path += static_cast<char>(value);
            i += 3;
        } else {
            path += escaped[i];
        }
    }
    return path;
}

std::optional<std::string> tracefs_from_mount_table() {
    std::optional<std::string> found;
    for_each_line(read_file("/proc/self/mounts").value_or(""), [&found](std::string_view line) {
        // "SOURCE DIR TYPE OPTIONS 0 0"
        size_t dir_start = line.find(' ');
        if (dir_start == std::string_view::npos)
            return true;
        size_t dir_end = line.find(' ', dir_start + 1);
        if (dir_end == std::string_view::npos)
            return true;
        size_t type_end = line.find(' ', dir_end + 1);
        if (line.substr(dir_end + 1, type_end - dir_end - 1) != "tracefs")
            return true;
        std::string dir = unescape_mount_path(line.substr(dir_start + 1, dir_end - dir_start - 1));
        if (is_tracefs(dir))
            found = std::move(dir);
        return !found;
    });
    return found;
}

bool is_plain_name(std::string_view name) {
    return !name.empty() && name != "." && name != ".." && name.find('/') == std::string_view::npos;
}

std::string tracepoint_target(std::string_view category, std::string_view event) {
    std::string target = "tracepoint ";
    target.append(category).append(":").append(event);
    return target;
}

} // namespace

Result<std::string> find_or_mount_tracefs() {
    for (const char *dir : {kTracefsMountPoint, kDebugfsTracingDir}) {
        if (is_tracefs(dir))
            return std::string(dir);
    }
    if (std::optional<std::string> dir = tracefs_from_mount_table())
        return *dir;

    if (mount("tracefs", kTracefsMountPoint, "tracefs", 0, nullptr) == 0 ||
        is_tracefs(kTracefsMountPoint)) // someone else mounted it meanwhile
        return std::string(kTracefsMountPoint);
    int err = errno;
    std::string operation = std::string("mount -t tracefs tracefs ") + kTracefsMountPoint;
    switch (err) {
    case EPERM:
        return errno_error("tracefs", operation, err,
                           "not mounted, and mounting it needs root (CAP_SYS_ADMIN)");
    case ENODEV: {
        Error error = errno_error("tracefs", operation, err,
                                  "this kernel has no tracefs: CONFIG_TRACING is unset");
        error.kind = ErrorKind::KernelLacksFeature;
        return error;
    }
    case ENOENT:
        return errno_error("tracefs", operation, err,
                           "the mount point is missing: is sysfs mounted on /sys?");
    default:
        return errno_error("tracefs", operation, err);
    }
}

Result<uint32_t> read_tracepoint_id(std::string_view tracefs_dir, std::string_view category,
                                    std::string_view event) {
    std::string target = tracepoint_target(category, event);
    if (!is_plain_name(category) || !is_plain_name(event))
        return Error{target + ": not a valid tracepoint name", EINVAL};

    std::string path(tracefs_dir);
    path.append("/events/").append(category).append("/").append(event).append("/id");
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        int err = errno;
        return errno_error(target, "open " + path, err,
                           err == ENOENT ? "no such tracepoint" : std::string_view{});
    }
    UniqueFd file(fd);
    char text[32];
    ssize_t length = read(file.get(), text, sizeof(text));
    if (length < 0)
        return errno_error(target, "read " + path, errno);
    uint32_t id = 0;
    auto [end, ec] = std::from_chars(text, text + length, id);
    if (ec != std::errc() || end == text)
        return Error{target + ": " + path + " does not hold a tracepoint id", EINVAL};
    return id;
}

Result<std::vector<std::string>> list_tracepoints(std::string_view tracefs_dir,
                                                  std::string_view category) {
    std::string target = "tracepoint category ";
    target.append(category);
    if (!is_plain_name(category))
        return Error{target + ": not a valid category name", EINVAL};

    std::string path(tracefs_dir);
    path.append("/events/").append(category);
    DIR *dir = opendir(path.c_str());
    if (!dir)
        return errno_error(target, "opendir " + path, errno);
    std::vector<std::string> events;
    while (const dirent *entry = readdir(dir)) {
        std::string name = entry->d_name;
        if (name == "." || name == "..")
            continue;
        // Besides one directory per event, a category holds its "enable" and "filter" files.
        struct stat info {};
        if (entry->d_type == DT_DIR ||
            (entry->d_type == DT_UNKNOWN && stat((path + "/" + name).c_str(), &info) == 0 &&
             S_ISDIR(info.st_mode)))
            events.push_back(std::move(name));
    }
    closedir(dir);
    std::sort(events.begin(), events.end());
    return events;
}

Result<std::vector<TracefsEvent>> list_available_events(std::string_view tracefs_dir) {
    std::string path = std::string(tracefs_dir) + "/available_events";
    int errnum = 0;
    const std::string text = read_whole_file(path, errnum, std::size_t{1} << 20);
    if (errnum != 0)
        return errno_error("tracefs events", "open " + path, errnum);
    std::vector<TracefsEvent> events;
    for_each_line(text, [&events](std::string_view line) {
        size_t colon = line.find(':');
        if (colon != std::string_view::npos && colon != 0 && colon + 1 != line.size())
            events.push_back(
                {std::string(line.substr(0, colon)), std::string(line.substr(colon + 1))});
        return true;
    });
    return events;
}

Result<std::string> read_tracepoint_format(std::string_view tracefs_dir, std::string_view category,
                                           std::string_view event) {
    std::string target = tracepoint_target(category, event);
    if (!is_plain_name(category) || !is_plain_name(event))
        return Error{target + ": not a valid tracepoint name", EINVAL};
    std::string path(tracefs_dir);
    path.append("/events/").append(category).append("/").append(event).append("/format");
    int err = 0;
    std::string text = read_whole_file(path, err, std::size_t{8} << 10);
    if (err != 0)
        return errno_error(target, "open " + path, err,
                           err == ENOENT ? "no such tracepoint" : std::string_view{});
    return text;
}

} // namespace dtx::trace
