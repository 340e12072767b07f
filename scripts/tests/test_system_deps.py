"""scripts/system-deps: one list of the Debian packages, installed when it can, named when it cannot.

Each test runs the script with a PATH of its own: stubs for the commands the machine "has", and
stubs for `id`, `sudo` and `apt-get` that say who we are and record what would be installed.
"""

import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "system-deps"
# "rtmp-module" stands for nginx's RTMP module, a file rather than a command.
EVERY_COMMAND = [
    *("node", "npm", "chromium", "ffmpeg", "ffprobe", "nginx", "rtmp-module"),
    *("haproxy", "ss", "redis-server", "psql", "wrk"),
]
RTMP_MODULE = "usr/lib/nginx/modules/ngx_rtmp_module.so"


def _stub(folder: Path, name: str, body: str = "exit 0") -> None:
    path = folder / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)


@pytest.fixture
def machine(tmp_path: Path):
    """A PATH holding bash and the given commands; returns a runner of the script on it."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    bash = shutil.which("bash")
    assert bash is not None
    (bin_dir / "bash").symlink_to(bash)
    log = tmp_path / "apt-get.log"

    def run(*args: str, has: list[str], uid: int = 0, sudo_works: bool = False) -> subprocess.CompletedProcess:
        root = tmp_path / "root"
        for name in has:
            if name == "rtmp-module":
                (root / RTMP_MODULE).parent.mkdir(parents=True, exist_ok=True)
                (root / RTMP_MODULE).touch()
            else:
                _stub(bin_dir, name)
        _stub(bin_dir, "id", f"echo {uid}")
        _stub(bin_dir, "sudo", '[ "$1" = "-n" ] && exit 0; exec "$@"' if sudo_works else "exit 1")
        _stub(bin_dir, "apt-get", f'echo "$@" >> {log}')
        env = {"PATH": str(bin_dir), "HOME": str(tmp_path), "SYSTEM_DEPS_ROOT": str(root)}
        return subprocess.run(
            [bash, str(SCRIPT), *args], env=env, capture_output=True, text=True, timeout=30, check=False
        )

    run.log = log  # type: ignore[attr-defined]
    return run


def _without(*names: str) -> list[str]:
    return [c for c in EVERY_COMMAND if c not in names]


def test_a_missing_chromium_is_named_by_its_package(machine):
    result = machine("--check", "test", has=_without("chromium"))
    assert result.returncode == 1
    assert "missing Debian packages: chromium;" in result.stderr
    assert "apt-get install -y chromium'" in result.stderr


def test_nothing_missing_installs_nothing(machine):
    result = machine("test", has=EVERY_COMMAND)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert not machine.log.exists()


def test_as_root_the_missing_packages_are_installed_with_apt_get(machine):
    result = machine("test", has=_without("chromium", "ffmpeg", "ffprobe", "haproxy", "wrk"), uid=0)
    assert result.returncode == 0, result.stderr
    calls = machine.log.read_text().splitlines()
    assert calls[0] == "update -qq"
    # haproxy lives in sbin on a real machine: only found missing here when sbin lacks it too.
    expected = ["chromium", "ffmpeg", "wrk"] + ([] if Path("/usr/sbin/haproxy").exists() else ["haproxy"])
    assert sorted(calls[1].split()[3:]) == sorted(expected)
    assert calls[1].startswith("install -y -qq ")


def test_a_user_with_sudo_installs_through_sudo(machine):
    result = machine("test", has=_without("chromium"), uid=1000, sudo_works=True)
    assert result.returncode == 0, result.stderr
    assert machine.log.read_text().splitlines() == ["update -qq", "install -y -qq chromium"]


def test_without_root_or_sudo_the_exact_command_is_printed_and_the_run_fails(machine):
    result = machine("test", has=_without("chromium", "psql"), uid=1000)
    assert result.returncode == 1
    assert "sudo sh -c 'apt-get update && apt-get install -y chromium postgresql-client'" in result.stderr
    assert not machine.log.exists()


SERVING = ["node", "npm", "ffmpeg", "ffprobe", "nginx", "rtmp-module"]


def test_serving_needs_no_browser(machine):
    result = machine("--check", "serve", has=SERVING)
    assert result.returncode == 0, result.stderr


def test_serving_needs_nginx_with_its_rtmp_module_for_live_ingest(machine):
    result = machine("--check", "serve", has=[name for name in SERVING if name != "rtmp-module"])
    assert result.returncode == 1
    assert "libnginx-mod-rtmp" in result.stderr and "chromium" not in result.stderr


def test_serving_without_node_names_nodejs(machine):
    result = machine("--check", "serve", has=["npm"])
    assert result.returncode == 1
    assert "nodejs" in result.stderr


def test_an_unknown_profile_is_a_usage_error(machine):
    result = machine("deploy", has=EVERY_COMMAND)
    assert result.returncode == 2
    assert "unknown profile 'deploy'" in result.stderr


def test_the_ci_script_names_no_package_of_its_own():
    ci = (SCRIPT.parents[1] / ".ci" / "run").read_text()
    assert "apt-get" not in ci
    assert "make test" in ci


def test_nginx_without_its_rtmp_module_names_the_module_package(machine):
    result = machine("--check", "test", has=_without("rtmp-module"))
    assert result.returncode == 1
    assert "missing Debian packages: libnginx-mod-rtmp;" in result.stderr
