// hls.js ships its light build (no subtitles, alternate audio, DRM or interstitials, which no stream
// here uses) without type declarations of its own: it has the full build's API.
declare module "hls.js/light" {
  import Hls from "hls.js";
  export default Hls;
  export * from "hls.js";
}
