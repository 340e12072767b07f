import { useMemo } from "react";
import { Link, useParams } from "react-router";
import type { Identity, Team } from "@/entities/identity";
import { useLocalePath } from "@/i18n/useLocalePath";
import { FollowButton } from "@/ui/follow/FollowButton";
import { followedItemOf } from "@/ui/follow/followedItem";
import { useIdentity } from "../api/getIdentity";
import { IdentityEvents } from "../components/IdentityEvents";
import { IdentityHeader } from "../components/IdentityHeader";
import { IdentityPageFrame } from "../components/IdentityPageFrame";
import { useEntityOrNotFound } from "@/lib/useEntityOrNotFound";

const isTeam = (identity: Identity): identity is Team => identity.mediaType === "team";

/** /team/:teamId: a team's header (logo, colours, links) and its games. */
export default function TeamPage() {
  const { teamId = "" } = useParams();
  const localePath = useLocalePath();
  const query = useEntityOrNotFound(useIdentity(teamId), "team", isTeam);
  const filters = useMemo(() => ({ "search.teams.id": [teamId] }), [teamId]);

  return (
    <IdentityPageFrame query={query}>
      {(team) => {
        const leagues = team.parents.filter((parent) => parent.mediaType === "identity_item");
        return (
          <>
            <IdentityHeader
              identity={team}
              actions={<FollowButton item={followedItemOf(team)} />}
              eyebrow={leagues.map((league, index) => (
                <span key={league.id}>
                  {index > 0 && " · "}
                  <Link to={localePath(`/league/${encodeURIComponent(league.id)}`)}>{league.title}</Link>
                </span>
              ))}
            />
            <IdentityEvents filters={filters} />
          </>
        );
      }}
    </IdentityPageFrame>
  );
}
