// libpq, the PostgreSQL project's C client library (Debian's libpq-dev).
#include <libpq-fe.h>
