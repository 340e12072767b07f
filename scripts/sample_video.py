"""Generate the sample media in fixtures/media with ffmpeg: every sample's adaptive HLS ladder and
the test ad.

    python -m scripts.sample_video [--force] [--out DIR] [NAME ...]

Each sport's sample is a synthetic "broadcast": a coloured pitch/court/rink, a moving ball and a
scoreboard (team short names, a running clock, a score that changes), with a quiet sine tone.
`football-pano` is a wide (32:9) view of the same football pitch and play, the panoramic view
(`PanoStream`). The picture is drawn once, at the top rendition's size, and scaled down for the
others, in one ffmpeg run: every rendition has the same frames, the same keyframes and the same
segment boundaries, so players switch between them at any segment.

    <out>/<sample>/index.m3u8               master playlist, written here from what was encoded:
                                            BANDWIDTH is the peak of the real segments (bytes x 8
                                            / duration), AVERAGE-BANDWIDTH their mean, CODECS read
                                            from the bitstream (SPS and ADTS headers)
    <out>/<sample>/<rendition>/index.m3u8   the rendition's VOD media playlist (as ffmpeg writes it)
    <out>/<sample>/<rendition>/index<N>.ts  its segments: 2 s, each beginning with a keyframe
    <out>/ads/preroll.mp4                   the test ad (server.media.delivery.ads): H.264 + AAC, faststart

H.264 constrained baseline + AAC-LC in MPEG-TS, keyframes every 2 s exactly (no scene cuts), so
the simulated live playlist (server.media.delivery.live) and clips (server.media.delivery.clips) can cut and loop
at any segment boundary, in every rendition alike.

Outputs that already exist are skipped unless --force: encoding is cheap (a few seconds a
sample) but the committed files should only change on purpose. Encoding is bit-exact: the same
ffmpeg build writes the same bytes every time.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from server.media.delivery.ads import PREROLL
from server.media.delivery.urls import ADS_DIR
from server.media.packaging.measure import Picture, master_playlist, measure, starts_with_keyframe
from server.media.playlists import MASTER_PLAYLIST, parse_master_playlist, parse_vod_playlist

FIXTURES_MEDIA = Path(__file__).resolve().parents[1] / "fixtures" / "media"
PLAYLIST = MASTER_PLAYLIST  # index.m3u8: the master in a sample's directory, the media playlist in a rendition's
SEGMENT_PATTERN = "index%d.ts"
FPS = 30
SEGMENT_SECONDS = 2
AUDIO_BITRATE_K = 32
CROWD_ROWS = 48  # design pixels of stands along the top
CROWD_CELL = 2


@dataclass(frozen=True)
class Rendition:
    """One rung of a ladder: its directory name, picture size, H.264 level and rate control."""

    name: str
    width: int
    height: int
    level: str  # as ffmpeg's -level takes it; the smallest that fits the size at 30 fps
    crf: int
    maxrate_k: int  # a cap on the peak, with a VBV of twice that
    tune: str = "animation"  # flat synthetic pictures: bigger deblocking, more references


# The order is the master's: players start with the first variant (360p), then adapt.
BROADCAST_LADDER = (
    Rendition("360p", 640, 360, "3.0", crf=27, maxrate_k=400),
    Rendition("234p", 416, 234, "2.1", crf=27, maxrate_k=200),
    Rendition("720p", 1280, 720, "3.1", crf=26, maxrate_k=900),
    # Last: never where a player starts; what a multiview tile of four plays (issue 31 §3).
    Rendition("144p", 256, 144, "1.3", crf=33, maxrate_k=48),
)
PANO_LADDER = (
    Rendition("360p", 1280, 360, "3.1", crf=27, maxrate_k=600),
    Rendition("180p", 640, 180, "2.1", crf=27, maxrate_k=250),
)


@dataclass(frozen=True)
class Sample:
    name: str
    seconds: int
    background: str  # ffmpeg colour
    lines: str  # pitch markings colour
    ball: str
    tone_hz: int
    # drawtext text-expansion strings; `t` is seconds since the sample starts.
    home: str
    away: str
    home_score: str
    away_score: str
    clock: str
    period: str
    # pitch markings as drawbox specs "x:y:w:h" (in `lines`), drawn over accents "x:y:w:h:colour",
    # in design pixels (a `design` canvas, scaled to the top rendition's size)
    markings: tuple[str, ...]
    accents: tuple[str, ...] = ()
    ladder: tuple[Rendition, ...] = BROADCAST_LADDER
    design: tuple[int, int] = (640, 360)
    # where the 12 px ball's top-left corner is at time t, in design pixels
    ball_x: str = "314+250*sin(t*0.9)"
    ball_y: str = "200+95*sin(t*1.7+0.6)"
    panoramic: bool = False  # no scoreboard: a label and the clock only

    @property
    def top(self) -> Rendition:
        return max(self.ladder, key=lambda r: r.width * r.height)

    @property
    def scale(self) -> int:
        """Design pixels to the top rendition's pixels (a whole number, so lines stay sharp)."""
        factor, rest = divmod(self.top.width, self.design[0])
        if rest or self.top.height != self.design[1] * factor:
            raise ValueError(f"{self.name}: the top rendition is not a whole multiple of the design canvas")
        return factor


FOOTBALL_MARKINGS = (
    "20:70:600:3",
    "20:340:600:3",
    "20:70:3:273",
    "617:70:3:273",
    "319:70:3:273",
    "20:150:90:3",
    "20:260:90:3",
    "107:150:3:113",
    "530:150:90:3",
    "530:260:90:3",
    "530:150:3:113",
)

# Short names match seeded teams (fixtures/catalogue.yaml) so the overlay looks plausible;
# every game of a sport reuses its sport's sample.
SAMPLES: dict[str, Sample] = {
    s.name: s
    for s in (
        Sample(
            name="football",
            seconds=24,
            background="0x2e7d32",
            lines="white",
            ball="white",
            tone_hz=440,
            home="HCM",
            away="RIV",
            home_score="%{eif:1+gte(t,9):d}",
            away_score="1",
            clock="%{eif:67+floor((14+t)/60):d:2}:%{eif:mod(14+floor(t),60):d:2}",
            period="2H",
            markings=FOOTBALL_MARKINGS,
        ),
        Sample(
            name="basketball",
            seconds=24,
            background="0xc8742c",
            lines="0xfff3e0",
            ball="0xe65100",
            tone_hz=523,
            home="CBS",
            away="MTW",
            home_score="%{eif:61+2*floor(t/5)+floor(t/11):d}",
            away_score="%{eif:58+2*floor((t+2)/6)+floor((t+5)/13):d}",
            clock="%{eif:floor((465-t)/60):d:2}:%{eif:mod(465-floor(t),60):d:2}",
            period="Q3",
            markings=(
                "20:70:600:3",
                "20:340:600:3",
                "20:70:3:273",
                "617:70:3:273",
                "319:70:3:273",
                "20:165:120:3",
                "20:245:120:3",
                "137:165:3:83",
                "500:165:120:3",
                "500:245:120:3",
                "500:165:3:83",
            ),
        ),
        Sample(
            name="hockey",
            seconds=24,
            background="0xeef4fa",
            lines="0x1565c0",
            ball="black",
            tone_hz=392,
            home="NFW",
            away="GLB",
            home_score="%{eif:2+gte(t,14):d}",
            away_score="1",
            clock="%{eif:floor((750-t)/60):d:2}:%{eif:mod(750-floor(t),60):d:2}",
            period="P2",
            markings=("210:70:6:273", "424:70:6:273", "60:70:2:273", "578:70:2:273"),
            accents=("317:70:6:273:0xc62828", "312:199:16:16:0xc62828"),
        ),
        Sample(
            name="volleyball",
            seconds=24,
            background="0x1565c0",
            lines="white",
            ball="0xffeb3b",
            tone_hz=494,
            home="BBS",
            away="SDS",
            home_score="%{eif:18+floor(t/6):d}",
            away_score="%{eif:16+floor((t+3)/8):d}",
            clock="%{eif:71+floor((40+t)/60):d:2}:%{eif:mod(40+floor(t),60):d:2}",
            period="S3",
            markings=(
                "80:80:480:3",
                "80:330:480:3",
                "80:80:3:253",
                "557:80:3:253",
                "318:70:4:273",
                "238:80:3:253",
                "398:80:3:253",
            ),
            accents=("80:80:480:253:0xef6c00",),
        ),
        # The football pitch seen whole by a wide fixed camera: the same play (the ball follows the
        # broadcast's path, stretched), the same length, so its live loop keeps time with football's.
        Sample(
            name="football-pano",
            seconds=24,
            background="0x2e7d32",
            lines="white",
            ball="white",
            tone_hz=440,
            home="HCM",
            away="RIV",
            home_score="%{eif:1+gte(t,9):d}",
            away_score="1",
            clock="%{eif:67+floor((14+t)/60):d:2}:%{eif:mod(14+floor(t),60):d:2}",
            period="2H",
            markings=(
                "40:50:1200:3",
                "40:340:1200:3",
                "40:50:3:293",
                "1237:50:3:293",
                "639:50:3:293",
                "40:140:180:3",
                "40:250:180:3",
                "217:140:3:113",
                "1060:140:180:3",
                "1060:250:180:3",
                "1060:140:3:113",
            ),
            ladder=PANO_LADDER,
            design=(1280, 360),
            ball_x="634+500*sin(t*0.9)",
            ball_y="190+100*sin(t*1.7+0.6)",
            panoramic=True,
        ),
    )
}


def _font(bold: bool = True) -> str:
    """Resolve a font file through fontconfig, so no machine path is written down here."""
    query = "DejaVu Sans:bold" if bold else "DejaVu Sans"
    try:
        out = subprocess.run(["fc-match", "-f", "%{file}", query], capture_output=True, text=True, check=True)
        if out.stdout:
            return out.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        pass
    raise RuntimeError("no font found: install fonts-dejavu-core (fontconfig)")


def filter_graph(sample: Sample, text_dir: Path, font: str) -> str:
    """Pitch + markings + moving ball + scoreboard, drawn at the top rendition's size, then one
    output per rendition ([v0], [v1], ... in ladder order). Texts live in files to dodge filter
    escaping."""
    k = sample.scale
    texts = {
        "home": f"{sample.home}  {sample.home_score}",
        "dash": "-",
        "away": f"{sample.away_score}  {sample.away}",
        "clock": f"{sample.period} {sample.clock}",
        "brand": "TOUCHLINE SAMPLE",
        "pano": "TOUCHLINE PANORAMA",
    }
    for key, value in texts.items():
        (text_dir / f"{key}.txt").write_text(value)

    def text(key: str, x: str, y: int, size: int, extra: str = "fontcolor=white") -> str:
        return (
            f"drawtext=fontfile={font}:textfile={text_dir / (key + '.txt')}:x={x}:y={y * k}:fontsize={size * k}:{extra}"
        )

    def box(spec: str, colour: str) -> str:
        x, y, w, h = (int(v) * k for v in spec.split(":")[:4])
        return f"drawbox=x={x}:y={y}:w={w}:h={h}:color={colour}:t=fill"

    marks = [box(a, a.split(":")[4]) for a in sample.accents]
    marks += [box(m, sample.lines) for m in sample.markings]
    pitch = ",".join(["[0:v]format=yuv420p", *marks]) + "[field]"
    top = sample.top
    cell = CROWD_CELL
    crowd = (
        f"cellauto=rule=30:s={top.width // cell}x{CROWD_ROWS * k // cell}:rate={FPS}:random_fill_ratio=0.5"
        f":random_seed={sample.tone_hz}:start_full=1,trim=end_frame=1,loop=loop=-1:size=1,setpts=N/{FPS}/TB,"
        f"scale=iw*{cell}:ih*{cell}:flags=neighbor,format=rgb24,"
        "lutrgb=r='30+val*0.55':g='36+val*0.45':b='52+val*0.5',format=yuv420p[crowd]"
    )
    stands = "[field][crowd]overlay=x=0:y=0:shortest=1[pitch]"
    ball = f"color=c={sample.ball}:s={12 * k}x{12 * k}:r={FPS}[ball]"
    moving = f"[pitch][ball]overlay=x='{k}*({sample.ball_x})':y='{k}*({sample.ball_y})':shortest=1[play]"
    label = "fontcolor=white:box=1:boxcolor=black@0.45:boxborderw=" + str(4 * k)
    if sample.panoramic:
        board = [
            f"[play]drawbox=x={16 * k}:y={8 * k}:w={126 * k}:h={26 * k}:color=0xc8102e@0.9:t=fill",
            text("clock", str(26 * k), 13, 16),
            text("pano", f"w-tw-{16 * k}", 334, 12, label),
        ]
    else:
        board = [
            f"[play]drawbox=x={16 * k}:y={14 * k}:w={400 * k}:h={40 * k}:color=black@0.9:t=fill",
            f"drawbox=x={16 * k}:y={14 * k}:w={6 * k}:h={40 * k}:color=0x0b3d91:t=fill",
            text("home", str(32 * k), 24, 20),
            text("dash", str(131 * k), 33, 20),
            text("away", str(150 * k), 24, 20),
            f"drawbox=x={290 * k}:y={14 * k}:w={126 * k}:h={40 * k}:color=0xc8102e@0.9:t=fill",
            text("clock", str(302 * k), 25, 18),
            text("brand", f"w-tw-{16 * k}", 334, 12, label),
        ]
    n = len(sample.ladder)
    drawn = ",".join(board) + (f",split={n}" + "".join(f"[s{i}]" for i in range(n)) if n > 1 else "[s0]")
    outputs = []
    for i, rendition in enumerate(sample.ladder):
        # Each rendition says which it is (bottom left), so a viewer sees the player switch.
        (text_dir / f"rendition{i}.txt").write_text(rendition.name)
        size = max(8, rendition.height // 30)
        name = (
            f"drawtext=fontfile={font}:textfile={text_dir / f'rendition{i}.txt'}:x={size}:y=h-th-{size}"
            f":fontsize={size}:fontcolor=white:box=1:boxcolor=black@0.45:boxborderw={max(2, size // 4)}"
        )
        scaled = "" if rendition is sample.top else f"scale={rendition.width}:{rendition.height}:flags=lanczos,"
        outputs.append(f"[s{i}]{scaled}{name}[v{i}]")
    return ";".join([pitch, crowd, stands, ball, moving, drawn, *outputs])


BITEXACT = ["-fflags", "+bitexact", "-flags:v", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1"]


def _video_options(rendition: Rendition) -> list[str]:
    return [
        "-c:v",
        "libx264",
        "-profile:v",
        "baseline",
        "-level",
        rendition.level,
        "-pix_fmt",
        "yuv420p",
        "-preset",
        "slower",
        "-tune",
        rendition.tune,
        "-crf",
        str(rendition.crf),
        "-maxrate",
        f"{rendition.maxrate_k}k",
        "-bufsize",
        f"{2 * rendition.maxrate_k}k",
        "-g",
        str(FPS * SEGMENT_SECONDS),
        "-keyint_min",
        str(FPS * SEGMENT_SECONDS),
        "-sc_threshold",
        "0",
    ]


def _audio_options() -> list[str]:
    return ["-c:a", "aac", "-b:a", f"{AUDIO_BITRATE_K}k", "-ac", "1", "-ar", "44100"]


def ffmpeg_command(sample: Sample, workdir: Path, font: str) -> list[str]:
    """One run, one output per rendition: `<rendition>/index.m3u8` + `<rendition>/index<N>.ts`
    under the working directory."""
    graph = filter_graph(sample, workdir, font)
    top = sample.top
    command = [
        "ffmpeg",
        "-hide_banner",
        "-loglevel",
        "error",
        "-nostdin",
        "-y",
        "-f",
        "lavfi",
        "-i",
        f"color=c={sample.background}:s={top.width}x{top.height}:r={FPS}:d={sample.seconds}",
        "-f",
        "lavfi",
        "-i",
        f"sine=frequency={sample.tone_hz}:sample_rate=44100:duration={sample.seconds}",
        "-filter_complex",
        graph,
    ]
    for i, rendition in enumerate(sample.ladder):
        command += [
            "-map",
            f"[v{i}]",
            "-map",
            "1:a",
            "-af",
            "volume=0.12",
            *_video_options(rendition),
            *_audio_options(),
            # bitexact + no metadata: the same ffmpeg build writes the same bytes every time.
            *BITEXACT,
            "-f",
            "hls",
            "-hls_time",
            str(SEGMENT_SECONDS),
            "-hls_playlist_type",
            "vod",
            "-hls_segment_filename",
            f"{rendition.name}/{SEGMENT_PATTERN}",
            f"{rendition.name}/{PLAYLIST}",
        ]
    return command


def check_ladder(directory: Path, sample: Sample) -> None:
    """Raise ValueError unless the renditions are aligned: the same segments (count and
    durations), each beginning with a keyframe, and the master lists them all."""
    playlists = [parse_vod_playlist((directory / r.name / PLAYLIST).read_text()) for r in sample.ladder]
    durations = [tuple(s.duration for s in p.segments) for p in playlists]
    if len(set(durations)) != 1:
        raise ValueError(f"{sample.name}: renditions are not aligned: {durations}")
    if abs(playlists[0].duration - sample.seconds) > 1e-3:
        raise ValueError(f"{sample.name}: {playlists[0].duration} s instead of {sample.seconds} s")
    for rendition, playlist in zip(sample.ladder, playlists, strict=True):
        for segment in playlist.segments:
            if not starts_with_keyframe((directory / rendition.name / segment.uri).read_bytes()):
                raise ValueError(f"{sample.name}/{rendition.name}/{segment.uri} does not begin with a keyframe")
    ladder = parse_master_playlist((directory / PLAYLIST).read_text())
    if [v.uri for v in ladder.variants] != [f"{r.name}/{PLAYLIST}" for r in sample.ladder]:
        raise ValueError(f"{sample.name}: the master does not list the ladder")


def generate(sample: Sample, out_root: Path = FIXTURES_MEDIA, *, force: bool = False) -> bool:
    """Encode one sample into out_root/<name>/. Returns False when skipped (already there)."""
    target = out_root / sample.name
    if (target / PLAYLIST).exists() and not force:
        return False
    _need_ffmpeg()
    out_root.mkdir(parents=True, exist_ok=True)
    font = _font()
    with tempfile.TemporaryDirectory(prefix=f"tl-{sample.name}-") as tmp:
        work = Path(tmp)
        for rendition in sample.ladder:
            (work / rendition.name).mkdir()
        # ffmpeg runs inside the work dir so the playlists name segments relatively.
        subprocess.run(ffmpeg_command(sample, work, font), cwd=work, check=True)
        # Build the new directory beside the old one, then swap: no half-written sample.
        staged = out_root / f".{sample.name}.new"
        shutil.rmtree(staged, ignore_errors=True)
        staged.mkdir()
        for rendition in sample.ladder:
            (staged / rendition.name).mkdir()
            for f in sorted((work / rendition.name).iterdir()):
                if f.name == PLAYLIST or f.suffix == ".ts":
                    shutil.copy2(f, staged / rendition.name / f.name)
        measured = [measure(staged, Picture(r.name, r.width, r.height, FPS)) for r in sample.ladder]
        (staged / PLAYLIST).write_text(master_playlist(measured))
        check_ladder(staged, sample)
        shutil.rmtree(target, ignore_errors=True)
        staged.rename(target)
    return True


# --- the test ad ---------------------------------------------------------------------------------


def ad_command(font: str, text_dir: Path, output: Path) -> list[str]:
    """The test ad (server.media.delivery.ads.PREROLL): a card with a countdown and a progress bar, a soft
    tone, MP4 with the index in front (faststart) so a plain <video> starts before the end."""
    ad = PREROLL
    seconds = ad.seconds
    texts = {
        "title": "TOUCHLINE",
        "line": "Test advertisement",
        "count": f"Ad  %{{eif:ceil({seconds}-t):d}}",
        "url": "touchline.example",
    }
    for key, value in texts.items():
        (text_dir / f"{key}.txt").write_text(value)

    def text(key: str, x: str, y: str, size: int, colour: str = "white") -> str:
        source = f"drawtext=fontfile={font}:textfile={text_dir / (key + '.txt')}"
        return f"{source}:x={x}:y={y}:fontsize={size}:fontcolor={colour}"

    w, h = ad.width, ad.height
    graph = ";".join(
        [
            "[0:v]format=yuv420p,"
            + ",".join(
                [
                    f"drawbox=x=0:y={h - 90}:w={w}:h=90:color=0x0b3d91:t=fill",
                    text("title", "(w-tw)/2", "110", 64),
                    text("line", "(w-tw)/2", "190", 26, "0xffd54f"),
                    text("url", "24", f"{h - 58}", 22),
                    text("count", "w-tw-24", f"{h - 60}", 26),
                ]
            )
            + "[card]",
            f"color=c=0xffd54f:s={w}x8:r={FPS}[bar]",
            f"[card][bar]overlay=x='-{w}+{w}*t/{seconds}':y={h - 98}:shortest=1[v]",
        ]
    )
    return [
        "ffmpeg",
        "-hide_banner",
        "-loglevel",
        "error",
        "-nostdin",
        "-y",
        "-f",
        "lavfi",
        "-i",
        f"color=c=0x102a43:s={w}x{h}:r={FPS}:d={seconds}",
        "-f",
        "lavfi",
        "-i",
        f"sine=frequency=660:sample_rate=44100:duration={seconds}",
        "-filter_complex",
        graph,
        "-map",
        "[v]",
        "-map",
        "1:a",
        "-af",
        "volume=0.1",
        *_video_options(Rendition("ad", w, h, "3.0", crf=28, maxrate_k=400)),
        *_audio_options(),
        *BITEXACT,
        "-movflags",
        "+faststart",
        "-f",
        "mp4",
        str(output),
    ]


def generate_ad(out_root: Path = FIXTURES_MEDIA, *, force: bool = False) -> bool:
    target = out_root / ADS_DIR / PREROLL.file
    if target.exists() and not force:
        return False
    _need_ffmpeg()
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="tl-ad-") as tmp:
        work = Path(tmp)
        subprocess.run(ad_command(_font(), work, work / PREROLL.file), check=True)
        shutil.copy2(work / PREROLL.file, target)
    return True


def _need_ffmpeg() -> None:
    if shutil.which("ffmpeg") is None:
        raise RuntimeError("ffmpeg is not installed (apt-get install -y ffmpeg)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    names = [*SAMPLES, ADS_DIR]
    parser.add_argument("names", nargs="*", help=f"what to build (default: all of {', '.join(names)})")
    parser.add_argument("--force", action="store_true", help="re-encode even if the output exists")
    parser.add_argument("--out", type=Path, default=FIXTURES_MEDIA, help="output root (default fixtures/media)")
    args = parser.parse_args(argv)
    unknown = [n for n in args.names if n not in names]
    if unknown:
        parser.error(f"unknown sample(s): {', '.join(unknown)}")
    for name in args.names or names:
        if name == ADS_DIR:
            made = generate_ad(args.out, force=args.force)
        else:
            made = generate(SAMPLES[name], args.out, force=args.force)
        print(f"{name}: {'written' if made else 'exists, skipped (use --force)'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
