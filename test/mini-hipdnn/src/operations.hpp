// The operation types of the op folders (ops/<op>/): each folder defines its
// operation descriptors and registers each type here with a static
// OperationRegistration; the backend creates, names and flattens them
// through this table, so no shared file names an op folder's operation.
#pragma once

#include "descriptors.hpp"

namespace mh
{

struct OperationType
{
    hipdnnBackendDescriptorType_t type;
    // MINI_HIPDNN_TEST_FAIL_FINALIZE's token for the type
    const char* shortName;
    std::shared_ptr<Desc> (*create)(hipdnnBackendDescriptorType_t type);
    // The finalized descriptor as the engines get it: `op` arrives with
    // kind = the descriptor type, computeType 0 and every tensor index -1;
    // the folder fills slot / scalar / flag (its header says which is which),
    // tensor indices from graph.tensorIndex.
    void (*flatten)(const Desc& d, GraphDesc& graph, miniHipdnnOp_t& op);
};

// Registers `t` (static storage) at load; a type registered twice aborts.
struct OperationRegistration
{
    explicit OperationRegistration(const OperationType& t);
};

// The registered type, or null.
const OperationType* findOperationType(hipdnnBackendDescriptorType_t type);

} // namespace mh
