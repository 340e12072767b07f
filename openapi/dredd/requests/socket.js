// Dredd requests for staff socket messages (tag admin): POST /admin/socket/emit. The example
// (event-url-change to an event room, the event id taken from the room) is sent as it is; the
// server of `make contract` runs without Redis, so `manager` is in_process as in the example.
const { fixtures, setBody, setToken, dropToken, keepExample } = require('../support');

module.exports = {
  emit_socket_message: {
    200: keepExample,
    // The body fits the HTTP contract but not the message's AsyncAPI schema.
    400: (t) => setBody(t, {
      event: 'event-url-change', room: 'event:5f1c0a8e2b3d4c5e6f7a8b9c', payload: { eventUrl: 'ftp://cdn.example/a.m3u8' },
    }),
    401: dropToken,
    403: (t) => setToken(t, fixtures.tokens.viewer),
  },
};
