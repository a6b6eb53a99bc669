#ifndef CFUZZER_H
#define CFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt's FuzzerDriver.cpp): parses libFuzzer's flags from argv and runs `callback`
/// on each input. Linked in by `-sanitize=fuzzer`.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

/// The fuzz target: each executable defines it in Swift with `@_cdecl("LLVMFuzzerTestOneInput")`.
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
