"""`touchline`: the operator's command line. One Typer per noun, commands stay thin."""

import typer

from .commands import (
    audit,
    billing,
    cluster,
    codes,
    credit,
    db,
    devices,
    events,
    ingest,
    jobs,
    keys,
    login,
    media,
    outbox,
    qoe,
    seed,
    serve,
    sessions,
    socket,
    users,
)
from .internal_errors import OneLineErrors
from .tui.command import admin

# OneLineErrors: an unexpected exception in any command is one line on stderr, never a traceback.
app = typer.Typer(help="Touchline operator tools.", no_args_is_help=True, cls=OneLineErrors)
app.add_typer(db.app, name="db")
app.command("seed")(seed.seed)
app.command("serve")(serve.serve)
app.command("cluster")(cluster.cluster)
app.add_typer(socket.app, name="socket")
app.add_typer(users.app, name="users")
app.add_typer(sessions.app, name="sessions")
app.add_typer(devices.app, name="devices")
app.add_typer(outbox.app, name="outbox")
app.add_typer(codes.app, name="codes")
app.add_typer(billing.app, name="billing")
app.add_typer(events.app, name="events")
app.add_typer(ingest.app, name="ingest")
app.command("qoe")(qoe.qoe)
app.add_typer(credit.app, name="credit")
app.add_typer(media.app, name="media")
app.add_typer(jobs.app, name="jobs")
app.command("login")(login.login)
app.command("logout")(login.logout)
app.add_typer(keys.app, name="keys")
app.add_typer(audit.app, name="audit")
app.command("admin")(admin)

if __name__ == "__main__":
    app()
