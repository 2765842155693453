//! The batchnorm problem model: MIOpen descriptor fields in, a hipDNN graph
//! spec or a decline reason out (the `batchnorm` group).
