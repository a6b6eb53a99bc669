#ifndef STILLPOINT_BENCH_CCALLGRIND_H
#define STILLPOINT_BENCH_CCALLGRIND_H

/// Valgrind's callgrind client requests, for counting the instructions of each timed region (see
/// `Benchmarks/README.md`, "Instruction counts"). Outside valgrind, or where valgrind's headers are missing,
/// they do nothing.

/// Sets callgrind's counters to zero.
void stillpoint_bench_callgrind_zero(void);

/// Writes callgrind's counters since the last zero to a new dump file, labelled `label`.
void stillpoint_bench_callgrind_dump(const char *label);

#endif
