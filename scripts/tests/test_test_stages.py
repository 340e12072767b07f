"""scripts/test_stages.py: `make test`'s waves of stages, each timed, every failure reported."""

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "test_stages.py"

MAKEFILE = """\
first:
\t@echo first-ran
beside:
\t@echo beside-ran
broken:
\t@echo broken-ran; exit 3
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
