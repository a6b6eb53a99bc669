#ifndef STILLPOINT_BENCH_CMALLOCSTATISTICS_H
#define STILLPOINT_BENCH_CMALLOCSTATISTICS_H

#include <stddef.h>

/// glibc's allocator statistics, which Swift's Glibc module does not import (`malloc.h` is not in it).

/// Bytes of the heap in use by live allocations (`mallinfo2().uordblks` plus `hblkhd`, the blocks glibc maps
/// on their own); 0 where `mallinfo2` is missing.
size_t stillpoint_bench_malloc_in_use(void);

/// Returns free memory at the top of the heap and in its arenas to the system (`malloc_trim(0)`), so that the
/// resident size that follows counts live memory rather than freed memory glibc kept.
void stillpoint_bench_malloc_trim(void);

#endif
