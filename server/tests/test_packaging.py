"""The installed package carries the server and the CLI, never their test suites."""

import tomllib

from setuptools import find_namespace_packages

from server.settings import PROJECT_ROOT


def test_the_installed_package_leaves_the_test_suites_out():
    found = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    # What setuptools finds from pyproject.toml (`namespaces` is on by default there).
    packages = set(find_namespace_packages(where=PROJECT_ROOT, include=found["include"], exclude=found["exclude"]))
    assert {"server.api.http", "server.services.commerce", "server.migrations.versions", "cli.commands"} <= packages
    assert not [name for name in packages if name.endswith(".tests") or ".tests." in name]
