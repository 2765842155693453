/* mini-hipdnn: limits (value matches hipDNN). */
#ifndef MINI_HIPDNN_BACKEND_LIMITS_H
#define MINI_HIPDNN_BACKEND_LIMITS_H

#define HIPDNN_ERROR_STRING_MAX_LENGTH 2048

#endif
