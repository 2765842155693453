// Cross-process and in-process locking of db files (see lock_file.hpp).
#include <miopen/lock_file.hpp>
#include <miopen/logger.hpp>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <iomanip>
#include <map>
#include <memory>
#include <sstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace miopen {

namespace fs = std::filesystem;

namespace {

// 64-bit FNV-1a, hex: a stable name for a directory (MIOpen uses md5).
std::string HashName(const std::string& text)
{
    std::uint64_t h = 0xcbf29ce484222325ull;
    for(const unsigned char c : text)
        h = (h ^ c) * 0x100000001b3ull;
    std::ostringstream ss;
    ss << std::hex << std::setw(16) << std::setfill('0') << h;
    return ss.str();
}

} // namespace

std::string LockFilePath(const std::string& db_path)
{
    std::error_code ec;
    fs::path dir = fs::temp_directory_path(ec);
    if(ec)
        dir = "/tmp";
    dir /= "miopen-lockfiles";
    if(!fs::exists(dir, ec))
    {
        fs::create_directories(dir, ec);
        // As MIOpen: every user of the machine shares the directory.
        fs::permissions(dir, fs::perms::all, ec);
    }
    const fs::path db(db_path);
    return (dir / (HashName(db.parent_path().string()) + "_" + db.filename().string() + ".lock"))
        .string();
}

LockFile& LockFile::ForDb(const std::string& db_path)
{
    static std::mutex mutex;
    // By lock file (several db paths may name one), and by db path so that
    // the lock file's name is worked out once per db.
    static std::map<std::string, std::unique_ptr<LockFile>> lock_files;
    static std::map<std::string, LockFile*> by_db;
    const std::lock_guard<std::mutex> guard(mutex);
    auto& known = by_db[db_path];
    if(known == nullptr)
    {
        const std::string lock_path = LockFilePath(db_path);
        auto& slot = lock_files[lock_path];
        if(slot == nullptr)
            slot = std::make_unique<LockFile>(lock_path);
        known = slot.get();
    }
    return *known;
}

LockFile::LockFile(const std::string& lock_path) : path(lock_path)
{
    fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if(fd < 0)
    {
        MIOPEN_LOG_W("cannot open the lock file " << path << ": " << std::strerror(errno));
        return;
    }
    ::fchmod(fd, 0666); // MIOpen: the lock file is everyone's (umask aside)
}

LockFile::~LockFile()
{
    if(fd >= 0)
        ::close(fd);
}

bool LockFile::FileLock(short type)
{
    if(fd < 0)
        return false;
    struct flock fl
    {
    };
    fl.l_type   = type;
    fl.l_whence = SEEK_SET; // l_start 0, l_len 0: the whole file
    int rc      = 0;
    do
        rc = ::fcntl(fd, F_SETLKW, &fl);
    while(rc != 0 && errno == EINTR);
    if(rc != 0)
        MIOPEN_LOG_W("lock file " << path << ": " << std::strerror(errno));
    return rc == 0;
}

void LockFile::lock()
{
    access.lock();
    FileLock(F_WRLCK);
}

void LockFile::unlock()
{
    FileLock(F_UNLCK);
    access.unlock();
}

void LockFile::lock_shared()
{
    access.lock_shared();
    const std::lock_guard<std::mutex> guard(readers_mutex);
    if(readers++ == 0)
        FileLock(F_RDLCK);
}

void LockFile::unlock_shared()
{
    {
        const std::lock_guard<std::mutex> guard(readers_mutex);
        if(--readers == 0)
            FileLock(F_UNLCK);
    }
    access.unlock_shared();
}

} // namespace miopen
