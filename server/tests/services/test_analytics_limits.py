"""server.services.analytics_limits: whose budget a batch spends, and how sizes are measured."""

import pytest

from server.services.analytics_limits import address_subject, senders, serialized_size


@pytest.mark.parametrize(
    ("address", "subject"),
    [
        ("203.0.113.7", "203.0.113.7"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff::9", "2001:db8:1:2::/64"),
        ("::ffff:203.0.113.7", "203.0.113.7"),
        ("testclient", "testclient"),
        (None, "unknown"),
    ],
)
def test_an_ipv6_client_is_counted_by_its_64(address, subject):
    assert address_subject(address) == subject


def test_a_viewer_spends_their_own_budget_and_an_anonymous_batch_each_of_its_ids():
    events = [{"anonymousId": "b-browser"}, {"anonymousId": "a-browser"}, {"anonymousId": "b-browser"}]
    assert senders(events, "viewer-1") == ["user:viewer-1"]
    assert senders(events, None) == ["anonymous:a-browser", "anonymous:b-browser"]


def test_sizes_are_compact_json_in_utf8():
    assert serialized_size({"a": "é"}) == len('{"a":"é"}'.encode())
    assert serialized_size({"a": "\ud800"}) == len('{"a":"\\ud800"}')  # a lone surrogate, escaped
    assert serialized_size({"n": 10**40}) == len('{"n":1' + "0" * 40 + "}")
