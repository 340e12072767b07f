"""Calendar feeds and files in tests: made and read through the API, parsed with `icalendar` as a
calendar app would, and events made through the staff API (removed after each test)."""

from urllib.parse import urlsplit

import icalendar


async def new_feed(client, user) -> str:
    """A new feed of `user`: its address, as the API shows it once."""
    answer = await client.post("/api/user/calendar_feed", headers=user["headers"])
    assert answer.status_code == 200, answer.text
    return answer.json()["content"]["url"]


def path_of(url: str) -> str:
    return url[url.index("/api/") :]


def parsed(answer) -> icalendar.Calendar:
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == "text/calendar"
    return icalendar.Calendar.from_ical(answer.content)


async def read_feed(client, url: str) -> icalendar.Calendar:
    return parsed(await client.get(path_of(url)))


def entries(document: icalendar.Calendar) -> dict[str, icalendar.cal.Component]:
    """The VEVENTs by event id (their UID's part before the @)."""
    return {str(entry["uid"]).partition("@")[0]: entry for entry in document.walk("VEVENT")}


async def follow(client, user, kind: str, reference_id: str) -> None:
    answer = await client.post(
        "/api/follow/save", json={"type": kind, "reference_id": reference_id}, headers=user["headers"]
    )
    assert answer.status_code == 200, answer.text


def uid_of(settings, event_id: str) -> str:
    return f"{event_id}@{urlsplit(settings.base_url).hostname}"


def sequence_of(entry: icalendar.cal.Component) -> int:
    return int(entry.decoded("sequence"))
