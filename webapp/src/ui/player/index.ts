export { Player } from "./Player";
export { preloadPlayer } from "./load";
export type { PlayerHandle, PlayerMarker, PlayerProps, PlayerSource } from "./types";
export { parseSignedUrl, sameStream, streamClaims, tokenClaims } from "./streamUrl";
