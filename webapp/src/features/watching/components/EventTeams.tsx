import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { useAppConfig } from "@/lib/config";
import type { EventTeam } from "@/entities/event";
import { useLocalePath } from "@/i18n/useLocalePath";
import { FallbackImage } from "@/ui/images/FallbackImage";
import "./EventTeams.css";

function TeamBadge({ team, side }: { team: EventTeam; side: "home" | "away" }) {
  const { t } = useTranslation("catalog");
  const localePath = useLocalePath();
  const teamPagesOff = useAppConfig().options.disable_team_page;
  const content = (
    <>
      <FallbackImage
        className="event-teams__logo"
        src={team.logoUrl}
        alt=""
        fallback="generic"
        width={64}
        height={64}
      />
      <span className="event-teams__name" dir="auto">
        {team.name}
      </span>
      <span className="event-teams__side">{t(`event.${side}`)}</span>
    </>
  );
  const style = { "--team-color": team.color } as React.CSSProperties;
  // With team pages disabled (config option disable_team_page) no link leads to one.
  return teamPagesOff ? (
    <div className="event-teams__team" style={style}>
      {content}
    </div>
  ) : (
    <Link className="event-teams__team" style={style} to={localePath(`/team/${encodeURIComponent(team.id)}`)}>
      {content}
    </Link>
  );
}

/** Home and away side by side, with logos and colours; optionally the score between them. */
export function EventTeams({
  teams,
  score,
}: {
  teams: { home: EventTeam; away: EventTeam };
  score?: { home: number; away: number };
}) {
  const { t } = useTranslation("catalog");
  return (
    <div className="event-teams">
      <TeamBadge team={teams.home} side="home" />
      <span
        className="event-teams__versus"
        aria-label={score ? t("stats.score", { home: score.home, away: score.away }) : undefined}
      >
        {score ? `${score.home} – ${score.away}` : t("event.versus")}
      </span>
      <TeamBadge team={teams.away} side="away" />
    </div>
  );
}
