"""The AsyncAPI document is valid, self-consistent and lists exactly the product's messages.

Self-contained on purpose (no server imports): it checks the document, not the code using it.
"""

import json
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft7Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7

ROOT = Path(__file__).resolve().parents[1]
DOCUMENT = yaml.safe_load((ROOT / "asyncapi.yaml").read_text(encoding="utf-8"))
# Vendored from the npm package @asyncapi/specs (schemas/2.6.0-without-$id.json): all its
# references are local, so validation never reaches the network.
ASYNCAPI_SCHEMA = json.loads((ROOT / "schema" / "asyncapi-2.6.0.json").read_text(encoding="utf-8"))

# The product specification, section 7 "Realtime" (plus the server-side names it declares).
CLIENT_MESSAGES = {"join-user-room", "leave-user-room", "join-event-room", "leave-event-room", "watch-room"}
SERVER_MESSAGES = {
    "event-url-change",
    "remove-user-device",
    "update-event",
    "user-purchase-status",
    "register-user",
    "unregister-user",
    "comment-on-media",
    "comment-on-media-deleted",
    "comment-on-media-updated",
    "ingest-state-change",  # issue 28 §5: staff are told when a live input changes state
    "media-job-change",  # issue 29 §4: staff follow the transcoding queue without polling
    "followed-event-live",  # issue 31 §4: go-live alerts of what the viewer follows
    "tags-change",  # issue 31 §2: key plays update as tags are added
    "qoe-alert",  # issue 32 §2: staff are told when an event's playback crosses a threshold
    "user-purchase-credited",  # issue 32 §3: a buyer credited for a failed stream
}

URI = "urn:touchline:asyncapi"
REGISTRY = Registry().with_resource(URI, Resource.from_contents(DOCUMENT, default_specification=DRAFT7))


def resolve(node):
    while isinstance(node, dict) and "$ref" in node:
        target = DOCUMENT
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        node = target
    return node


def validator(pointer: str) -> Draft7Validator:
    return Draft7Validator(
        {"$ref": f"{URI}{pointer}"}, registry=REGISTRY, format_checker=Draft7Validator.FORMAT_CHECKER
    )


def channel_messages(operation: str) -> dict[str, tuple[str, dict]]:
    """name -> (JSON pointer of the message, message object)."""
    refs = DOCUMENT["channels"]["/"][operation]["message"]["oneOf"]
    return {resolve(ref)["name"]: (ref["$ref"], resolve(ref)) for ref in refs}


ALL_MESSAGES = {**channel_messages("publish"), **channel_messages("subscribe")}
COMPONENT_SCHEMAS = DOCUMENT["components"]["schemas"]


def all_refs(node, found=None):
    found = [] if found is None else found
    if isinstance(node, dict):
        if isinstance(node.get("$ref"), str):
            found.append(node["$ref"])
        for value in node.values():
            all_refs(value, found)
    elif isinstance(node, list):
        for value in node:
            all_refs(value, found)
    return found


def test_document_is_valid_asyncapi_2_6():
    Draft7Validator.check_schema(ASYNCAPI_SCHEMA)
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in Draft7Validator(ASYNCAPI_SCHEMA).iter_errors(DOCUMENT)]
    assert errors == []


def test_every_reference_resolves():
    for ref in all_refs(DOCUMENT):
        assert ref.startswith("#/"), ref
        assert isinstance(resolve({"$ref": ref}), dict), ref


def test_message_names_are_exactly_the_products():
    assert set(channel_messages("publish")) == CLIENT_MESSAGES
    assert set(channel_messages("subscribe")) == SERVER_MESSAGES


@pytest.mark.parametrize("name", sorted(ALL_MESSAGES))
def test_payload_schema_is_valid_json_schema(name):
    _, message = ALL_MESSAGES[name]
    Draft7Validator.check_schema(resolve(message["payload"]))


@pytest.mark.parametrize("name", sorted(COMPONENT_SCHEMAS))
def test_component_schema_is_valid_and_its_examples_validate(name):
    schema = COMPONENT_SCHEMAS[name]
    Draft7Validator.check_schema(schema)
    assert schema.get("examples"), f"{name} has no examples"
    for example in schema["examples"]:
        validator(f"#/components/schemas/{name}").validate(example)


@pytest.mark.parametrize("name", sorted(ALL_MESSAGES))
def test_message_examples_validate_against_the_payload(name):
    pointer, message = ALL_MESSAGES[name]
    assert message.get("examples"), f"{name} has no examples"
    for example in message["examples"]:
        validator(f"{pointer}/payload").validate(example["payload"])


@pytest.mark.parametrize("name", sorted(CLIENT_MESSAGES))
def test_client_messages_document_a_json_string_ack(name):
    pointer, message = ALL_MESSAGES[name]
    ack = message["x-ack"]
    assert ack["examples"]
    for example in ack["examples"]:
        validator(f"{pointer}/x-ack/args").validate(example)
        validator(f"{pointer}/x-ack/payload").validate(json.loads(example))


def test_join_event_room_ack_has_the_ok_flag():
    ack = resolve(ALL_MESSAGES["join-event-room"][1]["x-ack"]["payload"])
    for branch in ack["oneOf"]:
        assert "ok" in resolve(branch)["required"]


@pytest.mark.parametrize("name", sorted(SERVER_MESSAGES))
def test_server_messages_name_their_room(name):
    room = ALL_MESSAGES[name][1]["x-room"]
    kind, _, key = room.partition(":")
    assert kind in {"user", "event", "ingest", "media", "qoe"} and key.startswith("{") and key.endswith("}"), room


def test_server_security_schemes_exist():
    schemes = DOCUMENT["components"]["securitySchemes"]
    for server in DOCUMENT["servers"].values():
        for requirement in server.get("security", []):
            assert set(requirement) <= set(schemes)


def test_websocket_binding_follows_the_ws_binding_0_1_0():
    # The AsyncAPI 2.6 schema does not look inside bindings; check the ws one by hand.
    binding = DOCUMENT["channels"]["/"]["bindings"]["ws"]
    assert set(binding) <= {"method", "query", "headers", "bindingVersion"}
    assert binding["method"] in {"GET", "POST"} and binding["bindingVersion"] == "0.1.0"
    Draft7Validator.check_schema(binding["query"])
    assert binding["query"]["type"] == "object" and "properties" in binding["query"]
    assert binding["query"]["properties"]["transport"]["const"] == "websocket"
