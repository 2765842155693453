/* mini-hipdnn: engine plugin path loading modes (values match hipDNN). */
#ifndef MINI_HIPDNN_PLUGIN_LOADING_MODE_H
#define MINI_HIPDNN_PLUGIN_LOADING_MODE_H

typedef enum
{
    HIPDNN_PLUGIN_LOADING_ADDITIVE = 0, /* user paths in addition to the default directory */
    HIPDNN_PLUGIN_LOADING_ABSOLUTE = 1  /* only the user paths */
} hipdnnPluginLoadingMode_ext_t;

#endif
