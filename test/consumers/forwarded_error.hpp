// What the wrapper's own API says after a call (RFC §6.1 attribution), as
// protocol fields: the call's status, miopenGetLastForwardedError's record
// (outcome, hipDNN status, entry point, message) and miopenGetErrorString's
// text. The checkers read them with test/lib/protocol.py (check_faults.py,
// check_batchnorm_routing.py); the `[hipDNN-forwarded] ` prefix is theirs to
// look for (test/lib/wrapper_test.py).
#pragma once

#include <miopen/hipdnn_forwarding.h>
#include <miopen/miopen.h>

#include "test_protocol.hpp"

namespace consumer {

// Adds the attribution fields of a call that returned `s` to `r`.
inline protocol::Record& attribution(protocol::Record& r, miopenStatus_t s)
{
    r.field("status", static_cast<int>(s));
    miopenForwardedError_t e{};
    const miopenStatus_t got = miopenGetLastForwardedError(&e);
    r.field("record_status", static_cast<int>(got));
    if(got != miopenStatusSuccess)
        return r;
    return r.field("outcome", static_cast<int>(e.outcome))
        .field("hipdnn", static_cast<int>(e.hipdnnStatus))
        .field("entry", e.entryPoint)
        .field("errstr", miopenGetErrorString(s))
        .field("msg", e.message);
}

} // namespace consumer
