// Dredd requests for timeline tags (tag tag). Tags go on a seeded archived game, which carries
// official match tags from the seed; transactions that save, change or remove tags use a fresh
// account, so the demo viewer keeps no tags and its save budget is never spent.
const { base, NOBODY, setBody, setToken, dropToken, api, signUp } = require('../support');

let archived; // {id, teamId} of a seeded archived game

async function archivedGame() {
  if (!archived) {
    const answer = await api('POST', '/event/list', {
      page: 0, size: 20, filters: { media_type: ['event'], status: ['archived'], sportType: ['football'] },
    });
    const game = answer.content.entries.find((e) => e.eventTeams);
    if (!game) throw new Error('the seed has no archived football game');
    archived = { id: game._id, teamId: game.eventTeams.homeTeam.teamId };
  }
  return archived;
}

// The contract's example tag, on the seeded game (times in seconds, within the game's video).
async function exampleTag(t) {
  const game = await archivedGame();
  return { ...JSON.parse(t.request.body), targetId: game.id, teamId: game.teamId };
}

// A fresh account holding one private tag: {account, tag}.
async function accountWithTag() {
  const game = await archivedGame();
  const account = await signUp();
  const answer = await api('POST', '/tag/saveV2', {
    targetId: game.id, title: 'Goal', startTime: 754, endTime: 772, type: 'game', subtype: 'goal', videoType: 'vod',
  }, account.access_token);
  return { account, tag: answer.content };
}

async function postStatus(path, body, token) {
  const answer = await fetch(`${base}/api${path}`, {
    method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: answer.status, retryAfter: Number(answer.headers.get('Retry-After') || 0) };
}

module.exports = {
  list_tags: {
    200: async (t) => {
      const game = await archivedGame(); // its official tags are global
      setBody(t, { global: true, page: 0, size: 999, targetId: game.id });
    },
    400: (t) => setBody(t, { targetId: NOBODY, size: 1000 }), // at most 999
    401: dropToken,
    404: (t) => setBody(t, { global: true, page: 0, size: 999, targetId: NOBODY }),
  },
  save_tag: {
    200: async (t) => {
      setToken(t, (await signUp()).access_token);
      setBody(t, await exampleTag(t));
    },
    400: async (t) => setBody(t, { ...(await exampleTag(t)), startTime: 772, endTime: 754 }), // end before start
    401: dropToken,
    // The demo viewer's profile has globalTags false.
    403: async (t) => setBody(t, { ...(await exampleTag(t)), global: true }),
    404: async (t) => setBody(t, { ...(await exampleTag(t)), targetId: NOBODY }),
    429: async (t) => {
      // Save with a fresh account until the per-account limit refuses, early enough in the
      // limit's window that the transaction itself still falls in it.
      const account = await signUp();
      const body = await exampleTag(t);
      for (let n = 0; n < 10000; n += 1) {
        const { status, retryAfter } = await postStatus('/tag/saveV2', body, account.access_token);
        if (status === 429 && retryAfter >= 5) break;
        if (status === 429) await new Promise((resolve) => { setTimeout(resolve, (retryAfter + 1) * 1000); });
        else if (status !== 200) throw new Error(`saving a tag answered ${status}`);
      }
      setToken(t, account.access_token);
      setBody(t, body);
    },
  },
  update_tag: {
    200: async (t) => {
      const { account, tag } = await accountWithTag();
      setToken(t, account.access_token);
      setBody(t, { _id: tag._id, title: 'Goal - header', endTime: 775 });
    },
    400: (t) => setBody(t, { _id: NOBODY }), // nothing to change (minProperties)
    401: dropToken,
    403: async (t) => { // making a tag global needs globalTags
      const { account, tag } = await accountWithTag();
      setToken(t, account.access_token);
      setBody(t, { _id: tag._id, global: true });
    },
    404: (t) => setBody(t, { _id: NOBODY, title: 'Goal - header' }),
  },
  remove_tags: {
    200: async (t) => {
      const { account, tag } = await accountWithTag();
      setToken(t, account.access_token);
      setBody(t, { ids: [tag._id] });
    },
    400: (t) => setBody(t, { ids: [] }), // at least one id
    401: dropToken,
  },
};
