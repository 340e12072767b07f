// Dredd requests for the media library (tag admin): tus uploads (create, offset, bytes, delete),
// the transcoding queue (list, show, cancel) and the assets (list, show, publish, cut, delete). A
// complete upload is the shipped test ad (fixtures/media/ads/preroll.mp4: 6 s, 640x360), small
// enough to transcode in a moment: the contract server's queue makes it a ready asset.
const fs = require('fs');
const path = require('path');
const { ids, fixtures, NOBODY, setBody, setPath, setToken, dropToken, api, newEvent } = require('../support');

const asSupport = (t) => setToken(t, fixtures.tokens.support);
const asViewer = (t) => setToken(t, fixtures.tokens.viewer);
const VIDEO = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'fixtures', 'media', 'ads', 'preroll.mp4'));
const TUS = { 'Tus-Resumable': '1.0.0' };
const BYTES = 'application/offset+octet-stream';

const b64 = (text) => Buffer.from(text).toString('base64');
const metadata = (eventId, title = 'Dredd upload') => `event ${b64(eventId)},filename ${b64('preroll.mp4')},title ${b64(title)}`;

// A new upload of `length` bytes for the seeded game; its path below the API base.
async function newUpload(length, eventId = ids.event) {
  const answer = await fetch(`${fixtures.base}/api/admin/uploads`, {
    method: 'POST',
    headers: { ...TUS, Authorization: `Bearer ${fixtures.tokens.staff}`, 'Upload-Length': String(length), 'Upload-Metadata': metadata(eventId) },
  });
  if (answer.status !== 201) throw new Error(`create_upload answered ${answer.status}: ${await answer.text()}`);
  return answer.headers.get('location').replace(/^\/api/, '');
}

// A queued transcoding job: the test ad uploaded whole (for the seeded game, or `eventId`).
async function uploaded(eventId = ids.event) {
  const upload = await newUpload(VIDEO.length, eventId);
  const answer = await fetch(`${fixtures.base}/api${upload}`, {
    method: 'PATCH',
    headers: { ...TUS, Authorization: `Bearer ${fixtures.tokens.staff}`, 'Upload-Offset': '0', 'Content-Type': BYTES },
    body: VIDEO,
  });
  if (answer.status !== 204) throw new Error(`append_upload answered ${answer.status}: ${await answer.text()}`);
  return { job: answer.headers.get('upload-job'), asset: answer.headers.get('upload-asset') };
}

const newJob = async () => (await uploaded()).job;
const staffCall = (method, path, body) => api(method, path, body, fixtures.tokens.staff);

// A ready upload of an event of its own, made once: its job transcoded by the contract server.
let ready;
function readyAsset() {
  ready = ready || (async () => {
    const event = await newEvent();
    const { job, asset } = await uploaded(event._id);
    // The queue transcodes one job at a time, after the jobs other transactions queued before
    // it; beside the Python suites on two cores that took over two minutes once.
    for (let i = 0; i < 720; i += 1) {
      const { state } = (await staffCall('GET', `/admin/media_jobs/${job}`)).content.job;
      if (state === 'done') return asset;
      if (state !== 'queued' && state !== 'running') throw new Error(`the test ad's transcoding job is ${state}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error('the test ad was not transcoded within 6 minutes');
  })();
  return ready;
}

// The asset of a live event's sample stream: neither an upload nor a recording.
async function sampleAsset() {
  const event = await newEvent('live');
  return (await staffCall('GET', `/admin/events/${event._id}/assets`)).content.assets[0]._id;
}

// That asset, published as its event's archive: an event plays it.
async function playedAsset() {
  const asset = await readyAsset();
  await staffCall('POST', `/admin/media_assets/${asset}/attach`, { as: 'archive' });
  return asset;
}

// The request's tus headers, for an upload of the test ad.
function tusRequest(t, headers) {
  Object.assign(t.request.headers, TUS, headers);
}

function bytes(t, offset, body) {
  tusRequest(t, { 'Upload-Offset': String(offset), 'Content-Type': BYTES });
  t.request.body = body;
}

module.exports = {
  create_upload: {
    201: (t) => tusRequest(t, { 'Upload-Length': String(VIDEO.length), 'Upload-Metadata': metadata(ids.event) }),
    400: (t) => tusRequest(t, { 'Upload-Length': '100', 'Upload-Metadata': `filename ${b64('no-event.mp4')}` }),
    401: dropToken,
    403: asSupport,
    404: (t) => tusRequest(t, { 'Upload-Length': '100', 'Upload-Metadata': metadata(NOBODY) }),
    413: (t) => tusRequest(t, { 'Upload-Length': String(1024 ** 4 * 2), 'Upload-Metadata': metadata(ids.event) }),
    422: (t) => tusRequest(t, { 'Upload-Length': '0', 'Upload-Metadata': metadata(ids.event) }),
    507: 'the contract server has no media budget (TOUCHLINE_MEDIA_BUDGET_MB): tests/api/admin/test_uploads.py',
  },
  get_upload_offset: {
    200: 'Dredd sends a body with every request, which a HEAD may not have: server/tests/api/admin/test_uploads.py asks it',
    400: 'Dredd sends a body with every request, which a HEAD may not have: server/tests/api/admin/test_uploads.py asks it',
    401: 'Dredd sends a body with every request, which a HEAD may not have: server/tests/api/admin/test_uploads.py asks it',
    403: 'Dredd sends a body with every request, which a HEAD may not have: server/tests/api/admin/test_uploads.py asks it',
    404: 'Dredd sends a body with every request, which a HEAD may not have: server/tests/api/admin/test_uploads.py asks it',
  },
  append_upload: {
    // The whole test ad: the answer names the job and the asset it became.
    204: async (t) => {
      bytes(t, 0, VIDEO.toString('base64'));
      t.request.bodyEncoding = 'base64';
      setPath(t, await newUpload(VIDEO.length));
    },
    400: async (t) => { bytes(t, 0, 'x'); t.request.headers['Upload-Offset'] = 'start'; setPath(t, await newUpload(100)); },
    401: (t) => { bytes(t, 0, 'x'); dropToken(t); },
    403: (t) => { bytes(t, 0, 'x'); asSupport(t); },
    404: (t) => { bytes(t, 0, 'x'); setPath(t, `/admin/uploads/${NOBODY}`); },
    409: async (t) => { bytes(t, 5, 'x'); setPath(t, await newUpload(100)); },
    413: async (t) => { bytes(t, 0, 'more than ten bytes'); setPath(t, await newUpload(10)); },
    415: async (t) => { bytes(t, 0, 'x'); t.request.headers['Content-Type'] = 'text/plain'; setPath(t, await newUpload(100)); },
    422: async (t) => {
      const text = 'Team sheets and the referee report\n'.repeat(20);
      bytes(t, 0, text);
      setPath(t, await newUpload(Buffer.byteLength(text)));
    },
    423: 'needs a second PATCH of the same upload while the first writes: tests/api/admin/test_uploads.py',
  },
  delete_upload: {
    204: async (t) => { tusRequest(t); setPath(t, await newUpload(100)); },
    400: (t) => { tusRequest(t); setPath(t, '/admin/uploads/not-an-id'); },
    401: (t) => { tusRequest(t); dropToken(t); },
    403: (t) => { tusRequest(t); asSupport(t); },
    404: (t) => { tusRequest(t); setPath(t, `/admin/uploads/${NOBODY}`); },
    423: 'needs a PATCH writing the upload at the same moment: server/tests/media/sources/test_upload_files.py',
  },
  list_media_jobs: {
    200: async (t) => { await newJob(); setPath(t, '/admin/media_jobs?limit=5'); },
    400: (t) => setPath(t, '/admin/media_jobs?state=stuck'),
    401: dropToken,
    403: asViewer,
  },
  get_media_job: {
    200: async (t) => setPath(t, `/admin/media_jobs/${await newJob()}`),
    400: (t) => setPath(t, '/admin/media_jobs/not-an-id'),
    401: dropToken,
    403: asViewer,
    404: (t) => setPath(t, `/admin/media_jobs/${NOBODY}`),
  },
  list_media_assets: {
    200: async (t) => { await readyAsset(); setPath(t, '/admin/media_assets?limit=5'); },
    400: (t) => setPath(t, '/admin/media_assets?kind=trailer'),
    401: dropToken,
    403: asViewer,
  },
  get_media_asset: {
    200: async (t) => setPath(t, `/admin/media_assets/${(await uploaded()).asset}`),
    400: (t) => setPath(t, '/admin/media_assets/not-an-id'),
    401: dropToken,
    403: asViewer,
    404: (t) => setPath(t, `/admin/media_assets/${NOBODY}`),
  },
  delete_media_asset: {
    200: async (t) => setPath(t, `/admin/media_assets/${(await uploaded()).asset}`),
    400: (t) => setPath(t, '/admin/media_assets/not-an-id'),
    401: dropToken,
    403: asSupport,
    404: (t) => setPath(t, `/admin/media_assets/${NOBODY}`),
    409: async (t) => setPath(t, `/admin/media_assets/${await playedAsset()}`),
  },
  attach_media_asset: {
    200: async (t) => setPath(t, `/admin/media_assets/${await readyAsset()}/attach`),
    400: (t) => setBody(t, { as: 'trailer' }),
    401: dropToken,
    403: asSupport,
    404: (t) => setPath(t, `/admin/media_assets/${NOBODY}/attach`),
    409: async (t) => setPath(t, `/admin/media_assets/${await sampleAsset()}/attach`), // a sample: not an upload
  },
  cut_media_asset: {
    // The test ad is 6 s long: the example's range is past its end.
    201: async (t) => {
      setPath(t, `/admin/media_assets/${await readyAsset()}/cuts`);
      setBody(t, { from: 1, to: 4, title: 'Opening goal', as: 'highlight' });
    },
    400: async (t) => {
      setPath(t, `/admin/media_assets/${await readyAsset()}/cuts`);
      setBody(t, { from: 4, to: 1, title: 'Backwards' });
    },
    401: dropToken,
    403: asSupport,
    404: (t) => setPath(t, `/admin/media_assets/${NOBODY}/cuts`),
    409: async (t) => {
      setPath(t, `/admin/media_assets/${await sampleAsset()}/cuts`); // a sample: no recording
      setBody(t, { from: 1, to: 4, title: 'A loop' });
    },
  },
  cancel_media_job: {
    200: async (t) => setPath(t, `/admin/media_jobs/${await newJob()}/cancel`),
    400: (t) => setPath(t, '/admin/media_jobs/not-an-id/cancel'),
    401: dropToken,
    403: asSupport,
    404: (t) => setPath(t, `/admin/media_jobs/${NOBODY}/cancel`),
    409: async (t) => {
      const job = await newJob();
      await api('POST', `/admin/media_jobs/${job}/cancel`, undefined, fixtures.tokens.staff);
      setPath(t, `/admin/media_jobs/${job}/cancel`);
    },
  },
};
