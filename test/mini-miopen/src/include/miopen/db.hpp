// A text db of "<key>=<contents>" lines, read and written under the db's
// LockFile, as MIOpen's PlainTextDb (src/db.cpp @2d1fd997): a lookup holds
// the lock shared, a store holds it exclusive across its read-modify-write,
// so concurrent stores from threads and processes neither fail nor lose one
// another's records.
#pragma once

#include <miopen/lock_file.hpp>

#include <mutex>
#include <optional>
#include <string>

namespace miopen {

class PlainTextDb
{
public:
    explicit PlainTextDb(const std::string& db_path);

    // The contents stored under `key`, if any.
    std::optional<std::string> FindRecord(const std::string& key);
    // Stores `contents` under `key`: a new key is appended, an existing one's
    // line rewritten (through "<db>.temp", renamed over the db). False, with
    // a warning, when the db cannot be written.
    bool StoreRecord(const std::string& key, const std::string& contents);

private:
    std::unique_lock<LockFile> Exclusive();

    std::string path;
    LockFile& lock_file;
};

} // namespace miopen
