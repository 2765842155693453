// The bare minimum a forwarding library could do for miopenGetVersion: one
// tail jump to MIOpen Private's implementation, through the GOT (the same
// jump the wrapper's stub ends with, without its one-byte state check).
// Built as libMIOpen.so.1 in its own directory (bench/CMakeLists.txt) so the
// passthrough benchmark can load it instead of the wrapper.
    .text
    .globl miopenGetVersion
    .type miopenGetVersion, @function
miopenGetVersion:
    jmp *miopenGetVersion_impl@GOTPCREL(%rip)
    .size miopenGetVersion, .-miopenGetVersion
    .section .note.GNU-stack,"",@progbits
