// mini-hipdnn backend descriptors (test bed; written for this project).
//
// Status codes follow hipDNN's documented/observed behaviour; see README.md
// for the facts table and the hipDNN source file each one comes from.
#include "descriptors.hpp"

#include "attributes.hpp"
#include "mini_hipdnn_registry.hpp"
#include "operations.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>

namespace mh
{


// ---------------------------------------------------------------------------
// the op folders' operation types
OperationRegistration::OperationRegistration(const OperationType& t)
{
    mini_hipdnn::addEntry(t, [&](const OperationType& o) { return o.type == t.type; }, "a descriptor type");
}

const OperationType* findOperationType(hipdnnBackendDescriptorType_t type)
{
    return mini_hipdnn::findEntry<OperationType>([&](const OperationType& o) { return o.type == type; });
}

// ---------------------------------------------------------------------------
// test-only fault knobs
namespace
{
struct TypeName
{
    hipdnnBackendDescriptorType_t type;
    const char* name;
};
const TypeName kTypeNames[] = {
    {HIPDNN_BACKEND_ENGINE_DESCRIPTOR, "ENGINE"},
    {HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, "ENGINECFG"},
    {HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR, "KNOB_CHOICE"},
    {HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, "ENGINEHEUR"},
    {HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, "EXECUTION_PLAN"},
    {HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, "OPERATIONGRAPH"},
    {HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, "VARIANT_PACK"},
    {HIPDNN_BACKEND_TENSOR_DESCRIPTOR, "TENSOR"},
    {HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR, "CONVOLUTION_FORWARD"},
    {HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR, "CONVOLUTION_BACKWARD_FILTER"},
    {HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR, "POINTWISE"},
    {HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR, "CONVOLUTION_BACKWARD_DATA"},
};

// MINI_HIPDNN_TEST_FAIL_FINALIZE=<token>[,<token>...]; a token is "all", a
// descriptor type number, one of the short names above or an op folder's
// operation's short name (OperationType::shortName).
bool finalizeKnobHits(hipdnnBackendDescriptorType_t type)
{
    std::string v = envString("MINI_HIPDNN_TEST_FAIL_FINALIZE");
    if(v.empty() || v == "0")
    {
        return false;
    }
    std::stringstream ss(v);
    std::string tok;
    while(std::getline(ss, tok, ','))
    {
        if(tok == "all" || tok == "ALL" || tok == std::to_string(static_cast<int>(type)))
        {
            return true;
        }
        for(const auto& tn : kTypeNames)
        {
            if(tn.type == type && tok == tn.name)
            {
                return true;
            }
        }
        const OperationType* op = findOperationType(type);
        if(op != nullptr && tok == op->shortName)
        {
            return true;
        }
    }
    return false;
}
} // namespace

void Desc_finalize(Desc& d)
{
    failIf(d.finalized, HIPDNN_STATUS_BAD_PARAM, "hipdnnBackendFinalize: descriptor is already finalized");
    if(finalizeKnobHits(d.type))
    {
        fail(HIPDNN_STATUS_INTERNAL_ERROR, "hipdnnBackendFinalize: failed by MINI_HIPDNN_TEST_FAIL_FINALIZE (test-bed knob)");
    }
    d.doFinalize();
    d.finalized = true;
}

// ---------------------------------------------------------------------------
// tensor
void TensorDesc::set(hipdnnBackendAttributeName_t n, hipdnnBackendAttributeType_t t, int64_t c, const void* e)
{
    const char* w = "TensorDescriptor::setAttribute";
    requireOpenForSet(*this, w);
    switch(n)
    {
    case HIPDNN_ATTR_TENSOR_UNIQUE_ID: setScalar(uid, HIPDNN_TYPE_INT64, t, c, e, w); break;
    case HIPDNN_ATTR_TENSOR_DATA_TYPE:
    {
        hipdnnDataType_t dt{};
        setScalar(dt, HIPDNN_TYPE_DATA_TYPE, t, c, e, w);
        failIf(bytesOf(dt) == 0, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": unknown data type");
        dataType = dt;
        dataTypeSet = true;
        break;
    }
    case HIPDNN_ATTR_TENSOR_DIMENSIONS: setInt64Vector(dims, t, c, e, w); break;
    case HIPDNN_ATTR_TENSOR_STRIDES: setInt64Vector(strides, t, c, e, w); break;
    case HIPDNN_ATTR_TENSOR_IS_VIRTUAL: setScalar(isVirtual, HIPDNN_TYPE_BOOLEAN, t, c, e, w); break;
    case HIPDNN_ATTR_TENSOR_BYTE_ALIGNMENT:
    {
        failIf(revisionShape(RevisionShape::NoTensorAlignment), HIPDNN_STATUS_NOT_SUPPORTED,
               std::string(w) + ": " + attrName(n) + " is not supported (MINI_HIPDNN_TEST_REVISION_SHAPE)");
        // As hipDNN: any value is taken (one of 0 or less checks nothing at execute).
        setScalar(byteAlignment, HIPDNN_TYPE_INT64, t, c, e, w);
        break;
    }
    case HIPDNN_ATTR_TENSOR_NAME_EXT: setChars(name, t, c, e, w); break;
    case HIPDNN_ATTR_TENSOR_VALUE_EXT:
    {
        // As hipDNN: CHAR bytes, exactly one element of the type set before.
        failIf(t != HIPDNN_TYPE_CHAR, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": TENSOR_VALUE must be HIPDNN_TYPE_CHAR");
        failIf(e == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, std::string(w) + ": arrayOfElements is null");
        failIf(!dataTypeSet, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": data type must be set before tensor value");
        failIf(c != bytesOf(dataType), HIPDNN_STATUS_BAD_PARAM,
               std::string(w) + ": elementCount does not match data type byte size");
        const auto* b = static_cast<const uint8_t*>(e);
        value.assign(b, b + c);
        break;
    }
    default: unknownAttr(n, w);
    }
}

void TensorDesc::get(hipdnnBackendAttributeName_t n,
                     hipdnnBackendAttributeType_t t,
                     int64_t r,
                     int64_t* c,
                     void* e) const
{
    const char* w = "TensorDescriptor::getAttribute";
    requireFinalizedForGet(*this, w);
    switch(n)
    {
    case HIPDNN_ATTR_TENSOR_UNIQUE_ID: getScalar(uid, HIPDNN_TYPE_INT64, t, r, c, e, w); break;
    case HIPDNN_ATTR_TENSOR_DATA_TYPE: getScalar(dataType, HIPDNN_TYPE_DATA_TYPE, t, r, c, e, w); break;
    case HIPDNN_ATTR_TENSOR_DIMENSIONS: getInt64Vector(dims, t, r, c, e, w); break;
    case HIPDNN_ATTR_TENSOR_STRIDES: getInt64Vector(strides, t, r, c, e, w); break;
    case HIPDNN_ATTR_TENSOR_IS_VIRTUAL: getScalar(isVirtual, HIPDNN_TYPE_BOOLEAN, t, r, c, e, w); break;
    case HIPDNN_ATTR_TENSOR_BYTE_ALIGNMENT: getScalar(byteAlignment, HIPDNN_TYPE_INT64, t, r, c, e, w); break;
    default: unknownAttr(n, w);
    }
}

void TensorDesc::doFinalize()
{
    const char* w = "TensorDescriptor::finalize";
    failIf(dims.empty(), HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": dimensions not set");
    failIf(strides.empty(), HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": strides not set");
    failIf(dims.size() != strides.size(), HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": dims/strides size mismatch");
    failIf(!dataTypeSet, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": data type not set");
}

// ---------------------------------------------------------------------------
// convolution operations (forward / backward data / backward filter)
ConvDesc::ConvDesc(hipdnnBackendDescriptorType_t t) : Desc(t)
{
    switch(t)
    {
    case HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR:
        kind = MINI_HIPDNN_OP_CONV_FWD;
        attrX = HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X;
        attrW = HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W;
        attrY = HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y;
        label = "ConvolutionFwdOperationDescriptor";
        break;
    case HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR:
        kind = MINI_HIPDNN_OP_CONV_BWD_DATA;
        attrX = HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DX;
        attrW = HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_W;
        attrY = HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DY;
        label = "ConvolutionBwdOperationDescriptor";
        break;
    default:
        kind = MINI_HIPDNN_OP_CONV_BWD_FILTER;
        attrX = HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_X;
        attrW = HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DW;
        attrY = HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DY;
        label = "ConvolutionWrwOperationDescriptor";
        break;
    }
}

void ConvDesc::set(hipdnnBackendAttributeName_t n, hipdnnBackendAttributeType_t t, int64_t c, const void* e)
{
    std::string ws = label + "::setAttribute";
    const char* what = ws.c_str();
    requireOpenForSet(*this, what);
    if(n == attrX || n == attrW || n == attrY)
    {
        auto td = takeDesc<TensorDesc>(t, c, e, HIPDNN_BACKEND_TENSOR_DESCRIPTOR, what);
        (n == attrX ? x : n == attrW ? tw_ : y) = td;
        return;
    }
    switch(n)
    {
    case HIPDNN_ATTR_OPERATION_NAME_EXT: setChars(name, t, c, e, what); break;
    case HIPDNN_ATTR_CONVOLUTION_PRE_PADDINGS: setInt64Vector(prePad, t, c, e, what); break;
    case HIPDNN_ATTR_CONVOLUTION_POST_PADDINGS: setInt64Vector(postPad, t, c, e, what); break;
    case HIPDNN_ATTR_CONVOLUTION_FILTER_STRIDES: setInt64Vector(stride, t, c, e, what); break;
    case HIPDNN_ATTR_CONVOLUTION_DILATIONS: setInt64Vector(dilation, t, c, e, what); break;
    case HIPDNN_ATTR_CONVOLUTION_CONV_MODE:
    {
        hipdnnConvolutionMode_t m{};
        if(revisionShape(RevisionShape::ConvModeInt64))
        {
            // The older revision's form: the data SDK's ConvMode as an INT64.
            int64_t sdk = 0;
            setScalar(sdk, HIPDNN_TYPE_INT64, t, c, e, what);
            m = convModeFromSdk(sdk);
        }
        else
        {
            setScalar(m, HIPDNN_TYPE_CONVOLUTION_MODE, t, c, e, what);
        }
        failIf(m != HIPDNN_CONVOLUTION && m != HIPDNN_CROSS_CORRELATION,
               HIPDNN_STATUS_BAD_PARAM,
               std::string(what) + ": invalid convolution mode");
        mode = m;
        modeSet = true;
        break;
    }
    case HIPDNN_ATTR_CONVOLUTION_COMP_TYPE:
    {
        hipdnnDataType_t dt{};
        setScalar(dt, HIPDNN_TYPE_DATA_TYPE, t, c, e, what);
        failIf(bytesOf(dt) == 0, HIPDNN_STATUS_BAD_PARAM, std::string(what) + ": unknown data type");
        compType = dt;
        compTypeSet = true;
        break;
    }
    default: unknownAttr(n, what);
    }
}

void ConvDesc::get(hipdnnBackendAttributeName_t n,
                   hipdnnBackendAttributeType_t t,
                   int64_t r,
                   int64_t* c,
                   void* e) const
{
    std::string ws = label + "::getAttribute";
    const char* what = ws.c_str();
    requireFinalizedForGet(*this, what);
    if(n == attrX || n == attrW || n == attrY)
    {
        giveDesc(n == attrX ? x : n == attrW ? tw_ : y, t, r, c, e, what);
        return;
    }
    switch(n)
    {
    case HIPDNN_ATTR_CONVOLUTION_PRE_PADDINGS: getInt64Vector(prePad, t, r, c, e, what); break;
    case HIPDNN_ATTR_CONVOLUTION_POST_PADDINGS: getInt64Vector(postPad, t, r, c, e, what); break;
    case HIPDNN_ATTR_CONVOLUTION_FILTER_STRIDES: getInt64Vector(stride, t, r, c, e, what); break;
    case HIPDNN_ATTR_CONVOLUTION_DILATIONS: getInt64Vector(dilation, t, r, c, e, what); break;
    case HIPDNN_ATTR_CONVOLUTION_CONV_MODE: getScalar(mode, HIPDNN_TYPE_CONVOLUTION_MODE, t, r, c, e, what); break;
    case HIPDNN_ATTR_CONVOLUTION_COMP_TYPE: getScalar(compType, HIPDNN_TYPE_DATA_TYPE, t, r, c, e, what); break;
    default: unknownAttr(n, what);
    }
}

void ConvDesc::doFinalize()
{
    std::string what = label + "::finalize";
    failIf(!x || !tw_ || !y, HIPDNN_STATUS_BAD_PARAM, what + ": a tensor is not set");
    failIf(prePad.empty() || postPad.empty() || stride.empty() || dilation.empty(),
           HIPDNN_STATUS_BAD_PARAM,
           what + ": paddings, strides and dilations must all be set");
    failIf(!compTypeSet, HIPDNN_STATUS_BAD_PARAM, what + ": compute data type not set");
    failIf(!modeSet, HIPDNN_STATUS_BAD_PARAM, what + ": convolution mode not set");
}

// ---------------------------------------------------------------------------
// pointwise operation
void PointwiseDesc::set(hipdnnBackendAttributeName_t n, hipdnnBackendAttributeType_t t, int64_t c, const void* e)
{
    const char* w = "PointwiseOperationDescriptor::setAttribute";
    requireOpenForSet(*this, w);
    switch(n)
    {
    case HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT: in0 = takeDesc<TensorDesc>(t, c, e, HIPDNN_BACKEND_TENSOR_DESCRIPTOR, w); break;
    case HIPDNN_ATTR_OPERATION_POINTWISE_IN_1_EXT: in1 = takeDesc<TensorDesc>(t, c, e, HIPDNN_BACKEND_TENSOR_DESCRIPTOR, w); break;
    case HIPDNN_ATTR_OPERATION_POINTWISE_OUT_0_EXT: out0 = takeDesc<TensorDesc>(t, c, e, HIPDNN_BACKEND_TENSOR_DESCRIPTOR, w); break;
    case HIPDNN_ATTR_POINTWISE_MODE:
    {
        hipdnnPointwiseMode_t m{};
        setScalar(m, HIPDNN_TYPE_POINTWISE_MODE, t, c, e, w);
        failIf(m < 1 || m > 47, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": invalid pointwise mode");
        mode = m;
        modeSet = true;
        break;
    }
    case HIPDNN_ATTR_OPERATION_NAME_EXT: setChars(name, t, c, e, w); break;
    case HIPDNN_ATTR_POINTWISE_RELU_LOWER_CLIP:
        setScalar(lowerClip, HIPDNN_TYPE_FLOAT, t, c, e, w);
        hasLowerClip = true;
        break;
    case HIPDNN_ATTR_POINTWISE_RELU_UPPER_CLIP:
        setScalar(upperClip, HIPDNN_TYPE_FLOAT, t, c, e, w);
        hasUpperClip = true;
        break;
    case HIPDNN_ATTR_POINTWISE_MATH_PREC:
    {
        hipdnnDataType_t dt{};
        setScalar(dt, HIPDNN_TYPE_DATA_TYPE, t, c, e, w);
        failIf(bytesOf(dt) == 0, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": unknown data type");
        mathPrec = dt;
        mathPrecSet = true;
        break;
    }
    default: unknownAttr(n, w);
    }
}

void PointwiseDesc::get(hipdnnBackendAttributeName_t n,
                        hipdnnBackendAttributeType_t t,
                        int64_t r,
                        int64_t* c,
                        void* e) const
{
    const char* w = "PointwiseOperationDescriptor::getAttribute";
    requireFinalizedForGet(*this, w);
    switch(n)
    {
    case HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT: giveDesc(in0, t, r, c, e, w); break;
    case HIPDNN_ATTR_OPERATION_POINTWISE_IN_1_EXT: giveDesc(in1, t, r, c, e, w); break;
    case HIPDNN_ATTR_OPERATION_POINTWISE_OUT_0_EXT: giveDesc(out0, t, r, c, e, w); break;
    case HIPDNN_ATTR_POINTWISE_MODE: getScalar(mode, HIPDNN_TYPE_POINTWISE_MODE, t, r, c, e, w); break;
    case HIPDNN_ATTR_POINTWISE_MATH_PREC: getScalar(mathPrec, HIPDNN_TYPE_DATA_TYPE, t, r, c, e, w); break;
    case HIPDNN_ATTR_POINTWISE_RELU_LOWER_CLIP:
    case HIPDNN_ATTR_POINTWISE_RELU_UPPER_CLIP:
    {
        bool has = n == HIPDNN_ATTR_POINTWISE_RELU_LOWER_CLIP ? hasLowerClip : hasUpperClip;
        float v = n == HIPDNN_ATTR_POINTWISE_RELU_LOWER_CLIP ? lowerClip : upperClip;
        failIf(t != HIPDNN_TYPE_FLOAT, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": wrong attribute type");
        if(!has)
        {
            if(c != nullptr)
            {
                *c = 0;
            }
            break;
        }
        getScalar(v, HIPDNN_TYPE_FLOAT, t, r, c, e, w);
        break;
    }
    default: unknownAttr(n, w);
    }
}

void PointwiseDesc::doFinalize()
{
    const char* w = "PointwiseOperationDescriptor::finalize";
    failIf(!in0, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": IN_0 not set");
    failIf(!out0, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": OUT_0 not set");
    failIf(!mathPrecSet, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": math precision not set");
    failIf(!modeSet, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": mode not set");
}

// ---------------------------------------------------------------------------
// operation graph
void GraphDesc::set(hipdnnBackendAttributeName_t n, hipdnnBackendAttributeType_t t, int64_t c, const void* e)
{
    const char* w = "GraphDescriptor::setAttribute";
    requireOpenForSet(*this, w);
    switch(n)
    {
    case HIPDNN_ATTR_OPERATIONGRAPH_HANDLE:
    {
        failIf(t != HIPDNN_TYPE_HANDLE, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": wrong attribute type");
        failIf(c != 1, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": elementCount must be 1");
        failIf(e == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, std::string(w) + ": arrayOfElements is null");
        auto h = *static_cast<const hipdnnHandle_t*>(e);
        failIf(h == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, std::string(w) + ": handle is null");
        handle = h;
        engines = h->engines;
        break;
    }
    case HIPDNN_ATTR_OPERATIONGRAPH_OPS:
    {
        failIf(t != HIPDNN_TYPE_BACKEND_DESCRIPTOR, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": wrong attribute type");
        failIf(e == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, std::string(w) + ": arrayOfElements is null");
        failIf(c < 0, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": negative elementCount");
        const auto* handles = static_cast<const hipdnnBackendDescriptor_t*>(e);
        std::vector<std::shared_ptr<Desc>> add;
        for(int64_t i = 0; i < c; ++i)
        {
            auto d = lookup(handles[i]);
            failIf(d == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, std::string(w) + ": operation is null or invalid");
            failIf(!d->finalized, HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED, std::string(w) + ": operation is not finalized");
            failIf(!d->isOperation(), HIPDNN_STATUS_NOT_SUPPORTED, std::string(w) + ": descriptor is not an operation");
            add.push_back(d);
        }
        ops.insert(ops.end(), add.begin(), add.end());
        break;
    }
    default: unknownAttr(n, w);
    }
}

void GraphDesc::get(hipdnnBackendAttributeName_t n,
                    hipdnnBackendAttributeType_t t,
                    int64_t r,
                    int64_t* c,
                    void* e) const
{
    const char* w = "GraphDescriptor::getAttribute";
    switch(n)
    {
    case HIPDNN_ATTR_OPERATIONGRAPH_OPS:
    {
        failIf(t != HIPDNN_TYPE_BACKEND_DESCRIPTOR, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": wrong attribute type");
        auto count = static_cast<int64_t>(ops.size());
        if(countOnly(r, c, e, count, w))
        {
            return;
        }
        failIf(r < count, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": requestedElementCount < operation count");
        if(c != nullptr)
        {
            *c = count;
        }
        auto* out = static_cast<hipdnnBackendDescriptor_t*>(e);
        for(size_t i = 0; i < ops.size(); ++i)
        {
            out[i] = pack(ops[i]);
        }
        break;
    }
    default: unknownAttr(n, w);
    }
}

namespace
{
void copyShape(const TensorDesc& t, miniHipdnnTensor_t& out)
{
    out.uid = t.uid;
    out.dataType = t.dataType;
    out.isVirtual = t.isVirtual ? 1 : 0;
    out.nbDims = static_cast<int32_t>(t.dims.size());
    for(size_t i = 0; i < t.dims.size(); ++i)
    {
        out.dims[i] = t.dims[i];
        out.strides[i] = t.strides[i];
    }
}
} // namespace

int32_t GraphDesc::tensorIndex(const std::shared_ptr<TensorDesc>& t)
{
    if(!t)
    {
        return -1;
    }
    for(size_t i = 0; i < tensorDescs.size(); ++i)
    {
        if(tensorDescs[i]->uid == t->uid)
        {
            failIf(tensorDescs[i] != t,
                   HIPDNN_STATUS_BAD_PARAM,
                   "GraphDescriptor::finalize: tensor UID " + std::to_string(t->uid)
                       + " is used by two different tensor descriptors");
            return static_cast<int32_t>(i);
        }
    }
    failIf(t->dims.size() > MINI_HIPDNN_MAX_DIMS,
           HIPDNN_STATUS_NOT_SUPPORTED,
           "GraphDescriptor::finalize: tensor rank above the test bed's limit");
    tensorDescs.push_back(t);
    miniHipdnnTensor_t flat{};
    copyShape(*t, flat);
    tensors.push_back(flat);
    return static_cast<int32_t>(tensors.size() - 1);
}

void GraphDesc::doFinalize()
{
    const char* w = "GraphDescriptor::finalize";
    failIf(handle == nullptr, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": handle is not set");
    failIf(ops.empty(), HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": no operations set");
    tensorDescs.clear();
    tensors.clear();
    flatOps.clear();
    for(const auto& d : ops)
    {
        miniHipdnnOp_t op{};
        op.in1 = -1;
        if(d->type == HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR)
        {
            auto& p = static_cast<const PointwiseDesc&>(*d);
            op.kind = MINI_HIPDNN_OP_POINTWISE;
            op.computeType = p.mathPrec;
            op.pwMode = p.mode;
            op.in0 = tensorIndex(p.in0);
            op.in1 = tensorIndex(p.in1);
            op.out0 = tensorIndex(p.out0);
            op.hasLowerClip = p.hasLowerClip ? 1 : 0;
            op.hasUpperClip = p.hasUpperClip ? 1 : 0;
            op.lowerClip = p.lowerClip;
            op.upperClip = p.upperClip;
            op.x = op.w = op.y = -1;
        }
        else if(const OperationType* type = findOperationType(d->type))
        {
            op.kind = d->type;
            op.x = op.w = op.y = op.in0 = op.in1 = op.out0 = -1;
            std::fill(std::begin(op.slot), std::end(op.slot), -1);
            type->flatten(*d, *this, op);
        }
        else
        {
            auto& cd = static_cast<const ConvDesc&>(*d);
            op.kind = cd.kind;
            op.computeType = cd.compType;
            op.convMode = cd.mode;
            op.x = tensorIndex(cd.x);
            op.w = tensorIndex(cd.tw_);
            op.y = tensorIndex(cd.y);
            size_t s = cd.prePad.size();
            failIf(cd.postPad.size() != s || cd.stride.size() != s || cd.dilation.size() != s,
                   HIPDNN_STATUS_BAD_PARAM,
                   std::string(w) + ": convolution parameter vectors differ in length");
            failIf(s > MINI_HIPDNN_MAX_SPATIAL, HIPDNN_STATUS_NOT_SUPPORTED, std::string(w) + ": too many spatial dims");
            op.spatialDims = static_cast<int32_t>(s);
            for(size_t i = 0; i < s; ++i)
            {
                op.prePad[i] = cd.prePad[i];
                op.postPad[i] = cd.postPad[i];
                op.stride[i] = cd.stride[i];
                op.dilation[i] = cd.dilation[i];
            }
            op.in0 = op.in1 = op.out0 = -1;
        }
        flatOps.push_back(op);
    }
    view.numTensors = static_cast<int32_t>(tensors.size());
    view.tensors = tensors.data();
    view.numOps = static_cast<int32_t>(flatOps.size());
    view.ops = flatOps.data();
}

// ---------------------------------------------------------------------------
// engine
const LoadedEngine* findEngine(const EngineList& list, int64_t id)
{
    for(const auto& e : list)
    {
        if(e.id == id)
        {
            return &e;
        }
    }
    return nullptr;
}

void EngineDesc::set(hipdnnBackendAttributeName_t n, hipdnnBackendAttributeType_t t, int64_t c, const void* e)
{
    const char* w = "EngineDescriptor::setAttribute";
    requireOpenForSet(*this, w);
    switch(n)
    {
    case HIPDNN_ATTR_ENGINE_OPERATION_GRAPH:
        graph = takeDesc<GraphDesc>(t, c, e, HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, w);
        break;
    case HIPDNN_ATTR_ENGINE_GLOBAL_INDEX:
        setScalar(engineId, HIPDNN_TYPE_INT64, t, c, e, w);
        engineIdSet = true;
        break;
    default: unknownAttr(n, w);
    }
}

void EngineDesc::get(hipdnnBackendAttributeName_t n,
                     hipdnnBackendAttributeType_t t,
                     int64_t r,
                     int64_t* c,
                     void* e) const
{
    const char* w = "EngineDescriptor::getAttribute";
    requireFinalizedForGet(*this, w);
    switch(n)
    {
    case HIPDNN_ATTR_ENGINE_OPERATION_GRAPH: giveDesc(graph, t, r, c, e, w); break;
    case HIPDNN_ATTR_ENGINE_GLOBAL_INDEX: getScalar(engineId, HIPDNN_TYPE_INT64, t, r, c, e, w); break;
    case HIPDNN_ATTR_ENGINE_NAME_EXT:
    {
        failIf(t != HIPDNN_TYPE_CHAR, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": wrong attribute type");
        std::string nm = engine->api->name;
        if(countOnly(r, c, e, static_cast<int64_t>(nm.size() + 1), w))
        {
            return;
        }
        auto n2 = std::min<size_t>(static_cast<size_t>(r), nm.size() + 1);
        std::memcpy(e, nm.c_str(), n2);
        static_cast<char*>(e)[n2 - 1] = '\0';
        if(c != nullptr)
        {
            *c = static_cast<int64_t>(n2);
        }
        break;
    }
    default: unknownAttr(n, w);
    }
}

void EngineDesc::doFinalize()
{
    const char* w = "EngineDescriptor::finalize";
    failIf(!graph, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": operation graph not set");
    failIf(!engineIdSet, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": global index not set");
    engine = findEngine(*graph->engines, engineId);
    failIf(engine == nullptr, HIPDNN_STATUS_NOT_SUPPORTED, std::string(w) + ": no loaded engine has this id");
    failIf(engine->api->supports(&graph->view) == 0,
           HIPDNN_STATUS_NOT_SUPPORTED,
           std::string(w) + ": the engine does not support the graph");
}

// ---------------------------------------------------------------------------
// knob choice (hipDNN's KnobSettingDescriptor, backend/src/descriptors/
// KnobSettingDescriptor.cpp @61350fef: the id as CHAR of at most 4096
// characters, the value INT64 with a count of 1, both required at finalize)
constexpr int64_t kMaxKnobIdLength = 4096;
constexpr int64_t kMaxKnobChoices = 1024; // EngineConfigDescriptor.hpp's MAX_KNOB_CHOICES

void KnobChoiceDesc::set(hipdnnBackendAttributeName_t n, hipdnnBackendAttributeType_t t, int64_t c, const void* e)
{
    const char* w = "KnobSettingDescriptor::setAttribute";
    requireOpenForSet(*this, w);
    switch(n)
    {
    case HIPDNN_ATTR_KNOB_CHOICE_KNOB_TYPE:
        failIf(c > kMaxKnobIdLength, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": knob id too long");
        setChars(id, t, c, e, w);
        id = id.substr(0, id.find('\0'));
        break;
    case HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE:
        // hipDNN also takes DOUBLE and CHAR values; the test bed's engines
        // have integer knobs only.
        failIf(t == HIPDNN_TYPE_DOUBLE || t == HIPDNN_TYPE_CHAR,
               HIPDNN_STATUS_NOT_SUPPORTED,
               std::string(w) + ": the test bed takes INT64 knob values only");
        setScalar(value, HIPDNN_TYPE_INT64, t, c, e, w);
        valueSet = true;
        break;
    default: unknownAttr(n, w);
    }
}

void KnobChoiceDesc::get(hipdnnBackendAttributeName_t n,
                         hipdnnBackendAttributeType_t t,
                         int64_t r,
                         int64_t* c,
                         void* e) const
{
    const char* w = "KnobSettingDescriptor::getAttribute";
    requireFinalizedForGet(*this, w);
    switch(n)
    {
    case HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE: getScalar(value, HIPDNN_TYPE_INT64, t, r, c, e, w); break;
    default: unknownAttr(n, w);
    }
}

void KnobChoiceDesc::doFinalize()
{
    failIf(id.empty(), HIPDNN_STATUS_BAD_PARAM, "KnobSettingDescriptor::finalize: knob id not set");
    failIf(!valueSet, HIPDNN_STATUS_BAD_PARAM, "KnobSettingDescriptor::finalize: value not set");
}

// ---------------------------------------------------------------------------
// engine config
namespace
{
// HIPDNN_ATTR_ENGINECFG_KNOB_CHOICES: finalized KNOB_CHOICE descriptors,
// appended (EngineConfigDescriptor.cpp @272ae967); a knob set twice is
// refused, as hipDNN's engine config validation refuses duplicate knobs.
void addKnobChoices(EngineCfgDesc& cfg, hipdnnBackendAttributeType_t t, int64_t c, const void* e, const char* w)
{
    checkSetArgs(HIPDNN_TYPE_BACKEND_DESCRIPTOR, t, e, w);
    failIf(c < 1 || static_cast<int64_t>(cfg.knobs.size()) + c > kMaxKnobChoices,
           HIPDNN_STATUS_BAD_PARAM,
           std::string(w) + ": knob choice count must be 1.." + std::to_string(kMaxKnobChoices));
    const auto* handles = static_cast<const hipdnnBackendDescriptor_t*>(e);
    std::vector<std::shared_ptr<KnobChoiceDesc>> add;
    for(int64_t i = 0; i < c; ++i)
    {
        auto k = takeDesc<KnobChoiceDesc>(t, 1, &handles[i], HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR, w);
        for(const auto& have : cfg.knobs)
        {
            failIf(have->id == k->id, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": knob " + k->id + " set twice");
        }
        for(const auto& have : add)
        {
            failIf(have->id == k->id, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": knob " + k->id + " set twice");
        }
        add.push_back(k);
    }
    cfg.knobs.insert(cfg.knobs.end(), add.begin(), add.end());
}
} // namespace

int64_t engineWorkspace(const EngineCfgDesc& cfg, const char* what)
{
    const auto& eng = *cfg.engine;
    char err[512] = {0};
    const int64_t ws = eng.engine->api->workspaceSize(&eng.graph->view, &cfg.knobView, err, sizeof(err));
    failIf(ws < 0 && err[0] != '\0',
           HIPDNN_STATUS_PLUGIN_ERROR,
           std::string(what) + ": engine " + eng.engine->api->name + " refused the configuration: " + err);
    failIf(ws < 0, HIPDNN_STATUS_INTERNAL_ERROR, std::string(what) + ": negative workspace size");
    return ws;
}

void EngineCfgDesc::set(hipdnnBackendAttributeName_t n, hipdnnBackendAttributeType_t t, int64_t c, const void* e)
{
    const char* w = "EngineConfigDescriptor::setAttribute";
    requireOpenForSet(*this, w);
    switch(n)
    {
    case HIPDNN_ATTR_ENGINECFG_ENGINE:
        engine = takeDesc<EngineDesc>(t, c, e, HIPDNN_BACKEND_ENGINE_DESCRIPTOR, w);
        break;
    case HIPDNN_ATTR_ENGINECFG_KNOB_CHOICES: addKnobChoices(*this, t, c, e, w); break;
    default: unknownAttr(n, w);
    }
}

void EngineCfgDesc::get(hipdnnBackendAttributeName_t n,
                        hipdnnBackendAttributeType_t t,
                        int64_t r,
                        int64_t* c,
                        void* e) const
{
    const char* w = "EngineConfigDescriptor::getAttribute";
    requireFinalizedForGet(*this, w);
    switch(n)
    {
    case HIPDNN_ATTR_ENGINECFG_ENGINE: giveDesc(engine, t, r, c, e, w); break;
    case HIPDNN_ATTR_ENGINECFG_WORKSPACE_SIZE: getScalar(workspace, HIPDNN_TYPE_INT64, t, r, c, e, w); break;
    default: unknownAttr(n, w);
    }
}

void EngineCfgDesc::doFinalize()
{
    failIf(!engine, HIPDNN_STATUS_BAD_PARAM, "EngineConfigDescriptor::finalize: engine not set");
    flatKnobs.clear();
    for(const auto& k : knobs)
    {
        flatKnobs.push_back({k->id.c_str(), k->value});
    }
    knobView.count = static_cast<int32_t>(flatKnobs.size());
    knobView.settings = flatKnobs.data();
    workspace = engineWorkspace(*this, "EngineConfigDescriptor::finalize");
}

// ---------------------------------------------------------------------------
// engine heuristic
void HeurDesc::set(hipdnnBackendAttributeName_t n, hipdnnBackendAttributeType_t t, int64_t c, const void* e)
{
    const char* w = "EngineHeuristicDescriptor::setAttribute";
    requireOpenForSet(*this, w);
    switch(n)
    {
    case HIPDNN_ATTR_ENGINEHEUR_MODE:
    {
        failIf(t != HIPDNN_TYPE_HEUR_MODE, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": wrong attribute type");
        failIf(c != 1, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": elementCount must be 1");
        failIf(e == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, std::string(w) + ": arrayOfElements is null");
        auto m = *static_cast<const hipdnnBackendHeurMode_t*>(e);
        failIf(m != HIPDNN_HEUR_MODE_FALLBACK, HIPDNN_STATUS_NOT_SUPPORTED, std::string(w) + ": heuristic mode not supported");
        mode = m;
        modeSet = true;
        break;
    }
    case HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH:
        graph = takeDesc<GraphDesc>(t, c, e, HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, w);
        break;
    default: unknownAttr(n, w);
    }
}

void HeurDesc::get(hipdnnBackendAttributeName_t n,
                   hipdnnBackendAttributeType_t t,
                   int64_t r,
                   int64_t* c,
                   void* e) const
{
    const char* w = "EngineHeuristicDescriptor::getAttribute";
    // hipDNN answers BAD_PARAM_NOT_FINALIZED here (not NOT_INITIALIZED).
    failIf(!finalized, HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED, std::string(w) + ": descriptor is not finalized");
    switch(n)
    {
    case HIPDNN_ATTR_ENGINEHEUR_MODE: getScalar(mode, HIPDNN_TYPE_HEUR_MODE, t, r, c, e, w); break;
    case HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH: giveDesc(graph, t, r, c, e, w); break;
    case HIPDNN_ATTR_ENGINEHEUR_RESULTS:
    {
        failIf(t != HIPDNN_TYPE_BACKEND_DESCRIPTOR, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": wrong attribute type");
        auto total = static_cast<int64_t>(results.size());
        if(r == 0)
        {
            failIf(c == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, std::string(w) + ": elementCount is null");
            *c = total;
            return;
        }
        failIf(r < 0, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": negative requestedElementCount");
        failIf(e == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, std::string(w) + ": arrayOfElements is null");
        failIf(c == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, std::string(w) + ": elementCount is null");
        auto* out = static_cast<hipdnnBackendDescriptor_t*>(e);
        auto n2 = std::min(r, total);
        for(int64_t i = 0; i < n2; ++i)
        {
            auto cfg = lookup(out[i]);
            failIf(cfg == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, std::string(w) + ": engine config descriptor is null");
            failIf(cfg->type != HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR,
                   HIPDNN_STATUS_BAD_PARAM,
                   std::string(w) + ": results need engine config descriptors");
            auto eng = std::make_shared<EngineDesc>();
            eng->graph = graph;
            eng->engineId = results[static_cast<size_t>(i)]->id;
            eng->engineIdSet = true;
            eng->engine = results[static_cast<size_t>(i)];
            eng->finalized = true;
            auto& cd = static_cast<EngineCfgDesc&>(*cfg);
            requireOpenForSet(cd, "EngineConfigDescriptor::setAttribute");
            cd.engine = eng;
        }
        *c = n2;
        break;
    }
    default: unknownAttr(n, w);
    }
}

namespace
{
// The rank hipDNN's static ordering gives an engine by name: the MIOpen
// engine first, its deterministic variant last (ties keep load order).
int defaultRank(const std::string& name)
{
    if(name == "MIOPEN_ENGINE")
        return 0;
    if(name == "ASM_SDPA_ENGINE")
        return 1;
    if(name == "ROCKE_ENGINE")
        return 2;
    if(name == "MIOPEN_ENGINE_DETERMINISTIC")
        return 4;
    return 3;
}

// The engine id an order token names, as hipDNN reads it: the name of a
// loaded engine, else a decimal or 0x-hex id, else the hash of the token.
int64_t tokenToId(const EngineList& list, const std::string& tok)
{
    for(const auto& e : list)
    {
        if(tok == e.api->name)
            return e.id;
    }
    const bool hex = tok.size() > 2 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X');
    char* end = nullptr;
    errno = 0;
    const long long v = hex ? static_cast<long long>(std::strtoull(tok.c_str() + 2, &end, 16))
                            : std::strtoll(tok.c_str(), &end, 10);
    if(end != nullptr && *end == '\0' && errno == 0 && end != tok.c_str() + (hex ? 2 : 0))
        return static_cast<int64_t>(v);
    return engineNameToId(tok);
}

// The eligible engines in order. HIPDNN_HEUR_FALLBACK_ENGINE_ORDER (comma-
// separated names or ids): only the listed engines, in the listed order;
// unset: every engine, in hipDNN's static order.
std::vector<const LoadedEngine*> orderEngines(const EngineList& list)
{
    std::vector<const LoadedEngine*> out;
    std::string v = envString("HIPDNN_HEUR_FALLBACK_ENGINE_ORDER");
    if(v.empty())
    {
        for(const auto& e : list)
        {
            out.push_back(&e);
        }
        std::stable_sort(out.begin(), out.end(), [](const LoadedEngine* a, const LoadedEngine* b) {
            return defaultRank(a->api->name) < defaultRank(b->api->name);
        });
        return out;
    }
    std::stringstream ss(v);
    std::string tok;
    while(std::getline(ss, tok, ','))
    {
        auto b = tok.find_first_not_of(" \t");
        auto en = tok.find_last_not_of(" \t");
        if(b == std::string::npos)
        {
            continue;
        }
        const int64_t id = tokenToId(list, tok.substr(b, en - b + 1));
        for(const auto& e : list)
        {
            if(e.id == id && std::find(out.begin(), out.end(), &e) == out.end())
            {
                out.push_back(&e);
            }
        }
    }
    return out;
}
} // namespace

void HeurDesc::doFinalize()
{
    const char* w = "EngineHeuristicDescriptor::finalize";
    failIf(!graph, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": graph is not set");
    failIf(!modeSet, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": heuristic mode is not set");
    results.clear();
    if(envFlag("MINI_HIPDNN_TEST_ZERO_ENGINES"))
    {
        return; // finalizes with zero results, as hipDNN does when no engine applies
    }
    // As hipDNN: the engines that take the graph are the candidates; none is
    // a valid outcome (zero results). With candidates, the ordering policy
    // must pick: an engine order naming none of them leaves no policy that
    // succeeds, and finalize fails.
    std::vector<const LoadedEngine*> candidates;
    for(const auto& e : *graph->engines)
    {
        if(e.api->supports(&graph->view) != 0)
        {
            candidates.push_back(&e);
        }
    }
    if(candidates.empty())
    {
        return;
    }
    for(const auto* e : orderEngines(*graph->engines))
    {
        if(std::find(candidates.begin(), candidates.end(), e) != candidates.end())
        {
            results.push_back(e);
        }
    }
    failIf(results.empty(), HIPDNN_STATUS_INTERNAL_ERROR, std::string(w) + " failed: No heuristic policy succeeded.");
}

// ---------------------------------------------------------------------------
// execution plan
void PlanDesc::set(hipdnnBackendAttributeName_t n, hipdnnBackendAttributeType_t t, int64_t c, const void* e)
{
    const char* w = "ExecutionPlanDescriptor::setAttribute";
    requireOpenForSet(*this, w);
    switch(n)
    {
    case HIPDNN_ATTR_EXECUTION_PLAN_HANDLE:
    {
        failIf(t != HIPDNN_TYPE_HANDLE, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": wrong attribute type");
        failIf(c != 1, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": elementCount must be 1");
        failIf(e == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, std::string(w) + ": arrayOfElements is null");
        failIf(*static_cast<const hipdnnHandle_t*>(e) == nullptr,
               HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
               std::string(w) + ": handle is null");
        break; // accepted and ignored (deprecated in hipDNN)
    }
    case HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG:
        config = takeDesc<EngineCfgDesc>(t, c, e, HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, w);
        break;
    default: unknownAttr(n, w);
    }
}

void PlanDesc::get(hipdnnBackendAttributeName_t n,
                   hipdnnBackendAttributeType_t t,
                   int64_t r,
                   int64_t* c,
                   void* e) const
{
    const char* w = "ExecutionPlanDescriptor::getAttribute";
    requireFinalizedForGet(*this, w);
    switch(n)
    {
    case HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE:
        failIf(t != HIPDNN_TYPE_INT64, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": wrong attribute type");
        failIf(r != 1, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": requestedElementCount must be 1");
        failIf(e == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, std::string(w) + ": arrayOfElements is null");
        if(c != nullptr)
        {
            *c = 1;
        }
        *static_cast<int64_t*>(e) = workspace;
        break;
    case HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG:
        failIf(t != HIPDNN_TYPE_BACKEND_DESCRIPTOR, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": wrong attribute type");
        failIf(r != 1, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": requestedElementCount must be 1");
        failIf(e == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, std::string(w) + ": arrayOfElements is null");
        if(c != nullptr)
        {
            *c = 1;
        }
        *static_cast<hipdnnBackendDescriptor_t*>(e) = pack(config);
        break;
    default: unknownAttr(n, w);
    }
}

void PlanDesc::doFinalize()
{
    failIf(!config, HIPDNN_STATUS_BAD_PARAM, "ExecutionPlanDescriptor::finalize: engine config not set");
    workspace = engineWorkspace(*config, "ExecutionPlanDescriptor::finalize");
}

// ---------------------------------------------------------------------------
// variant pack
void VariantDesc::set(hipdnnBackendAttributeName_t n, hipdnnBackendAttributeType_t t, int64_t c, const void* e)
{
    const char* w = "VariantDescriptor::setAttribute";
    requireOpenForSet(*this, w);
    failIf(e == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, std::string(w) + ": arrayOfElements is null");
    switch(n)
    {
    case HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS:
    {
        failIf(t != HIPDNN_TYPE_VOID_PTR, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": wrong attribute type");
        failIf(c < 0, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": negative elementCount");
        const auto* p = static_cast<void* const*>(e);
        pointers.assign(p, p + c);
        break;
    }
    case HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS: setInt64Vector(uids, t, c, e, w); break;
    case HIPDNN_ATTR_VARIANT_PACK_WORKSPACE:
        failIf(t != HIPDNN_TYPE_VOID_PTR, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": wrong attribute type");
        failIf(c != 1, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": elementCount must be 1");
        workspace = *static_cast<void* const*>(e);
        break;
    default: unknownAttr(n, w);
    }
}

void VariantDesc::get(hipdnnBackendAttributeName_t n,
                      hipdnnBackendAttributeType_t t,
                      int64_t r,
                      int64_t* c,
                      void* e) const
{
    const char* w = "VariantDescriptor::getAttribute";
    requireFinalizedForGet(*this, w);
    failIf(e == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, std::string(w) + ": arrayOfElements is null");
    switch(n)
    {
    case HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS: getInt64Vector(uids, t, r, c, e, w); break;
    case HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS:
    {
        failIf(t != HIPDNN_TYPE_VOID_PTR, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": wrong attribute type");
        failIf(c == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, std::string(w) + ": elementCount is null");
        *c = std::min<int64_t>(r, static_cast<int64_t>(pointers.size()));
        for(int64_t i = 0; i < *c; ++i)
        {
            static_cast<void**>(e)[i] = pointers[static_cast<size_t>(i)];
        }
        break;
    }
    case HIPDNN_ATTR_VARIANT_PACK_WORKSPACE:
        failIf(t != HIPDNN_TYPE_VOID_PTR, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": wrong attribute type");
        failIf(r != 1, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": requestedElementCount must be 1");
        if(c != nullptr)
        {
            *c = 1;
        }
        *static_cast<void**>(e) = workspace;
        break;
    default: unknownAttr(n, w);
    }
}

void VariantDesc::doFinalize()
{
    failIf(pointers.size() != uids.size(), HIPDNN_STATUS_BAD_PARAM, "VariantDescriptor::finalize: pointer/uid count mismatch");
    failIf(pointers.empty(), HIPDNN_STATUS_BAD_PARAM, "VariantDescriptor::finalize: no data pointers");
}

// ---------------------------------------------------------------------------
namespace
{
// The descriptor type a number means on the revision the test bed plays:
// the pinned numbering, or (MINI_HIPDNN_TEST_REVISION_SHAPE=old-numbering)
// the older one, which had no pointwise operation, convolution backward
// data at 18 and operations the test bed lacks at 17 and 19, or
// (batchnorm-unnumbered) the unnumbered enum's batchnorm inference at 20,
// or (no-batchnorm-inference-inv) nothing at 17.
hipdnnBackendDescriptorType_t meaningOf(hipdnnBackendDescriptorType_t type)
{
    if(type == HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_DESCRIPTOR_EXT
       && revisionShape(RevisionShape::NoBatchnormInferenceInv))
    {
        return HIPDNN_INVALID_TYPE_EXT;
    }
    if(revisionShape(RevisionShape::BatchnormUnnumbered))
    {
        switch(type)
        {
        case 20: return HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_VARIANCE_DESCRIPTOR_EXT;
        case 21:
        case 27: return HIPDNN_INVALID_TYPE_EXT;
        default: return type;
        }
    }
    if(!revisionShape(RevisionShape::OldNumbering))
    {
        return type;
    }
    switch(type)
    {
    case 18: return HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR;
    case 17:
    case 19: return HIPDNN_INVALID_TYPE_EXT;
    default: return type;
    }
}
} // namespace

std::shared_ptr<Desc> createDesc(hipdnnBackendDescriptorType_t number)
{
    const hipdnnBackendDescriptorType_t type = meaningOf(number);
    switch(type)
    {
    case HIPDNN_BACKEND_TENSOR_DESCRIPTOR: return std::make_shared<TensorDesc>();
    case HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR:
    case HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR:
    case HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR: return std::make_shared<ConvDesc>(type);
    case HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR: return std::make_shared<PointwiseDesc>();
    case HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR: return std::make_shared<GraphDesc>();
    case HIPDNN_BACKEND_ENGINE_DESCRIPTOR: return std::make_shared<EngineDesc>();
    case HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR: return std::make_shared<EngineCfgDesc>();
    case HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR: return std::make_shared<KnobChoiceDesc>();
    case HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR: return std::make_shared<HeurDesc>();
    case HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR: return std::make_shared<PlanDesc>();
    case HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR: return std::make_shared<VariantDesc>();
    default:
        if(const OperationType* op = findOperationType(type))
        {
            return op->create(type);
        }
        fail(HIPDNN_STATUS_NOT_SUPPORTED,
             "hipdnnBackendCreateDescriptor: descriptor type " + std::to_string(static_cast<int>(number))
                 + " is not supported");
    }
}

// ---------------------------------------------------------------------------
// execute
void executePlan(hipdnnHandle_t handle, const PlanDesc& plan, const VariantDesc& pack)
{
    const char* w = "hipdnnBackendExecute";
    failIf(!plan.finalized, HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED, std::string(w) + ": execution plan is not finalized");
    failIf(!pack.finalized, HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED, std::string(w) + ": variant pack is not finalized");
    std::string knob = envString("MINI_HIPDNN_TEST_FAIL_EXECUTE");
    if(!knob.empty() && knob != "0")
    {
        // "status:<n>" fails with that hipdnnStatus_t (tests of the status translation).
        const auto st = knob.rfind("status:", 0) == 0
                            ? static_cast<hipdnnStatus_t>(std::atoi(knob.c_str() + 7))
                            : HIPDNN_STATUS_EXECUTION_FAILED;
        fail(st, std::string(w) + ": failed by MINI_HIPDNN_TEST_FAIL_EXECUTE (test-bed knob)");
    }
    const auto& eng = *plan.config->engine;
    const auto& g = eng.graph->view;
    // A revision without the attribute checks nothing.
    const bool checksAlignment = !revisionShape(RevisionShape::NoTensorAlignment);
    for(int32_t i = 0; i < g.numTensors; ++i)
    {
        const auto& t = g.tensors[i];
        if(t.isVirtual)
        {
            continue;
        }
        bool found = false;
        const int64_t alignment = checksAlignment ? eng.graph->tensorDescs[static_cast<size_t>(i)]->byteAlignment : 0;
        for(size_t k = 0; k < pack.uids.size(); ++k)
        {
            if(pack.uids[k] == t.uid)
            {
                failIf(pack.pointers[k] == nullptr,
                       HIPDNN_STATUS_BAD_PARAM,
                       std::string(w) + ": data pointer for UID " + std::to_string(t.uid) + " is null");
                // As hipDNN: every data pointer against its tensor's alignment
                // (the workspace pointer is not checked).
                failIf(alignment > 0
                           && reinterpret_cast<uintptr_t>(pack.pointers[k]) % static_cast<uintptr_t>(alignment) != 0,
                       HIPDNN_STATUS_BAD_PARAM,
                       std::string(w) + ": data pointer for UID " + std::to_string(t.uid) + " is not "
                           + std::to_string(alignment) + "-byte aligned");
                found = true;
            }
        }
        failIf(!found, HIPDNN_STATUS_BAD_PARAM, std::string(w) + ": no data pointer for tensor UID " + std::to_string(t.uid));
    }
    failIf(plan.workspace > 0 && pack.workspace == nullptr,
           HIPDNN_STATUS_BAD_PARAM,
           std::string(w) + ": plan needs a workspace but the variant pack has none");
    miniHipdnnVariantPack_t vp{};
    vp.count = static_cast<int64_t>(pack.uids.size());
    vp.uids = pack.uids.data();
    vp.pointers = pack.pointers.data();
    vp.workspace = pack.workspace;
    vp.workspaceSize = plan.workspace;
    vp.stream = handle->stream;
    // Test-bed knob: say which engine ran and on which stream (tests of a
    // caller that moves its handle to another stream read this line).
    if(envFlag("MINI_HIPDNN_TEST_TRACE_EXECUTE"))
    {
        std::fprintf(stderr, "mini-hipdnn: execute on engine %s, stream %p\n", eng.engine->api->name, vp.stream);
    }
    char err[512] = {0};
    int rc = eng.engine->api->execute(&g, &plan.config->knobView, &vp, err, sizeof(err));
    failIf(rc != 0,
           HIPDNN_STATUS_EXECUTION_FAILED,
           std::string(w) + ": engine " + eng.engine->api->name + " failed: " + err);
}

} // namespace mh
