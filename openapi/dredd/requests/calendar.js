// Dredd requests for the calendar feeds (tag user) and an event's calendar file (tag event).
// A feed is made for a fresh account, so the demo viewer's stays as seeded. The iCalendar bodies
// carry the time they were written (DTSTAMP): they are checked by pytest's parser, not by text.
const { NOBODY, setPath, setToken, dropToken, signUp } = require('../support');

module.exports = {
  get_calendar_feed: {
    200: () => {},
    401: dropToken,
  },
  create_calendar_feed: {
    200: async (t) => setToken(t, (await signUp()).access_token),
    401: dropToken,
  },
  revoke_calendar_feed: {
    200: async (t) => setToken(t, (await signUp()).access_token),
    401: dropToken,
  },
  get_calendar_feed_ics: {
    // Dredd's text comparison of an iCalendar body runs for minutes (the run's tokens then expire):
    // the 200s are read by pytest's iCalendar parser and by Schemathesis instead.
    200: 'an iCalendar body is checked by server/tests/api/user/test_calendar_feed.py (icalendar parser)',
    400: (t) => setPath(t, '/calendar/not%20a%20secret.ics'), // a space is no secret's character
    404: (t) => setPath(t, '/calendar/tlcal_nobody-has-this-secret.ics'),
    429: 'the read budget per client address (60 a minute) is proved by pytest on an app of its own',
  },
  get_event_calendar: {
    200: 'an iCalendar body is checked by server/tests/api/event/test_event_calendar.py (icalendar parser)',
    400: (t) => setPath(t, '/event/calendar/not-an-id.ics'),
    404: (t) => setPath(t, `/event/calendar/${NOBODY}.ics`),
  },
};
