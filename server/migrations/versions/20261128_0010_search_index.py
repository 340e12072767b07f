"""search index: events found by any part of a word without reading every row

SQLite: `event_search`, a contentless FTS5 table with the trigram tokenizer over
`events.search_text` (rowid = the event's rowid), kept in step by triggers on `events`, so every
writer (staff edits, seeds, bulk fills) keeps it without knowing it exists. PostgreSQL: pg_trgm and
a GIN trigram index on `events.search_text`, which serves `LIKE '%word%'`.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-28 07:00:00.000000+00:00
"""

from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

_SQLITE_UP = (
    "CREATE VIRTUAL TABLE event_search USING fts5(search_text, content='', tokenize='trigram')",
    "INSERT INTO event_search(rowid, search_text) SELECT rowid, search_text FROM events WHERE search_text <> ''",
    """CREATE TRIGGER events_search_insert AFTER INSERT ON events WHEN new.search_text <> '' BEGIN
         INSERT INTO event_search(rowid, search_text) VALUES (new.rowid, new.search_text);
       END""",
    # A contentless table forgets a row when told the text it was given.
    """CREATE TRIGGER events_search_delete AFTER DELETE ON events WHEN old.search_text <> '' BEGIN
         INSERT INTO event_search(event_search, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
       END""",
    """CREATE TRIGGER events_search_update AFTER UPDATE OF search_text ON events
       WHEN old.search_text IS NOT new.search_text BEGIN
         INSERT INTO event_search(event_search, rowid, search_text)
           SELECT 'delete', old.rowid, old.search_text WHERE old.search_text <> '';
         INSERT INTO event_search(rowid, search_text) SELECT new.rowid, new.search_text WHERE new.search_text <> '';
       END""",
)
_SQLITE_DOWN = (
    "DROP TRIGGER IF EXISTS events_search_update",
    "DROP TRIGGER IF EXISTS events_search_delete",
    "DROP TRIGGER IF EXISTS events_search_insert",
    "DROP TABLE IF EXISTS event_search",
)
_POSTGRES_UP = (
    "CREATE EXTENSION IF NOT EXISTS pg_trgm",
    "CREATE INDEX ix_events_search_text_trgm ON events USING gin (search_text gin_trgm_ops)",
)
_POSTGRES_DOWN = ("DROP INDEX IF EXISTS ix_events_search_text_trgm",)


def _run(statements: tuple[str, ...]) -> None:
    for statement in statements:
        op.execute(statement)


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        _run(_SQLITE_UP)
    else:
        _run(_POSTGRES_UP)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        _run(_SQLITE_DOWN)
    else:
        _run(_POSTGRES_DOWN)
