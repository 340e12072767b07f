"""Schemathesis's example counts are chosen per operation (issue 27 §2), in the run's configuration."""

from functools import cache

import schemathesis
from schemathesis.config import ProjectConfig, SchemathesisConfig

from server.checks import contract


@cache
def operations_by_id(examples: int) -> tuple[dict, ProjectConfig]:
    ids = dict.fromkeys(set(contract.SCHEMATHESIS_IDS.values()), "0" * 24)
    config = SchemathesisConfig.from_str(contract.schemathesis_config(ids, examples))
    schema = schemathesis.openapi.from_path(str(contract.OPENAPI_PATH), config=config)
    operations = {}
    for result in schema.get_all_operations():
        operation = result.ok()  # type: ignore[union-attr]  # the contract parses: an Err would fail here
        operations[operation.definition.raw["operationId"]] = operation
    return operations, schema.config


def fuzzing_examples(operation_id: str, examples: int) -> int | None:
    operations, project = operations_by_id(examples)
    return project.generation_for(operation=operations[operation_id], phase="fuzzing").max_examples


def test_every_operation_with_fewer_examples_is_one_of_the_contract():
    operations, _ = operations_by_id(100)
    assert set(contract.FEWER_EXAMPLES) <= set(operations)


def test_a_password_operation_gets_a_quarter_of_the_examples_and_the_others_all_of_them():
    assert fuzzing_examples("change_password", 100) == 25
    assert fuzzing_examples("create_event", 100) == 25
    assert fuzzing_examples("list_events", 100) == 100


def test_a_small_run_still_gives_every_operation_a_few_examples():
    assert fuzzing_examples("register_user", 10) == 5
    assert fuzzing_examples("list_events", 10) == 10


def test_the_command_line_sets_no_example_count_that_would_override_the_operations():
    command = contract.schemathesis_command(
        contract.PROJECT_ROOT / "schemathesis.toml", "http://127.0.0.1:1", checks="all", phases="fuzzing", seed="1"
    )
    assert "--max-examples" not in command
