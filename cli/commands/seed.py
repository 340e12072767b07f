"""`touchline seed`: load the fixtures catalogue (idempotent); the work is server.seed.runner's,
its steps shown by a progress bar on stderr (the summary goes to stdout)."""

import typer

from .progress import steps


def seed(reset: bool = typer.Option(False, "--reset", help="Delete the catalogue and load it again.")) -> None:
    """Load the fixtures catalogue into the database (again with --reset); safe to repeat.

    Sports, leagues, teams, events, highlights, stats, programmes, official match tags, and
    (outside production) the demo accounts of fixtures/users.yaml."""
    from server.seed.runner import STEPS, seed_database
    from server.settings import get_settings

    settings = get_settings()
    with steps(len(STEPS)) as begin:
        seeded = seed_database(settings, reset=reset, step=begin)
    typer.echo(seeded.summary())
