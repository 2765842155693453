// Must NOT compile when the target links MIOpen (the public target) only:
// miopen_impl.h is reachable through MIOpen_private alone (RFC §4.6).
#include <miopen/miopen_impl.h>
int main() { return 0; }
