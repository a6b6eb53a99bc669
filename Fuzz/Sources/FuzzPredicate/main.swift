import FuzzSupport

// Set up before the first input, so that libFuzzer measures each input alone.
await PredicateFixture.setUp()
Fuzzer.run()
