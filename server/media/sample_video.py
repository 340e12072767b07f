"""Generate the sample HLS videos in fixtures/media with ffmpeg.

    python -m server.media.sample_video [--force] [--out DIR] [NAME ...]

Each sample is a synthetic "broadcast": a coloured pitch/court/rink, a moving ball and a
scoreboard (team short names, a running clock, a score that changes), with a quiet sine tone.
H.264 baseline + AAC in MPEG-TS, 2 s segments with a keyframe at every segment start, so the
simulated live playlist (server.media.live) can cut and loop at any segment boundary.

Outputs that already exist are skipped unless --force: encoding is cheap (~3 s a sample) but
the committed files should only change on purpose.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

FIXTURES_MEDIA = Path(__file__).resolve().parents[2] / "fixtures" / "media"
PLAYLIST = "index.m3u8"
SEGMENT_PATTERN = "index%d.ts"
WIDTH, HEIGHT, FPS = 640, 360, 30
SEGMENT_SECONDS = 2


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
    # pitch markings as drawbox specs "x:y:w:h" (in `lines`), drawn over accents "x:y:w:h:colour"
    markings: tuple[str, ...]
    accents: tuple[str, ...] = ()


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
            markings=(
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
            ),
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
    """Pitch + markings + moving ball + scoreboard. Texts live in files to dodge filter escaping."""
    texts = {
        "home": f"{sample.home}  {sample.home_score}",
        "dash": "-",
        "away": f"{sample.away_score}  {sample.away}",
        "clock": f"{sample.period} {sample.clock}",
        "brand": "TOUCHLINE SAMPLE",
    }
    for key, value in texts.items():
        (text_dir / f"{key}.txt").write_text(value)

    def text(key: str, x: str, y: int, size: int, extra: str = "fontcolor=white") -> str:
        return f"drawtext=fontfile={font}:textfile={text_dir / (key + '.txt')}:x={x}:y={y}:fontsize={size}:{extra}"

    def box(spec: str, colour: str) -> str:
        x, y, w, h = spec.split(":")[:4]
        return f"drawbox=x={x}:y={y}:w={w}:h={h}:color={colour}:t=fill"

    marks = [box(a, a.split(":")[4]) for a in sample.accents]
    marks += [box(m, sample.lines) for m in sample.markings]
    pitch = ",".join(["[0:v]format=yuv420p", *marks]) + "[pitch]"
    ball = f"color=c={sample.ball}:s=12x12:r={FPS}[ball]"
    moving = "[pitch][ball]overlay=x='314+250*sin(t*0.9)':y='200+95*sin(t*1.7+0.6)':shortest=1[play]"
    board = (
        ",".join(
            [
                "[play]drawbox=x=16:y=14:w=400:h=40:color=black@0.75:t=fill",
                "drawbox=x=16:y=14:w=6:h=40:color=0x0b3d91:t=fill",
                text("home", "32", 24, 20),
                text("dash", "131", 33, 20),
                text("away", "150", 24, 20),
                "drawbox=x=290:y=14:w=126:h=40:color=0xc8102e@0.9:t=fill",
                text("clock", "302", 25, 18),
                text("brand", "w-tw-16", 334, 12, "fontcolor=white:box=1:boxcolor=black@0.45:boxborderw=4"),
            ]
        )
        + "[v]"
    )
    return ";".join([pitch, ball, moving, board])


def ffmpeg_command(sample: Sample, workdir: Path, font: str) -> list[str]:
    graph = filter_graph(sample, workdir, font)
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
        f"color=c={sample.background}:s={WIDTH}x{HEIGHT}:r={FPS}:d={sample.seconds}",
        "-f",
        "lavfi",
        "-i",
        f"sine=frequency={sample.tone_hz}:sample_rate=44100:duration={sample.seconds}",
        "-filter_complex",
        graph,
        "-map",
        "[v]",
        "-map",
        "1:a",
        "-af",
        "volume=0.12",
        "-c:v",
        "libx264",
        "-profile:v",
        "baseline",
        "-level",
        "3.0",
        "-pix_fmt",
        "yuv420p",
        "-preset",
        "medium",
        "-crf",
        "30",
        "-maxrate",
        "300k",
        "-bufsize",
        "600k",
        "-g",
        str(FPS * SEGMENT_SECONDS),
        "-keyint_min",
        str(FPS * SEGMENT_SECONDS),
        "-sc_threshold",
        "0",
        "-c:a",
        "aac",
        "-b:a",
        "48k",
        "-ac",
        "1",
        "-ar",
        "44100",
        # bitexact + no metadata: the same ffmpeg build writes the same bytes every time.
        "-fflags",
        "+bitexact",
        "-flags:v",
        "+bitexact",
        "-flags:a",
        "+bitexact",
        "-map_metadata",
        "-1",
        "-f",
        "hls",
        "-hls_time",
        str(SEGMENT_SECONDS),
        "-hls_playlist_type",
        "vod",
        "-hls_segment_filename",
        SEGMENT_PATTERN,
        PLAYLIST,
    ]


def generate(sample: Sample, out_root: Path = FIXTURES_MEDIA, *, force: bool = False) -> bool:
    """Encode one sample into out_root/<name>/. Returns False when skipped (already there)."""
    target = out_root / sample.name
    if (target / PLAYLIST).exists() and not force:
        return False
    if shutil.which("ffmpeg") is None:
        raise RuntimeError("ffmpeg is not installed (apt-get install -y ffmpeg)")
    out_root.mkdir(parents=True, exist_ok=True)
    font = _font()
    with tempfile.TemporaryDirectory(prefix=f"tl-{sample.name}-") as tmp:
        work = Path(tmp)
        # ffmpeg runs inside the work dir so the playlist names segments relatively.
        subprocess.run(ffmpeg_command(sample, work, font), cwd=work, check=True)
        # Build the new directory beside the old one, then swap: no half-written sample.
        staged = out_root / f".{sample.name}.new"
        shutil.rmtree(staged, ignore_errors=True)
        staged.mkdir()
        for f in sorted(work.iterdir()):
            if f.name == PLAYLIST or f.suffix == ".ts":
                shutil.copy2(f, staged / f.name)
        shutil.rmtree(target, ignore_errors=True)
        staged.rename(target)
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help=f"samples to build (default: all of {', '.join(SAMPLES)})")
    parser.add_argument("--force", action="store_true", help="re-encode even if the output exists")
    parser.add_argument("--out", type=Path, default=FIXTURES_MEDIA, help="output root (default fixtures/media)")
    args = parser.parse_args(argv)
    unknown = [n for n in args.names if n not in SAMPLES]
    if unknown:
        parser.error(f"unknown sample(s): {', '.join(unknown)}")
    for name in args.names or list(SAMPLES):
        made = generate(SAMPLES[name], args.out, force=args.force)
        print(f"{name}: {'written' if made else 'exists, skipped (use --force)'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
