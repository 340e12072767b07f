"""The media routes as a test reaches them: the static part of the one ASGI app
(server.web.static_app) with the state the app's lifespan gives every request, whose database
the routes ask whether a viewer's session still stands."""

from server.tests.conftest import with_state
from server.web import static_app


def media_app(settings, database):
    return with_state(static_app(settings), {"database": database, "settings": settings})
