"""`touchline db …`: schema migrations."""

import typer

app = typer.Typer(help="Database schema.", no_args_is_help=True)


@app.command("upgrade")
def upgrade(revision: str = typer.Argument("head", help="Target revision.")) -> None:
    """Apply migrations up to REVISION (default: the newest)."""
    from server.migrate import upgrade as run_upgrade
    from server.settings import get_settings

    url = get_settings().database_url
    run_upgrade(url, revision)
    typer.echo(f"database at {revision}")
