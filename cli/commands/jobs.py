"""`touchline jobs list|show|cancel`: the media library's transcoding queue (issue 29 §4).

`list` and `show` need the support role; `cancel` the admin role. A running job shows its percent
and the time ffmpeg's speed leaves it; a failed one ffmpeg's reason.
"""

from enum import StrEnum
from typing import Annotated

import typer

from ..terminal_text import echo
from .staff_api import NONE, api_call, new_console, object_id, print_json, print_rows, when
from .staff_options import options_of, staff_group

app = staff_group("The transcoding queue of the media library (support staff; cancel: admin).")

HEADERS = ["ID", "Kind", "State", "Progress", "Title", "Event", "Asset", "Tries", "Queued (UTC)", "Why it failed"]


class JobState(StrEnum):
    queued = "queued"
    running = "running"
    done = "done"
    failed = "failed"
    cancelled = "cancelled"


def progress_text(job: dict) -> str:
    if job["state"] != "running":
        return "100%" if job["state"] == "done" else NONE
    eta = job.get("etaSeconds")
    left = f", {eta // 60}m{eta % 60:02d}s left" if eta is not None else ""
    return f"{job['percent']:.0f}%{left}"


def _row(job: dict) -> list[str]:
    return [
        job["_id"],
        job["kind"],
        job["state"],
        progress_text(job),
        job.get("title") or NONE,
        job.get("event") or NONE,
        job.get("asset") or NONE,
        str(job["attempts"]),
        when(job["created"]),
        job.get("error") or NONE,
    ]


def _job_id(value: str) -> str:
    return object_id(value, "a job id", "`touchline jobs list` shows them")


@app.command("list")
def list_jobs(
    ctx: typer.Context,
    state: Annotated[JobState | None, typer.Option("--state", help="Only jobs in this state.")] = None,
    limit: Annotated[int, typer.Option("--limit", min=1, max=200, help="How many, newest first.")] = 20,
) -> None:
    """The queue, newest first."""
    options = options_of(ctx)
    params: dict = {"limit": limit}
    if state is not None:
        params["state"] = state.value
    content = api_call(options, lambda api: api.get("/admin/media_jobs", params))
    if options.as_json:
        print_json(content)
        return
    console = new_console()
    if not content["jobs"]:
        console.print("No transcoding jobs." if state is None else f"No {state.value} transcoding jobs.")
        return
    print_rows(console, "Transcoding jobs", HEADERS, [_row(job) for job in content["jobs"]])


@app.command("show")
def show(
    ctx: typer.Context,
    job_id: Annotated[str, typer.Argument(metavar="ID", help="The job's id (see `touchline jobs list`).")],
) -> None:
    """One job: its state, progress and, for a failed one, why."""
    options = options_of(ctx)
    job_id = _job_id(job_id)
    content = api_call(options, lambda api: api.get(f"/admin/media_jobs/{job_id}"))
    if options.as_json:
        print_json(content)
        return
    print_rows(new_console(), f"Transcoding job {job_id}", HEADERS, [_row(content["job"])])


@app.command("cancel")
def cancel(
    ctx: typer.Context,
    job_id: Annotated[str, typer.Argument(metavar="ID", help="The job's id (see `touchline jobs list`).")],
) -> None:
    """Cancel a queued or running job: ffmpeg stops, its output and the uploaded file are removed."""
    options = options_of(ctx)
    job_id = _job_id(job_id)
    content = api_call(options, lambda api: api.post(f"/admin/media_jobs/{job_id}/cancel"))
    if options.as_json:
        print_json(content)
        return
    echo(f"Cancelled transcoding job {job_id}; what it was making is removed.")
