"""`touchline seed`: load the fixtures catalogue (idempotent); the work is server.seed.runner's."""

import typer


def seed(reset: bool = typer.Option(False, "--reset", help="Delete the catalogue and load it again.")) -> None:
    """Load fixtures/ into the database: sports, leagues, teams, events, highlights, stats,
    programmes, official match tags, and (outside production) the demo accounts of fixtures/users.yaml."""
    from server.seed.runner import seed_database
    from server.settings import get_settings

    typer.echo(seed_database(get_settings(), reset=reset).summary())
