#include "libtrace/process_modules.h"

#include "libtrace/hex.h"
#include "libtrace/whole_file.h"

#include "libtrace/probe.h"

#include <fcntl.h>
#include <gelf.h>
#include <glob.h>
#include <libelf.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <tuple>

namespace dtx::trace {

namespace {

constexpr std::string_view kDeletedSuffix = " (deleted)";

std::optional<std::string> read_link(const std::string &path) {
    std::string target(PATH_MAX, '\0');
    const ssize_t n = ::readlink(path.c_str(), target.data(), target.size());
    if (n < 0 || static_cast<std::size_t>(n) >= target.size())
        return std::nullopt;
    target.resize(static_cast<std::size_t>(n));
    return target;
}

std::optional<std::string> real_path(const std::string &path) {
    char *resolved = ::realpath(path.c_str(), nullptr);
    if (!resolved)
        return std::nullopt;
    std::string result(resolved);
    std::free(resolved);
    return result;
}

std::string directory_of(const std::string &path) {
    const std::size_t slash = path.rfind('/');
    if (slash == std::string::npos)
        return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

bool is_file_backed(const MapsEntry &entry) {
    return !entry.path.empty() && entry.path[0] == '/';
}

// The first of the ways to reach `module`'s file that leads to the mapped
// inode (see ProcessModule::open_path).
std::string open_path_of(const std::string &proc, const ProcessModule &module) {
    for (const std::string &candidate : {module.path, proc + "/root" + module.path}) {
        struct stat st {};
        if (::stat(candidate.c_str(), &st) == 0 && st.st_ino == module.inode)
            return candidate;
    }
    const MapsEntry &first = module.mappings.front();
    std::string mapped =
        proc + "/map_files/" + hex_digits(first.start) + "-" + hex_digits(first.end);
    if (::access(mapped.c_str(), R_OK) == 0)
        return mapped;
    return module.path;
}

// --- Predicting a command's modules, as the dynamic linker will load them.

constexpr std::array<std::string_view, 5> kDefaultLibraryDirectories = {
    "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/lib", "/usr/lib"};

// ld.so.conf nests through "include"; cycles are cut at this depth.
constexpr int kMaxConfDepth = 8;

// What the loader reads from one object.
struct DynamicObject {
    std::string path; // canonical, as /proc/PID/maps will show it
    std::string soname;
    std::vector<std::string> needed;
    std::optional<std::string> rpath, runpath;
    std::string interpreter; // PT_INTERP; only the executable's is used
    std::size_t loader = 0;  // index of the object whose DT_NEEDED brought it in
};

// Whether `path` is a regular file holding an ELF64 x86-64 object, as a
// search candidate must be (the loader skips others and keeps searching).
bool is_x86_64_elf(const std::string &path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    struct stat st {};
    unsigned char header[EI_NIDENT + 4] = {};
    const bool complete = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
                          ::pread(fd, header, sizeof header, 0) == sizeof header;
    ::close(fd);
    const unsigned machine = header[EI_NIDENT + 2] | (header[EI_NIDENT + 3] << 8);
    return complete && std::memcmp(header, ELFMAG, SELFMAG) == 0 &&
           header[EI_CLASS] == ELFCLASS64 && header[EI_DATA] == ELFDATA2LSB && machine == EM_X86_64;
}

Result<DynamicObject> read_dynamic_object(const std::string &path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return Error(path + ": " + std::strerror(errno), errno);
    elf_version(EV_CURRENT);
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, nullptr);
    std::string error;
    DynamicObject object;
    GElf_Ehdr ehdr;
    if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &ehdr)) {
        error = path + ": not an ELF file";
    } else if (gelf_getclass(elf) != ELFCLASS64 || ehdr.e_machine != EM_X86_64) {
        error = path + ": not an x86-64 ELF64 file";
    } else {
        std::size_t file_size = 0;
        const char *raw = elf_rawfile(elf, &file_size);
        std::size_t phnum = 0;
        if (elf_getphdrnum(elf, &phnum) != 0)
            phnum = 0;
        for (std::size_t i = 0; i < phnum; ++i) {
            GElf_Phdr phdr;
            if (!gelf_getphdr(elf, static_cast<int>(i), &phdr) || phdr.p_type != PT_INTERP ||
                !raw || phdr.p_offset >= file_size || phdr.p_filesz > file_size - phdr.p_offset)
                continue;
            const std::string_view interp(raw + phdr.p_offset, phdr.p_filesz);
            object.interpreter = interp.substr(0, interp.find('\0'));
        }
        for (Elf_Scn *scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
            GElf_Shdr shdr;
            if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_DYNAMIC)
                continue;
            Elf_Data *data = elf_getdata(scn, nullptr);
            const std::size_t count = shdr.sh_entsize ? shdr.sh_size / shdr.sh_entsize : 0;
            for (std::size_t i = 0; data && i < count; ++i) {
                GElf_Dyn dyn;
                if (!gelf_getdyn(data, static_cast<int>(i), &dyn) || dyn.d_tag == DT_NULL)
                    break;
                if (dyn.d_tag != DT_NEEDED && dyn.d_tag != DT_SONAME && dyn.d_tag != DT_RPATH &&
                    dyn.d_tag != DT_RUNPATH)
                    continue;
                const char *text = elf_strptr(elf, shdr.sh_link, dyn.d_un.d_val);
                if (!text)
                    continue;
                if (dyn.d_tag == DT_NEEDED)
                    object.needed.emplace_back(text);
                else if (dyn.d_tag == DT_SONAME)
                    object.soname = text;
                else if (dyn.d_tag == DT_RPATH)
                    object.rpath = text;
                else
                    object.runpath = text;
            }
        }
    }
    if (elf)
        elf_end(elf);
    ::close(fd);
    if (!error.empty())
        return failure(error);
    object.path = real_path(path).value_or(path);
    return object;
}

// Expands $ORIGIN / ${ORIGIN} to `origin`; nullopt for a directory naming
// another token ($LIB, $PLATFORM), which is left out of the search.
std::optional<std::string> expand_origin(std::string_view directory, const std::string &origin) {
    std::string expanded;
    while (!directory.empty()) {
        const std::size_t dollar = directory.find('$');
        expanded += directory.substr(0, dollar);
        if (dollar == std::string_view::npos)
            break;
        directory.remove_prefix(dollar);
        if (directory.starts_with("${ORIGIN}"))
            directory.remove_prefix(9);
        else if (directory.starts_with("$ORIGIN") &&
                 (directory.size() == 7 ||
                  !(std::isalnum(static_cast<unsigned char>(directory[7])) || directory[7] == '_')))
            directory.remove_prefix(7);
        else
            return std::nullopt;
        expanded += origin;
    }
    return expanded;
}

// A search path: "dir1:dir2"; an empty entry is the working directory.
void append_search_path(std::string_view list, std::string_view separators,
                        const std::string &origin, std::vector<std::string> &directories) {
    for (;;) {
        const std::size_t end = list.find_first_of(separators);
        const std::string_view entry = list.substr(0, end);
        if (std::optional<std::string> directory = expand_origin(entry, origin))
            directories.push_back(directory->empty() ? "." : std::move(*directory));
        if (end == std::string_view::npos)
            break;
        list.remove_prefix(end + 1);
    }
}

std::string trim(std::string_view text) {
    const std::size_t begin = text.find_first_not_of(" \t\r");
    if (begin == std::string_view::npos)
        return {};
    const std::size_t end = text.find_last_not_of(" \t\r");
    return std::string(text.substr(begin, end - begin + 1));
}

// The directories of an ld.so.conf, as ldconfig reads it: one per line,
// '#' comments, "include GLOB..." (relative to the including file's
// directory), "hwcap" lines ignored.
void read_ld_so_conf(const std::string &path, int depth, std::vector<std::string> &directories) {
    if (depth >= kMaxConfDepth)
        return;
    const std::optional<std::string> text = read_file(path);
    for_each_line(text.value_or(""), [&](std::string_view whole_line) {
        std::string line = trim(whole_line.substr(0, whole_line.find('#')));
        if (line.starts_with("include") && line.size() > 7 && (line[7] == ' ' || line[7] == '\t')) {
            std::string_view patterns(line);
            patterns.remove_prefix(8);
            while (!patterns.empty()) {
                const std::size_t begin = patterns.find_first_not_of(" \t");
                if (begin == std::string_view::npos)
                    break;
                patterns.remove_prefix(begin);
                const std::size_t end = patterns.find_first_of(" \t");
                std::string pattern(patterns.substr(0, end));
                patterns.remove_prefix(end == std::string_view::npos ? patterns.size() : end);
                if (pattern.front() != '/')
                    pattern = directory_of(path) + "/" + pattern;
                glob_t matches{};
                if (::glob(pattern.c_str(), 0, nullptr, &matches) == 0)
                    for (std::size_t i = 0; i < matches.gl_pathc; ++i)
                        read_ld_so_conf(matches.gl_pathv[i], depth + 1, directories);
                ::globfree(&matches);
            }
        } else if (!line.empty() && !line.starts_with("hwcap")) {
            // libc5's "DIR=TYPE" form still parses.
            std::string directory = line.substr(0, line.find('='));
            while (directory.size() > 1 && directory.back() == '/')
                directory.pop_back();
            directories.push_back(std::move(directory));
        }
        return true;
    });
}

class LibrarySearch {
public:
    explicit LibrarySearch(const DynamicObject &executable) {
        if (const char *library_path = std::getenv("LD_LIBRARY_PATH"))
            append_search_path(library_path, ":;", directory_of(executable.path), library_path_);
        read_ld_so_conf("/etc/ld.so.conf", 0, system_);
        system_.insert(system_.end(), kDefaultLibraryDirectories.begin(),
                       kDefaultLibraryDirectories.end());
    }

    // Where the loader finds `name`, a DT_NEEDED of objects[requester].
    std::optional<std::string> find(const std::string &name, std::size_t requester,
                                    const std::vector<DynamicObject> &objects) const {
        const DynamicObject &object = objects[requester];
        if (name.find('/') != std::string::npos) {
            std::optional<std::string> path = expand_origin(name, directory_of(object.path));
            if (path && is_x86_64_elf(*path))
                return path;
            return std::nullopt;
        }
        std::vector<std::string> directories;
        // glibc walks the DT_RPATHs of the requester and of each object that
        // loaded it, up to the executable, unless the requester has a DT_RUNPATH.
        if (!object.runpath)
            for (std::size_t i = requester;; i = objects[i].loader) {
                if (objects[i].rpath)
                    append_search_path(*objects[i].rpath, ":", directory_of(objects[i].path),
                                       directories);
                if (i == 0)
                    break;
            }
        directories.insert(directories.end(), library_path_.begin(), library_path_.end());
        if (object.runpath)
            append_search_path(*object.runpath, ":", directory_of(object.path), directories);
        directories.insert(directories.end(), system_.begin(), system_.end());
        for (const std::string &directory : directories) {
            std::string candidate = directory + "/" + name;
            if (is_x86_64_elf(candidate))
                return candidate;
        }
        return std::nullopt;
    }

private:
    std::vector<std::string> library_path_; // LD_LIBRARY_PATH
    std::vector<std::string> system_;       // ld.so.conf, then the defaults
};

ProcessModule predicted_module(const DynamicObject &object, bool main_executable) {
    ProcessModule module;
    module.path = object.path;
    module.open_path = object.path;
    module.main_executable = main_executable;
    struct stat st {};
    if (::stat(object.path.c_str(), &st) == 0)
        module.inode = st.st_ino;
    return module;
}

} // namespace

std::string ProcessModule::name() const {
    const std::size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool ProcessModule::matches(std::string_view pattern) const {
    if ((main_executable && glob_match(pattern, "a.out")) || glob_match(pattern, name()) ||
        glob_match(pattern, path))
        return true;
    // A library named without its version (libc.so) is its versioned file
    // (libc.so.6), as in dtrace.
    const std::string file = name();
    return !has_glob(pattern) && pattern.ends_with(".so") && file.starts_with(pattern) &&
           file.size() > pattern.size() + 1 && file[pattern.size()] == '.' &&
           file.find_first_not_of("0123456789.", pattern.size()) == std::string::npos;
}

std::optional<uint64_t> ProcessModule::address_of_offset(uint64_t offset) const {
    // Code is what uprobes want, so an executable mapping wins when the same
    // file page is mapped twice.
    std::optional<uint64_t> address;
    for (const MapsEntry &mapping : mappings) {
        if (offset < mapping.offset || offset - mapping.offset >= mapping.end - mapping.start)
            continue;
        if (mapping.executable)
            return mapping.start + (offset - mapping.offset);
        if (!address)
            address = mapping.start + (offset - mapping.offset);
    }
    return address;
}

std::optional<uint64_t> ProcessModule::offset_of_address(uint64_t address) const {
    for (const MapsEntry &mapping : mappings)
        if (address >= mapping.start && address < mapping.end)
            return mapping.offset + (address - mapping.start);
    return std::nullopt;
}

uint64_t kernel_device(dev_t device) {
    return (uint64_t(major(device)) << 20) | minor(device);
}

std::optional<FileIdentity> file_identity(const std::string &path) {
    struct stat status {};
    if (::stat(path.c_str(), &status) != 0)
        return std::nullopt;
    return FileIdentity{uint64_t(status.st_ino), kernel_device(status.st_dev)};
}

std::optional<ProcessModule> read_mapped_module(pid_t pid, uint64_t start, uint64_t end,
                                                uint64_t offset) {
    const std::string proc = "/proc/" + std::to_string(pid);
    const std::string mapped = proc + "/map_files/" + hex_digits(start) + "-" + hex_digits(end);
    std::optional<std::string> path = read_link(mapped);
    std::optional<FileIdentity> identity = file_identity(mapped);
    if (!path || !identity)
        return std::nullopt;
    ProcessModule module;
    if (path->ends_with(kDeletedSuffix))
        path->resize(path->size() - kDeletedSuffix.size());
    module.path = std::move(*path);
    module.inode = identity->inode;
    module.device = identity->device;
    MapsEntry mapping;
    mapping.start = start;
    mapping.end = end;
    mapping.readable = mapping.executable = true;
    mapping.offset = offset;
    mapping.device_major = uint32_t(identity->device >> 20);
    mapping.device_minor = uint32_t(identity->device & 0xfffff);
    mapping.inode = identity->inode;
    mapping.path = module.path;
    module.mappings.push_back(std::move(mapping));
    module.open_path = open_path_of(proc, module);
    // The main executable is the file /proc/PID/exe leads to.
    module.main_executable = file_identity(proc + "/exe") == identity;
    return module;
}

Result<std::vector<ProcessModule>> read_process_modules(pid_t pid) {
    const std::string proc = "/proc/" + std::to_string(pid);
    const std::string maps_path = proc + "/maps";
    int errnum = 0;
    const std::string text = read_whole_file(maps_path, errnum);
    if (errnum == ENOENT || errnum == ESRCH)
        return Error("pid " + std::to_string(pid) + ": No such process", ESRCH);
    if (errnum)
        return Error("pid " + std::to_string(pid) + ": cannot read " + maps_path + ": " +
                         std::strerror(errnum),
                     errnum);

    // The main executable is told by path, or failing that (a path the
    // kernel writes differently) by the file /proc/PID/exe leads to.
    std::string exe_path = read_link(proc + "/exe").value_or("");
    if (exe_path.ends_with(kDeletedSuffix))
        exe_path.resize(exe_path.size() - kDeletedSuffix.size());
    struct stat exe_stat {};
    const bool exe_known = ::stat((proc + "/exe").c_str(), &exe_stat) == 0;

    std::vector<ProcessModule> modules;
    std::map<std::tuple<uint64_t, uint32_t, uint32_t, std::string>, std::size_t> index;
    for (MapsEntry &entry : parse_maps(text)) {
        if (!is_file_backed(entry))
            continue;
        const auto [slot, added] = index.try_emplace(
            {entry.inode, entry.device_major, entry.device_minor, entry.path}, modules.size());
        if (added) {
            modules.emplace_back();
            modules.back().path = entry.path;
            modules.back().inode = entry.inode;
            modules.back().device = (uint64_t(entry.device_major) << 20) | entry.device_minor;
        }
        modules[slot->second].mappings.push_back(std::move(entry));
    }
    std::erase_if(modules, [](const ProcessModule &module) {
        return std::none_of(module.mappings.begin(), module.mappings.end(),
                            [](const MapsEntry &mapping) { return mapping.executable; });
    });

    const auto is_exe = [&](const ProcessModule &module) {
        return !exe_path.empty() && module.path == exe_path;
    };
    auto main = std::find_if(modules.begin(), modules.end(), is_exe);
    if (main == modules.end() && exe_known)
        main = std::find_if(modules.begin(), modules.end(), [&](const ProcessModule &module) {
            const MapsEntry &mapping = module.mappings.front();
            return module.inode == exe_stat.st_ino &&
                   makedev(mapping.device_major, mapping.device_minor) == exe_stat.st_dev;
        });
    if (main != modules.end()) {
        main->main_executable = true;
        std::rotate(modules.begin(), main, main + 1);
    }
    for (ProcessModule &module : modules)
        module.open_path = open_path_of(proc, module);
    return modules;
}

std::optional<std::string> executable_interpreter(const std::string &executable) {
    Result<DynamicObject> object = read_dynamic_object(executable);
    if (!object || object->interpreter.empty())
        return std::nullopt;
    return object->interpreter;
}

Result<std::vector<ProcessModule>> predict_executable_modules(const std::string &executable) {
    Result<DynamicObject> main = read_dynamic_object(executable);
    if (!main)
        return std::move(main).error();
    std::vector<DynamicObject> objects{std::move(*main)};
    const LibrarySearch search(objects.front());

    // Libraries are loaded once, whatever name asks for them: a DT_NEEDED
    // equal to a loaded object's soname is that object, and two names that
    // lead to one file load it once.
    std::set<std::string> names, paths{objects.front().path};
    std::optional<DynamicObject> interpreter;
    if (!objects.front().interpreter.empty()) {
        Result<DynamicObject> loaded = read_dynamic_object(objects.front().interpreter);
        if (loaded) {
            if (!loaded->soname.empty())
                names.insert(loaded->soname);
            paths.insert(loaded->path);
            interpreter = std::move(*loaded);
        }
    }
    for (std::size_t i = 0; i < objects.size(); ++i) {
        const std::vector<std::string> needed = objects[i].needed;
        for (const std::string &name : needed) {
            if (!names.insert(name).second)
                continue;
            const std::optional<std::string> found = search.find(name, i, objects);
            if (!found)
                continue;
            Result<DynamicObject> loaded = read_dynamic_object(*found);
            if (!loaded || !paths.insert(loaded->path).second)
                continue;
            loaded->loader = i;
            if (!loaded->soname.empty())
                names.insert(loaded->soname);
            objects.push_back(std::move(*loaded));
        }
    }

    std::vector<ProcessModule> modules;
    for (std::size_t i = 0; i < objects.size(); ++i)
        modules.push_back(predicted_module(objects[i], i == 0));
    if (interpreter)
        modules.push_back(predicted_module(*interpreter, false));
    return modules;
}

} // namespace dtx::trace
