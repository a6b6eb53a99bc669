// Only the declaration in include/CFuzzer.h matters; SwiftPM needs a source file for the target.
#include "CFuzzer.h"
