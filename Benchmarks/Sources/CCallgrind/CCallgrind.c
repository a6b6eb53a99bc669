#include "CCallgrind.h"

// Valgrind's header holds the client requests as macros (a few no-op instructions outside valgrind). The
// benchmark builds without it; the regions are then not counted.
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>

void stillpoint_bench_callgrind_zero(void) {
    CALLGRIND_ZERO_STATS;
}

void stillpoint_bench_callgrind_dump(const char *label) {
    CALLGRIND_DUMP_STATS_AT(label);
}
#else
void stillpoint_bench_callgrind_zero(void) {}

void stillpoint_bench_callgrind_dump(const char *label) {
    (void)label;
}
#endif
