"""The wording of an event's ingest health (GET /admin/events/{id}/ingest) in the staff console:
the figures of live control's ingest panel, the key hints, and the trouble the dashboard flags.
Lines stay within 37 characters: the panel is the narrow column of an 80-column terminal."""

from rich.text import Text

from ..ingest_figures import autostart_of, bitrate_of, input_of, rewind_of

NONE = "—"
LABEL_WIDTH = 9  # "Restarts" and a space
NO_TRANSCODER_STATES = ("idle", "finished")  # no process transcodes the feed then


def _line(label: str, value: str) -> Text:
    return Text.assemble((f"{label:<{LABEL_WIDTH}}", "bold"), value)


def _count(value: int | None) -> str:
    return NONE if value is None else str(value)


def speed_of(health: dict) -> str:
    speed = health["speed"]
    if speed is None:
        return NONE
    return f"{speed:.2f}× real time" + (", behind" if health["behindRealTime"] else "")


def age_of(health: dict) -> str:
    age = health["lastSegmentAgeSeconds"]
    return NONE if age is None else f"last ended {age:.1f} s ago"


def encoder_lines(health: dict) -> Text:
    """State, input, speed and bitrate: the lines above the bitrate's sparkline."""
    encoder = "publishing" if health["publishing"] else "no encoder"
    lines = [
        _line("State", f"{health['state']} · {encoder}"),
        _line("Input", input_of(health) or NONE),
        _line("Speed", speed_of(health)),
        _line("Bitrate", bitrate_of(health) or NONE),
    ]
    return Text("\n").join(lines)


def output_lines(health: dict) -> Text:
    """Last segment, restarts and reconnects, viewers, and the event's settings (how its feed goes
    live, how far viewers rewind): the lines below the sparkline."""
    lines = [
        _line("Segment", age_of(health)),
        _line("Restarts", f"{_count(health['restarts'])} · reconnects {_count(health['reconnects'])}"),
        _line("Viewers", str(health["viewers"])),
        _line("Go live", autostart_of(health["autostart"], short=True)),
        _line("Rewind", rewind_of(health)),
    ]
    if not health["transcoderHere"] and health["state"] not in NO_TRANSCODER_STATES:
        # Only the process running the transcoder knows the input, speed, restarts and reconnects.
        lines.append(Text("Transcoded by another server process.", style="dim"))
    return Text("\n").join(lines)


def key_line(keys: list[dict]) -> Text:
    """The event's key in force by its hint (the key itself is shown once, when made)."""
    in_force = next((k for k in keys if not k["revokedAt"]), None)
    if in_force is None:
        return _line("Key", "none in force")
    if in_force["publishing"]:
        state = "publishing, take-over allowed" if in_force.get("takeOverUntil") else "publishing"
    else:
        state = "in force"
    return _line("Key", f"…{in_force['hint']}, {state}")


def trouble_of(health: dict) -> str | None:
    """What the dashboard flags: an interrupted feed, or a transcoder slower than real time."""
    if health["state"] == "interrupted":
        return "ingest interrupted"
    if health["behindRealTime"]:
        speed = health["speed"]
        return "slower than real time" + (f" ({speed:.2f}×)" if speed is not None else "")
    return None
