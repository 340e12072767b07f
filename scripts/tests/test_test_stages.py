"""scripts/test_stages.py: `make test`'s waves of stages, each timed, every failure reported."""

import subprocess
import sys
from pathlib import Path

from scripts import test_stages as stages

SCRIPT = Path(__file__).resolve().parents[1] / "test_stages.py"

MAKEFILE = """\
first:
\t@echo first-ran
beside:
\t@echo beside-ran
broken:
\t@echo broken-ran; echo "FAILED tests/test_x.py::test_one - assert 1 == 2"; echo "1 failed, 9 passed"; exit 3
last:
\t@echo last-ran
"""


def _run(tmp_path: Path, *waves: str) -> subprocess.CompletedProcess:
    (tmp_path / "Makefile").write_text(MAKEFILE)
    return subprocess.run(
        [sys.executable, str(SCRIPT), *waves], cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False
    )


def test_every_stage_runs_and_the_summary_times_each(tmp_path):
    result = _run(tmp_path, "first beside", "last")
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert "first-ran" in out and "beside-ran" in out and "last-ran" in out
    summary = out[out.index("time per stage") :]
    for stage in ("first", "beside", "last", "total"):
        assert f"  {stage} " in summary
    assert "FAILED" not in summary


def test_a_failing_stage_fails_the_run_but_the_next_waves_still_run(tmp_path):
    result = _run(tmp_path, "first broken", "last")
    assert result.returncode == 1
    assert "broken: FAILED (exit 2)" in result.stdout  # make says 2 whatever the recipe said
    assert "broken-ran" in result.stdout
    assert "last-ran" in result.stdout
    summary = result.stdout[result.stdout.index("time per stage") :]
    assert [line.split()[0] for line in summary.splitlines() if "FAILED" in line] == ["broken"]


def test_a_side_stage_prints_after_the_wave_not_inside_the_first_stages_output(tmp_path):
    out = _run(tmp_path, "first beside").stdout
    assert out.index("first-ran") < out.index("beside: its output") < out.index("beside-ran")


def test_no_wave_is_a_usage_error(tmp_path):
    assert _run(tmp_path).returncode == 2


def test_the_stages_of_a_lane_run_one_after_the_other_and_are_timed_apart(tmp_path):
    result = _run(tmp_path, "first+last beside")
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert out.index("first-ran") < out.index("last-ran")
    summary = out[out.index("time per stage") :]
    assert [line.split()[0] for line in summary.splitlines()[1:]] == ["first", "last", "beside", "total"]


def test_the_end_of_the_run_names_what_failed_in_each_failed_stage_before_the_table(tmp_path):
    out = _run(tmp_path, "first broken", "last").stdout
    report = out[out.index("==== broken failed: ====") :]
    assert report.index("FAILED tests/test_x.py::test_one - assert 1 == 2") < report.index("time per stage")
    assert "1 failed, 9 passed" in report
    assert "first-ran" not in report and "last-ran" not in report


def test_failing_lines_are_picked_from_each_runners_report_without_colours():
    output = "\n".join(
        [
            "collected 10 items",
            "\x1b[31mFAILED\x1b[0m server/tests/test_a.py::test_b - AssertionError: no",
            " FAIL  tests/Page.test.tsx > shows the page",
            "  1) [chromium] › e2e/home.spec.ts:3:1 › home shows events",
            "ok 9 passed",
        ]
    ).encode()
    assert stages.failing_lines(output) == [
        "FAILED server/tests/test_a.py::test_b - AssertionError: no",
        " FAIL  tests/Page.test.tsx > shows the page",
        "  1) [chromium] › e2e/home.spec.ts:3:1 › home shows events",
    ]


def test_a_stage_that_fails_without_a_known_failing_line_shows_its_last_lines():
    output = "\n".join(f"line {n}" for n in range(40)).encode()
    assert stages.failing_lines(output) == [f"line {n}" for n in range(28, 40)]
