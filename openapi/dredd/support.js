// Helpers shared by the Dredd request files in ./requests/ (see hooks.js).
const fs = require('fs');

const fixtures = JSON.parse(fs.readFileSync(process.env.TOUCHLINE_CONTRACT_FIXTURES, 'utf8'));
const { ids, base } = fixtures;
const NOBODY = 'ffffffffffffffffffffffff'; // a valid 24-hex id that the seed never produces
const INVALID_BODY = JSON.stringify({ page: 'first', size: 10 }); // `page` must be an integer
let counter = 0;

function keepExample() {}

function emptyMap(t, path) {
  const body = JSON.parse(t.expected.body);
  const parent = path.slice(0, -1).reduce((node, key) => node[key], body);
  parent[path[path.length - 1]] = {};
  t.expected.body = JSON.stringify(body);
}

function setBody(t, body) {
  t.request.body = typeof body === 'string' ? body : JSON.stringify(body);
}

// request.uri is relative to the API base; fullPath is what Dredd requests.
function setPath(t, uri) {
  const prefix = t.fullPath.slice(0, t.fullPath.length - t.request.uri.length);
  t.request.uri = uri;
  t.fullPath = prefix + uri;
}

function setToken(t, token) {
  t.request.headers.Authorization = `Bearer ${token}`;
}

function dropToken(t) {
  delete t.request.headers.Authorization;
}

function uniqueDevice() {
  counter += 1;
  return `Dredd/${process.pid}.${counter}`;
}

async function api(method, path, body, token) {
  const headers = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const answer = await fetch(`${base}/api${path}`, { method, headers, body: body && JSON.stringify(body) });
  const json = await answer.json();
  if (!answer.ok) throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(json)}`);
  return json;
}

// The newest confirmation token mailed to `email`: the contract server writes every confirmation
// mail to TOUCHLINE_MAIL_DROP_DIR as JSON (a test-only setting, refused in production).
async function verificationToken(email) {
  const dir = process.env.TOUCHLINE_MAIL_DROP_DIR;
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const mails = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort().reverse()
      .map((f) => JSON.parse(fs.readFileSync(`${dir}/${f}`, 'utf8')))
      .filter((m) => m.to === email.toLowerCase() && m.kind === 'email_verification');
    if (mails.length) return mails[0].text.match(/\/auth\/verify\/\?token=(\S+)/)[1];
    await new Promise((resolve) => setTimeout(resolve, 100)); // a resent link is written after the answer
  }
  throw new Error(`no confirmation mail to ${email} in ${dir}`);
}

// A fresh account for transactions that end or change a session (logout, delete_account, ...):
// signed up, and its confirmation link opened (which signs it in).
async function signUp(extra = {}) {
  counter += 1;
  const email = `dredd-${process.pid}-${counter}-${Date.now()}@example.com`;
  const password = 'ledger quartz harbour 2026';
  const device = uniqueDevice();
  await api('POST', '/user/register', {
    email, password, displayName: 'Dredd', device_id: device, device_name: device, strategy: 'refresh', ...extra,
  });
  const answer = await api('POST', '/user/verify_email', {
    token: await verificationToken(email), device_id: device, device_name: device, strategy: 'refresh',
  });
  const { profile, tokenData } = answer.content;
  return { email, password, device, userId: profile.userId, ...tokenData };
}

let seeded;
// A seeded game (the fixtures' `event`): its external id, teams and league, which exist.
async function seededGame() {
  if (!seeded) seeded = (await api('GET', `/event/get_by_id/id/${ids.event}`)).content;
  return seeded;
}

let eventCounter = 0;
// A new game of `status` (upcoming unless said) between the seeded game's teams, in its league
// and sport (so it has eventTeams and a metaTitle, as the example), made through the API.
async function newEvent(status = 'upcoming', extra = {}) {
  eventCounter += 1;
  const game = await seededGame();
  const body = {
    title: `Dredd match ${process.pid}.${eventCounter}`,
    event_date: new Date(Date.now() + 24 * 3600 * 1000).toISOString(),
    sportType: game.sportType,
    status,
    identities: game.mediaIdentities.map((i) => i._id),
    homeTeamId: game.eventTeams.homeTeam.teamId,
    awayTeamId: game.eventTeams.awayTeam.teamId,
    ...extra,
  };
  return (await api('POST', '/admin/events', body, fixtures.tokens.staff)).content;
}

module.exports = {
  fixtures, ids, base, NOBODY, INVALID_BODY, keepExample, emptyMap, setBody, setPath, setToken, dropToken,
  uniqueDevice, api, signUp, verificationToken, seededGame, newEvent,
};
