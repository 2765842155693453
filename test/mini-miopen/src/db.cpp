// Text db under a LockFile (see db.hpp).
#include <miopen/db.hpp>
#include <miopen/logger.hpp>

#include <filesystem>
#include <fstream>
#include <shared_mutex>
#include <vector>

namespace miopen {

namespace fs = std::filesystem;

namespace {

// The contents of `line` when it holds `key`.
std::optional<std::string> ContentsOf(const std::string& line, const std::string& key)
{
    const auto eq = line.find('=');
    if(eq != key.size() || line.compare(0, eq, key) != 0)
        return std::nullopt;
    return line.substr(eq + 1);
}

} // namespace

PlainTextDb::PlainTextDb(const std::string& db_path) : path(db_path), lock_file(LockFile::ForDb(db_path)) {}

std::unique_lock<LockFile> PlainTextDb::Exclusive()
{
#if MINI_MIOPEN_DB_TEST_UNLOCKED
    // Only the negative control of the db stress test (tests/db_stress)
    // builds this: stores race, so its check must see records lost.
    return {};
#else
    return std::unique_lock<LockFile>(lock_file);
#endif
}

std::optional<std::string> PlainTextDb::FindRecord(const std::string& key)
{
    const std::shared_lock<LockFile> lock(lock_file);
    std::ifstream in(path);
    std::string line;
    while(std::getline(in, line))
        if(auto contents = ContentsOf(line, key))
            return contents;
    return std::nullopt;
}

bool PlainTextDb::StoreRecord(const std::string& key, const std::string& contents)
{
    const auto lock = Exclusive();
    std::error_code ec;
    fs::create_directories(fs::path(path).parent_path(), ec);
    const std::string record = key + "=" + contents;
    std::vector<std::string> lines;
    bool replaced = false;
    {
        std::ifstream in(path);
        std::string line;
        while(std::getline(in, line))
        {
            if(line.empty())
                continue;
            if(ContentsOf(line, key))
            {
                line     = record;
                replaced = true;
            }
            lines.push_back(line);
        }
    }
    if(!replaced)
    {
        std::ofstream out(path, std::ios::app);
        if(!(out << record << "\n"))
        {
            MIOPEN_LOG_W("cannot append to the user find-db at " << path);
            return false;
        }
        return true;
    }
    const std::string temp = path + ".temp";
    {
        std::ofstream out(temp, std::ios::trunc);
        for(const auto& l : lines)
            out << l << "\n";
        if(!out)
        {
            MIOPEN_LOG_W("cannot write the user find-db at " << temp);
            return false;
        }
    }
    fs::rename(temp, path, ec);
    if(ec)
    {
        MIOPEN_LOG_W("cannot update the user find-db at " << path << ": " << ec.message());
        return false;
    }
    return true;
}

} // namespace miopen
