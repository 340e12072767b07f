"""Rich progress for the CLI's long work (seeding, bulk code issue, billing runs), on stderr so
stdout keeps only the command's result (CSV, JSON) for pipes and scripts."""

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    DownloadColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    SpinnerColumn,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
    TransferSpeedColumn,
)


def _console() -> Console:
    # Made per use: stderr of the moment (CliRunner swaps it in tests).
    return Console(stderr=True, highlight=False)


@contextmanager
def _bar(
    description: str, total: int, show: bool, columns: tuple[ProgressColumn, ...]
) -> Iterator[Callable[[int], None]]:
    if not show:
        yield lambda n: None
        return
    with Progress(*columns, console=_console(), transient=False) as progress:
        task = progress.add_task(description, total=total)
        yield lambda n: progress.advance(task, n)


def progress_bar(description: str, *, total: int, show: bool = True) -> AbstractContextManager[Callable[[int], None]]:
    """A bar from 0 to `total`; yields `advance(n)`. `show=False` (one quick step) shows nothing."""
    return _bar(
        description,
        total,
        show,
        (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()),
    )


def byte_progress(description: str, *, total: int, show: bool = True) -> AbstractContextManager[Callable[[int], None]]:
    """A bar of bytes sent (size, speed and time left); yields `advance(n)`."""
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        TimeRemainingColumn(),
    )
    return _bar(description, total, show, columns)


@contextmanager
def percent_progress(description: str, *, show: bool = True) -> Iterator[Callable[[float, str], None]]:
    """A bar from 0 to 100 % for work another process does (a transcoding job); yields
    `update(percent, description)`."""
    if not show:
        yield lambda percent, text: None
        return
    columns = (TextColumn("{task.description}"), BarColumn(), TaskProgressColumn(), TimeElapsedColumn())
    with Progress(*columns, console=_console(), transient=False) as progress:
        task = progress.add_task(description, total=100)
        yield lambda percent, text: progress.update(task, completed=percent, description=text)


@contextmanager
def spinner(description: str) -> Iterator[Callable[[str], None]]:
    """A spinner with the elapsed time while waiting for work of unknown length; yields
    `describe(text)` to change what it says."""
    with Progress(
        SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(), console=_console(), transient=True
    ) as progress:
        task = progress.add_task(description, total=None)
        yield lambda text: progress.update(task, description=text)


@contextmanager
def steps(total: int) -> Iterator[Callable[[str], None]]:
    """A bar over `total` named steps; yields `begin(name)`: the previous step is done, `name`
    runs now. The bar is full when the block ends without an error."""
    with Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=_console(),
    ) as progress:
        task = progress.add_task("Starting", total=total)
        started = 0

        def begin(name: str) -> None:
            nonlocal started
            if started:
                progress.advance(task)
            started += 1
            progress.update(task, description=name)

        yield begin
        progress.update(task, completed=total, description="Done")
