"""`touchline media upload FILE --event ID`: upload a match recording or a highlight reel for an
event (admin staff), resumably, over tus 1.0 with tuspy.

The file goes up in CHUNK_BYTES pieces with a progress bar on stderr. An upload cut off (network,
Ctrl-C) resumes where the server stands when the same command runs again: tuspy remembers the
file's upload address in the CLI's configuration directory, keyed by the file's fingerprint. When
the last byte arrives the server checks the file and queues its transcoding; the command prints
the job and the asset, and `touchline jobs show JOB` follows it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from requests import RequestException
from tusclient import client as tus
from tusclient.exceptions import TusCommunicationError
from tusclient.fingerprint.fingerprint import Fingerprint
from tusclient.storage.filestorage import FileStorage

from ..admin_client import AdminClient, fail, unreachable
from ..credentials import config_dir
from .progress import byte_progress
from .staff_api import NONE, api_call, new_console, object_id, print_json, print_rows, when
from .staff_options import options_of, staff_group

app = staff_group("The media library: upload videos for events (admin staff).")

CHUNK_BYTES = 16 * 1024 * 1024  # held in memory by tuspy while sent: small enough, few requests


def _envelope_message(content: Any, status: int | None) -> str:
    """The API's message in a refused tus request's body (bytes or text)."""
    try:
        body = json.loads(content.decode() if isinstance(content, bytes) else str(content))
        if isinstance(body, dict) and body.get("message"):
            return f"{body['message']} ({body.get('messageErrorCode', 'error')})"
    except (ValueError, UnicodeDecodeError):
        pass
    return f"the server answered {status}"


def _uploader(client: tus.TusClient, file: Path, metadata: dict[str, str], storage: FileStorage):
    """tuspy's uploader of `file`, resuming the upload stored for it; a stored upload the server
    no longer has (finished, deleted, expired) is forgotten and a new one begun."""
    options = {
        "file_path": str(file),
        "chunk_size": CHUNK_BYTES,
        "metadata": metadata,
        "store_url": True,
        "url_storage": storage,
        # tuspy retries any refused chunk, a 422 too (whose upload is gone by then): an interrupted
        # upload resumes when the command runs again instead.
        "retries": 0,
    }
    try:
        return client.uploader(**options)
    except TusCommunicationError as stale:
        if stale.status_code != 404:
            raise
    with file.open("rb") as stream:
        storage.remove_item(Fingerprint().get_fingerprint(stream))
    return client.uploader(**options)


def _upload(
    base_url: str,
    token: str,
    file: Path,
    metadata: dict[str, str],
    advance: Callable[[int], None],
    storage: FileStorage,
) -> dict:
    """Send `file` (resuming a stored upload of it); the final answer's headers."""
    client = tus.TusClient(f"{base_url}/api/admin/uploads", headers={"Authorization": f"Bearer {token}"})
    uploader = _uploader(client, file, metadata, storage)
    advance(uploader.offset)
    total = uploader.get_file_size()
    while uploader.offset < total:
        before = uploader.offset
        uploader.upload_chunk()
        advance(uploader.offset - before)
    with file.open("rb") as stream:  # done: a later upload of the same file is a new one
        storage.remove_item(Fingerprint().get_fingerprint(stream))
    return dict(uploader.request.response_headers) if uploader.request is not None else {}


def _storage(base_url: str) -> FileStorage:
    """Where tuspy keeps the addresses of unfinished uploads to `base_url`'s server."""
    server = hashlib.sha256(base_url.encode()).hexdigest()[:12]
    path = config_dir() / f"uploads-{server}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    return FileStorage(str(path))


@app.command("upload")
def upload(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="The video file (any format ffmpeg reads).", show_default=False)],
    event: Annotated[str, typer.Option("--event", help="The event the video is for (its 24-hex id).")],
    title: Annotated[str | None, typer.Option("--title", help="What staff and viewers see it as.")] = None,
) -> None:
    """Upload a video for an event; an interrupted upload resumes when run again."""
    options = options_of(ctx)
    event_id = object_id(event, "an event id", "`touchline events list` shows them")
    if not file.is_file():
        raise fail(f"{file} is not a file")
    size = file.stat().st_size
    if size == 0:
        raise fail(f"{file} is empty: there is nothing to upload")

    async def signed_in(api: AdminClient) -> tuple[str, str]:
        await api.get("/admin/media_jobs", params={"limit": 1})  # signs in, and checks the role early
        assert api.token is not None
        return api.base_url, api.token

    base_url, token = api_call(options, signed_in)
    metadata = {"event": event_id, "filename": file.name[:200]}
    if title:
        metadata["title"] = title
    try:
        with byte_progress(f"Uploading {file.name}", total=size, show=not options.as_json) as advance:
            headers = _upload(base_url, token, file, metadata, advance, _storage(base_url))
    except TusCommunicationError as refused:
        if refused.status_code:
            raise fail(
                f"The upload was refused: {_envelope_message(refused.response_content, refused.status_code)}"
            ) from None
        raise fail(f"{unreachable(base_url, refused)}; run the command again to resume the upload") from None
    except (RequestException, OSError) as lost:
        raise fail(f"{unreachable(base_url, lost)}; run the command again to resume the upload") from None
    lowered = {key.lower(): value for key, value in headers.items()}
    result = {"job": lowered.get("upload-job"), "asset": lowered.get("upload-asset"), "event": event_id, "bytes": size}
    if options.as_json:
        print_json(result)
        return
    console = new_console()
    console.print(f"Uploaded {file.name} ({size} bytes) for event {event_id}.")
    if result["job"]:
        console.print(
            f"Transcoding job {result['job']} is queued (asset {result['asset']}): touchline jobs show {result['job']}"
        )


ASSET_HEADERS = ["ID", "Kind", "State", "Title", "Length", "Made (UTC)"]


def _length(milliseconds: int | None) -> str:
    if milliseconds is None:
        return NONE
    minutes, seconds = divmod(round(milliseconds / 1000), 60)
    return f"{minutes}:{seconds:02d}"


@app.command("list")
def list_media(
    ctx: typer.Context,
    event: Annotated[str, typer.Argument(metavar="EVENT_ID", help="The event (its 24-hex id).", show_default=False)],
) -> None:
    """An event's media: uploads (with their state while transcoding), live recordings, clips, samples."""
    options = options_of(ctx)
    event_id = object_id(event, "an event id", "`touchline events list` shows them")
    content = api_call(options, lambda api: api.get(f"/admin/events/{event_id}/assets"))
    if options.as_json:
        print_json(content)
        return
    console = new_console()
    rows = [
        [
            a["_id"],
            a["kind"],
            a["state"],
            a.get("title") or a.get("sample") or NONE,
            _length(a.get("durationMs")),
            when(a["created"]),
        ]
        for a in content["assets"]
    ]
    if not rows:
        console.print(f"Event {event_id} has no media.")
        return
    print_rows(console, f"Media of event {event_id}", ASSET_HEADERS, rows)
