// libpq, the PostgreSQL project's C client library (Debian's libpq-dev), for the benchmarks' baselines.
#include <libpq-fe.h>
