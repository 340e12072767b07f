"""What an asset is, apart from where it is stored (server.media.assets.store)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

SAMPLE = "sample"  # a shipped sample loop (fixtures/media), seeded: the demo without an encoder
LIVE = "live"  # a live input's ladder, written by its transcoder
RECORDING = "recording"  # a finished live input: the archive
UPLOAD = "upload"  # a file staff uploaded, transcoded
CLIP = "clip"  # a viewer's clip: a range of its parent
HIGHLIGHT = "highlight"  # staff's highlight: a range of its parent
KINDS = (SAMPLE, LIVE, RECORDING, UPLOAD, CLIP, HIGHLIGHT)
RANGES = (CLIP, HIGHLIGHT)  # kinds that are a range of another asset

READY = "ready"
# A live input's recording moves through preview, live, reconnecting and interrupted
# (server.services.live_feeds) and is `ready` as the archive.
STATES = (READY, "preview", LIVE, "reconnecting", "interrupted", "processing", "failed")

Kind = Literal["sample", "live", "recording", "upload", "clip", "highlight"]


@dataclass(frozen=True)
class AssetView:
    """An asset as staff see it (the AdminMediaAsset schema)."""

    id: str
    kind: str
    event_id: str
    state: str
    sample: str | None
    parent_id: str | None
    start_ms: int | None
    end_ms: int | None
    created: datetime
    title: str | None = None
    duration_ms: int | None = None

    def wire(self) -> dict:
        body: dict = {
            "_id": self.id,
            "kind": self.kind,
            "event": self.event_id,
            "state": self.state,
            "created": self.created.isoformat().replace("+00:00", "Z"),
        }
        if self.sample is not None:
            body["sample"] = self.sample
        if self.parent_id is not None:
            body["parent"] = self.parent_id
        if self.title is not None:
            body["title"] = self.title
        if self.duration_ms is not None:
            body["durationMs"] = self.duration_ms
        if self.start_ms is not None and self.end_ms is not None:
            body["range"] = {"start_ms": self.start_ms, "end_ms": self.end_ms}
        return body
