// Serialises access to a db file across threads and processes, the way
// MIOpen's LockFile does (src/include/miopen/lock_file.hpp, src/lock_file.cpp
// @2d1fd997): one object per lock path in the process, each pairing an
// in-process shared mutex with an advisory file lock on a separate lock file
// (MIOpen's boost::interprocess::file_lock is an fcntl record lock on POSIX,
// which is per process: hence the mutex for the threads of one process).
//
// Satisfies Lockable and SharedLockable, so std::unique_lock /
// std::shared_lock hold it.
#pragma once

#include <cstddef>
#include <mutex>
#include <shared_mutex>
#include <string>

namespace miopen {

// The lock file of a db file: <temp dir>/miopen-lockfiles/<hash of the db's
// directory>_<db file name>.lock (MIOpen: the same, the hash an md5).
std::string LockFilePath(const std::string& db_path);

class LockFile
{
public:
    // The process's one LockFile of the db file `db_path`, on
    // LockFilePath(db_path) (created on first use).
    static LockFile& ForDb(const std::string& db_path);

    explicit LockFile(const std::string& lock_path);
    ~LockFile();
    LockFile(const LockFile&)            = delete;
    LockFile& operator=(const LockFile&) = delete;

    void lock();
    void unlock();
    void lock_shared();
    void unlock_shared();

private:
    // Whole-file fcntl lock: F_RDLCK, F_WRLCK or F_UNLCK; false on failure
    // (logged). A failed lock leaves the db unprotected, as a failed
    // open of the lock file does.
    bool FileLock(short type);

    std::string path;
    int fd = -1;
    std::shared_mutex access;
    // fcntl read locks are not counted: the first of several reading
    // threads takes it and the last one gives it back.
    std::mutex readers_mutex;
    std::size_t readers = 0;
};

} // namespace miopen
