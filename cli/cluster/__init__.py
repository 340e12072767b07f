"""`touchline cluster`: several server processes behind HAProxy, on PostgreSQL and Redis."""
