"""`touchline media upload|list|show|attach|cut|delete`: the media library (issue 29 §4). Uploads
need the admin role, as do attach, cut and delete (cli/commands/media_assets.py); list and show
the support role.

`upload` sends a match recording or a highlight reel for an event, resumably, over tus 1.0 with
tuspy, in CHUNK_BYTES pieces with a progress bar on stderr; then it follows the transcoding job
with a bar of its percent until the asset is ready (and, with `--as`, published). Stopped
(network, Ctrl-C) and run again, it resumes: an unfinished upload from where the server stands
(tuspy remembers its address in the CLI's configuration directory, keyed by the file's
fingerprint), a finished one by following its job again rather than uploading the file twice.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
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
from ..terminal_text import echo
from . import media_assets
from .media_assets import AttachAs
from .progress import byte_progress, percent_progress
from .staff_api import NONE, api_call, new_console, object_id, print_json, print_rows
from .staff_options import options_of, staff_group

app = staff_group("The media library: upload videos for events (admin staff).")

FOLLOW_SECONDS = 1.0
PUBLISH_WAIT_SECONDS = 15.0  # a job that publishes its asset does it just after it is done
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


def _remembered(base_url: str) -> Path:
    """Uploads finished whose job this command may still follow, per server: a command stopped
    while transcoding runs, run again, follows the job rather than uploading the file again."""
    server = hashlib.sha256(base_url.encode()).hexdigest()[:12]
    return config_dir() / f"uploaded-{server}.json"


def _remember(base_url: str, key: str, value: dict | None) -> None:
    path = _remembered(base_url)
    known = _recall_all(path)
    if value is None:
        known.pop(key, None)
    else:
        known[key] = value
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(known))


def _recall_all(path: Path) -> dict:
    try:
        known = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return known if isinstance(known, dict) else {}


def _upload_key(file: Path, event_id: str) -> str:
    with file.open("rb") as stream:
        return f"{Fingerprint().get_fingerprint(stream)}:{event_id}"


def _follow(options, job_id: str, show: bool) -> dict:
    """The job, polled every FOLLOW_SECONDS with a bar of its percent, until it ends (and, when it
    publishes the asset, until it has)."""

    async def follow(api: AdminClient) -> dict:
        with percent_progress("Transcoding: queued", show=show) as update:
            published_by = None
            while True:
                job = (await api.get(f"/admin/media_jobs/{job_id}"))["job"]
                update(job["percent"], f"Transcoding: {job['state']}")
                if job["state"] not in ("queued", "running"):
                    waits_to_publish = job.get("attachAs") and "attached" not in job and not job.get("error")
                    if job["state"] != "done" or not waits_to_publish:
                        return job
                    published_by = published_by or time.monotonic() + PUBLISH_WAIT_SECONDS
                    if time.monotonic() > published_by:
                        return job
                await asyncio.sleep(FOLLOW_SECONDS)

    return api_call(options, follow)


def _report(job: dict, console) -> None:
    if job["state"] == "done":
        console.print(f"Transcoded: asset {job.get('asset', NONE)} is ready.")
        if job.get("attached"):
            console.print(f"Published as {job['attachAs']}: event {job['attached']}.")
        elif job.get("error"):
            console.print(job["error"])
        else:
            console.print(f"Publish it with: touchline media attach {job.get('asset', 'ASSET_ID')} --as archive")
        return
    raise fail(f"Transcoding job {job['_id']} {job['state']}" + (f": {job['error']}" if job.get("error") else ""))


@app.command("upload")
def upload(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="The video file (any format ffmpeg reads).", show_default=False)],
    event: Annotated[str, typer.Option("--event", help="The event the video is for (its 24-hex id).")],
    title: Annotated[str | None, typer.Option("--title", help="What staff and viewers see it as.")] = None,
    as_: Annotated[
        AttachAs | None, typer.Option("--as", help="Once transcoded, publish it as its event's archive or a highlight.")
    ] = None,
    wait: Annotated[bool, typer.Option("--wait/--no-wait", help="Follow its transcoding to the end.")] = True,
) -> None:
    """Upload a video for an event and follow its transcoding; run again after a stop, it resumes."""
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
    key = _upload_key(file, event_id)
    console = new_console()
    earlier = _recall_all(_remembered(base_url)).get(key)
    if earlier is not None:
        result = {**earlier, "event": event_id, "bytes": size}
        if not options.as_json:
            console.print(f"{file.name} was uploaded already: following its transcoding job {earlier['job']}.")
    else:
        metadata = {"event": event_id, "filename": file.name[:200]}
        if title:
            metadata["title"] = title
        if as_ is not None:
            metadata["as"] = as_.value
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
        result = {
            "job": lowered.get("upload-job"),
            "asset": lowered.get("upload-asset"),
            "event": event_id,
            "bytes": size,
        }
        if not options.as_json:
            console.print(f"Uploaded {file.name} ({size} bytes) for event {event_id}.")
    if not result["job"]:
        raise fail("The server answered the last bytes without a transcoding job")
    if not wait:
        if options.as_json:
            print_json(result)
        else:
            console.print(
                f"Transcoding job {result['job']} is queued (asset {result['asset']}):"
                f" touchline jobs show {result['job']}"
            )
        return
    _remember(base_url, key, {"job": result["job"], "asset": result["asset"]})
    try:
        job = _follow(options, result["job"], show=not options.as_json)
    except KeyboardInterrupt:
        echo(
            f"Stopped following: transcoding job {result['job']} goes on. Run the same command again to follow it,"
            f" or: touchline jobs show {result['job']}",
            err=True,
        )
        raise typer.Exit(130) from None
    _remember(base_url, key, None)
    if options.as_json:
        print_json({**result, "transcoding": job})
        if job["state"] != "done":
            raise typer.Exit(1)
        return
    _report(job, console)


@app.command("list")
def list_media(
    ctx: typer.Context,
    event: Annotated[
        str | None,
        typer.Argument(metavar="[EVENT_ID]", help="Only this event's media, every kind.", show_default=False),
    ] = None,
    limit: Annotated[int, typer.Option("--limit", min=1, max=200, help="How many, newest first.")] = 50,
) -> None:
    """The library's uploads, recordings and highlights, newest first; or all of one event's media."""
    options = options_of(ctx)
    if event is not None:
        event_id = object_id(event, "an event id", "`touchline events list` shows them")
        content = api_call(options, lambda api: api.get(f"/admin/events/{event_id}/assets"))
        title, empty = f"Media of event {event_id}", f"Event {event_id} has no media."
    else:
        content = api_call(options, lambda api: api.get("/admin/media_assets", {"limit": limit}))
        title, empty = "The media library", "The media library is empty: `touchline media upload` adds to it."
    if options.as_json:
        print_json(content)
        return
    console = new_console()
    if not content["assets"]:
        console.print(empty)
        return
    print_rows(console, title, media_assets.ASSET_HEADERS, [media_assets.asset_row(a) for a in content["assets"]])


app.command("show")(media_assets.show)
app.command("attach")(media_assets.attach)
app.command("cut")(media_assets.cut)
app.command("delete")(media_assets.delete)
