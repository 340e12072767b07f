/*
 * What a media request is, as it goes out, in the terms CMCD (CTA-5004) uses: read from hls.js's
 * loader context and state by the engine, which sends the request where the QoE report says
 * (./cmcd adds the `CMCD=` query). This module travels with the engine (it is small); the rest of
 * ./qoe loads on the side.
 */

/** CMCD `ot`: m a playlist, i an init segment, v video, a audio, av both in one segment. */
export type CmcdObject = "m" | "i" | "v" | "a" | "av";

export interface MediaRequest {
  /** `ot`; null when hls.js does not know what the segment holds. */
  object: CmcdObject | null;
  /** `d`: the segment's duration, ms. */
  durationMs: number | null;
  /** `br`: the encoded bitrate of the rendition the segment belongs to, kbps. */
  bitrateKbps: number | null;
  /** `bl`: what is buffered ahead of the playhead, ms (segments only). */
  bufferMs: number | null;
  /** `mtp`: hls.js's estimate of the throughput, kbps. */
  throughputKbps: number | null;
  /** `su`: wanted urgently: nothing plays until it arrives (starting, seeking, a stall). */
  urgent: boolean;
  /** `st`: a live stream (else on demand). */
  live: boolean;
  /** `pr`: the playback rate (1.1 while a live viewer catches up). */
  rate: number;
}

/** The part of a loader context read here (hls.js's playlist and fragment contexts both fit). */
export interface RequestContext {
  url: string;
  frag?: { sn: number | "initSegment"; type: string; level: number; duration: number };
  part?: { duration: number } | null;
}

/** The part of hls.js's state read here (a structural subset of its `Hls`). */
export interface LoaderState {
  readonly levels: readonly { bitrate: number; audioCodec?: string; videoCodec?: string }[];
  readonly bandwidthEstimate: number;
  readonly mainForwardBufferInfo: { len: number } | null;
}

const positive = (value: number | undefined | null): value is number =>
  value != null && Number.isFinite(value) && value > 0;

function objectOf(frag: NonNullable<RequestContext["frag"]>, level: LoaderState["levels"][number] | undefined) {
  if (frag.sn === "initSegment") return "i";
  if (frag.type === "audio") return "a";
  // A segment is requested before hls.js has parsed it: the rendition's CODECS say what it holds.
  if (level?.videoCodec && level.audioCodec) return "av";
  if (level?.videoCodec) return "v";
  if (level?.audioCodec) return "a";
  return null;
}

/** What `context` asks for, with hls.js's and the media's state now. */
export function describeRequest(
  context: RequestContext,
  hls: LoaderState,
  media: HTMLMediaElement | null,
  live: boolean,
): MediaRequest {
  const urgent = !media || media.seeking || media.readyState < HTMLMediaElement.HAVE_FUTURE_DATA;
  const throughput = hls.bandwidthEstimate;
  const common = {
    throughputKbps: positive(throughput) ? throughput / 1000 : null,
    urgent,
    live,
    rate: media?.playbackRate || 1,
  };
  const frag = context.frag;
  if (!frag) return { ...common, object: "m", durationMs: null, bitrateKbps: null, bufferMs: null };
  const level = hls.levels[frag.level];
  const object = objectOf(frag, level);
  const isMedia = object === "v" || object === "a" || object === "av";
  const buffered = hls.mainForwardBufferInfo?.len;
  const duration = (context.part ?? frag).duration;
  return {
    ...common,
    object,
    durationMs: positive(duration) ? duration * 1000 : null,
    bitrateKbps: isMedia && positive(level?.bitrate) ? level.bitrate / 1000 : null,
    bufferMs: isMedia && buffered != null && Number.isFinite(buffered) ? buffered * 1000 : null,
  };
}
