import { useMemo } from "react";
import { Link, useParams } from "react-router";
import { useTranslation } from "react-i18next";
import { useAppConfig } from "@/lib/config";
import type { Identity, SubCategory } from "@/entities/identity";
import { useLocalePath } from "@/i18n/useLocalePath";
import { FollowButton } from "@/ui/follow/FollowButton";
import { followedItemOf } from "@/ui/follow/followedItem";
import { useIdentity } from "../api/getIdentity";
import { useIdentityList } from "../api/listIdentities";
import { IdentityCard, IdentityCardSkeleton } from "../components/IdentityCard";
import { IdentityEvents } from "../components/IdentityEvents";
import { IdentityHeader } from "../components/IdentityHeader";
import { IdentityPageFrame } from "../components/IdentityPageFrame";
import { Rail } from "@/ui/catalog/Rail";
import { useEntityOrNotFound } from "@/lib/useEntityOrNotFound";

const isLeague = (identity: Identity): identity is SubCategory => identity.mediaType === "identity_item";
const teamKey = (team: Identity) => team.id;

function LeagueTeams({ leagueId }: { leagueId: string }) {
  const { t } = useTranslation("catalog");
  const teams = useIdentityList({ mediaType: "team", parentId: leagueId });
  return (
    <Rail
      title={t("league.teams")}
      size="narrow"
      query={teams}
      items={teams.data?.entries}
      itemKey={teamKey}
      renderItem={(team) => <IdentityCard identity={team} to={`/team/${encodeURIComponent(team.id)}`} />}
      skeleton={<IdentityCardSkeleton variant="logo" />}
    />
  );
}

/** /league/:leagueId: a league's header, its teams and its events. */
export default function LeaguePage() {
  const { leagueId = "" } = useParams();
  const localePath = useLocalePath();
  const teamPagesOff = useAppConfig().options.disable_team_page;
  const query = useEntityOrNotFound(useIdentity(leagueId), "league", isLeague);
  const filters = useMemo(
    () => ({ "identities.id": [leagueId], "identities.type": "identity_item" as const }),
    [leagueId],
  );

  return (
    <IdentityPageFrame query={query}>
      {(league) => {
        const category = league.parents.find((parent) => parent.mediaType === "identity");
        return (
          <>
            <IdentityHeader
              identity={league}
              actions={<FollowButton item={followedItemOf(league)} />}
              eyebrow={
                category && (
                  <Link to={localePath(`/category/${encodeURIComponent(category.id)}`)}>{category.title}</Link>
                )
              }
            />
            <IdentityEvents filters={filters}>{!teamPagesOff && <LeagueTeams leagueId={league.id} />}</IdentityEvents>
          </>
        );
      }}
    </IdentityPageFrame>
  );
}
