"""Sources: where media comes from (RTMP and SRT ingest, the shipped samples, uploads next)."""
