import FuzzSupport

Fuzzer.run()
