/* mini-hipdnn: heuristic modes (numeric values match hipDNN). */
#ifndef MINI_HIPDNN_BACKEND_HEURISTIC_TYPE_H
#define MINI_HIPDNN_BACKEND_HEURISTIC_TYPE_H

typedef enum
{
    HIPDNN_HEUR_MODE_FALLBACK = 0
} hipdnnBackendHeurMode_t;

#endif
