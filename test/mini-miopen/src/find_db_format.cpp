// The find-db record format, registered through a C entry point the way
// MIOpen registers its SQLite in-memory VFS (`miopen_sqlite3_memvfs_init`):
// defined in an `extern "C"` block, declared in no public header, and still
// exported, because the version script exports every `miopen*` C name. The
// wrapper must keep exporting it (RFC 0001 §4.3.1, survivors).
#include <miopen/find_db.hpp>

extern "C" {

int miopen_mini_finddb_format_init(char* record_separator, char* field_separator)
{
    if(record_separator == nullptr || field_separator == nullptr)
        return 1;
    *record_separator = ';';
    *field_separator  = ',';
    return 0;
}

} // extern "C"
