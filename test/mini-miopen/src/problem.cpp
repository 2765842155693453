// Find 2.0 problems: tensor registration and the search, which is the legacy
// Find's (the same user find-db, benchmarks and find mode) on buffers the
// options provide or the library allocates.
#include <miopen/driver_arguments.hpp>
#include <miopen/find_db.hpp>
#include <miopen/logger.hpp>
#include <miopen/problem.hpp>
#include <miopen/solution.hpp>

#include <algorithm>
#include <memory>

namespace miopen {

std::string TensorArgumentName(miopenTensorArgumentId_t id)
{
    switch(id)
    {
    case miopenTensorConvolutionX: return "miopenTensorConvolutionX";
    case miopenTensorConvolutionW: return "miopenTensorConvolutionW";
    case miopenTensorConvolutionY: return "miopenTensorConvolutionY";
    default: return "tensor argument " + std::to_string(static_cast<unsigned>(id));
    }
}

bool Problem::RegisterTensorDescriptor(miopenTensorArgumentId_t id, const TensorDescriptor& d)
{
    return tensors.emplace(id, d).second;
}

const TensorDescriptor& Problem::GetTensorDescriptorChecked(miopenTensorArgumentId_t id) const
{
    const auto it = tensors.find(id);
    if(it == tensors.end())
        MIOPEN_THROW(miopenStatusInvalidValue,
                     "Problem is missing " + TensorArgumentName(id) + " tensor descriptor.");
    return it->second;
}

ConvDirection Problem::GetConvDirection() const
{
    switch(static_cast<int>(direction))
    {
    case miopenProblemDirectionForward: return ConvDirection::Forward;
    case miopenProblemDirectionBackward: return ConvDirection::BackwardData;
    case miopenProblemDirectionBackwardWeights: return ConvDirection::BackwardWeights;
    default: break;
    }
    MIOPEN_THROW(miopenStatusNotImplemented, "Not a convolution direction");
}

namespace {

// Every registered tensor gets a buffer: the options' preallocated one, or one
// the search owns (a host scalar for scalar ids).
class SearchBuffers
{
public:
    SearchBuffers(const Problem& problem, const FindOptions& options)
    {
        for(const auto& [id, desc] : problem.tensors)
        {
            const auto pre = options.preallocated_tensors.find(id);
            if(pre != options.preallocated_tensors.end())
            {
                buffers[id] = pre->second;
                continue;
            }
            const bool scalar = (static_cast<unsigned>(id) & miopenTensorArgumentIsScalar) != 0;
            owned.emplace_back(scalar ? sizeof(std::uint64_t) : desc.GetNumBytes());
            buffers[id] = owned.back().data();
        }
    }
    void* operator[](miopenTensorArgumentId_t id) const { return buffers.at(id); }

private:
    std::vector<std::vector<char>> owned;
    std::map<miopenTensorArgumentId_t, void*> buffers;
};

// MIOpen keeps the fastest solution of each algorithm, then the first max.
std::vector<FindDbEntry> BestPerAlgorithm(std::vector<FindDbEntry> found, std::size_t max)
{
    std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
        return a.time_ms < b.time_ms;
    });
    std::vector<FindDbEntry> out;
    std::vector<miopenConvAlgorithm_t> seen;
    for(const auto& e : found)
    {
        const auto algo = FindSolverByName(e.solver)->algorithm;
        if(std::find(seen.begin(), seen.end(), algo) != seen.end())
            continue;
        seen.push_back(algo);
        out.push_back(e);
    }
    out.resize(std::min(out.size(), max));
    return out;
}

void SortResults(miopenFindResultsOrder_t order, std::vector<Solution>& results)
{
    switch(order)
    {
    case miopenFindResultsOrderByTime:
        std::stable_sort(results.begin(), results.end(), [](const auto& a, const auto& b) {
            return a.time < b.time;
        });
        return;
    case miopenFindResultsOrderByWorkspaceSize:
        std::stable_sort(results.begin(), results.end(), [](const auto& a, const auto& b) {
            return a.workspace < b.workspace;
        });
        return;
    }
    MIOPEN_THROW(miopenStatusNotImplemented, "Unknown results order");
}

} // namespace

void Problem::LogFindDriverCommand() const
{
    const auto& x = GetTensorDescriptorChecked(miopenTensorConvolutionX);
    const auto& w = GetTensorDescriptorChecked(miopenTensorConvolutionW);
    const auto& y = GetTensorDescriptorChecked(miopenTensorConvolutionY);
    if(IsLoggingCmd())
        debug::LogCmdFindConvolution(x, w, conv, y, debug::ToDriverDirection(GetConvDirection()), 0);
}

std::vector<Solution>
Problem::FindSolutions(Handle& handle, const FindOptions& options, std::size_t max_solutions) const
{
    const SearchBuffers buffers(*this, options);
    if(tensors.size() != 3)
        MIOPEN_THROW(miopenStatusInvalidValue,
                     "Convolution problem should have exactly three tensor descriptors.");
    const auto& x_desc = GetTensorDescriptorChecked(miopenTensorConvolutionX);
    const auto& w_desc = GetTensorDescriptorChecked(miopenTensorConvolutionW);
    const auto& y_desc = GetTensorDescriptorChecked(miopenTensorConvolutionY);
    auto conv_desc     = conv; // the find-mode getter takes a handle of its own
    const ConvProblem p(x_desc, w_desc, y_desc, conv_desc, GetConvDirection());

    std::vector<char> owned_workspace;
    void* workspace            = nullptr;
    std::size_t workspace_size = 0;
    if(options.preallocated_workspace)
    {
        workspace      = options.preallocated_workspace->buffer;
        workspace_size = options.preallocated_workspace->size;
    }
    else
    {
        workspace_size = std::min(options.workspace_limit, GetMaxWorkspaceSize(p));
        owned_workspace.resize(workspace_size);
        workspace = workspace_size != 0 ? owned_workspace.data() : nullptr;
    }

    void* x = buffers[miopenTensorConvolutionX];
    void* w = buffers[miopenTensorConvolutionW];
    void* y = buffers[miopenTensorConvolutionY];
    const auto found = FindConvolution(handle,
                                       p,
                                       to_handle(&conv_desc),
                                       x,
                                       w,
                                       y,
                                       ConvOutputBuffer(p.direction, x, w, y),
                                       workspace,
                                       workspace_size);

    std::vector<Solution> results;
    for(const auto& e : BestPerAlgorithm(found, max_solutions))
    {
        Solution s;
        s.time      = e.time_ms;
        s.workspace = e.workspace;
        s.solver_id = e.solver_id;
        s.problem   = *this;
        results.push_back(std::move(s));
    }
    SortResults(options.results_order, results);
    return results;
}

} // namespace miopen
