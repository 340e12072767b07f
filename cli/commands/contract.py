"""`touchline contract …`: how the code stands against the OpenAPI document."""

import typer

app = typer.Typer(help="Contract status.", no_args_is_help=True)


@app.command("status")
def status() -> None:
    """List the operations that still answer 501, computed from the handler modules."""
    from server.contract import report

    typer.echo(report())
