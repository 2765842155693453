// Failure attribution seen by a framework: one group's call sequence (the
// argument, default `convolution`; each group's is its
// test/groups/<group>/faults.cpp), and after each call what
// the wrapper's own API and miopenGetErrorString say. test/forwarding/check_faults.py runs it with the
// hipDNN test bed's fault knobs. Records (test/consumers/test_protocol.hpp) on stdout: a `call` per
// call (its label, and forwarded_error.hpp's attribution fields), the `output` y[0] (7 unless a call
// wrote y), and `null_argument`: what miopenGetLastForwardedError(NULL) returns.
#include "faults.hpp"

#include <miopen/miopen.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace {

std::map<std::string, faults::Sequence>& sequences()
{
    static std::map<std::string, faults::Sequence> all;
    return all;
}

void null_argument()
{
    protocol::Record("null_argument").field("status", static_cast<int>(miopenGetLastForwardedError(nullptr))).emit();
}

} // namespace

namespace faults {

void report(const char* label, miopenStatus_t s)
{
    protocol::Record r("call");
    r.field("call", label);
    consumer::attribution(r, s).emit();
}

void output(float y0) { protocol::Record("output").field("name", "y[0]").field("value", y0).emit(); }

void after_a_non_forwarded_call()
{
    miopenTensorDescriptor_t extra;
    miopenCreateTensorDescriptor(&extra);
    report("after a non-forwarded call", miopenStatusSuccess);
    miopenDestroyTensorDescriptor(extra);
}

Registration::Registration(const char* name, Sequence run) { sequences()[name] = run; }

} // namespace faults

int main(int argc, char** argv)
{
    const std::string name = argc > 1 ? argv[1] : "convolution";
    const auto sequence    = sequences().find(name);
    if(sequence == sequences().end())
    {
        std::string known;
        for(const auto& [n, run] : sequences())
            known += (known.empty() ? "" : "|") + n;
        std::fprintf(stderr, "usage: faults_consumer [%s]\n", known.c_str());
        return 2;
    }
    miopenHandle_t h;
    if(miopenCreate(&h) != miopenStatusSuccess)
        return 3;
    faults::report("before any call", miopenStatusSuccess);
    sequence->second(h);
    null_argument();
    miopenDestroy(h);
    return 0;
}
