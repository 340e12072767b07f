"""`touchline`: the operator's command line. One Typer per noun, commands stay thin."""

import typer

from .commands import billing, codes, db, events, seed, serve, socket, users

app = typer.Typer(help="Touchline operator tools.", no_args_is_help=True)
app.add_typer(db.app, name="db")
app.command("seed")(seed.seed)
app.command("serve")(serve.serve)
app.add_typer(socket.app, name="socket")
app.add_typer(users.app, name="users")
app.add_typer(codes.app, name="codes")
app.add_typer(billing.app, name="billing")
app.add_typer(events.app, name="events")

if __name__ == "__main__":
    app()
