"""Team logos and posters as small SVGs, drawn from fixtures/catalogue.yaml.

    python -m server.seed.artwork        # rewrites fixtures/logos/*.svg and fixtures/posters/*.svg

Logos: a shield, roundel or pennant-badge (picked from the slug's hash) in the team's colours
with its short name. Posters (16:9): a diagonal gradient with stripes, the title and a
subtitle, for sports, leagues, channels and teams. Output is a pure function of the YAML, so
a test can check the committed files are what this writes.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from xml.sax.saxutils import escape

from .fixtures import FIXTURES_DIR, CatalogueSpec, SportSpec, TeamSpec, load_catalogue

FONT = 'font-family="Arial,Helvetica,sans-serif" font-weight="700"'
SHAPES = {
    "shield": '<path d="M60 5 110 19v40c0 30-22 48-50 57C32 107 10 89 10 59V19z" fill="{p}" stroke="{s}" '
    'stroke-width="6"/><path d="M13 70h94c-5 18-23 32-47 40-24-8-42-22-47-40z" fill="{s}" '
    'opacity=".35"/>',
    "roundel": '<circle cx="60" cy="60" r="55" fill="{s}"/><circle cx="60" cy="60" r="46" fill="{p}"/>'
    '<circle cx="60" cy="60" r="40" fill="none" stroke="{s}" stroke-width="2" opacity=".6"/>',
    "badge": '<path d="M60 4 114 32v56L60 116 6 88V32z" fill="{p}" stroke="{s}" stroke-width="6"/>'
    '<path d="M6 32 60 4l54 28-54 20z" fill="{s}" opacity=".3"/>',
}


def _luminance(colour: str) -> float:
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def _contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def ink(background: str, preferred: str | None = None) -> str:
    """The preferred colour if it reads well on the background, else white or near-black."""
    if preferred and _contrast(preferred, background) >= 4.5:
        return preferred
    return max(("#ffffff", "#111111"), key=lambda c: _contrast(c, background))


def team_logo(team: TeamSpec) -> str:
    primary, secondary = team.colors
    shape = list(SHAPES)[int(hashlib.sha1(team.slug.encode()).hexdigest(), 16) % len(SHAPES)]
    label = team.short_name
    size = {2: 40, 3: 34, 4: 26}.get(len(label), 21)
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 120" width="120" height="120">'
        f"<title>{escape(team.name)}</title>"
        + SHAPES[shape].format(p=primary, s=secondary)
        + f'<text x="60" y="{60 + size * 0.36:.0f}" text-anchor="middle" font-size="{size}" {FONT} '
        f'fill="{ink(primary, secondary)}">{escape(label)}</text></svg>\n'
    )


def poster(title: str, subtitle: str, colours: tuple[str, str]) -> str:
    start, end = colours
    size = min(96, int(1120 / (0.6 * max(len(title), 1))))
    text = "#ffffff"  # on a dark scrim from the left, so it reads on any brand colour
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1280 720" width="1280" height="720">'
        f"<title>{escape(title)}</title>"
        f'<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="{start}"/>'
        f'<stop offset="1" stop-color="{end}"/></linearGradient><linearGradient id="s"><stop offset="0" '
        'stop-opacity=".6"/><stop offset=".8" stop-opacity="0"/></linearGradient></defs>'
        '<rect width="1280" height="720" fill="url(#g)"/><rect width="1280" height="720" fill="url(#s)"/>'
        '<path d="M760 0h160L560 720H400zM980 0h60L680 720h-60z" fill="#fff" opacity=".08"/>'
        f'<text x="80" y="{400 + size // 3}" font-size="{size}" {FONT} fill="{text}">{escape(title)}</text>'
        f'<text x="82" y="{470 + size // 3}" font-size="36" font-family="Arial,Helvetica,sans-serif" '
        f'fill="{text}" opacity=".85">{escape(subtitle)}</text>'
        f'<text x="82" y="100" font-size="28" {FONT} fill="{text}" opacity=".7" letter-spacing="6">'
        "TOUCHLINE</text></svg>\n"
    )


def competitions_line(sport: SportSpec) -> str:
    """A sport poster's subtitle: the competitions it streams now (archived ones are history)."""
    count = sum(1 for league in sport.leagues if not league.archived)
    return f"{count} competition{'' if count == 1 else 's'} live and on demand"


def render_all(spec: CatalogueSpec | None = None) -> dict[str, str]:
    """Relative path (logos/<slug>.svg, posters/<slug>.svg) -> SVG text."""
    spec = spec or load_catalogue()
    files: dict[str, str] = {}
    for team in spec.teams.values():
        files[f"logos/{team.slug}.svg"] = team_logo(team)
        league = spec.league(team.league)
        files[f"posters/{team.slug}.svg"] = poster(team.name, f"{team.city} \u2022 {league.title}", team.colors)
    for sport in spec.sports:
        files[f"posters/{sport.slug}.svg"] = poster(sport.title, competitions_line(sport), sport.colors)
        for league in sport.leagues:
            files[f"posters/{league.slug}.svg"] = poster(
                league.title, f"{sport.title} \u2022 {league.short_title}", league.colors
            )
    for channel in spec.channels:
        files[f"posters/{channel.slug}.svg"] = poster(channel.title, "24/7 live channel", channel.colors)
    return dict(sorted(files.items()))


def write_all(root: Path = FIXTURES_DIR, spec: CatalogueSpec | None = None) -> list[Path]:
    """Write every SVG under root and remove SVGs the catalogue no longer has. Returns changed files."""
    files = render_all(spec)
    changed = []
    for folder in ("logos", "posters"):
        (root / folder).mkdir(parents=True, exist_ok=True)
        for stale in (root / folder).glob("*.svg"):
            if f"{folder}/{stale.name}" not in files:
                stale.unlink()
                changed.append(stale)
    for relative, svg in files.items():
        path = root / relative
        if not path.exists() or path.read_text() != svg:
            path.write_text(svg)
            changed.append(path)
    return changed


def main() -> int:
    changed = write_all()
    print(f"{len(render_all())} SVGs, {len(changed)} changed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
