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

// A fresh account for transactions that end or change a session (logout, delete_account, ...).
async function signUp(extra = {}) {
  counter += 1;
  const email = `dredd-${process.pid}-${counter}-${Date.now()}@example.com`;
  const password = 'dredd contract password';
  const device = uniqueDevice();
  const answer = await api('POST', '/user/register', {
    email, password, displayName: 'Dredd', device_id: device, device_name: device, strategy: 'refresh', ...extra,
  });
  const { profile, tokenData } = answer.content;
  return { email, password, device, userId: profile.userId, ...tokenData };
}

module.exports = {
  fixtures, ids, base, NOBODY, INVALID_BODY, keepExample, emptyMap, setBody, setPath, setToken, dropToken,
  uniqueDevice, api, signUp,
};
