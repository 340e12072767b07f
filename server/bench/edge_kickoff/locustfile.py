"""The kickoff's viewers (server.bench.edge_kickoff): each opens the live master with its token in
the query, as a player does first, then polls one rendition's live playlist every 2 s with the
cookie and fetches each segment it has not had yet (the newest one first, at the live edge).

Each playlist's staleness is recorded: how many finished segments newer than its newest one it
leaves out, against the stream's own timeline (server.media.delivery.live), at the moment it
arrived. Run by locust only (it patches the standard library with gevent)."""

import json
import os
import random
import re
import time
from pathlib import Path

from locust import FastHttpUser, constant_pacing, events, task  # type: ignore[import-not-found, unused-ignore]

from server.media.delivery.live import LiveStream
from server.media.playlists import load_stream

ASSET = os.environ["EDGE_ASSET"]
KICKOFF = int(os.environ["EDGE_KICKOFF"])
COOKIE = {"Cookie": os.environ["EDGE_COOKIE"]}
STREAM = load_stream(Path(os.environ["EDGE_MEDIA"]) / "assets", ASSET)
assert STREAM is not None, f"no asset {ASSET}"
TIMELINE = LiveStream(STREAM, ASSET).timeline
RENDITIONS = [r.name for r in STREAM.renditions]
BASE = f"/media/live/{ASSET}/from-{KICKOFF}"
SEQUENCE = re.compile(r"#EXT-X-MEDIA-SEQUENCE:(\d+)")
_staleness: list[int] = []


class Viewer(FastHttpUser):
    wait_time = constant_pacing(2)

    def on_start(self) -> None:
        self.rendition = random.choice(RENDITIONS)
        self.newest = -1
        token = COOKIE["Cookie"].split("=", 1)[1]
        self.client.get(f"{BASE}/index.m3u8?token={token}", name="master")

    @task
    def poll(self) -> None:
        with self.client.get(
            f"{BASE}/{self.rendition}/live.m3u8", headers=COOKIE, name="playlist", catch_response=True
        ) as response:
            text = response.text or ""
        arrived = time.time()
        found = SEQUENCE.search(text)
        uris = [line for line in text.splitlines() if line and not line.startswith("#")]
        if found is None or not uris:
            return
        first = int(found[1])
        newest = first + len(uris) - 1
        _staleness.append(max(0, TIMELINE.segments_done(arrived) - 1 - newest))
        start = newest if self.newest < 0 else max(self.newest + 1, first)
        for number in range(start, newest + 1):
            self.client.get(f"{BASE}/{self.rendition}/{uris[number - first]}", headers=COOKIE, name="segment")
        self.newest = newest


@events.quitting.add_listener
def _write_staleness(environment, **_kwargs) -> None:
    Path(os.environ["EDGE_STALENESS"]).write_text(json.dumps(_staleness))
