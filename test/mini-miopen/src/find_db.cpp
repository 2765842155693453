// User find-db of the mini MIOpen (format described in find_db.hpp).
#include <miopen/db.hpp>
#include <miopen/env.hpp>
#include <miopen/find_controls.hpp>
#include <miopen/find_db.hpp>
#include <miopen/handle.hpp>
#include <miopen/logger.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <sstream>

namespace miopen {

namespace fs = std::filesystem;

std::string GetUserDbDirectory()
{
    if(const auto p = env::value("MIOPEN_USER_DB_PATH"); p && !p->empty())
        return *p;
    const auto home = env::value("HOME");
    return (fs::path(home ? *home : std::string("/tmp")) / ".config" / "miopen").string();
}

std::string GetUserFindDbPath()
{
    return (fs::path(GetUserDbDirectory()) / "cpu_ref.HIP.ufdb.txt").string();
}

namespace {

struct RecordFormat
{
    char record = 0;
    char field  = 0;
};

// The separators, from the format's C entry point (find_db_format.cpp).
RecordFormat Format()
{
    RecordFormat f;
    if(miopen_mini_finddb_format_init(&f.record, &f.field) != 0)
        MIOPEN_LOG_W("find-db format entry point failed");
    return f;
}

std::string Serialize(const std::vector<FindDbEntry>& entries)
{
    const RecordFormat f = Format();
    std::ostringstream ss;
    for(std::size_t i = 0; i < entries.size(); ++i)
    {
        const auto& e = entries[i];
        if(i != 0)
            ss << f.record;
        ss << e.solver << ":" << e.time_ms << f.field << e.workspace << f.field << e.solver_id;
    }
    return ss.str();
}

// Parses "name:time,ws,id;..."; malformed items are skipped.
std::vector<FindDbEntry> Parse(const std::string& value)
{
    const RecordFormat f = Format();
    std::vector<FindDbEntry> out;
    std::istringstream items(value);
    std::string item;
    while(std::getline(items, item, f.record))
    {
        const auto colon = item.find(':');
        if(colon == std::string::npos)
            continue;
        FindDbEntry e{};
        e.solver = item.substr(0, colon);
        std::istringstream fields(item.substr(colon + 1));
        char c1 = 0, c2 = 0;
        if(fields >> e.time_ms >> c1 >> e.workspace >> c2 >> e.solver_id && c1 == f.field && c2 == f.field)
            out.push_back(e);
    }
    return out;
}

} // namespace

std::optional<std::vector<FindDbEntry>> FindDbLoad(const std::string& key)
{
    const auto contents = PlainTextDb(GetUserFindDbPath()).FindRecord(key);
    if(!contents)
        return std::nullopt;
    auto entries = Parse(*contents);
    if(entries.empty())
        return std::nullopt;
    return entries;
}

void FindDbStore(const std::string& key, const std::vector<FindDbEntry>& entries)
{
    PlainTextDb(GetUserFindDbPath()).StoreRecord(key, Serialize(entries));
}

std::vector<FindDbEntry> FindConvolution(Handle& handle,
                                         const ConvProblem& problem,
                                         miopenConvolutionDescriptor_t convDesc,
                                         const void* x,
                                         const void* w,
                                         const void* y,
                                         void* out,
                                         void* workspace,
                                         std::size_t workspace_size)
{
    // Internal use of the hidden (exported, undeclared) find-mode getter.
    int mode = static_cast<int>(FindMode::Normal);
    if(miopenHiddenGetConvolutionFindMode(convDesc, &mode) != miopenStatusSuccess)
        MIOPEN_THROW(miopenStatusInternalError, "cannot read the find mode");

    const auto key = problem.Key();
    if(auto recorded = FindDbLoad(key))
    {
        // Keep only records that name a solver of this direction we know.
        std::vector<FindDbEntry> usable;
        for(const auto& e : *recorded)
        {
            const auto* s = FindSolverByName(e.solver);
            if(s != nullptr && s->direction == problem.direction && s->id == e.solver_id)
                usable.push_back(e);
        }
        if(!usable.empty())
        {
            MIOPEN_LOG_I("find-db hit for " << key);
            std::stable_sort(usable.begin(), usable.end(), [](const auto& a, const auto& b) {
                return a.time_ms < b.time_ms;
            });
            return usable;
        }
    }

    std::vector<FindDbEntry> results;
    if(mode == static_cast<int>(FindMode::Fast))
    {
        // Fast mode: no benchmarking, no db update; heuristic order.
        for(const auto& s : GetSolvers(problem.direction))
            results.push_back({s.name, 0.0f, GetSolverWorkspaceSize(s, problem), s.id});
        return results;
    }

    for(const auto& s : GetSolvers(problem.direction))
    {
        const auto ws = GetSolverWorkspaceSize(s, problem);
        if(ws > 0 && (workspace == nullptr || workspace_size < ws))
        {
            MIOPEN_LOG_I2("skipping " << s.name << ": workspace too small");
            continue;
        }
        const auto start = std::chrono::steady_clock::now();
        RunConvSolution(handle, s, problem, x, w, y, out, workspace, workspace_size, 1.0f, 0.0f);
        const auto ms = std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() -
                                                                 start)
                            .count();
        results.push_back({s.name, ms, ws, s.id});
    }
    std::stable_sort(results.begin(), results.end(), [](const auto& a, const auto& b) {
        return a.time_ms < b.time_ms;
    });
    if(!results.empty())
        FindDbStore(key, results);
    return results;
}

} // namespace miopen
