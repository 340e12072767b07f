import { useMemo } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { CatalogEvent } from "@/entities/event";
import type { ContinueWatchingItem } from "@/entities/playback";
import { useAppConfig } from "@/lib/config";
import { followedItems, useSession } from "@/session/store";
import { identityQueryOptions } from "../api/getIdentity";
import { clubPath, parseClub, useClubEvents } from "../api/listClubEvents";
import { useContinueWatching } from "../api/listContinueWatching";
import { followedIdsOf } from "@/entities/followed";
import { useFollowedEvents } from "../api/listFollowedEvents";
import { useRemovePlaybackPosition } from "../api/removePlaybackPosition";
import { useIdentityMapOptions } from "@/session/catalog/viewer";
import { RAIL_SIZE } from "../homeRails";
import { useLogFailure } from "@/lib/useLogFailure";
import { ContinueWatchingCard } from "./ContinueWatchingCard";
import { EventCard, EventCardSkeleton } from "@/ui/catalog/EventCard";
import { Rail } from "@/ui/catalog/Rail";

const eventKey = (event: CatalogEvent) => event.id;
const itemKey = (item: ContinueWatchingItem) => item.event.id;

/**
 * The signed-in viewer's own rails at the top of the home page, loaded after its first render:
 * "Your teams" (live and coming games of what they follow), "Continue watching" (started,
 * unfinished videos) and their favourite club's games. Each shows only when it has something.
 */
export default function PersonalRails({ now }: { now: Date }) {
  const { t } = useTranslation("following");
  const config = useAppConfig();

  const items = useSession(followedItems);
  const ids = useMemo(() => followedIdsOf(items), [items]);
  const follows = ids.identities.length + ids.teams.length > 0;
  const teams = useFollowedEvents(ids, RAIL_SIZE);

  const resume = useContinueWatching(RAIL_SIZE, true);
  // A list that fails to load is left out (and logged): the rest of the home page goes on.
  useLogFailure(resume.error, "Continue watching");
  const remove = useRemovePlaybackPosition();

  const favoriteClubId = useSession((state) => state.user?.favoriteClubId);
  const club = useMemo(() => parseClub(favoriteClubId), [favoriteClubId]);
  const clubEvents = useClubEvents(club, RAIL_SIZE);
  const clubIdentity = useQuery({
    ...identityQueryOptions(club?.id ?? "", useIdentityMapOptions()),
    enabled: club !== null,
  });
  const clubName = clubIdentity.data?.title;

  return (
    <>
      {follows && (
        <Rail
          title={t("home.your_teams")}
          query={teams}
          items={teams.data}
          itemKey={eventKey}
          renderItem={(event) => <EventCard event={event} now={now} />}
          skeleton={<EventCardSkeleton />}
        />
      )}
      {/* Nothing while it loads: most visits have nothing to continue, and a rail of skeletons
          that then vanished would move the page. */}
      {!!resume.data?.entries.length && (
        <Rail
          title={t("home.continue_watching")}
          query={resume}
          items={resume.data.entries}
          itemKey={itemKey}
          renderItem={(item) => (
            <ContinueWatchingCard
              item={item}
              now={now}
              onRemove={(entry) => remove.mutate(entry.event.id)}
              removing={remove.isPending && remove.variables === item.event.id}
            />
          )}
          skeleton={<EventCardSkeleton />}
        />
      )}
      {club && (
        <Rail
          title={clubName ? t("home.your_club_named", { name: clubName }) : t("home.your_club")}
          seeAllPath={clubPath(club, !config.options.disable_team_page)}
          query={clubEvents}
          items={clubEvents.data}
          itemKey={eventKey}
          renderItem={(event) => <EventCard event={event} now={now} />}
          skeleton={<EventCardSkeleton />}
        />
      )}
    </>
  );
}
