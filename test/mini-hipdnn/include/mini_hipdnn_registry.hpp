// The tables the op folders (test/mini-hipdnn/ops/<op>/) register into at
// load: the backend's operation types, the reference engine's operations, the
// MIOpen provider's plans. Each binary has its own table per entry type; the
// shared code finds an entry by a predicate, so no shared file names an op
// folder's entry. (Test bed only; C++.)
#pragma once

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace mini_hipdnn
{

// The entries of one type, in registration order (entries have static storage).
template <typename Entry>
std::vector<const Entry*>& registry()
{
    static std::vector<const Entry*> entries;
    return entries;
}

// The first entry for which `match` holds, or null.
template <typename Entry, typename Match>
const Entry* findEntry(Match match)
{
    for(const Entry* e : registry<Entry>())
    {
        if(match(*e))
        {
            return e;
        }
    }
    return nullptr;
}

// Adds `e`; when `clash` holds for an entry already there, the build put two
// op folders on one key: says `what` on stderr and aborts at load.
template <typename Entry, typename Clash>
void addEntry(const Entry& e, Clash clash, const char* what)
{
    if(findEntry<Entry>(clash) != nullptr)
    {
        std::fprintf(stderr, "mini-hipdnn: %s registered twice\n", what);
        std::abort();
    }
    registry<Entry>().push_back(&e);
}

} // namespace mini_hipdnn
