import FuzzSupport

// Built before the first input, so that libFuzzer measures each input alone.
_ = catalog
Fuzzer.run()
