/*
 * The MIOpen -> hipDNN forwarding wrapper's own API (not part of miopen.h).
 *
 * libMIOpen.so can forward the convolution family to hipDNN
 * (MIOPEN_HIPDNN_FORWARDING=enabled). A status returned by a forwarded call
 * may come from hipDNN rather than from MIOpen; this header lets a program
 * (or an on-call engineer's debugger) tell which, and why.
 */
#ifndef MIOPEN_HIPDNN_FORWARDING_H
#define MIOPEN_HIPDNN_FORWARDING_H

#include <miopen/miopen.h>

#ifdef __cplusplus
extern "C" {
#endif

/*! What the most recent call on this thread to an entry point of the
 * forwarding set (the convolution family, docs/forwarding.md) did. */
typedef enum
{
    /*! No such call on this thread yet, or it ran on MIOpen (forwarding
     *  disabled, family opted out, or the call was declined). */
    miopenForwardingNone = 0,
    /*! hipDNN ran it and it succeeded. */
    miopenForwardingSucceeded = 1,
    /*! It was forwarded and failed in hipDNN, or hipDNN could not be loaded;
     *  the call returned `status` and was not run on MIOpen. */
    miopenForwardingFailed = 2,
} miopenForwardingOutcome_t;

typedef struct
{
    miopenForwardingOutcome_t outcome;
    /*! The failing hipDNN call's hipdnnStatus_t (0 unless outcome is
     *  miopenForwardingFailed); -1 when no hipDNN call failed (the backend
     *  could not be loaded, or the forwarding layer failed). */
    int hipdnnStatus;
    /*! The status the call returned to its caller. */
    miopenStatus_t status;
    /*! The entry point's name (static storage); NULL for miopenForwardingNone. */
    const char* entryPoint;
    /*! Why it failed ("" otherwise): the hipDNN step, status name and
     *  hipDNN's message. Owned by this thread; valid until the next call to
     *  an entry point of the forwarding set on this thread. */
    const char* message;
} miopenForwardedError_t;

/*! @brief The last forwarded call's outcome on the calling thread.
 *
 * Calls outside the forwarding set do not change it. miopenGetErrorString
 * prefixes its text with "[hipDNN-forwarded] " for the status of a call
 * reported here as miopenForwardingFailed.
 *
 * @param error  receives the record (output)
 * @return miopenStatusSuccess, or miopenStatusBadParm when error is NULL
 */
MIOPEN_EXPORT miopenStatus_t miopenGetLastForwardedError(miopenForwardedError_t* error);

#ifdef __cplusplus
}
#endif

#endif /* MIOPEN_HIPDNN_FORWARDING_H */
