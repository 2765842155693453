// User find-db: a text file remembering Find*Algorithm results per problem.
//
// Location: directory from MIOPEN_USER_DB_PATH, default $HOME/.config/miopen,
// file "cpu_ref.HIP.ufdb.txt". One line per problem:
//   <problem key>=<solver name>:<time ms>,<workspace bytes>,<solver id>;...
// Lines are rewritten in place when a problem is searched again; every read and
// write holds the db's lock (db.hpp, PlainTextDb).
#pragma once

#include <miopen/convolution.hpp>

#include <optional>
#include <string>
#include <vector>

namespace miopen {

struct FindDbEntry
{
    std::string solver; // solver name
    float time_ms;
    std::size_t workspace;
    std::uint64_t solver_id;
};

std::string GetUserDbDirectory();
std::string GetUserFindDbPath();

std::optional<std::vector<FindDbEntry>> FindDbLoad(const std::string& key);
void FindDbStore(const std::string& key, const std::vector<FindDbEntry>& entries);

// The whole Find procedure for one direction: consult the find-db (unless the
// find mode says otherwise), else benchmark every solver on the user buffers
// and record the result. Entries come back fastest first.
std::vector<FindDbEntry> FindConvolution(Handle& handle,
                                         const ConvProblem& problem,
                                         miopenConvolutionDescriptor_t convDesc,
                                         const void* x,
                                         const void* w,
                                         const void* y,
                                         void* out,
                                         void* workspace,
                                         std::size_t workspace_size);

} // namespace miopen

// Separators of a find-db record (find_db_format.cpp); 0 on success.
extern "C" int miopen_mini_finddb_format_init(char* record_separator, char* field_separator);
