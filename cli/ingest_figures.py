"""An ingest's health (GET /admin/events/{id}/ingest) in words, as `touchline ingest status` and the
staff console both show it. None where the answer does not know (each caller shows its own dash)."""


def input_of(health: dict) -> str | None:
    """'h264 1280x720 at 30 fps, aac': what the encoder sends, as the transcoder saw it (its fields
    are null when the answering process does not transcode the feed)."""
    video, audio = health["video"], health["audio"]
    if video["width"] is None:
        return None
    fps = f" at {video['fps']:.3g} fps" if video["fps"] is not None else ""
    picture = f"{video['codec'] or 'video'} {video['width']}x{video['height']}{fps}"
    return f"{picture}, {audio['codec']}" if audio["codec"] else f"{picture}, no sound"


def autostart_of(autostart: bool | None, *, short: bool = False) -> str:
    """How an upcoming event's feed goes live (`autostart`: null, true or false)."""
    if autostart is None:
        return "near kickoff"
    if short:
        return "armed" if autostart else "off (preview)"
    return "armed: live at the first segments" if autostart else "off: a preview until go-live"


def rewind_of(health: dict) -> str:
    return f"{health['dvrSeconds'] // 60} min"


def bitrate_of(health: dict) -> str | None:
    kbps = health["bitrateKbps"]
    return None if kbps is None else f"{kbps:,.0f} kbit/s"
