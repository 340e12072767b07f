// Dredd requests for the viewer's profile and watchlist (tag user) and follows (tag follow).
// Transactions that change data use a fresh account, so the demo viewer stays as seeded.
const { ids, NOBODY, keepExample, emptyMap, setBody, setPath, setToken, dropToken, api, signUp } = require('../support');

const WATCHLIST_LIMIT = 500;

// A fresh account whose watchlist holds `videoIds` (the first one added last, so listed first).
async function accountWatching(...videoIds) {
  const account = await signUp();
  for (const videoId of [...videoIds].reverse()) {
    await api('POST', '/user/add_to_watchlist', { video_id: videoId }, account.access_token);
  }
  return account;
}

// Ids of seeded events, highlights and clips, newest first, enough to fill a watchlist.
async function seededVideoIds(count) {
  const found = [];
  for (let page = 0; found.length < count; page += 1) {
    const answer = await api('POST', '/event/list', {
      page, size: 100, filters: { media_type: ['event', 'highlight', 'clip'] },
    });
    if (answer.content.entries.length === 0) throw new Error(`the seed has fewer than ${count} videos`);
    found.push(...answer.content.entries.map((e) => e._id));
  }
  return found.slice(0, count);
}

module.exports = {
  get_profile: {
    // The demo viewer has recorded no survey yet: expect the example without its record.
    200: (t) => emptyMap(t, ['content', 'options']),
    401: dropToken,
  },
  update_profile: {
    200: async (t) => {
      setToken(t, (await signUp()).access_token);
      const body = JSON.parse(t.request.body);
      // The example's category ids are not the seed's: point at a seeded league instead.
      delete body.data.identity;
      body.data.identityItem = ids.identity;
      body.data.clubList = [`identity_item|${ids.identity}`];
      body.data.options = {
        survey_user_experience_1: {
          surveyName: 'survey_user_experience_1', skipped: '2026-11-10T20:00:00Z', submitted: null, closed: null,
        },
      };
      setBody(t, body);
    },
    400: (t) => setBody(t, { data: { gender: 'unknown' } }), // not in the Gender enum
    401: dropToken,
    404: (t) => setBody(t, { data: { identityItem: NOBODY } }),
  },
  get_watchlist: {
    200: async (t) => setToken(t, (await accountWatching(ids.event)).access_token),
    400: (t) => setPath(t, '/user/get_watchlist?size=0'), // size is at least 1
    401: dropToken,
  },
  get_watchlist_ids: {
    200: async (t) => setToken(t, (await accountWatching(ids.event, ids.clip)).access_token),
    401: dropToken,
  },
  add_to_watchlist: {
    200: async (t) => {
      setToken(t, (await accountWatching(ids.clip)).access_token);
      setBody(t, { video_id: ids.event });
    },
    400: (t) => setBody(t, { video_id: 'not-an-id' }),
    401: dropToken,
    404: (t) => setBody(t, { video_id: NOBODY }),
    409: async (t) => {
      const videos = await seededVideoIds(WATCHLIST_LIMIT + 1);
      const account = await accountWatching(...videos.slice(0, WATCHLIST_LIMIT));
      setToken(t, account.access_token);
      setBody(t, { video_id: videos[WATCHLIST_LIMIT] });
    },
  },
  remove_from_watchlist: {
    200: async (t) => {
      setToken(t, (await accountWatching(ids.event, ids.clip)).access_token);
      setBody(t, { video_id: ids.clip });
    },
    400: (t) => setBody(t, { video_id: 'not-an-id' }),
    401: dropToken,
  },
  list_follows: {
    200: async (t) => {
      const account = await signUp();
      await api('POST', '/follow/save', { reference_id: ids.identity, type: 'identity_item' }, account.access_token);
      setToken(t, account.access_token);
      setPath(t, '/follow/list_by_user?size=150&version=2');
      // Keyed by parent ids, which differ between the example and the seed (see catalogue.js).
      emptyMap(t, ['content', 'entries', 0, 'item', 'media_parent_order']);
    },
    400: (t) => setPath(t, '/follow/list_by_user?version=1'), // only version 2 exists
    401: dropToken,
  },
  save_follow: {
    200: async (t) => {
      setToken(t, (await signUp()).access_token);
      setBody(t, { reference_id: ids.identity, type: 'identity_item' });
      emptyMap(t, ['content', 'item', 'media_parent_order']);
    },
    400: (t) => setBody(t, { reference_id: ids.identity, type: 'league' }), // not a FollowType
    401: dropToken,
    404: (t) => setBody(t, { reference_id: NOBODY, type: 'team' }),
    409: 'needs 500 followable items and the seed has fewer; server/tests/api/test_follow.py produces it',
  },
  remove_follow: {
    200: keepExample, // the demo viewer does not follow the example's id: removing it is harmless
    400: (t) => setBody(t, { id: 'not-an-id' }),
    401: dropToken,
  },
};
