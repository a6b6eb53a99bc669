import FuzzSupport

// Set up before the first input, so that libFuzzer measures each input alone.
_ = PredicateFixture.database
Fuzzer.run()
