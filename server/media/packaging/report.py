"""What a live input's transcoder says of itself, written beside its recording (`transcoder.json`)
every second by the process that runs it (server.ingest.live_inputs), so that any process of a
cluster can answer staff with the same figures (server.services.ingest_health): what the encoder
sends, ffmpeg's progress, restarts and reconnects. No token opens it (server.media.delivery.reach
lets the ladder's files alone through). A report older than FRESH_SECONDS is of a transcoder
that is gone, and says nothing."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

import orjson

from ..recordings import write_atomically
from .ladder import Source
from .progress import Progress

REPORT_FILE = "transcoder.json"
FRESH_SECONDS = 10.0


@dataclass(frozen=True)
class TranscoderReport:
    source: Source | None
    progress: Progress | None
    restarts: int
    reconnects: int
    written_at: float  # epoch seconds

    def dumps(self) -> bytes:
        return orjson.dumps(
            {
                "source": asdict(self.source) if self.source else None,
                "progress": asdict(self.progress) if self.progress else None,
                "restarts": self.restarts,
                "reconnects": self.reconnects,
                "writtenAt": self.written_at,
            }
        )

    @classmethod
    def loads(cls, data: bytes) -> TranscoderReport:
        body = orjson.loads(data)
        return cls(
            Source(**body["source"]) if body.get("source") else None,
            Progress(**body["progress"]) if body.get("progress") else None,
            int(body["restarts"]),
            int(body["reconnects"]),
            float(body["writtenAt"]),
        )


def write_report(directory: Path, report: TranscoderReport) -> None:
    write_atomically(directory / REPORT_FILE, report.dumps())


def fresh_report(directory: Path, now: float) -> TranscoderReport | None:
    """The recording's transcoder report, if one was written in the last FRESH_SECONDS."""
    try:
        report = TranscoderReport.loads((directory / REPORT_FILE).read_bytes())
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return report if 0 <= now - report.written_at <= FRESH_SECONDS else None
